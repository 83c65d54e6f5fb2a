"""The lab spec's small documented pieces, value by value (issue 31, by class: sample K
missed four lab faults in corners the run's tests read only in part). Pins the spec's
key lists, an agent entry's budget and display name, a spec error's text, the near-miss
suggestion, which settings are the modules', the command line that replays a run, the
seatings and counts of one and two agents, and the one-line description."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliquary.lab import spec as spec_module
from reliquary.lab.spec import (
    AgentEntry,
    SpecError,
    base_settings,
    did_you_mean,
    is_module_key,
    parse_spec,
)

ONE = """
name = "one"
seed = 3
games_per_cell = 2
factions = [["pyre-choir", "grave-tide"]]
[settings]
round_cap = 40
[[agents]]
name = "greedy"
"""
TWO = ONE + '[[agents]]\nname = "search"\nnodes = 300\n'


def test_key_lists() -> None:
    assert spec_module.BUDGET_KEYS == ("nodes", "noise", "max_depth", "extend", "module_eval")
    assert spec_module.NEEDS_NODES == ("search", "mcts")
    assert spec_module.KEEP_CHOICES == ("all", "draw", "capped", "hero_killed", "relic_home",
                                        "vigil", "round_cap")


def test_agent_entry_budget_and_display() -> None:
    plain = AgentEntry(name="greedy")
    assert plain.budget() == {} and plain.display() == "greedy"
    search = AgentEntry(name="search", nodes=300)
    assert search.budget() == {"nodes": 300} and search.display() == "search@300"
    full = AgentEntry(name="search", nodes=50, noise=0.5, max_depth=3, extend=0,
                      module_eval="blind")
    assert full.budget() == {"nodes": 50, "noise": 0.5, "max_depth": 3, "extend": 0,
                             "module_eval": "blind"}
    assert full.display() == "search@50,noise=0.5,max_depth=3,extend=0,module_eval=blind"
    assert AgentEntry(name="search", nodes=5, label="mine").display() == "mine"
    for bad in ({"nodes": 0}, {"noise": -0.1}, {"max_depth": 0}, {"extend": -1}):
        with pytest.raises(ValueError):
            AgentEntry(name="search", **bad)
    AgentEntry(name="search", nodes=1, noise=0.0, max_depth=1, extend=0)  # the bounds


def test_spec_error_text_and_problems() -> None:
    err = SpecError("a.toml", "seed", "must be a whole number")
    assert (err.file, err.key, err.message) == ("a.toml", "seed", "must be a whole number")
    assert err.problems == [("seed", "must be a whole number")]
    assert str(err) == "a.toml: seed: must be a whole number"
    more = SpecError(Path("b.toml"), "k1", "m1", [("k2", "m2")])
    assert more.problems == [("k1", "m1"), ("k2", "m2")]
    assert str(more) == "b.toml: k1: m1\nb.toml: k2: m2"
    assert isinstance(more, ValueError)


def test_did_you_mean() -> None:
    assert did_you_mean("serch", ["search", "greedy"]) == " (did you mean 'search'?)"
    assert did_you_mean("zzz", ["search", "greedy"]) == ""
    assert did_you_mean(7, ("search",)) == ""


def test_module_keys() -> None:
    assert is_module_key("modules") and is_module_key("glory.target")
    assert not is_module_key("round_cap") and not is_module_key("module")
    assert base_settings({"round_cap": 40, "modules": ["glory"], "glory.target": 5,
                          "size": 8}) == {"round_cap": 40, "size": 8}


def test_one_agent_plays_itself_once_per_cell() -> None:
    s = parse_spec(ONE, Path("one.toml"))
    assert s.name == "one" and s.seed == 3 and s.games_per_cell == 2
    assert s.seatings == [(0, 0)]
    assert (s.cells, s.games) == (1, 2)
    assert [j.agent_a_seat for j in s.jobs()] == [0, 0]
    assert [j.game_index for j in s.jobs()] == [0, 1]
    assert [j.rep for j in s.jobs()] == [0, 1]


def test_two_agents_both_ways_round() -> None:
    s = parse_spec(TWO, Path("two.toml"))
    assert s.seatings == [(0, 1), (1, 0)]
    assert (s.cells, s.games) == (2, 4)
    jobs = s.jobs()
    assert [j.agent_a_seat for j in jobs] == [0, 1, 0, 1]
    assert [(j.agents[0].name, j.agents[1].name) for j in jobs[:2]] == [
        ("greedy", "search"), ("search", "greedy")]
    assert all(len(j.game_id) == 16 and j.spec_hash == s.spec_hash for j in jobs)
    assert len(s.spec_hash) == 16
    assert s.describe() == "one: greedy vs search@300; size=8, round_cap=40; 4 games"


def test_the_command_that_replays_a_run() -> None:
    s = parse_spec(ONE, Path("one.toml"))
    assert s.command("runs/x") == "reliquary lab run one.toml --out runs/x"
    s.override_games_per_cell(5)
    assert s.games_per_cell == 5 and s.games == 5
    assert s.command("runs/x") == "reliquary lab run one.toml --out runs/x --games-per-cell 5"
    s.overrides["round_cap"] = 60
    assert s.command("runs/x") == ("reliquary lab run one.toml --out runs/x "
                                   "--games-per-cell 5  # settings set by lab tune: "
                                   "round_cap=60")
