"""The search's move ordering (docs/ai.md, `search`: the table's option "is tried first";
"remaining options are ordered by a history heuristic (options that caused cut-offs),
then attacks before rites, moves and Regroup"; killers: "the last two options that cut
off at the same ply come right after the table's option"). Issue 31, sample F: the
second killer ranked with the other options passed every test (ordering changes no
exhaustive value, so the values' tests cannot see it)."""

from __future__ import annotations

from typing import Any

from reliquary.ai.evaluation import DEFAULT_WEIGHTS
from reliquary.ai.search import Searcher
from reliquary.engine import KEY, SKULL, Play, State

MODES = ["attack", "rite", "move", "regroup", "pass"]


def _turn(build: Any) -> State:
    """Key to play, with attacks, moves, a rite and a Regroup on offer."""
    return (build().hero(KEY, "d3").minion(KEY, "c4").hero(SKULL, "d5").minion(SKULL, "e5")
            .hands(key=["Pilgrim", "Crossroads", "Sidewind"], skull=["Vault"])
            .pools(key=1).build())


def _ordered(searcher: Searcher, state: State, hint: Any = None, ply: int = 1) -> list[Any]:
    return list(searcher._ordered(state, state.stack[-1][0], hint, ply))


def test_without_history_attacks_come_before_rites_moves_regroup_and_pass(build: Any) -> None:
    state = _turn(build)
    modes = [MODES.index(o.mode) for o in _ordered(Searcher(KEY, DEFAULT_WEIGHTS), state)
             if isinstance(o, Play)]
    assert modes == sorted(modes) and len(set(modes)) >= 2


def test_the_table_s_option_then_the_two_killers_then_history(build: Any) -> None:
    state = _turn(build)
    options = state.legal_options()
    assert len(options) >= 5
    hint, first, second, cut = options[-1], options[-2], options[-3], options[-4]
    searcher = Searcher(KEY, DEFAULT_WEIGHTS)
    searcher.killers[1] = [first, second]
    searcher.history[(state.stack[-1][0], cut)] = 50  # it caused cut-offs
    ordered = _ordered(searcher, state, hint)
    assert ordered[:4] == [hint, first, second, cut]
    assert sorted(map(str, ordered)) == sorted(map(str, options))
    # The killers are this ply's: at another ply only the hint and the history count.
    assert _ordered(searcher, state, hint, ply=2)[:2] == [hint, cut]
