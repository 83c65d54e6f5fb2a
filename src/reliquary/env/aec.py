"""Reliquary as a PettingZoo AEC environment (the optional ``env`` extra).

>>> from reliquary.env import env
>>> game = env(settings={"round_cap": 20}, seed=3)
>>> game.reset(seed=3)
>>> game.agent_selection
'key'
>>> obs, reward, terminated, truncated, info = game.last()
>>> obs["observation"].shape == (len(game.observer.plane_names()), 8, 8)
True
>>> int(obs["action_mask"].sum()) > 0, info["decision"]
(True, 'ruin')

Agents are ``"key"`` and ``"skull"``. Every decision is one step of the agent that
takes it — a turn is several (play, piece, destination, Escort step …), so the same
agent often acts several times in a row, and a Grave Tide return (D11) is asked of
the other player mid-turn. The whole game is played, setup included (Ruins, the
secret faction choice, rites, deployment, relics); with ``quick_setup=True`` the
setup choices are made for both players by the AI's seeded setup heuristics
(:func:`reliquary.ai.planning.setup_choice`) and the agents play only the turns.

Chance (the deal, the die) is resolved by the environment from its seed: ``reset(seed)``
re-seeds it, a later ``reset()`` without a seed continues the same random stream, so
a seeded run is reproducible.

Observations are dicts, as PettingZoo's classic games give them: ``observation``,
float32 planes of shape ``(planes, n, n)`` (channels first, like OpenSpiel; each plane
named by ``observer.plane_names()``; ``layout="channels_last"`` gives the older
``(n, n, planes)``) from the observing agent's point of view, and ``action_mask``,
int8 over the fixed action space (only the agent to act has ones). See
:mod:`reliquary.env.encoding`.
Rewards come at the end: +1 to the winner, −1 to the loser, 0 each for a draw (the
round cap, D19, is a rule of the game and ends it as a draw: a termination, not a
truncation).

:func:`raw_env` raises :class:`ValueError` for an illegal action; :func:`env` adds
PettingZoo's usual wrappers, under which an illegal action ends the game with −1 for
the agent that took it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import default_content
from ..engine import SETUP_KINDS, SIDES, Content, Settings, State, format_option
from ..text import render_text
from .encoding import ActionSpace, Observer


def make_settings(settings: Settings | dict[str, Any] | None) -> Settings:
    """Settings from a :class:`Settings`, a dict of its fields (checked) or None."""
    if settings is None:
        return Settings()
    if isinstance(settings, Settings):
        return settings
    if isinstance(settings, dict):
        return Settings.from_dict(settings)  # checked: an unknown key is named
    raise TypeError(f"settings must be a Settings, a dict or None, not {type(settings).__name__}")


def sample_outcome(state: State, rng: np.random.Generator) -> Any:
    """A chance outcome of ``state`` drawn with its probabilities from ``rng``."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    return outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]


class ReliquaryAECEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see the module doc).

    ``settings``: a :class:`~reliquary.engine.Settings` or a dict of its fields
    (``size``, ``round_cap`` …); ``seed``: the chance seed used until ``reset`` gets
    one; ``quick_setup``: setup made for both players; ``render_mode``: ``"ansi"``
    (``render()`` returns the position as text) or ``"human"`` (prints it);
    ``layout``: ``"channels_first"`` (default) or ``"channels_last"`` observations.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "reliquary_v0", "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, settings: Settings | dict[str, Any] | None = None,
                 seed: int | None = None, quick_setup: bool = False,
                 render_mode: str | None = None, content: Content | None = None,
                 layout: str = "channels_first") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, not {render_mode!r}")
        self.settings = make_settings(settings)
        self.content = content or default_content()
        self.quick_setup = quick_setup
        self.render_mode = render_mode
        size = self.settings.size
        self.actions = ActionSpace(self.content, size, self.settings)
        self.observer = Observer(self.content, size, layout, self.settings)
        self.possible_agents = list(SIDES)
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.observer.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self._observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self._action_spaces = {a: spaces.Discrete(self.actions.size)
                               for a in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self._setup_rng = random.Random(seed)
        #: The engine state of the game in progress.
        self.engine = State(self.content, self.settings)

    # -- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the game ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` re-seeds chance and the quick setup (``options``: unused)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._setup_rng = random.Random(seed)
        self.engine = State(self.content, self.settings)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Resolve chance (and setup, with ``quick_setup``) up to the next agent's decision."""
        s = self.engine
        while not s.is_terminal:
            if s.is_chance:
                s.apply(sample_outcome(s, self._rng))
            elif self.quick_setup and s.stack[-1][0] in SETUP_KINDS:
                from ..ai.planning import setup_choice
                s.apply(setup_choice(s, self._setup_rng))
            else:
                break
        if s.is_terminal:
            winner = s.winner
            for i, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 0.0 if winner is None else (1.0 if winner == i else -1.0)
                self.infos[agent] = {"result": s.result.reason if s.result else None}
            self.terminations = dict.fromkeys(self.agents, True)
            # Each agent is then stepped with None to leave; start with the one that did not act.
            self.agent_selection = self.agents[0]
        else:
            decision = s.decision()
            self.agent_selection = self.possible_agents[decision.player]
            for agent in self.agents:
                self.infos[agent] = {"decision": decision.kind}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        mask = (self.actions.mask(self.engine)
                if agent == self.agent_selection and not self.engine.is_terminal
                else np.zeros(self.actions.size, np.int8))
        return {"observation": self.observer.encode(self.engine, player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must take an action: the game is not over")
        s = self.engine
        player = self.possible_agents.index(agent)
        option = self.actions.decode(int(action), player)
        legal = s.legal_options()
        if option not in legal:
            kind = s.decision().kind
            raise ValueError(
                f"action {int(action)} ({format_option(s, option)}) is not legal for "
                f"{agent}'s {kind!r} decision; legal actions: {self.actions.legal_actions(s)}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        s.apply(option)
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render_text(self.engine, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> ReliquaryAECEnv:
    """The AEC environment without wrappers (an illegal action raises ValueError)."""
    return ReliquaryAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (an illegal action loses)."""
    wrapped: AECEnv = ReliquaryAECEnv(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["ReliquaryAECEnv", "env", "make_settings", "raw_env", "sample_outcome"]
