"""Conditions in the lab (issue 23): its per-game figures reach the store, the §4.9 option
grids and §10.2 specs load, and the comeback rate (§10.2 step 5) counts decisive games
won from more than a Minion behind at the middle round."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reliquary.lab.compare import BINARY, METRICS, PER_GAME
from reliquary.lab.metrics import SCALARS, comeback_rate
from reliquary.lab.spec import load_spec, parse_spec

ROOT = Path(__file__).resolve().parents[2]


def test_comeback_rate_counts_wins_from_behind_at_the_middle_round() -> None:
    frame = pl.DataFrame({
        "winner": ["key", "skull", "key", None, "skull"],
        # Key's view per round; the middle round is index len // 2.
        "eval_key": [[0.0, -30.0, 10.0], [0.0, 40.0, -5.0], [0.0, -10.0, 50.0],
                     [0.0, -90.0, 0.0], [0.0, -26.0, -80.0]],
    })
    rate = comeback_rate(frame)
    # key from -30: a comeback; skull from +40 (Key's view): a comeback; key from -10: not
    # (within a Minion); the draw is not decisive; skull while ahead: not.
    assert rate["n"] == 4 and rate["value"] == pytest.approx(0.5)
    assert rate["low"] < 0.5 < rate["high"]
    assert SCALARS["comeback_rate"](frame) == pytest.approx(0.5)


def test_lab_compare_knows_the_board_win_and_comeback_metrics() -> None:
    assert {"decisiveness", "comeback_rate", "draw_rate", "mean_length", "first_player",
            "cap_rate"} <= set(METRICS)
    assert "decisiveness" in BINARY
    assert PER_GAME["decisiveness"]({"reason": "relic_home"}) == 1.0
    assert PER_GAME["decisiveness"]({"reason": "vigil"}) == 0.0


def test_the_specs_and_the_option_grid_load() -> None:
    for size in (8, 12):
        for agent, games in (("greedy", 144), ("search", 60)):
            for blind in ("", "-blind"):
                spec = load_spec(ROOT / f"benchmarks/lab/mod-conditions-{size}-{agent}{blind}.toml")
                assert spec.games == games
                assert all(s["modules"] == ["conditions"] for s in spec.settings_grid)
    grid = load_spec(ROOT / "benchmarks/lab/mod-conditions-grid-8-greedy.toml")
    assert len(grid.settings_grid) == 18  # dread x dread_tn x actions


def test_a_run_stores_the_module_figures(tmp_path: Path) -> None:
    from reliquary.lab.runner import run_spec
    from reliquary.lab.store import Store

    spec = parse_spec('name = "c"\nseed = 3\ngames_per_cell = 3\nfactions = "free"\n'
                      '[settings]\nmodules = ["conditions"]\nround_cap = 40\n'
                      '[[agents]]\nname = "random"\n', "c.toml")
    run = tmp_path / "run"
    run_spec(spec, run, workers=1)
    frame = pl.from_arrow(Store(run).arrow())
    assert isinstance(frame, pl.DataFrame)
    for stats in frame["module_stats"]:
        names = {s["name"] for s in stats}
        assert {"conditions.dread_tests", "conditions.dread_fails",
                "conditions.upkeep_kills", "conditions.interact_share",
                "conditions.gained_burning", "conditions.gained_focus"} <= names
        share = next(s["value"] for s in stats if s["name"] == "conditions.interact_share")
        assert 0.0 <= share <= 1.0
