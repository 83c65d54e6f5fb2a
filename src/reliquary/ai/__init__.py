"""AI players for Reliquary, built on the engine's public API.

Agents by name (:data:`AGENTS`: ``random``, ``greedy``, ``mcts``, ``search``) or by
difficulty level (:data:`LEVELS`: ``easy``, ``medium``, ``hard``, ``max``) through
:func:`get_agent`; see ``docs/ai.md``.
"""

from .base import AGENTS, LEVELS, Agent, RandomAgent, get_agent, sample_chance
from .evaluation import WIN, Weights, evaluate
from .hashing import position_key

__all__ = ["AGENTS", "LEVELS", "WIN", "Agent", "RandomAgent", "Weights", "evaluate",
           "get_agent", "position_key", "sample_chance"]
