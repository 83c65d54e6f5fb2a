"""The shared encoding: the fixed action space agrees with the engine's legal options at
every decision of random games (every kind of option, both ways), and the observation
planes say what they claim from each player's point of view."""

from __future__ import annotations

import random

import numpy as np
import pytest

import reliquary
from reliquary.ai import sample_chance
from reliquary.engine import PASS, Play, State, Step
from reliquary.env.encoding import ActionSpace, Observer


def _kind_of(option: object) -> str:
    if option == PASS:
        return "pass"
    if isinstance(option, Play):
        return "play"
    if isinstance(option, Step):
        return "step"
    if isinstance(option, str):
        return "id"
    return "square"


@pytest.mark.parametrize("size, seed", [(8, 1), (8, 2), (10, 3), (12, 4)])
def test_mask_and_legal_options_agree_at_every_decision(size: int, seed: int) -> None:
    rng = random.Random(seed)
    state = reliquary.new_game(size=size, round_cap=25)
    space = ActionSpace(state.content, size)
    observer = Observer(state.content, size)
    kinds_seen: set[str] = set()
    decisions = 0
    while not state.is_terminal:
        if state.is_chance:
            assert space.legal_actions(state) == []
            state.apply(sample_chance(state, rng))
            continue
        player = state.current_player
        options = state.legal_options()
        mask = space.mask(state)
        actions = np.flatnonzero(mask).tolist()
        # One action per option, each decoding to its option and back.
        assert len(actions) == len(options)
        assert {space.decode(a, player) for a in actions} == set(options)
        for option in options:
            assert mask[space.encode(option, player)] == 1
            assert space.decode(space.encode(option, player), player) == option
            kinds_seen.add(_kind_of(option))
        for who in (0, 1):
            planes = observer.encode(state, who)
            assert planes.shape == observer.shape and planes.dtype == np.float32
            assert planes.min() >= 0.0 and planes.max() <= 1.0
        decisions += 1
        state.apply(space.decode(rng.choice(actions), player))
    assert decisions > 40
    assert kinds_seen >= {"square", "play", "id"}


def test_every_kind_of_option_is_covered_over_many_random_games() -> None:
    """Steps (Escort) and pass come up only in some games: play until both have."""
    rng = random.Random(11)
    kinds_seen: set[str] = set()
    for _ in range(30):
        state = reliquary.new_game(round_cap=20)
        space = ActionSpace(state.content, 8)
        while not state.is_terminal:
            if state.is_chance:
                state.apply(sample_chance(state, rng))
                continue
            player = state.current_player
            for option in state.legal_options():
                kinds_seen.add(_kind_of(option))
                assert space.decode(space.encode(option, player), player) == option
            state.apply(rng.choice(state.legal_options()))
        if kinds_seen == {"square", "step", "play", "pass", "id"}:
            break
    assert kinds_seen == {"square", "step", "play", "pass", "id"}


def test_actions_are_relative_to_the_player_who_acts() -> None:
    space = ActionSpace(reliquary.default_content(), 8)
    # Each player's back-row corner on the left is square action 0 for that player.
    assert space.encode(0, 0) == 0 and space.encode(63, 1) == 0
    # A step "forward" (towards the opponent) is the same action for both players.
    assert space.encode(Step(9, 17), 0) == space.encode(Step(54, 46), 1)
    assert space.decode(space.encode(Step(9, 17), 0), 1) == Step(54, 46)


def test_actions_out_of_range_or_off_the_board_are_refused_clearly() -> None:
    space = ActionSpace(reliquary.default_content(), 8)
    with pytest.raises(ValueError, match="outside the action space"):
        space.decode(space.size, 0)
    with pytest.raises(ValueError, match="off the board"):
        space.decode(space.step_start + 4, 0)  # west from a1
    with pytest.raises(ValueError, match="neither a faction nor a rite"):
        space.encode("no-such-faction", 0)
    with pytest.raises(ValueError, match="chance outcomes have no action"):
        space.encode(64, 0)


def _play_setup(state: State, rng: random.Random) -> None:
    while not state.is_terminal and (state.is_chance or state.decision().kind != "play"):
        state.apply(sample_chance(state, rng) if state.is_chance
                    else rng.choice(state.legal_options()))


def test_planes_show_each_side_from_its_own_point_of_view() -> None:
    rng = random.Random(3)
    state = reliquary.new_game()
    _play_setup(state, rng)
    observer = Observer(state.content, 8)
    names = observer.plane_names()
    key, skull = observer.encode(state, 0), observer.encode(state, 1)
    # The board is turned for Skull: what Key calls its own Minions, Skull calls the enemy's.
    own, enemy = names.index("own_minion"), names.index("enemy_minion")
    np.testing.assert_array_equal(key[own], skull[enemy][::-1, ::-1])
    back = names.index("own_back_row")
    assert key[back, 0, :].all() and skull[back, 0, :].all() and not key[back, 7, :].any()
    # Both own relics lie in their owner's half, seen from their owner at the bottom.
    relic = names.index("own_relic")
    assert np.argwhere(key[relic])[0][0] < 4 and np.argwhere(skull[relic])[0][0] < 4
    # Hands: Key's own hand is Skull's enemy hand.
    for card in state.hands[0]:
        assert key[names.index("hand_own:" + card), 0, 0] == 1.0
        assert skull[names.index("hand_enemy:" + card), 0, 0] == 1.0
    mover = 0 if state.current_player == 0 else 1
    assert (key, skull)[mover][names.index("to_move"), 0, 0] == 1.0
    assert (key, skull)[1 - mover][names.index("to_move"), 0, 0] == 0.0
    assert key[names.index("decision:play"), 0, 0] == 1.0
    assert key[names.index("vigil"), 0, 0] == pytest.approx(state.vigil / 6)


def test_the_secret_faction_choice_is_hidden_from_the_opponent() -> None:
    rng = random.Random(5)
    state = reliquary.new_game()
    while state.decision().kind != "faction":
        state.apply(rng.choice(state.legal_options()))
    state.apply("storm-sworn")  # Key's secret choice (S3)
    assert state.decision().player == 1
    observer = Observer(state.content, 8)
    names = observer.plane_names()
    enemy_planes = [i for i, n in enumerate(names) if n.startswith("faction_enemy:")]
    assert not observer.encode(state, 1)[enemy_planes].any()
    assert observer.encode(state, 0)[names.index("faction_own:storm-sworn"), 0, 0] == 1.0
    state.apply("grave-tide")  # both revealed together
    assert observer.encode(state, 1)[names.index("faction_enemy:storm-sworn"), 0, 0] == 1.0
