"""The AEC environment's documented contract, piece by piece (issue 31: faults in its
settings, its chance draws, its metadata and its defaults passed PettingZoo's own
tests and ours).

From :mod:`reliquary.env.aec`'s doc: settings are a ``Settings``, a dict of its fields
(checked: an unknown one is named; module options as ``"module.option"`` keys) or None;
anything else is refused. Chance outcomes are drawn with their probabilities. Agents
are ``"key"`` and ``"skull"``; the whole game is played, setup included, unless
``quick_setup``; ``render_mode`` is ``"ansi"``, ``"human"`` (prints the position after
every step) or None; rewards come at the end, +1/−1 or 0 each for a draw, with the
result's reason in the infos; only the agent to act has ones in its mask."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")

from reliquary import default_content
from reliquary.engine import SETUP_KINDS, Settings, State
from reliquary.env import env, raw_env
from reliquary.env.aec import ReliquaryAECEnv, make_settings, sample_outcome
from reliquary.env.encoding import ActionSpace, Observer

pytestmark = pytest.mark.filterwarnings("ignore:.*render:UserWarning")


def test_settings_from_a_settings_a_dict_or_none() -> None:
    assert make_settings(None) == Settings()
    given = Settings(size=10, round_cap=30)
    assert make_settings(given) is given
    assert make_settings({"size": 10, "round_cap": 30}) == given
    # A dict as records write it: modules as a list, module options as dotted keys.
    assert make_settings({"modules": ["glory"], "glory.phases": 1}) == Settings.from_dict(
        {"modules": ["glory"], "glory.phases": 1})
    assert make_settings({"modules": ["glory"]}).modules == ("glory",)
    with pytest.raises(ValueError, match="unknown setting 'sise'"):
        make_settings({"sise": 8})
    for wrong in ([("size", 8)], "size=8", 8):
        with pytest.raises(TypeError, match="settings must be a Settings, a dict or None"):
            make_settings(wrong)  # type: ignore[arg-type]


class _Chance:
    """A stand-in for a chance node: outcomes with weights that need not add up to 1."""

    def __init__(self, outcomes: list[tuple[Any, float]]) -> None:
        self.outcomes = outcomes

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return self.outcomes


def test_a_chance_outcome_is_drawn_with_its_probability() -> None:
    node = _Chance([("rare", 1.0), ("common", 3.0)])  # a quarter and three quarters
    rng = np.random.default_rng(0)
    draws = [sample_outcome(node, rng) for _ in range(4000)]  # type: ignore[arg-type]
    assert set(draws) == {"rare", "common"}
    assert 0.22 < draws.count("rare") / len(draws) < 0.28
    # The same seed draws the same outcomes: numpy's own draw with these probabilities.
    expected = np.random.default_rng(5).choice(2, size=50, p=[0.25, 0.75])
    rng = np.random.default_rng(5)
    assert [sample_outcome(node, rng) for _ in range(50)] == [  # type: ignore[arg-type]
        ("rare", "common")[i] for i in expected]
    certain = _Chance([("a", 0.0), ("b", 2.0), ("c", 0.0)])
    assert {sample_outcome(certain, rng) for _ in range(50)} == {"b"}  # type: ignore[arg-type]


def test_the_metadata_and_the_defaults() -> None:
    assert ReliquaryAECEnv.metadata == {"render_modes": ["ansi", "human"],
                                        "name": "reliquary_v0", "is_parallelizable": False,
                                        "render_fps": 1}
    game = ReliquaryAECEnv()
    assert game.settings == Settings() and game.content is default_content()
    assert not game.quick_setup and game.render_mode is None
    assert game.possible_agents == ["key", "skull"] and game.agents == ["key", "skull"]
    assert game.observer.layout == "channels_first"
    assert game.observer.plane_names() == Observer(game.content, 8).plane_names()
    assert game.actions.size == ActionSpace(game.content, 8).size
    for agent in game.possible_agents:
        space = game.observation_space(agent)
        assert space["observation"].shape == game.observer.shape
        assert space["action_mask"].shape == (game.actions.size,)
        assert game.action_space(agent).n == game.actions.size
    game.reset(seed=0)
    assert game.infos == {"key": {"decision": "ruin"}, "skull": {"decision": "ruin"}}
    assert game.engine.stack[-1][0] in SETUP_KINDS  # the whole game: setup included


def test_reset_starts_every_agent_afresh() -> None:
    game = raw_env(settings={"round_cap": 10}, seed=1, quick_setup=True)
    game.reset(seed=1)
    _play_out(game)
    game.reset()
    assert game.agents == ["key", "skull"]
    assert game.rewards == game._cumulative_rewards == {"key": 0.0, "skull": 0.0}
    assert game.terminations == game.truncations == {"key": False, "skull": False}
    kind = game.engine.decision().kind
    assert game.infos == {"key": {"decision": kind}, "skull": {"decision": kind}}
    assert game.agent_selection == game.possible_agents[game.engine.current_player]
    assert kind not in SETUP_KINDS  # quick setup: the agents play only the turns


def _play_out(game: ReliquaryAECEnv, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    while not game.engine.is_terminal:
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))


def test_a_finished_game_rewards_and_reports_its_result() -> None:
    outcomes = set()
    for seed in range(8):
        game = raw_env(settings={"round_cap": 6 if seed % 2 else 30}, seed=seed,
                       quick_setup=True)
        game.reset(seed=seed)
        _play_out(game, seed)
        s = game.engine
        winner = s.winner
        want = ({"key": 0.0, "skull": 0.0} if winner is None else
                {"key": 1.0 if winner == 0 else -1.0, "skull": 1.0 if winner == 1 else -1.0})
        assert game.rewards == want
        assert game.infos == {a: {"result": s.result.reason} for a in ("key", "skull")}
        assert game.terminations == {"key": True, "skull": True}
        assert game.truncations == {"key": False, "skull": False}
        assert game.agent_selection == "key"  # then each agent is stepped with None
        for agent in ("key", "skull"):
            assert not game.observe(agent)["action_mask"].any()
        game.step(None)  # each agent leaves, the one that did not act first
        game.step(None)
        assert game.agents == []
        outcomes.add(winner)
    assert None in outcomes and outcomes & {0, 1}


def test_only_the_agent_to_act_has_a_mask_and_steps() -> None:
    game = raw_env(settings={"round_cap": 10}, seed=2)
    game.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        agent = game.agent_selection
        other = "skull" if agent == "key" else "key"
        player = game.possible_agents.index(agent)
        seen = game.observe(agent)
        np.testing.assert_array_equal(seen["action_mask"], game.actions.mask(game.engine))
        np.testing.assert_array_equal(seen["observation"],
                                      game.observer.encode(game.engine, player))
        assert not game.observe(other)["action_mask"].any()
        with pytest.raises(ValueError, match="must take an action"):
            game.step(None)
        game.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))


def test_human_rendering_prints_the_position_after_every_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(seed=0, render_mode="human")
    game.reset(seed=0)
    capsys.readouterr()
    for _ in range(3):
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(np.flatnonzero(mask)[0]))
        assert "to decide:" in capsys.readouterr().out
    quiet = raw_env(seed=0, render_mode="ansi")
    quiet.reset(seed=0)
    capsys.readouterr()
    quiet.step(int(np.flatnonzero(quiet.observe("key")["action_mask"])[0]))
    assert capsys.readouterr().out == ""


def test_the_wrapped_environment_costs_an_illegal_action_one_point() -> None:
    wrapped = env(seed=1)
    wrapped.reset(seed=1)
    obs, *_ = wrapped.last()
    wrapped.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert wrapped.rewards == {"key": -1, "skull": 0}


def test_quick_setup_is_seeded() -> None:
    def setup(seed: int) -> State:
        game = raw_env(seed=seed, quick_setup=True)
        game.reset(seed=seed)
        return game.engine

    first, again = setup(4), setup(4)
    assert first.pieces.keys() == again.pieces.keys()
    assert [(p.sq, p.owner, p.hero) for p in first.pieces.values()] == [
        (p.sq, p.owner, p.hero) for p in again.pieces.values()]
    assert first.factions == again.factions and first.ruins == again.ruins


def test_reset_with_a_seed_reseeds_and_without_one_continues() -> None:
    def dealt(game: ReliquaryAECEnv) -> tuple[Any, ...]:
        s = game.engine
        return (tuple((p.sq, p.owner, p.hero) for p in s.pieces.values()), s.factions,
                s.ruins, tuple(map(tuple, s.hands)), s.first)

    games = [raw_env(seed=seed, quick_setup=True) for seed in (1, 2)]
    for game in games:
        game.reset(seed=9)
    assert dealt(games[0]) == dealt(games[1])  # the constructor's seed no longer counts
    fresh = raw_env(seed=9, quick_setup=True)
    fresh.reset()
    assert dealt(fresh) == dealt(games[0])
    again = [dealt(g) for g in games for _ in [g.reset()]]
    assert again[0] == again[1] != dealt(fresh)  # the same stream, continued
