"""A spec's numbers at their edges (issue 31: a bound one off, and overrides on a spec
without a [settings] table, passed the spec's tests): each bounded key takes its least
allowed value and refuses the one below it, with the key named; overrides (lab tune's
trials) fill in or replace settings whether or not the spec has a [settings] table."""

from __future__ import annotations

import pytest

from reliquary.lab.spec import SpecError, parse_spec

BASE = """
seed = 1
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"]]
[[agents]]
name = "greedy"
[[agents]]
name = "search"
nodes = 50
"""


@pytest.mark.parametrize(("line", "least", "key"), [
    ("nodes = {}", 1, "agents[1].nodes"),
    ("max_depth = {}", 1, "agents[1].max_depth"),
    ("extend = {}", 0, "agents[1].extend"),
    ("noise = {}", 0, "agents[1].noise"),
])
def test_an_agent_s_bounded_keys_take_their_least_value_and_refuse_below(
        line: str, least: int, key: str) -> None:
    def spec(value: int) -> str:
        if line.startswith("nodes"):
            return BASE.replace("nodes = 50", line.format(value))
        return BASE.replace("nodes = 50", f"nodes = 50\n{line.format(value)}")

    assert parse_spec(spec(least), "edge.toml").agents[1]
    with pytest.raises(SpecError) as err:
        parse_spec(spec(least - 1), "edge.toml")
    assert key in str(err.value) and f"got {least - 1}" in str(err.value)


def test_games_per_cell_takes_1_and_refuses_0() -> None:
    assert parse_spec(BASE, "edge.toml").games == 2  # one game per seating
    with pytest.raises(SpecError, match="games_per_cell"):
        parse_spec(BASE.replace("games_per_cell = 1", "games_per_cell = 0"), "edge.toml")


def test_one_or_two_agents_and_no_other_number() -> None:
    one = BASE.split("[[agents]]\nname = \"search\"")[0]
    assert len(parse_spec(one, "one.toml").agents) == 1
    three = BASE + '[[agents]]\nname = "random"\n'
    with pytest.raises(SpecError, match="agents"):
        parse_spec(three, "three.toml")
    with pytest.raises(SpecError, match="agents"):
        parse_spec(BASE.split("[[agents]]")[0], "none.toml")


def test_overrides_fill_in_a_spec_without_settings_and_replace_one_with_them() -> None:
    bare = parse_spec(BASE, "bare.toml", overrides={"round_cap": 30, "regroup_limit": 2})
    assert [(s["round_cap"], s["regroup_limit"]) for s in bare.settings_grid] == [(30, 2)]
    with_settings = BASE + "[settings]\nround_cap = 20\nvigil_start = 4\n"
    replaced = parse_spec(with_settings, "set.toml", overrides={"round_cap": 30})
    assert [(s["round_cap"], s["vigil_start"]) for s in replaced.settings_grid] == [(30, 4)]
    assert parse_spec(with_settings, "set.toml").settings_grid[0]["round_cap"] == 20
