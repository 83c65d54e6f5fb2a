"""AI players for Reliquary, built on the engine's public API."""

from .base import AGENTS, LEVELS, Agent, RandomAgent, get_agent, sample_chance

__all__ = ["AGENTS", "LEVELS", "Agent", "RandomAgent", "get_agent", "sample_chance"]
