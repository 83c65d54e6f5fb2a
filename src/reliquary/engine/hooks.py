"""Where optional rules enter the engine: hooks, decision kinds, conditions and module state.

The rules in ``state.py`` call named hooks at the fixed points of M-MOD-4 and M-MOD-9
instead of branching on settings. A :class:`Rulebook` is resolved once per (content,
settings): it keeps, for each hook, the tuple of :class:`Hooks` objects that override
it, so a game without modules pays one attribute read and one empty-tuple test per
hook site. Modules (``engine/modules/``) subclass :class:`Hooks`,
:class:`DecisionKind` and :class:`ModuleState`; ``docs/modules.md`` walks through one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from .content import Content
    from .state import Frame, Piece, State
    from .types import Option, Settings

# What a condition forbids or prevents (M-MOD-3, §8.3 of the design): bits of Piece.bans.
NO_MOVE: Final = 1        # no MOVE with a card (T2)
NO_STEP: Final = 2        # no step of any kind (G3): lunge, Escort, Gale, Rapture, passives
PREVENT_DAMAGE: Final = 4  # no damage at all (D13)
PREVENT_PUSH: Final = 8   # no push or pull, so no crush either (D13)
NO_ATTACK: Final = 16     # cannot be the attacker (T3)
NO_ACT: Final = 32        # cannot be the acting piece of INTERACT (M-MOD-3)
NO_SUPPORT: Final = 64    # gives no Support (M-GLORY)
#: An object, not a unit (M-KEEP-21's Wayshrine): no Minion or Hero for V2, the pool or
#: the passives; no Veil chooses it, no friendly line or swap takes it, it blocks no LoS.
OBJECT: Final = 128
PINNED: Final = 256       # a push or pull never moves it: it is crushed instead (G7)
#: Not a ban but a bit of the piece's all the same: its hits ignore the target's
#: reductions (M-MOD-9 step 4; M-GLORY-41 Sundering).
IGNORES_REDUCTIONS: Final = 512
BAN_NAMES: Final[dict[str, int]] = {
    "move": NO_MOVE, "step": NO_STEP, "damage": PREVENT_DAMAGE, "push": PREVENT_PUSH,
    "attack": NO_ATTACK, "act": NO_ACT, "support": NO_SUPPORT, "object": OBJECT,
    "pinned": PINNED, "ignore_reductions": IGNORES_REDUCTIONS,
}

# When a condition ends on its own.
AT_OWNER_TURN_START: Final = "owner_turn_start"  # K-Aegis: until your next turn begins
AT_OWNER_TURN_END: Final = "owner_turn_end"      # K-Veil: over at the end of your next turn
AT_ROUND_END: Final = "round_end"
NEVER: Final = "never"                           # until a rule removes it


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class ConditionDef:
    """A condition a piece can have (M-MOD-3): its bans and when it ends by itself."""

    def __init__(self, name: str, bans: int = 0, ends: str = NEVER, help: str = "") -> None:
        if ends not in (AT_OWNER_TURN_START, AT_OWNER_TURN_END, AT_ROUND_END, NEVER):
            raise ValueError(f"condition {name!r}: unknown ending {ends!r}")
        self.name = name
        self.bans = bans
        self.ends = ends
        self.help = help


#: The base game's two conditions: K-Veil and K-Aegis (§8.3 of the design).
VEIL: Final = ConditionDef("veil", NO_MOVE | NO_STEP, AT_OWNER_TURN_END,
                           "K-Veil: no MOVE and no steps on the owner's next turn (D12)")
AEGIS: Final = ConditionDef("aegis", PREVENT_DAMAGE | PREVENT_PUSH, AT_OWNER_TURN_START,
                            "K-Aegis: no damage, push or pull until the owner's next turn (D13)")
BASE_CONDITIONS: Final[dict[str, ConditionDef]] = {"veil": VEIL, "aegis": AEGIS}


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class ModuleState:
    """A module's own part of a game state. Subclasses keep plain fields and say how to
    copy, write and hash them; the state's clone, serialize and key call these."""

    def copy(self) -> ModuleState:
        raise NotImplementedError

    def to_json(self) -> Any:
        raise NotImplementedError

    def load(self, data: Any) -> None:
        """Set the fields from :meth:`to_json`'s form (raise ValueError naming the field)."""
        raise NotImplementedError

    def key(self) -> object:
        """A hashable value that tells apart every state with a different future."""
        raise NotImplementedError


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DecisionKind:
    """A decision kind a module adds: a frame ``(name, ...)`` on the stack.

    ``player`` says who decides (a player, or :data:`~reliquary.engine.types.CHANCE`);
    a chance kind gives its outcomes' ``probabilities``. An ``automatic`` kind takes
    no option: :meth:`run` is called when its frame comes up.
    """

    automatic: ClassVar[bool] = False
    chance: ClassVar[bool] = False
    help: ClassVar[str] = ""
    #: How its options are written (engine/notation.py): "square" (a board square),
    #: "id" (a name from the content or the module), "value" (a number) or "step"
    #: (``c1-c2``: a :class:`~reliquary.engine.types.Step`).
    notation: ClassVar[str] = "square"

    def player(self, s: State, frame: Frame) -> int:
        return s.current

    def options(self, s: State, frame: Frame) -> list[Option]:
        return []

    def apply(self, s: State, frame: Frame, option: Option) -> None:
        pass

    def probabilities(self, s: State, frame: Frame, options: list[Option]) -> list[float]:
        return [1.0 / len(options)] * len(options)

    def run(self, s: State, frame: Frame) -> None:
        pass

    def subject(self, frame: Frame) -> int:
        """The piece id the decision is about, or -1."""
        return -1


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Hooks:
    """The points where a module's rules enter the game (M-MOD-4, M-MOD-9).

    A subclass overrides the hooks it needs; the :class:`Rulebook` calls only those.
    Hooks may push frames (``s.stack.append``) to ask for decisions: they are taken
    before the rest of the turn or round goes on.
    """

    def conditions(self) -> list[ConditionDef]:
        """The conditions this module adds."""
        return []

    def decisions(self) -> dict[str, DecisionKind]:
        """The decision kinds this module adds, by frame name."""
        return {}

    def new_state(self) -> ModuleState | None:
        """The module's part of a new game's state, if it keeps one."""
        return None

    def setup(self, s: State) -> None:
        """Setup after S7 (the relics placed), before the first turn: a module's setup
        steps (M-GLORY-3's markers S8g, M-KEEP-2's S8k, M-GLORY-5's deal S9g). It may push
        frames; the first turn starts after them."""

    def turn_start(self, s: State, player: int) -> None:
        """Turn start, after the core expiries (M-MOD-4)."""

    def turn_end(self, s: State, player: int) -> None:
        """Step T1 of the turn end, before the Lantern step (M-MOD-4)."""

    def after_relic_home(self, s: State, player: int) -> None:
        """Steps T3 (after V3) and T4 of the turn end (M-MOD-4)."""

    def round_end(self, s: State) -> None:
        """Steps R1–R2 of the round end, before the Vigil (M-MOD-4)."""

    def after_vigil(self, s: State) -> None:
        """Step R4 of the round end, after the Vigil (V1) and before the end checks
        (M-MOD-4): M-GLORY's End phase. May push decisions (M-MOD-7); ``s.vigil <= 0``
        says the game ends at step R5."""

    def ends_game(self, s: State) -> bool:
        """Step R5 (M-MOD-4), after the Vigil's own check: whether the game ends now on
        the points verdict (M-GLORY-9's last phase; the result is M-MOD-5's)."""
        return False

    def hit_bonus(self, s: State, attacker: Piece, target: Piece) -> int:
        """Step 1 of the hit (M-MOD-9): a bonus to the line's damage (the line's own
        damage, before any bonus, is ``s.hit_line``)."""
        return 0

    def reduction(self, s: State, target: Piece) -> int:
        """Step 4 of the hit (M-MOD-9): how much the target's damage is reduced."""
        return 0

    def reduced(self, s: State, piece: Piece, amount: int) -> None:
        """A hit's reductions (M-MOD-9 step 4) took ``amount`` off the damage to ``piece``
        (a once-per-round reduction is used up here: Warded, Devout)."""

    def push_bonus(self, s: State, attacker: Piece) -> int:
        """Squares added to the pushes and pulls of ``attacker``'s hits (M-GLORY-41
        HeavyHand)."""
        return 0

    def on_damage(self, s: State, piece: Piece, amount: int, crush: bool) -> None:
        """``piece`` lost ``amount`` HP (≥ 1; ``crush``: G7's crush damage), before a kill
        it causes; damage that was prevented or reduced to 0 is not reported."""

    def picked_up(self, s: State, piece: Piece, relic: int) -> None:
        """``piece`` picked up the relic of ``relic`` (RL1)."""

    def after_hit(self, s: State, attacker: Piece, target: Piece, card: str) -> None:
        """After a hit is resolved (riders), the target still on the board or not."""

    def attacker_chosen(self, s: State, piece: Piece, card: str) -> None:
        """T3: ``piece`` was chosen to attack with ``card``, before its line is declared
        (M-COND-13: Focus is used up here)."""

    def target_declared(self, s: State, attacker: Piece, target: Piece, card: str,
                        first: bool) -> bool:
        """A target was chosen (the ``target`` decision, ``first``, or ``second_target``),
        before any effect on it. Return True to hold the effect back: the module then
        pushes its own frames and later calls ``s.resume_target`` (M-COND-51's Dread)."""
        return False

    def rolled(self, s: State, attacker: Piece, card: str, face: int) -> None:
        """A table line's die came up ``face``, before its row acts (M-COND-30's riders
        on table rows)."""

    def on_kill(self, s: State, piece: Piece) -> None:
        """A piece was killed (after RL3's drop; not called when a Hero's death ended the
        game)."""

    def arrived(self, s: State, piece: Piece, frm: int, by_enemy: bool) -> None:
        """A piece left ``frm`` by a move, step, push or pull (``by_enemy``: the other
        side pushed or pulled it; before RL1 takes a relic lying there) or a swap (after
        RL1): RL1–RL3 extended."""

    def holds(self, s: State, piece: Piece) -> bool:
        """Whether the piece carries something of the module's, so it takes no relic
        (RL2 extended: at most one thing carried)."""
        return False

    def ruin_removed(self, s: State, sq: int) -> None:
        """A Ruin left the board (Desecration), before the rite's new Minion is placed."""

    def regroup_squares(self, s: State, player: int) -> list[int]:
        """Empty squares besides the back row where REGROUP may place (T4)."""
        return []

    def action_names(self) -> list[str]:
        """Every name this module's decisions and INTERACT actions may offer as an
        option, for fixed action spaces (the environments)."""
        return []

    def observation_names(self) -> list[str]:
        """The names of the numbers :meth:`observation` gives (scalar planes)."""
        return []

    def text_marks(self, s: State) -> dict[int, str]:
        """Short marks to write after squares on the text board (``reliquary show``)."""
        return {}

    def text_lines(self, s: State) -> list[str]:
        """Lines about the module's state under the text board (points, supplies)."""
        return []

    def board_observation_names(self) -> list[str]:
        """The names of the board planes :meth:`board_observation` fills."""
        return []

    def board_observation(self, s: State, player: int) -> dict[str, list[tuple[int, float]]]:
        """What ``player`` sees of the module's things on the board: for each plane of
        :meth:`board_observation_names`, (square, value in [0, 1]) pairs."""
        return {}

    def observation(self, s: State, player: int) -> dict[str, float]:
        """What ``player`` sees of the module's state, as numbers in [0, 1] by name
        (:meth:`observation_names`), for the environments' observation planes."""
        return {}

    def interact_actions(self, s: State, player: int) -> list[str]:
        """M-MOD-3: the module's INTERACT actions that ``player`` can complete now."""
        return []

    def interact(self, s: State, player: int, action: str) -> None:
        """M-MOD-3: take ``action`` (one of :meth:`interact_actions`): push its frames."""

    def verdict(self, s: State) -> tuple[int | None, str] | None:
        """M-MOD-5: the module's count, before V2's: (winner, detail), or None if tied
        or not deciding."""
        return None

    def game_stats(self, s: State, events: list[Any]) -> dict[str, float]:
        """Figures of a finished game for the lab (its ``module_stats`` column), by
        name, from the final state and the game's events; never called during play."""
        return {}


_HOOK_NAMES: Final = ("turn_start", "turn_end", "after_relic_home", "round_end",
                      "hit_bonus", "reduction", "after_hit", "on_kill", "interact_actions",
                      "interact", "verdict", "game_stats", "setup", "arrived", "holds",
                      "reduced", "ruin_removed", "regroup_squares",
                      "attacker_chosen", "target_declared", "rolled", "after_vigil",
                      "ends_game", "push_bonus", "on_damage", "picked_up")


def _overrides(hooks: Hooks, name: str) -> bool:
    return getattr(type(hooks), name) is not getattr(Hooks, name)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Rulebook:
    """The hooks, decision kinds and conditions of one (content, settings), resolved once."""

    _cache: ClassVar[dict[tuple[int, Settings], Rulebook]] = {}

    def __init__(self, content: Content, settings: Settings) -> None:
        from .modules import hooks_for

        self.content = content
        self.settings = settings
        hooks = hooks_for(content, settings) if settings.modules else []
        self.hooks = tuple(hooks)
        self.conditions: dict[str, ConditionDef] = dict(BASE_CONDITIONS)
        self.decisions: dict[str, DecisionKind] = {}
        for h in hooks:
            for cond in h.conditions():
                if cond.name in self.conditions:
                    raise ValueError(f"condition {cond.name!r} is defined twice")
                self.conditions[cond.name] = cond
            for kind, decision in h.decisions().items():
                if kind in self.decisions:
                    raise ValueError(f"decision kind {kind!r} is defined twice")
                self.decisions[kind] = decision
        self.chance_kinds = frozenset(k for k, d in self.decisions.items() if d.chance)
        self.turn_start = tuple(h for h in hooks if _overrides(h, "turn_start"))
        self.turn_end = tuple(h for h in hooks if _overrides(h, "turn_end"))
        self.after_relic_home = tuple(h for h in hooks if _overrides(h, "after_relic_home"))
        self.round_end = tuple(h for h in hooks if _overrides(h, "round_end"))
        self.hit_bonus = tuple(h for h in hooks if _overrides(h, "hit_bonus"))
        self.reduction = tuple(h for h in hooks if _overrides(h, "reduction"))
        self.after_hit = tuple(h for h in hooks if _overrides(h, "after_hit"))
        self.on_kill = tuple(h for h in hooks if _overrides(h, "on_kill"))
        self.verdict = tuple(h for h in hooks if _overrides(h, "verdict"))
        self.interact = tuple(h for h in hooks if _overrides(h, "interact_actions"))
        self.attacker_chosen = tuple(h for h in hooks if _overrides(h, "attacker_chosen"))
        self.target_declared = tuple(h for h in hooks if _overrides(h, "target_declared"))
        self.rolled = tuple(h for h in hooks if _overrides(h, "rolled"))
        self.after_vigil = tuple(h for h in hooks if _overrides(h, "after_vigil"))
        self.ends_game = tuple(h for h in hooks if _overrides(h, "ends_game"))
        self.push_bonus = tuple(h for h in hooks if _overrides(h, "push_bonus"))
        self.on_damage = tuple(h for h in hooks if _overrides(h, "on_damage"))
        self.picked_up = tuple(h for h in hooks if _overrides(h, "picked_up"))
        self.arrived = tuple(h for h in hooks if _overrides(h, "arrived"))
        self.holds = tuple(h for h in hooks if _overrides(h, "holds"))
        self.ruin_removed = tuple(h for h in hooks if _overrides(h, "ruin_removed"))
        self.regroup_squares = tuple(h for h in hooks if _overrides(h, "regroup_squares"))
        self.setup = tuple(h for h in hooks if _overrides(h, "setup"))
        self.reduced = tuple(h for h in hooks if _overrides(h, "reduced"))
        #: Whether any hook changes the hit (M-MOD-9): then the hit is worked out in full.
        self.shapes_hits = bool(self.hit_bonus or self.reduction or self.after_hit)
        #: Whether the turn or round end has module steps (M-MOD-4): the round's when a
        #: hook acts there or a condition ends there (R2).
        self.turn_steps = bool(self.turn_end or self.after_relic_home)
        self.round_steps = bool(self.round_end or self.after_vigil) or any(
            c.ends == AT_ROUND_END for c in self.conditions.values())
        #: The module names whose state a game keeps, and how to make it.
        self.stateful = tuple((name, h) for name, h in zip(settings.modules, hooks, strict=True)
                              if h.new_state() is not None)

    def new_module_state(self) -> dict[str, ModuleState]:
        out: dict[str, ModuleState] = {}
        for name, h in self.stateful:
            state = h.new_state()
            assert state is not None
            out[name] = state
        return out

    @classmethod
    def of(cls, content: Content, settings: Settings) -> Rulebook:
        key = (id(content), settings)
        rules = cls._cache.get(key)
        if rules is None or rules.content is not content:
            rules = cls._cache[key] = Rulebook(content, settings)
        return rules


def hook_names() -> tuple[str, ...]:
    """The names of the hooks a module may override (for docs and checks)."""
    return _HOOK_NAMES
