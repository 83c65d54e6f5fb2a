"""Observations channels first with named planes, the older channels-last layout behind
an option, in the encoding, the environments and the OpenSpiel game (issue 29)."""

from __future__ import annotations

import numpy as np
import pytest

import reliquary
from reliquary.env.encoding import Observer


def test_channels_first_by_default_and_channels_last_on_request() -> None:
    state = reliquary.new_game()
    first = Observer(state.content, 8)
    last = Observer(state.content, 8, layout="channels_last")
    count = len(first.plane_names())
    assert first.shape == (count, 8, 8) and last.shape == (8, 8, count)
    for player in (0, 1):
        a, b = first.encode(state, player), last.encode(state, player)
        np.testing.assert_array_equal(a, b.transpose(2, 0, 1))
        named_a, named_b = first.named(a), last.named(b)
        assert list(named_a) == list(first.plane_names())
        for name in ("own_back_row", "ruin", "to_move"):
            np.testing.assert_array_equal(named_a[name], named_b[name])
    out = np.full(first.shape, 7.0, np.float32)
    assert first.encode(state, 0, out=out) is out and out.max() <= 1.0
    with pytest.raises(ValueError, match="out has shape"):
        first.encode(state, 0, out=np.zeros(last.shape, np.float32))
    with pytest.raises(ValueError, match="layout must be one of channels_first, channels_last"):
        Observer(state.content, 8, layout="nhwc")


def test_environments_take_the_layout() -> None:
    pytest.importorskip("pettingzoo")
    from reliquary.env import PolicyAgent, ReliquaryGymEnv, raw_env

    for layout, shape_of in (("channels_first", lambda n: (n, 8, 8)),
                             ("channels_last", lambda n: (8, 8, n))):
        game = raw_env(seed=1, layout=layout)
        game.reset(seed=1)
        obs = game.observe("key")
        assert obs["observation"].shape == shape_of(len(game.observer.plane_names()))
        assert game.observation_space("key")["observation"].shape == obs["observation"].shape
        gym = ReliquaryGymEnv(opponent="random", layout=layout)
        obs, _ = gym.reset(seed=1)
        assert obs["observation"].shape == gym.observation_space["observation"].shape
        seen = _shapes_seen_by_a_policy(layout)
        assert seen == [obs["observation"].shape]
    with pytest.raises(ValueError, match="layout"):
        PolicyAgent(lambda o, m: 0, layout="nchw")


def _shapes_seen_by_a_policy(layout: str) -> list[tuple[int, ...]]:
    from reliquary.env import PolicyAgent

    seen: list[tuple[int, ...]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    PolicyAgent(policy, layout=layout).choose(reliquary.new_game())
    return seen


def test_openspiel_is_channels_first_with_named_planes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from reliquary.env import openspiel

    game = pyspiel.load_game(openspiel.SHORT_NAME, {"round_cap": 5})
    names = Observer(openspiel._CONTENT, 8).plane_names()
    assert game.observation_tensor_shape() == [len(names), 8, 8]
    last = pyspiel.load_game(openspiel.SHORT_NAME, {"layout": "channels_last"})
    assert last.observation_tensor_shape() == [8, 8, len(names)]
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    named = make_observation(game, params={"planes": "named"})
    named.set_from(state, 0)
    assert list(named.dict) == list(names)
    assert named.dict["own_back_row"].shape == (8, 8) and named.dict["own_back_row"][0].all()
    whole = make_observation(game)
    whole.set_from(state, 0)
    np.testing.assert_array_equal(whole.tensor, named.tensor)
    np.testing.assert_array_equal(np.asarray(state.observation_tensor(0)), whole.tensor)
    with pytest.raises(ValueError, match="planes"):
        make_observation(game, params={"planes": "some"})
