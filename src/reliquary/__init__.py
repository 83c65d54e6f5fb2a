"""Reliquary: the rules engine and its faces (CLI, AI, lab, web).

>>> import reliquary
>>> state = reliquary.new_game(size=8)
>>> state.decision().kind
'ruin'
"""

from __future__ import annotations

from typing import Any

# First: decides the engine build (compiled or pure) before any engine module loads.
from ._engine_build import engine_build
from .content import default_content, load_content
from .engine import *  # noqa: F403
from .engine import Content, Settings, State
from .engine import __all__ as _engine_all

__version__ = "0.1.0"


def new_game(size: int = 8, los: str = "geometric", first_turn: str = "no_damage",
             round_cap: int = 200, content: Content | None = None,
             seed: int | None = None, **variants: Any) -> State:
    """A new game at its first setup decision, with the package's content by default.

    ``variants`` are the other settings (RULES.md §11: ``regroup_limit``,
    ``vigil_reset``, ``vigil_start``, ``killed_minions``). ``seed`` is accepted for
    symmetry with the players and runners; the state itself holds no randomness (chance
    is an explicit decision).

    >>> new_game(vigil_start=3).vigil
    3
    """
    settings = Settings.from_dict(dict(size=size, los=los, first_turn=first_turn,
                                       round_cap=round_cap, **variants))
    return State(content or default_content(), settings)


__all__ = [*_engine_all, "default_content", "engine_build", "load_content", "new_game"]
