"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, reproducible
seeded runs, rewards at the end, secret factions, and illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")

from pettingzoo.test import api_test, seed_test

from reliquary.env import env, raw_env
from reliquary.env.aec import ReliquaryAECEnv

# api_test's advice for other kinds of environment: agent names like "player_0", Box
# observations (ours are PettingZoo's usual dict of observation and action mask).
pytestmark = pytest.mark.filterwarnings(
    "ignore:We recommend agents:UserWarning",
    "ignore:Observation space for each agent:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


def test_pettingzoo_api_test_passes_wrapped_and_raw() -> None:
    api_test(env(settings={"round_cap": 15}, seed=1), num_cycles=400)
    api_test(raw_env(settings={"round_cap": 15, "size": 10}, seed=2, quick_setup=True),
             num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(settings={"round_cap": 12}), num_cycles=200)


def _run(game: Any, seed: int, action_seed: int) -> list[tuple[str, bytes, float, bool]]:
    """One whole game with seeded random legal actions: what each agent saw and got."""
    game.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    trace = []
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        trace.append((agent, obs["observation"].tobytes() + obs["action_mask"].tobytes(),
                      reward, terminated))
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return trace


def test_a_seeded_run_is_reproducible() -> None:
    first = _run(env(settings={"round_cap": 20}), seed=7, action_seed=1)
    again = _run(env(settings={"round_cap": 20}), seed=7, action_seed=1)
    assert first == again
    other = _run(env(settings={"round_cap": 20}), seed=8, action_seed=1)
    assert other != first  # another seed deals other cards


def test_rewards_at_the_end_match_the_result() -> None:
    game = raw_env(settings={"round_cap": 20}, quick_setup=True)
    for seed in range(3):
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {"key": 0.0, "skull": 0.0}
        steps = 0
        for agent in game.agent_iter():
            obs, reward, terminated, truncated, info = game.last()
            totals[agent] += reward
            if terminated or truncated:
                assert not obs["action_mask"].any()
                game.step(None)
                continue
            assert info["decision"] not in ("ruin", "faction", "rite", "deploy", "relic")
            # The mask is exactly the engine's legal options of the agent to act.
            player = game.possible_agents.index(agent)
            assert game.engine.current_player == player
            assert {game.actions.decode(a, player) for a in
                    np.flatnonzero(obs["action_mask"])} == set(game.engine.legal_options())
            steps += 1
            game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        winner = game.engine.winner
        expected = (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        assert (totals["key"], totals["skull"]) == expected
        assert steps > 0 and game.engine.result is not None


def test_the_faction_choice_is_secret_to_the_other_agent() -> None:
    game = raw_env(seed=3)
    game.reset(seed=3)
    names = game.observer.plane_names()
    while game.infos[game.agent_selection]["decision"] != "faction":
        obs = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert game.agent_selection == "key"
    game.step(game.actions.encode("bone-wardens", 0))
    assert game.agent_selection == "skull"
    skull_view = game.observe("skull")["observation"]
    assert not skull_view[[i for i, n in enumerate(names)
                                 if n.startswith("faction_enemy:")]].any()
    assert game.observe("key")["observation"][names.index("faction_own:bone-wardens"), 0, 0]


def test_illegal_actions_raise_in_the_raw_env_and_lose_in_the_wrapped_one() -> None:
    game = raw_env(seed=1)
    game.reset(seed=1)
    illegal = int(np.flatnonzero(game.observe("key")["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal for key's 'ruin' decision"):
        game.step(illegal)
    wrapped = env(seed=1)
    wrapped.reset(seed=1)
    wrapped.last()
    wrapped.step(illegal)  # PettingZoo logs "Illegal move made"
    assert wrapped.rewards["key"] == -1 and all(wrapped.terminations.values())


def test_bad_settings_and_render_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="vigil_start"):
        ReliquaryAECEnv(settings={"vigil_start": 0})
    with pytest.raises(ValueError, match="render_mode"):
        ReliquaryAECEnv(render_mode="rgb_array")
    text = ReliquaryAECEnv(render_mode="ansi")
    text.reset(seed=0)
    assert "to decide: ruin" in (text.render() or "")
