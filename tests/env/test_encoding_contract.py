"""The encoder's contract beside the planes' values (`test_every_plane.py`) and the
ranges (`test_action_ranges.py`): what it refuses, the names of its planes with each
module, its starts, the HP's scale for any content, and where it writes (issue 31:
faults in these passed every test of the encoder).

docs/research.md and the module doc of :mod:`reliquary.env.encoding`: ``encode``
raises ValueError for what is no option of a player (a card or a mode the content does
not have, a square off the board, a step not to an adjacent square, a chance outcome),
``decode`` for an action outside ``[0, size)``; a module's planes come after the base
ones — its conditions, ``decision:interact`` only if a module offers INTERACT, its
decision kinds, then what each shows of its own state; HP is over the largest Hero HP
of the content; ``named`` and ``encode`` refuse a shape or a board that is not theirs."""

from __future__ import annotations

import random

import numpy as np
import pytest

import reliquary
from reliquary import default_content
from reliquary.ai import sample_chance
from reliquary.engine import (
    DECISION_KINDS,
    KEY,
    MODES,
    PASS,
    SKULL,
    Builder,
    Play,
    Settings,
    State,
)
from reliquary.engine.hooks import BASE_CONDITIONS, Rulebook
from reliquary.env.encoding import BOARD_PLANES, SCALAR_PLANES, ActionSpace, Observer
from reliquary.rulesets import patched_content

from .test_every_plane import expected_planes

CONTENT = default_content()
MODULE_SETS = [("conditions",), ("glory",), ("keepers",), ("conditions", "glory", "keepers")]


def test_the_starts_are_the_ranges_starts() -> None:
    space = ActionSpace(CONTENT, 8)
    ranges = space.ranges()
    assert space.square_start == ranges["square"][0] == 0
    assert space.step_start == ranges["step"][0] == 64
    assert space.play_start == ranges["play"][0] == 64 + 64 * 8
    assert space.pass_action == ranges["pass"][0] == space.play_start + 18 * len(MODES)
    assert space.faction_start == ranges["faction"][0] == space.pass_action + 1
    assert space.rite_start == ranges["rite"][0] == space.faction_start + 9
    assert space.interact_start == space.name_start == space.size == space.rite_start + 3
    assert (space.board_side, space.area) == (8, 64)
    assert space.cards == tuple(c.id for c in CONTENT.cards)


@pytest.mark.parametrize("player", [KEY, SKULL])
def test_what_is_no_option_of_a_player_is_refused(player: int) -> None:
    space = ActionSpace(CONTENT, 8)
    for bad in (Play("No Such Card", "move"), Play("Pilgrim", "dance"),
                Play("No Such Card", "dance")):
        with pytest.raises(ValueError, match="is not a play of this content's cards"):
            space.encode(bad, player)
    for square in (-1, -8, 64, 100):
        with pytest.raises(ValueError, match="is not a player's option"):
            space.encode(square, player)
    for flag in (True, False):  # a bool is no square
        with pytest.raises(ValueError, match="is not a player's option"):
            space.encode(flag, player)
    with pytest.raises(ValueError, match="neither a faction nor a rite"):
        space.encode("no-such-faction", player)
    for square in (0, 63):
        assert space.encode(square, player) == (square if player == KEY else 63 - square)
    assert space.encode(PASS, player) == space.pass_action


def test_decoding_refuses_actions_outside_the_space() -> None:
    space = ActionSpace(CONTENT, 8)
    for action in (-1, space.size, space.size + 5):
        with pytest.raises(ValueError, match="outside the action space"):
            space.decode(action, KEY)
    assert space.decode(0, KEY) == 0 and space.decode(0, SKULL) == 63
    assert space.decode(space.size - 1, KEY) == CONTENT.rites[-1].id
    assert space.decode(space.pass_action, SKULL) == PASS


def test_legal_actions_and_the_mask() -> None:
    """The sorted actions of the decision's options, 1 in the int8 mask exactly there;
    none at chance or at the end."""
    rng = random.Random(4)
    state = reliquary.new_game(round_cap=8)
    space = ActionSpace(state.content, 8)
    chances = 0
    while True:
        actions = space.legal_actions(state)
        mask = space.mask(state)
        assert mask.dtype == np.int8 and mask.shape == (space.size,)
        assert list(np.flatnonzero(mask)) == actions and set(mask.tolist()) <= {0, 1}
        if state.is_terminal:
            assert actions == []
            break
        if state.is_chance:
            assert actions == []
            chances += 1
            state.apply(sample_chance(state, rng))
            continue
        player = state.current_player
        assert actions == sorted(space.encode(o, player) for o in state.legal_options())
        state.apply(rng.choice(state.legal_options()))
    assert chances > 0


@pytest.mark.parametrize("modules", MODULE_SETS, ids="+".join)
def test_a_module_s_planes_and_actions_come_after_the_base_ones(
        modules: tuple[str, ...]) -> None:
    settings = Settings(modules=modules)
    rules = Rulebook.of(CONTENT, settings)
    observer = Observer(CONTENT, 8, settings=settings)
    base = Observer(CONTENT, 8).plane_names()
    cards = [c.id for c in CONTENT.cards]
    rites = [r.id for r in CONTENT.rites]
    factions = [f.id for f in CONTENT.factions]
    expected_base = [*BOARD_PLANES, *SCALAR_PLANES,
                     *(f"{p}:{c}" for p in ("hand_own", "hand_enemy", "waiting", "played")
                       for c in cards),
                     *(f"{p}:{r}" for p in ("rite_own", "rite_enemy", "rite_draft")
                       for r in rites),
                     *(f"{p}:{f}" for p in ("faction_own", "faction_enemy") for f in factions),
                     *(f"decision:{k}" for k in DECISION_KINDS)]
    assert list(base) == expected_base
    conditions = [c for c in rules.conditions if c not in BASE_CONDITIONS]
    expected = [*expected_base, *(f"condition:{c}" for c in conditions),
                *(["decision:interact"] if rules.interact else []),
                *(f"decision:{k}" for k in rules.decisions),
                *(n for h in rules.hooks for n in h.observation_names()),
                *(n for h in rules.hooks for n in h.board_observation_names())]
    assert list(observer.plane_names()) == expected
    assert observer.shape == (len(expected), 8, 8)
    space = ActionSpace(CONTENT, 8, settings)
    interact = space.ranges()["interact"]
    assert interact[1] - interact[0] == (len(cards) if rules.interact else 0)
    names = list(dict.fromkeys(n for h in rules.hooks for n in h.action_names()))
    assert list(space.names) == names
    assert space.ranges()["module_name"] == (space.name_start, space.name_start + len(names))
    for i, name in enumerate(names):
        assert space.encode(name, SKULL) == space.name_start + i
        assert space.decode(space.name_start + i, KEY) == name


def test_the_modules_offer_interact_as_documented() -> None:
    """Conditions and Keepers' Relics offer INTERACT plays; Glory does not (its space
    and planes then have none)."""
    offers = {m: Rulebook.of(CONTENT, Settings(modules=(m,))).interact
              for m in ("conditions", "glory", "keepers")}
    assert {m: bool(v) for m, v in offers.items()} == {
        "conditions": True, "glory": False, "keepers": True}
    glory = Observer(CONTENT, 8, settings=Settings(modules=("glory",)))
    assert "decision:interact" not in glory.plane_names()


@pytest.mark.parametrize("hero_hp", [3, 4, 6])
def test_hp_is_over_the_largest_hero_hp_of_any_content(hero_hp: int) -> None:
    """docs/research.md: HP ÷ the largest Hero HP — also for a ruleset whose Heroes all
    have fewer HP than the package's (a full Hero reads 1)."""
    content = patched_content({"factions": {f.id: {"hero_hp": hero_hp}
                                            for f in CONTENT.factions}}, "hp.toml")
    state = (Builder(content).hero(KEY, "b2").hero(SKULL, "g7", hp=hero_hp - 1)
             .minion(KEY, "c3").build())
    observer = Observer(content, 8)
    hp = observer.named(observer.encode(state, KEY))["hp"]
    assert hp[1, 1] == pytest.approx(1.0)
    assert hp[6, 6] == pytest.approx((hero_hp - 1) / hero_hp)
    assert hp[2, 2] == pytest.approx(1 / hero_hp)


@pytest.mark.parametrize("layout", ["channels_first", "channels_last"])
def test_named_and_encode_refuse_what_is_not_theirs(layout: str) -> None:
    observer = Observer(CONTENT, 8, layout=layout)
    state = Builder(CONTENT).hero(KEY, "d1").hero(SKULL, "e8").build()
    planes = len(observer.plane_names())
    wrong = (8, 8, planes) if layout == "channels_first" else (planes, 8, 8)
    with pytest.raises(ValueError, match="an observation of shape"):
        observer.named(np.zeros(wrong, np.float32))
    with pytest.raises(ValueError, match="out has shape"):
        observer.encode(state, KEY, out=np.zeros(wrong, np.float32))
    out = np.full(observer.shape, 7.0, np.float32)
    assert observer.encode(state, SKULL, out=out) is out
    np.testing.assert_array_equal(out, observer.encode(state, SKULL))
    named = observer.named(out)
    assert list(named) == list(observer.plane_names())
    assert named["own_back_row"][0].all() and not named["own_back_row"][1:].any()
    other_side = Builder(CONTENT, 10).hero(KEY, "d1").hero(SKULL, "e10").build()
    with pytest.raises(ValueError, match="side-10 board"):
        observer.encode(other_side, KEY)
    with pytest.raises(ValueError, match="layout must be one of"):
        Observer(CONTENT, 8, layout="channels_middle")


def _corners() -> list[tuple[State, str]]:
    """Relics on the corner squares (a1 is square 0, h8 the last), lying or carried,
    before and after each side's first turn: the edges of "a relic is placed"."""
    found: list[tuple[State, str]] = []
    for key_relic, skull_relic in (("a1", "h8"), ("h8", "a1"), ("a1", "g8"), ("b1", "a1")):
        for turns in ([0, 0], [1, 0], [0, 1], [2, 2]):
            state = (Builder(CONTENT).hero(KEY, "d1").hero(SKULL, "e8")
                     .relic(KEY, key_relic).relic(SKULL, skull_relic)
                     .set(turns_taken=turns).build())
            found.append((state, f"relics {key_relic} {skull_relic}, turns {turns}"))
    for carrier, relic_owner in (("a1", SKULL), ("h8", KEY)):
        owner = KEY if relic_owner == SKULL else SKULL
        builder = Builder(CONTENT).hero(KEY, "d1").hero(SKULL, "e8").minion(owner, carrier)
        builder = builder.carry(relic_owner, carrier)
        builder = builder.relic(owner, "c1" if owner == KEY else "f8")
        found.append((builder.set(turns_taken=[1, 1]).build(), f"carried on {carrier}"))
    return found


def test_relics_on_the_corner_squares_are_placed() -> None:
    """A relic on square 0 (a1) or the last square is on the board like any other: its
    plane there, and the first-turn planes (which wait until both relics are placed)."""
    observer = Observer(CONTENT, 8)
    names = observer.plane_names()
    for state, what in _corners():
        for player in (KEY, SKULL):
            expected = expected_planes(state, player, observer)
            got = observer.named(observer.encode(state, player))
            wrong = [n for n in names if not np.allclose(got[n], expected[n])]
            assert not wrong, (what, player, wrong)
            own = state.relic_square(player)
            seen = own if player == KEY else 63 - own
            assert got["own_relic"][seen // 8, seen % 8] == 1.0, (what, player)
            first = float(state.turns_taken[player] == 0)
            assert got["own_first_turn"][0, 0] == first, (what, player)
