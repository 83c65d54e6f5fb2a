"""Keepers' Relics in the lab (issue 24): the §10.2 specs and the option grid load; each
game with the module names its per-game figures (points per seat, tokens lifted,
recovered and dropped, prizes, failed lifts, sets, wins by threshold) in module_stats."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliquary.lab.spec import load_spec, parse_spec

SPECS = Path(__file__).resolve().parents[2] / "benchmarks" / "lab"
FIGURES = {"points_key", "points_skull", "sets_key", "sets_skull", "threshold_win", "lifted",
           "failed_lifts", "dropped", "recovered", "prizes", "reveals", "encamps",
           "wayshrines_destroyed"}


@pytest.mark.parametrize("name", [f"mod-keepers-{size}-{agent}{blind}" for size in (8, 12)
                                  for agent in ("greedy", "search")
                                  for blind in ("", "-blind")])
def test_the_10_2_specs_load(name: str) -> None:
    spec = load_spec(SPECS / f"{name}.toml")
    assert [s["modules"] for s in spec.settings_grid] == [["keepers"]]
    assert spec.agents[0].module_eval == ("blind" if name.endswith("blind") else "aware")


def test_the_option_grid_sweeps_target_devout_prizes_and_wayshrines() -> None:
    spec = load_spec(SPECS / "mod-keepers-grid-8-greedy.toml")
    assert len(spec.settings_grid) == 4 * 2 * 2 * 2
    targets = {s.get("keepers.target", "ruins+1") for s in spec.settings_grid}
    assert targets == {-1, "ruins+1", 7, 12}


def test_a_keepers_game_s_figures_reach_the_store(tmp_path: Path) -> None:
    import polars as pl

    from reliquary.lab.runner import run_spec
    from reliquary.lab.store import Store

    spec = parse_spec('name = "k"\nseed = 3\ngames_per_cell = 1\nfactions = "free"\n'
                      '[[agents]]\nname = "greedy"\n[settings]\nmodules = ["keepers"]\n',
                      "k.toml")
    run = tmp_path / "run"
    run_spec(spec, run, workers=1)
    frame = pl.from_arrow(Store(run).arrow())
    assert isinstance(frame, pl.DataFrame) and frame.height >= 1
    for stats in frame["module_stats"]:
        assert {s["name"] for s in stats} == {f"keepers.{f}" for f in FIGURES}
