"""The registered effects of attack lines, rites and faction passives.

Content names an effect (``effect = "gale"`` on an attack line, ``effect = "harrow"`` on
a rite, ``passive = "grave_return"`` on a faction); validation checks the name against
these registries, and the rules call the registered object where the card text acts.
A module adds an effect with :func:`register_effect`, :func:`register_rite` or
:func:`register_passive`: no edit to ``state.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from .types import PASS, Option

if TYPE_CHECKING:
    from .content import ChanceRow
    from .state import Frame, Piece, State, _Line


# ====================================================================== attack lines
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Effect:
    """What an attack line does (K-Strike and the keywords of §7 of RULES.md).

    The flags tell the T6 checks what the line needs: ``targeted`` lines pick a target
    in range (``friendly``: among the attacker's own pieces, D9); ``always_legal`` ones
    need nothing; a ``stepping`` line is legal when the attacker can step next to an
    enemy or stands next to one (Gale). ``table``: the line rolls on a chance table.
    ``lunges``: at range 1 the attacker may lunge first (D8).
    """

    def __init__(self, name: str, help: str, targeted: bool = True, friendly: bool = False,
                 always_legal: bool = False, stepping: bool = False, table: bool = False,
                 lunges: bool = False) -> None:
        self.name = name
        self.help = help
        self.targeted = targeted
        self.friendly = friendly
        self.always_legal = always_legal
        self.stepping = stepping
        self.table = table
        self.lunges = lunges

    def declare(self, s: State, piece: Piece, card: str, line: _Line) -> None:
        """The attacker is chosen: push what comes next (by default, the target)."""
        s.stack.append(("target", piece.id, card))
        if line.adjacent:
            s.stack.append(("lunge", piece.id, card))

    def on_target(self, s: State, attacker: Piece, target: Piece, line: _Line,
                  card: str) -> None:
        """The target is chosen."""

    def on_roll(self, s: State, attacker: Piece, line: _Line, row: ChanceRow,
                frame: Frame) -> None:
        """The die is rolled for this line; ``row``: the table's row for the face."""


class _Strike(Effect):
    def on_target(self, s: State, attacker: Piece, target: Piece, line: _Line,
                  card: str) -> None:
        s.strike(attacker, target, line, card)
        if line.targets == 2 and s.result is None:
            s.stack.append(("second_target", attacker.id, card, target.id))


class _Gale(Effect):
    def declare(self, s: State, piece: Piece, card: str, line: _Line) -> None:
        s.stack.append(("gale_targets", piece.id, card))
        s.stack.append(("gale_step", piece.id, card))


class _Veil(Effect):
    def on_target(self, s: State, attacker: Piece, target: Piece, line: _Line,
                  card: str) -> None:
        s.add_base_condition(target, "veil")


class _Passage(Effect):
    def on_target(self, s: State, attacker: Piece, target: Piece, line: _Line,
                  card: str) -> None:
        s._swap(attacker, target)


class _Aegis(Effect):
    def declare(self, s: State, piece: Piece, card: str, line: _Line) -> None:
        s.add_base_condition(piece, "aegis")


class _Ordeal(Effect):
    def on_target(self, s: State, attacker: Piece, target: Piece, line: _Line,
                  card: str) -> None:
        s.stack.append(("roll", attacker.id, card, target.id))

    def on_roll(self, s: State, attacker: Piece, line: _Line, row: ChanceRow,
                frame: Frame) -> None:
        s.ordeal_hit(attacker, s.pieces[frame[3]], row.damage, row.self_damage, frame[2])


class _Rapture(Effect):
    def declare(self, s: State, piece: Piece, card: str, line: _Line) -> None:
        s.stack.append(("roll", piece.id, card, -1))

    def on_roll(self, s: State, attacker: Piece, line: _Line, row: ChanceRow,
                frame: Frame) -> None:
        # Steps chosen one at a time after the roll (D16).
        s.stack.append(("rapture_step", attacker.id, row.steps, row.up_to))


#: The attack-line effects by name (content's ``effect = "..."``).
EFFECTS: Final[dict[str, Effect]] = {}


def register_effect(effect: Effect) -> Effect:
    """Add an attack effect that content may name (once per name)."""
    _check_new(EFFECTS, effect.name, effect, "an attack effect")
    EFFECTS[effect.name] = effect
    return effect


def _check_new(registry: Mapping[str, object], name: str, item: object, what: str) -> None:
    if name in registry and registry[name] is not item:
        raise ValueError(f"{what} named {name!r} is already registered")


for _effect in (
    _Strike("strike", "K-Strike: damage, then push or pull (G6–G8)", lunges=True),
    _Gale("gale", "K-Gale: a step next to an enemy, then push every adjacent enemy (D14)",
          targeted=False, stepping=True),
    _Veil("veil", "K-Veil: the target cannot MOVE or step on its next turn (D12)"),
    _Passage("passage", "K-Passage: swap places with a friendly piece (D9)", friendly=True),
    _Aegis("aegis", "K-Aegis: no damage, push or pull until your next turn (D13)",
           targeted=False, always_legal=True),
    _Ordeal("ordeal", "K-Ordeal: roll a die against the target (D17)", table=True),
    _Rapture("rapture", "K-Rapture: roll a die for steps (D16)", targeted=False,
             always_legal=True, table=True),
):
    register_effect(_effect)


# ====================================================================== rites (§9)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class RiteEffect:
    """What a rite does when performed (T5): the squares where it can act (none: it
    cannot be completed, T6) and what it does on the one chosen."""

    def __init__(self, name: str, help: str) -> None:
        self.name = name
        self.help = help

    def squares(self, s: State, player: int) -> list[int]:
        return s._empty_back_row(player)

    def can(self, s: State, player: int) -> bool:
        """Whether :meth:`squares` would find any (asked at every play decision)."""
        return s._has_empty_back_row(player)

    def resolve(self, s: State, player: int, sq: int) -> None:
        s._place_new(player, sq)


class _Desecration(RiteEffect):
    def squares(self, s: State, player: int) -> list[int]:
        ruins = s.ruins
        return [sq for sq in s._tables.half[player] if (ruins >> sq) & 1]

    def can(self, s: State, player: int) -> bool:
        return any((s.ruins >> sq) & 1 for sq in s._tables.half[player])

    def resolve(self, s: State, player: int, sq: int) -> None:
        s.remove_ruin(sq)
        s._place_new(player, sq)


class _Harrow(RiteEffect):
    def squares(self, s: State, player: int) -> list[int]:
        if s.pool[1 - player] == 0:
            return []
        return s._empty_back_row(player)

    def can(self, s: State, player: int) -> bool:
        return s.pool[1 - player] > 0 and s._has_empty_back_row(player)

    def resolve(self, s: State, player: int, sq: int) -> None:
        s.pool[1 - player] -= 1
        s._place_new(player, sq, harrowed=True)


#: The rite effects by name (content's ``effect = "..."`` on a rite).
RITES: Final[dict[str, RiteEffect]] = {}


def register_rite(rite: RiteEffect) -> RiteEffect:
    """Add a rite effect that content may name (once per name)."""
    _check_new(RITES, rite.name, rite, "a rite effect")
    RITES[rite.name] = rite
    return rite


for _rite in (
    RiteEffect("exhumation", "Exhumation: a new Minion on an empty square of your back row"),
    _Desecration("desecration", "Desecration: remove a Ruin in your half and put a new "
                                "Minion there"),
    _Harrow("harrow", "Harrow: one of the enemy's killed Minions joins you on your back row, "
                      "and leaves the game if killed (D10)"),
):
    register_rite(_rite)


# ====================================================================== passives (§8)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Passive:
    """A faction's passive: what it does when its side's Minion is killed, and its
    side's end-of-turn step (step T2 of M-MOD-4)."""

    def __init__(self, name: str, help: str) -> None:
        self.name = name
        self.help = help
        #: Its bit in ``State.spent``, for a passive used once per game (set on registry).
        self.mark = 0

    def takes_killed(self, s: State, piece: Piece) -> bool:
        """A Minion of this side was killed (not harrowed): whether the passive takes it
        instead of the pool (asking its own decision with ``s.trigger``)."""
        return False

    def end_step(self, s: State, player: int) -> list[Option]:
        """The options of this side's end-of-turn step (none: no step)."""
        return []

    def end_step_apply(self, s: State, player: int, option: Option) -> None:
        pass


class _GraveTide(Passive):
    """D11, D23: the first Minion killed with room on the back row comes back there
    (mandatory; as card text, T7, also under VAR4's ``removed``)."""

    def takes_killed(self, s: State, piece: Piece) -> bool:
        owner = piece.owner
        if s.spent[owner] & self.mark or not s._has_empty_back_row(owner):
            return False
        s.spent[owner] |= self.mark
        s.trigger(("grave_return", owner))
        return True


class _LanternStep(Passive):
    """Lantern Bearers: the carrier of the enemy relic that took no step this turn may
    step at the end of the turn."""

    def end_step(self, s: State, player: int) -> list[Option]:
        carrier = s.carrier_of(1 - player)
        if carrier is None or carrier.stepped:
            return []
        steps: list[Option] = list(s._steps_of(carrier))
        if steps:
            steps.append(PASS)
        return steps

    def end_step_apply(self, s: State, player: int, option: Option) -> None:
        if isinstance(option, int):
            carrier = s.carrier_of(1 - player)
            assert carrier is not None
            s._step(carrier, option)


#: The faction passives by name (content's ``passive = "..."``).
PASSIVES: Final[dict[str, Passive]] = {}


def register_passive(passive: Passive) -> Passive:
    """Add a faction passive that content may name (once per name)."""
    _check_new(PASSIVES, passive.name, passive, "a passive")
    passive.mark = 1 << len(PASSIVES)
    PASSIVES[passive.name] = passive
    return passive


for _passive in (
    Passive("none", "no passive"),
    _GraveTide("grave_return", "Grave Tide: the first Minion killed returns to the back "
                               "row (D11)"),
    _LanternStep("lantern_step", "Lantern Bearers: the relic carrier's end-of-turn step"),
):
    register_passive(_passive)
