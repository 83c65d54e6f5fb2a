"""Alpha-beta search with chance nodes (expectimax, Star1 pruning), and the greedy agent.

The tree is the engine's own decision tree. A player's consecutive decisions (play,
piece, destination, Escort step …) are all that player's nodes, so alpha-beta works
across them unchanged; depth is counted in whole turns (a turn ends when the engine's
``turns_taken`` counters move), and leaves are the positions at the start of a turn,
scored by :func:`~reliquary.ai.evaluation.evaluate`. A die roll is a chance node:
its value is the probability-weighted mean of its outcomes, with outcomes that lead to
the same position merged (Ordeal's 2, 3 and 4 all deal 1 damage) and Star1 bounds to
cut. Iterative deepening, a transposition table keyed by :func:`position_key` (which
remembers each node's best option for move ordering), a history heuristic, and
killers (v8: at each ply the last two options that cut off there come right after the
table's; the same values with fewer nodes; +25 Elo against v4 at 0.3 s a turn, so on
by default; ``killers=False`` turns them off).
Optional threat extensions (``extend``, off by default): from the second iteration
on, a leaf where either player could win on their next turn (carry the relic home,
kill the Hero) is searched a turn further, at most ``extend`` times along a line, so
a threat just beyond the horizon is seen with its parry.

Warm starts (``SearchAgent(warm=True)``, the default): an agent keeps the tables of
its last search in the game, and the next one reads them where its own have nothing
yet, for move ordering and for bounds deep enough to use: the last turn looked ahead,
and a second think after a die roll starts from the first one's tree. An iteration
that runs out of budget is not thrown away (``partial=True``): in the root's turn the
best option searched to the new depth so far beats the last iteration's (which was
searched first) and is played. With ``fill_clock=True`` (v5, an option) a time
budget is spent to its end: an iteration that cannot finish is started anyway. It did
not measure stronger than v4 at equal time, so it is off by default. A history given
from outside (``analyse(seen=…)``) starts cold, since the table's values saw other
repetitions.

Repetitions (contempt): given the game's history (the :func:`repetition_key` of the
positions at the start of each turn so far), a turn start inside the search that
repeats one of them, or one earlier on the same line, is scored as a draw valued
``-Weights.contempt`` for the searching side — the loop would run to the round cap
(D19). A side ahead by more than that avoids the repetition; a side well behind may
take it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from ..engine import Option, Play, State
from .evaluation import (
    DEFAULT_WEIGHTS,
    WIN,
    WIN_THRESHOLD,
    Weights,
    evaluate,
    hero_threat,
    home_threat,
    terminal_value,
)
from .hashing import at_turn_start, position_key, repetition_key, shared_fields
from .planning import PlanningAgent

EXACT, LOWER, UPPER = 0, 1, 2
_MODE_ORDER = {"attack": 0, "rite": 1, "move": 2, "regroup": 3, "pass": 4}


class _OutOfBudget(Exception):
    """The time or node budget ran out in the middle of an iteration."""


class Searcher:
    """One search from one player's point of view; reusable across iterations."""

    def __init__(self, me: int, weights: Weights = DEFAULT_WEIGHTS,
                 deadline: float | None = None, node_limit: int | None = None,
                 noise: float = 0.0, rng: Any = None, extend: int = 0,
                 seen: Mapping[int, int] | None = None,
                 previous: Searcher | None = None, partial: bool = False,
                 killers: bool = True) -> None:
        self.me = me
        #: Repetition keys of the game's positions at turn starts (None: no repetition
        #: check); ``path`` holds those of the current line's turn starts.
        self.seen = seen
        self.path: dict[int, int] = {}
        self.repetitions = 0
        #: Threat extensions: a leaf where either player could win on their next turn
        #: (a static check: :func:`home_threat`, :func:`hero_threat`) is searched one
        #: turn further, at most ``extend`` times along a line, so that the player to
        #: move shows whether they can parry the threat (or carry it out).
        self.extend = extend
        self.base_end = -1  # end_turns of the current iteration
        self.weights = weights
        self.deadline = deadline
        self.node_limit = node_limit
        self.noise = noise
        self.rng = rng
        self.tt: dict[int, tuple[int, float, int, Option | None]] = {}
        self.leaves: dict[int, float] = {}
        #: The tables of the same player's previous search in this game, read where
        #: this one has nothing yet (a warm start: the last turn searched ahead).
        self.old_tt: dict[int, tuple[int, float, int, Option | None]] = (
            {} if previous is None else previous.tt)
        self.old_leaves: dict[int, float] = {} if previous is None else previous.leaves
        self.warm_entries = len(self.old_tt)  # how warm the start was
        #: Keep the best option found so far in the root's turn when an iteration runs
        #: out of budget (what beat the last iteration's best at the new depth).
        self.partial = partial
        self.root_turns = -1  # turns taken at the root
        self.threats: dict[int, bool] = {}
        self.history: dict[tuple[str, Option], int] = {}
        #: Killers: per ply, the last two options that cut off there (tried right after
        #: the table's hint: a refutation often refutes the sibling lines too).
        self.killers: dict[int, list[Option]] = {}
        self.use_killers = killers
        self.nodes = 0
        self.extensions = 0
        self.interruptible = False
        #: The root is a decision between two turns (a rule module's round end, such as
        #: M-GLORY's End phase): the horizon ends at a turn's start, not at a count of
        #: turns, so its first iteration searches the searching side's own round-end
        #: decisions (and their chance) on to the next turn or the other side's turn to
        #: decide, where the evaluation takes over.
        self.to_play = False

    # -- budget --------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if not self.interruptible:
            return
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if (self.deadline is not None and not self.nodes & 127
                and time.perf_counter() > self.deadline):
            raise _OutOfBudget

    # -- the tree --------------------------------------------------------------------
    def leaf(self, s: State, key: int) -> float:
        value = self.leaves.get(key)
        if value is None and self.old_leaves:
            value = self.old_leaves.get(key)
        if value is None:
            value = evaluate(s, self.me, self.weights)
            if self.noise:
                value += self.rng.gauss(0.0, self.noise)
            self.leaves[key] = value
        return value

    def value(self, s: State, end_turns: int, alpha: float, beta: float, ply: int,
              own: bool = False) -> float:
        """The minimax/expectimax value of ``s`` for ``me`` (fail-soft alpha-beta).

        ``own``: the caller hands ``s`` over (a child it made and drops after the call),
        so the last option is applied to ``s`` itself: one clone fewer."""
        if s.result is not None:
            return terminal_value(s, self.me, ply, -self.weights.draw_contempt)
        self._tick()
        rkey: int | None = None
        shared: tuple[object, ...] | None = None
        if self.seen is not None and at_turn_start(s):
            shared = shared_fields(s)  # what both keys read, worked out once
            rkey = repetition_key(s, shared)
            if ply > 0 and (rkey in self.seen or rkey in self.path):
                self.repetitions += 1
                return -self.weights.contempt  # a loop: a draw, with contempt
        key = position_key(s, shared)
        remaining = end_turns - s.turns_taken[0] - s.turns_taken[1]
        if remaining <= 0 and not (self.to_play and s.stack[-1][0] != "play"
                                   and (s.is_chance or s.current_player == self.me)):
            if (end_turns - self.base_end < self.extend and not s.is_chance
                    and s.stack[-1][0] == "play" and self._threatened(s, key)):
                self.extensions += 1
                return self.value(s, end_turns + 1, alpha, beta, ply, own)
            return self.leaf(s, key)
        entry = self.entry(key)
        hint: Option | None = None
        if entry is not None:
            depth, v, flag, hint = entry
            if ply and depth >= remaining and (flag == EXACT or (flag == LOWER and v >= beta)
                                       or (flag == UPPER and v <= alpha)):
                return v
        if s.is_chance:
            return self._chance(s, end_turns, alpha, beta, ply)
        maximize = s.current_player == self.me
        kind = s.stack[-1][0]
        a0, b0 = alpha, beta
        best_v = -math.inf if maximize else math.inf
        best: Option | None = None
        if rkey is not None:
            self.path[rkey] = self.path.get(rkey, 0) + 1
        options = self._ordered(s, kind, hint, ply)
        last = len(options) - 1
        try:
            for i, option in enumerate(options):
                child = s if own and i == last else s.clone()
                child.apply(option)
                v = self.value(child, end_turns, alpha, beta, ply + 1, True)
                if maximize:
                    if v > best_v:
                        best_v, best = v, option
                        alpha = max(alpha, v)
                elif v < best_v:
                    best_v, best = v, option
                    beta = min(beta, v)
                if alpha >= beta:
                    hkey = (kind, option)
                    self.history[hkey] = self.history.get(hkey, 0) + remaining * remaining
                    if self.use_killers:
                        killers = self.killers.get(ply)
                        if killers is None:
                            self.killers[ply] = [option]
                        elif killers[0] != option:
                            self.killers[ply] = [option, killers[0]]
                    break
        except _OutOfBudget:
            # In the root's turn, the best of the options searched to the new depth is
            # a lower bound (if it beat the window) and a better choice than the last
            # iteration's: the hint was searched first.
            if (self.partial and maximize and best is not None and best_v > a0
                    and s.turns_taken[0] + s.turns_taken[1] == self.root_turns):
                self.tt[key] = (remaining, best_v, LOWER, best)
            raise
        if rkey is not None:
            left = self.path[rkey] - 1
            if left:
                self.path[rkey] = left
            else:
                del self.path[rkey]
        flag = UPPER if best_v <= a0 else LOWER if best_v >= b0 else EXACT
        self.tt[key] = (remaining, best_v, flag, best)
        return best_v

    def entry(self, key: int) -> tuple[int, float, int, Option | None] | None:
        """The table's entry for a position (depth, value, bound, best option), this
        search's or else the previous one's."""
        entry = self.tt.get(key)
        if entry is None and self.old_tt:
            entry = self.old_tt.get(key)
        return entry

    def _threatened(self, s: State, key: int) -> bool:
        """Whether either player could (statically) win on their next turn."""
        found = self.threats.get(key)
        if found is None:
            found = any(home_threat(s, q) or hero_threat(s, q) for q in (0, 1))
            self.threats[key] = found
        return found

    def _ordered(self, s: State, kind: str, hint: Option | None, ply: int) -> list[Option]:
        options = s.legal_options()
        history = self.history
        killers = self.killers.get(ply) if self.use_killers else None

        def priority(o: Option) -> tuple[int, int, int]:
            mode = _MODE_ORDER.get(o.mode, 5) if isinstance(o, Play) else 0
            # An option equals no None; Play's == and hash run as Python code: skip them
            # where they cannot count.
            if hint is not None and (o is hint or o == hint):
                first = 0
            elif killers is not None and o in killers:
                first = 1 + killers.index(o)
            else:
                first = 3
            return (first, -history.get((kind, o), 0) if history else 0, mode)
        if len(options) > 1:
            options.sort(key=priority)
        return options

    def _chance(self, s: State, end_turns: int, alpha: float, beta: float, ply: int) -> float:
        """Expectation over the outcomes (merged by position), with Star1 cut-offs."""
        weights: dict[int, float] = {}
        children: dict[int, State] = {}
        outcomes = s.chance_outcomes()
        if len(outcomes) > WIDE_CHANCE and s.stack[-1][0] not in ("deal", "roll") \
                and not _is_die(outcomes):  # a die (M-COND's Dread test) is searched whole
            # A rule module's wide chance (M-GLORY's objective draw: up to 12 outcomes,
            # often two in a row): a seeded sample of them, reweighted (sparse sampling),
            # so a draw costs a few children rather than a hundred.
            picked = self.rng.sample(outcomes, WIDE_CHANCE)
            mass = sum(p for _, p in picked)
            outcomes = [(o, p / mass) for o, p in picked]
        for outcome, p in outcomes:
            child = s.clone()
            child.apply(outcome)
            k = position_key(child)
            weights[k] = weights.get(k, 0.0) + p
            children.setdefault(k, child)
        lo, hi = -WIN, WIN
        total, rest = 0.0, 1.0
        for k, child in children.items():
            p = weights[k]
            rest -= p
            rest = max(rest, 0.0)
            a_i = (alpha - total - hi * rest) / p
            b_i = (beta - total - lo * rest) / p
            v = self.value(child, end_turns, max(a_i, lo), min(b_i, hi), ply + 1, True)
            if v >= b_i:
                return total + p * v + lo * rest  # a lower bound, at least beta
            if v <= a_i:
                return total + p * v + hi * rest  # an upper bound, at most alpha
            total += p * v
        return total

    def principal_line(self, s: State) -> list[Option]:
        """The best options for ``me``'s consecutive decisions, from the table."""
        line: list[Option] = []
        s = s.clone()
        me = s.current_player
        while s.result is None and not s.is_chance and s.current_player == me:
            entry = self.entry(position_key(s))
            if entry is None or entry[3] is None or entry[3] not in s.legal_options():
                break
            line.append(entry[3])
            turns = s.turns_taken[:]
            s.apply(entry[3])
            if s.turns_taken != turns:
                break
        return line

    def principal_variation(self, s: State, max_plies: int = 80) -> list[Option]:
        """The line the table expects from ``s`` for both players, as far as the search
        saw it (only reads the table). At a die roll it takes the most likely outcome,
        outcomes that lead to the same position merged (the first face of them)."""
        line: list[Option] = []
        rolled = False  # the last option taken is a chance outcome
        turns: list[int] = []
        s = s.clone()
        while s.result is None and len(line) < max_plies:
            if s.is_chance:
                merged: dict[int, tuple[float, Option]] = {}
                for outcome, p in s.chance_outcomes():
                    child = s.clone()
                    child.apply(outcome)
                    k = position_key(child)
                    weight, first = merged.get(k, (0.0, outcome))
                    merged[k] = (weight + p, first)
                option = max(merged.values(), key=lambda wo: wo[0])[1]
            else:
                entry = self.entry(position_key(s))
                if entry is None or entry[3] is None or entry[3] not in s.legal_options():
                    break
                option = entry[3]
            rolled = s.is_chance
            turns = s.turns_taken[:]
            line.append(option)
            s.apply(option)
        if rolled and s.result is None and s.turns_taken == turns:
            line.pop()  # a roll mid-turn with nothing the search saw after it
        return line


def _is_die(outcomes: list[tuple[Option, float]]) -> bool:
    """Whether a chance node is a six-sided die (faces 1 to 6): its outcomes merge by
    position (MODULES.md §4.8: a Dread test at TN 3 is two children), so it is never
    sampled."""
    return len(outcomes) == 6 and all(o == i + 1 for i, (o, _) in enumerate(outcomes))


#: A module chance node with more outcomes than this is searched on a sample of this many.
WIDE_CHANCE: Final = 3


class SearchAgent(PlanningAgent):
    """Iterative-deepening alpha-beta/expectimax over whole turns (see the module doc).

    Budget: ``time`` seconds per turn (default 1.0) or ``nodes`` per turn;
    ``max_depth`` caps the depth in turns; ``noise`` adds Gaussian noise to leaf
    scores (weaker, more varied play); ``repetition=False`` turns the repetition check
    off (as before it existed); ``warm=False`` starts every search cold and
    ``partial=False`` drops an unfinished iteration (both as before v4);
    ``fill_clock=True`` starts an iteration even when it cannot finish in the time
    left (with ``partial`` an unfinished iteration still counts), so a time budget is
    spent to its end (v5; off by default: no strength gain measured over v4);
    ``killers=False`` orders moves without killers (as before v8).
    """

    name = "search"
    default_time: float | None = 1.0
    #: One turn deep and never extended, whatever ``max_depth`` and ``extend`` say
    #: (the greedy agent).
    one_turn: bool = False

    def __init__(self, seed: int | None = None, time: float | None = None,
                 nodes: int | None = None, max_depth: int = 12, noise: float = 0.0,
                 weights: Weights = DEFAULT_WEIGHTS, extend: int = 0,
                 repetition: bool = True, warm: bool = True, partial: bool = True,
                 fill_clock: bool = False, killers: bool = True,
                 module_eval: str = "aware", **kwargs: Any) -> None:
        super().__init__(seed=seed, time=time, nodes=nodes, **kwargs)
        if self.one_turn:
            max_depth, extend = 1, 0
        self.repetition = repetition
        self.warm = warm
        self.partial = partial
        self.fill_clock = fill_clock and partial
        self.killers = killers
        #: The last search's tables and where it stood (player, turns taken, settings),
        #: for a warm start of the next search in the same game.
        self._last: Searcher | None = None
        self._last_settings: object = None
        self.max_depth = max_depth
        self.extend = extend
        self.noise = noise
        self.weights = weights
        if module_eval not in ("aware", "blind"):
            raise ValueError(f"module_eval must be 'aware' or 'blind', not {module_eval!r}")
        if module_eval == "blind":  # the rule modules' terms off (MODULES.md §10.2 step 4)
            self.weights = replace(self.weights, module_terms=0.0)

    def analyse(self, state: State, deadline: float | None = None,
                nodes: int | None = None, seen: Mapping[int, int] | None = None,
                ) -> tuple[list[Option], float, int, Searcher]:
        """Search ``state``: (best line, value for the player to move, depth, searcher).

        ``seen``: repetition keys of the game's positions at turn starts (default: the
        ones this agent has seen in its game, :attr:`seen`), for the repetition check.
        """
        me = state.current_player
        root_turns = state.turns_taken[0] + state.turns_taken[1]
        last = self._last
        if (last is None or seen is not None or last.me != me
                or last.root_turns > root_turns or self._last_settings != state.settings):
            # Another player, game, rules, or a history given from outside (its
            # repetitions are not the ones the table's values saw): a cold start.
            last = None
        if seen is None:
            seen = self.seen if self.repetition else None
        searcher = Searcher(me, self.weights, deadline, nodes, self.noise, self.rng,
                            extend=self.extend, seen=seen, previous=last,
                            partial=self.partial, killers=self.killers)
        searcher.root_turns = root_turns
        # A module's round-end decision (its frames wait under the next turn's start).
        between = bool(state.settings.modules) and any(f[0] == "next_turn" for f in state.stack)
        searcher.to_play = between
        line: list[Option] = []
        value, depth_done = 0.0, 0
        started = time.perf_counter()
        for depth in range(1, self.max_depth + 1):
            searcher.interruptible = depth > 1  # always finish one turn deep ...
            searcher.extend = self.extend if depth > 1 else 0  # ... which is quick
            iteration_start = time.perf_counter()
            searcher.path.clear()  # an interrupted iteration leaves its line behind
            try:
                end = root_turns + depth - (1 if between else 0)
                searcher.base_end = end
                v = searcher.value(state, end, -math.inf, math.inf, 0)
            except _OutOfBudget:
                if self.partial:
                    line = searcher.principal_line(state) or line
                break
            value, depth_done = v, depth
            line = searcher.principal_line(state) or line
            if abs(v) >= WIN_THRESHOLD:
                break  # proven
            if deadline is not None and nodes is None and not self.fill_clock:
                # The next iteration costs several times this one: don't start what
                # cannot finish.
                now = time.perf_counter()
                if now + (now - iteration_start) * 3 > deadline:
                    break
        if self.warm:
            self._last, self._last_settings = searcher, state.settings
            searcher.old_tt, searcher.old_leaves = {}, {}  # one search back is enough
        self.stats = {"nodes": searcher.nodes, "seconds": time.perf_counter() - started,
                      "value": value, "depth": depth_done,
                      "extensions": searcher.extensions, "warm": searcher.warm_entries,
                      # the turns taken at the root of the search it started from
                      "warm_turn": -1 if last is None else last.root_turns,
                      "repetitions": searcher.repetitions}
        return line, value, depth_done, searcher

    def plan(self, state: State, deadline: float | None, nodes: int | None) -> list[Option]:
        line, _, _, _ = self.analyse(state, deadline, nodes)
        return line


class GreedyAgent(SearchAgent):
    """The best one-turn outcome under the evaluation (chance by expectation)."""

    name = "greedy"
    default_time: float | None = None
    one_turn: bool = True
