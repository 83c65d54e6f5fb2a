"""Reliquary as a Gymnasium single-agent environment against a registered agent.

>>> from reliquary.env import ReliquaryGymEnv
>>> game = ReliquaryGymEnv(opponent="random", side="skull", settings={"round_cap": 20})
>>> obs, info = game.reset(seed=1)
>>> obs["observation"].shape == (len(game.observer.plane_names()), 8, 8), info["decision"]
(True, 'ruin')

The learner plays one side (``side``: ``"key"``, ``"skull"`` or ``"random"``, drawn
at each reset); the other side is played by any agent or level of
:func:`reliquary.ai.get_agent` (``opponent``, with ``opponent_budget`` keywords, e.g.
``{"nodes": 200}`` for a fast and reproducible ``search``). The opponent's decisions
and chance are played inside :meth:`step`, so every step is one decision of the
learner. ``gymnasium.make("reliquary/Reliquary-v0", ...)`` makes one too. Observations,
the action space and the mask are those of the PettingZoo
environment (:mod:`reliquary.env.encoding`), from the learner's point of view; the
mask is also in ``info["action_mask"]`` and :meth:`action_masks` (as MaskablePPO
expects). The reward is +1 for a win, −1 for a loss and 0 for a draw, at the end.

An illegal action ends the episode as a loss (reward −1, ``info["illegal_action"]``)
unless ``illegal_action="raise"``, which raises :class:`ValueError` instead. Chance,
the side drawn and the opponent's seed all come from the environment's seed, so
``reset(seed=s)`` followed by the same actions plays the same game (with an
opponent budget in ``nodes`` or none; a ``time`` budget depends on the machine).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import default_content
from ..ai import get_agent
from ..engine import SETUP_KINDS, SIDES, Content, Settings, State, format_option
from ..text import render_text
from .aec import make_settings, sample_outcome
from .encoding import ActionSpace, Observer


class ReliquaryGymEnv(gymnasium.Env):
    """One side of Reliquary against an AI opponent (see the module doc)."""

    # Gymnasium declares it an instance attribute; environments set it on the class.
    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponent: str = "greedy", side: str = "key",
                 settings: Settings | dict[str, Any] | None = None,
                 opponent_budget: dict[str, Any] | None = None, quick_setup: bool = False,
                 illegal_action: str = "lose", render_mode: str | None = None,
                 content: Content | None = None, layout: str = "channels_first") -> None:
        if side not in (*SIDES, "random"):
            raise ValueError(f"side must be 'key', 'skull' or 'random', not {side!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, not {render_mode!r}")
        self.opponent_name = opponent
        self.opponent_budget = dict(opponent_budget or {})
        get_agent(opponent, seed=0, **self.opponent_budget)  # a bad name fails now
        self.side = side
        self.settings = make_settings(settings)
        self.content = content or default_content()
        self.quick_setup = quick_setup
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        size = self.settings.size
        self.actions = ActionSpace(self.content, size, self.settings)
        self.observer = Observer(self.content, size, layout, self.settings)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.observer.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self.actions.size)
        #: The engine state of the game in progress, and the learner's player (0 or 1).
        self.engine = State(self.content, self.settings)
        self.player = 0
        self._over = True
        self._setup_rng = random.Random(0)
        self.opponent: Any = None

    # -- Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game. ``options={"side": ...}`` overrides the side for this game."""
        super().reset(seed=seed)
        options = dict(options or {})
        side = options.pop("side", self.side)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; known: side")
        if side not in (*SIDES, "random"):
            raise ValueError(f"side must be 'key', 'skull' or 'random', not {side!r}")
        rng = self.np_random
        if side == "random":
            side = SIDES[int(rng.integers(2))]
        self.player = SIDES.index(side)
        self.opponent = get_agent(self.opponent_name, seed=int(rng.integers(2**31)),
                                  **self.opponent_budget)
        self._setup_rng = random.Random(int(rng.integers(2**31)))
        self.engine = State(self.content, self.settings)
        self._over = False
        self._settle()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the game is over: call reset() before step()")
        s = self.engine
        try:
            option = self.actions.decode(int(action), self.player)
            legal = option in s.legal_options()
        except ValueError:
            if self.illegal_action == "raise":
                raise
            legal = False
        if not legal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {int(action)} ({format_option(s, option)}) is not "
                                 f"legal for the {s.decision().kind!r} decision; legal "
                                 f"actions: {self.actions.legal_actions(s)}")
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), -1.0, True, False, info
        s.apply(option)
        self._settle()
        reward = 0.0
        if s.is_terminal:
            self._over = True
            winner = s.winner
            reward = 0.0 if winner is None else (1.0 if winner == self.player else -1.0)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, s.is_terminal, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for MaskablePPO and the like)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        return render_text(self.engine, self.render_mode)

    # -- inside ---------------------------------------------------------------------
    def _settle(self) -> None:
        """Play chance, quick setup and the opponent up to the learner's decision."""
        s = self.engine
        while not s.is_terminal:
            if s.is_chance:
                s.apply(sample_outcome(s, self.np_random))
            elif self.quick_setup and s.stack[-1][0] in SETUP_KINDS:
                from ..ai.planning import setup_choice
                s.apply(setup_choice(s, self._setup_rng))
            elif s.current_player != self.player:
                s.apply(self.opponent.choose(s))
            else:
                break

    def _mask(self) -> np.ndarray:
        if self._over or self.engine.is_terminal:
            return np.zeros(self.actions.size, np.int8)
        return self.actions.mask(self.engine)

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.observer.encode(self.engine, self.player),
                "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        s = self.engine
        info: dict[str, Any] = {"action_mask": self._mask(), "side": SIDES[self.player]}
        if s.is_terminal:
            info["result"] = s.result.reason if s.result else None
        else:
            info["decision"] = s.decision().kind
        return info


#: The Gymnasium id: ``gymnasium.make(GYM_ID, opponent="search", ...)`` once this
#: module is imported (``import reliquary.env.single_agent``).
GYM_ID = "reliquary/Reliquary-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point=ReliquaryGymEnv,  # type: ignore[arg-type]
                       disable_env_checker=True)

__all__ = ["GYM_ID", "ReliquaryGymEnv"]
