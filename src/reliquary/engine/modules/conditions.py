"""M-COND "Conditions" (MODULES.md §4): Burning, Poison, Fast, Slow, Paralyzed, Focus and
Defensive, riders on the unique cards, FOCUS, GUARD and TEND with INTERACT, the Fast step,
Upkeep and Dread.

The conditions, riders and actions are data (``data/conditions.toml``) over the
primitives this file knows: durations, bans, an Upkeep tick, a first-hit bonus, a
reduction, an end-of-turn step, opposites and immunities (M-COND-1..14), validated by
:mod:`.conditions_data` (kept apart so that this file compiles). Durations are kept here
rather than by the core's expiry, so every expiry is an event.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from ..content import Content, ContentError
from ..hooks import (
    NEVER,
    NO_ACT,
    NO_STEP,
    PREVENT_DAMAGE,
    ConditionDef,
    DecisionKind,
    Hooks,
    ModuleState,
)
from ..state import Frame, Piece, State
from ..types import PASS, Option, Result, Settings, Step
from . import Module, OptionSpec, register
from .conditions_data import DATA_FILE as DATA_FILE
from .conditions_data import NAME as NAME
from .conditions_data import ActionData as ActionData
from .conditions_data import ConditionData as ConditionData
from .conditions_data import ConditionsData as ConditionsData
from .conditions_data import RiderData as RiderData
from .conditions_data import bans_of, load_conditions_data

DATA: Final = load_conditions_data()


def check_content(data: ConditionsData, content: Content) -> None:
    """The riders' cards, lines and faces exist in ``content`` (a ContentError naming the
    file, the entry and the field otherwise)."""
    cards = {card.id: card for card in content.cards}
    for i, r in enumerate(data.rider):
        where = f"{DATA_FILE}: rider {i + 1} ({r.card})"
        card = cards.get(r.card)
        if card is None or card.attack == "faction":
            unique = [c.id for c in content.cards if c.attack != "faction"]
            raise ContentError(f"{where}: field 'card': no unique card {r.card!r}; unique "
                               f"cards: {', '.join(unique)}")
        attack = card.attack
        if attack.any is not None and r.line != "any":
            raise ContentError(f"{where}: field 'line': {r.card} has one line for any piece: "
                               f"write line = \"any\"")
        if attack.any is None and r.line == "any":
            raise ContentError(f"{where}: field 'line': {r.card} has Hero and Minion lines: "
                               f"write hero, minion or both")
        lines = [attack.any] if attack.any is not None else [
            ln for role, ln in (("hero", attack.hero), ("minion", attack.minion))
            if r.line in (role, "both")]
        for line in lines:
            assert line is not None
            if r.faces:
                faces = {f for row in line.table for f in row.faces}
                if not faces:
                    raise ContentError(f"{where}: field 'faces': {r.card}'s line rolls no "
                                       f"die")
                missing = [f for f in r.faces if f not in faces]
                if missing:
                    raise ContentError(f"{where}: field 'faces': {missing} are not on "
                                       f"{r.card}'s table")
            if r.shape == "pulse" and not (line.push or line.effect == "gale"):
                raise ContentError(f"{where}: field 'shape': {r.card}'s line pushes nobody")


# ====================================================================== module state
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class CondState(ModuleState):
    """What the module remembers between decisions."""

    def __init__(self) -> None:
        #: Pieces whose end-of-turn step (Fast) is in force this turn, noted at turn start
        #: (M-COND-10, M-COND-D4: a restart later in the turn does not take it away).
        self.fast_ready: tuple[int, ...] = ()
        #: Gains held back: (piece id, condition, value, turn). Turn -1: until step T3
        #: of this turn (M-COND-D6's riders on the attacker); else until the piece's
        #: owner's next turn starts, gained in that turn (M-COND-51's Paralyzed, in force
        #: only then: it forbids nothing before, not the Fast or Lantern step of this
        #: turn, not Support in the enemy's).
        self.pending: tuple[tuple[int, str, int, int], ...] = ()
        #: The attacker whose Focus was used up and the bonus for its first hit.
        self.focus: tuple[int, int] = (-1, 0)
        #: The target riders of the table row just rolled: (condition, value).
        self.armed: tuple[tuple[str, int], ...] = ()

    def copy(self) -> CondState:
        c = CondState()
        c.fast_ready, c.pending, c.focus, c.armed = (self.fast_ready, self.pending,
                                                     self.focus, self.armed)
        return c

    def to_json(self) -> Any:
        return {"fast_ready": list(self.fast_ready),
                "pending": [list(p) for p in self.pending],
                "focus": list(self.focus), "armed": [list(a) for a in self.armed]}

    def load(self, data: Any) -> None:
        if not isinstance(data, dict) or set(data) != {"fast_ready", "pending", "focus",
                                                       "armed"}:
            raise ValueError("conditions: expected an object with fast_ready, pending, "
                             "focus and armed")
        try:
            self.fast_ready = tuple(int(v) for v in data["fast_ready"])
            self.pending = tuple((int(p), str(c), int(v), int(t))
                                 for p, c, v, t in data["pending"])
            pid, bonus = data["focus"]
            self.focus = (int(pid), int(bonus))
            self.armed = tuple((str(c), int(v)) for c, v in data["armed"])
        except (TypeError, ValueError) as err:
            raise ValueError(f"conditions: malformed module state ({err})") from None

    def key(self) -> object:
        return (self.fast_ready, self.pending, self.focus, self.armed)


def cond_state(s: State) -> CondState:
    st = s.module_state[NAME]
    assert isinstance(st, CondState)
    return st


# ====================================================================== decisions (§4.5)
#: Frames of an attack that a failed Dread test ends (M-COND-51).
_ATTACK_FRAMES = frozenset({"second_target", "after_step", "kill_step", "swap"})


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DreadRoll(DecisionKind):
    """M-COND-51: the die of a Dread test; frame (kind, attacker, target, card, first)."""

    chance = True
    notation = "value"
    help = "chance: the Dread test's die (M-COND-51)"

    def __init__(self, hooks: ConditionsHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        return [1, 2, 3, 4, 5, 6]

    def subject(self, frame: Frame) -> int:
        return int(frame[1])

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        attacker, target = s.pieces[frame[1]], s.pieces[frame[2]]
        card, first = frame[3], bool(frame[4])
        tn = self.hooks.dread_tn
        passed = option >= tn
        immune = not passed and self.hooks.immune(attacker, self.hooks.paralyzed)
        if s.events is not None:
            s._emit("dread", attacker, face=option, tn=tn, passed=passed, target=target.id,
                    target_square=target.sq, card=card, paralyzed=not passed and not immune)
        if passed:
            s.resume_target(attacker, target, card, first)
            return
        # The attack ends: nothing on this target, no second target, after-step, kill
        # step or swap. The attacker is Paralyzed in its owner's next turn (M-COND-5b).
        s.stack = [f for f in s.stack if not (f[0] in _ATTACK_FRAMES and f[1] == attacker.id)]
        if not immune and self.hooks.paralyzed:
            st = cond_state(s)
            turn = s.turns_taken[0] + s.turns_taken[1]
            st.pending = (*st.pending, (attacker.id, self.hooks.paralyzed, 0, turn))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Actor(DecisionKind):
    """M-COND-40..42: the piece that takes a general action; frame (kind, action)."""

    help = "the piece that takes the general action (FOCUS, GUARD, TEND)"

    def __init__(self, hooks: ConditionsHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        action = self.hooks.actions[frame[1]]
        squares: list[Option] = [p.sq for p in s._own[s.current]
                                 if self.hooks.can_act(s, p, action)]
        squares.sort()
        return squares

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        action = self.hooks.actions[frame[1]]
        actor = s.pieces[s.board[option]]
        if s.events is not None:
            s._emit("cond_action", actor, action=action.id)
        if action.gain is not None:
            self.hooks.gain(s, actor, action.gain.condition, action.gain.value, by_action=True)
        else:
            s.stack.append(("tend_target", action.id, actor.id))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class TendTarget(DecisionKind):
    """M-COND-42: the friendly piece whose condition the action lowers; frame (kind,
    action, actor)."""

    help = "the friendly piece whose Burning TEND lowers (M-COND-42)"

    def __init__(self, hooks: ConditionsHooks) -> None:
        self.hooks = hooks

    def subject(self, frame: Frame) -> int:
        return int(frame[2])

    def options(self, s: State, frame: Frame) -> list[Option]:
        action = self.hooks.actions[frame[1]]
        actor = s.pieces[frame[2]]
        return sorted(p.sq for p in self.hooks.lower_targets(s, actor, action))

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        assert isinstance(option, int)
        lower = self.hooks.actions[frame[1]].lower
        assert lower is not None
        piece = s.pieces[s.board[option]]
        self.hooks.set_value(s, piece, lower.condition, piece.value(lower.condition) - lower.by,
                             "tended")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class FastStep(DecisionKind):
    """M-COND-10: step T1's steps of the Fast pieces, in the order the owner likes, or
    pass (no more this turn); frame (kind, pieces still to step)."""

    notation = "step"
    help = "a Fast piece's step at the end of the turn, or pass (M-COND-10)"

    def __init__(self, hooks: ConditionsHooks) -> None:
        self.hooks = hooks

    def options(self, s: State, frame: Frame) -> list[Option]:
        options: list[Option] = []
        for pid in sorted(frame[1], key=lambda i: s.pieces[i].sq if i in s.pieces else -1):
            piece = s.pieces.get(pid)
            if piece is None or not self.hooks.steps_at_end(piece):
                continue
            options.extend(Step(piece.sq, to) for to in s._steps_of(piece))
        if options:
            options.append(PASS)
        return options

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        if not isinstance(option, Step):
            return
        piece = s.pieces[s.board[option.frm]]
        s._step(piece, option.to)
        rest = tuple(p for p in frame[1] if p != piece.id)
        if rest:
            s.stack.append(("fast_step", rest))


# ====================================================================== the rules
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class ConditionsHooks(Hooks):
    def __init__(self, data: ConditionsData, settings: Settings) -> None:
        self.data = data
        opt = settings.option
        self.dread = str(opt("conditions.dread"))
        self.dread_tn = int(opt("conditions.dread_tn"))
        self.dread_minions_only = opt("conditions.dread_affects") == "minions"
        self.immunity = opt("conditions.paralysis_immune") != "none"
        self.no_damage_first = settings.first_turn == "no_damage"
        enabled = set(opt("conditions.actions"))
        self.conds = {c.id: c for c in data.condition if not c.core}
        self.defs = {c.id: ConditionDef(c.id, bans_of(c), NEVER, c.text.en)
                     for c in self.conds.values()}
        self.actions = {a.id: a for a in data.action if a.id in enabled}
        self.upkeep = tuple(c for c in self.conds.values() if c.upkeep is not None)
        self.end_steps = frozenset(c.id for c in self.conds.values() if "end_step" in c.grants)
        self.reducers = tuple((c.id, c.reduce) for c in self.conds.values()
                              if c.reduce is not None)
        self.on_attack = tuple((c.id, c.on_attack) for c in self.conds.values()
                               if c.on_attack is not None)
        # Paralyzed: the condition a failed Dread test gives (the one that bans attacks).
        self.paralyzed = next((c.id for c in self.conds.values() if "attack" in c.bans), "")
        self.riders = data.rider
        # The riders by card (after_hit and rolled ask at every hit and roll).
        by_card: dict[str, list[RiderData]] = {}
        for r in data.rider:
            by_card.setdefault(r.card, []).append(r)
        self.riders_of = {card: tuple(rs) for card, rs in by_card.items()}
        self.has_round = any(c.duration == "round" for c in self.conds.values())
        # The hot paths' view of the data, in plain typed tables (reading the pydantic
        # models at every turn, hit and play decision is a slow generic lookup).
        self._duration = {c.id: c.duration for c in self.conds.values()}
        self._cancels = {c.id: c.cancels or "" for c in self.conds.values()}
        self._valued = {c.id: c.valued for c in self.conds.values()}
        self._immune_hero = frozenset(c.id for c in self.conds.values()
                                      if self.immunity and "hero" in c.immune)
        self._immune_minion = frozenset(c.id for c in self.conds.values()
                                        if self.immunity and "minion" in c.immune)
        #: INTERACT's actions: (id, the condition a ``lower`` action lowers or "").
        self._interact = tuple((a.id, a.lower.condition if a.lower is not None else "")
                               for a in self.actions.values())

    # ------------------------------------------------------------------ registry
    def conditions(self) -> list[ConditionDef]:
        return list(self.defs.values())

    def decisions(self) -> dict[str, DecisionKind]:
        return {"dread": DreadRoll(self), "cond_actor": Actor(self),
                "tend_target": TendTarget(self), "fast_step": FastStep(self)}

    def new_state(self) -> ModuleState:
        return CondState()

    # ------------------------------------------------------------------ gaining, losing
    def immune(self, piece: Piece, name: str) -> bool:
        return name in (self._immune_hero if piece.hero else self._immune_minion)

    def gain(self, s: State, piece: Piece, name: str, value: int, by_action: bool = False
             ) -> None:
        """M-COND-2..4: ``piece`` gains condition ``name``: values add (M-COND-3) or, from
        a general action, the larger stays (M-COND-D7); the duration restarts; an opposite
        cancels both (M-COND-4); an immune piece gains nothing (M-COND-52)."""
        if self.immune(piece, name):
            if s.events is not None:
                s._emit("condition_immune", piece, condition=name)
            return
        cancels = self._cancels[name]
        if cancels and piece.has(cancels):
            self.end(s, piece, cancels, "cancelled")
            if s.events is not None:
                s._emit("condition_cancelled", piece, condition=name, by=cancels)
            return
        if self._valued[name]:
            old = piece.value(name)
            value = max(old, value) if by_action else old + value
        else:
            value = 0
        s.add_condition(piece, name, value)

    def end(self, s: State, piece: Piece, name: str, why: str) -> None:
        """``piece`` loses condition ``name``; ``why``: expired, upkeep, used, tended,
        cancelled."""
        piece.set_condition(s._rules.conditions[name], False)
        if s.events is not None:
            s._emit("condition_end", piece, condition=name, why=why)

    def set_value(self, s: State, piece: Piece, name: str, value: int, why: str) -> None:
        """A valued condition's new value, its duration unchanged (removed at 0)."""
        if value <= 0:
            self.end(s, piece, name, why)
            return
        stamp = next(c[2] for c in piece.conds if c[0] == name)
        piece.set_condition(s._rules.conditions[name], True, value, stamp)
        if s.events is not None:
            s._emit("condition_tick", piece, condition=name, value=value, why=why)

    def _expire(self, s: State, piece: Piece, duration: str, before: int) -> None:
        durations = self._duration
        for c in piece.conds:
            if durations.get(c[0]) == duration and c[2] < before:
                self.end(s, piece, c[0], "expired")

    # ------------------------------------------------------------------ turn and round
    def turn_start(self, s: State, player: int) -> None:
        st = cond_state(s)
        st.focus, st.armed = (-1, 0), ()
        if st.pending:  # held gains that come into force now, stamped when gained
            mine = tuple(g for g in st.pending if g[3] >= 0 and g[0] in s.pieces
                         and s.pieces[g[0]].owner == player)
            st.pending = tuple(g for g in st.pending if g not in mine and g[0] in s.pieces)
            for pid, name, value, turn in mine:
                piece = s.pieces[pid]
                self.gain(s, piece, name, value)
                if piece.has(name):  # in force this turn: gained in the turn of the test
                    piece.set_condition(s._rules.conditions[name], True,
                                        piece.value(name), turn)
        ready: list[int] = []
        for p in s._own[player]:
            if p.conds:  # M-MOD-4: Defensive and the like end as the owner's turn starts
                self._expire(s, p, "until_owner_turn_start", 1 << 30)
                if any(c[0] in self.end_steps for c in p.conds):
                    ready.append(p.id)
        st.fast_ready = tuple(ready)

    def steps_at_end(self, piece: Piece) -> bool:
        return not piece.bans & NO_STEP and any(c[0] in self.end_steps for c in piece.conds)

    def turn_end(self, s: State, player: int) -> None:
        """Step T1: the Fast steps (M-COND-10), the attack being over."""
        st = cond_state(s)
        st.focus, st.armed = (-1, 0), ()
        ready = tuple(pid for pid in st.fast_ready if pid in s.pieces
                      and self.steps_at_end(s.pieces[pid]))
        if ready:
            s.stack.append(("fast_step", ready))

    def after_relic_home(self, s: State, player: int) -> None:
        """Steps T3–T5 of this module: the held gains, then the end of the owner's-turn
        conditions that were in force in this turn (M-COND-5b; gained in it, they stay)."""
        st = cond_state(s)
        if st.pending:
            now = tuple(g for g in st.pending if g[3] < 0)
            st.pending = tuple(g for g in st.pending if g[3] >= 0)
            for pid, name, value, _ in now:
                piece = s.pieces.get(pid)
                if piece is not None:
                    self.gain(s, piece, name, value)
        turn = s.turns_taken[0] + s.turns_taken[1]
        for p in s._own[player]:
            if p.conds:
                self._expire(s, p, "owner_turn", turn)

    def round_end(self, s: State) -> None:
        """Steps R1 (Upkeep, M-COND-6) and R2 (the round's conditions end)."""
        if self.upkeep:
            self._upkeep(s)
        if s.result is None and self.has_round:
            for p in list(s.pieces.values()):
                if p.conds:
                    self._expire(s, p, "round", 1 << 30)

    def upkeep_loss(self, s: State, piece: Piece) -> int:
        """The HP ``piece`` will lose at the next Upkeep as things stand."""
        hit, unpreventable = self._upkeep_damage(piece)
        if piece.bans & PREVENT_DAMAGE:
            return unpreventable
        return max(0, hit - s._reductions(piece)) + unpreventable

    def _upkeep_damage(self, piece: Piece) -> tuple[int, int]:
        """(the damage of the preventable ticks as one hit, the unpreventable loss)."""
        hit = lose = 0
        for cond in self.upkeep:
            value = piece.value(cond.id)
            if not value and not piece.has(cond.id):
                continue
            assert cond.upkeep is not None
            damage = value if cond.upkeep.damage == "value" else cond.upkeep.damage
            if cond.upkeep.preventable:
                hit += damage
            else:
                lose += damage
        return hit, lose

    def _upkeep(self, s: State) -> None:
        ticking = [p for p in s.pieces.values()
                   if p.conds and any(p.has(c.id) for c in self.upkeep)]
        if not ticking:
            return
        ticking.sort(key=lambda p: p.sq)
        if s.events is not None:
            for p in ticking:
                for cond in self.upkeep:
                    if p.has(cond.id):
                        s._emit("upkeep", p, condition=cond.id, value=p.value(cond.id))
        # M-COND-D1: simultaneous. Only the order of the two Heroes' deaths could matter:
        # both dying is a draw.
        dying = [p for p in ticking if p.hero and self.upkeep_loss(s, p) >= p.hp]
        if len(dying) == 2:
            for p in dying:
                loss = self.upkeep_loss(s, p)
                if s.events is not None:
                    s._emit("damage", p, amount=loss, crush=False, prevented="",
                            hp=max(0, p.hp - loss))
                p.hp -= loss
            s._finish(Result(None, "hero_killed", detail="both Heroes killed at Upkeep "
                                                         "(M-COND-6)"))
            return
        for p in ticking:
            hit, lose = self._upkeep_damage(p)
            if hit:  # one hit with no attacker (M-MOD-9): K-Aegis prevents, reductions cut
                s._reduce_left = s._reductions(p) if s._rules.reduction else -1
                s._damage(p, hit)
                s._reduce_left = -1
                if s.result is not None:
                    return
            if lose and p.id in s.pieces:
                s.deal_damage(p, lose, preventable=False)
                if s.result is not None:
                    return
        for p in ticking:  # then Burning goes, Poison goes down
            if p.id not in s.pieces:
                continue
            for cond in self.upkeep:
                if not p.has(cond.id):
                    continue
                assert cond.upkeep is not None
                if cond.upkeep.then == "remove":
                    self.end(s, p, cond.id, "upkeep")
                elif cond.upkeep.then == "decrement":
                    self.set_value(s, p, cond.id, p.value(cond.id) - 1, "upkeep")

    # ------------------------------------------------------------------ the hit (M-MOD-9)
    def attacker_chosen(self, s: State, piece: Piece, card: str) -> None:
        for name, on_attack in self.on_attack:  # M-COND-13: used up when chosen
            if piece.has(name):
                value = piece.value(name)
                bonus = value if on_attack.first_hit_damage == "value" else \
                    on_attack.first_hit_damage
                cond_state(s).focus = (piece.id, bonus)
                if on_attack.consume:
                    self.end(s, piece, name, "used")

    def hit_bonus(self, s: State, attacker: Piece, target: Piece) -> int:
        st = cond_state(s)
        if st.focus[0] != attacker.id:
            return 0
        bonus = st.focus[1]
        st.focus = (-1, 0)  # the first hit only
        return bonus

    def reduction(self, s: State, target: Piece) -> int:
        if not target.conds:
            return 0
        total = 0
        for name, reduce in self.reducers:
            if target.has(name):
                total += target.value(name) if reduce == "value" else reduce
        return total

    def _line_matches(self, rider: RiderData, attacker: Piece) -> bool:
        return rider.line in ("any", "both") or (rider.line == "hero") == attacker.hero

    def rolled(self, s: State, attacker: Piece, card: str, face: int) -> None:
        riders = self.riders_of.get(card)
        if riders is None:
            return
        armed: list[tuple[str, int]] = []
        st = cond_state(s)
        for r in riders:
            if face not in r.faces or not self._line_matches(r, attacker):
                continue
            if r.to == "attacker":  # M-COND-D6: after the attack's last step
                st.pending = (*st.pending, (attacker.id, r.condition, r.value, -1))
            else:
                armed.append((r.condition, r.value))
        st.armed = tuple(armed)

    def after_hit(self, s: State, attacker: Piece, target: Piece, card: str) -> None:
        """M-COND-30..33: riders, after the hit's damage and push, on a target still on
        the board; none on a first turn under first_turn=no_damage."""
        riders = self.riders_of.get(card)
        if riders is None:
            return
        st = cond_state(s)
        armed, st.armed = st.armed, ()
        if target.id not in s.pieces or (self.no_damage_first and
                                         s.turns_taken[s.current] == 0):
            return
        for name, value in armed:
            self.gain(s, target, name, value)
        line = s._line(card, attacker)
        for r in riders:
            if r.faces or r.to != "target" or not self._line_matches(r, attacker):
                continue
            if r.shape == "pulse" and not line.push:
                continue
            if target.id in s.pieces:
                self.gain(s, target, r.condition, r.value)

    # ------------------------------------------------------------------ Dread
    def dread_holder(self, s: State, attacker: Piece, target: Piece) -> bool:
        """M-COND-50: whether ``target`` has Dread against ``attacker``'s side."""
        if target.owner == attacker.owner:
            return False
        if self.dread == "carrier":
            return s.relic_carrier[attacker.owner] == target.id
        return self.dread == "hero" and target.hero

    def tests(self, s: State, attacker: Piece, target: Piece) -> bool:
        """Whether declaring ``target`` makes ``attacker`` take a Dread test."""
        if self.dread == "none" or (self.dread_minions_only and attacker.hero):
            return False
        return self.dread_holder(s, attacker, target)

    def target_declared(self, s: State, attacker: Piece, target: Piece, card: str,
                        first: bool) -> bool:
        if not self.tests(s, attacker, target):
            return False
        s.stack.append(("dread", attacker.id, target.id, card, int(first)))
        return True

    # ------------------------------------------------------------------ INTERACT
    def can_act(self, s: State, piece: Piece, action: ActionData) -> bool:
        if piece.bans & NO_ACT:
            return False
        return action.lower is None or bool(self.lower_targets(s, piece, action))

    def lower_targets(self, s: State, actor: Piece, action: ActionData) -> list[Piece]:
        lower = action.lower
        assert lower is not None
        geo = s.geometry
        return [p for p in s._own[actor.owner]
                if p.has(lower.condition) and geo.distance(actor.sq, p.sq) <= lower.reach]

    def interact_actions(self, s: State, player: int) -> list[str]:
        # Asked at every play decision: the cheap tests first, the data read from
        # plain tables.
        own = s._own[player]
        actors = [p for p in own if not p.bans & NO_ACT]
        if not actors:
            return []
        out: list[str] = []
        for action_id, lowers in self._interact:
            if not lowers:
                out.append(action_id)
            elif any(p.conds and p.has(lowers) for p in own):
                action = self.actions[action_id]
                if any(self.lower_targets(s, p, action) for p in actors):
                    out.append(action_id)
        return out

    def interact(self, s: State, player: int, action: str) -> None:
        s.stack.append(("cond_actor", action))

    # ------------------------------------------------------------------ faces and lab
    def action_names(self) -> list[str]:
        return list(self.actions)

    def observation_names(self) -> list[str]:
        return ["conditions.dread_tn", "conditions.focus_pending"]

    def observation(self, s: State, player: int) -> dict[str, float]:
        st = cond_state(s)
        return {"conditions.dread_tn": (self.dread_tn - 1) / 5,
                "conditions.focus_pending": min(1.0, st.focus[1] / 3)}

    def game_stats(self, s: State, events: list[Any]) -> dict[str, float]:
        """Conditions gained by kind, Dread tests and fails, Upkeep kills, INTERACT share."""
        gained = {name: 0 for name in self.conds}
        tests = fails = upkeep_kills = plays = interacts = 0
        in_upkeep = False
        for e in events:
            kind, data = e.kind, e.data
            if kind == "condition" and data.get("condition") in gained:
                gained[data["condition"]] += 1
            elif kind == "dread":
                tests += 1
                fails += not data["passed"]
            elif kind == "play":
                plays += 1
                interacts += data.get("mode") == "interact"
                in_upkeep = False
            elif kind == "upkeep":
                in_upkeep = True
            elif kind == "vigil":
                in_upkeep = False
            elif kind == "kill" and in_upkeep:
                upkeep_kills += 1
        stats: dict[str, float] = {f"gained_{name}": float(n) for name, n in gained.items()}
        stats.update(dread_tests=float(tests), dread_fails=float(fails),
                     upkeep_kills=float(upkeep_kills),
                     interact_share=interacts / plays if plays else 0.0)
        return stats


#: The contents checked against the module's data, by id (kept, so that a freed
#: content's id, soon another's, is not taken for checked).
_CHECKED: dict[int, Content] = {}


def _hooks(content: Content, settings: Settings) -> Hooks:
    if _CHECKED.get(id(content)) is not content:
        check_content(DATA, content)
        _CHECKED[id(content)] = content
    return ConditionsHooks(DATA, settings)


_ACTION_IDS = tuple(a.id for a in DATA.action)

MODULE = register(Module(
    name=NAME, title="Conditions", rules="M-COND-1..60",
    summary="Burning, Poison, Fast, Slow, Paralyzed, Focus and Defensive; Upkeep at the "
            "round's end; FOCUS, GUARD and TEND with INTERACT; Dread on a d6",
    hooks=_hooks, data=DATA,
    options={
        "actions": OptionSpec(_ACTION_IDS, subset=_ACTION_IDS,
                              help="the general actions INTERACT offers (M-COND-43)"),
        "dread": OptionSpec("carrier", choices=("carrier", "hero", "none"),
                            help="who has Dread: enemy relic carriers, both Heroes, or "
                                 "nobody (M-COND-50)"),
        "dread_tn": OptionSpec(3, lo=1, hi=6, help="the Dread test passes on a d6 roll of "
                                                   "this or more (M-COND-D3)"),
        "dread_affects": OptionSpec("all", choices=("all", "minions"),
                                    help="which attackers take the Dread test (M-COND-50)"),
        "paralysis_immune": OptionSpec("hero", choices=("hero", "none"),
                                       help="who is immune to Paralyzed (M-COND-52)"),
    },
    decisions={
        "dread": DreadRoll.help, "cond_actor": Actor.help, "tend_target": TendTarget.help,
        "fast_step": FastStep.help,
    },
    events={
        "condition": "a piece gains a condition (value: its new value)",
        "condition_end": "a piece loses a condition (why: expired, upkeep, used, tended, "
                         "cancelled)",
        "condition_tick": "a valued condition changes value (why: upkeep, tended)",
        "condition_cancelled": "Fast and Slow cancelled each other (M-COND-4)",
        "condition_immune": "a piece immune to a condition did not gain it (M-COND-52)",
        "upkeep": "a condition ticks at Upkeep (M-COND-6)",
        "dread": "a Dread test: face, tn, passed, paralyzed (M-COND-51)",
        "cond_action": "a piece takes a general action (FOCUS, GUARD, TEND)",
    },
))
