"""A search's first iteration as docs/ai.md and the search's docstring give it: one
whole turn deep, never interrupted and never extended ("threat extensions ... from the
second iteration on"; the greedy agent is "one turn deep and never extended, whatever
``max_depth`` and ``extend`` say"), and the depth a search reports is the number of
iterations it finished. Issue 31, sample L: the first iteration extended once
(``else 0`` → ``else 1``) passed every test; so did a reported depth starting at 1
(equivalent but for a cap of 0, pinned here too)."""

from __future__ import annotations

from typing import Any

import pytest

from reliquary.ai.search import GreedyAgent, SearchAgent
from reliquary.content import default_content
from reliquary.engine import KEY, SKULL, Builder, State


def _carrier_threat() -> State:
    # A Skull Minion on d7 carries the Key relic one step from home, Skull holding three
    # cards that each take it there: most of Key's turns leave that threat standing, so
    # the leaves of a one-turn search are threatened (tests/ai/test_search.py).
    return (Builder(default_content()).hero(KEY, "b2").minion(KEY, "e6").minion(KEY, "g3")
            .hero(SKULL, "h5").minion(SKULL, "d7").carry(KEY, "d7").relic(SKULL, "a6")
            .hands(key=["Crossroads", "Sidewind", "Procession"],
                   skull=["Pilgrim", "Vault", "Litany"], waiting="Requiem")
            .build())


def _plain() -> State:
    return (Builder(default_content()).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
            .hero(SKULL, "h5").minion(SKULL, "g7").build())


@pytest.mark.parametrize("extend", [0, 1, 2])
def test_the_first_iteration_is_never_extended(extend: int) -> None:
    agent = SearchAgent(seed=1, nodes=2_000_000, max_depth=1, extend=extend)
    _, value, depth, searcher = agent.analyse(_carrier_threat(), None, 2_000_000)
    assert depth == 1
    assert searcher.extensions == 0 and agent.stats["extensions"] == 0
    reference = SearchAgent(seed=1, nodes=2_000_000, max_depth=1, extend=0)
    _, plain_value, _, _ = reference.analyse(_carrier_threat(), None, 2_000_000)
    assert value == plain_value


def test_the_greedy_agent_is_never_extended() -> None:
    agent: Any = GreedyAgent(seed=1, nodes=2_000_000)
    agent.analyse(_carrier_threat(), None, 2_000_000)
    assert agent.stats["extensions"] == 0 and agent.stats["depth"] == 1


def test_the_second_iteration_may_extend() -> None:
    """The threat stands at the first iteration's leaves: the second extends them (so
    the test above, at the same position, would notice an extended first one)."""
    agent = SearchAgent(seed=1, nodes=2_000_000, max_depth=2, extend=1)
    _, _, depth, searcher = agent.analyse(_carrier_threat(), None, 2_000_000)
    assert depth == 2 and searcher.extensions > 0


def test_a_search_capped_at_0_turns_reports_nothing_searched() -> None:
    agent = SearchAgent(seed=0, nodes=10_000, max_depth=0)
    line, value, depth, _ = agent.analyse(_plain(), None, 10_000)
    assert (line, value, depth) == ([], 0.0, 0)
    assert agent.stats["depth"] == 0 and agent.stats["value"] == 0.0


@pytest.mark.parametrize("cap", [1, 2])
def test_a_search_reports_the_iterations_it_finished(cap: int) -> None:
    agent = SearchAgent(seed=0, nodes=10_000_000, max_depth=cap)
    line, _, depth, _ = agent.analyse(_plain(), None, 10_000_000)
    assert depth == cap == agent.stats["depth"]
    assert line
