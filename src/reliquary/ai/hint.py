"""A hint for the front ends: the best option an agent finds within a budget, what it
is worth, the line the agent expects, and the best alternatives.

:func:`analyse` is what ``reliquary hint`` and the web hint show::

    {"best": "Bolt:attack", "value": 0.42, "pv": ["Bolt:attack", "c3", "d5", ...],
     "alternatives": [{"option": "Vault:move", "value": 0.31, ...}, ...], ...}

**Values** are for the player to move, in [−1, 1]: the evaluation's points squashed
by :func:`squash`, ``tanh(points / 150)`` (150 points, about a Hero's HP and a Minion,
map to ±0.76), and ±1 exactly for a proven win or loss. ``mcts`` reports its own win
rate *w* as 2*w* − 1.

**The principal variation** is in notation, legal from the position: the agent's own
planned decisions, then what the search's table expects — the opponent's reply
included when the search reached it (depth 2 and more; ``greedy`` sees one turn). A die
roll on the line is written as its face (the most likely outcome, faces that lead to
the same position merged; the first of them is written).

**Alternatives** are the other options of the current decision, best first. For
``search`` (and the ``hard``/``max`` levels) each is first valued by a one-turn search,
then the best ``top`` of them are searched again as deep as the main search went,
within half the main budget more; each alternative says the ``depth`` (in turns) its
value comes from. ``mcts`` gives its root statistics (with ``visits``); other agents
a one-turn search. At setup decisions values are the static evaluation after the
choice (depth 0), except the secret faction choice (S3), which gets no alternatives:
their values would show which choice clashes with the other player's.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    PLAYER_NAMES,
    SETUP_KINDS,
    SIDES,
    Option,
    Play,
    State,
    format_option,
)
from ..engine.types import INTERACT
from ..engine.visibility import is_secret_choice
from .base import get_agent
from .evaluation import WIN_THRESHOLD, evaluate
from .mcts import MctsAgent, Node
from .planning import PlanningAgent, setup_choice
from .search import SearchAgent, Searcher, _OutOfBudget

#: Evaluation points that map to tanh(1) ≈ 0.76 (about a Hero's HP and a Minion).
VALUE_SCALE = 150.0


def squash(points: float) -> float:
    """Evaluation points (positive: good for the player) to [−1, 1]; proven results ±1.

    >>> squash(0.0), round(squash(150.0), 2), squash(-99_999.0)
    (0.0, 0.76, -1.0)
    """
    if points >= WIN_THRESHOLD:
        return 1.0
    if points <= -WIN_THRESHOLD:
        return -1.0
    return math.tanh(points / VALUE_SCALE)


@dataclass
class Hint:
    """``option``: the token to play; ``line``: the rest of the player's planned turn;
    ``evaluation``: the static evaluation for the player to move (points, positive is
    good); ``search_value``: what the search expects (points for ``search``/``greedy``,
    a win probability for ``mcts``), if it searched."""

    player: str
    decision: str
    option: str
    line: list[str]
    evaluation: float
    search_value: float | None
    agent: str
    stats: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "decision": self.decision, "option": self.option,
            "line": self.line, "evaluation": round(self.evaluation, 1),
            "search_value": None if self.search_value is None else round(self.search_value, 3),
            "agent": self.agent, "stats": self.stats,
        }


def suggest(state: State, agent: str = "hard", seed: int | None = 0, **budget: Any) -> Hint:
    """The best option for the player to move, found by ``agent`` within its budget."""
    if state.is_terminal:
        raise ValueError(f"the game is over: {state.result}")
    if state.is_chance:
        raise ValueError("the current decision is chance (a die roll or a deal): no hint")
    player = state.current_player
    decision = state.decision()
    chosen = get_agent(agent, seed=seed, **budget)
    line: list[Any]
    value: float | None = None
    stats: dict[str, Any] = {}
    if isinstance(chosen, PlanningAgent) and decision.kind not in SETUP_KINDS \
            and len(decision.options) > 1:
        deadline = None if chosen.time is None else time.perf_counter() + chosen.time
        line = chosen.plan(state, deadline, chosen.nodes) or [chosen.choose(state)]
        stats = {k: (round(v, 3) if isinstance(v, float) else v)
                 for k, v in chosen.stats.items()}
        value = stats.get("value")
        if isinstance(chosen.stats.get("nodes"), int) and chosen.stats.get("seconds"):
            stats["nodes_per_second"] = round(chosen.stats["nodes"] / chosen.stats["seconds"])
    elif isinstance(chosen, PlanningAgent) and decision.kind in SETUP_KINDS:
        line = [setup_choice(state, chosen.rng)]
    else:
        line = [chosen.choose(state)]
    tokens = []
    s = state.clone()
    for option in line:  # name each square on the board it is played on
        tokens.append(format_option(s, option))
        s.apply(option)
        if s.is_terminal or s.is_chance:
            break
    return Hint(player=PLAYER_NAMES[player], decision=decision.kind, option=tokens[0],
                line=tokens, evaluation=evaluate(state, player), search_value=value,
                agent=agent, stats=stats)


# ------------------------------------------------------------------------ analyse
def analyse(state: State, agent: str = "hard", seed: int | None = 0, top: int = 3,
            **budget: Any) -> dict[str, Any]:
    """The best option for the player to move with its value, the principal variation
    and the ``top`` best alternatives (see the module doc for what each means).

    ``agent`` is a registry name or a level; ``budget`` its keywords (``time``,
    ``nodes`` …; ``None`` values are ignored). Keys: ``player``, ``decision``, ``best``,
    ``value``, ``points`` (None for ``mcts``), ``pv``, ``pv_by`` (who takes each of
    its decisions: ``key``, ``skull`` or ``chance``), ``alternatives`` (each
    ``option``, ``value``, ``points``, ``depth``; ``visits`` for ``mcts``),
    ``evaluation`` (the static evaluation's points now), ``agent``, ``depth``,
    ``nodes`` and ``seconds``.
    """
    if state.is_terminal:
        raise ValueError(f"the game is over: {state.result}")
    if state.is_chance:
        raise ValueError("the current decision is chance (a die roll or a deal): no hint")
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise ValueError(f"top must be a whole number from 0 up, not {top!r}")
    decision = state.decision()
    chosen = get_agent(agent, seed=seed, **budget)
    started = time.perf_counter()
    if decision.kind in SETUP_KINDS:
        found = _setup_analysis(state, chosen)
    elif isinstance(chosen, SearchAgent):
        found = _search_analysis(state, chosen, top)
    elif isinstance(chosen, MctsAgent):
        found = _mcts_analysis(state, chosen)
    else:
        found = _one_turn_analysis(state, chosen.choose(state))
    best, points, value, pv, alternatives, depth, nodes = found
    alternatives.sort(key=lambda alt: -alt["value"])
    return {
        "player": SIDES[decision.player], "decision": decision.kind,
        "best": format_option(state, best), "value": round(value, 3),
        "points": None if points is None else round(points, 1),
        "pv": _tokens(state, pv), "pv_by": _deciders(state, pv),
        "explain": _explain(state, pv),
        "alternatives": alternatives[:top],
        "evaluation": round(evaluate(state, decision.player), 1), "agent": agent,
        "depth": depth, "nodes": nodes, "seconds": round(time.perf_counter() - started, 3),
    }


_Found = tuple[Option, float | None, float, list[Option], list[dict[str, Any]], int, int]


#: What the INTERACT mode is (M-MOD-3), for the hint's explanation of a module play.
INTERACT_NOTE = {
    "en": "INTERACT: the card is played for neither its move nor its attack; one of the "
          "rule modules' actions is taken instead.",
    "es": "INTERACTUAR: la carta no se juega ni para mover ni para atacar; se hace una de "
          "las acciones de los módulos de reglas.",
}


def _explain(state: State, line: list[Option]) -> list[dict[str, str]]:
    """What the line's module options do, in words (``token``, ``en``, ``es``): the
    INTERACT plays, and each action by its module's own text (its data's ``action``
    entries), so that a hint that suggests FOCUS or GUARD says what they are."""
    if not state.settings.modules:
        return []
    from ..engine.modules import get

    texts: dict[str, dict[str, str]] = {}
    cards: dict[str, dict[str, str]] = {}
    for name in state.settings.modules:
        for action in getattr(get(name).data, "action", ()):
            text = getattr(action, "text", None)
            if text is not None:
                texts[action.id] = {"en": text.en, "es": text.es}
        # M-GLORY's cards: an objective to discard or an upgrade to buy, by their texts
        for entry in (*getattr(get(name).data, "objective", ()),
                      *getattr(get(name).data, "upgrade", ())):
            cards[entry.id] = {"en": f"{entry.id}: {entry.en}", "es": f"{entry.id}: {entry.es}"}
    out: list[dict[str, str]] = []
    s = state.clone()
    for option in line:
        if s.is_terminal:
            break
        kind = s.decision().kind
        token = format_option(s, option)
        if isinstance(option, Play) and option.mode == INTERACT:
            out.append({"token": token, **INTERACT_NOTE})
        elif kind == "interact" and isinstance(option, str) and option in texts:
            out.append({"token": token, **texts[option]})
        elif kind in ("discard_objective", "upgrade") and isinstance(option, str) \
                and option in cards:
            out.append({"token": token, **cards[option]})
        s.apply(option)
    return out


def _tokens(state: State, line: list[Option]) -> list[str]:
    """The line in notation, each option named on the position it is played on."""
    tokens = []
    s = state.clone()
    for option in line:
        tokens.append(format_option(s, option))
        s.apply(option)
    return tokens


def _deciders(state: State, line: list[Option]) -> list[str]:
    """Who takes each decision of the line: ``key``, ``skull`` or ``chance``."""
    who = []
    s = state.clone()
    for option in line:
        who.append("chance" if s.is_chance else SIDES[s.current_player])
        s.apply(option)
    return who


def _alternative(state: State, option: Option, points: float, depth: int) -> dict[str, Any]:
    return {"option": format_option(state, option), "value": round(squash(points), 3),
            "points": round(points, 1), "depth": depth}


def _setup_analysis(state: State, chosen: Any) -> _Found:
    """Setup: the agent's choice, valued (like the others) by the static evaluation."""
    player = state.current_player
    best = (setup_choice(state, chosen.rng) if isinstance(chosen, PlanningAgent)
            else chosen.choose(state))
    if is_secret_choice(state):
        # S3 is secret: valuing each choice would show which one clashes with the
        # other player's, so the choice alone is given, with the position's value.
        now = evaluate(state, player)
        return best, now, squash(now), [best], [], 0, 1
    values = {}
    for option in state.legal_options():
        child = state.clone()
        child.apply(option)
        values[option] = evaluate(child, player)
    alternatives = [_alternative(state, o, v, 0) for o, v in values.items() if o != best]
    return best, values[best], squash(values[best]), [best], alternatives, 0, len(values)


def _search_analysis(state: State, chosen: SearchAgent, top: int) -> _Found:
    """``search``/``greedy``: the agent's own search, then its alternatives."""
    deadline = None if chosen.time is None else time.perf_counter() + chosen.time
    line, points, depth, searcher = chosen.analyse(state, deadline, chosen.nodes)
    options = state.legal_options()
    if not line or line[0] not in options:  # a safeguard: lines come from the options
        line = [options[0]]
    best = line[0]
    after = state.clone()
    for option in line:
        after.apply(option)
    root_turns = state.turns_taken[0] + state.turns_taken[1]
    pv = _within(state, [*line, *searcher.principal_variation(after)], root_turns + depth)
    others = [o for o in options if o != best]
    # One turn deep for every alternative: cheap (never interrupted), and the order
    # for going deeper.
    searcher.interruptible = False
    shallow = _values(searcher, state, others, root_turns + 1)
    deep: dict[Option, float] = {}
    if depth > 1 and others:
        searcher.interruptible = True
        searcher.deadline = (None if chosen.time is None
                             else time.perf_counter() + chosen.time / 2)
        searcher.node_limit = (None if chosen.nodes is None
                               else searcher.nodes + max(chosen.nodes // 2, 1))
        ranked = sorted(others, key=lambda o: -shallow[o])
        try:
            for option in ranked[:top]:
                deep.update(_values(searcher, state, [option], root_turns + depth))
        except _OutOfBudget:
            pass  # the rest keep their one-turn values
    alternatives = [_alternative(state, o, deep[o], depth) if o in deep
                    else _alternative(state, o, shallow[o], 1) for o in others]
    return best, points, squash(points), pv, alternatives, depth, searcher.nodes


def _within(state: State, line: list[Option], end_turns: int) -> list[Option]:
    """The start of ``line`` that stays within the turns a completed search covered (an
    interrupted deeper iteration leaves entries further on in the table)."""
    kept: list[Option] = []
    s = state.clone()
    for option in line:
        if s.turns_taken[0] + s.turns_taken[1] >= end_turns:
            break
        kept.append(option)
        s.apply(option)
    return kept


def _values(searcher: Searcher, state: State, options: list[Option],
            end_turns: int) -> dict[Option, float]:
    """Full-window values (for the searcher's player) of the options, up to ``end_turns``."""
    values = {}
    searcher.base_end = end_turns
    for option in options:
        child = state.clone()
        child.apply(option)
        searcher.path.clear()
        values[option] = searcher.value(child, end_turns, -math.inf, math.inf, 1)
    return values


def _mcts_analysis(state: State, chosen: MctsAgent) -> _Found:
    """``mcts``: its tree's root statistics and most-visited line."""
    deadline = None if chosen.time is None else time.perf_counter() + chosen.time
    root = chosen.search(state, deadline, chosen.nodes)
    if not root.children:
        return _one_turn_analysis(state, state.legal_options()[0])

    def worth(node: Node) -> float:
        return 2.0 * node.wins / node.visits - 1.0

    best, best_node = max(root.children.items(), key=lambda kv: kv[1].visits)
    pv: list[Option] = []
    node: Node = root
    while node.children:  # the most visited line, while it was visited enough to trust
        option, child = max(node.children.items(), key=lambda kv: kv[1].visits)
        if child.visits < 4:
            break
        pv.append(option)
        node = child
    if not pv:
        pv = [best]
    alternatives = [{"option": format_option(state, o), "value": round(worth(ch), 3),
                     "points": None, "depth": None, "visits": ch.visits}
                    for o, ch in root.children.items() if o != best]
    return best, None, worth(best_node), pv, alternatives, 0, root.visits


def _one_turn_analysis(state: State, best: Option) -> _Found:
    """An agent that does not search (``random``): its choice, with every option valued
    by a one-turn search."""
    searcher = Searcher(state.current_player)
    root_turns = state.turns_taken[0] + state.turns_taken[1]
    options = state.legal_options()
    others = [o for o in options if o != best]
    values = _values(searcher, state, [*others, best], root_turns + 1)
    after = state.clone()
    after.apply(best)
    pv = _within(state, [best, *searcher.principal_variation(after)], root_turns + 1)
    alternatives = [_alternative(state, o, values[o], 1) for o in others]
    return best, values[best], squash(values[best]), pv, alternatives, 1, searcher.nodes
