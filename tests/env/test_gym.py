"""The Gymnasium single-agent wrapper: Gymnasium's own environment checker, opponents
from the registry, reproducible seeded episodes, rewards and illegal actions."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the 'env' extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from reliquary.env import ReliquaryGymEnv  # noqa: E402
from reliquary.env.single_agent import GYM_ID  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*render:UserWarning")


@pytest.mark.parametrize("opponent, budget, side, quick", [
    ("greedy", {}, "key", False),
    ("search", {"nodes": 200}, "skull", True),
    ("easy", {}, "random", True),
])
def test_gymnasium_check_env_passes(opponent: str, budget: dict[str, int], side: str,
                                    quick: bool) -> None:
    check_env(ReliquaryGymEnv(opponent=opponent, opponent_budget=budget, side=side,
                              quick_setup=quick, settings={"round_cap": 20}))


def _episode(game: ReliquaryGymEnv, seed: int) -> tuple[list[bytes], float, str]:
    obs, info = game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [obs["observation"].tobytes()]
    reward, done = 0.0, False
    while not done:
        assert (obs["action_mask"] == game.action_masks()).all()
        assert (info["action_mask"] == obs["action_mask"]).all()
        obs, reward, done, truncated, info = game.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        seen.append(obs["observation"].tobytes())
    return seen, reward, info["result"]


def test_seeded_episodes_are_reproducible_and_rewarded_at_the_end() -> None:
    game = ReliquaryGymEnv(opponent="search", opponent_budget={"nodes": 150},
                           side="random", quick_setup=True, settings={"round_cap": 15})
    first = _episode(game, 4)
    assert _episode(game, 4) == first
    rewards = {_episode(game, seed)[1] for seed in range(4)}
    assert rewards <= {-1.0, 0.0, 1.0}
    engine = game.engine
    assert engine.result is not None
    expected = 0.0 if engine.winner is None else (1.0 if engine.winner == game.player else -1.0)
    assert _episode(game, 3)[1] == expected


def test_the_opponent_moves_inside_step_so_the_learner_always_decides() -> None:
    game = ReliquaryGymEnv(opponent="random", side="skull", settings={"round_cap": 10})
    obs, _ = game.reset(seed=2)
    for _ in range(40):
        assert game.engine.current_player == 1
        obs, _, done, _, _ = game.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if done:
            break


def test_illegal_actions_lose_or_raise() -> None:
    game = ReliquaryGymEnv(opponent="random", settings={"round_cap": 10})
    obs, _ = game.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, _, info = game.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="call reset"):
        game.step(0)
    strict = ReliquaryGymEnv(opponent="random", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not legal for the 'ruin' decision"):
        strict.step(illegal)


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown agent 'grandmaster'"):
        ReliquaryGymEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="side must be"):
        ReliquaryGymEnv(side="both")
    with pytest.raises(ValueError, match="unknown reset options"):
        ReliquaryGymEnv().reset(options={"colour": "red"})


def test_registered_with_gymnasium_make() -> None:
    game = gymnasium.make(GYM_ID, opponent="random", settings={"round_cap": 10})
    obs, info = game.reset(seed=1, options={"side": "skull"})
    assert info["side"] == "skull" and obs["observation"].shape[1:] == (8, 8)


def test_render_modes_draw_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = ReliquaryGymEnv(opponent="random")
    quiet.reset(seed=1)
    assert quiet.render() is None
    ansi = ReliquaryGymEnv(opponent="random", render_mode="ansi")
    ansi.reset(seed=1)
    assert "to decide:" in (ansi.render() or "")
    human = ReliquaryGymEnv(opponent="random", render_mode="human")
    human.reset(seed=1)
    capsys.readouterr()
    assert human.render() is None and "to decide:" in capsys.readouterr().out
