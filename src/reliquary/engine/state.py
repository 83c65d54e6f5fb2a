"""The game state and every rule of Reliquary.

A :class:`State` is a position plus the stack of what is still to be decided. The
top of the stack is the current decision; :meth:`State.apply` takes one of its
options, resolves what follows without choice, and stops at the next decision.
Frames on the stack are tuples of plain values, so a state clones and serializes
exactly, mid-turn included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final, cast

from mypy_extensions import mypyc_attr

from .content import AttackLine, Card, Content, Faction
from .effects import EFFECTS, PASSIVES, RITES, Effect, Passive, RiteEffect
from .geometry import Geometry, nearest_direction
from .hooks import (
    AEGIS,
    AT_OWNER_TURN_END,
    AT_OWNER_TURN_START,
    AT_ROUND_END,
    BASE_CONDITIONS,
    IGNORES_REDUCTIONS,
    NO_ATTACK,
    NO_MOVE,
    NO_STEP,
    OBJECT,
    PINNED,
    PREVENT_DAMAGE,
    PREVENT_PUSH,
    VEIL,
    ConditionDef,
    ModuleState,
    Rulebook,
)
from .types import (
    CHANCE,
    CONCESSIONS,
    INTERACT,
    MODES,
    PASS,
    PLAYER_NAMES,
    SETUP_KINDS,
    Decision,
    Event,
    GameOverError,
    IllegalOptionError,
    Mode,
    Option,
    Play,
    Reason,
    Result,
    Settings,
    Step,
)

# Final: compiled code inlines these constants and tables instead of looking each one
# up in the module's namespace at every use.
EMPTY: Final = -1
RUIN: Final = -2
Frame = tuple[Any, ...]
#: A condition on a piece: (name, value, turn gained, bans, when it ends).
Condition = tuple[str, int, int, int, str]
MAX_PULL: Final = 99
# The frames of every turn, made once (compiled code would build each tuple anew).
_END_TURN: Final[Frame] = ("end_turn",)
_LANTERN_STEP: Final[Frame] = ("lantern_step",)
_PLAY: Final[Frame] = ("play",)
# With modules: their turn-end step T1 (M-MOD-4), asked after the play.
_TURN_END_STEPS: Final[Frame] = ("turn_end_steps",)
_END_TURN_REST: Final[Frame] = ("end_turn_rest",)
_ROUND_CLOSE: Final[Frame] = ("round_close",)
#: Several decisions triggered in one step (State.trigger), held in one frame.
_TRIGGERS: Final = "triggers"


def _union_bans(conds: tuple[Condition, ...]) -> int:
    """What a piece's conditions forbid together (the bits of Piece.bans)."""
    bans = 0
    for c in conds:
        bans |= c[3]
    return bans


# Compiled (mypyc), a class pickles (OpenSpiel's states, worker processes) only when
# marked serializable; and a serializable class constructed from interpreted code runs
# its __init__ only when it also allows interpreted subclasses (mypyc 2.4).
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Piece:
    """A piece on the board. Minions have 1 HP; Heroes 4 (or their faction's)."""

    __slots__ = ("bans", "conds", "harrowed", "hero", "hp", "id", "max_hp", "owner", "sq",
                 "stepped")

    def __init__(self, pid: int, owner: int, hero: bool, hp: int, sq: int,
                 harrowed: bool = False, max_hp: int = -1, veiled: bool = False,
                 aegis: bool = False, stepped: bool = False,
                 conds: tuple[Condition, ...] = (), bans: int = 0) -> None:
        self.id = pid
        self.owner = owner
        self.hero = hero
        self.hp = hp
        self.max_hp = hp if max_hp < 0 else max_hp
        self.sq = sq
        self.harrowed = harrowed
        self.stepped = stepped  # took a step this turn (Lantern Bearers)
        #: The piece's conditions (M-MOD-3): (name, value, turn gained, bans, ends), in
        #: the order gained; K-Veil and K-Aegis are the base game's two. An immutable
        #: tuple, so copies share it.
        self.conds = conds
        #: The union of its conditions' bans (hooks.NO_MOVE, ...): what hot paths test
        #: (given with ``conds`` by copy(); else worked out from them).
        self.bans = bans if bans or not conds else _union_bans(conds)
        if veiled:
            self.set_condition(VEIL, True)
        if aegis:
            self.set_condition(AEGIS, True)

    def copy(self) -> Piece:
        # One constructor call: compiled (mypyc) classes have no __new__ shortcut.
        return Piece(self.id, self.owner, self.hero, self.hp, self.sq, self.harrowed,
                     self.max_hp, False, False, self.stepped, self.conds, self.bans)

    def has(self, name: str) -> bool:
        """Whether the piece has the condition called ``name``."""
        return any(c[0] == name for c in self.conds)

    def value(self, name: str) -> int:
        """The value of condition ``name`` (0 if the piece does not have it)."""
        for c in self.conds:
            if c[0] == name:
                return c[1]
        return 0

    def set_condition(self, cond: ConditionDef, on: bool, value: int = 0,
                      stamp: int = -1) -> None:
        """Give the piece condition ``cond`` (replacing it if it has it) or take it away."""
        kept = tuple(c for c in self.conds if c[0] != cond.name)
        self.conds = (*kept, (cond.name, value, stamp, cond.bans, cond.ends)) if on else kept
        self.bans = _union_bans(self.conds)

    def expire(self, ends: str, before: int) -> bool:
        """Remove the conditions that end at ``ends`` and were gained before turn
        ``before``; whether any was removed."""
        kept = tuple(c for c in self.conds if c[4] != ends or c[2] >= before)
        if len(kept) == len(self.conds):
            return False
        self.conds = kept
        self.bans = _union_bans(kept)
        return True

    def flags(self) -> int:
        """Owner, kind, harrowed, stepped and bans as one small number (for keys)."""
        return (self.owner | self.hero << 1 | self.harrowed << 2 | self.stepped << 3
                | self.bans << 4)

    def packs(self) -> bool:
        """Whether square and HP fit the bits a key gives them (always in play; a built
        or loaded position may set any HP)."""
        return 0 <= self.sq < 1024 and 0 <= self.hp < 256 and 0 <= self.max_hp < 256

    @property
    def veiled(self) -> bool:
        """K-Veil: no MOVE and no steps on the owner's next turn (D12)."""
        return self.has("veil")

    @veiled.setter
    def veiled(self, on: bool) -> None:
        self.set_condition(VEIL, on)

    @property
    def aegis(self) -> bool:
        """K-Aegis: no damage, no push or pull until the owner's next turn (D13)."""
        return self.has("aegis")

    @aegis.setter
    def aegis(self, on: bool) -> None:
        self.set_condition(AEGIS, on)

    def __repr__(self) -> str:
        kind = "Hero" if self.hero else "Minion"
        return f"<{PLAYER_NAMES[self.owner]} {kind} #{self.id} sq={self.sq} hp={self.hp}>"


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Line:
    """An attack line as the rules read it: the content's :class:`AttackLine` (a pydantic
    model) copied into plain typed fields, fast to read from compiled code."""

    def __init__(self, line: AttackLine) -> None:
        self.source = line
        self.effect: str = line.effect
        impl = EFFECTS[line.effect]
        #: The registered effect: what the line does when declared, aimed and rolled.
        self.impl: Effect = impl
        self.damage = line.damage
        self.push = line.push
        self.pull = line.pull
        self.range = line.range
        self.los = line.los
        self.strict_los = line.strict_los
        self.targets = line.targets
        self.after_step = line.after_step
        self.kill_step = line.kill_step
        self.swap_minion_range = line.swap_minion_range
        self.table = line.table
        self.adjacent = line.adjacent  # a property there: worked out once here
        # What the T6 checks ask of every line, worked out once (read in hot loops).
        self.friendly = impl.friendly  # D9: enemies unless the text says friendly
        self.strict = line.strict_los or self.friendly  # D20: no carrier exception
        # M-KEEP-D5: no Veil and no friendly line (Passage) takes an object (a Wayshrine).
        self.shuns_objects = self.friendly or line.effect == "veil"
        self.melee = line.range == 1 and not line.los  # neighbours only, no line of sight
        self.always_legal = impl.always_legal  # T6: nothing to check
        self.gale = impl.stepping
        self.needs_enemy_near = self.gale or self.adjacent  # reach check in _attack_legal


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _CardInfo:
    """What a play decision reads of one card, in typed fields: one dict lookup per card
    in hand instead of one per mode and table."""

    def __init__(self, plays: dict[Mode, Play],
                 moves: tuple[tuple[tuple[int, ...], ...], ...],
                 lines: tuple[_Line, _Line] | None, escort: bool) -> None:
        self.id = plays["move"].card
        self.move = plays["move"]
        self.attack = plays["attack"]
        self.regroup = plays["regroup"]
        self.rite = plays["rite"]
        self.pass_ = plays["pass"]
        self.interact = plays[INTERACT]
        self.moves = moves  # moves[player][sq] -> MOVE destinations (see _Tables.moves)
        self.lines = lines  # (Hero, Minion) lines; None: the faction's (a generic card)
        self.escort = escort  # its MOVE lets another piece step (the Escort)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _Tables:
    """Per-(content, size) lookups: MOVE destinations of each card, rows, halves, and the
    content's cards, factions, rites and attack lines by id."""

    _cache: ClassVar[dict[tuple[int, int], _Tables]] = {}

    def __init__(self, content: Content, size: int) -> None:
        self.content = content
        geo = Geometry.of(size)
        row = content.board_row(size)
        self.row = row
        self.cards = {card.id: card for card in content.cards}
        self.card_ids = tuple(self.cards)  # in the content's order
        self.factions = {faction.id: faction for faction in content.factions}
        self.rite_effects: dict[str, RiteEffect] = {r.id: RITES[r.effect] for r in content.rites}
        self.passives: dict[str, Passive] = {f.id: PASSIVES[f.passive] for f in content.factions}
        # The Escort's Step options, made once like the plays below: steps[sq][i] goes
        # to geo.neighbours[sq][i].
        self.steps = tuple(tuple(Step(sq, to) for to in geo.neighbours[sq])
                           for sq in range(geo.area))
        # The (Hero, Minion) lines of each unique card, and of each faction for the
        # generic cards (T3); an «any» line is both.
        self.card_lines: dict[str, tuple[_Line, _Line]] = {}
        for card in content.cards:
            attack = card.attack
            if attack == "faction":
                continue
            if attack.any is not None:
                line = _Line(attack.any)
                self.card_lines[card.id] = (line, line)
            else:
                assert attack.hero is not None and attack.minion is not None
                self.card_lines[card.id] = (_Line(attack.hero),
                                            _Line(attack.minion))
        self.faction_lines = {
            faction.id: (_Line(faction.hero), _Line(faction.minion))
            for faction in content.factions}
        # The play options, made once: options are values, so they can be shared.
        self.plays = {card.id: {mode: Play(card.id, mode) for mode in (*MODES, INTERACT)}
                      for card in content.cards}
        self.back_row = tuple(tuple(geo.row_of(p, 0)) for p in (0, 1))
        self.deploy = tuple(
            tuple(sq for r in range(row.deploy_rows) for sq in geo.row_of(p, r)) for p in (0, 1)
        )
        self.half = tuple(
            tuple(sq for sq in range(geo.area) if geo.half_of(sq) == p) for p in (0, 1)
        )
        # S2: where a Ruin (and its mirror) may go, if empty: not the back rows, not the
        # centre square of an odd board.
        self.ruin_squares = tuple(sq for sq in range(size, geo.area - size)
                                  if geo.mirror(sq) != sq)
        # S7: where a player may place their relic (own half, not the back row), if empty.
        self.relic_squares = tuple(
            tuple(sq for sq in self.half[p] if sq not in self.back_row[p]) for p in (0, 1)
        )
        # moves[card][player][sq] -> destinations on the board (D1: turned for Skull), in
        # square order: the destination decision lists them without sorting.
        self.moves: dict[str, tuple[tuple[tuple[int, ...], ...], ...]] = {}
        for card in content.cards:
            per_player = []
            for player in (0, 1):
                sign = 1 if player == 0 else -1
                per_player.append(tuple(
                    tuple(sorted(d for dx, dy in card.diagram
                                 if (d := geo.offset(sq, sign * dx, sign * dy)) >= 0))
                    for sq in range(geo.area)
                ))
            self.moves[card.id] = tuple(per_player)
        self.card_info = {card.id: _CardInfo(self.plays[card.id], self.moves[card.id],
                                             self.card_lines.get(card.id), card.escort)
                          for card in content.cards}
        self._last = self.card_info[content.cards[0].id]  # see card()

    def card(self, card_id: str) -> _CardInfo:
        """``card_info[card_id]``. A turn's decisions ask again and again for the card
        played: the last one found is kept and recognised by identity (frames hold the
        content's own id strings), which costs less than the dict lookup; an equal id
        that is another string object is simply looked up."""
        info = self._last
        if info.id is not card_id:
            info = self._last = self.card_info[card_id]
        return info

    @classmethod
    def of(cls, content: Content, size: int) -> _Tables:
        key = (id(content), size)
        tables = cls._cache.get(key)
        if tables is None or tables.content is not content:
            tables = cls._cache[key] = _Tables(content, size)
        return tables


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class State:
    """A Reliquary game in progress, from the first setup choice to the result.

    >>> from reliquary import new_game
    >>> state = new_game(seed=None)
    >>> d = state.decision()
    >>> d.kind, d.player
    ('ruin', 0)
    >>> state.apply(state.geometry.parse("b3"))
    >>> state.decision().player
    1
    """

    # ------------------------------------------------------------------ creation
    def __init__(self, content: Content, settings: Settings | None = None,
                 *, _copy_of: State | None = None) -> None:
        if _copy_of is not None:  # clone(): copy every field, no checks, no setup
            self._copy_fields(_copy_of)
            return
        settings = settings or Settings()
        if settings.size not in content.sizes:
            raise ValueError(
                f"board side {settings.size} is not in the board table "
                f"(sides {min(content.sizes)} to {max(content.sizes)})"
            )
        self.content = content
        self.settings = settings  # also sets the flags read from it (see the setter)
        self.geometry = Geometry.of(settings.size)
        self._tables = _Tables.of(content, settings.size)
        area = self.geometry.area
        self.board: list[int] = [EMPTY] * area
        self.ruins = 0  # bitmask of Ruin squares
        #: The pieces on the board by id. The engine changes it only through
        #: :meth:`_add_piece` and :meth:`_kill` (or :meth:`_index_pieces` after building a
        #: position), which keep ``_own`` in step.
        self.pieces: dict[int, Piece] = {}
        #: Each player's pieces in ``pieces``' order: the rules' loops read one player's
        #: pieces from a list rather than filtering the dict.
        self._own: list[list[Piece]] = [[], []]
        self.next_id = 0
        self.factions: list[str | None] = [None, None]
        self.secret_faction: list[str | None] = [None, None]  # S3, hidden until both chose
        self.hands: list[list[str]] = [[], []]
        self.waiting: str | None = None
        self.dealt = 0
        self.first = -1
        self.rites: list[str | None] = [None, None]  # held rite, None once played
        self.rite_draft: list[str] = [r.id for r in content.rites]
        self.relic_sq = [-1, -1]       # relic p on the ground at this square
        self.relic_carrier = [-1, -1]  # relic p carried by this piece id
        self.pool = [0, 0]             # killed Minions waiting on the faction card
        self.regroups = [0, 0]         # REGROUPs played (VAR1)
        #: Each player's once-per-game effects already used (Grave Tide's return, D11),
        #: as bits of :attr:`reliquary.engine.effects.Passive.mark`.
        self.spent = [0, 0]
        self.placed = [0, 0]           # pieces deployed (S6)
        self.vigil = settings.vigil_start  # S4, VAR3
        self.eventful = False          # V1: something happened this round
        self.rounds = 0                # completed rounds
        self.turns_taken = [0, 0]
        self.current = 0
        self.played: str | None = None  # card played this turn
        self.result: Result | None = None
        self.stack: list[Frame] = [("ruin", 0, self._tables.row.ruins // 2)]
        self._options: list[Option] | None = None
        #: A decision a rule triggered mid-step (a Grave Tide return, D11), pushed as soon
        #: as the step is over (:meth:`trigger`).
        self._trigger: Frame | None = None
        #: Each enabled module's own state (M-MOD), by module name; empty without modules.
        self.module_state: dict[str, ModuleState] = self._rules.new_module_state()
        #: What is left of the current hit's reductions (M-MOD-9); -1: no hit is on.
        self._reduce_left = -1
        #: The current hit's line damage before any bonus (M-MOD-9), for hit_bonus hooks.
        self.hit_line = 0
        #: When a list, the rules append an :class:`Event` for everything that happens
        #: (for logs and animation); None (the default, and in clones) records nothing.
        self.events: list[Event] | None = None
        self._advance()

    @property
    def settings(self) -> Settings:
        """The rule settings (read-only for play; :class:`Builder` may replace them)."""
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        # The settings the hot paths test, as typed flags (compiled code reads a native
        # field; a frozen dataclass attribute and a string compare cost more).
        self._settings = settings
        self._geometric_los = settings.los == "geometric"
        self._no_damage_first = settings.first_turn == "no_damage"
        self._no_attack_first = settings.first_turn == "no_attack"
        self._vigil_reset_any = settings.vigil_reset == "any"
        self._pool_killed = settings.killed_minions == "pool"
        limit = settings.regroup_limit
        self._regroup_limit = -1 if limit is None else limit  # -1: no limit
        self._vigil_start = settings.vigil_start
        self._round_cap = settings.round_cap
        #: The hooks, decision kinds and conditions of these rules (resolved once).
        self._rules = Rulebook.of(self.content, settings)

    def clone(self) -> State:
        """An independent copy; applying options to it leaves this state unchanged."""
        return State(self.content, self.settings, _copy_of=self)

    def _copy_fields(self, src: State) -> None:
        """Every field of ``src``, the mutable ones copied (a compiled class has no
        ``__dict__`` to copy wholesale, so each field is named here: keep in step with
        ``__init__``)."""
        self.content = src.content
        self._settings = src._settings
        self._geometric_los = src._geometric_los
        self._no_damage_first = src._no_damage_first
        self._no_attack_first = src._no_attack_first
        self._vigil_reset_any = src._vigil_reset_any
        self._pool_killed = src._pool_killed
        self._regroup_limit = src._regroup_limit
        self._vigil_start = src._vigil_start
        self._round_cap = src._round_cap
        self._rules = src._rules
        self.geometry = src.geometry
        self._tables = src._tables
        self.board = src.board[:]
        self.ruins = src.ruins
        pieces: dict[int, Piece] = {}
        own: list[list[Piece]] = [[], []]
        for pid, p in src.pieces.items():
            p = p.copy()
            pieces[pid] = p
            own[p.owner].append(p)
        self.pieces = pieces
        self._own = own
        self.next_id = src.next_id
        self.factions = src.factions[:]
        self.secret_faction = src.secret_faction[:]
        self.hands = [src.hands[0][:], src.hands[1][:]]
        self.waiting = src.waiting
        self.dealt = src.dealt
        self.first = src.first
        self.rites = src.rites[:]
        self.rite_draft = src.rite_draft[:]
        self.relic_sq = src.relic_sq[:]
        self.relic_carrier = src.relic_carrier[:]
        self.pool = src.pool[:]
        self.regroups = src.regroups[:]
        self.spent = src.spent[:]
        self.placed = src.placed[:]
        self.vigil = src.vigil
        self.eventful = src.eventful
        self.rounds = src.rounds
        self.turns_taken = src.turns_taken[:]
        self.current = src.current
        self.played = src.played
        self.result = src.result
        self.stack = src.stack[:]
        self._options = None if src._options is None else src._options[:]
        self._trigger = src._trigger
        # Without modules the (empty, never written) dict is shared.
        modules = src.module_state
        self.module_state = {k: m.copy() for k, m in modules.items()} if modules else modules
        self._reduce_left = src._reduce_left
        self.hit_line = src.hit_line
        self.events = None

    # ------------------------------------------------------------------ keys
    def shared_key(self) -> tuple[object, ...]:
        """What both :meth:`key` and the AI's repetition key read: worked out once where
        both are needed (the search's turn starts)."""
        modules = self.module_state
        return (
            self.ruins, self.relic_sq[0], self.relic_sq[1],
            tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1])), self.waiting,
            self.vigil, self.eventful, self.current, self.played, self.first, self.rites[0],
            self.rites[1], self.pool[0], self.pool[1], self.spent[0], self.spent[1],
            self.factions[0], self.factions[1], tuple(self.stack), self.result,
            tuple([m.key() for m in modules.values()]) if modules else (),
        )

    def key(self, shared: tuple[object, ...] | None = None) -> int:
        """A hash of everything that decides the future of this state: equal keys, the
        same legal options and the same game from here (every field of
        :data:`POSITION_FIELDS` but ``next_id``, which only numbers the pieces still to
        come). ``shared``: its :meth:`shared_key`, if known.

        Each piece is one number (its fields packed into bits; a tuple of them when they
        do not fit, never equal to a number), and its conditions when it has any: this
        hashes as fast as the AI needs at every node of its search.
        """
        key: list[object] = [
            shared if shared is not None else self.shared_key(),
            self.relic_carrier[0], self.relic_carrier[1], self.rounds, self.turns_taken[0],
            self.turns_taken[1], tuple(self.rite_draft), self.secret_faction[0],
            self.secret_faction[1], self.placed[0], self.placed[1], self.dealt,
            self.regroups[0], self.regroups[1],  # VAR1: can_regroup reads them
        ]
        for p in self.pieces.values():
            if p.packs():
                key.append((((p.id << 10 | p.sq) << 8 | p.hp) << 8 | p.max_hp) << 12
                           | p.flags())
            else:
                key.append((p.id, p.sq, p.hp, p.max_hp, p.flags()))
            if p.conds:
                key.append(p.conds)
        return hash(tuple(key))

    # ------------------------------------------------------------------ public API
    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return self.result.winner if self.result else None

    @property
    def is_chance(self) -> bool:
        if not self.stack:
            return False
        kind = self.stack[-1][0]
        if kind == "deal" or kind == "roll":
            return True
        chance = self._rules.chance_kinds  # a module's chance kinds (M-MOD-8)
        return bool(chance) and kind in chance

    @property
    def current_player(self) -> int:
        """The player who takes the current decision, :data:`CHANCE`, or -1 when over."""
        if self.result is not None:
            return -1
        return self._decider(self.stack[-1])

    def legal_options(self) -> list[Option]:
        """The options of the current decision (a fresh list; empty when the game is over)."""
        if self.result is not None:
            return []
        if self._options is None:  # worked out lazily (see _NEVER_EMPTY)
            self._options = self._compute_options(self.stack[-1])
        return self._options[:]

    def decision(self) -> Decision:
        """The current decision: its kind, who takes it, and its options."""
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        options = tuple(self.legal_options())
        frame = self.stack[-1]
        kind = frame[0]
        probabilities: tuple[float, ...] = ()
        if self.is_chance:
            probabilities = tuple(p for _, p in self.chance_outcomes())
        subject = self._subject(frame)
        return Decision(
            kind=kind,
            player=self._decider(frame),
            options=options,
            piece=self.pieces[subject].sq if subject in self.pieces else -1,
            card=self.played if frame[0] not in SETUP_KINDS else None,
            probabilities=probabilities,
        )

    def chance_outcomes(self) -> list[tuple[Option, float]]:
        """The outcomes of the current chance decision with their probabilities."""
        if not self.is_chance:
            return []
        options = self.legal_options()
        frame = self.stack[-1]
        kind = self._rules.decisions.get(frame[0])
        if kind is not None:  # a module's chance: its own probabilities (M-MOD-8)
            return list(zip(options, kind.probabilities(self, frame, options), strict=True))
        return [(o, 1.0 / len(options)) for o in options]

    def apply(self, option: object) -> None:
        """Take an option of the current decision (a choice or a chance outcome).

        Raises :class:`IllegalOptionError` and changes nothing if the option is not one
        of :meth:`legal_options` (whatever its type: the compiled build checks types at
        the call, so ``option`` is typed ``object`` to give both builds the same error).
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        options = self._options if self._options is not None else self.legal_options()
        # The legal option equal to ``option``; a bool is no square or die face (True == 1).
        chosen: Option | None = None
        if type(option) is not bool:
            # Options are distinct values: the one that *is* the option (the usual case,
            # no compare at all) or else the one equal to it.
            for legal in options:
                if legal is option:
                    chosen = legal
                    break
            else:
                for legal in options:
                    if legal == option:
                        chosen = legal
                        break
        if chosen is None:
            frame = self.stack[-1]
            raise IllegalOptionError(
                f"{option!r} is not a legal option for the {frame[0]!r} decision of "
                f"{self._decider_name(frame)}; legal: {options!r}"
            )
        frame = self.stack.pop()
        self._options = None
        kind: str = frame[0]
        # The usual decisions of a turn called directly (compiled: a native call rather
        # than a call through the table, which has every kind).
        if kind == "play":
            _do_play(self, frame, chosen)
        elif kind == "mover":
            _do_mover(self, frame, chosen)
        elif kind == "destination":
            _do_destination(self, frame, chosen)
        elif kind == "attacker":
            _do_attacker(self, frame, chosen)
        elif kind == "target":
            _do_target(self, frame, chosen)
        else:
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, frame, chosen)
            else:
                self._rules.decisions[kind].apply(self, frame, chosen)
        self._queue_trigger()
        self._advance()

    def concede(self, loser: int, reason: Reason = "resign") -> None:
        """End the game with a loss for ``loser`` from outside the rules' own endings:
        ``"timeout"`` (their clock ran out, for front ends with clocks) or ``"resign"``.

        >>> from reliquary import new_game
        >>> state = new_game(seed=None)
        >>> state.concede(1, "timeout")
        >>> state.result.winner, state.result.reason
        (0, 'timeout')
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if loser not in (0, 1):
            raise ValueError(f"loser must be 0 (Key) or 1 (Skull), not {loser!r}")
        if reason not in CONCESSIONS:
            raise ValueError(f"reason must be one of {', '.join(CONCESSIONS)}, not {reason!r}")
        what = "ran out of time" if reason == "timeout" else "resigned"
        self._finish(Result(1 - loser, reason, detail=f"{PLAYER_NAMES[loser]} {what}"))

    def agree_draw(self) -> None:
        """End the game drawn because both players agreed to it (a front end's draw
        offer, accepted): reason ``"agreed"``, no winner.

        >>> from reliquary import new_game
        >>> state = new_game(seed=None)
        >>> state.agree_draw()
        >>> state.result.winner, state.result.reason
        (None, 'agreed')
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        self._finish(Result(None, "agreed", detail="drawn by agreement"))

    def trigger(self, frame: Frame) -> None:
        """Ask for a decision right after the step that is being resolved (D11: a Grave
        Tide return right after the kill that triggered it). Several in one step (a
        module's and a passive's) are asked in the order triggered."""
        pending = self._trigger
        if pending is None:
            self._trigger = frame
        elif pending[0] == _TRIGGERS:
            self._trigger = (*pending, frame)
        else:
            self._trigger = (_TRIGGERS, pending, frame)

    def _queue_trigger(self) -> None:
        frame = self._trigger
        if frame is not None:
            if self.result is None:
                if frame[0] == _TRIGGERS:  # the first triggered on top: decided first
                    self.stack.extend(reversed(frame[1:]))
                else:
                    self.stack.append(frame)
            self._trigger = None

    def _add_piece(self, piece: Piece) -> None:
        """Put a new piece on the board (its id not yet used)."""
        self.pieces[piece.id] = piece
        self._own[piece.owner].append(piece)
        self.board[piece.sq] = piece.id

    def _index_pieces(self) -> None:
        """Rebuild ``_own`` from ``pieces`` (after a position was written directly)."""
        self._own = [[p for p in self.pieces.values() if p.owner == player] for player in (0, 1)]

    # ------------------------------------------------------------------ queries
    def piece_at(self, sq: int) -> Piece | None:
        pid = self.board[sq]
        return self.pieces[pid] if pid >= 0 else None

    def is_ruin(self, sq: int) -> bool:
        return self.board[sq] == RUIN

    def carrier_of(self, relic_owner: int) -> Piece | None:
        """The piece carrying the relic of ``relic_owner``, if any."""
        pid = self.relic_carrier[relic_owner]
        return self.pieces[pid] if pid >= 0 else None

    def carried_relic(self, piece: Piece) -> int:
        """Whose relic this piece carries, or -1."""
        enemy = 1 - piece.owner
        return enemy if self.relic_carrier[enemy] == piece.id else -1

    def relic_square(self, relic_owner: int) -> int:
        """Where a relic is: on the ground or under its carrier; -1 before S7."""
        pid = self.relic_carrier[relic_owner]
        return self.pieces[pid].sq if pid >= 0 else self.relic_sq[relic_owner]

    def hero(self, player: int) -> Piece | None:
        for p in self._own[player]:
            if p.hero:
                return p
        return None

    def faction(self, player: int) -> Faction | None:
        fid = self.factions[player]
        return self._tables.factions[fid] if fid else None

    def line_for(self, card: Card | str, piece: Piece) -> AttackLine:
        """The attack line a piece uses with a card (T3): «Héroe:», «Esbirro:» or «Cualquiera:»."""
        return self._line(card if isinstance(card, str) else card.id, piece).source

    def _line(self, card_id: str, piece: Piece) -> _Line:
        return self._lines(card_id, piece.owner)[0 if piece.hero else 1]

    def _lines(self, card_id: str, player: int) -> tuple[_Line, _Line]:
        """The (Hero, Minion) lines of a card for a player's pieces."""
        lines = self._tables.card(card_id).lines
        if lines is None:  # a generic card: the faction's lines
            return self._faction_lines(player)
        return lines

    def _faction_lines(self, player: int) -> tuple[_Line, _Line]:
        """The (Hero, Minion) lines of a player's faction: those of the generic cards (T3)."""
        return self._tables.faction_lines[self.factions[player] or ""]

    def first_turn(self, player: int) -> bool:
        return self.turns_taken[player] == 0

    # ------------------------------------------------------------------ the machine
    def _decider(self, frame: Frame) -> int:
        kind = frame[0]
        if kind in ("deal", "roll"):
            return CHANCE
        if kind in SETUP_KINDS or kind == "grave_return":
            return int(frame[1])
        decisions = self._rules.decisions
        if decisions and kind in decisions:
            module_kind = decisions[kind]
            return CHANCE if module_kind.chance else module_kind.player(self, frame)
        return self.current

    def _decider_name(self, frame: Frame) -> str:
        p = self._decider(frame)
        return "chance" if p == CHANCE else PLAYER_NAMES[p]

    def _subject(self, frame: Frame) -> int:
        """The piece id a turn decision is about, or -1."""
        if frame[0] in _SUBJECT_KINDS:
            return int(frame[1])
        kind = self._rules.decisions.get(frame[0])
        return kind.subject(frame) if kind is not None else -1

    def _advance(self) -> None:
        """Resolve what needs no choice; stop at the next decision with options."""
        while self.result is None and self.stack:
            frame = self.stack[-1]
            kind: str = frame[0]
            if kind == "end_turn":  # the usual automatic step, called directly
                self.stack.pop()
                self._end_turn()
                self._queue_trigger()
                continue
            # Options are worked out only when asked for. The usual decisions of a turn
            # by name first (compiled: a string compare costs less than the set lookup).
            if (kind == "play" or kind == "mover" or kind == "destination"
                    or kind == "attacker" or kind == "target" or kind in _NEVER_EMPTY):
                self._options = None
                return
            auto = None if kind == "lantern_step" else _AUTO.get(kind)  # (each turn)
            if auto is not None:
                self.stack.pop()
                auto(self, frame)
                self._queue_trigger()  # an automatic push (Gale) can kill too
                continue
            module_kind = self._rules.decisions.get(kind)
            if module_kind is not None and module_kind.automatic:
                self.stack.pop()
                module_kind.run(self, frame)
                self._queue_trigger()
                continue
            options = self._compute_options(frame)
            if options:
                self._options = options
                return
            self.stack.pop()  # nothing possible (e.g. no step): that part is skipped
        self._options = None

    def _compute_options(self, frame: Frame) -> list[Option]:
        kind: str = frame[0]
        # The usual decisions of a turn called directly (as in apply).
        if kind == "play":
            return _opt_play(self, frame)
        if kind == "mover":
            return _opt_mover(self, frame)
        if kind == "destination":
            return _opt_destination(self, frame)
        if kind == "lantern_step":
            return _opt_lantern_step(self, frame)
        if kind == "attacker":
            return _opt_attacker(self, frame)
        if kind == "target":
            return _opt_target(self, frame)
        options = _OPTIONS.get(kind)
        if options is not None:
            return options(self, frame)
        return self._rules.decisions[kind].options(self, frame)

    # ------------------------------------------------------------------ board primitives
    def _emit(self, kind: str, piece: Piece | None = None, **data: Any) -> None:
        if piece is not None:
            data.update(piece=piece.id, owner=piece.owner, hero=piece.hero, square=piece.sq)
        assert self.events is not None
        self.events.append(Event(kind, data))

    def _empty_steps(self, sq: int) -> list[int]:
        board = self.board
        return [n for n in self.geometry.neighbours[sq] if board[n] == EMPTY]

    def _steps_of(self, piece: Piece) -> list[int]:
        """Where a piece may step (G3); none while veiled (D12) or otherwise banned."""
        if piece.bans & NO_STEP:
            return []
        return self._empty_steps(piece.sq)

    def _place_new(self, owner: int, sq: int, hero: bool = False, harrowed: bool = False) -> Piece:
        """Place a piece: it picks nothing up (RL5)."""
        hp = 1
        if hero:
            faction = self.faction(owner)
            hp = faction.hero_hp if faction else 4
        piece = Piece(self.next_id, owner, hero, hp, sq, harrowed)
        self.next_id += 1
        self._add_piece(piece)
        if self.events is not None:
            self._emit("place", piece, harrowed=harrowed)
        return piece

    def _relocate(self, piece: Piece, to: int, by_enemy: bool) -> None:
        """Move a piece to an empty square, dropping (RL3) and picking up (RL1) relics."""
        frm = piece.sq
        if by_enemy:
            relic = 1 - piece.owner
            if self.relic_carrier[relic] == piece.id:
                self.relic_carrier[relic] = -1
                self.relic_sq[relic] = frm
                self.eventful = True
                if self.events is not None:
                    self._emit("drop", relic=relic, square=frm)
        self.board[frm] = EMPTY
        self.board[to] = piece.id
        piece.sq = to
        if self._rules.arrived:  # RL1–RL3 extended by modules, before RL1's relic pickup
            for h in self._rules.arrived:
                h.arrived(self, piece, frm, by_enemy)
        self._arrive(piece)

    def _arrive(self, piece: Piece) -> None:
        """RL1: ending on the enemy relic's square picks it up."""
        relic = 1 - piece.owner
        if self.relic_carrier[relic] < 0 and self.relic_sq[relic] == piece.sq and not (
                self._rules.holds and self.holds_module_item(piece)):
            self.relic_carrier[relic] = piece.id
            self.relic_sq[relic] = -1
            self.eventful = True
            if self.events is not None:
                self._emit("pickup", piece, relic=relic)
            if self._rules.picked_up:
                for h in self._rules.picked_up:
                    h.picked_up(self, piece, relic)

    def _step(self, piece: Piece, to: int) -> None:
        piece.stepped = True
        if self.events is not None:
            self._emit("step", piece, to=to)
        self._relocate(piece, to, by_enemy=False)

    def _swap(self, a: Piece, b: Piece) -> None:
        """G4, by the pieces' own side: each keeps its relic (RL2)."""
        if self.events is not None:
            self._emit("swap", a, other=b.id, to=b.sq)
        a.sq, b.sq = b.sq, a.sq
        self.board[a.sq] = a.id
        self.board[b.sq] = b.id
        self._arrive(a)
        self._arrive(b)
        if self._rules.arrived:  # RL2: each keeps what it carries
            for h in self._rules.arrived:
                h.arrived(self, a, b.sq, False)
                h.arrived(self, b, a.sq, False)

    def _damage(self, piece: Piece, amount: int, crush: bool = False) -> None:
        """Deal damage (G11), unless prevented (T8 first turn, K-Aegis); within a hit,
        less what is left of its reductions (M-MOD-9 step 4)."""
        if amount <= 0:
            return
        prevented = ("aegis" if piece.bans & PREVENT_DAMAGE else "first_turn"
                     if self._no_damage_first and self.turns_taken[self.current] == 0 else "")
        if not prevented and self._reduce_left > 0:
            cut = min(amount, self._reduce_left)
            self._reduce_left -= cut
            amount -= cut
            if self.events is not None:
                self._emit("reduced", piece, by=cut)
            for h in self._rules.reduced:
                h.reduced(self, piece, cut)
            if amount <= 0:
                return
        self._lose_hp(piece, amount, crush, prevented)

    def _lose_hp(self, piece: Piece, amount: int, crush: bool, prevented: str) -> None:
        """The damage event, then (unless ``prevented``) the HP lost, V1 and the kill."""
        if self.events is not None:
            self._emit("damage", piece, amount=amount, crush=crush, prevented=prevented,
                       hp=piece.hp if prevented else max(0, piece.hp - amount))
        if prevented:
            return
        piece.hp -= amount
        if piece.hero or self._vigil_reset_any:  # V1; VAR2: Heroes only
            self.eventful = True
        if self._rules.on_damage:
            for h in self._rules.on_damage:
                h.on_damage(self, piece, amount, crush)
        if piece.hp <= 0:
            self._kill(piece)

    def deal_damage(self, piece: Piece, amount: int, preventable: bool = True) -> None:
        """Damage that is not a hit (M-MOD-9), for module rules: a condition's tick, say.
        ``preventable``: whether K-Aegis and T8 prevent it; no reduction applies."""
        if not preventable:
            if amount > 0:
                self._lose_hp(piece, amount, False, "")
            return
        left, self._reduce_left = self._reduce_left, -1
        self._damage(piece, amount)
        self._reduce_left = left

    def _begin_hit(self, attacker: Piece, target: Piece, damage: int) -> int:
        """M-MOD-9 steps 1 and 4 for a hit on ``target``: the line damage with the
        modules' bonuses, and the reductions the hit's damage will meet."""
        rules = self._rules
        self.hit_line = damage
        for h in rules.hit_bonus:
            damage += h.hit_bonus(self, attacker, target)
        # Sundering (M-GLORY-41): the hit meets no reduction.
        self._reduce_left = (0 if attacker.bans & IGNORES_REDUCTIONS
                             else self._reductions(target))
        return max(0, damage)

    def _push_bonus(self, attacker: Piece) -> int:
        """Squares the modules add to ``attacker``'s pushes and pulls (M-GLORY-41)."""
        bonus = 0
        for h in self._rules.push_bonus:
            bonus += h.push_bonus(self, attacker)
        return bonus

    def _reductions(self, piece: Piece) -> int:
        """M-MOD-9 step 4: how much the modules reduce damage to ``piece``."""
        reduce = 0
        for h in self._rules.reduction:
            reduce += h.reduction(self, piece)
        return reduce

    def _end_hit(self, attacker: Piece, target: Piece, card: str) -> None:
        self._reduce_left = -1
        if self.result is None:
            for h in self._rules.after_hit:
                h.after_hit(self, attacker, target, card)

    def strike(self, attacker: Piece, target: Piece, line: _Line, card: str) -> None:
        """One hit of a strike: damage, then push or pull (G8), crush joining the hit (G7)."""
        _strike(self, attacker, target, line, card)

    def ordeal_hit(self, attacker: Piece, target: Piece, damage: int, self_damage: int,
                   card: str) -> None:
        """K-Ordeal's roll: damage to the target (a hit unless a miss, M-MOD-9), then the
        attacker's own damage (M-MOD-D2: no bonus; prevention and reductions apply)."""
        shaped = self._rules.shapes_hits and damage > 0
        if shaped:
            damage = self._begin_hit(attacker, target, damage)
        self._damage(target, damage)
        if shaped:
            self._end_hit(attacker, target, card)
        if self.result is None and attacker.id in self.pieces and self_damage:
            if self._rules.reduction:
                self._reduce_left = self._reductions(attacker)
            self._damage(attacker, self_damage)
            self._reduce_left = -1

    def add_base_condition(self, piece: Piece, name: str) -> None:
        """K-Veil or K-Aegis on ``piece``, with its event of the same name."""
        piece.set_condition(BASE_CONDITIONS[name], True)
        if self.events is not None:
            self._emit(name, piece)

    def _target_held(self, attacker: Piece, target: Piece, card: str, first: bool) -> bool:
        """Whether a module holds back the effect on a declared target (M-COND-51)."""
        for h in self._rules.target_declared:
            if h.target_declared(self, attacker, target, card, first):
                return True
        return False

    def resume_target(self, attacker: Piece, target: Piece, card: str, first: bool) -> None:
        """The effect on a target a module held back (:meth:`Hooks.target_declared`): the
        line's effect on the first target, or the strike on the second."""
        line = self._line(card, attacker)
        if first:
            line.impl.on_target(self, attacker, target, line, card)
        else:
            _strike(self, attacker, target, line, card)

    def remove_ruin(self, sq: int) -> None:
        """A Ruin leaves the board (Desecration)."""
        self.ruins &= ~(1 << sq)
        self.board[sq] = EMPTY
        if self.events is not None:
            self._emit("ruin_removed", square=sq)
        for h in self._rules.ruin_removed:
            h.ruin_removed(self, sq)

    def holds_module_item(self, piece: Piece) -> bool:
        """Whether a module says ``piece`` carries something of its own (RL2 extended)."""
        return any(h.holds(self, piece) for h in self._rules.holds)

    def remove_piece(self, piece: Piece) -> None:
        """Take a piece off the board without a kill: no drop, no pool (a module rule
        that replaces a piece, M-KEEP-20). It must carry no relic."""
        self.board[piece.sq] = EMPTY
        del self.pieces[piece.id]
        self._own[piece.owner].remove(piece)
        if self.events is not None:
            self._emit("removed", piece)

    def is_spent(self, player: int, passive: str) -> bool:
        """Whether ``player`` has used the once-per-game passive called ``passive``."""
        return bool(self.spent[player] & PASSIVES[passive].mark)

    def interact_actions(self, player: int) -> list[str]:
        """M-MOD-3: the INTERACT actions ``player`` can complete now (none without
        modules), in the modules' order."""
        actions: list[str] = []
        for h in self._rules.interact:
            actions.extend(h.interact_actions(self, player))
        return actions

    def add_condition(self, piece: Piece, name: str, value: int = 0) -> None:
        """Give ``piece`` the condition ``name`` (replacing it if it has it), stamped with
        the turn it was gained in (M-MOD-3)."""
        cond = self._rules.conditions[name]
        piece.set_condition(cond, True, value, self.turns_taken[0] + self.turns_taken[1])
        if self.events is not None:
            self._emit("condition", piece, condition=name, value=value)

    def remove_condition(self, piece: Piece, name: str) -> None:
        if piece.has(name):
            piece.set_condition(self._rules.conditions[name], False)
            if self.events is not None:
                self._emit("condition_end", piece, condition=name)

    def _kill(self, piece: Piece) -> None:
        sq = piece.sq
        relic = 1 - piece.owner
        if self.events is not None:
            self._emit("kill", piece)
        if self.relic_carrier[relic] == piece.id:  # RL3: dropped where it dies
            self.relic_carrier[relic] = -1
            self.relic_sq[relic] = sq
            self.eventful = True
            if self.events is not None:
                self._emit("drop", relic=relic, square=sq)
        self.board[sq] = EMPTY
        del self.pieces[piece.id]
        owner = piece.owner
        self._own[owner].remove(piece)
        if piece.hero:  # V3, D18: at once, even mid-effect
            self._finish(Result(1 - owner, "hero_killed",
                                detail=f"{PLAYER_NAMES[owner]} Hero killed at "
                                       f"{self.geometry.name(sq)}"))
            return
        for h in self._rules.on_kill:
            h.on_kill(self, piece)
        if piece.harrowed or piece.bans & OBJECT:  # D10: removed; an object: no Minion
            return
        fid = self.factions[owner]
        if fid is not None and self._tables.passives[fid].takes_killed(self, piece):
            pass  # Grave Tide (D11, D23): as card text (T7), under VAR4's `removed` too
        elif self._pool_killed:  # G11; VAR4: else it leaves the game
            self.pool[owner] += 1

    def _push(self, attacker_sq: int, piece: Piece, amount: int, pull: bool) -> bool:
        """Push or pull (G6, D15). Returns True if the target was crushed (G7)."""
        if piece.bans & PREVENT_PUSH:  # D13: nothing happens, not even crush
            if self.events is not None:
                self._emit("push", piece, pull=pull, to=piece.sq, prevented="aegis")
            return False
        if piece.bans & PINNED:  # it never moves: crushed where it stands
            if self.events is not None:
                self._emit("push", piece, pull=pull, to=piece.sq, prevented="")
            return True
        geo = self.geometry
        n = geo.size
        dx = piece.sq % n - attacker_sq % n
        dy = piece.sq // n - attacker_sq // n
        ddx, ddy = nearest_direction(dx, dy)
        if pull:
            ddx, ddy = -ddx, -ddy
        sq, moved = piece.sq, 0
        while moved < amount:
            if pull and geo.distance(sq, attacker_sq) <= 1:
                break
            nxt = geo.offset(sq, ddx, ddy)
            if nxt < 0 or self.board[nxt] != EMPTY:
                break
            sq, moved = nxt, moved + 1
        if self.events is not None:
            self._emit("push", piece, pull=pull, to=sq, prevented="")
        if moved == 0:
            return True
        self._relocate(piece, sq, by_enemy=True)
        return False

    def can_regroup(self, player: int) -> bool:
        """T4: whether REGROUP could bring one of ``player``'s killed Minions back now (one
        waits in the pool, a square of their back row is empty, and VAR1 leaves a regroup)."""
        limit = self._regroup_limit
        return (self.pool[player] > 0
                and (self._has_empty_back_row(player) or bool(
                    self._rules.regroup_squares and self._regroup_extra(player)))
                and (limit < 0 or self.regroups[player] < limit))

    def _regroup_extra(self, player: int) -> list[int]:
        """Empty squares the modules add to REGROUP's back row (M-KEEP-23), sorted."""
        extra: set[int] = set()
        for h in self._rules.regroup_squares:
            extra.update(h.regroup_squares(self, player))
        return sorted(sq for sq in extra if sq not in self._tables.back_row[player])

    def _has_empty_back_row(self, player: int) -> bool:
        """Whether :meth:`_empty_back_row` would find any (no list made)."""
        board = self.board
        return any(board[sq] == EMPTY for sq in self._tables.back_row[player])

    def _empty_back_row(self, player: int) -> list[int]:
        board = self.board
        return [sq for sq in self._tables.back_row[player] if board[sq] == EMPTY]

    def _finish(self, result: Result) -> None:
        if self.events is not None:
            self._emit("result", winner=result.winner, reason=result.reason,
                       scores=result.scores, detail=result.detail)
        self.result = result
        self.stack.clear()
        self._options = None

    # ------------------------------------------------------------------ line of sight
    def has_los(self, a: int, b: int, strict: bool = False) -> bool:
        """G5 / option ``los=straight``, with RL4's carrier exception unless ``strict``.

        The exception is for enemy carriers only (D20): callers aiming at a friendly
        piece (Passage, the Hollow Kin swap) or with Hook pass ``strict``.
        """
        target = self.board[b]
        carrier = (not strict and target >= 0
                   and (self.relic_carrier[0] == target or self.relic_carrier[1] == target))
        board = self.board
        if self._geometric_los:  # no Ruin between (board[sq] == RUIN: the bits of ruins)
            return carrier or not any(board[sq] == RUIN
                                      for sq in self.geometry.between_squares(a, b))
        squares = self.geometry.straight_squares(a, b)
        if squares is None:
            return False
        for sq in squares:
            v = board[sq]
            if v >= 0 or (v == RUIN and not carrier):
                if v >= 0 and self.pieces[v].bans & OBJECT:  # an object blocks no LoS
                    continue
                return False
        return True

    # ------------------------------------------------------------------ attack geometry
    def _targets(self, attacker: Piece, sq: int, line: _Line) -> list[int]:
        """Squares of legal targets for a targeted line from square sq."""
        geo, board, pieces = self.geometry, self.board, self.pieces
        friendly = line.friendly  # D9: enemies unless the text says friendly
        shun = line.shuns_objects
        out = []
        if line.melee:
            for n in geo.neighbours[sq]:
                pid = board[n]
                if pid >= 0 and pid != attacker.id and (pieces[pid].owner == attacker.owner) \
                        == friendly and not (shun and pieces[pid].bans & OBJECT):
                    out.append(n)
            return out
        dist, base = geo.dist, sq * geo.area
        for p in self._candidates(attacker, friendly):
            if shun and p.bans & OBJECT:
                continue
            if p is not attacker and dist[base + p.sq] <= line.range and (
                not line.los or self.has_los(sq, p.sq, line.strict)
            ):
                out.append(p.sq)
        out.sort()
        return out

    def _has_target(self, attacker: Piece, sq: int, line: _Line) -> bool:
        """Whether :meth:`_targets` would find any (stops at the first: T6 checks). A melee
        line's neighbours are the pieces in range 1 here, with no line of sight to check."""
        geo = self.geometry
        dist, base = geo.dist, sq * geo.area
        shun = line.shuns_objects
        for p in self._candidates(attacker, line.friendly):
            if shun and p.bans & OBJECT:
                continue
            if p is not attacker and dist[base + p.sq] <= line.range and (
                not line.los or self.has_los(sq, p.sq, line.strict)
            ):
                return True
        return False

    def _candidates(self, attacker: Piece, friendly: bool) -> list[Piece]:
        """The pieces a line may target: the attacker's side if friendly, else the enemy's
        (the attacker itself is the caller's to skip)."""
        return self._own[attacker.owner if friendly else 1 - attacker.owner]

    def _adjacent_enemies(self, owner: int, sq: int) -> list[int]:
        board, pieces = self.board, self.pieces
        return [n for n in self.geometry.neighbours[sq]
                if (pid := board[n]) >= 0 and pieces[pid].owner != owner]

    def _has_adjacent_enemy(self, owner: int, sq: int) -> bool:
        """Whether an enemy of ``owner`` stands next to sq. It reads the enemies' squares,
        not the board: a piece of ``owner`` stepping away (a lunge, Gale's step) leaves
        the answer unchanged."""
        dist, base = self.geometry.dist, sq * self.geometry.area
        return any(dist[base + p.sq] == 1 for p in self._own[1 - owner])

    def _lunges(self, attacker: Piece, line: _Line) -> list[int]:
        """D8: squares the attacker may lunge to, keeping the attack legal."""
        if not line.adjacent or attacker.bans & NO_STEP:
            return []
        board = self.board
        return [n for n in self.geometry.neighbours[attacker.sq]
                if board[n] == EMPTY and self._has_adjacent_enemy(attacker.owner, n)]

    def _has_lunge(self, attacker: Piece, line: _Line) -> bool:
        """Whether :meth:`_lunges` would find any (stops at the first: T6 checks)."""
        if not line.adjacent or attacker.bans & NO_STEP:
            return False
        board = self.board
        for n in self.geometry.neighbours[attacker.sq]:
            if board[n] == EMPTY and self._has_adjacent_enemy(attacker.owner, n):
                return True
        return False

    def _gale_steps(self, attacker: Piece) -> list[int]:
        """Gale's step: mandatory when possible; only to squares next to an enemy."""
        return [n for n in self._steps_of(attacker)
                if self._has_adjacent_enemy(attacker.owner, n)]

    def _attack_legal(self, piece: Piece, line: _Line, near: int = -1) -> bool:
        """T6: an attack is legal only if its effect can be completed. ``near``: the
        distance from the piece to the nearest enemy (:meth:`_enemy_distance`), if known."""
        if piece.bans & NO_ATTACK:  # a condition or an object: never the attacker
            return False
        if line.always_legal:  # aegis, rapture
            return True
        if near < 0:
            near = self._enemy_distance(piece)
        # Cheap rejections first.
        if line.needs_enemy_near:  # gale, or an adjacent line
            if near > (1 if piece.bans & NO_STEP else 2):  # no enemy within a step and a hit
                return False
        elif not line.friendly and near > line.range:  # no enemy within range
            return False
        if line.gale:
            if self._steps_of(piece):
                return bool(self._gale_steps(piece))
            return self._has_adjacent_enemy(piece.owner, piece.sq)
        return self._has_target(piece, piece.sq, line) or self._has_lunge(piece, line)

    def _enemy_distance(self, piece: Piece) -> int:
        """The distance from a piece to the nearest enemy (the board's area if none)."""
        geo = self.geometry
        dist, base = geo.dist, piece.sq * geo.area
        nearest = geo.area
        for p in self._own[1 - piece.owner]:
            d = dist[base + p.sq]
            if d < nearest:
                nearest = d
        return nearest

    def _attacker_squares(self, card_id: str) -> list[Option]:
        """The squares of the pieces that can attack with the card (T6), sorted (the
        attacker decision's options as they are)."""
        hero_line, minion_line = self._lines(card_id, self.current)
        squares: list[Option] = [p.sq for p in self._own[self.current]
                   if self._attack_legal(p, hero_line if p.hero else minion_line)]
        squares.sort()
        return squares

    def _can_attack(self, lines: tuple[_Line, _Line], near: list[int]) -> bool:
        """T6: whether some piece of the current player can attack with a card's (Hero,
        Minion) lines; ``near[i]``: the :meth:`_enemy_distance` of the i-th piece."""
        hero_line, minion_line = lines
        for i, p in enumerate(self._own[self.current]):
            if self._attack_legal(p, hero_line if p.hero else minion_line, near[i]):
                return True
        return False

    def _can_move(self, card_id: str) -> bool:
        """T6: whether some piece of the current player can MOVE with the card."""
        return self._can_move_with(self._tables.card(card_id).moves[self.current])

    def _can_move_with(self, table: tuple[tuple[int, ...], ...]) -> bool:
        """:meth:`_can_move` given the card's MOVE table for the current player."""
        board = self.board
        for p in self._own[self.current]:
            if not p.bans & NO_MOVE:
                for d in table[p.sq]:
                    if board[d] == EMPTY:
                        return True
        return False

    def _mover_squares(self, card_id: str) -> list[Option]:
        """The squares of the pieces that can MOVE with the card, sorted (the mover
        decision's options as they are)."""
        table = self._tables.card(card_id).moves[self.current]
        board = self.board
        squares: list[Option] = [p.sq for p in self._own[self.current]
                   if not p.bans & NO_MOVE and any(board[d] == EMPTY for d in table[p.sq])]
        squares.sort()
        return squares

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self, player: int) -> None:
        self.current = player
        self.played = None
        for p in self._own[player]:
            if p.conds:  # K-Aegis and the like last until the start of your next turn
                p.expire(AT_OWNER_TURN_START, 1 << 30)
        rules = self._rules
        if rules.turn_start:
            for h in rules.turn_start:
                h.turn_start(self, player)
        if rules.turn_steps:
            self.stack = [_END_TURN, _LANTERN_STEP, _TURN_END_STEPS, _PLAY]
        else:
            self.stack = [_END_TURN, _LANTERN_STEP, _PLAY]  # (a list display: no copy call)

    def _end_turn(self) -> None:
        player = self.current
        # V3 (D18): after the end-of-turn passive.
        carrier = self.carrier_of(1 - player)
        if carrier is not None and self.geometry.rank_from_back(player, carrier.sq) == 0:
            self._finish(Result(player, "relic_home",
                                detail=f"{PLAYER_NAMES[player]} brought the relic home to "
                                       f"{self.geometry.name(carrier.sq)}"))
            return
        if self._rules.after_relic_home:  # T3 after V3, and T4 (M-MOD-4)
            self.stack.append(_END_TURN_REST)
            for h in self._rules.after_relic_home:
                h.after_relic_home(self, player)
            return
        self._end_turn_rest()

    def _end_turn_rest(self) -> None:
        """T5 (the card exchange, then the expiry of the owner's-turn conditions) and T6."""
        player = self.current
        if self.played is not None:  # T1: the played card waits; take the old one
            hand = self.hands[player]
            hand.remove(self.played)
            if self.waiting is not None:
                hand.append(self.waiting)
            self.waiting = self.played
        turn = self.turns_taken[0] + self.turns_taken[1]
        for p in self._own[player]:
            p.stepped = False
            if p.conds:  # K-Veil and the like: the owner's next turn is over
                p.expire(AT_OWNER_TURN_END, turn)
        for p in self._own[1 - player]:
            p.stepped = False
        self.turns_taken[player] += 1
        if player != self.first:
            if self._rules.round_steps:  # R1–R2 may ask for decisions (M-MOD-4, M-MOD-7)
                self.stack = [("next_turn", 1 - player), _ROUND_CLOSE]
                for h in self._rules.round_end:
                    h.round_end(self)
                    if self.result is not None:
                        break
                return
            self._end_round()
            if self.result is not None:
                return
        self._start_turn(1 - player)

    def _end_round(self) -> None:
        """V1, D7: the Vigil at the end of each round; V2 at 0; D19 cap."""
        self.rounds += 1
        if self.eventful:
            self.vigil = self._vigil_start  # V1; VAR3
        else:
            self.vigil -= 1
        self.eventful = False
        if self.events is not None:
            self._emit("vigil", value=self.vigil, round=self.rounds)
        if self._rules.after_vigil:  # R4 (M-MOD-4): may ask for decisions, then R5
            self.stack.append(("round_checks",))
            for h in self._rules.after_vigil:
                h.after_vigil(self)
            return
        self._round_checks()

    def _round_checks(self) -> None:
        """R5 (M-MOD-4): the Vigil at 0, a module's last phase, the round cap."""
        ends = self._rules.ends_game
        if self.vigil <= 0 or (ends and any(h.ends_game(self) for h in ends)):
            self._finish(self.vigil_result())
        elif self.rounds >= self._round_cap:
            self._finish(Result(None, "round_cap",
                                detail=f"no result after {self.rounds} rounds (D19)"))

    def vigil_scores(self) -> tuple[int, int]:
        """V2, D6: +1 per own carrier in the enemy half, −1 per carrier in one's own half."""
        scores = [0, 0]
        for relic in (0, 1):
            carrier = self.carrier_of(relic)
            if carrier is None:
                continue
            half = self.geometry.half_of(carrier.sq)
            if half == relic:
                scores[carrier.owner] += 1
            elif half == carrier.owner:
                scores[carrier.owner] -= 1
        return scores[0], scores[1]

    def vigil_result(self) -> Result:
        """V2: the result if the Vigil ran out now (scores, then Hero damage, then Minions);
        with modules, their counts first (M-MOD-5: the reason is then ``points``)."""
        verdict = self._module_verdict()
        if verdict is not None:
            return Result(verdict[0], "points", self.vigil_scores(), verdict[1])
        winner, why = self.vigil_verdict()
        return Result(winner, "vigil", self.vigil_scores(), why)

    def vigil_leader(self) -> int | None:
        """V2: who would win if the Vigil ran out now (None: tied on every count), as
        :meth:`vigil_result` says, without making the Result (the AI asks at every leaf)."""
        verdict = self._module_verdict()
        return verdict[0] if verdict is not None else self.vigil_verdict()[0]

    def _module_verdict(self) -> tuple[int | None, str] | None:
        """M-MOD-5: the first module count that decides, in the modules' order."""
        for h in self._rules.verdict:
            verdict = h.verdict(self)
            if verdict is not None:
                return verdict
        return None

    def vigil_verdict(self) -> tuple[int | None, str]:
        """V2: who would win if the Vigil ran out now, and on which count (the Result's
        detail): Vigil scores, then Hero damage, then Minions (:data:`BY_MINIONS`)."""
        scores = self.vigil_scores()
        if scores[0] != scores[1]:
            return int(scores[1] > scores[0]), "higher Vigil score"
        heroes = [self.hero(0), self.hero(1)]
        damage = [hero.max_hp - hero.hp if hero else 99 for hero in heroes]
        if damage[0] != damage[1]:
            return int(damage[1] < damage[0]), "less damage to the Hero"
        minions = [sum(1 for p in self._own[player] if not p.hero and not p.bans & OBJECT)
                   for player in (0, 1)]
        if minions[0] != minions[1]:
            return int(minions[1] > minions[0]), BY_MINIONS
        return None, "tied on every count"

    def _begin_game(self) -> None:
        self._start_turn(self.first)


#: The detail of a V2 verdict decided by its last count, the Minions on the board.
BY_MINIONS: Final = "more Minions"

#: Every field of a :class:`State`, declared once. ``POSITION_FIELDS`` are what a
#: position is: clone copies them, serialize writes them, :meth:`State.key` hashes them
#: and the environments encode them (``tests/engine/test_fields.py`` fails when one of
#: these leaves any of them out). ``RULES_FIELDS`` follow from the content and
#: settings, shared by clones; ``SCRATCH_FIELDS`` live within one apply (or record
#: events) and are not part of the position.
POSITION_FIELDS: Final = (
    "board", "ruins", "pieces", "next_id", "factions", "secret_faction", "hands",
    "waiting", "dealt", "first", "rites", "rite_draft", "relic_sq", "relic_carrier", "pool",
    "regroups", "spent", "placed", "vigil", "eventful", "rounds", "turns_taken",
    "current", "played", "result", "stack", "module_state",
)
RULES_FIELDS: Final = (
    "content", "_settings", "_geometric_los", "_no_damage_first", "_no_attack_first",
    "_vigil_reset_any", "_pool_killed", "_regroup_limit", "_vigil_start", "_round_cap",
    "_rules", "geometry", "_tables", "_own",
)
SCRATCH_FIELDS: Final = ("_options", "_trigger", "_reduce_left", "hit_line", "events")
#: Every field of a :class:`Piece` (``conds`` and ``bans``: its conditions, M-MOD-3).
PIECE_FIELDS: Final = ("id", "owner", "hero", "hp", "max_hp", "sq", "harrowed", "stepped",
                       "conds", "bans")


# Decisions that always have options when they come up: a play can always at least
# pass (T6), and the rest were checked legal (T6) before their frame was pushed.
_NEVER_EMPTY: Final = SETUP_KINDS | {"deal", "roll", "play", "mover", "destination",
                                      "attacker", "target", "gale_push", "grave_return",
                                      "regroup", "rite_effect"}
_SUBJECT_KINDS: Final = frozenset({"destination", "lunge", "target", "second_target",
                                   "gale_step", "gale_push", "rapture_step", "after_step",
                                   "kill_step", "swap"})


# ====================================================================== setup (S1–S7)
def _opt_ruin(s: State, frame: Frame) -> list[Option]:
    board = s.board
    return [sq for sq in s._tables.ruin_squares if board[sq] == EMPTY]


def _do_ruin(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    for r in (sq, s.geometry.mirror(sq)):
        s.board[r] = RUIN
        s.ruins |= 1 << r
    player, pairs_left = frame[1], frame[2] - 1
    s.stack.append(("ruin", 1 - player, pairs_left) if pairs_left else ("faction", 0))


def _opt_faction(s: State, frame: Frame) -> list[Option]:
    return [f.id for f in s.content.factions]


def _do_faction(s: State, frame: Frame, fid: Option) -> None:
    assert isinstance(fid, str)
    player: int = frame[1]
    s.secret_faction[player] = fid
    if player == 0:
        s.stack.append(("faction", 1))
        return
    if s.secret_faction[0] == s.secret_faction[1]:  # S3: a clash, both choose again
        if s.events is not None:
            s._emit("faction_clash", faction=fid)
        s.secret_faction = [None, None]
        s.stack.append(("faction", 0))
        return
    s.factions = s.secret_faction[:]
    s.secret_faction = [None, None]
    if s.events is not None:
        s._emit("factions", factions=tuple(s.factions))
    s.stack.append(("deal",))


def _opt_deal(s: State, frame: Frame) -> list[Option]:
    dealt = {*s.hands[0], *s.hands[1]}
    return [c for c in s._tables.card_ids if c not in dealt]


def _do_deal(s: State, frame: Frame, card: Option) -> None:
    assert isinstance(card, str)
    hand_size = s.content.hand_size
    if s.dealt < 2 * hand_size:
        s.hands[s.dealt // hand_size].append(card)
    else:
        s.waiting = card
    s.dealt += 1
    if s.dealt <= 2 * hand_size:
        s.stack.append(("deal",))
        return
    # S4: the waiting card's seal names the first player; the Vigil starts at 6.
    s.first = 0 if s._tables.cards[card].seal == "key" else 1
    if s.events is not None:
        s._emit("first", player=s.first, card=card)
    s.vigil = s._vigil_start  # S4; VAR3
    s.stack.append(("rite", 1 - s.first))


def _opt_rite(s: State, frame: Frame) -> list[Option]:
    return list(s.rite_draft)


def _do_rite(s: State, frame: Frame, rite: Option) -> None:
    assert isinstance(rite, str)
    player: int = frame[1]
    s.rites[player] = rite
    s.rite_draft.remove(rite)
    if player != s.first:
        s.stack.append(("rite", s.first))
    else:
        s.rite_draft.clear()  # D5: the rest are out of the game
        s.stack.append(("deploy", s.first))


def _opt_deploy(s: State, frame: Frame) -> list[Option]:
    board = s.board
    player: int = frame[1]
    return [sq for sq in s._tables.deploy[player] if board[sq] == EMPTY]


def _do_deploy(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    player: int = frame[1]  # typed (frames hold Any): compiled, native int operations
    minions = s._tables.row.minions
    s._place_new(player, sq, hero=s.placed[player] == minions)
    s.placed[player] += 1
    other = 1 - player
    if s.placed[other] <= minions:
        s.stack.append(("deploy", other))
    elif s.placed[player] <= minions:
        s.stack.append(("deploy", player))
    else:
        s.stack.append(("relic", s.first))


def _opt_relic(s: State, frame: Frame) -> list[Option]:
    board = s.board
    return [sq for sq in s._tables.relic_squares[frame[1]] if board[sq] == EMPTY]


def _do_relic(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    player: int = frame[1]
    s.relic_sq[player] = sq
    if player == s.first:
        s.stack.append(("relic", 1 - s.first))
    elif s._rules.setup:  # the modules' setup steps (S8), then the first turn
        s.stack.append(("begin_game",))
        # Last module first: each pushes its frames on top, so the first module's
        # steps are taken first (M-MOD-1's order: glory's markers, then keepers' tokens).
        for h in reversed(s._rules.setup):
            h.setup(s)
    else:
        s._begin_game()


# ====================================================================== the turn (T1–T8)
def _rite_squares(s: State, player: int, rite_id: str | None) -> list[int]:
    """Where a rite can act; empty if it cannot be completed (T6)."""
    if rite_id is None:
        return []
    return s._tables.rite_effects[rite_id].squares(s, player)


def _can_rite(s: State, player: int, rite_id: str | None) -> bool:
    """Whether :func:`_rite_squares` would find any (no list made: every play decision)."""
    if rite_id is None:
        return False
    return s._tables.rite_effects[rite_id].can(s, player)


def _opt_play(s: State, frame: Frame) -> list[Option]:
    player = s.current
    hand = s.hands[player]
    infos = s._tables.card_info
    options: list[Option] = []
    can_attack = not (s._no_attack_first and s.turns_taken[player] == 0)
    can_regroup = s.can_regroup(player)  # T4, VAR1
    can_rite = _can_rite(s, player, s.rites[player])
    can_interact = bool(s._rules.interact) and bool(s.interact_actions(player))  # M-MOD-3
    # The generic cards share the faction's lines (T3): asked once, when first needed.
    generic = -1  # -1 not asked yet, else 0 or 1
    # Each piece's distance to the nearest enemy, asked by every attack check.
    near = [s._enemy_distance(p) for p in s._own[player]] if can_attack else []
    for card_id in hand:
        info = infos[card_id]
        if s._can_move_with(info.moves[player]):
            options.append(info.move)
        if can_attack:
            lines = info.lines
            if lines is not None:
                attack = s._can_attack(lines, near)
            else:
                if generic < 0:
                    generic = int(s._can_attack(s._faction_lines(player), near))
                attack = generic == 1
            if attack:
                options.append(info.attack)
        if can_regroup:
            options.append(info.regroup)
        if can_rite:
            options.append(info.rite)
        if can_interact:
            options.append(info.interact)
    if not options:  # T6: nothing legal, the card only changes places
        options = [infos[card_id].pass_ for card_id in hand]
    return options


def _do_play(s: State, frame: Frame, option: Option) -> None:
    # (a cast, not an isinstance check: compiled, that looks the class up by name each time)
    card, mode = cast(Play, option)
    s.played = card
    if s.events is not None:
        s._emit("play", player=s.current, card=card, mode=mode)
    if mode == "move":
        s.stack.append(("mover", card))
    elif mode == "attack":
        s.stack.append(("attacker", card))
    elif mode == "regroup":
        s.stack.append(("regroup",))
    elif mode == "pass" and s.stack[-1] == _TURN_END_STEPS:
        s.stack.pop()  # T6: nothing else happens: no module step, no Lantern step
        s.stack.pop()
    elif mode == "pass" and s.stack[-1] == _LANTERN_STEP:
        s.stack.pop()  # T6: nothing else happens, not even the Lantern step
    elif mode == INTERACT:
        s.stack.append(("interact",))
    elif mode == "rite":
        s.stack.append(("rite_effect", s.rites[s.current]))
        s.rites[s.current] = None  # played: out of the game
        s.vigil = s._vigil_start  # T5, D7; VAR3
        s.eventful = True


def _opt_mover(s: State, frame: Frame) -> list[Option]:
    return s._mover_squares(frame[1])


def _do_mover(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s.stack.append(("destination", s.board[sq], frame[1]))


def _opt_destination(s: State, frame: Frame) -> list[Option]:
    piece = s.pieces[frame[1]]
    board = s.board
    # The table is in square order (see _Tables.moves).
    return [d for d in s._tables.card(frame[2]).moves[s.current][piece.sq] if board[d] == EMPTY]


def _do_destination(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    piece = s.pieces[frame[1]]
    if s.events is not None:
        s._emit("move", piece, to=sq)
    s._relocate(piece, sq, by_enemy=False)  # a MOVE jumps (T2) and is not a step
    if s._tables.card(frame[2]).escort:
        s.stack.append(("escort", piece.id))


def _opt_escort(s: State, frame: Frame) -> list[Option]:
    mover = frame[1]
    options: list[Option] = []
    board, neighbours, steps = s.board, s.geometry.neighbours, s._tables.steps
    # Each other piece's steps (as _steps_of: none while veiled), by square.
    squares = [p.sq for p in s._own[s.current] if p.id != mover and not p.bans & NO_STEP]
    squares.sort()
    for sq in squares:
        sq_steps = steps[sq]
        for i, to in enumerate(neighbours[sq]):
            if board[to] == EMPTY:
                options.append(sq_steps[i])
    if options:
        options.append(PASS)
    return options


def _do_escort(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, Step):
        s._step(s.pieces[s.board[option.frm]], option.to)


def _opt_attacker(s: State, frame: Frame) -> list[Option]:
    return s._attacker_squares(frame[1])


def _do_attacker(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    piece = s.pieces[s.board[sq]]
    card = frame[1]
    line = s._line(card, piece)
    if s._rules.attacker_chosen:
        for h in s._rules.attacker_chosen:
            h.attacker_chosen(s, piece, card)
    line.impl.declare(s, piece, card, line)


def _opt_lunge(s: State, frame: Frame) -> list[Option]:
    piece = s.pieces[frame[1]]
    line = s._line(frame[2], piece)
    lunges: list[Option] = list(s._lunges(piece, line))
    if lunges and s._targets(piece, piece.sq, line):
        lunges.append(PASS)  # staying put is legal too
    return lunges


def _do_lunge(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, int):
        s._step(s.pieces[frame[1]], option)


def _opt_target(s: State, frame: Frame) -> list[Option]:
    piece = s.pieces[frame[1]]
    return list(s._targets(piece, piece.sq, s._line(frame[2], piece)))


def _do_target(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    attacker = s.pieces[frame[1]]
    target = s.pieces[s.board[sq]]
    if s._rules.target_declared and s._target_held(attacker, target, frame[2], True):
        return
    line = s._line(frame[2], attacker)
    line.impl.on_target(s, attacker, target, line, frame[2])


def _strike(s: State, attacker: Piece, target: Piece, line: _Line, card: str) -> None:
    """One hit: damage, then push or pull (G8), crush joining the hit (G7)."""
    origin = attacker.sq
    target_sq = target.sq
    damage = line.damage
    shaped = s._rules.shapes_hits
    if shaped:
        damage = s._begin_hit(attacker, target, damage)
    if damage:
        s._damage(target, damage)
        if s.result is not None:
            return
    killed = target.id not in s.pieces
    if not killed and (line.push or line.pull):
        amount = line.push or line.pull
        if s._rules.push_bonus:  # HeavyHand (M-GLORY-41)
            amount += s._push_bonus(attacker)
        crushed = s._push(origin, target, amount, pull=bool(line.pull))
        if crushed:
            s._damage(target, 1, crush=True)
            if s.result is not None:
                return
            killed = target.id not in s.pieces
    if shaped:
        s._end_hit(attacker, target, card)
    if line.after_step:
        s.stack.append(("after_step", attacker.id))
    if line.kill_step and killed:
        s.stack.append(("kill_step", attacker.id, target_sq))
    if line.swap_minion_range:
        s.stack.append(("swap", attacker.id, line.swap_minion_range))


def _opt_second_target(s: State, frame: Frame) -> list[Option]:
    attacker = s.pieces[frame[1]]
    first = frame[3]
    line = s._line(frame[2], attacker)
    options: list[Option] = [sq for sq in s._targets(attacker, attacker.sq, line)
                             if s.board[sq] != first]
    if options:
        options.append(PASS)
    return options


def _do_second_target(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, int):
        attacker = s.pieces[frame[1]]
        target = s.pieces[s.board[option]]
        if s._rules.target_declared and s._target_held(attacker, target, frame[2], False):
            return
        _strike(s, attacker, target, s._line(frame[2], attacker), frame[2])


def _opt_gale_step(s: State, frame: Frame) -> list[Option]:
    return list(s._gale_steps(s.pieces[frame[1]]))


def _do_gale_step(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s._step(s.pieces[frame[1]], sq)


def _auto_gale_targets(s: State, frame: Frame) -> None:
    attacker = s.pieces[frame[1]]
    targets = tuple(s.board[sq] for sq in s._adjacent_enemies(attacker.owner, attacker.sq))
    _gale_continue(s, attacker, frame[2], targets)


def _gale_continue(s: State, attacker: Piece, card: str, remaining: tuple[int, ...]) -> None:
    """D14: one push at a time; the player orders them while more than one remains."""
    if len(remaining) > 1:
        s.stack.append(("gale_push", attacker.id, card, remaining))
    elif remaining:
        _gale_push(s, attacker, card, remaining[0])


def _gale_push(s: State, attacker: Piece, card: str, pid: int) -> None:
    target = s.pieces[pid]
    line = s._line(card, attacker)
    shaped = s._rules.shapes_hits
    if shaped:  # a Gale push is a hit of no line damage; a bonus still adds (M-COND-13)
        bonus = s._begin_hit(attacker, target, 0)
        if bonus:
            s._damage(target, bonus)
            if s.result is not None:
                return
            if target.id not in s.pieces:
                s._end_hit(attacker, target, card)
                return
    amount = line.push
    if s._rules.push_bonus:  # HeavyHand (M-GLORY-41)
        amount += s._push_bonus(attacker)
    if s._push(attacker.sq, target, amount, pull=False):
        s._damage(target, 1, crush=True)
    if shaped:
        s._end_hit(attacker, target, card)


def _opt_gale_push(s: State, frame: Frame) -> list[Option]:
    return sorted(s.pieces[pid].sq for pid in frame[3])


def _do_gale_push(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    attacker = s.pieces[frame[1]]
    pid = s.board[sq]
    _gale_push(s, attacker, frame[2], pid)
    if s.result is None:  # the rest waits for a Grave Tide return this push triggered (D11)
        s.stack.append(("gale_rest", attacker.id, frame[2],
                        tuple(p for p in frame[3] if p != pid)))


def _auto_gale_rest(s: State, frame: Frame) -> None:
    _gale_continue(s, s.pieces[frame[1]], frame[2], frame[3])


def _opt_roll(s: State, frame: Frame) -> list[Option]:
    return [1, 2, 3, 4, 5, 6]


def _do_roll(s: State, frame: Frame, face: Option) -> None:
    assert isinstance(face, int)
    attacker = s.pieces[frame[1]]
    line = s._line(frame[2], attacker)
    row = next(r for r in line.table if face in r.faces)
    if s.events is not None:
        s._emit("roll", attacker, face=face, card=frame[2])
    for h in s._rules.rolled:
        h.rolled(s, attacker, frame[2], face)
    line.impl.on_roll(s, attacker, line, row, frame)


def _opt_rapture_step(s: State, frame: Frame) -> list[Option]:
    steps: list[Option] = list(s._steps_of(s.pieces[frame[1]]))
    if steps and frame[3]:
        steps.append(PASS)
    return steps


def _do_rapture_step(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, int):
        s._step(s.pieces[frame[1]], option)
        if frame[2] > 1:
            s.stack.append(("rapture_step", frame[1], frame[2] - 1, frame[3]))


def _opt_after_step(s: State, frame: Frame) -> list[Option]:
    if frame[1] not in s.pieces:
        return []
    return list(s._steps_of(s.pieces[frame[1]]))


def _do_after_step(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s._step(s.pieces[frame[1]], sq)


def _opt_kill_step(s: State, frame: Frame) -> list[Option]:
    piece = s.pieces.get(frame[1])
    if piece is None or piece.bans & NO_STEP or s.board[frame[2]] != EMPTY:
        return []
    return [frame[2], PASS]


def _do_kill_step(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, int):
        s._step(s.pieces[frame[1]], option)


def _opt_swap(s: State, frame: Frame) -> list[Option]:
    hero = s.pieces.get(frame[1])
    if hero is None:
        return []
    geo = s.geometry
    options: list[Option] = sorted(
        p.sq for p in s._own[hero.owner]
        if not p.hero and not p.bans & OBJECT
        and geo.distance(hero.sq, p.sq) <= frame[2]
        and s.has_los(hero.sq, p.sq, strict=True)  # D20: a friendly target
    )
    if options:
        options.append(PASS)
    return options


def _do_swap(s: State, frame: Frame, option: Option) -> None:
    if isinstance(option, int):
        s._swap(s.pieces[frame[1]], s.pieces[s.board[option]])


def _opt_grave_return(s: State, frame: Frame) -> list[Option]:
    return list(s._empty_back_row(frame[1]))


def _do_grave_return(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s._place_new(frame[1], sq)


def _opt_regroup(s: State, frame: Frame) -> list[Option]:
    squares: list[Option] = list(s._empty_back_row(s.current))
    if s._rules.regroup_squares:  # M-KEEP-23: next to the Wayshrine too
        squares.extend(s._regroup_extra(s.current))
        squares.sort()
    return squares


def _do_regroup(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s.pool[s.current] -= 1
    s.regroups[s.current] += 1  # VAR1
    s._place_new(s.current, sq)  # T4: never resets the Vigil


def _opt_rite_effect(s: State, frame: Frame) -> list[Option]:
    return list(_rite_squares(s, s.current, frame[1]))


def _do_rite_effect(s: State, frame: Frame, sq: Option) -> None:
    assert isinstance(sq, int)
    s._tables.rite_effects[frame[1]].resolve(s, s.current, sq)


def _opt_interact(s: State, frame: Frame) -> list[Option]:
    return list(s.interact_actions(s.current))


def _do_interact(s: State, frame: Frame, action: Option) -> None:
    assert isinstance(action, str)
    for h in s._rules.interact:  # the module whose action it is takes it
        if action in h.interact_actions(s, s.current):
            h.interact(s, s.current, action)
            return


def _opt_lantern_step(s: State, frame: Frame) -> list[Option]:
    """Step T2 (M-MOD-4): the end-of-turn step of the player's faction passive (the
    frame keeps its first passive's name: positions written earlier name it so)."""
    fid = s.factions[s.current]
    if not fid:
        return []
    return s._tables.passives[fid].end_step(s, s.current)


def _do_lantern_step(s: State, frame: Frame, option: Option) -> None:
    fid = s.factions[s.current]
    assert fid is not None
    s._tables.passives[fid].end_step_apply(s, s.current, option)


def _auto_end_turn(s: State, frame: Frame) -> None:
    s._end_turn()


def _auto_end_turn_rest(s: State, frame: Frame) -> None:
    s._end_turn_rest()


def _auto_turn_end_steps(s: State, frame: Frame) -> None:
    for h in s._rules.turn_end:  # step T1 (M-MOD-4): may push decisions
        h.turn_end(s, s.current)


def _auto_round_close(s: State, frame: Frame) -> None:
    for p in list(s.pieces.values()):  # R2: the round's conditions end
        if p.conds:
            p.expire(AT_ROUND_END, 1 << 30)
    s._end_round()  # R3 the Vigil, R5 the end checks


def _auto_next_turn(s: State, frame: Frame) -> None:
    s._start_turn(frame[1])


def _auto_begin_game(s: State, frame: Frame) -> None:
    s._begin_game()


def _auto_round_checks(s: State, frame: Frame) -> None:
    s._round_checks()


_Handler = Callable[[State, Frame, Option], None]
_OptionsFn = Callable[[State, Frame], list[Option]]

_OPTIONS: Final[dict[str, _OptionsFn]] = {
    "ruin": _opt_ruin, "faction": _opt_faction, "deal": _opt_deal, "rite": _opt_rite,
    "deploy": _opt_deploy, "relic": _opt_relic, "play": _opt_play, "mover": _opt_mover,
    "destination": _opt_destination, "escort": _opt_escort, "attacker": _opt_attacker,
    "lunge": _opt_lunge, "target": _opt_target, "second_target": _opt_second_target,
    "gale_step": _opt_gale_step, "gale_push": _opt_gale_push, "roll": _opt_roll,
    "rapture_step": _opt_rapture_step, "after_step": _opt_after_step,
    "kill_step": _opt_kill_step, "swap": _opt_swap, "grave_return": _opt_grave_return,
    "regroup": _opt_regroup, "rite_effect": _opt_rite_effect,
    "lantern_step": _opt_lantern_step, "interact": _opt_interact,
}
_HANDLERS: Final[dict[str, _Handler]] = {
    "ruin": _do_ruin, "faction": _do_faction, "deal": _do_deal, "rite": _do_rite,
    "deploy": _do_deploy, "relic": _do_relic, "play": _do_play, "mover": _do_mover,
    "destination": _do_destination, "escort": _do_escort, "attacker": _do_attacker,
    "lunge": _do_lunge, "target": _do_target, "second_target": _do_second_target,
    "gale_step": _do_gale_step, "gale_push": _do_gale_push, "roll": _do_roll,
    "rapture_step": _do_rapture_step, "after_step": _do_after_step,
    "kill_step": _do_kill_step, "swap": _do_swap, "grave_return": _do_grave_return,
    "regroup": _do_regroup, "rite_effect": _do_rite_effect,
    "lantern_step": _do_lantern_step, "interact": _do_interact,
}
_AUTO: Final[dict[str, Callable[[State, Frame], None]]] = {
    "end_turn": _auto_end_turn,
    "end_turn_rest": _auto_end_turn_rest,
    "turn_end_steps": _auto_turn_end_steps,
    "round_close": _auto_round_close,
    "next_turn": _auto_next_turn,
    "begin_game": _auto_begin_game,
    "round_checks": _auto_round_checks,
    "gale_targets": _auto_gale_targets,
    "gale_rest": _auto_gale_rest,
}
