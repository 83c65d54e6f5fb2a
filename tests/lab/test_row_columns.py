"""Every per-seat column of the lab's game rows names the right seat (issue 31: a fault
giving Skull Key's rite passed every test). docs/lab.md: each game's row holds its
agents, factions, rites, the first mover and its card, the result, and per seat the
Minions killed, Hero damage, REGROUPs, rites played, relic pickups; checked here
against the game's own state and events, over games where the seats differ."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from reliquary.lab import runner
from reliquary.lab.spec import parse_spec

from .test_pinned_lab import COLUMNS_SPEC

SIDES = ("key", "skull")
#: Two agents with different names and budgets, so a column taken from the wrong seat
#: shows; the setup design fixes each seat's rite and the first mover (docs/lab.md).
SPEC = COLUMNS_SPEC.replace('name = "random"', 'name = "search"\nnodes = 4').replace(
    "[settings]", 'rites = "balanced"\nfirst = "balanced"\n[settings]')


def _played(monkeypatch: pytest.MonkeyPatch, count: int) -> list[tuple[Any, Any, Any]]:
    """(job, row, the state it ended in) for the spec's first ``count`` games."""
    made: list[Any] = []
    real_state = runner.State

    def capture(*args: Any, **kwargs: Any) -> Any:
        made.append(real_state(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(runner, "State", capture)
    return [(job, runner.play_game(job), made[-1])
            for job in parse_spec(SPEC, "columns.toml").jobs()[:count]]


def _by_seat(row: dict[str, Any], column: str) -> tuple[Any, Any]:
    return row[f"{column}_key"], row[f"{column}_skull"]


def test_every_per_seat_column_is_that_seat_s(monkeypatch: pytest.MonkeyPatch) -> None:
    differs: Counter[str] = Counter()
    for index, (job, row, state) in enumerate(_played(monkeypatch, 8)):
        key_is_a = row["agent_a_seat"] == "key"
        agents = ("greedy", "search@4") if key_is_a else ("search@4", "greedy")
        assert _by_seat(row, "agent") == agents
        assert (row["agent_key_name"], row["agent_skull_name"]) == tuple(
            a.split("@")[0] for a in agents)
        assert _by_seat(row, "budget") == (("", "nodes=4") if key_is_a else ("nodes=4", ""))
        assert _by_seat(row, "faction") == tuple(state.factions)
        assert _by_seat(row, "rite") == job.rites
        regroups, rites, pickups = [0, 0], [0, 0], [0, 0]
        plays: Counter[tuple[str, str, str]] = Counter()
        first = None
        for event in state.events:
            data = event.data
            if event.kind == "play":
                plays[(SIDES[data["player"]], data["card"], data["mode"])] += 1
                regroups[data["player"]] += data["mode"] == "regroup"
                rites[data["player"]] += data["mode"] == "rite"
            elif event.kind == "pickup":
                pickups[data["owner"]] += 1
            elif event.kind == "first":
                first = (SIDES[data["player"]], data["card"])
        assert _by_seat(row, "regroups") == tuple(regroups)
        assert _by_seat(row, "rites_played") == tuple(rites)
        assert _by_seat(row, "pickups") == tuple(pickups)
        assert (row["first"], row["first_card"]) == first
        assert row["first"] == SIDES[job.first]
        assert {(p["seat"], p["card"], p["mode"]): p["n"] for p in row["plays"]} == plays
        scores = state.result.scores
        assert _by_seat(row, "vigil_score") == (tuple(scores) if scores else (None, None))
        assert row["reason"] == state.result.reason and row["detail"] == state.result.detail
        assert row["game_index"] == index
        for column, pair in (("rite", job.rites), ("regroups", regroups),
                             ("rites_played", rites), ("pickups", pickups),
                             ("faction", state.factions)):
            differs[column] += pair[0] != pair[1]
    # The games tell the seats apart in each column checked above.
    assert all(differs[c] for c in ("rite", "regroups", "pickups", "faction")), differs
