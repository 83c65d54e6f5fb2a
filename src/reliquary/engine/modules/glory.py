"""M-GLORY "Glory & Support" (MODULES.md §5): a second way to win, on points.

Glory for kills (M-GLORY-2) and for public objectives (M-GLORY-5..8) scored in End
phases over a fixed number of phases (M-GLORY-6, M-GLORY-9), with a points verdict
(M-GLORY-10); objective markers placed at setup (M-GLORY-3); Support's ±1 damage
(M-GLORY-11); upgrades bought with Glory (M-GLORY-40, M-GLORY-41); the optional Shrine
(M-GLORY-42). The data is ``src/reliquary/data/glory.toml`` (:mod:`.glory_data`).

Everything the objectives count lives in :class:`GloryState` (never in ``State.events``,
which clones leave off): this turn's counts, credited to the player whose turn it is,
and this phase's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from ..hooks import (
    IGNORES_REDUCTIONS,
    NEVER,
    NO_SUPPORT,
    OBJECT,
    ConditionDef,
    DecisionKind,
    Hooks,
    ModuleState,
)
from ..types import PASS, Event, Option
from . import Module, OptionSpec, register
from .glory_data import GloryData, Objective, Upgrade, load_glory_data

if TYPE_CHECKING:
    from ..content import Content
    from ..state import Frame, Piece, State
    from ..types import Settings

NAME: Final = "glory"
DATA: Final = load_glory_data()

#: The frame names of the module's decisions (§5.5).
MARKER: Final = "marker"
DRAW: Final = "objective_draw"
DISCARD: Final = "discard_objective"
UPGRADE: Final = "upgrade"
UPGRADE_PIECE: Final = "upgrade_piece"
END_PHASE: Final = "end_phase"      # automatic: one player's End phase steps
END_DRAW: Final = "end_draw"        # automatic: draw back up to the hand size
PHASE_OVER: Final = "phase_over"    # automatic: the phase's counts start again

#: Details of the verdict (M-GLORY-10), the Result's ``detail``.
BY_GLORY: Final = "more Glory"
BY_MARKERS: Final = "more objective markers held"


# ---------------------------------------------------------------------- state
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class GloryState(ModuleState):
    """M-GLORY's part of a game: Glory, hands, markers and what the objectives count."""

    def __init__(self) -> None:
        self.markers: list[int] = []          # squares, in placement order (M-GLORY-3)
        self.glory = [0, 0]                   # totals, spent included (M-GLORY-1)
        self.spent = [0, 0]
        self.hands: list[list[str]] = [[], []]
        self.gone: list[str] = []             # scored or discarded: out of the game
        self.bought: list[list[str]] = [[], []]
        self.phase = 0                        # End phases held
        #: Rounds completed in the current phase: the same board with a different number
        #: of rounds to the End phase is a different game (§5.8's repetition key).
        self.phase_round = 0
        # This turn's counts, for the player whose turn it is (§5.4).
        self.in_turn = False
        self.t_kills = 0
        self.t_first_blood = False
        self.t_crushes = 0
        self.t_hero_hit = False
        self.t_displaced: list[int] = []      # piece ids
        self.t_pickup = False
        # This phase's counts, per player.
        self.p_kills = [0, 0]                 # credited to the killer's side
        self.p_hero_lost = [0, 0]             # HP lost by each player's Hero
        self.any_kill = False                 # M-GLORY-D4
        self.warded_used: list[int] = []      # piece ids, this round
        #: (player, objective id) in the order scored: the lab's and the faces' record.
        self.scored: list[tuple[int, str]] = []

    def copy(self) -> GloryState:
        c = GloryState.__new__(GloryState)
        c.markers = self.markers[:]
        c.glory = self.glory[:]
        c.spent = self.spent[:]
        c.hands = [self.hands[0][:], self.hands[1][:]]
        c.gone = self.gone[:]
        c.bought = [self.bought[0][:], self.bought[1][:]]
        c.phase = self.phase
        c.phase_round = self.phase_round
        c.in_turn = self.in_turn
        c.t_kills = self.t_kills
        c.t_first_blood = self.t_first_blood
        c.t_crushes = self.t_crushes
        c.t_hero_hit = self.t_hero_hit
        c.t_displaced = self.t_displaced[:]
        c.t_pickup = self.t_pickup
        c.p_kills = self.p_kills[:]
        c.p_hero_lost = self.p_hero_lost[:]
        c.any_kill = self.any_kill
        c.warded_used = self.warded_used[:]
        c.scored = self.scored[:]
        return c

    _FIELDS: Final = ("markers", "glory", "spent", "hands", "gone", "bought", "phase",
                      "phase_round",
                      "in_turn", "t_kills", "t_first_blood", "t_crushes", "t_hero_hit",
                      "t_displaced", "t_pickup", "p_kills", "p_hero_lost", "any_kill",
                      "warded_used", "scored")

    def to_json(self) -> Any:
        out = {name: getattr(self, name) for name in self._FIELDS}
        out["scored"] = [list(item) for item in self.scored]
        return out

    def load(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise ValueError("glory: the module state must be an object")
        fresh = GloryState()
        for name in self._FIELDS:
            if name not in data:
                raise ValueError(f"glory: the module state lacks {name!r}")
            value = data[name]
            expected = getattr(fresh, name)
            if type(value) is not type(expected) and not (
                    isinstance(expected, list) and isinstance(value, list)):
                raise ValueError(f"glory.{name}: expected {type(expected).__name__}, "
                                 f"got {value!r}")
            setattr(self, name, value)
        self.markers = [int(x) for x in self.markers]
        self.glory = [int(x) for x in data["glory"]]
        self.spent = [int(x) for x in data["spent"]]
        self.hands = [list(map(str, h)) for h in data["hands"]]
        self.gone = list(map(str, self.gone))
        self.bought = [list(map(str, b)) for b in data["bought"]]
        self.t_displaced = [int(x) for x in self.t_displaced]
        self.p_kills = [int(x) for x in data["p_kills"]]
        self.p_hero_lost = [int(x) for x in data["p_hero_lost"]]
        self.warded_used = [int(x) for x in self.warded_used]
        self.scored = [(int(p), str(o)) for p, o in data["scored"]]
        for field in ("glory", "spent", "hands", "bought", "p_kills", "p_hero_lost"):
            if len(getattr(self, field)) != 2:
                raise ValueError(f"glory.{field}: expected one entry per player")

    def key(self) -> object:
        # Everything with a future; ``scored`` is history only.
        return (tuple(self.markers), tuple(self.glory), tuple(self.spent),
                tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1])),
                tuple(sorted(self.gone)), tuple(sorted(self.bought[0])),
                tuple(sorted(self.bought[1])), self.phase, self.phase_round, self.in_turn,
                self.t_kills,
                self.t_first_blood, self.t_crushes, self.t_hero_hit,
                tuple(sorted(self.t_displaced)), self.t_pickup, tuple(self.p_kills),
                tuple(self.p_hero_lost), self.any_kill, tuple(sorted(self.warded_used)))

    def unspent(self, player: int) -> int:
        return self.glory[player] - self.spent[player]


def glory_state(s: State) -> GloryState:
    """The game's M-GLORY state (the module must be on)."""
    state = s.module_state[NAME]
    assert isinstance(state, GloryState)
    return state


def rules_of(s: State) -> GloryRules:
    """The game's M-GLORY rules (its options and data), from its rulebook."""
    for h in s._rules.hooks:
        if isinstance(h, GloryHooks):
            return h.rules
    raise ValueError("the glory module is not on in this game")


def gain_glory(s: State, player: int, amount: int, why: str, objective: str = "") -> None:
    """``player`` gains ``amount`` Glory (M-GLORY-1), with its ``glory`` event: ``why`` is
    ``kill``, ``objective``, ``shrine`` or another module's reason (M-KEEP's relic
    points become Glory, §7). Not eventful (M-GLORY-12)."""
    if amount <= 0:
        return
    gs = glory_state(s)
    gs.glory[player] += amount
    if s.events is not None:
        s.events.append(Event("glory", {"player": player, "amount": amount, "why": why,
                                        "objective": objective,
                                        "total": gs.glory[player]}))


def _emit(s: State, kind: str, **data: Any) -> None:
    if s.events is not None:
        s.events.append(Event(kind, data))


def is_unit(piece: Piece) -> bool:
    """A Hero or a Minion: what objectives, markers and Support count (M-GLORY-D5; a
    Wayshrine is an object, M-KEEP-21)."""
    return not piece.bans & OBJECT


# ---------------------------------------------------------------------- the rules
# Serializable: the hooks and decision kinds hold it, and a state that is pickled or
# deep-copied (OpenSpiel's serialize, the lab's workers) takes its rulebook along.
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class GloryRules:
    """The parts of the rules the decision kinds and hooks share, for one game's
    content and settings."""

    def __init__(self, data: GloryData, settings: Settings) -> None:
        self.data = data
        row = data.row(settings.size)
        self.phase_rounds = row.phase_rounds
        self.marker_count = row.markers
        self.phases: int = settings.option("glory.phases")
        self.support_mode: str = settings.option("glory.support")
        self.upgrades_on = settings.option("glory.upgrades") == "on"
        self.shrine = settings.option("glory.shrine") == "on"
        self.objectives = {o.id: o for o in data.objective}
        self.objective_ids = tuple(o.id for o in data.objective)
        #: Each objective's timing (every turn's surge check asks; a plain table).
        self.timing_of = {o.id: str(o.timing) for o in data.objective}
        self.upgrades = {u.id: u for u in data.upgrade}
        self.conds = {c.id: c for c in data.condition}
        #: The names of the upgrade conditions by primitive.
        self.honed = {c.id: c.hit_damage_bonus for c in data.condition if c.hit_damage_bonus}
        self.warded = {c.id: c.reduce_first_each_round for c in data.condition
                       if c.reduce_first_each_round}
        self.fleet = tuple(c.id for c in data.condition if "end_step" in c.grants)
        self.heavy = {c.id: c.push_bonus for c in data.condition if c.push_bonus}
        self.upgrade_conds = frozenset(u.condition for u in data.upgrade)
        self.cheapest = min((u.cost for u in data.upgrade), default=0)
        self.size = settings.size

    @property
    def last_round(self) -> int:
        """The round whose end closes the last phase (0: no fixed end, M-GLORY-9)."""
        return self.phases * self.phase_rounds

    # -- markers (M-GLORY-3, M-GLORY-4, M-GLORY-42)
    def marker_squares(self, s: State, index: int) -> list[int]:
        """Where marker number ``index`` (from 0) may go."""
        gs = glory_state(s)
        geo = s.geometry
        n = geo.size
        last = index == self.marker_count - 1
        banned = set(s._tables.deploy[0]) | set(s._tables.deploy[1])
        banned.update(sq for sq in s.relic_sq if sq >= 0)
        banned.update(gs.markers)
        central = self.central_rows(n) if self.shrine and index == 0 else None
        base = []
        for sq in range(geo.area):
            if s.board[sq] != -1 or sq in banned:  # EMPTY is -1: no Ruin, no piece
                continue
            x, y = sq % n, sq // n
            if not last and (x in (0, n - 1) or y in (0, n - 1)):
                continue
            if central is not None and y not in central:
                continue
            base.append(sq)
        for limit in (3, 2, 1):  # the engine's safeguard: the distance limit drops
            squares = [sq for sq in base
                       if all(geo.distance(sq, m) >= limit for m in gs.markers)]
            if squares:
                return squares
        return []

    @staticmethod
    def central_rows(n: int) -> tuple[int, ...]:
        """M-GLORY-42: the two middle rows of an even board, the middle row of an odd one."""
        return (n // 2 - 1, n // 2) if n % 2 == 0 else (n // 2,)

    def held(self, s: State, player: int, where: str = "anywhere") -> int:
        """Markers ``player`` holds (M-GLORY-4); ``where``: ``enemy_half`` counts only
        those in the opponent's half."""
        count = 0
        for sq in glory_state(s).markers:
            pid = s.board[sq]
            if pid < 0:
                continue
            piece = s.pieces[pid]
            if piece.owner != player or not is_unit(piece):
                continue
            if where == "enemy_half" and s.geometry.half_of(sq) != 1 - player:
                continue
            count += 1
        return count

    def shrine_square(self, s: State) -> int:
        markers = glory_state(s).markers
        return markers[0] if self.shrine and markers else -1

    # -- objectives (M-GLORY-5, M-GLORY-7, M-GLORY-8; §5.4)
    def met(self, s: State, player: int, obj: Objective) -> bool:
        """Whether ``player`` meets ``obj`` now: an End-phase objective on the board and
        the phase's counts, a surge on the turn just taken (``player``'s)."""
        gs = glory_state(s)
        kind = obj.kind
        if obj.timing == "surge":
            if not gs.in_turn or s.current != player:
                return False
            if kind == "kills":
                return gs.t_first_blood if obj.first_of_game else gs.t_kills >= obj.count
            if kind == "crushes":
                return gs.t_crushes >= obj.count
            if kind == "hero_damaged":
                return gs.t_hero_hit
            if kind == "displaced":
                return len(gs.t_displaced) >= obj.count
            if kind == "pickup_enemy_relic":
                return gs.t_pickup
            if kind == "end_turn_in_back_row":
                back = s._tables.back_row[1 - player]
                return any(p.sq in back and is_unit(p) for p in s._own[player])
            return False
        if kind == "hold_markers":
            return self.held(s, player, obj.where) >= obj.count
        if kind == "hero_unharmed":
            return s.hero(player) is not None and gs.p_hero_lost[player] == 0
        if kind == "more_minions":
            return self.minions(s, player) > self.minions(s, 1 - player)
        if kind == "carry_enemy_relic":
            return s.relic_carrier[1 - player] >= 0
        if kind == "kills":
            return gs.p_kills[player] >= obj.count
        return False

    @staticmethod
    def minions(s: State, player: int) -> int:
        return sum(1 for p in s._own[player] if not p.hero and is_unit(p))

    def deck(self, s: State) -> list[str]:
        """The objectives still in the deck, in the data's order (the order is chance)."""
        gs = glory_state(s)
        out = set(gs.gone) | set(gs.hands[0]) | set(gs.hands[1])
        return [o for o in self.objective_ids if o not in out]

    def score(self, s: State, player: int, timing: str) -> int:
        """Score ``player``'s held objectives of ``timing`` that are met: Glory, then
        discard (M-GLORY-7 step 1, M-GLORY-8 step 1). Returns how many scored."""
        gs = glory_state(s)
        hand = gs.hands[player]
        if not hand:
            return 0
        timing_of = self.timing_of
        scored = [o for o in hand
                  if timing_of[o] == timing and self.met(s, player, self.objectives[o])]
        for oid in scored:
            gs.hands[player].remove(oid)
            gs.gone.append(oid)
            gs.scored.append((player, oid))
            _emit(s, "objective_scored", player=player, objective=oid, timing=timing)
            gain_glory(s, player, self.objectives[oid].glory, "objective", oid)
        return len(scored)

    # -- upgrades (M-GLORY-40)
    def upgradable(self, s: State, player: int) -> list[Piece]:
        """``player``'s pieces that can take an upgrade: on the board, without one, not
        a Wayshrine."""
        conds = self.upgrade_conds
        return [p for p in s._own[player]
                if is_unit(p) and not any(c[0] in conds for c in p.conds)]

    def buyable(self, s: State, player: int) -> list[str]:
        gs = glory_state(s)
        left = gs.unspent(player)
        if not self.upgrades_on or left < self.cheapest or not self.upgradable(s, player):
            return []
        return [u.id for u in self.data.upgrade
                if u.cost <= left and u.id not in gs.bought[player]]

    # -- Support (M-GLORY-11)
    def supporters(self, s: State, owner: int, around: int, besides: int) -> int:
        """``owner``'s pieces adjacent to square ``around``, ``besides`` excepted, that
        can give Support (not Paralyzed, M-COND-D8; not a Wayshrine)."""
        count = 0
        board = s.board
        for sq in s.geometry.neighbours[around]:
            pid = board[sq]
            if pid < 0 or pid == besides:
                continue
            p = s.pieces[pid]
            if p.owner == owner and not p.bans & (NO_SUPPORT | OBJECT):
                count += 1
        return count

    def support(self, s: State, attacker: Piece, target: Piece) -> tuple[int, int, int]:
        """(the bonus, A, D) of M-GLORY-11 for a hit of ``attacker`` on ``target`` from
        the attacker's square: +1 if A > D, −1 if D > A (not under ``attack``, nor
        against Sundering), else 0."""
        if self.support_mode == "off":
            return 0, 0, 0
        a = self.supporters(s, attacker.owner, target.sq, attacker.id)
        d = self.supporters(s, target.owner, attacker.sq, target.id)
        if a > d:
            return 1, a, d
        if d > a and self.support_mode == "both" and not attacker.bans & IGNORES_REDUCTIONS:
            return -1, a, d
        return 0, a, d


def _has_any(piece: Piece, names: Iterable[str]) -> bool:
    return any(piece.has(n) for n in names)


# ---------------------------------------------------------------------- decisions
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Kind(DecisionKind):
    def __init__(self, rules: GloryRules) -> None:
        self.rules = rules

    def player(self, s: State, frame: Frame) -> int:
        return int(frame[1])


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class MarkerKind(_Kind):
    help = "place an objective marker (M-GLORY-3)"
    notation = "square"

    def player(self, s: State, frame: Frame) -> int:
        return s.first if frame[1] % 2 == 0 else 1 - s.first

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(self.rules.marker_squares(s, frame[1]))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        gs = glory_state(s)
        gs.markers.append(option)
        index = frame[1]
        _emit(s, "marker", player=self.player(s, frame), square=option,
              shrine=self.rules.shrine and index == 0)
        if index + 1 < self.rules.marker_count:
            s.stack.append((MARKER, index + 1))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DrawKind(_Kind):
    help = "draw an objective from the shuffled deck (chance, M-GLORY-5)"
    chance = True
    notation = "id"

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(self.rules.deck(s))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, str)
        player = int(frame[1])
        glory_state(s).hands[player].append(option)
        _emit(s, "objective_draw", player=player, objective=option)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DiscardKind(_Kind):
    help = "discard a held objective, or pass (M-GLORY-8 step 2)"
    notation = "id"

    def options(self, s: State, frame: Frame) -> list[Option]:
        hand = glory_state(s).hands[frame[1]]
        return [*sorted(hand), PASS] if hand else []

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        if option == PASS:
            return
        assert isinstance(option, str)
        player = int(frame[1])
        gs = glory_state(s)
        gs.hands[player].remove(option)
        gs.gone.append(option)
        _emit(s, "objective_discard", player=player, objective=option)
        s.stack.append(frame)  # one decision at a time, until a pass


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class UpgradeKind(_Kind):
    help = "buy an upgrade with unspent Glory, or pass (M-GLORY-40)"
    notation = "id"

    def options(self, s: State, frame: Frame) -> list[Option]:
        ids = self.rules.buyable(s, frame[1])
        return [*ids, PASS] if ids else []

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        if option != PASS:
            s.stack.append((UPGRADE_PIECE, frame[1], option))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class UpgradePieceKind(_Kind):
    help = "the piece that takes the upgrade (M-GLORY-40)"
    notation = "square"

    def options(self, s: State, frame: Frame) -> list[Option]:
        return sorted(p.sq for p in self.rules.upgradable(s, frame[1]))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        player, uid = int(frame[1]), str(frame[2])
        up: Upgrade = self.rules.upgrades[uid]
        gs = glory_state(s)
        gs.spent[player] += up.cost
        gs.bought[player].append(uid)
        piece = s.pieces[s.board[option]]
        _emit(s, "upgrade", player=player, upgrade=uid, cost=up.cost, square=option,
              piece=piece.id)
        s.add_condition(piece, up.condition)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class FleetStepKind(DecisionKind):
    help = "Fleet: the upgraded piece may take 1 step at the end of its owner's turn (M-GLORY-D3)"
    notation = "square"

    def options(self, s: State, frame: Frame) -> list[Option]:
        piece = s.pieces.get(frame[1])
        if piece is None or piece.has("slow"):
            return []
        steps: list[Option] = list(s._steps_of(piece))
        return [*steps, PASS] if steps else []

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        if isinstance(option, int):
            s._step(s.pieces[frame[1]], option)

    def subject(self, frame: Frame) -> int:
        return int(frame[1])


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class EndPhaseKind(_Kind):
    """One player's End phase (M-GLORY-8): score, then the optional steps as frames."""

    automatic = True

    def run(self, s: State, frame: Frame) -> None:
        player, final = int(frame[1]), bool(frame[2])
        rules = self.rules
        rules.score(s, player, "end_phase")
        if final:
            shrine = rules.shrine_square(s)
            if shrine >= 0 and rules.data.shrine_glory:
                pid = s.board[shrine]
                if pid >= 0 and s.pieces[pid].owner == player and is_unit(s.pieces[pid]):
                    gain_glory(s, player, rules.data.shrine_glory, "shrine")
            return  # the final End phase does step 1 only (M-GLORY-8)
        s.stack.append((END_DRAW, player))
        s.stack.append((UPGRADE, player))
        s.stack.append((DISCARD, player))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class EndDrawKind(_Kind):
    """Step 4: draw back up to the hand size, one chance decision at a time."""

    automatic = True

    def run(self, s: State, frame: Frame) -> None:
        player = int(frame[1])
        if len(glory_state(s).hands[player]) < self.rules.data.hand and self.rules.deck(s):
            s.stack.append(frame)
            s.stack.append((DRAW, player))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class PhaseOverKind(_Kind):
    automatic = True

    def run(self, s: State, frame: Frame) -> None:
        gs = glory_state(s)
        gs.p_kills = [0, 0]
        gs.p_hero_lost = [0, 0]


# ---------------------------------------------------------------------- hooks
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class GloryHooks(Hooks):
    def __init__(self, data: GloryData, settings: Settings) -> None:
        self.rules = rules = GloryRules(data, settings)
        self.fleet_kind = "fleet_step" if "conditions" in settings.modules else "fast_step"
        self._conds = [ConditionDef(c.id, IGNORES_REDUCTIONS if c.ignores else 0, NEVER,
                                    help=f"M-GLORY upgrade condition {c.id}")
                       for c in data.condition]
        self._decisions: dict[str, DecisionKind] = {
            MARKER: MarkerKind(rules), DRAW: DrawKind(rules), DISCARD: DiscardKind(rules),
            UPGRADE: UpgradeKind(rules), UPGRADE_PIECE: UpgradePieceKind(rules),
            END_PHASE: EndPhaseKind(rules), END_DRAW: EndDrawKind(rules),
            PHASE_OVER: PhaseOverKind(rules), self.fleet_kind: FleetStepKind(),
        }

    def conditions(self) -> list[ConditionDef]:
        return list(self._conds)

    def decisions(self) -> dict[str, DecisionKind]:
        return dict(self._decisions)

    def new_state(self) -> ModuleState | None:
        return GloryState()

    # -- setup: markers (S8g), then the deal (S9g)
    def setup(self, s: State) -> None:
        # The deal goes just above the first turn, so the other modules' setup steps
        # (M-KEEP's tokens, S8k) come between the markers and the deal (§7).
        at = next(i for i in range(len(s.stack) - 1, -1, -1) if s.stack[i][0] == "begin_game")
        hand = self.rules.data.hand
        deal = [(DRAW, 1 - s.first)] * hand + [(DRAW, s.first)] * hand
        s.stack[at + 1:at + 1] = deal
        if self.rules.marker_count:
            s.stack.append((MARKER, 0))

    # -- the turn's counts (§5.4)
    def turn_start(self, s: State, player: int) -> None:
        gs = glory_state(s)
        gs.in_turn = True
        gs.t_kills = 0
        gs.t_first_blood = False
        gs.t_crushes = 0
        gs.t_hero_hit = False
        gs.t_displaced = []
        gs.t_pickup = False

    def on_kill(self, s: State, piece: Piece) -> None:
        if not is_unit(piece):
            return  # a Wayshrine pays M-KEEP's point instead (M-KEEP-21)
        gs = glory_state(s)
        killer = 1 - piece.owner
        gain_glory(s, killer, 1, "kill")  # M-GLORY-2
        gs.p_kills[killer] += 1
        turn_kill = gs.in_turn and killer == s.current
        if turn_kill:
            gs.t_kills += 1
        if not gs.any_kill:  # M-GLORY-D4
            gs.any_kill = True
            gs.t_first_blood = turn_kill

    def on_damage(self, s: State, piece: Piece, amount: int, crush: bool) -> None:
        if not is_unit(piece):
            return
        gs = glory_state(s)
        if piece.hero:
            gs.p_hero_lost[piece.owner] += amount
        if gs.in_turn and piece.owner != s.current:
            if piece.hero:
                gs.t_hero_hit = True
            if crush:
                gs.t_crushes += 1

    def arrived(self, s: State, piece: Piece, frm: int, by_enemy: bool) -> None:
        gs = glory_state(s)
        if (by_enemy and gs.in_turn and piece.owner != s.current and is_unit(piece)
                and piece.id not in gs.t_displaced):
            gs.t_displaced.append(piece.id)

    def picked_up(self, s: State, piece: Piece, relic: int) -> None:
        gs = glory_state(s)
        if gs.in_turn and piece.owner == s.current and relic != piece.owner:
            gs.t_pickup = True

    # -- the turn end: Fleet (T1), surge (T4)
    def turn_end(self, s: State, player: int) -> None:
        fleet = self.rules.fleet
        if not fleet:
            return
        for p in s._own[player]:
            if p.conds and _has_any(p, fleet) and not p.has("fast"):  # one step with Fast (D3)
                s.stack.append((self.fleet_kind, p.id))

    def after_relic_home(self, s: State, player: int) -> None:
        rules = self.rules
        gs = glory_state(s)
        scored = rules.score(s, player, "surge")  # M-GLORY-7: only the turn's player
        gs.in_turn = False
        draws = min(scored, len(rules.deck(s))) if scored else 0
        for _ in range(draws):  # drawn after the check: they cannot score at it
            s.stack.append((DRAW, player))

    # -- the round end: the End phase (R4) and the last phase (R5)
    def after_vigil(self, s: State) -> None:
        rules = self.rules
        gs = glory_state(s)
        gs.warded_used = []  # Warded: once per round
        gs.phase_round = s.rounds % rules.phase_rounds
        due = s.rounds % rules.phase_rounds == 0
        final = s.vigil <= 0 or (rules.phases > 0 and s.rounds >= rules.last_round)
        if not (due or final):
            return
        gs.phase += 1
        _emit(s, "end_phase", phase=gs.phase, round=s.rounds, final=final)
        s.stack.append((PHASE_OVER, 0))
        s.stack.append((END_PHASE, 1 - s.first, final))
        s.stack.append((END_PHASE, s.first, final))  # the first player first

    def ends_game(self, s: State) -> bool:
        return self.rules.phases > 0 and s.rounds >= self.rules.last_round

    def verdict(self, s: State) -> tuple[int | None, str] | None:
        gs = glory_state(s)
        if gs.glory[0] != gs.glory[1]:
            return int(gs.glory[1] > gs.glory[0]), BY_GLORY
        held = (self.rules.held(s, 0), self.rules.held(s, 1))
        if held[0] != held[1]:
            return int(held[1] > held[0]), BY_MARKERS
        return None

    # -- the hit: Support and upgrades (M-MOD-9)
    def hit_bonus(self, s: State, attacker: Piece, target: Piece) -> int:
        if s.hit_line < 1:  # push-only hits are neither supported nor honed
            return 0
        bonus = 0
        honed = self.rules.honed
        if attacker.conds and honed:
            bonus += sum(v for name, v in honed.items() if attacker.has(name))
        support, a, d = self.rules.support(s, attacker, target)
        if a or d:
            _emit(s, "support", attacker=attacker.id, target=target.id, square=target.sq,
                  bonus=support, attackers=a, defenders=d)
        return bonus + support

    def reduction(self, s: State, target: Piece) -> int:
        if not target.conds:
            return 0
        gs = glory_state(s)
        if target.id in gs.warded_used:
            return 0
        return sum(v for name, v in self.rules.warded.items() if target.has(name))

    def reduced(self, s: State, piece: Piece, amount: int) -> None:
        gs = glory_state(s)
        if piece.id not in gs.warded_used and _has_any(piece, self.rules.warded):
            gs.warded_used.append(piece.id)

    def push_bonus(self, s: State, attacker: Piece) -> int:
        if not attacker.conds:
            return 0
        return sum(v for name, v in self.rules.heavy.items() if attacker.has(name))

    # -- the text board (reliquary show)
    def text_marks(self, s: State) -> dict[int, str]:
        shrine = self.rules.shrine_square(s)
        return {sq: "O" if sq == shrine else "o" for sq in glory_state(s).markers}

    def text_lines(self, s: State) -> list[str]:
        return glory_text(s, self.rules)

    # -- the environments
    def action_names(self) -> list[str]:
        return [*self.rules.objective_ids, *self.rules.upgrades]

    def observation_names(self) -> list[str]:
        names = ["glory_own", "glory_enemy", "unspent_own", "unspent_enemy",
                 "rounds_to_end_phase", "phases_left", "markers_own", "markers_enemy"]
        for who in ("own", "enemy"):
            names += [f"hand_{who}_{o}" for o in self.rules.objective_ids]
            names += [f"bought_{who}_{u}" for u in self.rules.upgrades]
        return [f"glory.{n}" for n in names]

    def board_observation_names(self) -> list[str]:
        return ["glory.marker", "glory.shrine"]

    def board_observation(self, s: State, player: int) -> dict[str, list[tuple[int, float]]]:
        markers = glory_state(s).markers
        shrine = self.rules.shrine_square(s)
        return {"glory.marker": [(sq, 1.0) for sq in markers],
                "glory.shrine": [(shrine, 1.0)] if shrine >= 0 else []}

    def observation(self, s: State, player: int) -> dict[str, float]:
        rules = self.rules
        gs = glory_state(s)
        out: dict[str, float] = {}
        for who, p in (("own", player), ("enemy", 1 - player)):
            out[f"glory_{who}"] = min(1.0, gs.glory[p] / 20)
            out[f"unspent_{who}"] = min(1.0, gs.unspent(p) / 10)
            out[f"markers_{who}"] = rules.held(s, p) / max(1, rules.marker_count)
            for o in rules.objective_ids:
                out[f"hand_{who}_{o}"] = float(o in gs.hands[p])
            for u in rules.upgrades:
                out[f"bought_{who}_{u}"] = float(u in gs.bought[p])
        out["rounds_to_end_phase"] = rounds_to_end_phase(s, rules) / rules.phase_rounds
        left = max(0, rules.phases - gs.phase) if rules.phases else 1
        out["phases_left"] = min(1.0, left / 6)
        return {f"glory.{n}": v for n, v in out.items()}

    # -- the lab
    def game_stats(self, s: State, events: list[Any]) -> dict[str, float]:
        return game_stats(s, self.rules, events)


def glory_text(s: State, rules: GloryRules) -> list[str]:
    """Lines about the module under the text board: Glory, the clock to the next End
    phase, the markers held, each hand's objectives with their conditions, the upgrades."""
    from ..types import PLAYER_NAMES

    gs = glory_state(s)
    phases = f"of {rules.phases}" if rules.phases else "(no fixed end)"
    left = rounds_to_end_phase(s, rules)
    lines = [f"Glory: Key {gs.glory[0]} ({gs.unspent(0)} unspent), Skull {gs.glory[1]} "
             f"({gs.unspent(1)} unspent); phase {gs.phase + 1} {phases}, End phase in "
             f"{left} round{'s' if left != 1 else ''}; markers (o, Shrine O) held: Key "
             f"{rules.held(s, 0)}, Skull {rules.held(s, 1)}"]
    for p in (0, 1):
        hand = gs.hands[p]
        if hand:
            lines.append(f"  {PLAYER_NAMES[p]} objectives:")
            for oid in hand:
                obj = rules.objectives[oid]
                lines.append(f"    {obj.name.en} [{oid}] ({obj.glory} Glory) {obj.en}")
        if gs.bought[p]:
            bought = ", ".join(rules.upgrades[u].name.en for u in gs.bought[p])
            lines.append(f"  {PLAYER_NAMES[p]} upgrades bought: {bought}")
    left_in_deck = len(rules.deck(s))
    lines.append(f"  objective deck: {left_in_deck} left, {len(gs.gone)} out of the game")
    return lines


def rounds_to_end_phase(s: State, rules: GloryRules) -> int:
    """Rounds until the next End phase, this one included (1: at this round's end)."""
    return rules.phase_rounds - s.rounds % rules.phase_rounds


def game_stats(s: State, rules: GloryRules, events: list[Any] | None = None
               ) -> dict[str, float]:
    """Per-game figures for the lab (issue 25): Glory per seat, objectives held (drawn,
    from the ``objective_draw`` events) and scored, by id and side, upgrades bought,
    markers held at the end, and the deciding count."""
    gs = glory_state(s)
    out: dict[str, float] = {
        "glory_key": float(gs.glory[0]), "glory_skull": float(gs.glory[1]),
        "spent_key": float(gs.spent[0]), "spent_skull": float(gs.spent[1]),
        "markers_key": float(rules.held(s, 0)), "markers_skull": float(rules.held(s, 1)),
        "upgrades": float(len(gs.bought[0]) + len(gs.bought[1])),
        "phases": float(gs.phase),
    }
    for e in events or ():
        if e.kind == "objective_draw":
            side = "key" if e.data["player"] == 0 else "skull"
            out[f"held_{e.data['objective']}_{side}"] = 1.0
    for player, oid in gs.scored:
        side = "key" if player == 0 else "skull"
        out[f"scored_{oid}_{side}"] = out.get(f"scored_{oid}_{side}", 0.0) + 1
    for player in (0, 1):
        for uid in gs.bought[player]:
            out[f"bought_{uid}"] = out.get(f"bought_{uid}", 0.0) + 1
    detail = s.result.detail if s.result is not None else ""
    out["decided_by_glory"] = float(detail == BY_GLORY)
    out["decided_by_markers"] = float(detail == BY_MARKERS)
    return out


def _hooks(content: Content, settings: Settings) -> Hooks:
    return GloryHooks(DATA, settings)


MODULE: Final = register(Module(
    name=NAME, title="Glory & Support", rules="M-GLORY-1..42",
    summary="Glory for kills and public objectives scored in End phases, a fixed number "
            "of phases and a points verdict; Support's ±1 damage; upgrades bought with Glory",
    hooks=_hooks,
    data=DATA,
    options={
        "phases": OptionSpec(3, lo=0, hi=6, help="phases in the game (0: no fixed end; "
                                                 "M-GLORY-9)"),
        "support": OptionSpec("both", choices=("both", "attack", "off"),
                              help="Support: ±1 damage (both), +1 only (attack), or none "
                                   "(M-GLORY-11)"),
        "upgrades": OptionSpec("on", choices=("on", "off"),
                               help="upgrades bought with Glory at End phases (M-GLORY-40)"),
        "shrine": OptionSpec("off", choices=("on", "off"),
                             help="the first marker is the Shrine, worth 2 Glory at the "
                                  "final End phase (M-GLORY-42)"),
        # §5.6 recommends shipping it off; hidden hands are not built (only "off").
        "secret_objectives": OptionSpec("off", choices=("off",),
                                        help="secret objective hands (§5.6): not built, "
                                             "so only off"),
    },
    decisions={
        MARKER: MarkerKind.help, DRAW: DrawKind.help, DISCARD: DiscardKind.help,
        UPGRADE: UpgradeKind.help, UPGRADE_PIECE: UpgradePieceKind.help,
        "fast_step": FleetStepKind.help,
    },
    events={
        "glory": "a player gained Glory (why: kill, objective, shrine)",
        "marker": "an objective marker was placed",
        "objective_draw": "a player drew an objective",
        "objective_scored": "a player scored an objective",
        "objective_discard": "a player discarded an objective",
        "upgrade": "a player bought an upgrade for a piece",
        "end_phase": "an End phase began (final: the last one)",
        "support": "Support changed a hit's damage",
    },
))
