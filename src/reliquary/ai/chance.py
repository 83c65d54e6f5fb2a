"""Chance outcomes sampled with their probabilities: the one thing every player of a
game needs from outside the agents (kept apart so that no agent module imports the
registry that imports it)."""

from __future__ import annotations

import random

from ..engine import Option, State


def sample_chance(state: State, rng: random.Random) -> Option:
    """Sample the current chance decision's outcome with its probabilities."""
    outcomes = state.chance_outcomes()
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
