"""What the thinking agents share: setup choices, budgets, and following a planned turn.

A turn is a chain of small decisions (play, piece, destination, Escort step …). A
planning agent thinks once at the first decision of its turn, keeps the line it
found for its own following decisions, and follows it while the position is the one
it expected; after a die roll (or anything unexpected) it thinks again with what is
left of the turn's budget.

A planning agent also remembers the positions of its game at the start of each turn
(:attr:`PlanningAgent.seen`, by :func:`~reliquary.ai.hashing.repetition_key`): those
where it is to play, and those its own last decision of a turn hands to the other
player. The search scores a return to one of them as a draw (contempt).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from ..engine import SETUP_KINDS, Option, State
from .hashing import at_turn_start, position_key, repetition_key

#: S3: factions are chosen in secret, so agents draw from a fixed prior (a rough
#: guess at strength) instead of looking at the other's choice.
FACTION_PRIOR: dict[str, float] = {
    "pyre-choir": 3.0, "storm-sworn": 2.5, "gallows-court": 2.5, "lantern-bearers": 2.0,
    "grave-tide": 2.0, "bone-wardens": 2.0, "ash-reapers": 1.5, "hollow-kin": 1.5,
    "veiled-hand": 1.5,
}
RITE_PREFERENCE = ("exhumation", "desecration", "harrow")


def _rank_from_back(state: State, player: int, sq: int) -> int:
    n = state.geometry.size
    y = sq // n
    return y if player == 0 else n - 1 - y


def setup_choice(state: State, rng: random.Random) -> Option:
    """A sensible choice for a setup decision (S2–S7), with seeded tie-breaks."""
    decision = state.decision()
    kind, player, options = decision.kind, decision.player, list(decision.options)
    geo = state.geometry
    n = geo.size
    centre = (n - 1) / 2
    if kind == "faction":
        weights = [FACTION_PRIOR.get(str(o), 1.0) for o in options]
        return rng.choices(options, weights=weights)[0]
    if kind == "rite":
        effects = {str(o): state.content.rite(str(o)).effect for o in options}
        return min(options, key=lambda o: (RITE_PREFERENCE.index(effects[str(o)])
                                           if effects[str(o)] in RITE_PREFERENCE else 9,
                                           rng.random()))
    if kind == "ruin":
        # Ruins near the middle files block lines of sight and lanes: a fair spread.
        def ruin_score(sq: Option) -> float:
            assert isinstance(sq, int)
            x, y = sq % n, sq // n
            return abs(x - centre) * 0.3 + abs(y - centre) * 0.5 + rng.random() * 2
        return min(options, key=ruin_score)
    if kind == "deploy":
        minions = state.content.board_row(n).minions
        hero_next = state.placed[player] == minions

        def deploy_score(sq: Option) -> float:
            assert isinstance(sq, int)
            x = sq % n
            rank = _rank_from_back(state, player, sq)
            if hero_next:  # the Hero behind its Minions, central
                return abs(x - centre) + abs(rank - 1) * 2 + rng.random()
            return abs(x - centre) * 0.7 - rank * 2 + rng.random() * 1.5
        return min(options, key=deploy_score)
    if kind == "relic":
        own = [p.sq for p in state.pieces.values() if p.owner == player]

        def relic_score(sq: Option) -> float:
            assert isinstance(sq, int)
            near = sum(1 for o in own if geo.distance(o, sq) <= 1)
            return _rank_from_back(state, player, sq) * 3 - near * 1.5 + rng.random()
        return min(options, key=relic_score)
    if module_setup(state):  # a rule module's setup step (S8–S9): its own heuristic
        from .module_terms import module_setup_choice

        return module_setup_choice(state, rng)
    raise ValueError(f"{kind!r} is not a setup decision")


def module_setup(state: State) -> bool:
    """Whether ``state`` waits at a rule module's setup step (after S7, before the first
    turn): chosen by a heuristic, since a search there would look through the whole
    deal (M-GLORY's objective draws) before any turn."""
    return (state.turns_taken[0] == 0 and state.turns_taken[1] == 0
            and any(f[0] == "begin_game" for f in state.stack))


# Compiled (mypyc), a class takes interpreted subclasses (MctsAgent) only when it says so.
@mypyc_attr(allow_interpreted_subclasses=True)
class PlanningAgent:
    """Base of the agents that think about whole turns (see the module docstring).

    Budgets: ``time`` seconds per turn, or ``nodes`` per turn (reproducible with a
    seed); subclasses set defaults.
    """

    name = "planning"
    default_time: float | None = 1.0

    def __init__(self, seed: int | None = None, time: float | None = None,
                 nodes: int | None = None, **_: Any) -> None:
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.time = time if time is not None or nodes is not None else self.default_time
        self._plan: dict[int, Option] = {}
        self._turn: tuple[int, int, int] | None = None
        self._turn_spent = 0.0
        #: Figures from the last think: nodes, seconds, value, depth (when it applies).
        self.stats: dict[str, Any] = {}
        #: Repetition keys of this game's positions at turn starts -> times seen.
        self.seen: dict[int, int] = {}
        self._seen_turns = -1
        self._seen_last: int | None = None

    def forget_positions(self) -> None:
        """Forget the game's positions (the memory for the repetition check), to have
        them told again; what the search keeps for a warm start stays."""
        self.seen.clear()
        self._seen_turns = -1
        self._seen_last = None

    def observe(self, state: State) -> None:
        """Remember ``state`` if it is the start of a turn (for the repetition check).

        A position with fewer turns taken than the last one starts a new memory (a new
        game, or an undo)."""
        if not at_turn_start(state):
            return
        turns = state.turns_taken[0] + state.turns_taken[1]
        if turns < self._seen_turns:
            self.seen.clear()
            self._seen_last = None
        self._seen_turns = turns
        key = position_key(state)
        if key == self._seen_last:  # the same position asked about twice
            return
        self._seen_last = key
        rkey = repetition_key(state)
        self.seen[rkey] = self.seen.get(rkey, 0) + 1

    # -- for subclasses ------------------------------------------------------------
    def plan(self, state: State, deadline: float | None, nodes: int | None) -> list[Option]:
        """The options to take from ``state`` on, for this player's consecutive decisions."""
        raise NotImplementedError

    # -- the Agent contract --------------------------------------------------------
    def choose(self, state: State) -> Option:
        if state.is_chance or state.is_terminal:
            raise ValueError("an agent chooses only at a player's decision, never for chance or "
                             "after the end")
        decision = state.decision()
        if decision.kind in SETUP_KINDS or module_setup(state):
            return setup_choice(state, self.rng)
        self.observe(state)
        option = self._choose(state, decision.player, decision.options)
        after = state.clone()  # the position this hands over, if it ends the turn
        after.apply(option)
        if after.turns_taken != state.turns_taken:
            self.observe(after)
        return option

    def _choose(self, state: State, me: int, options: Sequence[Option]) -> Option:
        """The option for a turn decision: from the plan, or after thinking."""
        key = position_key(state)
        planned = self._plan.pop(key, None)
        if planned is not None and planned in options:
            return planned
        if len(options) == 1:
            return options[0]
        turn = (me, state.turns_taken[0], state.turns_taken[1])
        if turn != self._turn:
            self._turn, self._turn_spent = turn, 0.0
        deadline = None
        if self.time is not None:
            # The budget is per turn: the first think keeps a reserve for a second one
            # (after a die roll), which gets what is left.
            left = (self.time * 0.85 if self._turn_spent == 0.0
                    else max(self.time - self._turn_spent, self.time * 0.05))
            deadline = time.perf_counter() + left
        started = time.perf_counter()
        collecting = gc.isenabled()
        gc.disable()  # search trees are large and acyclic: no collector pauses mid-think
        try:
            line = self.plan(state, deadline, self.nodes)
        finally:
            if collecting:
                gc.enable()
        self._turn_spent += time.perf_counter() - started
        if not line or line[0] not in options:
            return self.rng.choice(options)  # a safeguard; plans come from the options
        self._remember(state, line, me)
        return line[0]

    def _remember(self, state: State, line: list[Option], me: int) -> None:
        """Keep the rest of the line, keyed by the positions it expects."""
        self._plan = {}
        s = state.clone()
        for i, option in enumerate(line):
            if i > 0:
                self._plan[position_key(s)] = option
            if option not in s.legal_options():
                break
            s.apply(option)
            if s.is_terminal or s.is_chance or s.current_player != me:
                break
