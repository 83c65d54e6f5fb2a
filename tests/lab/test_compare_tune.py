"""``lab compare`` decides on a difference it should find; ``lab tune`` runs trials,
ranks them by the targets and resumes its study."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from reliquary.cli.main import cli
from reliquary.lab.compare import compare
from reliquary.lab.spec import parse_spec
from reliquary.lab.store import Store
from reliquary.lab.tune import Targets, markdown, objective_value, tune

RANDOM = """
seed = 5
factions = "free"
[settings]
round_cap = 20
{extra}
[[agents]]
name = "random"
"""


def test_compare_finds_that_a_vigil_of_one_shortens_games(tmp_path: Path) -> None:
    a = parse_spec(RANDOM.format(extra=""), tmp_path / "a.toml")
    b = parse_spec(RANDOM.format(extra="vigil_start = 1"), tmp_path / "b.toml")
    result = compare(a, b, "mean_length", tmp_path / "A", tmp_path / "B", max_games=200,
                     workers=1)
    assert result.decision == "B lower"
    assert result.value_b < result.value_a
    assert result.interval[1] < 0
    assert result.games_used == 2 * result.observations <= 200
    # Both sides are stored runs: a second comparison reuses every game.
    again = compare(a, b, "mean_length", tmp_path / "A", tmp_path / "B", max_games=200,
                    workers=1)
    assert again.games_played == 0 and again.decision == "B lower"
    assert len(Store(tmp_path / "A").table()) == result.observations


def test_compare_refuses_unknown_metrics_and_a_misused_sprt(tmp_path: Path) -> None:
    a = parse_spec(RANDOM.format(extra=""), tmp_path / "a.toml")
    with pytest.raises(ValueError, match="allowed: cap_rate"):
        compare(a, a, "fun", tmp_path / "A", tmp_path / "B")
    with pytest.raises(ValueError, match="0/1 metric"):
        compare(a, a, "mean_length", tmp_path / "A", tmp_path / "B", test="sprt")


def test_compare_cli_prints_the_decision_and_the_games(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(RANDOM.format(extra=""))
    (tmp_path / "b.toml").write_text(RANDOM.format(extra="vigil_start = 1"))
    result = CliRunner().invoke(cli, [
        "lab", "compare", str(tmp_path / "a.toml"), str(tmp_path / "b.toml"),
        "--metric", "mean_length", "--workers", "1", "--max-games", "200",
        "--out", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert "decision: B lower after" in result.output


def test_compare_cli_offers_every_metric_the_lab_compares() -> None:
    # MODULES.md §10.2 step 2 compares the board-win rate (decisiveness) and the
    # comeback rate too: the CLI's list must not fall behind the lab's.
    from reliquary.cli.lab_cmds import COMPARE_METRICS, PAIRED_METRICS
    from reliquary.lab.compare import PER_GAME, PER_REP
    assert set(PAIRED_METRICS) == set(PER_GAME)
    assert set(COMPARE_METRICS) == set(PER_GAME) | set(PER_REP)
    result = CliRunner().invoke(cli, ["lab", "compare", "--help"])
    assert "decisiveness" in result.output and "comeback_rate" in result.output


TUNE = """
seed = 3
games_per_cell = 2
factions = [["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]
[settings]
round_cap = 10
[[agents]]
name = "random"
"""


def test_objective_is_zero_only_when_every_target_is_met() -> None:
    t = Targets(cap_max=0.02, fpa_tol=0.03, faction_tol=0.05, draw_max=0.1, min_rounds=20)
    good = {"cap_rate": 0.01, "first_player": 0.52, "faction_worst": 0.04,
            "draw_rate": 0.05, "mean_rounds": 30.0}
    assert objective_value(good, t) == 0
    assert objective_value({**good, "cap_rate": 0.04}, t) == pytest.approx(1.0)
    assert objective_value({**good, "first_player": 0.44}, t) == pytest.approx(1.0)
    assert objective_value({**good, "faction_worst": 0.15}, t) == pytest.approx(2.0)
    # A rule that ends every game at once in a draw must not look ideal.
    assert objective_value({**good, "draw_rate": 1.0, "mean_rounds": 5.0}, t) == \
        pytest.approx(9.0 + 0.75)


def test_tune_runs_ranks_and_resumes(tmp_path: Path) -> None:
    space = {"vigil_start": [1, 6]}
    rows = tune(TUNE, tmp_path / "t.toml", tmp_path / "study", trials=3, space=space,
                seed=1, workers=1)
    # Three trials over two settings: a setting tried again is listed once.
    tried = [r["settings"]["vigil_start"] for r in rows]
    assert 1 <= len(rows) <= 2 and len(set(tried)) == len(tried)
    assert [r["objective"] for r in rows] == sorted(r["objective"] for r in rows)
    for r in rows:
        assert r["games"] == 4 and set(r["settings"]) == {"vigil_start"}
        assert 0 <= r["cap_rate"] <= 1 and r["fpa_low"] <= r["first_player"] <= r["fpa_high"]
        assert r["draw_low"] <= r["draw_rate"] <= r["draw_high"]
        assert Store(r["run"]).table()["vigil_start"].unique().to_list() == \
            [r["settings"]["vigil_start"]]
    again = tune(TUNE, tmp_path / "t.toml", tmp_path / "study", trials=3, space=space,
                 seed=1, workers=1)
    assert [r["trial"] for r in again] == [r["trial"] for r in rows]   # nothing new
    text = markdown(rows, Targets())
    assert "| trial | settings |" in text and "vigil_start=" in text
    assert "draw rate < 15%" in text


def test_compare_a_spec_with_itself_plays_each_game_once(tmp_path: Path) -> None:
    a = parse_spec(RANDOM.format(extra=""), tmp_path / "a.toml")
    result = compare(a, a, "cap_rate", tmp_path / "A", tmp_path / "B", workers=1)
    assert result.decision == "no difference"
    assert result.difference == 0.0
    assert result.games_played == result.observations == 20   # the burn-in, once each
    assert Store(tmp_path / "A").table().drop("seconds").equals(
        Store(tmp_path / "B").table().drop("seconds"))


def test_tune_searches_content_numbers_and_confirms_on_held_out_seeds(tmp_path: Path) -> None:
    """Issue 26: a patch number in the space is played as patched content (its own
    fingerprint), and the best candidate is confirmed on other games than the trials'."""
    from reliquary.lab.tune import CONFIRM_SEED_OFFSET, confirm, confirmed_markdown

    key = "patch.factions.grave-tide.hero_hp"
    rows = tune(TUNE, tmp_path / "t.toml", tmp_path / "study", trials=2,
                space={key: [2, 6]}, seed=1, workers=1)
    fingerprints = {r["settings"][key]: set(Store(r["run"]).table()["content"].to_list())
                    for r in rows}
    assert all(len(f) == 1 for f in fingerprints.values())
    if len(fingerprints) == 2:
        assert fingerprints[2] != fingerprints[6]
    best = rows[0]
    held = confirm(TUNE, tmp_path / "t.toml", tmp_path / "study", best["settings"],
                   games_per_cell=1)
    assert held["seed"] == 3 + CONFIRM_SEED_OFFSET and held["games"] == 2
    tuned_ids = set(Store(best["run"]).table()["game_id"].to_list())
    confirmed = Store(held["run"]).table()
    assert not tuned_ids & set(confirmed["game_id"].to_list())       # held-out games
    assert set(confirmed["content"].to_list()) == fingerprints[best["settings"][key]]
    assert "fresh seeds" in confirmed_markdown(held, best)


def test_tune_refuses_a_bad_patch_number(tmp_path: Path) -> None:
    from reliquary.lab.spec import SpecError

    with pytest.raises(SpecError, match=r"patch.factions.grave-tide.hero_hp: must be from 1 "
                                        r"to 12 \(got 0\)"):
        tune(TUNE, tmp_path / "t.toml", tmp_path / "study", trials=1,
             space={"patch.factions.grave-tide.hero_hp": [0]}, seed=1, workers=1)


def test_tune_switches_modules_on_and_tries_their_options(tmp_path: Path) -> None:
    """A ruleset may switch a rule module on: ``modules`` is chosen as one word (none,
    keepers, glory+keepers) and played as the list of modules on; a module's option
    counts only where its module is on."""
    from reliquary.cli.lab_cmds import _parse_space
    from reliquary.lab.tune import setting_overrides

    space = _parse_space(("modules=none,keepers", "keepers.target=4,6"))
    assert space == {"modules": [None, "keepers"], "keepers.target": [4, 6]}
    assert setting_overrides({"modules": "glory+keepers"})["modules"] == ["glory", "keepers"]
    rows = tune(TUNE, tmp_path / "t.toml", tmp_path / "study", trials=4, space=space,
                seed=2, workers=1)
    played = {}
    for r in rows:
        table = Store(r["run"]).table()
        # the option is listed only where its module was on (it changed nothing elsewhere)
        assert ("keepers.target" in r["settings"]) == (r["settings"]["modules"] == "keepers")
        played[(r["settings"]["modules"], r["settings"].get("keepers.target"))] = (
            set(table["modules"].to_list()), set(table["module_options"].to_list()))
    for (on, target), (modules, options) in played.items():
        assert modules == ({"keepers"} if on == "keepers" else {""})
        assert (f'"keepers.target": {target}' in next(iter(options))) == (on == "keepers")
    with pytest.raises(click.BadParameter, match="modules=none,keepers"):
        _parse_space(("modulez=keepers",))
