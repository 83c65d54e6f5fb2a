"""Reliquary: the rules engine and its faces (CLI, AI, lab, web).

>>> import reliquary
>>> state = reliquary.new_game(size=8)
>>> state.decision().kind
'ruin'
"""

from __future__ import annotations

from .content import default_content, load_content
from .engine import *  # noqa: F403
from .engine import Content, Settings, State
from .engine import __all__ as _engine_all

__version__ = "0.1.0"


def new_game(size: int = 8, los: str = "geometric", first_turn: str = "no_damage",
             round_cap: int = 200, content: Content | None = None,
             seed: int | None = None) -> State:
    """A new game at its first setup decision, with the package's content by default.

    ``seed`` is accepted for symmetry with the players and runners; the state itself
    holds no randomness (chance is an explicit decision).
    """
    settings = Settings(size=size, los=los, first_turn=first_turn,  # type: ignore[arg-type]
                        round_cap=round_cap)
    return State(content or default_content(), settings)


__all__ = [*_engine_all, "default_content", "load_content", "new_game"]
