"""A trained policy as a Reliquary agent, to play it against the ladder's agents.

A *policy* here is any callable ``policy(observation, action_mask) -> action`` over the
shared encoding (:mod:`reliquary.env.encoding`): ``observation`` the float32 planes
from the acting player's point of view, ``action_mask`` the int8 mask of legal actions.
:class:`PolicyAgent` turns it into an agent of the :class:`reliquary.ai.Agent`
contract, so ``reliquary.ai.match.run_match`` (after registering it in
``reliquary.ai.AGENTS``), the OpenSpiel game and the web server's agents can play it.

>>> import numpy as np, reliquary
>>> first_legal = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> agent = PolicyAgent(first_legal)
>>> state = reliquary.new_game()
>>> agent.choose(state) in state.legal_options()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import default_content
from ..engine import SETUP_KINDS, Content, Option, Settings, State, format_option
from .encoding import LAYOUTS, ActionSpace, Observer

Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyAgent:
    """An agent that plays ``policy`` (see the module doc).

    ``setup``: ``"policy"`` (the policy takes the setup decisions too) or
    ``"heuristic"`` (the AI's seeded setup choices, as with the environments'
    ``quick_setup``: use it for a policy trained without setup). ``layout``: the
    observations' layout the policy was trained on (``"channels_first"``, the default,
    or ``"channels_last"``). An action that is not legal raises :class:`ValueError`.
    """

    name = "policy"

    def __init__(self, policy: Policy, setup: str = "policy", seed: int | None = None,
                 content: Content | None = None, layout: str = "channels_first",
                 **_: Any) -> None:
        if setup not in ("policy", "heuristic"):
            raise ValueError(f"setup must be 'policy' or 'heuristic', not {setup!r}")
        self.policy = policy
        self.setup = setup
        self.rng = random.Random(seed)
        self.content = content or default_content()
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.layout = layout
        self._codecs: dict[Settings, tuple[ActionSpace, Observer]] = {}

    def _codec(self, settings: Settings) -> tuple[ActionSpace, Observer]:
        if settings not in self._codecs:
            size = settings.size
            self._codecs[settings] = (ActionSpace(self.content, size, settings),
                                      Observer(self.content, size, self.layout, settings))
        return self._codecs[settings]

    def choose(self, state: State) -> Option:
        if state.is_chance or state.is_terminal:
            raise ValueError("an agent chooses only at a player's decision")
        if self.setup == "heuristic" and state.decision().kind in SETUP_KINDS:
            from ..ai.planning import setup_choice
            return setup_choice(state, self.rng)
        actions, observer = self._codec(state.settings)
        player = state.current_player
        action = int(self.policy(observer.encode(state, player), actions.mask(state)))
        option = actions.decode(action, player)
        if option not in state.legal_options():
            raise ValueError(f"the policy chose action {action} ({format_option(state, option)}),"
                             f" not legal for the {state.decision().kind!r} decision")
        return option


__all__ = ["Policy", "PolicyAgent"]
