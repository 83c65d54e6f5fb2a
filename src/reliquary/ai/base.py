"""The agent contract every AI player follows, and the registry all front ends share.

An agent takes the whole game, setup included: ``agent.choose(state)`` returns one
of ``state.legal_options()`` for a state whose current player is not chance.
Chance is sampled by the caller (:func:`sample_chance`), never by an agent.

>>> agent = get_agent("easy", seed=1)
>>> sorted(LEVELS)
['easy', 'hard', 'max', 'medium']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from ..engine import Option, State
from .chance import sample_chance


class Agent(Protocol):
    """An AI player."""

    name: str

    def choose(self, state: State) -> Option:
        """One of ``state.legal_options()``; ``state`` is left unchanged."""
        ...


class RandomAgent:
    """Uniform over the legal options, setup included."""

    name = "random"

    def __init__(self, seed: int | None = None, **_: Any) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Option:
        return self.rng.choice(state.legal_options())


AgentFactory = Callable[..., Agent]


def _greedy(**kwargs: Any) -> Agent:
    from .search import GreedyAgent
    return GreedyAgent(**kwargs)


def _search(**kwargs: Any) -> Agent:
    from .search import SearchAgent
    return SearchAgent(**kwargs)


def _mcts(**kwargs: Any) -> Agent:
    from .mcts import MctsAgent
    return MctsAgent(**kwargs)


#: name -> factory(seed=..., **budget). Every front end offers this same list.
#: Budgets: ``time`` (seconds per turn) or ``nodes`` (search nodes / MCTS iterations
#: per turn); with ``nodes`` and a seed an agent is fully reproducible.
AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "greedy": _greedy,
    "mcts": _mcts,
    "search": _search,
}

#: difficulty level -> (agent name, budget keyword arguments)
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"noise": 60.0}),
    "medium": ("mcts", {"time": 0.3}),
    "hard": ("search", {"time": 1.5}),
    "max": ("search", {"time": 6.0}),
}


def get_agent(name: str, seed: int | None = None, **budget: Any) -> Agent:
    """An agent by registry name or difficulty level (``easy``, ``medium``, ``hard``, ``max``).

    Budget keywords override the level's defaults; ``None`` values are ignored.
    """
    budget = {k: v for k, v in budget.items() if v is not None}
    if name in LEVELS:
        agent_name, defaults = LEVELS[name]
        return AGENTS[agent_name](seed=seed, **{**defaults, **budget})
    if name not in AGENTS:
        known = ", ".join([*AGENTS, *LEVELS])
        raise ValueError(f"unknown agent {name!r}; known: {known}")
    return AGENTS[name](seed=seed, **budget)


__all__ = ["AGENTS", "LEVELS", "Agent", "AgentFactory", "RandomAgent", "get_agent",
           "sample_chance"]
