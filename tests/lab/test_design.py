"""Setups as a design of the experiment (issue 26): the rite assignment and the first
move balanced by the spec, a forced setup honoured by every agent, and the report's
rite matrix and Bradley–Terry rite terms against hand-computed answers."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import pytest

from reliquary.lab import metrics as M
from reliquary.lab.report import summary_tables
from reliquary.lab.runner import play_game
from reliquary.lab.spec import SpecError, parse_spec

from .tables import game, table

RITES = ("Desecration", "Exhumation", "Harrow")

BALANCED = """
seed = 5
games_per_cell = {reps}
factions = {factions}
rites = "balanced"
first = "balanced"
[settings]
round_cap = 1
[[agents]]
name = "random"
{second}
"""


def _spec(reps: int, factions: str = '"all"', second: str = "") -> object:
    return parse_spec(BALANCED.format(reps=reps, factions=factions, second=second),
                      "design.toml")


def test_balanced_rites_and_first_move_are_exactly_balanced_over_every_pairing() -> None:
    spec = _spec(2)
    jobs = spec.jobs()  # type: ignore[attr-defined]
    assert len(jobs) == 72 * 2 and spec.balanced  # type: ignore[attr-defined]
    setups = Counter((job.rites, job.first) for job in jobs)
    # every ordered pair of different rites, crossed with either first mover, equally
    expected = {((a, b), f) for a, b in itertools.permutations(RITES, 2) for f in (0, 1)}
    assert set(setups) == expected and set(setups.values()) == {144 // 12}
    # each rite at each seat equally often, and the first move independent of the rites
    for seat in (0, 1):
        assert Counter(job.rites[seat] for job in jobs) == {r: 48 for r in RITES}
    for rite in RITES:
        firsts = Counter(job.first for job in jobs if job.rites[0] == rite)
        assert firsts[0] == firsts[1] == 24


def test_a_pairing_meets_other_setups_in_later_repetitions() -> None:
    jobs = _spec(12).jobs()  # type: ignore[attr-defined]
    by_pairing: dict[object, set[object]] = {}
    for job in jobs:
        by_pairing.setdefault(job.factions, set()).add((job.rites, job.first))
    assert all(len(seen) == 12 for seen in by_pairing.values())  # a Latin square
    # so over 12 repetitions every faction holds every rite equally often, at each seat
    for seat in (0, 1):
        for faction in {job.factions[seat] for job in jobs}:
            held = Counter(job.rites[seat] for job in jobs if job.factions[seat] == faction)
            assert len(set(held.values())) == 1 and len(held) == 3


def test_free_factions_are_balanced_over_repetitions_and_flagged_when_not() -> None:
    spec = _spec(12, factions='"free"')
    setups = Counter((job.rites, job.first) for job in spec.jobs())  # type: ignore[attr-defined]
    assert len(setups) == 12 and set(setups.values()) == {1}
    assert not _spec(5, factions='"free"').balanced  # type: ignore[attr-defined]


def test_a_spec_without_a_design_keeps_its_games_and_hash() -> None:
    text = BALANCED.replace('rites = "balanced"\nfirst = "balanced"\n', "")
    plain = parse_spec(text.format(reps=1, factions='"all"', second=""), "d.toml")
    assert all(job.rites is None and job.first is None for job in plain.jobs())
    designed = _spec(1)
    assert designed.spec_hash != plain.spec_hash  # type: ignore[attr-defined]
    ids = {job.game_id for job in plain.jobs()}
    assert not ids & {job.game_id for job in designed.jobs()}  # type: ignore[attr-defined]


def test_fixed_rites_and_first_move_and_their_errors(tmp_path: Path) -> None:
    text = BALANCED.format(reps=1, factions='[["pyre-choir", "grave-tide"]]', second="")
    fixed = parse_spec(text.replace('rites = "balanced"', 'rites = [["Harrow", "Exhumation"]]')
                       .replace('first = "balanced"', 'first = "skull"'), "f.toml")
    assert [(j.rites, j.first) for j in fixed.jobs()] == [(("Harrow", "Exhumation"), 1)]
    with pytest.raises(SpecError) as err:
        parse_spec(text.replace('rites = "balanced"', 'rites = [["Harow", "Harrow"]]')
                   .replace('first = "balanced"', 'first = "second"'), "bad.toml")
    message = str(err.value)
    assert "bad.toml: rites[0]: unknown rite 'Harow' (did you mean 'Harrow'?)" in message
    assert "bad.toml: first: must be \"free\", \"balanced\", \"key\" or \"skull\"" in message


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts", "search"])
def test_a_forced_setup_is_honoured_by_every_agent(agent: str) -> None:
    """Factions, rites and the first mover of the design, whatever the agents would
    choose: one game of each setup (the round cap ends it after its first round)."""
    budget = "" if agent in ("random", "greedy") else "nodes = 20"
    second = f'[[agents]]\nname = "{agent}"\n{budget}'
    first = f'[[agents]]\nname = "{agent}"\n{budget}\n'
    spec = parse_spec(BALANCED.format(reps=1, factions='[["lantern-bearers", "bone-wardens"]]',
                                      second="").replace('[[agents]]\nname = "random"\n', first)
                      + ("" if agent == "random" else second.replace(agent, "random")),
                      "forced.toml")
    spec.override_games_per_cell(12)
    for job in spec.jobs()[::5]:
        row = play_game(job)
        assert (row["faction_key"], row["faction_skull"]) == job.factions
        assert (row["rite_key"], row["rite_skull"]) == job.rites
        assert row["first"] == ("key", "skull")[job.first]


# ---------------------------------------------------------------------- the report
def _rite_games() -> list[dict[str, object]]:
    """Two rites, X and Y, held at both seats with either player first, equal factions:
    the holder of X wins 24 of 32 games (3 in 4 in every setup)."""
    rows = []
    for rk, rs in (("X", "Y"), ("Y", "X")):
        for first in ("key", "skull"):
            for fk, fs in (("a", "b"), ("b", "a")):
                x_seat = "key" if rk == "X" else "skull"
                y_seat = "skull" if x_seat == "key" else "key"
                rows += [game(faction_key=fk, faction_skull=fs, rite_key=rk, rite_skull=rs,
                              first=first, winner=x_seat)] * 3
                rows += [game(faction_key=fk, faction_skull=fs, rite_key=rk, rite_skull=rs,
                              first=first, winner=y_seat)]
    return rows


def test_bradley_terry_rite_terms_match_the_hand_computed_log_odds() -> None:
    bt = M.bradley_terry(table(_rite_games()), prior=0.0)
    rho = {r["rite"]: r for r in bt["rites"].iter_rows(named=True)}
    # X's holder wins 24 of 32: ρX − ρY = log 3, sum zero; var(ρX − ρY) = 1/(32·¾·¼) = 1/6.
    assert rho["X"]["theta"] == pytest.approx(math.log(3) / 2, abs=1e-6)
    assert rho["Y"]["theta"] == pytest.approx(-math.log(3) / 2, abs=1e-6)
    se = math.sqrt(1 / 6) / 2
    assert rho["X"]["low"] == pytest.approx(math.log(3) / 2 - 1.959964 * se, abs=1e-4)
    assert bt["first_move"][0] == pytest.approx(0.0, abs=1e-6)
    assert bt["seat"][0] == pytest.approx(0.0, abs=1e-6)
    theta = dict(zip(bt["factions"]["faction"], bt["factions"]["theta"], strict=True))
    assert theta["a"] == pytest.approx(0.0, abs=1e-6)


def test_rite_matrix_and_rite_by_first_move_match_the_counts() -> None:
    rows = [*_rite_games(), game(rite_key="X", rite_skull="Z", winner=None, first="key")]
    g = table(rows)
    matrix = {(r["rite"], r["opponent"]): r for r in M.rite_matrix(g).iter_rows(named=True)}
    assert matrix[("X", "Y")]["games"] == 32 and matrix[("X", "Y")]["score"] == 0.75
    assert matrix[("Y", "X")]["score"] == 0.25
    assert (matrix[("X", "Y")]["low"], matrix[("X", "Y")]["high"]) == \
        pytest.approx(M.wilson(24, 32))
    assert matrix[("X", "Z")]["games"] == 1 and matrix[("X", "Z")]["score"] == 0.5
    split = {(r["rite"], r["first"]): r for r in M.rite_first_table(g).iter_rows(named=True)}
    assert split[("X", True)]["games"] == 17 and split[("X", False)]["games"] == 16
    assert split[("X", False)]["score"] == 0.75


def test_the_report_has_the_rite_terms_or_says_why_not() -> None:
    titles = [title for title, _ in summary_tables(table(_rite_games()))]
    assert any(t.startswith("Bradley–Terry rite terms (log-odds") for t in titles)
    assert any(t.startswith("Rite matrix") for t in titles)
    # the agents' old habit: the first player always holds Desecration
    confounded = [game(faction_key=fk, faction_skull=fs, first=first,
                       rite_key="Desecration" if first == "key" else "Exhumation",
                       rite_skull="Exhumation" if first == "key" else "Desecration",
                       winner=w)
                  for fk, fs in (("a", "b"), ("b", "a")) for first in ("key", "skull")
                  for w in ("key", "skull", None)]
    bt = M.bradley_terry(table(confounded))
    assert bt["rites"] is None and "confounded" in bt["rites_note"]


def test_a_run_writes_its_throughput(tmp_path: Path) -> None:
    import json

    from reliquary.lab.runner import THROUGHPUT_FILE, run_spec

    spec = _spec(1, factions='[["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]')
    summary = run_spec(spec, tmp_path / "run", workers=1)  # type: ignore[arg-type]
    [line] = (tmp_path / "run" / THROUGHPUT_FILE).read_text().splitlines()
    entry = json.loads(line)
    assert entry["played"] == summary["played"] == 2 and entry["workers"] == 1
    assert entry["games_per_hour"] > 0 and entry["seconds"] >= 0
