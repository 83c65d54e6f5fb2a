"""The lab with Glory & Support (issue 25): per-game figures (Glory per seat, objectives
held and scored by id, upgrades, markers, the deciding count) and the objective-balance
table (score rate when held, win correlation, §10.3's flags)."""

from __future__ import annotations

import math
import random
from typing import Any

import polars as pl
import pytest

from reliquary import default_content
from reliquary.engine import Settings
from reliquary.engine.modules import glory as g
from reliquary.engine.record import Game
from reliquary.lab.glory_balance import glory_summary, objective_balance
from reliquary.lab.runner import module_stats


def _game(winner: str | None, stats: dict[str, float], detail: str = g.BY_GLORY
          ) -> dict[str, Any]:
    return {"winner": winner, "reason": "points", "detail": detail,
            "module_stats": [{"name": f"glory.{k}", "value": v} for k, v in stats.items()]}


def test_game_stats_name_glory_objectives_upgrades_markers_and_the_decider() -> None:
    rng = random.Random(5)
    game = Game(default_content(), Settings.from_dict({"modules": ["glory"]}))
    while game.state.result is None:
        s = game.state
        if s.is_chance:
            outcomes = s.chance_outcomes()
            game.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            game.apply(rng.choice(s.legal_options()))
    events = [e for entry in game.history for e in entry.events]
    stats = {d["name"]: d["value"] for d in module_stats(game.state, events)}
    state = g.glory_state(game.state)
    assert stats["glory.glory_key"] == state.glory[0]
    assert stats["glory.glory_skull"] == state.glory[1]
    assert stats["glory.upgrades"] == len(state.bought[0]) + len(state.bought[1])
    drawn = {(e.data["player"], e.data["objective"]) for e in events
             if e.kind == "objective_draw"}
    for player, oid in drawn:
        assert stats[f"glory.held_{oid}_{'key' if player == 0 else 'skull'}"] == 1
    for player, oid in state.scored:
        assert stats[f"glory.scored_{oid}_{'key' if player == 0 else 'skull'}"] >= 1
    assert stats["glory.decided_by_glory"] == float(game.state.result.detail == g.BY_GLORY)


def test_objective_balance_rates_correlation_and_flags() -> None:
    rows = []
    for i in range(10):  # Key holds HoldTheLine every game and scores it in the 5 it wins
        won = i < 5
        rows.append(_game("key" if won else "skull",
                          {"held_HoldTheLine_key": 1, "glory_key": 3, "glory_skull": 1,
                           **({"scored_HoldTheLine_key": 1} if won else {}),
                           "held_Unbowed_skull": 1, "scored_Unbowed_skull": 1}))
    table = objective_balance(pl.DataFrame(rows))
    line = table.filter(pl.col("objective") == "HoldTheLine").row(0, named=True)
    assert (line["held"], line["scored"]) == (10, 5)
    assert line["score_rate"] == pytest.approx(0.5)
    assert line["win_if_scored"] == 1.0 and line["win_if_not"] == 0.0
    assert line["correlation"] == pytest.approx(1.0)
    assert line["flag"] == ""
    unbowed = table.filter(pl.col("objective") == "Unbowed").row(0, named=True)
    assert unbowed["score_rate"] == 1.0 and unbowed["flag"].startswith("too easy")
    never = table.filter(pl.col("objective") == "Scatter").row(0, named=True)
    assert never["held"] == 0 and math.isnan(never["score_rate"])
    summary = dict(glory_summary(pl.DataFrame(rows)).iter_rows())
    assert summary["games"] == 10 and summary["draw rate"] == 0.0
    assert summary["mean Glory, Key"] == 3.0


def test_base_game_runs_have_no_objective_table() -> None:
    frame = pl.DataFrame([{"winner": "key", "reason": "vigil", "detail": "x",
                           "module_stats": []}],
                         schema={"winner": pl.String, "reason": pl.String,
                                 "detail": pl.String,
                                 "module_stats": pl.List(pl.Struct({"name": pl.String,
                                                                    "value": pl.Float64}))})
    assert objective_balance(frame).is_empty()
