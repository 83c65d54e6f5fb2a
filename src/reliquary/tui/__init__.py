"""Reliquary in the terminal: a Textual app (``reliquary play``, ``replay --tui``).

The model (:mod:`.session`) is apart from the widgets (:mod:`.widgets`, :mod:`.screens`)
and the app (:mod:`.app`); it reads the engine only through its public API.
"""

from .app import GameScreen, ReliquaryApp, ReplayApp, ReplayScreen
from .session import GameSession, ReplaySession, Setup

__all__ = ["GameScreen", "GameSession", "ReliquaryApp", "ReplayApp", "ReplayScreen",
           "ReplaySession", "Setup"]
