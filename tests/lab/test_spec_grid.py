"""A spec's games as docs/lab.md describes them: a cell is one point of the settings
grid, one seating and one faction pairing; the run plays every cell once per
repetition, in a fixed order; both seatings with two agents; each game's seeds its own
(a module cell has its default cell's dice); and the lines that name a run."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from reliquary.lab.spec import AgentEntry, LabSpec, parse_spec

PAIRS = [("pyre-choir", "grave-tide"), ("grave-tide", "pyre-choir"),
         ("storm-sworn", "bone-wardens")]
SPEC = """
seed = {seed}
games_per_cell = 3
factions = [["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"],
            ["storm-sworn", "bone-wardens"]]
[settings]
round_cap = 50
regroup_limit = [2, 4]
{extra}
[[agents]]
name = "greedy"
{second}
"""
SECOND = '[[agents]]\nname = "search"\nnodes = 300'


def spec(seed: int = 1, extra: str = "", second: str = SECOND, path: str = "grid.toml"
         ) -> LabSpec:
    return parse_spec(SPEC.format(seed=seed, extra=extra, second=second), Path(path))


def test_every_cell_once_per_repetition_in_order_with_both_seatings() -> None:
    s = spec()
    jobs = s.jobs()
    assert s.cells == 2 * 2 * 3 and s.games == 36
    assert [j.game_index for j in jobs] == list(range(36))
    cells = list(itertools.product((2, 4), ((0, 1), (1, 0)), PAIRS))
    greedy, search = s.agents
    for job in jobs:
        rep, within = divmod(job.game_index, 12)
        limit, seating, pairing = cells[within]
        assert job.rep == rep
        assert job.settings["regroup_limit"] == limit and job.settings["round_cap"] == 50
        assert job.factions == pairing
        assert job.agents == ((greedy, search) if seating == (0, 1) else (search, greedy))
        assert job.agent_a_seat == seating.index(0)  # the seat of the spec's first agent
    assert len({j.game_id for j in jobs}) == 36
    assert all(len(j.game_id) == 16 for j in jobs)
    assert len({j.chance_seed for j in jobs}) == 36
    assert len({s for j in jobs for s in j.agent_seeds}) == 72
    assert all(0 <= x < 2**32 for j in jobs for x in (j.chance_seed, *j.agent_seeds))


def test_one_agent_plays_itself_in_one_seating() -> None:
    s = spec(second="")
    jobs = s.jobs()
    assert s.cells == 2 * 3 and len(jobs) == 18
    assert all(j.agents[0] == j.agents[1] and j.agent_a_seat == 0 for j in jobs)


def test_a_game_s_seeds_come_from_the_spec_s_seed_and_its_cell() -> None:
    first, again, other = spec(1).jobs(), spec(1).jobs(), spec(2).jobs()
    assert first == again
    assert all(a.chance_seed != b.chance_seed and a.agent_seeds != b.agent_seeds
               and a.game_id != b.game_id for a, b in zip(first, other, strict=True))


def test_a_module_cell_has_its_default_cell_s_dice() -> None:
    s = spec(extra='modules = [[], ["glory"]]')
    jobs = s.jobs()
    assert s.cells == 2 * 2 * 2 * 3
    plain = {(j.rep, j.settings["regroup_limit"], j.factions, j.agent_a_seat): j
             for j in jobs if not j.settings.get("modules")}
    with_glory = [j for j in jobs if j.settings.get("modules") == ["glory"]]
    assert len(plain) == len(with_glory) == 36
    for j in with_glory:
        twin = plain[(j.rep, j.settings["regroup_limit"], j.factions, j.agent_a_seat)]
        assert (j.chance_seed, j.agent_seeds) == (twin.chance_seed, twin.agent_seeds)
        assert j.game_id != twin.game_id


def test_the_rules_line_names_size_and_round_cap_and_what_differs() -> None:
    s = spec()
    rules = s.describe_rules()
    agents, settings = rules.split("; ")
    assert agents == "greedy vs search@300"
    assert settings.split(", ") == ["size=8", "round_cap=50", "regroup_limit=2|4"]
    assert s.describe() == f"grid: {rules}; 36 games"
    default = spec(second="", extra="").describe_rules()
    assert default == "greedy; size=8, round_cap=50, regroup_limit=2|4"
    vigil = spec(extra='vigil_reset = "hero"').describe_rules()
    assert "vigil_reset=hero" in vigil.split("; ")[1].split(", ")


@pytest.mark.parametrize(("entry", "shown"), [
    ({"name": "greedy"}, "greedy"),
    ({"name": "search", "nodes": 300}, "search@300"),
    ({"name": "search", "nodes": 300, "noise": 0.5}, "search@300,noise=0.5"),
    ({"name": "search", "nodes": 300, "max_depth": 2, "extend": 0},
     "search@300,max_depth=2,extend=0"),
    ({"name": "search", "nodes": 300, "label": "deep"}, "deep"),
])
def test_an_agent_is_shown_by_its_label_or_its_name_and_budget(entry: dict[str, object],
                                                               shown: str) -> None:
    assert AgentEntry(**entry).display() == shown  # type: ignore[arg-type]


def test_the_command_line_reproduces_the_run_with_its_overrides() -> None:
    s = spec(path="specs/grid.toml")
    assert s.command("runs/x") == "reliquary lab run specs/grid.toml --out runs/x"
    s.override_games_per_cell(2)
    assert s.games == 24
    assert s.command("runs/x") == ("reliquary lab run specs/grid.toml --out runs/x "
                                   "--games-per-cell 2")
    tuned = parse_spec(SPEC.format(seed=1, extra="", second=SECOND), Path("g.toml"),
                       overrides={"round_cap": 80})
    assert tuned.command("r") == ("reliquary lab run g.toml --out r  # settings set by "
                                  "lab tune: round_cap=80")
    assert {j.settings["round_cap"] for j in tuned.jobs()} == {80}


@pytest.mark.parametrize(("design", "named"), [
    ('rites = "balanced"', "balanced rites"),
    ('first = "balanced"', "balanced first move"),
    ('rites = "balanced"\nfirst = "balanced"', "balanced rites and first move")])
def test_the_rules_line_names_the_setup_design(design: str, named: str) -> None:
    text = SPEC.format(seed=1, extra="", second=SECOND).replace(
        "[settings]", design + "\n[settings]")
    rules = parse_spec(text, Path("d.toml")).describe_rules()
    assert rules.split(", ")[-1] == named
    assert "balanced" not in spec().describe_rules()
