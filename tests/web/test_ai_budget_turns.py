"""The AI's thinking budget is per turn (docs/web.md; web/ai_pool.py, ``AIPool.choose``):
its first think of each new turn has 85% of the level's budget again, whatever it spent
on its turns before. Issue 31, sample J: a fault that carried the time spent over into
the next turns (the AI then thinking a twentieth of its budget from its second turn on)
passed every test, whose thinks were all in one turn."""

from __future__ import annotations

import asyncio
import random

import pytest

from reliquary.ai import sample_chance
from reliquary.content import default_content
from reliquary.engine import KEY, SKULL, Builder
from reliquary.web.ai_pool import level_budget

from .test_pinned_web import InProcess


def test_each_turn_s_first_think_has_the_budget_again() -> None:
    content = default_content()
    pool = InProcess(content, max_thinking=1, think_s=1.0)  # each think spends 1 s of 1.5
    state = (Builder(content).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
             .hero(SKULL, "h5").minion(SKULL, "g7").build())
    budget = level_budget("hard")
    assert budget is not None
    rng = random.Random(1)
    firsts: list[float | None] = []  # the budget of each Key turn's first think
    turns = 0
    last_turn: tuple[int, ...] | None = None
    while turns < 3 and not state.is_terminal:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
        elif state.current_player == KEY:
            turn = tuple(state.turns_taken)
            thought = len(pool.budgets)
            state.apply(asyncio.run(pool.choose("budget-turns", state, "hard", 1)))
            if len(pool.budgets) > thought and turn != last_turn:
                firsts.append(pool.budgets[-1])
                last_turn = turn
                turns += 1
        else:
            state.apply(rng.choice(state.legal_options()))
    assert len(firsts) == 3
    assert firsts == pytest.approx([budget * 0.85] * 3)
    assert len(pool.budgets) > 3  # some turns thought again, on what they had left
    pool.forget("budget-turns")
