"""The search against a plain expectimax (issue 31: faults in its machinery — a bound
stored as exact, a Star1 cut-off's bound — passed every test): over one turn, from
positions of random games, the searcher's value (alpha-beta, Star1 cut-offs at chance
nodes, a transposition table, move ordering) equals the value of the same tree worked
out without any pruning or table. docs/ai.md: "iterative-deepening alpha-beta over
whole turns with expectimax chance nodes (Star1)" — the pruning must not change it."""

from __future__ import annotations

import math
import random

import pytest

import reliquary
from reliquary.ai import sample_chance
from reliquary.ai.evaluation import DEFAULT_WEIGHTS, evaluate, terminal_value
from reliquary.ai.search import Searcher
from reliquary.engine import State


def expectimax(s: State, me: int, end_turns: int, ply: int) -> float:
    if s.result is not None:
        return terminal_value(s, me, ply, -DEFAULT_WEIGHTS.draw_contempt)
    if end_turns - s.turns_taken[0] - s.turns_taken[1] <= 0:
        return evaluate(s, me, DEFAULT_WEIGHTS)
    if s.is_chance:
        total = 0.0
        for outcome, p in s.chance_outcomes():
            child = s.clone()
            child.apply(outcome)
            total += p * expectimax(child, me, end_turns, ply + 1)
        return total
    values = []
    for option in s.legal_options():
        child = s.clone()
        child.apply(option)
        values.append(expectimax(child, me, end_turns, ply + 1))
    return max(values) if s.current_player == me else min(values)


def _turn_starts(seed: int, count: int) -> list[State]:
    """Positions at the start of a turn (after setup) from a random game."""
    rng = random.Random(seed)
    state = reliquary.new_game(round_cap=60)
    found: list[State] = []
    while not state.is_terminal and len(found) < count:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if state.stack[-1][0] == "play" and sum(state.turns_taken) >= 2 and rng.random() < 0.3:
            found.append(state.clone())
        state.apply(rng.choice(state.legal_options()))
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_search_s_value_over_a_turn_is_the_plain_expectimax(seed: int) -> None:
    for state in _turn_starts(seed, 4):
        me = state.current_player
        end_turns = sum(state.turns_taken) + 1
        searcher = Searcher(me, DEFAULT_WEIGHTS)
        searched = searcher.value(state.clone(), end_turns, -math.inf, math.inf, 0)
        assert searched == pytest.approx(expectimax(state, me, end_turns, 0), rel=1e-9,
                                         abs=1e-6)


@pytest.mark.parametrize(("key_hp", "skull_hp"), [(1, 3), (2, 2), (3, 1), (1, 1)])
def test_over_a_turn_with_ordeal_s_die_the_search_is_the_plain_expectimax(
        build, key_hp: int, skull_hp: int) -> None:
    """Ordeal against any of three enemies in reach: a die at each, so the search's Star1
    cut-offs at chance nodes and its table's bounds are put to work."""
    from reliquary.engine import KEY, SKULL

    state = (build(factions=("veiled-hand", "veiled-hand"))
             .hero(KEY, "d3", hp=key_hp).minion(KEY, "b2").minion(KEY, "f2")
             .hero(SKULL, "d5", hp=skull_hp, veiled=True).minion(SKULL, "b4")
             .minion(SKULL, "f4").minion(SKULL, "h8").relic(KEY, "a2").relic(SKULL, "h6")
             .hands(key=["Ordeal", "Pilgrim", "Sidewind"], skull=["Vault", "Litany", "Serpent"])
             .build())
    end_turns = sum(state.turns_taken) + 1
    for me in (KEY, SKULL):
        searched = Searcher(me, DEFAULT_WEIGHTS).value(state.clone(), end_turns, -math.inf,
                                                       math.inf, 0)
        assert searched == pytest.approx(expectimax(state, me, end_turns, 0), rel=1e-9,
                                         abs=1e-6)
