"""At a rule module's round-end decision (Glory's objective discards, which wait under
the next turn's start), the search's first iteration — one turn deep, never
interrupted — settles the round's end and stops at the next turn's start, as an
iteration started at a turn start stops at the next one (docs/ai.md: depth is counted
in whole turns). Issue 31, sample K: an iteration there two turns deeper than asked (a
first iteration of hundreds of thousands of positions, which no time budget cuts
short) passed every test."""

from __future__ import annotations

import random

import pytest

import reliquary
from reliquary.ai import sample_chance
from reliquary.ai.search import SearchAgent
from reliquary.engine import State


def round_end_decision(seed: int) -> State:
    """A random Glory game's first round-end decision of a player."""
    rng = random.Random(seed)
    state = reliquary.new_game(round_cap=30, modules=("glory",))
    while state.is_chance or not any(f[0] == "next_turn" for f in state.stack):
        assert not state.is_terminal
        if state.is_chance:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_options()))
    return state


def positions_until_the_next_turn(state: State, me: int) -> int:
    """The positions from ``state`` to the next turn's start through ``me``'s decisions
    and chance (the other player's decisions there are the search's leaves)."""
    if (state.result is not None or state.stack[-1][0] == "play"
            or (not state.is_chance and state.current_player != me)):
        return 1
    options = ([o for o, _ in state.chance_outcomes()] if state.is_chance
               else state.legal_options())
    total = 1
    for option in options:
        child = state.clone()
        child.apply(option)
        total += positions_until_the_next_turn(child, me)
    return total


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_first_iteration_at_a_round_end_decision_stops_at_the_next_turn(seed: int) -> None:
    state = round_end_decision(seed)
    me = state.current_player
    turns = list(state.turns_taken)
    line, _, depth, searcher = SearchAgent(seed=1, max_depth=1).analyse(state.clone())
    assert depth == 1 and line
    assert 0 < searcher.nodes <= positions_until_the_next_turn(state, me)
    assert list(state.turns_taken) == turns
