"""A module cell has its default cell's dice and deal (MODULES.md §10.2 step 1): a game's
seeds hash the base game's settings only, and a module's own chance kinds draw from
streams of their own, so the base game's deal and rolls take the default run's numbers.
Specs without module keys keep their games exactly."""

from __future__ import annotations

import hashlib
import json

from reliquary.ai import get_agent
from reliquary.content import default_content
from reliquary.engine import Settings, State
from reliquary.engine.hooks import Rulebook
from reliquary.lab import runner
from reliquary.lab.spec import LabSpec, base_settings, parse_spec

PAIRINGS = 'factions = [["pyre-choir", "bone-wardens"], ["veiled-hand", "grave-tide"]]\n'


def _spec(settings: str) -> LabSpec:
    return parse_spec(f'name = "d"\nseed = 3\ngames_per_cell = 2\n{PAIRINGS}'
                      f'[settings]\n{settings}\n[[agents]]\nname = "random"\n', "d.toml")


def _seeds_digest(spec: LabSpec) -> str:
    jobs = spec.jobs()
    canon = [[j.game_id, j.chance_seed, list(j.agent_seeds)] for j in jobs]
    return hashlib.sha256(json.dumps(canon).encode()).hexdigest()[:16]


def test_a_base_spec_keeps_its_games_ids_and_seeds() -> None:
    """Digests of (game id, chance seed, agent seeds) of every job, computed by the code
    before the seeds left the module keys out: the base game's runs are unchanged."""
    default = parse_spec('name = "default-8-greedy"\nseed = 2026\ngames_per_cell = 2\n'
                         'factions = "all"\n[settings]\nsize = 8\n[[agents]]\n'
                         'name = "greedy"\n', "default-8-greedy.toml")
    assert (default.spec_hash, len(default.jobs())) == ("bc916151dd0be2a9", 144)
    assert _seeds_digest(default) == "f405080855cb9a35"
    design = parse_spec('name = "t"\nseed = 2615\ngames_per_cell = 2\nfactions = "all"\n'
                        'rites = "balanced"\nfirst = "balanced"\n'
                        '[settings]\nsize = [8, 12]\nregroup_limit = [2, 3]\n'
                        '[[agents]]\nname = "greedy"\n[[agents]]\nname = "random"\n', "t.toml")
    assert (design.spec_hash, len(design.jobs())) == ("b0ac3f28e3397627", 1152)
    assert _seeds_digest(design) == "2189027ec1767932"


def test_a_base_game_plays_as_before() -> None:
    """Results of two base games, pinned from the runner before the chance streams: the
    base game has no module chance kinds, so every draw comes from the one stream."""
    spec = parse_spec(f'name = "b"\nseed = 5\ngames_per_cell = 1\n{PAIRINGS}'
                      'first = "balanced"\n[settings]\nsize = 8\n[[agents]]\n'
                      'name = "random"\n', "b.toml")
    got = [(j.game_id, j.chance_seed, row["winner"], row["reason"], row["rounds"],
            row["decisions"]) for j in spec.jobs() for row in [runner.play_game(j)]]
    assert got == [("b7e47717d74a29f2", 2772249479, "key", "vigil", 33, 233),
                   ("4542c93687e698f9", 3598106756, "key", "vigil", 12, 87)]


def test_a_module_cell_has_its_default_cell_s_seeds_and_its_own_game_id() -> None:
    grid = _spec('size = 8\nmodules = [[], ["keepers"], ["glory"], ["conditions"]]\n'
                 '"glory.phases" = [2, 3]')
    cells = {json.dumps(s, sort_keys=True) for s in grid.settings_grid}
    assert len(cells) == 5          # default, keepers, glory ×2 phases, conditions
    jobs = grid.jobs()
    assert len({j.game_id for j in jobs}) == len(jobs)  # one store holds every cell
    by_place: dict[tuple[int, tuple[str, str] | None], set[tuple[int, tuple[int, int]]]] = {}
    for job in jobs:
        by_place.setdefault((job.rep, job.factions), set()).add(
            (job.chance_seed, job.agent_seeds))
    assert len(by_place) == 4 and all(len(seeds) == 1 for seeds in by_place.values())
    # and a module spec of its own against the default spec, as the §10.2 runs are
    default, module = _spec("size = 8"), _spec('size = 8\nmodules = ["glory"]')
    assert [(j.chance_seed, j.agent_seeds) for j in default.jobs()] == \
        [(j.chance_seed, j.agent_seeds) for j in module.jobs()]
    assert not {j.game_id for j in default.jobs()} & {j.game_id for j in module.jobs()}
    assert module.spec_hash != _spec('size = 8\nmodules = ["keepers"]').spec_hash


def test_base_settings_drop_the_modules_and_their_options() -> None:
    cell = {"size": 8, "vigil_start": 6, "modules": ["glory"], "glory.phases": 2}
    assert base_settings(cell) == {"size": 8, "vigil_start": 6}


def _setup(modules: list[str], first: int | None) -> tuple[list[tuple[str, str]], float]:
    """Play a game's setup with random agents and the lab's dice: the chance outcomes
    drawn (kind, outcome), and the next number of the base game's stream."""
    content = default_content()
    settings = Settings.from_dict({"size": 8, "modules": modules})
    state = State(content, settings)
    dice = runner.ChanceStreams(11, Rulebook.of(content, settings).chance_kinds)
    agents = [get_agent("random", seed=1), get_agent("random", seed=2)]
    drawn: list[tuple[str, str]] = []
    while True:
        decision = state.decision()
        if state.is_chance:
            option = runner.sample_setup_chance(state, dice.stream(state), first)
            drawn.append((decision.kind, str(option)))
        elif decision.kind == "play":
            return drawn, dice.main.random()
        else:
            option = agents[decision.player].choose(state)
        state.apply(option)


def test_module_chance_leaves_the_base_game_s_deal_and_stream_alone() -> None:
    """Keepers draws token types and Glory objectives at setup; the deal is the default
    game's, and the first roll of play takes the number the default game's takes."""
    for first in (None, 1):
        deal, after = _setup([], first)
        assert deal and {kind for kind, _ in deal} == {"deal"}
        for module in ("keepers", "glory", "conditions"):
            drawn, module_after = _setup([module], first)
            assert [d for d in drawn if d[0] == "deal"] == deal
            assert module_after == after
        assert any(kind == "token_type" for kind, _ in _setup(["keepers"], first)[0])
        assert any(kind == "objective_draw" for kind, _ in _setup(["glory"], first)[0])


def test_each_module_chance_kind_has_a_stable_stream_of_its_own() -> None:
    assert runner.stream_seed(11, "reveal") == runner.stream_seed(11, "reveal")
    assert len({runner.stream_seed(s, k) for s in (11, 12)
                for k in ("reveal", "token_type", "dread")}) == 6
    # a stable hash: the same number in every process (Python's hash() is salted)
    assert runner.stream_seed(11, "dread") == int.from_bytes(
        hashlib.sha256(b"11:dread").digest()[:8], "big")
