"""The small value types of the public API: settings, options, decisions, results, errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple

KEY, SKULL = 0, 1
CHANCE = -1
PLAYER_NAMES = ("Key", "Skull")
#: The players as written in JSON (positions, records, the web API).
SIDES = ("key", "skull")
#: The setup decisions a player takes (S2, S3, S5, S6, S7); the deal (S4) is chance.
SETUP_KINDS = frozenset({"ruin", "faction", "rite", "deploy", "relic"})

Los = Literal["geometric", "straight"]
FirstTurn = Literal["no_damage", "no_attack"]
Mode = Literal["move", "attack", "regroup", "rite", "pass", "interact"]
#: The base game's modes (T1–T6); INTERACT (M-MOD-3) is offered only by modules' actions.
MODES: tuple[Mode, ...] = ("move", "attack", "regroup", "rite", "pass")
INTERACT: Mode = "interact"


class ReliquaryError(Exception):
    """Base class of the engine's errors."""


class IllegalOptionError(ReliquaryError, ValueError):
    """An option that is not legal in the current decision; the state is unchanged."""


class NotationError(ReliquaryError, ValueError):
    """Text that cannot be read as a square, option, position or record."""


class GameOverError(ReliquaryError):
    """The game has ended: there is no decision to take."""


VigilReset = Literal["any", "hero"]
KilledMinions = Literal["pool", "removed"]

#: Every setting of a game, with its rule and what it does (``reliquary rules`` lists them).
SETTINGS_HELP: dict[str, str] = {
    "size": "C1: board side, 8 to 12 (default 8); Minions, Ruins and deployment rows follow",
    "los": "G5/D3: line of sight 'geometric' (default, by segment) or 'straight' (along "
           "rows, columns and diagonals, blocked by Ruins and pieces)",
    "first_turn": "T8/D4: 'no_damage' (default) on a player's first turn, or 'no_attack'",
    "round_cap": "D19: a game still running after this many rounds is a draw (default 200)",
    "regroup_limit": "VAR1: each player may REGROUP at most N times per game "
                     "(default: no limit)",
    "vigil_reset": "VAR2: 'any' (default, V1) HP lost resets the Vigil, or 'hero': only a "
                   "Hero's HP lost (relics and rites still reset it)",
    "vigil_start": "VAR3: the value the Vigil starts at and is reset to, 1 to 6 (default 6)",
    "killed_minions": "VAR4: killed Minions go to the 'pool' (default) or are 'removed' "
                      "from the game (never regrouped or harrowed)",
    "modules": "M-MOD-1: the optional rule modules that are on (default: none); each "
               "module's options are written module.option (M-MOD-2)",
}


@dataclass(frozen=True)
class Settings:
    """The named rule settings of a game: C1 size, D3 ``los``, D4 ``first_turn``, D19
    ``round_cap`` and the variants of RULES.md §11 (VAR1–VAR4), all off by default.

    >>> Settings(size=10, los="straight")
    Settings(size=10, los='straight', first_turn='no_damage', round_cap=200)
    >>> Settings(vigil_start=4, killed_minions="removed")
    Settings(size=8, los='geometric', first_turn='no_damage', round_cap=200, vigil_start=4, \
killed_minions='removed')
    >>> Settings.from_dict({"size": 9, "regroup_limit": 2}).regroup_limit
    2
    >>> Settings(vigil_start=7)
    Traceback (most recent call last):
    ...
    ValueError: vigil_start must be a whole number from 1 to 6, not 7
    """

    size: int = 8
    los: Los = "geometric"
    first_turn: FirstTurn = "no_damage"
    round_cap: int = 200
    regroup_limit: int | None = None
    vigil_reset: VigilReset = "any"
    vigil_start: int = 6
    killed_minions: KilledMinions = "pool"
    #: M-MOD-1: the modules that are on, in the registry's order.
    modules: tuple[str, ...] = ()
    #: M-MOD-2: the module options that differ from their defaults, sorted by key.
    module_options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        def whole(value: object) -> bool:
            return isinstance(value, int) and not isinstance(value, bool)

        if not whole(self.size):
            raise ValueError(f"size must be a whole number, not {self.size!r}")
        if self.los not in ("geometric", "straight"):
            raise ValueError(f"los must be 'geometric' or 'straight', not {self.los!r}")
        if self.first_turn not in ("no_damage", "no_attack"):
            raise ValueError(
                f"first_turn must be 'no_damage' or 'no_attack', not {self.first_turn!r}"
            )
        if not whole(self.round_cap) or self.round_cap < 1:
            raise ValueError(f"round_cap must be a positive whole number, not {self.round_cap!r}")
        if self.regroup_limit is not None and (
                not whole(self.regroup_limit) or self.regroup_limit < 0):
            raise ValueError("regroup_limit must be a whole number from 0 up, or None for no "
                             f"limit, not {self.regroup_limit!r}")
        if self.vigil_reset not in ("any", "hero"):
            raise ValueError(f"vigil_reset must be 'any' or 'hero', not {self.vigil_reset!r}")
        if not whole(self.vigil_start) or not 1 <= self.vigil_start <= 6:
            raise ValueError(
                f"vigil_start must be a whole number from 1 to 6, not {self.vigil_start!r}")
        if self.killed_minions not in ("pool", "removed"):
            raise ValueError(
                f"killed_minions must be 'pool' or 'removed', not {self.killed_minions!r}")
        if self.modules or self.module_options:
            from .modules import check_modules, check_options

            modules = check_modules(self.modules)
            object.__setattr__(self, "modules", modules)
            object.__setattr__(self, "module_options",
                               check_options(modules, dict(self.module_options)))

    def __repr__(self) -> str:
        # The four basic settings always; a variant only when it is not the default.
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if f.name in _BASIC or getattr(self, f.name) != _DEFAULTS[f.name]]
        return f"Settings({', '.join(shown)})"

    def as_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (as positions and records write them): the
        modules and their options (``"module.option"`` keys) only when some are on, so a
        game without modules writes what it always wrote."""
        data = {name: getattr(self, name) for name in _CORE}
        if self.modules:
            data["modules"] = list(self.modules)
            data.update((key, list(value) if isinstance(value, tuple) else value)
                        for key, value in self.module_options)
        return data

    def variants(self) -> dict[str, Any]:
        """The §11 variants and the modules that differ from the default rules (empty for
        the default game)."""
        return {name: value for name, value in self.as_dict().items()
                if name not in _BASIC and value != _DEFAULTS.get(name)}

    def option(self, key: str) -> Any:
        """The value of module option ``key`` (``"module.option"``), its default if unset."""
        from .modules import option_value

        return option_value(self, key)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from a dict such as :meth:`as_dict` writes; a missing key takes its
        default (older records have no variants). Raises ValueError naming the setting."""
        if not isinstance(data, Mapping):
            raise ValueError(f"settings must be an object, not {type(data).__name__}")
        core = {k: v for k, v in data.items() if "." not in k and k != "modules"}
        options = {k: v for k, v in data.items() if "." in k}
        unknown = sorted(set(core) - set(SETTINGS_HELP))
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}; the settings are: "
                             f"{', '.join(SETTINGS_HELP)}")
        modules = data.get("modules") or ()
        if isinstance(modules, list):
            modules = tuple(modules)
        return cls(**core, modules=modules, module_options=tuple(options.items()))


_BASIC = ("size", "los", "first_turn", "round_cap")
#: The settings of the base rules (C1, D3, D4, D19 and VAR1–VAR4), as records write them.
_CORE = ("size", "los", "first_turn", "round_cap", "regroup_limit", "vigil_reset",
         "vigil_start", "killed_minions")


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Settings)}


class Play(NamedTuple):
    """The option of the ``play`` decision: a card from the hand and its mode (T1–T6)."""

    card: str
    mode: Mode


class Step(NamedTuple):
    """A step of one piece from a square to an adjacent one (used by the Escort)."""

    frm: int
    to: int


#: The option that declines an optional part: no Escort step, no lunge, no second
#: target, stop Rapture's steps, no kill step, no swap, no Lantern step.
PASS = "pass"

Option = int | str | Play | Step


@dataclass(frozen=True)
class Decision:
    """Who decides what, among which options.

    ``kind`` names the decision (see :data:`DECISION_KINDS`); ``player`` is 0 (Key),
    1 (Skull) or :data:`CHANCE`. ``piece`` is the square of the piece the decision is
    about (the mover, the attacker, the stepping piece) or -1; ``card`` the card being
    played, if any. For chance decisions ``probabilities`` matches ``options``.
    """

    kind: str
    player: int
    options: tuple[Option, ...]
    piece: int = -1
    card: str | None = None
    probabilities: tuple[float, ...] = ()

    @property
    def is_chance(self) -> bool:
        return self.player == CHANCE


DECISION_KINDS: dict[str, str] = {
    # setup
    "ruin": "mark a pair of Ruin squares (S2): a square; its mirror comes with it",
    "faction": "choose a faction in secret (S3)",
    "deal": "chance: the next card dealt (S4)",
    "rite": "draft a rite (S5)",
    "deploy": "place your next piece, Minions first, Hero last (S6)",
    "relic": "place your relic (S7)",
    # turn
    "play": "play a card in one mode (T1–T6)",
    "mover": "the piece to MOVE (T2)",
    "destination": "where the piece moves (T2)",
    "escort": "the Escort step of another friendly piece, or pass (T2)",
    "attacker": "the attacking piece (T3)",
    "lunge": "the lunge step before an adjacent attack, or pass to stay (D8)",
    "target": "the target of the attack",
    "second_target": "a second enemy for a two-target attack, or pass (D14)",
    "gale_step": "Gale's step (K-Gale)",
    "gale_push": "the next enemy Gale pushes (K-Gale, D14)",
    "roll": "chance: the six-sided die",
    "rapture_step": "a Rapture step, or pass to stop (K-Rapture, D16)",
    "after_step": "the step after the attack (Veiled Hand Hero)",
    "kill_step": "step into the freed square, or pass (Grave Tide Minion)",
    "swap": "swap with a friendly Minion, or pass (Hollow Kin Hero)",
    "grave_return": "the back-row square for the returned Minion (Grave Tide passive, D11)",
    "regroup": "the back-row square for the regrouped Minion (T4)",
    "rite_effect": "where the rite acts (§9)",
    "lantern_step": "the carrier's end-of-turn step, or pass (Lantern Bearers passive)",
}
#: The decision kind of the INTERACT mode (M-MOD-3), asked only where modules offer
#: actions (not one of the base game's kinds).
INTERACT_DECISION: dict[str, str] = {
    "interact": "the module action to take with INTERACT (M-MOD-3)"}


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and animation (see ``State.events``).

    ``kind`` is one of: place, move, step, swap, push (pull=True for a pull), damage
    (crush, prevented), kill, pickup, drop, veil, aegis, roll, play, ruin_removed,
    factions, faction_clash, first, vigil, result. Piece events carry ``piece`` (id),
    ``owner``, ``hero`` and ``square`` (where it was when it happened).
    """

    kind: str
    data: dict[str, Any]


Reason = Literal["hero_killed", "relic_home", "vigil", "points", "relic_points", "round_cap",
                 "timeout",
                 "resign", "agreed"]
RESULT_REASONS: tuple[Reason, ...] = ("hero_killed", "relic_home", "vigil", "points",
                                      "relic_points", "round_cap", "timeout", "resign", "agreed")
#: The endings a player causes by leaving the rules' play: see :meth:`State.concede`.
CONCESSIONS: tuple[Reason, ...] = ("timeout", "resign")


@dataclass(frozen=True)
class Result:
    """How a game ended. ``winner`` is 0, 1 or None for a draw.

    ``reason`` is one of ``hero_killed``, ``relic_home``, ``vigil`` (the Vigil reached 0;
    ``scores`` holds both players' V2 scores), ``points`` (a module's count decided the
    verdict, M-MOD-5), ``relic_points`` (M-KEEP-9's threshold), ``round_cap`` (D19), and
    the endings from
    outside the rules that a front end may declare (:meth:`State.concede`): ``timeout``
    (a player's clock ran out) and ``resign``, and the draw both players agree to
    (:meth:`State.agree_draw`): ``agreed``.
    """

    winner: int | None
    reason: Reason
    scores: tuple[int, int] | None = None
    detail: str = field(default="")
