"""Reliquary as an OpenSpiel game: the game type, OpenSpiel's own game checks
(random simulation with serialization round trips, observation and information-state
tensors), and OpenSpiel's own MCTSBot on it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from reliquary.engine import Play, Step  # noqa: E402
from reliquary.env import openspiel as openspiel_game  # noqa: E402
from reliquary.env.encoding import Observer  # noqa: E402


def test_game_type_is_sequential_stochastic_perfect_information_zero_sum() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"size": 8})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2


def test_actions_encode_and_decode_every_kind_of_option_for_both_players() -> None:
    for size in (8, 12):
        actions = openspiel_game.action_space(size)
        for option in (0, size * size - 1, Step(size + 1, 2 * size + 2), Step(size + 1, 0),
                       Play("Bolt", "attack"), Play("Pilgrim", "pass"), "pass",
                       "pyre-choir", "hollow-kin", "Harrow"):
            codes = [actions.encode(option, player) for player in (0, 1)]
            for player, code in enumerate(codes):
                assert 0 <= code < actions.size
                assert actions.decode(code, player) == option
            if isinstance(option, int | Step):  # squares are seen from each player's side
                assert codes[0] != codes[1]


def test_openspiel_random_simulation_checks_pass_with_serialization() -> None:
    """OpenSpiel's own C++ game checks: legal actions sorted and unique strings, clones,
    serialize/deserialize round trips, observation and information-state tensors of the
    declared sizes, returns summing to zero, game length within the maximum."""
    for params, sims in (({"round_cap": 30}, 4),
                         ({"round_cap": 15, "size": 11, "regroup_limit": 1, "vigil_start": 3,
                           "killed_minions": "removed", "key_faction": "grave-tide",
                           "skull_faction": "lantern-bearers"}, 2)):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, params)
        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_observation_tensors_are_the_environments_planes() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"round_cap": 5})
    assert game.observation_tensor_shape() == [len(Observer(
        openspiel_game._CONTENT, 8).plane_names()), 8, 8]  # channels first, like chess
    assert game.information_state_tensor_size() == game.observation_tensor_size()
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    observation = make_observation(game)
    info_state = make_observation(game, INFO_STATE_OBS_TYPE)
    for _ in range(80):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        for player in (0, 1):
            expected = Observer(openspiel_game._CONTENT, 8).encode(state.engine, player)
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(player)).reshape(expected.shape), expected)
            observation.set_from(state, player)
            np.testing.assert_array_equal(observation.dict["observation"], expected)
            info_state.set_from(state, player)
            np.testing.assert_array_equal(info_state.tensor, observation.tensor)
        # Perfect recall: the information-state string is the history.
        assert state.information_state_string(0) == " ".join(map(str, state.history()))
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_states_serialize_and_pickle_mid_game() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"round_cap": 10, "size": 9})
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    while len(state.history()) < 50 or state.is_chance_node():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.is_terminal() and state.engine.decision().kind not in ("ruin", "deploy")
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.legal_actions() == state.legal_actions()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert state.option_of(state.action_of(state.engine.legal_options()[0])) == \
        state.engine.legal_options()[0]


def test_bad_parameters_are_refused_with_the_setting_named() -> None:
    with pytest.raises(ValueError, match="vigil_start"):
        openspiel_game.ReliquaryGame({"vigil_start": 9})
    with pytest.raises(ValueError, match="size"):
        openspiel_game.ReliquaryGame({"size": 14})


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
