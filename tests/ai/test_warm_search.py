"""The search's warm start (a search reads its player's last table in the game) and its
use of an unfinished iteration (the best option of the root's turn searched deeper)."""

from __future__ import annotations

import math
import random
import time

import pytest

from reliquary import new_game
from reliquary.ai.base import sample_chance
from reliquary.ai.hashing import at_turn_start
from reliquary.ai.search import SearchAgent, Searcher
from reliquary.engine import Option, State


def turn_starts(count: int, seed: int = 5) -> list[State]:
    """Turn starts of a seeded game of greedy against greedy, from its third round."""
    rng = random.Random(seed)
    agents = [SearchAgent(seed=seed, nodes=None, max_depth=1, warm=False) for _ in (0, 1)]
    state, found = new_game(), []
    while not state.is_terminal and len(found) < count:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if state.rounds >= 3 and at_turn_start(state) and state.stack[-1][0] == "play":
            found.append(state.clone())
        state.apply(agents[state.current_player].choose(state))
    assert len(found) == count
    return found


@pytest.fixture(scope="module")
def positions() -> list[State]:
    return turn_starts(24)


def test_a_second_search_starts_from_the_first_ones_table(positions: list[State]) -> None:
    state = positions[4]
    agent = SearchAgent(seed=1, max_depth=3)
    line, value, depth, first = agent.analyse(state)
    again_line, again_value, again_depth, again = agent.analyse(state)
    assert (again_line, again_value, again_depth) == (line, value, depth)
    assert again.nodes < first.nodes / 4  # the table already holds the answers
    # A history given from outside starts cold: its repetitions are not the table's.
    _, _, _, outside = agent.analyse(state, seen={})
    assert outside.nodes == first.nodes
    _, _, _, cold = SearchAgent(seed=1, max_depth=3, warm=False).analyse(state)
    _, _, _, cold_again = SearchAgent(seed=1, max_depth=3, warm=False).analyse(state)
    assert cold.nodes == cold_again.nodes == first.nodes


def test_the_table_is_kept_only_for_the_same_player_and_game(positions: list[State]) -> None:
    agent = SearchAgent(seed=1, max_depth=2)
    later = positions[6]
    agent.analyse(later)
    earlier = positions[2]  # fewer turns taken: another game, or an undo
    _, _, _, searcher = agent.analyse(earlier)
    assert searcher.warm_entries == 0
    _, _, _, searcher = agent.analyse(positions[8])
    assert searcher.warm_entries > 0  # the same player (as at positions[2]) later: warm
    other = positions[9]  # the other player
    assert other.current_player != earlier.current_player
    _, _, _, searcher = agent.analyse(other)
    assert searcher.warm_entries == 0


def exact(state: State, prefix: list[Option], option: Option, end_turns: int) -> float:
    """The value of ``option`` after ``prefix`` in the root's turn, searched to
    ``end_turns`` with a fresh table (for the root's player)."""
    s = state.clone()
    for o in prefix:
        s.apply(o)
    s.apply(option)
    return Searcher(state.current_player).value(s, end_turns, -math.inf, math.inf,
                                               len(prefix) + 1)


def test_an_unfinished_iteration_plays_what_beat_the_last_ones_choice(
        positions: list[State]) -> None:
    """With a budget that runs out in the second iteration, the option played where it
    differs from the first iteration's choice is at least as good two turns deep."""
    changed = 0
    for state in positions:
        kwargs = {"seed": 1, "warm": False, "repetition": False}
        one = SearchAgent(max_depth=1, **kwargs).analyse(state)[3].nodes
        two = SearchAgent(max_depth=2, **kwargs).analyse(state)[3].nodes
        budget = (one + two) // 2  # half way through the second iteration
        line, _, depth, searcher = SearchAgent(partial=True, **kwargs).analyse(
            state, None, budget)
        dropped, _, _, _ = SearchAgent(partial=False, **kwargs).analyse(state, None, budget)
        assert depth == 1 and searcher.nodes > budget  # the second iteration ran out
        legal = state.clone()
        for option in line:  # the line is legal through the root's turn
            assert option in legal.legal_options()
            legal.apply(option)
        if line == dropped:
            continue
        changed += 1
        i = next(i for i, (a, b) in enumerate(zip(line, dropped, strict=False)) if a != b)
        end = state.turns_taken[0] + state.turns_taken[1] + depth + 1
        assert (exact(state, line[:i], line[i], end)
                >= exact(state, line[:i], dropped[i], end))
    assert changed >= 3  # the sample has positions where the deeper look changed the choice


def test_a_time_budget_is_spent_to_its_end(positions: list[State]) -> None:
    """With ``fill_clock`` the search starts an iteration it cannot finish (it still
    counts); without, it stops after the one it finished. Depth 1 is always finished,
    so a deadline already past shows the rule without timing anything."""
    state = positions[8]
    thinks = {}
    for fill in (True, False):
        agent = SearchAgent(seed=1, fill_clock=fill)
        line, _, depth, searcher = agent.analyse(state, deadline=time.perf_counter())
        assert depth == 1 and line and line[0] in state.legal_options()
        thinks[fill] = searcher.nodes
    depth_one = SearchAgent(seed=1, max_depth=1).analyse(state)[3].nodes
    assert thinks[False] == depth_one
    assert depth_one < thinks[True] <= depth_one + 128  # the deadline is read every 128 nodes
    # Off by default (v4); without partial iterations an unfinished one would be wasted.
    assert not SearchAgent().fill_clock
    assert not SearchAgent(partial=False, fill_clock=True).fill_clock


def test_killers_search_the_same_values_with_fewer_nodes(positions: list[State]) -> None:
    """Killers only reorder the options: an exact search (no budget) finds the same value
    at each depth, and the refutations tried first cut sooner."""
    with_killers = without = 0
    for state in positions[:6]:
        for depth in (2, 3):
            plain = SearchAgent(seed=1, max_depth=depth, warm=False, killers=False)
            killing = SearchAgent(seed=1, max_depth=depth, warm=False)  # the default
            _, value, done, searcher = plain.analyse(state)
            _, k_value, k_done, k_searcher = killing.analyse(state)
            assert k_value == pytest.approx(value) and k_done == done
            assert k_searcher.killers and not searcher.killers  # a killer per cut ply
            without += searcher.nodes
            with_killers += k_searcher.nodes
    assert with_killers < 0.95 * without
    assert SearchAgent().killers  # on by default since v8 won its SPRT against v4
