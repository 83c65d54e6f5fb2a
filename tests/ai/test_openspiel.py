"""Reliquary as an OpenSpiel game: the game type, and OpenSpiel's own MCTSBot on it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")

from open_spiel.python.algorithms import mcts  # noqa: E402

from reliquary.ai import openspiel_game  # noqa: E402
from reliquary.engine import Play, Step  # noqa: E402


def test_game_type_is_sequential_stochastic_perfect_information_zero_sum() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"size": 8})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2


def test_actions_encode_and_decode_every_kind_of_option() -> None:
    for size in (8, 12):
        actions = openspiel_game._actions(size)
        for option in (0, size * size - 1, Step(size + 1, 2 * size + 2), Step(size + 1, 0),
                       Play("Bolt", "attack"), Play("Pilgrim", "pass"), "pass",
                       "pyre-choir", "hollow-kin", "Harrow"):
            code = actions.encode(option)
            assert 0 <= code < actions.count
            assert actions.decode(code) == option


def test_factions_are_public_chance_then_players_choose_everything_else() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME)
    state = game.new_initial_state()
    while not state.is_chance_node():  # Ruins: the players
        assert state.current_player() in (0, 1)
        state.apply_action(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 72 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(outcomes[5][0])
    engine = state.engine
    assert engine.factions[0] != engine.factions[1] and None not in engine.factions


def test_random_play_reaches_the_end_with_legal_actions() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"size": 10, "round_cap": 30})
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            legal = state.legal_actions()
            assert legal == sorted(set(legal))
            action = rng.choice(legal)
            assert state.action_to_string(state.current_player(), action)
            state.apply_action(action)
    assert sum(state.returns()) == 0.0
    assert state.returns()[0] in (-1.0, 0.0, 1.0)


def test_openspiel_mcts_bot_plays_a_game_to_the_end() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME,
                             {"round_cap": 8, "key_faction": "pyre-choir",
                              "skull_faction": "storm-sworn"})
    rng = np.random.RandomState(7)
    bots = [mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for _ in range(2)]
    state = game.new_initial_state()
    clone = state.clone()
    assert clone.engine is not state.engine and str(clone) == str(state)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.engine.factions == ["pyre-choir", "storm-sworn"]
    assert state.engine.result is not None
