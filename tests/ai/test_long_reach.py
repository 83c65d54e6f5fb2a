"""A designer's content (a ruleset's patch, ``lab tune``'s ``patch.…`` numbers, a
content folder) may give a line a range past 3. The evaluation's threat scan looks 3
squares out (``_reach_damage``: distances 0 to 3), so such a line counts as reaching 3
there — it must not break the evaluation (a slip in that cap made every position with
such a line an IndexError; sample G's survivor ``evaluation:356``)."""

from __future__ import annotations

import random

import pytest

from reliquary.ai.evaluation import evaluate
from reliquary.engine import Content, Game, Settings, State, format_option
from reliquary.rulesets import patched_content


def long_reach(hero_range: int) -> Content:
    return patched_content({"factions": {"lantern-bearers": {"hero": {"range": hero_range}}}},
                           "test")


def played(content: Content, seed: int) -> list[State]:
    """The positions of a random game in which both players take the Lantern Bearers."""
    rng = random.Random(seed)
    game = Game(content, Settings(round_cap=12))
    states = []
    while not game.state.is_terminal:
        state = game.state
        options = state.decision().options
        lantern = [o for o in options if "lantern" in format_option(state, o)]
        states.append(state.clone())
        game.apply(lantern[0] if state.decision().kind == "faction" and lantern
                   else rng.choice(options))
    return states


@pytest.mark.parametrize("hero_range", [4, 6])
def test_a_line_longer_than_3_squares_is_evaluated_as_reaching_3(hero_range: int) -> None:
    far, near = long_reach(hero_range), long_reach(3)
    seen = 0
    for seed in (1, 2):
        for state in played(far, seed):
            if state.is_chance:
                continue
            same = state.clone()
            same.content = near
            for player in (0, 1):
                assert evaluate(state, player) == evaluate(same, player)
            seen += 1
    assert seen > 20
