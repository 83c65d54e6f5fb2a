"""The rule-module framework (MODULES.md §3, M-MOD-1 to M-MOD-10), with small modules
made here and the worked example of docs/modules.md (``smoulder``)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reliquary.engine import (
    CHANCE,
    Builder,
    Content,
    ContentError,
    Game,
    Play,
    Settings,
    State,
    position_from_dict,
    position_to_dict,
    replay,
)
from reliquary.engine.hooks import DecisionKind, Hooks, ModuleState
from reliquary.engine.modules import Module, OptionSpec, register, registered, unregister
from reliquary.engine.state import Frame, Piece
from reliquary.engine.types import Option

from . import smoulder  # registers the worked example


# ---------------------------------------------------------------------- test modules
class Tally(ModuleState):
    """A module state: counters by name (for the order and INTERACT tests)."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.score = [0, 0]

    def copy(self) -> Tally:
        t = Tally()
        t.log, t.score = self.log[:], self.score[:]
        return t

    def to_json(self) -> Any:
        return {"log": self.log, "score": self.score}

    def load(self, data: Any) -> None:
        if not isinstance(data, dict) or set(data) != {"log", "score"}:
            raise ValueError("expected an object with 'log' and 'score'")
        self.log, self.score = list(data["log"]), [int(v) for v in data["score"]]

    def key(self) -> object:
        return (tuple(self.log[-4:]), tuple(self.score))


def tally(s: State) -> Tally:
    t = s.module_state["probe"]
    assert isinstance(t, Tally)
    return t


class PickPiece(DecisionKind):
    """INTERACT's 'bless': the player picks one of their pieces; it scores a point."""

    help = "the piece to bless"

    def options(self, s: State, frame: Frame) -> list[Option]:
        return sorted(p.sq for p in s.pieces.values() if p.owner == s.current)

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        tally(s).score[s.current] += 1
        tally(s).log.append("bless")


class Omen(DecisionKind):
    """A chance kind with unequal odds (M-MOD-8): 1 (half the time), 2 or 3."""

    chance = True
    notation = "value"

    def options(self, s: State, frame: Frame) -> list[Option]:
        return [1, 2, 3]

    def probabilities(self, s: State, frame: Frame, options: list[Option]) -> list[float]:
        return [0.5, 0.25, 0.25]

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        tally(s).log.append(f"omen{option}")


class Tithe(DecisionKind):
    """A round-end decision of the player the frame names (M-MOD-7)."""

    notation = "id"

    def player(self, s: State, frame: Frame) -> int:
        return int(frame[1])

    def options(self, s: State, frame: Frame) -> list[Option]:
        return ["pay", "keep"]

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        tally(s).log.append(f"tithe{frame[1]}:{option}")


class ProbeHooks(Hooks):
    def __init__(self, settings: Settings) -> None:
        self.bonus = settings.option("probe.bonus")
        self.ward = settings.option("probe.ward")
        self.verdicts = settings.option("probe.verdict") == "on"

    def new_state(self) -> ModuleState:
        return Tally()

    def decisions(self) -> dict[str, DecisionKind]:
        return {"probe_bless": PickPiece(), "probe_omen": Omen(), "probe_tithe": Tithe()}

    def turn_end(self, s: State, player: int) -> None:
        tally(s).log.append("T1")

    def after_relic_home(self, s: State, player: int) -> None:
        tally(s).log.append("T3")

    def round_end(self, s: State) -> None:
        tally(s).log.append("R1")
        s.stack.append(("probe_tithe", 1 - s.first))
        s.stack.append(("probe_tithe", s.first))  # the first player decides first
        s.stack.append(("probe_omen",))

    def hit_bonus(self, s: State, attacker: Piece, target: Piece) -> int:
        return self.bonus

    def reduction(self, s: State, target: Piece) -> int:
        return self.ward

    def interact_actions(self, s: State, player: int) -> list[str]:
        return ["bless"]

    def interact(self, s: State, player: int, action: str) -> None:
        s.stack.append(("probe_bless",))

    def verdict(self, s: State) -> tuple[int | None, str] | None:
        if not self.verdicts:
            return None
        score = tally(s).score
        if score[0] == score[1]:
            return None
        return int(score[1] > score[0]), "more blessings"


@pytest.fixture(scope="module", autouse=True)
def probe_module() -> Iterator[Module]:
    module = register(Module(
        name="probe", title="Probe", rules="TEST", summary="hooks for the framework's tests",
        hooks=lambda content, settings: ProbeHooks(settings),
        options={"bonus": OptionSpec(0, lo=-2, hi=2), "ward": OptionSpec(0, lo=0, hi=3),
                 "verdict": OptionSpec("off", choices=("on", "off"))}))
    yield module
    unregister("probe")


def play_random(state: State, rng: random.Random, limit: int = 4000) -> Iterator[State]:
    for _ in range(limit):
        if state.result is not None:
            return
        options = state.legal_options()
        if state.is_chance:
            outcomes = state.chance_outcomes()
            option = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            option = rng.choice(options)
        state.apply(option)
        yield state
    raise AssertionError("the game did not end")


def to_turn(state: State, rng: random.Random) -> State:
    """Play random setup decisions until the first play decision."""
    while state.stack[-1][0] != "play":
        state.apply(rng.choice(state.legal_options()))
    return state


# ---------------------------------------------------------------------- M-MOD-1, M-MOD-2
def test_mmod1_modules_are_settings_written_only_when_on() -> None:
    base = Settings()
    assert "modules" not in base.as_dict()
    on = Settings(modules=("smoulder",))
    assert on.as_dict()["modules"] == ["smoulder"]
    assert Settings.from_dict(on.as_dict()) == on
    assert on.variants() == {"modules": ["smoulder"]}
    # canonical: registry order, no repeats
    both = Settings.from_dict({"modules": ["probe", "smoulder", "probe"]})
    order = [n for n in registered() if n in ("smoulder", "probe")]
    assert list(both.modules) == order


@pytest.mark.parametrize(("data", "message"), [
    ({"modules": ["smolder"]}, "unknown module 'smolder' (did you mean 'smoulder'?)"),
    ({"modules": ["conditions"], "conditions.dread_tn": 7},
     "conditions.dread_tn must be a whole number from 1 to 6"),
    ({"modules": "probe", "probe.bonus": 5}, "probe.bonus must be a whole number from -2 to 2"),
    ({"probe.bonus": 1}, "belongs to module 'probe', which is off"),
    ({"modules": ["probe"], "probe.bonsu": 1}, "did you mean 'probe.bonus'?"),
    ({"modules": ["probe"], "probe.verdict": "maybe"}, "probe.verdict must be one of"),
    ({"modules": ["probe"], "bonus": 1}, "unknown setting 'bonus'"),
])
def test_mmod2_bad_module_settings_name_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("?", r"\?").replace(".", r"\.")):
        Settings.from_dict(data)


def test_mmod2_options_keep_only_what_differs_from_the_default() -> None:
    s = Settings.from_dict({"modules": ["probe"], "probe.bonus": 0, "probe.ward": 2})
    assert s.module_options == (("probe.ward", 2),)
    assert s.option("probe.bonus") == 0 and s.option("probe.ward") == 2
    assert s.as_dict()["probe.ward"] == 2 and "probe.bonus" not in s.as_dict()


def test_mmod1_records_carry_modules_and_replay(content: Content) -> None:
    rng = random.Random(3)
    game = Game(content, Settings(modules=("smoulder", "probe")))
    while game.state.result is None:
        state = game.state
        if state.is_chance:
            outcomes = state.chance_outcomes()
            game.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            game.apply(rng.choice(state.legal_options()))
    record = json.loads(json.dumps(game.record()))
    assert record["settings"]["modules"] == list(game.settings.modules)
    assert set(record["content"]["modules"]) == {"smoulder", "probe"}
    again = replay(record, content)
    assert position_to_dict(again.state) == position_to_dict(game.state)


def test_base_records_name_no_module(content: Content) -> None:
    game = Game(content, Settings())
    assert "modules" not in game.record()["content"]
    assert "modules" not in position_to_dict(game.state)


# ---------------------------------------------------------------------- M-MOD-3 INTERACT
def test_mmod3_interact_is_a_mode_only_with_module_actions(content: Content) -> None:
    rng = random.Random(1)
    base = to_turn(State(content, Settings(first_turn="no_attack")), rng)
    assert all(o.mode != "interact" for o in base.legal_options() if isinstance(o, Play))
    rng = random.Random(1)
    state = to_turn(State(content, Settings(first_turn="no_attack", modules=("probe",))), rng)
    plays = [o for o in state.legal_options() if isinstance(o, Play)]
    interact = [o for o in plays if o.mode == "interact"]
    # one per card in hand, and not an ATTACK: first_turn=no_attack allows it
    assert len(interact) == len(state.hands[state.current]) > 0
    assert not [o for o in plays if o.mode == "attack"]
    player, card = state.current, interact[0].card
    state.apply(interact[0])
    assert state.decision().kind == "interact" and state.legal_options() == ["bless"]
    state.apply("bless")
    assert state.decision().kind == "probe_bless"
    state.apply(state.legal_options()[0])
    assert tally(state).score[player] == 1
    assert state.waiting == card  # the played card still becomes the waiting card


# ---------------------------------------------------------------------- M-MOD-4, M-MOD-7, M-MOD-8
def test_mmod4_steps_come_in_order_and_mmod7_first_player_decides_first(
        content: Content) -> None:
    state = State(content, Settings(modules=("probe",)))
    rng = random.Random(5)
    to_turn(state, rng)
    first = state.first
    seen: list[tuple[str, int]] = []
    while state.rounds == 0 and state.result is None:
        if state.stack[-1][0] == "probe_tithe":
            seen.append(("tithe", state.current_player))
        if state.is_chance:
            assert state.stack[-1][0] == "probe_omen"
        state.apply(rng.choice(state.legal_options()))
    log = tally(state).log
    # each turn: T1 then T3; after the second turn: R1, the omen, then both tithes
    assert log[:2] == ["T1", "T3"]
    r1 = log.index("R1")
    assert log[r1 - 2:r1] == ["T1", "T3"]
    assert log[r1 + 1].startswith("omen")
    assert [who for _, who in seen] == [first, 1 - first]
    assert log[r1 + 2] == f"tithe{first}:pay" or log[r1 + 2] == f"tithe{first}:keep"


def test_mmod8_module_chance_has_its_probabilities(content: Content) -> None:
    state = State(content, Settings(modules=("probe",)))
    rng = random.Random(2)
    to_turn(state, rng)
    while state.stack[-1][0] != "probe_omen":
        state.apply(rng.choice(state.legal_options()))
    d = state.decision()
    assert d.player == CHANCE and state.is_chance
    assert d.options == (1, 2, 3) and d.probabilities == (0.5, 0.25, 0.25)
    assert state.chance_outcomes() == [(1, 0.5), (2, 0.25), (3, 0.25)]


# ---------------------------------------------------------------------- M-MOD-5 verdict
def test_mmod5_a_module_count_decides_before_v2(content: Content) -> None:
    state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"),
                    modules=("probe",), module_options=(("probe.verdict", "on"),)) \
        .hero(0, "d1").hero(1, "e8").minion(0, "a1").relic(0, "c3").relic(1, "f6").build()
    assert state.vigil_result().reason == "vigil"  # tied: V2 (more Minions: Key)
    assert state.vigil_result().winner == 0
    tally(state).score[1] = 2
    result = state.vigil_result()
    assert (result.winner, result.reason, result.detail) == (1, "points", "more blessings")
    assert state.vigil_leader() == 1


# ---------------------------------------------------------------------- M-MOD-9 the hit
def _strike_position(content: Content, **options: int) -> State:
    return Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("probe",),
                   module_options=tuple((f"probe.{k}", v) for k, v in options.items())) \
        .hero(0, "d4").hero(1, "e8").minion(1, "d5").relic(0, "a3").relic(1, "h6") \
        .hands(key=["Bolt"]).set(turns_taken=[1, 1]).build()


def _damage_dealt(content: Content, **options: int) -> int:
    """The HP a 6-HP Minion loses to the Key Hero's Bolt, with the probe's options."""
    state = _strike_position(content, **options)
    hero = state.hero(0)
    target = state.piece_at(state.geometry.parse("d5"))
    assert hero is not None and target is not None
    target.hp = target.max_hp = 6
    state.strike(hero, target, state._line("Bolt", hero), "Bolt")
    assert state._reduce_left == -1  # the hit is over
    return 6 - target.hp


def test_mmod9_bonus_then_reductions_shape_each_hit(content: Content) -> None:
    base = _damage_dealt(content)
    assert base >= 2  # Bolt: line damage (and crush, if any)
    assert _damage_dealt(content, bonus=1) == base + 1
    assert _damage_dealt(content, bonus=-2) == base - 2
    assert _damage_dealt(content, ward=1) == base - 1
    assert _damage_dealt(content, bonus=1, ward=1) == base
    assert _damage_dealt(content, ward=3) == max(0, base - 3)  # never below 0


def test_mmod9_aegis_prevents_the_whole_hit_before_reductions(content: Content) -> None:
    state = _strike_position(content, bonus=2)
    hero = state.hero(0)
    target = state.piece_at(state.geometry.parse("d5"))
    assert hero is not None and target is not None
    target.aegis = True
    state.events = []
    state.strike(hero, target, state._line("Bolt", hero), "Bolt")
    damage = [e for e in state.events if e.kind == "damage"]
    assert damage and all(e.data["prevented"] == "aegis" for e in damage)
    assert target.id in state.pieces


# ---------------------------------------------------------------------- the worked example
def test_smoulder_sets_on_a_hero_strike_and_ticks_at_round_end(content: Content) -> None:
    state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("smoulder",)) \
        .hero(0, "d4").hero(1, "e8").minion(1, "d5", hp=5, max_hp=5).relic(0, "a3") \
        .relic(1, "h6").set(turns_taken=[1, 1]).build()
    hero = state.hero(0)
    target = state.piece_at(state.geometry.parse("d5"))
    assert hero is not None and target is not None
    state.events = []
    before = state.key()
    state.strike(hero, target, state._line("Bolt", hero), "Bolt")
    assert target.id in state.pieces and target.hp < 5
    assert target.has("smoulder") and target.value("smoulder") == smoulder.DATA.condition.damage
    assert state.key() != before
    data = position_to_dict(state)
    [piece] = [p for p in data["pieces"] if p["id"] == target.id]
    assert piece["conditions"] == [{"name": "smoulder", "value": 1, "gained": 2}]
    again = position_from_dict(json.loads(json.dumps(data)), content)
    assert position_to_dict(again) == data and again.key() == state.key()
    hp = target.hp
    smoulder.MODULE.hooks(content, state.settings).round_end(state)
    assert target.hp == hp - 1 and not target.has("smoulder")
    assert [e.kind for e in state.events][-2:] == ["condition_end", "damage"]


def test_a_module_file_naming_an_unregistered_effect_is_refused(tmp_path: Any) -> None:
    from reliquary.module_data import load_module_data

    bad = tmp_path / "smoulder.toml"
    bad.write_text('content = "smoulder"\n[condition]\nname = "smoulder"\ndamage = 9\n'
                   'help = "x"\n[rider]\nby = "hero"\neffect = "strike"\n')
    with pytest.raises(ContentError, match=r"smoulder\.toml: field 'condition\.damage'"):
        load_module_data(bad, "smoulder", smoulder.SmoulderData)
    bad.write_text('content = "other"\n')
    with pytest.raises(ContentError, match="'content' must be 'smoulder'"):
        load_module_data(bad, "smoulder", smoulder.SmoulderData)


def test_a_module_naming_an_unregistered_effect_does_not_half_load(tmp_path: Any) -> None:
    import importlib.util
    import shutil

    from reliquary.engine.modules import get

    folder = tmp_path / "ember"
    folder.mkdir()
    code = (Path(smoulder.__file__).read_text(encoding="utf-8")
            .replace('"smoulder"', '"ember"').replace("smoulder.toml", "ember.toml")
            .replace("smoulder.damage", "ember.damage"))
    (folder / "ember.py").write_text(code, encoding="utf-8")
    shutil.copy(Path(smoulder.__file__).with_name("smoulder.toml"), folder / "ember.toml")
    data = (folder / "ember.toml").read_text(encoding="utf-8")
    (folder / "ember.toml").write_text(data.replace('content = "smoulder"', 'content = "ember"')
                                       .replace('effect = "strike"', 'effect = "sizzle"'))
    spec = importlib.util.spec_from_file_location("ember_module", folder / "ember.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does (pydantic resolves names there)
    try:
        with pytest.raises(ContentError,
                           match=r"ember\.toml: field 'rider\.effect': .*'sizzle'"):
            spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    with pytest.raises(ValueError, match="unknown module 'ember'"):
        get("ember")


def test_mmod6_a_hero_killed_at_the_round_end_ends_the_game_at_once(
        content: Content) -> None:
    state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("smoulder",)) \
        .hero(0, "d1", hp=1).hero(1, "e8").minion(1, "h8").relic(0, "c3").relic(1, "f6") \
        .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build()
    hero = state.hero(0)
    assert hero is not None
    state.add_condition(hero, "smoulder", 1)
    vigil = state.vigil
    state.events = []
    # Key (first) plays a turn, then Skull: the round ends and Smoulder ticks (R1)
    while state.result is None:
        state.apply(state.legal_options()[-1])
    assert (state.result.winner, state.result.reason) == (1, "hero_killed")
    assert state.vigil == vigil  # R3 never came: the game ended at the kill
    assert "vigil" not in [e.kind for e in state.events]


def test_mmod10_a_module_action_does_not_make_the_round_eventful(content: Content) -> None:
    state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("probe",),
                    first_turn="no_attack") \
        .hero(0, "d1").hero(1, "e8").relic(0, "c3").relic(1, "f6").build()
    vigil = state.vigil
    for _ in range(2):  # both players bless (INTERACT) and nothing else
        play = next(o for o in state.legal_options()
                    if isinstance(o, Play) and o.mode == "interact")
        state.apply(play)
        state.apply("bless")
        state.apply(state.legal_options()[0])
        while state.result is None and state.stack[-1][0] != "play":
            state.apply(state.legal_options()[0])
    assert state.rounds == 1 and state.vigil == vigil - 1


def test_content_naming_an_unregistered_effect_names_file_and_entry(content: Content) -> None:
    from reliquary.engine.content import Rite

    with pytest.raises(ValueError, match="unknown rite effect 'harow' \\(did you mean 'harrow'"):
        Rite.model_validate({"id": "Harrow", "effect": "harow", "text": {"en": "x"}})
    assert "harrow" in {r.effect for r in content.rites}


# ---------------------------------------------------------------------- property: every subset
SUBSETS = ((), ("smoulder",), ("probe",), ("smoulder", "probe"))


@pytest.mark.parametrize("index", range(24))
def test_random_games_under_module_subsets_round_trip_and_end(content: Content,
                                                             index: int) -> None:
    rng = random.Random(1000 + index)
    modules = SUBSETS[index % len(SUBSETS)]
    options: dict[str, Any] = {}
    if "probe" in modules:
        options = {"probe.bonus": rng.randint(-2, 2), "probe.ward": rng.randint(0, 3),
                   "probe.verdict": rng.choice(["on", "off"])}
    if "smoulder" in modules:
        options["smoulder.damage"] = rng.randint(1, 3)
    settings = Settings.from_dict({
        "size": 8 + index % 5, "los": rng.choice(["geometric", "straight"]),
        "first_turn": rng.choice(["no_damage", "no_attack"]), "round_cap": 60,
        "regroup_limit": rng.choice([None, 0, 1]), "vigil_reset": rng.choice(["any", "hero"]),
        "vigil_start": rng.randint(1, 6), "killed_minions": rng.choice(["pool", "removed"]),
        "modules": list(modules), **options})
    state = State(content, settings)
    for s in play_random(state, rng):
        copy = s.clone()
        assert copy.key() == s.key()
        data = position_to_dict(s)
        assert position_to_dict(copy) == data
        again = position_from_dict(json.loads(json.dumps(data)), content)
        assert position_to_dict(again) == data
        assert again.key() == s.key()
        assert again.legal_options() == s.legal_options()
    assert state.result is not None


def test_mmod4_r2_a_round_condition_ends_with_the_round_even_without_hooks(
        content: Content) -> None:
    from reliquary.engine.hooks import AT_ROUND_END, NO_MOVE, ConditionDef

    class Dazed(Hooks):
        def conditions(self) -> list[ConditionDef]:
            return [ConditionDef("dazed", NO_MOVE, AT_ROUND_END)]

    register(Module(name="dazed", title="Dazed", rules="TEST", summary="a round's ban",
                    hooks=lambda c, s: Dazed()))
    try:
        state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"),
                        modules=("dazed",)) \
            .hero(0, "d1").hero(1, "e8").relic(0, "c3").relic(1, "f6").build()
        hero = state.hero(1)
        assert hero is not None
        state.add_condition(hero, "dazed")
        assert hero.bans & NO_MOVE
        rounds = state.rounds
        while state.rounds == rounds and state.result is None:
            state.apply(state.legal_options()[-1])
        assert not hero.has("dazed") and not hero.bans & NO_MOVE
    finally:
        unregister("dazed")


def test_the_guide_names_every_hook() -> None:
    from reliquary.engine.hooks import hook_names

    guide = (Path(__file__).resolve().parents[2] / "docs" / "modules.md").read_text()
    missing = [name for name in hook_names() if f"`{name}(" not in guide]
    assert not missing, f"docs/modules.md does not describe the hooks {missing}"
