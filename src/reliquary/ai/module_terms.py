"""The rule modules' evaluation terms (MODULES.md §4.8, §5.8, §6.8), by module name.

:func:`~.evaluation.evaluate` adds :func:`module_terms` times ``Weights.module_terms``
when a game has modules: ``1`` plays module-aware (the default), ``0`` module-blind (the
base game's terms only, for the lab's §10.2 step 4). A module adds its function to
:data:`TERMS`: ``(state, player) -> points``, positive good for ``player``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ..engine import Option, State
from .conditions_eval import conditions_terms
from .glory_eval import glory_terms, marker_choice
from .keepers_eval import keepers_terms, ruin_choice

TERMS: Final[dict[str, Callable[[State, int], float]]] = {
    "conditions": conditions_terms,
    "glory": glory_terms,
    "keepers": keepers_terms,
}

#: Heuristics for the modules' setup decisions, by decision kind (agents take these
#: without a search, like the base game's S2–S7): ``(state, rng) -> option``.
SETUP: Final[dict[str, Callable[[State, random.Random], Option]]] = {
    "marker": marker_choice,
}


#: Module-aware heuristics for the base game's setup decisions (S2–S7) that a module
#: changes the meaning of, by module name, then decision kind: with M-KEEP on, every
#: Ruin will hold a token (M-KEEP-2). Module-blind agents keep the base heuristic.
BASE_SETUP: Final[dict[str, dict[str, Callable[[State, random.Random], Option]]]] = {
    "keepers": {"ruin": ruin_choice},
}


def module_base_setup_choice(state: State, rng: random.Random) -> Option | None:
    """A module-aware choice at a base setup decision, by the first enabled module
    with a heuristic for it; ``None`` where none has one (the base heuristic decides)."""
    kind = state.decision().kind
    for name in state.settings.modules:
        choose = BASE_SETUP.get(name, {}).get(kind)
        if choose is not None:
            return choose(state, rng)
    return None


def module_terms(state: State, player: int) -> float:
    """The enabled modules' terms for ``player``."""
    value = 0.0
    for name in state.settings.modules:
        terms = TERMS.get(name)
        if terms is not None:
            value += terms(state, player)
    return value


def module_setup_choice(state: State, rng: random.Random) -> Option:
    """A module setup decision by its heuristic (any legal option if it has none)."""
    decision = state.decision()
    choose = SETUP.get(decision.kind)
    if choose is None:
        return rng.choice(decision.options)
    return choose(state, rng)
