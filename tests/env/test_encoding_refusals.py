"""Sample H's environment survivors (issue 31, docs/testing.md): a condition's plane by
its value whatever turn it was gained in; an INTERACT play refused where the space has
no INTERACT range; a step that is not to an adjacent square refused; the action mask's
space bounded by 0 and 1. Sample J's: a step action off the board refused in decoding."""

from __future__ import annotations

import numpy as np
import pytest

from reliquary.engine import Builder, Content, Play, Settings, Step
from reliquary.engine.types import INTERACT
from reliquary.env.encoding import ActionSpace, Observer

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")

from reliquary.env import ReliquaryGymEnv, raw_env


@pytest.mark.parametrize("stamp", [0, 1, 5])
def test_a_condition_plane_reads_its_value_whatever_turn_it_was_gained_in(
        content: Content, stamp: int) -> None:
    # docs/research.md: the piece's value / 3 for valued conditions, 1 for the others;
    # the turn a condition was gained in (its stamp) plays no part.
    settings = Settings(size=8, modules=("conditions",))
    s = (Builder(content, 8, modules=("conditions",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").minion(1, "f6").build())
    rules = s._rules.conditions
    c3, f6 = s.geometry.parse("c3"), s.geometry.parse("f6")
    s.pieces[s.board[c3]].set_condition(rules["burning"], True, 2, stamp)
    s.pieces[s.board[f6]].set_condition(rules["fast"], True, 0, stamp)
    observer = Observer(content, 8, settings=settings)
    planes = observer.named(observer.encode(s, 0))
    assert planes["condition:burning"].flat[c3] == pytest.approx(2 / 3)
    assert planes["condition:burning"].sum() == pytest.approx(2 / 3)
    assert planes["condition:fast"].flat[f6] == 1.0
    assert planes["condition:fast"].sum() == 1.0


@pytest.mark.parametrize("modules", [(), ("glory",)])
def test_an_interact_play_is_refused_where_the_space_has_no_interact_range(
        content: Content, modules: tuple[str, ...]) -> None:
    # The base game and Glory offer no INTERACT (docs/research.md): their space has no
    # INTERACT range, so such a play is no action (under Glory it would otherwise land
    # on one of the module's named actions).
    space = ActionSpace(content, 8, Settings(modules=modules))
    assert space.interact_start == space.name_start
    for card in space.cards:
        with pytest.raises(ValueError, match="is not a play of this content's cards"):
            space.encode(Play(card, INTERACT), 0)


def test_an_interact_play_has_its_own_action_with_conditions(content: Content) -> None:
    space = ActionSpace(content, 8, Settings(modules=("conditions",)))
    for i, card in enumerate(space.cards):
        for player in (0, 1):
            assert space.encode(Play(card, INTERACT), player) == space.interact_start + i


@pytest.mark.parametrize("frm, to", [
    (0, 2),      # two files over
    (0, 16),     # two ranks up
    (9, 9),      # no step at all
    (63, 64),    # off the board
    (-1, 0),     # from off the board
    (64, 65),    # a step's shape, from past the last square
    (-2, -1),    # a step's shape, from before the first
])
def test_a_step_not_to_an_adjacent_square_is_refused(content: Content, frm: int,
                                                     to: int) -> None:
    space = ActionSpace(content, 8)
    for player in (0, 1):
        with pytest.raises(ValueError, match="is not a step to an adjacent square"):
            space.encode(Step(frm, to), player)


def test_a_step_to_each_adjacent_square_is_its_own_action(content: Content) -> None:
    space = ActionSpace(content, 8)
    start, stop = space.ranges()["step"]
    sq = 3 * 8 + 3  # d4: all eight neighbours on the board
    for player in (0, 1):
        seen = set()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    action = space.encode(Step(sq, sq + dy * 8 + dx), player)
                    assert start <= action < stop
                    assert space.decode(action, player) == Step(sq, sq + dy * 8 + dx)
                    seen.add(action)
        assert len(seen) == 8


def test_the_action_mask_space_is_bounded_by_0_and_1() -> None:
    # A mask is 0 or 1 per action (docs/research.md); a space allowing 2 misleads a
    # learner that reads its bounds.
    game = raw_env(settings={"round_cap": 20}, seed=3)
    gym = ReliquaryGymEnv(settings={"round_cap": 20})
    for space in (*(game.observation_space(a)["action_mask"] for a in game.possible_agents),
                  gym.observation_space["action_mask"]):
        assert space.dtype == np.int8
        assert (space.low == 0).all() and (space.high == 1).all()
        assert space.shape == (game.actions.size,)
    game.reset(seed=3)
    mask = game.last()[0]["action_mask"]
    assert game.observation_space(game.agent_selection)["action_mask"].contains(mask)


def test_a_step_action_off_the_board_is_refused_and_every_other_decodes_back(
        content: Content) -> None:
    # Each step action is a square (as the player sees it) and one of eight directions;
    # on an 8 x 8 board 420 of the 512 lead to an adjacent square and 92 off the board.
    space = ActionSpace(content, 8)
    start, stop = space.ranges()["step"]
    assert stop - start == 64 * 8
    for player in (0, 1):
        refused = 0
        for action in range(start, stop):
            try:
                step = space.decode(action, player)
            except ValueError as err:
                assert "is a step off the board" in str(err)
                refused += 1
                continue
            assert isinstance(step, Step)
            assert 0 <= step.frm < 64 and 0 <= step.to < 64
            assert max(abs(step.to % 8 - step.frm % 8), abs(step.to // 8 - step.frm // 8)) == 1
            assert space.encode(step, player) == action
        assert refused == 92


@pytest.mark.parametrize("value", [3, 4, 7])
def test_a_condition_plane_stays_at_1_from_a_value_of_3(content: Content, value: int) -> None:
    # Valued conditions add up (MODULES.md); the plane is the value / 3, capped at 1,
    # so that the observation stays within its space's bounds of 0 and 1.
    settings = Settings(size=8, modules=("conditions",))
    s = (Builder(content, 8, modules=("conditions",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").build())
    c3 = s.geometry.parse("c3")
    s.pieces[s.board[c3]].set_condition(s._rules.conditions["poison"], True, value, 0)
    observer = Observer(content, 8, settings=settings)
    obs = observer.encode(s, 0)
    assert observer.named(obs)["condition:poison"].flat[c3] == 1.0
    assert obs.max() <= 1.0
