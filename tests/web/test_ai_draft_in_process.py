"""The server's in-process AI (no worker pool: ``choose_remembering``) drafts factions
and rites from the lab's values, as the workers do (docs/ai.md, ``ai.drafting``): at a
faction or rite decision its option is ``draft_choice`` with the agent's own random
stream. Issue 31, sample K: the draft skipped (the agent then choosing by its search)
passed every test."""

from __future__ import annotations

import random

import pytest

import reliquary
from reliquary.ai import get_agent
from reliquary.ai.drafting import DRAFT_KINDS, draft_choice
from reliquary.engine import State
from reliquary.web.ai_pool import choose_remembering


def draft_decisions(seed: int) -> list[State]:
    """Each faction and rite decision of a random game's setup."""
    rng = random.Random(seed)
    state = reliquary.new_game()
    found: list[State] = []
    while not state.is_terminal and sum(state.turns_taken) == 0:
        if not state.is_chance and state.decision().kind in DRAFT_KINDS:
            found.append(state.clone())
        state.apply(rng.choice(state.legal_options()))
    return found


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_the_in_process_ai_drafts_from_the_values(level: str) -> None:
    decisions = [s for seed in (1, 2, 3) for s in draft_decisions(seed)]
    assert {s.decision().kind for s in decisions} == set(DRAFT_KINDS)
    for n, state in enumerate(decisions):
        agent, twin = get_agent(level, seed=n), get_agent(level, seed=n)
        expected = draft_choice(state, twin.rng)  # type: ignore[attr-defined]
        assert choose_remembering(agent, state, []) == expected
