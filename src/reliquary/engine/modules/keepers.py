"""Keepers' Relics (MODULES.md §6, M-KEEP-1 to M-KEEP-23): relic tokens on the Ruins.

Face-down tokens lie on the Ruins; pieces DELVE for them (a reveal, then the lift test),
carry them, and recover them home for points, with set bonuses, Prizes, Devout carriers,
one Wayshrine per player and a points threshold. The data (types, values, points) is
``src/reliquary/data/keepers.toml``, validated by :mod:`.keepers_data` (kept apart so
that this file compiles).

Deferred chance (M-KEEP-3, M-KEEP-D1): a token's value is drawn only when it turns face
up, from the values of its type not yet seen. The state keeps a face-down token's type
and nothing else, so no position, record, event or view can hold its value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ..content import Content
from ..hooks import (
    NEVER,
    NO_ACT,
    NO_ATTACK,
    NO_MOVE,
    NO_STEP,
    NO_SUPPORT,
    OBJECT,
    PINNED,
    ConditionDef,
    DecisionKind,
    Hooks,
    ModuleState,
)
from ..state import Frame, Piece, State
from ..types import PASS, PLAYER_NAMES, Option, Result, Settings
from . import Module, OptionSpec, register
from .keepers_data import KeepersData as KeepersData
from .keepers_data import TargetSpec, load_keepers_data

DATA: Final = load_keepers_data()


# ====================================================================== state
@dataclass
class Token:
    """One relic token in play: its type, its value once face up (0 while face down),
    and where it is: on a square (``sq``), carried by a piece, or recovered by a player."""

    kind: int
    value: int = 0
    sq: int = -1
    carrier: int = -1
    recovered: int = -1

    @property
    def face_up(self) -> bool:
        return self.value > 0

    def copy(self) -> Token:
        return Token(self.kind, self.value, self.sq, self.carrier, self.recovered)

    def key(self) -> tuple[int, int, int, int, int]:
        return (self.kind, self.value, self.sq, self.carrier, self.recovered)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class KeepersState(ModuleState):
    """The tokens in play (in the order they were placed), the box, the points, the
    Wayshrines and the Devout allowances used."""

    def __init__(self, types: int, box: list[int]) -> None:
        self.tokens: list[Token] = []
        #: Tokens of each type still in the box (unseen, out of the game: M-KEEP-2).
        self.box = box
        self.points = [0, 0]
        #: Each player's recovered tokens by type (for M-KEEP-7's sets).
        self.recovered = [[0] * types, [0] * types]
        self.sets = [0, 0]
        #: Each player's Wayshrine: its piece id (-1 in the supply) and type (-1).
        self.shrine = [-1, -1]
        self.shrine_type = [-1, -1]
        #: Devout (M-KEEP-6): (piece id, round) of each allowance used.
        self.devout: tuple[tuple[int, int], ...] = ()

    def copy(self) -> KeepersState:
        other = KeepersState(0, self.box[:])
        other.tokens = [t.copy() for t in self.tokens]
        other.points = self.points[:]
        other.recovered = [self.recovered[0][:], self.recovered[1][:]]
        other.sets = self.sets[:]
        other.shrine = self.shrine[:]
        other.shrine_type = self.shrine_type[:]
        other.devout = self.devout
        return other

    def to_json(self) -> Any:
        tokens = []
        for t in self.tokens:
            entry: dict[str, Any] = {"type": DATA.relic_type[t.kind].id,
                                     "face": "up" if t.face_up else "down"}
            if t.face_up:  # a face-down token has no value yet (M-KEEP-3)
                entry["value"] = t.value
            if t.sq >= 0:
                entry["square"] = t.sq
            if t.carrier >= 0:
                entry["carrier"] = t.carrier
            if t.recovered >= 0:
                entry["recovered"] = t.recovered
            tokens.append(entry)
        return {
            "tokens": tokens,
            "box": {t.id: n for t, n in zip(DATA.relic_type, self.box, strict=True)},
            "points": self.points[:],
            "recovered": [r[:] for r in self.recovered],
            "sets": self.sets[:],
            "wayshrines": [{"piece": pid, "type": DATA.relic_type[k].id if k >= 0 else None}
                           for pid, k in zip(self.shrine, self.shrine_type, strict=True)],
            "devout": [list(d) for d in self.devout],
        }

    def load(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise ValueError("the keepers state must be a table")
        try:
            tokens = []
            for i, e in enumerate(data["tokens"]):
                face = e.get("face")
                if face not in ("up", "down"):
                    raise ValueError(f"tokens[{i}].face must be 'up' or 'down', not {face!r}")
                if face == "down" and "value" in e:
                    raise ValueError(f"tokens[{i}]: a face-down token has no value "
                                     f"(M-KEEP-3)")
                token = Token(DATA.type_index(e["type"]), int(e["value"]) if face == "up"
                              else 0, int(e.get("square", -1)), int(e.get("carrier", -1)),
                              int(e.get("recovered", -1)))
                if sum((token.sq >= 0, token.carrier >= 0, token.recovered >= 0)) != 1:
                    raise ValueError(f"tokens[{i}] must be on a square, carried or "
                                     f"recovered (one of them)")
                tokens.append(token)
            box = [int(data["box"][t.id]) for t in DATA.relic_type]
            points = [int(p) for p in data["points"]]
            recovered = [[int(n) for n in r] for r in data["recovered"]]
            sets = [int(n) for n in data["sets"]]
            shrines = data["wayshrines"]
            shrine = [int(w["piece"]) for w in shrines]
            shrine_type = [DATA.type_index(w["type"]) if w["type"] is not None else -1
                           for w in shrines]
            devout = tuple((int(a), int(b)) for a, b in data["devout"])
        except (KeyError, TypeError) as err:
            raise ValueError(f"missing or malformed field {err}") from None
        if len(points) != 2 or len(sets) != 2 or len(shrine) != 2 or len(recovered) != 2:
            raise ValueError("points, sets, recovered and wayshrines name both players")
        self.tokens, self.box, self.points = tokens, box, points
        self.recovered, self.sets = recovered, sets
        self.shrine, self.shrine_type, self.devout = shrine, shrine_type, devout

    def key(self) -> object:
        return (tuple(t.key() for t in self.tokens), tuple(self.box), tuple(self.points),
                tuple(self.sets), tuple(self.recovered[0]), tuple(self.recovered[1]),
                tuple(self.shrine), tuple(self.shrine_type), self.devout)

    # ------------------------------------------------------------ queries
    def carried_by(self, pid: int) -> int:
        """The index of the token piece ``pid`` carries, or -1."""
        for i, t in enumerate(self.tokens):
            if t.carrier == pid:
                return i
        return -1

    def on_square(self, sq: int) -> list[int]:
        """The indices of the tokens lying on square ``sq``."""
        return [i for i, t in enumerate(self.tokens) if t.sq == sq]

    def unseen(self, kind: int) -> list[int]:
        """The values of type ``kind`` not yet shown on a face-up or recovered token,
        each with its multiplicity (M-KEEP-3)."""
        left = list(DATA.relic_type[kind].values)
        for t in self.tokens:
            if t.kind == kind and t.face_up:
                left.remove(t.value)
        return left

    def total(self) -> int:
        """Every token: the box's, the board's, the carried and the recovered ones."""
        return sum(self.box) + len(self.tokens)


def kstate(s: State) -> KeepersState:
    """The keepers part of a game state (the module must be on)."""
    state = s.module_state["keepers"]
    assert isinstance(state, KeepersState)
    return state


def reveal_odds(st: KeepersState, kind: int) -> dict[int, float]:
    """M-KEEP-3: each value a token of type ``kind`` turns up with, and its probability."""
    left = st.unseen(kind)
    return {v: left.count(v) / len(left) for v in sorted(set(left))}


def expected_value(st: KeepersState, kind: int) -> float:
    """The mean of the values of type ``kind`` not yet seen (what a face-down token of
    that type is worth on average)."""
    left = st.unseen(kind)
    return sum(left) / len(left) if left else 0.0


# ====================================================================== rule helpers
def _emit(s: State, kind: str, piece: Piece | None = None, **data: Any) -> None:
    if s.events is not None:
        s._emit(kind, piece, **data)


def _ask(s: State, frame: Frame) -> None:
    """Ask a decision right after the step being resolved (M-KEEP-8: right after the
    drop), in turn with any other triggered there (a Grave Tide return)."""
    s.trigger(frame)


def _counts_at(s: State, ruin: int) -> tuple[int, int]:
    """The pieces of each side next to square ``ruin``; Wayshrines do not count."""
    counts = [0, 0]
    board, pieces = s.board, s.pieces
    for n in s.geometry.neighbours[ruin]:
        pid = board[n]
        if pid >= 0:
            p = pieces[pid]
            if not p.bans & OBJECT:
                counts[p.owner] += 1
    return counts[0], counts[1]


def carries_nothing(s: State, piece: Piece) -> bool:
    return s.carried_relic(piece) < 0 and kstate(s).carried_by(piece.id) < 0


def score(s: State, player: int, amount: int, why: str) -> None:
    """``player`` gains relic points; with M-GLORY on they are Glory too (M-KEEP-9, §7)."""
    kstate(s).points[player] += amount
    if amount > 0 and "glory" in s.settings.modules:
        from .glory import gain_glory

        gain_glory(s, player, amount, f"keepers_{why}")


def _in_turn(s: State) -> bool:
    """Whether a player's turn is being played (not a round end's steps)."""
    return ("round_close",) not in s.stack


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class KeepersHooks(Hooks):
    """The rules of M-KEEP for one game's content and settings."""

    def __init__(self, content: Content, settings: Settings) -> None:
        self.data = DATA
        self.size = settings.size
        target = settings.option("keepers.target")
        if target == "ruins+1":
            target = content.board_row(settings.size).ruins + 1
        self.target: int = int(target)
        self.devout = settings.option("keepers.devout") == "on"
        self.prizes = settings.option("keepers.prizes") == "on"
        self.wayshrines = settings.option("keepers.wayshrines") == "on"
        self.glory = "glory" in settings.modules  # M-KEEP-9: relic points become Glory
        self.shrine_cond = ConditionDef(
            "wayshrine", NO_MOVE | NO_STEP | NO_ATTACK | NO_ACT | NO_SUPPORT | OBJECT | PINNED,
            NEVER, "M-KEEP-21: a Wayshrine never acts and never moves; a push crushes it")
        kinds: dict[str, DecisionKind] = {
            "token_type": _TokenType(), "reveal": _Reveal(), "lift": _Lift(self),
            "delver": _Delver(self), "delve_ruin": _DelveRuin(self), "prize": _Prize(self),
            "token_pickup": _TokenPickup(), "encamper": _Encamper(self),
            "wayshrine_type": _WayshrineType(self),
        }
        self.kinds = kinds
        #: M-KEEP-6's reduction, read once (a hit asks for it).
        self.devout_reduce: int = DATA.devout.reduce_first_each_round

    # ------------------------------------------------------------ registry
    def conditions(self) -> list[ConditionDef]:
        return [self.shrine_cond]

    def decisions(self) -> dict[str, DecisionKind]:
        return self.kinds

    def new_state(self) -> ModuleState:
        return KeepersState(len(DATA.relic_type), [len(t.values) for t in DATA.relic_type])

    # ------------------------------------------------------------ M-KEEP-2 setup
    def setup(self, s: State) -> None:
        ruins = self.ruin_squares(s)
        if ruins:
            s.stack.append(("token_type", ruins[0]))

    @staticmethod
    def ruin_squares(s: State) -> list[int]:
        return [sq for sq in range(s.geometry.area) if (s.ruins >> sq) & 1]

    # ------------------------------------------------------------ M-MOD-3 INTERACT
    def interact_actions(self, s: State, player: int) -> list[str]:
        st = kstate(s)  # asked at every play decision: the state is looked up once
        actions = []
        if self._can_delve(s, st, player):
            actions.append("delve")
        if self.wayshrines:
            if st.shrine[player] < 0:
                if self._can_encamp(s, st, player):
                    actions.append("encamp")
            else:
                actions.append("decamp")
        return actions

    def can_delve(self, s: State, player: int) -> bool:
        """Whether some piece of ``player`` can DELVE (asked at every play: it starts
        from the few tokens on Ruins, not from the pieces)."""
        return self._can_delve(s, kstate(s), player)

    @staticmethod
    def _can_delve(s: State, st: KeepersState, player: int) -> bool:
        tokens = st.tokens
        relic = s.relic_carrier[1 - player]
        board, pieces, ruins = s.board, s.pieces, s.ruins
        neighbours = s.geometry.neighbours
        for t in tokens:
            sq = t.sq
            if sq < 0 or not (ruins >> sq) & 1:
                continue
            mine = theirs = 0
            free = False
            for n in neighbours[sq]:
                pid = board[n]
                if pid >= 0:
                    p = pieces[pid]
                    if p.bans & OBJECT:
                        continue
                    if p.owner != player:
                        theirs += 1
                        continue
                    mine += 1
                    if not free and not p.bans & NO_ACT and pid != relic:
                        free = True  # unless it carries a token already
                        for other in tokens:
                            if other.carrier == pid:
                                free = False
                                break
            if free and mine > theirs and (t.value <= 0 or mine >= t.value):
                return True
        return False

    def interact(self, s: State, player: int, action: str) -> None:
        if action == "delve":
            s.stack.append(("delver",))
        elif action == "encamp":
            s.stack.append(("encamper",))
        elif action == "decamp":
            decamp(s, player)

    def delve_ruins(self, s: State, piece: Piece) -> list[int]:
        """M-KEEP-4, D2: the Ruins with a token that ``piece`` can delve."""
        if piece.bans & (NO_ACT | OBJECT) or not carries_nothing(s, piece):
            return []
        st = kstate(s)
        out = []
        for n in s.geometry.neighbours[piece.sq]:
            if not (s.ruins >> n) & 1:
                continue
            tokens = st.on_square(n)
            if not tokens:
                continue
            counts = _counts_at(s, n)
            mine = counts[piece.owner]
            if mine <= counts[1 - piece.owner]:
                continue
            token = st.tokens[tokens[0]]
            if token.face_up and mine < token.value:  # D2: a sure failure is no DELVE
                continue
            out.append(n)
        out.sort()
        return out

    def delvers(self, s: State, player: int) -> list[int]:
        return sorted(p.sq for p in s._own[player] if self.delve_ruins(s, p))

    def can_encamp(self, s: State, player: int) -> bool:
        """Whether :meth:`encampers` would find any (asked at every play)."""
        return self._can_encamp(s, kstate(s), player)

    @staticmethod
    def _can_encamp(s: State, st: KeepersState, player: int) -> bool:
        tokens = st.tokens
        relic = s.relic_carrier[1 - player]
        for p in s._own[player]:
            if not p.hero and not p.bans & (NO_ACT | OBJECT) and p.id != relic and all(
                    t.carrier != p.id for t in tokens):
                return True
        return False

    def encampers(self, s: State, player: int) -> list[int]:
        carried = {t.carrier for t in kstate(s).tokens}
        relic = s.relic_carrier[1 - player]
        return sorted(p.sq for p in s._own[player]
                      if not p.hero and not p.bans & (NO_ACT | OBJECT)
                      and p.id not in carried and p.id != relic)

    # ------------------------------------------------------------ RL1–RL3 extended
    def arrived(self, s: State, piece: Piece, frm: int, by_enemy: bool) -> None:
        st = kstate(s)
        if not st.tokens:
            return
        if by_enemy:
            i = st.carried_by(piece.id)
            if i >= 0:  # M-KEEP-5: pushed or pulled away, it drops the token
                self.drop(s, piece, i, frm)
        self.pick_up(s, piece)

    def pick_up(self, s: State, piece: Piece) -> None:
        """M-KEEP-5 (RL1): a piece carrying nothing takes a face-up token where it ends,
        unless the enemy relic lies there (it takes that instead)."""
        st = kstate(s)
        here = [i for i in st.on_square(piece.sq) if st.tokens[i].face_up]
        if not here or piece.bans & OBJECT or not carries_nothing(s, piece):
            return
        relic = 1 - piece.owner
        if s.relic_carrier[relic] < 0 and s.relic_sq[relic] == piece.sq:
            return
        if len({(st.tokens[i].kind, st.tokens[i].value) for i in here}) > 1:
            _ask(s, ("token_pickup", piece.id, piece.sq))  # M-KEEP-D4
            return
        take(s, piece, here[0], "pickup")

    def holds(self, s: State, piece: Piece) -> bool:
        return kstate(s).carried_by(piece.id) >= 0

    def drop(self, s: State, piece: Piece, i: int, sq: int) -> None:
        """The carrier drops token ``i`` on ``sq``; a Prize may follow (M-KEEP-8)."""
        st = kstate(s)
        token = st.tokens[i]
        token.carrier, token.sq = -1, sq
        s.eventful = True  # M-KEEP-11
        _emit(s, "token_drop", piece, token=i, type=DATA.relic_type[token.kind].id,
              value=token.value, at=sq)  # ``square``: the carrier's (pushed on, or died)
        if (self.prizes and piece.owner != s.current and _in_turn(s)
                and s.result is None and self.free_ruins(s)):
            _ask(s, ("prize", i))

    def free_ruins(self, s: State) -> list[int]:
        """The Ruins holding no token (where a Prize may go)."""
        taken = {t.sq for t in kstate(s).tokens}
        return [sq for sq in self.ruin_squares(s) if sq not in taken]

    def on_kill(self, s: State, piece: Piece) -> None:
        st = kstate(s)
        if st.shrine[piece.owner] == piece.id:  # M-KEEP-21: back to the supply
            st.shrine[piece.owner] = -1
            st.shrine_type[piece.owner] = -1
            score(s, 1 - piece.owner, DATA.wayshrine_kill, "wayshrine")
            _emit(s, "wayshrine_destroyed", piece, points=DATA.wayshrine_kill,
                  to=1 - piece.owner)
            return
        i = st.carried_by(piece.id)
        if i >= 0:  # RL3: dropped where it dies
            self.drop(s, piece, i, piece.sq)

    def ruin_removed(self, s: State, sq: int) -> None:
        """§6.3 Desecration: the token turns face up and lies on the freed square."""
        st = kstate(s)
        for i in st.on_square(sq):
            if not st.tokens[i].face_up:
                s.stack.append(("reveal", i))

    # ------------------------------------------------------------ M-KEEP-6 Devout
    def reduction(self, s: State, target: Piece) -> int:
        if not self.devout or kstate(s).carried_by(target.id) < 0:
            return 0
        if (target.id, s.rounds) in kstate(s).devout:
            return 0
        return self.devout_reduce

    def reduced(self, s: State, piece: Piece, amount: int) -> None:
        st = kstate(s)
        if self.devout and st.carried_by(piece.id) >= 0 and (piece.id, s.rounds) \
                not in st.devout:
            st.devout = (*(d for d in st.devout if d[1] == s.rounds), (piece.id, s.rounds))
            _emit(s, "devout", piece)

    # ------------------------------------------------------------ M-KEEP-7, M-KEEP-9
    def after_relic_home(self, s: State, player: int) -> None:
        st = kstate(s)
        if not st.points[player] and all(t.carrier < 0 for t in st.tokens):
            return  # nothing to recover, no points to reach the target with
        geo = s.geometry
        shrine = s.pieces.get(st.shrine[player]) if st.shrine[player] >= 0 else None
        carriers = sorted((s.pieces[t.carrier].sq, i) for i, t in enumerate(st.tokens)
                          if t.carrier >= 0 and t.carrier in s.pieces
                          and s.pieces[t.carrier].owner == player)
        for _, i in carriers:
            piece = s.pieces[st.tokens[i].carrier]
            token = st.tokens[i]
            home = geo.rank_from_back(player, piece.sq) == 0 or (
                shrine is not None and st.shrine_type[player] == token.kind
                and geo.distance(shrine.sq, piece.sq) == 1)
            if home:
                recover(s, piece, i)
        if (self.target > 0 and not self.glory and st.points[player] >= self.target
                and s.result is None):
            s._finish(Result(player, "relic_points",
                             detail=f"{PLAYER_NAMES[player]} reached {st.points[player]} "
                                    f"relic points (target {self.target})"))

    def verdict(self, s: State) -> tuple[int | None, str] | None:
        if self.glory:  # M-KEEP-9: with M-GLORY on, relic points are Glory
            return None
        points = kstate(s).points
        if points[0] == points[1]:
            return None
        return (0 if points[0] > points[1] else 1), "more relic points"

    # ------------------------------------------------------------ M-KEEP-23 Recruit
    def regroup_squares(self, s: State, player: int) -> list[int]:
        pid = kstate(s).shrine[player]
        if pid < 0 or pid not in s.pieces:
            return []
        return s._empty_steps(s.pieces[pid].sq)

    # ------------------------------------------------------------ the environments
    def action_names(self) -> list[str]:
        names = ["delve", "encamp", "decamp", *(t.id for t in DATA.relic_type)]
        values = sorted({v for t in DATA.relic_type for v in t.values})
        names += [f"v{v}" for v in values]
        names += [f"{t.id}{v}" for t in DATA.relic_type for v in sorted(set(t.values))]
        return names

    def text_marks(self, s: State) -> dict[int, str]:
        st = kstate(s)
        marks: dict[int, str] = {}
        for t in st.tokens:
            label = DATA.relic_type[t.kind].id[0] + (str(t.value) if t.face_up else "?")
            if t.sq >= 0:
                marks[t.sq] = marks.get(t.sq, "") + label
            elif t.carrier in s.pieces:
                sq = s.pieces[t.carrier].sq
                marks[sq] = marks.get(sq, "") + "*" + label
        for pid, kind in zip(st.shrine, st.shrine_type, strict=True):
            if pid in s.pieces:
                sq = s.pieces[pid].sq
                marks[sq] = marks.get(sq, "") + "@" + DATA.relic_type[kind].id[0]
        return marks

    def text_lines(self, s: State) -> list[str]:
        st = kstate(s)
        target = "none" if self.target <= 0 or self.glory else str(self.target)
        sides = []
        for p in (0, 1):
            types = "".join(t.id[0].upper() if st.recovered[p][k] > st.sets[p] else "-"
                            for k, t in enumerate(DATA.relic_type))
            sides.append(f"{PLAYER_NAMES[p]} {st.points[p]} (sets {st.sets[p]}, next set "
                         f"{types})")
        box = ", ".join(f"{t.id} {n}" for t, n in zip(DATA.relic_type, st.box, strict=True))
        return [f"relic points: {'; '.join(sides)}; target {target}",
                f"tokens in the box (unseen): {box}"]

    def board_observation_names(self) -> list[str]:
        names = [f"keepers.token:{t.id}" for t in DATA.relic_type]
        return [*names, "keepers.token_face_up", "keepers.token_value",
                "keepers.token_carried"]

    def board_observation(self, s: State, player: int) -> dict[str, list[tuple[int, float]]]:
        """Tokens on the board or carried: their type, face and value (0 face down)."""
        top = max(v for t in DATA.relic_type for v in t.values)
        planes: dict[str, list[tuple[int, float]]] = {
            n: [] for n in self.board_observation_names()}
        for t in kstate(s).tokens:
            sq = t.sq
            if t.carrier >= 0:
                carrier = s.pieces.get(t.carrier)
                if carrier is None:
                    continue
                sq = carrier.sq
                planes["keepers.token_carried"].append((sq, 1.0))
            if sq < 0:
                continue
            planes[f"keepers.token:{DATA.relic_type[t.kind].id}"].append((sq, 1.0))
            if t.face_up:
                planes["keepers.token_face_up"].append((sq, 1.0))
                planes["keepers.token_value"].append((sq, t.value / top))
        return planes

    def observation_names(self) -> list[str]:
        names = ["keepers.points.me", "keepers.points.enemy", "keepers.sets.me",
                 "keepers.sets.enemy", "keepers.shrine.me", "keepers.shrine.enemy"]
        names += [f"keepers.box.{t.id}" for t in DATA.relic_type]
        return names

    def observation(self, s: State, player: int) -> dict[str, float]:
        st = kstate(s)
        top = max(1, self.target if self.target > 0 else DATA.most_points)
        out = {
            "keepers.points.me": min(1.0, st.points[player] / top),
            "keepers.points.enemy": min(1.0, st.points[1 - player] / top),
            "keepers.sets.me": min(1.0, st.sets[player] / 4),
            "keepers.sets.enemy": min(1.0, st.sets[1 - player] / 4),
            "keepers.shrine.me": float(st.shrine[player] >= 0),
            "keepers.shrine.enemy": float(st.shrine[1 - player] >= 0),
        }
        for t, n in zip(DATA.relic_type, st.box, strict=True):
            out[f"keepers.box.{t.id}"] = n / len(t.values)
        return out

    # ------------------------------------------------------------ the lab
    def game_stats(self, s: State, events: list[Any]) -> dict[str, float]:
        st = kstate(s)
        counts: dict[str, float] = {
            "points_key": st.points[0], "points_skull": st.points[1],
            "sets_key": st.sets[0], "sets_skull": st.sets[1],
            "threshold_win": float(s.result is not None and s.result.reason == "relic_points"),
        }
        for name, kind in (("lifted", "token_lift"), ("failed_lifts", "lift_failed"),
                           ("dropped", "token_drop"), ("recovered", "token_recover"),
                           ("prizes", "prize"), ("reveals", "token_reveal"),
                           ("encamps", "encamp"), ("wayshrines_destroyed",
                                                   "wayshrine_destroyed")):
            counts[name] = sum(1 for e in events if e.kind == kind)
        return counts


# ====================================================================== actions
def take(s: State, piece: Piece, i: int, how: str) -> None:
    """``piece`` takes token ``i`` and carries it (a lift or a pickup: M-KEEP-11)."""
    token = kstate(s).tokens[i]
    token.sq, token.carrier = -1, piece.id
    s.eventful = True
    _emit(s, "token_lift" if how == "lift" else "token_pickup", piece, token=i,
          type=DATA.relic_type[token.kind].id, value=token.value)


def recover(s: State, piece: Piece, i: int) -> None:
    """M-KEEP-7: the token leaves the board; its value, and +2 per new set of types."""
    st = kstate(s)
    player = piece.owner
    token = st.tokens[i]
    token.carrier, token.recovered = -1, player
    st.recovered[player][token.kind] += 1
    sets = min(st.recovered[player])
    bonus = (sets - st.sets[player]) * DATA.set_bonus
    st.sets[player] = sets
    score(s, player, token.value + bonus, "recover")
    s.eventful = True
    _emit(s, "token_recover", piece, token=i, type=DATA.relic_type[token.kind].id,
          value=token.value, bonus=bonus, points=st.points[player])


def decamp(s: State, player: int) -> None:
    """M-KEEP-22: the Wayshrine gives way to a new Minion on its square (placed: RL5)."""
    st = kstate(s)
    shrine = s.pieces[st.shrine[player]]
    sq = shrine.sq
    st.shrine[player] = -1
    st.shrine_type[player] = -1
    s.remove_piece(shrine)
    _emit(s, "decamp", player=player, square=sq)
    s._place_new(player, sq)


# ====================================================================== decisions (§6.5)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _TokenType(DecisionKind):
    """M-KEEP-2: the type of the token on a Ruin, weighted by the box."""

    chance = True
    notation = "id"
    help = "the type of a new face-down token, weighted by the tokens left in the box"

    def options(self, s: State, frame: Frame) -> list[Option]:
        st = kstate(s)
        return [t.id for t, n in zip(DATA.relic_type, st.box, strict=True) if n > 0]

    def probabilities(self, s: State, frame: Frame, options: list[Option]) -> list[float]:
        st = kstate(s)
        counts = [st.box[DATA.type_index(str(o))] for o in options]
        total = sum(counts)
        return [c / total for c in counts]

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        st = kstate(s)
        sq: int = frame[1]
        kind = DATA.type_index(str(option))
        st.box[kind] -= 1
        st.tokens.append(Token(kind, 0, sq))
        _emit(s, "token_placed", square=sq, type=DATA.relic_type[kind].id,
              token=len(st.tokens) - 1)
        later = [r for r in KeepersHooks.ruin_squares(s) if r > sq]
        if later and sum(st.box) > 0:
            s.stack.append(("token_type", later[0]))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Reveal(DecisionKind):
    """M-KEEP-3: the value of a token turning face up, from the values not yet seen."""

    chance = True
    notation = "id"
    help = "the value of a token turning face up, from the values of its type not yet seen"

    def options(self, s: State, frame: Frame) -> list[Option]:
        st = kstate(s)
        return [f"v{v}" for v in reveal_odds(st, st.tokens[frame[1]].kind)]

    def probabilities(self, s: State, frame: Frame, options: list[Option]) -> list[float]:
        st = kstate(s)
        odds = reveal_odds(st, st.tokens[frame[1]].kind)
        return [odds[int(str(o)[1:])] for o in options]

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        st = kstate(s)
        i: int = frame[1]
        token = st.tokens[i]
        token.value = int(str(option)[1:])
        _emit(s, "token_reveal", token=i, type=DATA.relic_type[token.kind].id,
              value=token.value, square=token.sq)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Lift(DecisionKind):
    """M-KEEP-4's lift test, after the reveal: automatic."""

    automatic = True

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def run(self, s: State, frame: Frame) -> None:
        i: int = frame[1]
        piece = s.pieces.get(frame[2])
        st = kstate(s)
        token = st.tokens[i]
        if piece is None:
            return
        mine = _counts_at(s, token.sq)[piece.owner]
        if mine >= token.value:
            take(s, piece, i, "lift")
        else:
            _emit(s, "lift_failed", piece, token=i, value=token.value, pieces=mine,
                  ruin=token.sq)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Delver(DecisionKind):
    """M-KEEP-4: which of your pieces delves."""

    help = "the piece that delves (next to a Ruin with a token that you rule)"

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(self.hooks.delvers(s, s.current))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        piece = s.pieces[s.board[option]]
        ruins = self.hooks.delve_ruins(s, piece)
        if len(ruins) == 1:
            delve(s, piece, ruins[0])
        else:
            s.stack.append(("delve_ruin", piece.id))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _DelveRuin(DecisionKind):
    help = "the Ruin to delve, when the delver touches more than one"

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(self.hooks.delve_ruins(s, s.pieces[frame[1]]))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        delve(s, s.pieces[frame[1]], option)

    def subject(self, frame: Frame) -> int:
        return int(frame[1])


def delve(s: State, piece: Piece, ruin: int) -> None:
    """M-KEEP-4: reveal the token if face down (a chance decision), then the lift test."""
    st = kstate(s)
    i = st.on_square(ruin)[0]
    _emit(s, "delve", piece, ruin=ruin, token=i)
    s.stack.append(("lift", i, piece.id))
    if not st.tokens[i].face_up:
        s.stack.append(("reveal", i))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Prize(DecisionKind):
    """M-KEEP-8: take a dropped enemy token as a Prize (to a free Ruin) or leave it."""

    help = "take the dropped token as a Prize (a Ruin holding no token) or pass"

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        token = kstate(s).tokens[frame[1]]
        if token.sq < 0:  # taken meanwhile: nothing to decide
            return []
        options: list[Option] = list(self.hooks.free_ruins(s))
        if options:
            options.append(PASS)
        return options

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        if option == PASS:
            return
        assert isinstance(option, int)
        st = kstate(s)
        i: int = frame[1]
        token = st.tokens[i]
        frm = token.sq
        token.sq = option
        score(s, s.current, DATA.prize, "prize")
        s.eventful = True
        _emit(s, "prize", player=s.current, token=i, type=DATA.relic_type[token.kind].id,
              value=token.value, square=frm, to=option, points=st.points[s.current])


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _TokenPickup(DecisionKind):
    """M-KEEP-D4: which token a piece picks up where several lie."""

    notation = "id"
    help = "the token to pick up where several lie (type and value)"

    def player(self, s: State, frame: Frame) -> int:
        piece = s.pieces.get(frame[1])
        return piece.owner if piece is not None else s.current

    def options(self, s: State, frame: Frame) -> list[Option]:
        piece = s.pieces.get(frame[1])
        if piece is None or piece.sq != frame[2] or not carries_nothing(s, piece):
            return []
        st = kstate(s)
        labels = {f"{DATA.relic_type[st.tokens[i].kind].id}{st.tokens[i].value}"
                  for i in st.on_square(frame[2]) if st.tokens[i].face_up}
        return sorted(labels)

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        st = kstate(s)
        for i in st.on_square(frame[2]):
            t = st.tokens[i]
            if f"{DATA.relic_type[t.kind].id}{t.value}" == option:
                take(s, s.pieces[frame[1]], i, "pickup")
                return

    def subject(self, frame: Frame) -> int:
        return int(frame[1])


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Encamper(DecisionKind):
    """M-KEEP-20: the Minion your Wayshrine replaces."""

    help = "the Minion your Wayshrine replaces (it leaves the game)"

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(self.hooks.encampers(s, s.current))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        s.stack.append(("wayshrine_type", option))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _WayshrineType(DecisionKind):
    """M-KEEP-20: the type the new Wayshrine shows."""

    notation = "id"
    help = "the relic type your Wayshrine shows"

    def __init__(self, hooks: KeepersHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        return [t.id for t in DATA.relic_type]

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        st = kstate(s)
        player = s.current
        sq: int = frame[1]
        minion = s.pieces[s.board[sq]]
        s.remove_piece(minion)  # it leaves the game: not to the pool
        shrine = s._place_new(player, sq)
        s.add_condition(shrine, "wayshrine")
        st.shrine[player] = shrine.id
        st.shrine_type[player] = DATA.type_index(str(option))
        _emit(s, "encamp", shrine, type=str(option))


# ====================================================================== the module
_ON_OFF = ("on", "off")

MODULE = register(Module(
    name="keepers",
    title="Keepers' Relics",
    rules="M-KEEP-1 to M-KEEP-23",
    summary="face-down relic tokens on the Ruins: delve for them, carry them home for "
            "points, with sets, Prizes, Devout carriers, Wayshrines and a points threshold",
    hooks=KeepersHooks,
    data=DATA,
    options={
        "target": TargetSpec(DATA.target, help="relic points that win at once (M-KEEP-9); "
                                                "ruins+1: the table's Ruins + 1; -1: none"),
        "devout": OptionSpec("on", choices=_ON_OFF,
                             help="a token carrier's first damage each round is reduced by 1 "
                                  "(M-KEEP-6)"),
        "prizes": OptionSpec("on", choices=_ON_OFF,
                             help="an enemy token you make drop may be taken as a Prize, "
                                  "+1 point (M-KEEP-8)"),
        "wayshrines": OptionSpec("on", choices=_ON_OFF,
                                 help="ENCAMP, DECAMP and Recruit at a Wayshrine "
                                      "(M-KEEP-20 to M-KEEP-23)"),
    },
    decisions={
        "token_type": "chance: the type of a new face-down token (M-KEEP-2)",
        "reveal": "chance: the value of a token turning face up (M-KEEP-3)",
        "delver": "the piece that delves (M-KEEP-4)",
        "delve_ruin": "the Ruin to delve (M-KEEP-4)",
        "prize": "a dropped enemy token taken as a Prize, or pass (M-KEEP-8)",
        "token_pickup": "the token to pick up where several lie (M-KEEP-D4)",
        "encamper": "the Minion your Wayshrine replaces (M-KEEP-20)",
        "wayshrine_type": "the type your Wayshrine shows (M-KEEP-20)",
    },
    events={
        "token_placed": "a face-down token on a Ruin (M-KEEP-2)",
        "delve": "a piece delves a Ruin (M-KEEP-4)",
        "token_reveal": "a token turns face up (M-KEEP-3)",
        "token_lift": "the lift test passes: the delver carries the token (M-KEEP-4)",
        "lift_failed": "the lift test fails: the token stays face up (M-KEEP-4)",
        "token_pickup": "a piece picks up a face-up token (M-KEEP-5)",
        "token_drop": "a carrier drops its token (M-KEEP-5)",
        "prize": "a dropped token taken as a Prize (M-KEEP-8)",
        "token_recover": "a token recovered for points (M-KEEP-7)",
        "devout": "Devout reduces a carrier's damage (M-KEEP-6)",
        "encamp": "a Wayshrine replaces a Minion (M-KEEP-20)",
        "decamp": "a Wayshrine gives way to a Minion (M-KEEP-22)",
        "wayshrine_destroyed": "a Wayshrine destroyed: back to its supply (M-KEEP-21)",
    },
))
