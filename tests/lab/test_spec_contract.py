"""The lab spec's small documented pieces, value by value (issue 31, by class: sample K
missed four lab faults in corners the run's tests read only in part). Pins the spec's
key lists, an agent entry's budget and display name, a spec error's text, the near-miss
suggestion, which settings are the modules', the command line that replays a run, the
seatings and counts of one and two agents, and the one-line description."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


# ---------------------------------------------------------------------- every refusal's key
BASE = 'seed = 1\ngames_per_cell = 1\nfactions = [["pyre-choir", "grave-tide"]]\n'
AGENT = '[[agents]]\nname = "greedy"\n'


def _top(line: str) -> str:
    return BASE.replace("seed = 1\n", f"seed = 1\n{line}\n") + AGENT


def _problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as err:
        parse_spec(text, "p.toml")
    return err.value.problems


@pytest.mark.parametrize(("text", "want"), [
    (BASE + '[settings]\nmodules = ["glory"]\n"glory.phases" = [2, 99]\n' + AGENT,
     [("settings", "glory.phases must be a whole number from 0 to 6, not 99")]),
    (BASE + '[settings]\n"nomod.x" = 1\n' + AGENT,
     # (the modules' list: whatever modules are registered, tests' own included)
     [("settings.nomod.x", "unknown module 'nomod'; available modules: ")]),
    (_top("rites = 3"), [("rites", 'must be "free", "balanced" or a list of [Key\'s rite, '
                                   'Skull\'s rite] pairs, such as [["Harrow", "Exhumation"]] '
                                   "(got 3)")]),
    (_top('first = "both"'),
     [("first", 'must be "free", "balanced", "key" or "skull" (got \'both\')')]),
    (BASE + "agents = []\n", [("agents", "at least 1 entry needed")]),
    ("", [("agents", "required key is missing")]),
    (BASE + AGENT + 'module_eval = "x"\n',
     [("agents[0].module_eval", "must be 'aware' or 'blind' (got 'x')")]),
    (BASE + 'agents = ["greedy"]\n', [("agents[0]", "must be a table (got 'greedy')")]),
    (BASE + "[[agents]]\nname = 3\n", [("agents[0].name", "must be text (got 3)")]),
    (_top('ruleset = "nope"'), [("ruleset", "unknown ruleset 'nope'; known: classic, "
                                            "tournament (or the path of a .toml file)")]),
    (BASE.replace('[["pyre-choir", "grave-tide"]]', "[]") + AGENT,
     [("factions", 'an empty list; use "all", "free" or pairs')]),
    (_top("keep_records = 3"), [("keep_records", "must be text (got 3)"),
                                ("keep_records", "must be a list (got 3)")]),
    (_top('rites = [["Harrow", "Harrow"]]'),
     [("rites[0]", "the two players draft different rites (S5)")]),
    (_top("rites = []"), [("rites", 'an empty list; use "free", "balanced" or pairs')]),
    (_top('rites = [["Harow", "Exhumation"]]'),
     [("rites[0]", "unknown rite 'Harow' (did you mean 'Harrow'?); allowed: Exhumation, "
                   "Desecration, Harrow")]),
    (_top("name = 5"), [("name", "must be text (got 5)")]),
    (BASE + AGENT + "depth = 2\n",
     [("agents[0].depth", "unknown agent key 'depth' (did you mean 'max_depth'?); allowed: "
                          "name, nodes, noise, max_depth, extend, module_eval, label")]),
    (BASE + AGENT * 3, [("agents", "at most 2 entries (got 3)")]),
    (_top("colour = 1"), [("colour", "unknown key 'colour'; allowed: name, seed, "
                                     "games_per_cell, factions, rites, first, ruleset, "
                                     "content, keep_records, settings, agents")]),
])
def test_each_refusal_names_its_key(text: str, want: list[tuple[str, str]]) -> None:
    got = _problems(text)
    assert len(got) == len(want), got
    for (key, message), (wkey, wmessage) in zip(got, want, strict=True):
        assert key == wkey
        assert message == wmessage or (wmessage.endswith(": ")
                                       and message.startswith(wmessage)), message


@pytest.mark.parametrize("pair", ['[["pyre-choir"]]', '[["pyre-choir", 3]]'])
def test_a_malformed_pair_is_reported_once_by_the_validation(pair: str) -> None:
    for key in ("factions", "rites"):
        text = (BASE.replace('[["pyre-choir", "grave-tide"]]', pair) + AGENT
                if key == "factions" else _top(f"rites = {pair}"))
        problems = _problems(text)
        assert {k for k, _ in problems} == {key}, problems
        assert all(m.startswith("must be ") for _, m in problems)


def test_a_bad_agent_entry_is_not_checked_for_its_budget() -> None:
    """An entry that is no table, or whose name is no text, is the validation's: no
    'unknown agent' or 'needs a node budget' beside it."""
    assert [k for k, _ in _problems(BASE + 'agents = ["search"]\n')] == ["agents[0]"]
    assert [k for k, _ in _problems(BASE + "[[agents]]\nname = 3\nnodes = 5\n")] == [
        "agents[0].name"]
    assert _problems(BASE + '[[agents]]\nname = "mcts"\n') == [
        ("agents[0].nodes", "mcts needs a node budget (nodes = N) so that the run is "
                            "reproducible")]


def test_module_options_one_value_a_grid_and_a_subset() -> None:
    def grid(settings: str) -> list[Any]:
        s = parse_spec(BASE + "[settings]\n" + settings + "\n" + AGENT, "p.toml")
        return [{k: v for k, v in cell.items() if "." in k} for cell in s.settings_grid]

    assert grid('modules = ["glory"]\n"glory.phases" = 2') == [{"glory.phases": 2}]
    assert grid('modules = ["glory"]\n"glory.phases" = [1, 2]') == [
        {"glory.phases": 1}, {"glory.phases": 2}]
    # a subset option: a list is one value, a list of lists a grid
    assert grid('modules = ["conditions"]\n"conditions.actions" = ["focus", "guard"]') == [
        {"conditions.actions": ["focus", "guard"]}]
    assert grid('modules = ["conditions"]\n"conditions.actions" = [["focus"], '
                '["guard", "tend"]]') == [{"conditions.actions": ["focus"]},
                                         {"conditions.actions": ["guard", "tend"]}]
    # an option counts only where its module is on
    assert grid('modules = [[], ["glory"]]\n"glory.phases" = [1, 2]') == [
        {}, {"glory.phases": 1}, {"glory.phases": 2}]


def test_overrides_of_the_seed_and_of_the_content_s_numbers() -> None:
    s = parse_spec(BASE + AGENT, "p.toml", overrides={"seed": 9, "round_cap": 30})
    assert s.seed == 9 and s.overrides == {"seed": 9, "round_cap": 30}
    assert [c["round_cap"] for c in s.settings_grid] == [30]
    assert not s.custom_content
    patched = parse_spec(BASE + AGENT, "p.toml",
                         overrides={"patch.factions.grave-tide.hero_hp": 9})
    assert patched.custom_content and patched.settings_grid == parse_spec(
        BASE + AGENT, "p.toml").settings_grid
    hp = {f.id: f.hero_hp for f in patched.content.factions}
    assert hp["grave-tide"] == 9
    assert all(j.content is patched.content for j in patched.jobs())
    assert patched.spec_hash != parse_spec(BASE + AGENT, "p.toml").spec_hash


def test_a_ruleset_s_settings_and_name() -> None:
    s = parse_spec(_top('ruleset = "tournament"'), "p.toml")
    assert s.ruleset == "tournament"
    assert s.describe_rules() == ("greedy; ruleset=tournament, size=8, round_cap=200, "
                                  "killed_minions=removed")
    assert [c["killed_minions"] for c in s.settings_grid] == ["removed"]
    assert all(j.ruleset == "tournament" for j in s.jobs())
    own = parse_spec(_top('ruleset = "tournament"').replace(
        AGENT, '[settings]\nkilled_minions = "pool"\n' + AGENT), "p.toml")
    assert [c["killed_minions"] for c in own.settings_grid] == ["pool"]   # the spec's own
    plain = parse_spec(BASE + AGENT, "p.toml")
    assert plain.ruleset == "classic" and "ruleset=" not in plain.describe_rules()
    assert all(j.ruleset == "classic" for j in plain.jobs())


# ---------------------------------------------------------------------- the setup design
RITE_IDS = ("Exhumation", "Desecration", "Harrow")   # the content's order
ORDERED = [(a, b) for a in RITE_IDS for b in RITE_IDS if a != b]


@pytest.mark.parametrize(("lines", "setups"), [
    ("", [(None, None)]),
    ('rites = "free"\nfirst = "free"', [(None, None)]),
    ('first = "key"', [(None, 0)]),
    ('first = "skull"', [(None, 1)]),
    ('first = "balanced"', [(None, 0), (None, 1)]),
    ('rites = "balanced"', [(p, None) for p in ORDERED]),
    ('rites = "balanced"\nfirst = "skull"', [(p, 1) for p in ORDERED]),
    ('rites = "balanced"\nfirst = "balanced"', [(p, f) for p in ORDERED for f in (0, 1)]),
    ('rites = [["Harrow", "Exhumation"], ["Exhumation", "Harrow"]]\nfirst = "balanced"',
     [(("Harrow", "Exhumation"), 0), (("Harrow", "Exhumation"), 1),
      (("Exhumation", "Harrow"), 0), (("Exhumation", "Harrow"), 1)]),
])
def test_the_design_s_setups_in_order(lines: str, setups: list[Any]) -> None:
    assert parse_spec(_top(lines), "p.toml").setups == setups


@pytest.mark.parametrize(("factions", "design", "reps"), [
    ('"free"', 'rites = "balanced"\nfirst = "balanced"', 14),              # P = 1
    ('[["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"], '
     '["pyre-choir", "bone-wardens"]]', 'rites = "balanced"', 5),          # P = 3, 6 setups
    ('"all"', 'rites = "balanced"\nfirst = "balanced"', 2),                # P = 72: shifted
    ('[["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]', 'first = "balanced"',
     3),                                                                    # P = 2 = n
])
def test_each_game_s_setup_by_the_documented_rotation(factions: str, design: str,
                                                      reps: int) -> None:
    """docs/lab.md: the setup of pairing p in repetition r is number (r·P + p + s) mod n,
    P pairings, n setups, s = r when P is a multiple of n, else 0."""
    text = (f"seed = 2\ngames_per_cell = {reps}\nfactions = {factions}\n{design}\n"
            + AGENT + '[[agents]]\nname = "random"\n')
    s = parse_spec(text, "p.toml")
    n, pairings = len(s.setups), len(s.pairings)
    for job in s.jobs():
        p = s.pairings.index(job.factions)
        shift = job.rep if pairings % n == 0 else 0
        assert (job.rites, job.first) == s.setups[(job.rep * pairings + p + shift) % n]
        assert s.setup_for(p, job.rep) == (job.rites, job.first)
    assert s.balanced is (pairings * reps % n == 0)


def test_a_ruleset_file_beside_the_spec_and_the_spec_s_own_fields(tmp_path: Path) -> None:
    from reliquary.lab.spec import __file__ as spec_file

    rulesets = Path(spec_file).parent.parent / "data" / "rulesets"
    (tmp_path / "mine.toml").write_text((rulesets / "tournament.toml").read_text())
    s = parse_spec(_top('ruleset = "mine.toml"'), tmp_path / "p.toml")
    assert s.ruleset == "mine" and s.custom_content and s.content_dir is None
    assert [c["killed_minions"] for c in s.settings_grid] == ["removed"]
    named = parse_spec(_top('ruleset = "tournament"'), tmp_path / "p.toml")
    assert named.content.fingerprint == s.content.fingerprint
    text = _top('keep_records = ["draw", "draw", "vigil"]')
    plain = parse_spec(text, Path("dir/p.toml"))
    assert plain.keep_records == ("draw", "vigil")          # each once, in order
    assert (plain.name, plain.path, plain.text) == ("p", Path("dir/p.toml"), text)
    assert not plain.custom_content and plain.overrides == {}
    assert all(j.content is None and j.keep_records == ("draw", "vigil")
               for j in plain.jobs())
    assert parse_spec(_top('keep_records = "capped"'), "p.toml").keep_records == ("capped",)
    assert parse_spec(_top('name = "x"'), "p.toml").name == "x"


def test_a_content_folder_beside_the_spec_and_a_patch_over_a_ruleset(tmp_path: Path) -> None:
    import shutil

    import reliquary

    data = Path(reliquary.__file__).parent / "data"
    (tmp_path / "specs" / "mine").mkdir(parents=True)
    for toml in data.glob("*.toml"):
        shutil.copy(toml, tmp_path / "specs" / "mine")
    s = parse_spec(_top('content = "mine"'), tmp_path / "specs" / "p.toml")
    assert s.content_dir == (tmp_path / "specs" / "mine").resolve()
    assert not s.custom_content         # the same numbers as the packaged content
    assert parse_spec(BASE + AGENT, "p.toml").content_dir is None
    patch = {"patch.factions.grave-tide.hero_hp": 9}
    ruled = parse_spec(_top('ruleset = "tournament"'), "p.toml")
    both = parse_spec(_top('ruleset = "tournament"'), "p.toml", overrides=patch)
    alone = parse_spec(BASE + AGENT, "p.toml", overrides=patch)
    assert {f.id: f.hero_hp for f in both.content.factions}["grave-tide"] == 9
    # the ruleset's own patch is kept under the override
    assert len({ruled.content.fingerprint, both.content.fingerprint,
                alone.content.fingerprint}) == 3
    assert both.ruleset == "tournament"


@pytest.mark.parametrize(("lines", "named"), [
    ('first = "key"', ["Key moves first"]),
    ('first = "skull"', ["Skull moves first"]),
    ('rites = [["Harrow", "Exhumation"]]', ["rites Harrow vs Exhumation"]),
    ('rites = [["Harrow", "Exhumation"]]\nfirst = "balanced"',
     ["balanced first move", "rites Harrow vs Exhumation"]),
    ('rites = "balanced"\nfirst = "skull"', ["balanced rites", "Skull moves first"]),
    ('rites = [["Harrow", "Exhumation"], ["Exhumation", "Harrow"]]', ["balanced rites"]),
    ('rites = "balanced"\nfirst = "balanced"', ["balanced rites and first move"]),
    ("", ["size=8", "round_cap=200"]),
])
def test_the_rules_line_names_what_the_design_fixes(lines: str, named: list[str]) -> None:
    """A design that fixes the first mover or the rites says so, rather than calling
    them balanced (the setups it rotates through are)."""
    rules = parse_spec(_top(lines), "p.toml").describe_rules()
    assert rules.split("; ")[1].split(", ")[-len(named):] == named
