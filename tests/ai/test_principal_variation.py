"""The principal variation's die rolls (docs/ai.md, "Principal variation": "A die roll on
the line is the most likely outcome, outcomes that lead to the same position merged,
written as its (first) face"). Issue 31: a fault taking the least likely outcome
passed every test (sample A). Ordeal's die against a 2-HP Hero: 2, 3 and 4 deal the
same damage, so their merged outcome is the most likely one, written as 2."""

from __future__ import annotations

import math
from typing import Any

from reliquary.ai.evaluation import DEFAULT_WEIGHTS
from reliquary.ai.hashing import position_key
from reliquary.ai.search import Searcher
from reliquary.engine import KEY, SKULL


def test_a_roll_on_the_line_is_its_most_likely_outcome_by_its_first_face(build: Any) -> None:
    state = (build(factions=("veiled-hand", "veiled-hand"))
             .hero(KEY, "d3", hp=2).minion(KEY, "b2").minion(KEY, "f2")
             .hero(SKULL, "d5", hp=2, veiled=True).minion(SKULL, "b4")
             .minion(SKULL, "f4").minion(SKULL, "h8").relic(KEY, "a2").relic(SKULL, "h6")
             .hands(key=["Ordeal", "Pilgrim", "Sidewind"], skull=["Vault", "Litany", "Serpent"])
             .build())
    searcher = Searcher(KEY, DEFAULT_WEIGHTS)
    searcher.value(state.clone(), sum(state.turns_taken) + 2, -math.inf, math.inf, 0)
    line = searcher.principal_variation(state)
    s, rolls = state.clone(), 0
    for option in line:
        if s.is_chance:
            merged: dict[int, list[Any]] = {}
            for outcome, p in s.chance_outcomes():
                child = s.clone()
                child.apply(outcome)
                merged.setdefault(position_key(child), []).append((outcome, p))
            weights = sorted((sum(p for _, p in group), group[0][0])
                             for group in merged.values())
            assert len(weights) > 1 and weights[-1][0] > weights[-2][0]  # one most likely
            assert option == weights[-1][1]
            rolls += 1
        assert option in s.legal_options()
        s.apply(option)
    assert rolls >= 1, [str(o) for o in line]
