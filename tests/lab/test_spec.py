"""Bad specs fail with the file, the key and what is allowed — before any game."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliquary.lab.spec import SpecError, load_spec, parse_spec

GOOD = """
seed = 1
games_per_cell = 2
factions = [["pyre-choir", "bone-wardens"]]
[settings]
round_cap = 20
regroup_limit = [1, 2]
[[agents]]
name = "greedy"
[[agents]]
name = "search"
nodes = 50
"""


def test_a_good_spec_describes_its_grid() -> None:
    spec = parse_spec(GOOD, "good.toml")
    assert spec.name == "good"
    assert [s["regroup_limit"] for s in spec.settings_grid] == [1, 2]
    assert spec.seatings == [(0, 1), (1, 0)]
    assert spec.cells == 4 and spec.games == 8
    jobs = spec.jobs()
    assert [j.game_index for j in jobs] == list(range(8))
    assert len({j.game_id for j in jobs}) == 8
    assert jobs[0].agents[0].display() == "greedy"
    assert jobs[1].agents[0].display() == "search@50" and jobs[1].agent_a_seat == 1
    assert "regroup_limit=1|2" in spec.describe()


def test_more_games_per_cell_keeps_the_first_games_and_the_hash() -> None:
    small = parse_spec(GOOD, "good.toml")
    big = parse_spec(GOOD.replace("games_per_cell = 2", "games_per_cell = 3"), "good.toml")
    assert big.spec_hash == small.spec_hash
    assert [j.game_id for j in big.jobs()[:8]] == [j.game_id for j in small.jobs()]
    other = parse_spec(GOOD.replace("seed = 1", "seed = 2"), "good.toml")
    assert other.spec_hash != small.spec_hash


def test_all_factions_means_every_ordered_pair_of_different_ones() -> None:
    spec = parse_spec('[[agents]]\nname = "random"\n', "all.toml")
    factions = [f.id for f in spec.content.factions]
    assert len(spec.pairings) == len(factions) * (len(factions) - 1)
    assert all(a != b for a, b in spec.pairings)  # type: ignore[misc]


@pytest.mark.parametrize(("text", "key", "allowed"), [
    (GOOD.replace('name = "search"', 'name = "serch"'), "agents[1].name",
     "unknown agent 'serch' (did you mean 'search'?); allowed: random, greedy"),
    (GOOD.replace("nodes = 50", "time = 0.5"), "agents[1].time", "use nodes"),
    (GOOD.replace("nodes = 50", ""), "agents[1].nodes", "node budget"),
    (GOOD.replace("nodes = 50", "nodes = 0"), "agents[1].nodes", "must be at least 1 (got 0)"),
    (GOOD.replace('"bone-wardens"', '"bone-warden"'), "factions[0]",
     "(did you mean 'bone-wardens'?); allowed: pyre-choir"),
    (GOOD.replace('"bone-wardens"', '"pyre-choir"'), "factions[0]", "two different"),
    (GOOD.replace("round_cap = 20", "round_cup = 20"), "settings.round_cup",
     "(did you mean 'round_cap'?); allowed: size, los"),
    (GOOD.replace("regroup_limit = [1, 2]", "regroup_limit = -1"), "settings.regroup_limit",
     "from 0 up"),
    (GOOD.replace("round_cap = 20", 'vigil_reset = "never"'), "settings.vigil_reset",
     "'any' or 'hero'"),
    (GOOD.replace("round_cap = 20", "vigil_start = 9"), "settings.vigil_start", "1 to 6"),
    (GOOD.replace("round_cap = 20", 'killed_minions = "eaten"'), "settings.killed_minions",
     "'pool' or 'removed'"),
    (GOOD.replace("round_cap = 20", "size = 14"), "settings.size", "8, 9, 10, 11, 12"),
    (GOOD.replace("games_per_cell = 2", "games_per_cell = 0"), "games_per_cell",
     "must be at least 1"),
    (GOOD.replace("games_per_cell = 2", 'games_per_cell = "many"'), "games_per_cell",
     "must be a whole number (got 'many')"),
    (GOOD.replace('[["pyre-choir", "bone-wardens"]]', '"every"'), "factions",
     'must be "all", "free" or a list of pairs'),
    (GOOD.replace("seed = 1", 'keep_records = ["caped"]'), "keep_records[0]",
     "did you mean 'capped'?"),
    (GOOD.replace("seed = 1", "seeds = 1"), "seeds",
     "unknown key 'seeds' (did you mean 'seed'?); allowed: name, seed"),
    (GOOD + "[[agents]]\nname = \"random\"\n", "agents", "at most 2"),
    ("seed = ", "(toml)", ""),
])
def test_bad_specs_name_the_file_the_key_and_what_is_allowed(text: str, key: str,
                                                              allowed: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(text, "bad.toml")
    assert info.value.file == "bad.toml"
    assert info.value.key == key
    assert allowed in str(info.value)
    assert str(info.value).startswith(f"bad.toml: {key}: ")
    # Plain words: no validation-library locations or jargon.
    for internal in ("literal[", "function-after", "list[tuple", "Input should", "pydantic"):
        assert internal not in str(info.value)


THREE_ERRORS = GOOD.replace('name = "search"', 'name = "serch"').replace(
    "round_cap = 20", "round_cup = 20").replace("games_per_cell = 2", "games_per_cell = -1")


def test_a_spec_with_three_errors_reports_all_three() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(THREE_ERRORS, "three.toml")
    lines = str(info.value).splitlines()
    assert sorted(k for k, _ in info.value.problems) == [
        "agents[1].name", "games_per_cell", "settings.round_cup"]
    assert len(lines) == 3 and all(line.startswith("three.toml: ") for line in lines)
    assert "three.toml: agents[1].name: unknown agent 'serch' (did you mean 'search'?)" \
        in str(info.value)
    assert "three.toml: settings.round_cup: unknown setting 'round_cup' (did you mean " \
           "'round_cap'?)" in str(info.value)
    assert "three.toml: games_per_cell: must be at least 1 (got -1)" in str(info.value)


def test_the_cli_lists_every_spec_error(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from reliquary.cli.main import cli

    bad = tmp_path / "three.toml"
    bad.write_text(THREE_ERRORS)
    result = CliRunner().invoke(cli, ["lab", "run", str(bad), "--out", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert result.output.count(f"{bad}: ") == 3 and "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_a_missing_file_and_a_bad_content_folder(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "nope.toml")
    spec = tmp_path / "s.toml"
    spec.write_text('content = "nowhere"\n[[agents]]\nname = "random"\n')
    with pytest.raises(SpecError, match=r"s\.toml: content: .*not a folder"):
        load_spec(spec)
