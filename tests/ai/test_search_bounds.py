"""The search's values and its table's entries are true bounds for any window (issue 31:
a fail-high exactly at beta stored in the table as exact passed every test, sample E's
last survivor, ``search.py``'s table flag). Alpha-beta with a window (a, b) returns a
value v that is the position's value when a < v < b, an upper bound when v <= a and
a lower bound when v >= b; the table stores each node's value as exact, a lower or an
upper bound accordingly. From positions of random games, the root is searched over one
turn with windows whose edge is exactly one of its options' values (so that a cut-off
lands on the window's edge), and each result and the root's table entry are checked
against the plain expectimax."""

from __future__ import annotations

import itertools
import math

import pytest

from reliquary.ai.evaluation import DEFAULT_WEIGHTS
from reliquary.ai.hashing import position_key
from reliquary.ai.search import EXACT, LOWER, UPPER, Searcher
from reliquary.engine import State

from .test_search_reference import _turn_starts, expectimax

TOLERANCE = 1e-6


def _check(value: float, flag: int, exact: float) -> None:
    if flag == EXACT:
        assert value == pytest.approx(exact, abs=TOLERANCE)
    elif flag == LOWER:
        assert exact >= value - TOLERANCE
    else:
        assert flag == UPPER
        assert exact <= value + TOLERANCE


def _windows(state: State, me: int, end_turns: int) -> tuple[float, list[tuple[float, float]]]:
    """The root's value, and windows with an edge at each option's value."""
    values = []
    for option in state.legal_options():
        child = state.clone()
        child.apply(option)
        values.append(expectimax(child, me, end_turns, 1))
    exact = max(values)
    edges = sorted(set(values))
    return exact, ([(-math.inf, v) for v in edges] + [(v, math.inf) for v in edges]
                   + list(itertools.pairwise(edges)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_value_at_a_window_s_edge_is_stored_as_a_bound(seed: int) -> None:
    checked = {EXACT: 0, LOWER: 0, UPPER: 0}
    for state in _turn_starts(seed, 4):
        me = state.current_player
        end_turns = sum(state.turns_taken) + 1
        exact, windows = _windows(state, me, end_turns)
        for alpha, beta in windows:
            searcher = Searcher(me, DEFAULT_WEIGHTS)
            value = searcher.value(state.clone(), end_turns, alpha, beta, 0)
            flag = UPPER if value <= alpha else LOWER if value >= beta else EXACT
            _check(value, flag, exact)
            stored = searcher.tt[position_key(state)]
            assert stored[1] == value
            _check(stored[1], stored[2], exact)
            checked[stored[2]] += 1
    assert min(checked.values()) > 0, checked  # each kind of entry was met
