"""The Reliquary rules engine: pure Python, no I/O.

The public API is small: a :class:`State` (clone, decision, legal options,
apply, chance outcomes, result), the value types of options and decisions, the
:class:`Settings` of a game, and the content models.
"""

from .builder import Builder
from .content import AttackLine, Card, Content, ContentError, Faction, Rite
from .geometry import Geometry
from .notation import format_option, parse_option, read_option
from .record import Entry, Game, replay
from .serialize import position_from_dict, position_to_dict
from .state import Piece, State
from .types import (
    CHANCE,
    CONCESSIONS,
    DECISION_KINDS,
    KEY,
    MODES,
    PASS,
    PLAYER_NAMES,
    RESULT_REASONS,
    SETTINGS_HELP,
    SETUP_KINDS,
    SIDES,
    SKULL,
    Decision,
    Event,
    GameOverError,
    IllegalOptionError,
    NotationError,
    Option,
    Play,
    ReliquaryError,
    Result,
    Settings,
    Step,
)

__all__ = [
    "CHANCE",
    "CONCESSIONS",
    "DECISION_KINDS",
    "KEY",
    "MODES",
    "PASS",
    "PLAYER_NAMES",
    "RESULT_REASONS",
    "SETTINGS_HELP",
    "SETUP_KINDS",
    "SIDES",
    "SKULL",
    "AttackLine",
    "Builder",
    "Card",
    "Content",
    "ContentError",
    "Decision",
    "Entry",
    "Event",
    "Faction",
    "Game",
    "GameOverError",
    "Geometry",
    "IllegalOptionError",
    "NotationError",
    "Option",
    "Piece",
    "Play",
    "ReliquaryError",
    "Result",
    "Rite",
    "Settings",
    "State",
    "Step",
    "format_option",
    "parse_option",
    "position_from_dict",
    "position_to_dict",
    "read_option",
    "replay",
]
