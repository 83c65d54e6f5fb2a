"""A hint for the front ends: the best option an agent finds within a budget, and the
evaluation of the position."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import PLAYER_NAMES, State, format_option
from .base import get_agent
from .evaluation import evaluate
from .planning import SETUP_KINDS, PlanningAgent, setup_choice


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
