"""A designer's content (a ruleset's patch, ``lab tune``'s ``patch.…`` numbers, a
content folder) may give a line a range past 3. The evaluation's threat scan looks 3
squares out (``_reach_damage``: distances 0 to 3), so such a line counts as reaching 3
there — it must not break the evaluation (a slip in that cap made every position with
such a line an IndexError; sample G's survivor ``evaluation:356``)."""

from __future__ import annotations

import random

import pytest

from reliquary.ai import evaluation
from reliquary.ai.evaluation import evaluate, hero_threat
from reliquary.engine import Content, Game, Settings, State, format_option
from reliquary.rulesets import patched_content


def long_reach(hero_range: int) -> Content:
    return patched_content({"factions": {"lantern-bearers": {"hero": {"range": hero_range}}}},
                           "test")


def played(content: Content, seed: int) -> list[State]:
    """The positions of a random game in which Key takes the Lantern Bearers (the two
    sides may not share a faction, S3: Skull takes another)."""
    rng = random.Random(seed)
    game = Game(content, Settings(round_cap=30))
    states = []
    while not game.state.is_terminal:
        state = game.state
        options = state.decision().options
        states.append(state.clone())
        if state.decision().kind == "faction":
            key = state.decision().player == 0
            options = [o for o in options
                       if ("lantern" in format_option(state, o)) == key]
        game.apply(rng.choice(options))
    return states


def heroes_within_3(state: State) -> bool:
    """Key's Hero within 3 squares (G1: Chebyshev) of Skull's, Key past its first turn."""
    key, skull = state.hero(0), state.hero(1)
    if key is None or skull is None or state.turns_taken[0] == 0:
        return False
    n = state.geometry.size
    return max(abs(key.sq % n - skull.sq % n), abs(key.sq // n - skull.sq // n)) <= 3


@pytest.mark.parametrize("hero_range", [4, 6])
def test_a_line_longer_than_3_squares_is_evaluated_as_reaching_3(hero_range: int) -> None:
    far, near = long_reach(hero_range), long_reach(3)
    seen = close = 0
    for seed in range(1, 7):
        for state in played(far, seed):
            if state.is_chance or state.factions[0] != "lantern-bearers":
                continue
            same = state.clone()
            same.content = near
            for player in (0, 1):
                assert evaluate(state, player) == evaluate(same, player)
                assert hero_threat(state, player) == hero_threat(same, player)
            seen += 1
            close += heroes_within_3(state)
    assert seen > 100 and close > 5  # the Lantern Hero's long line was looked at


def test_a_memo_left_under_a_content_s_id_by_another_content_is_not_used() -> None:
    """The evaluation's line-reach memo is keyed by the content's id(), and a freed
    content's id is soon another's (``lab tune`` makes a patched content per trial): an
    entry that belongs to another content must be made again, not read."""
    far, near = long_reach(6), long_reach(3)
    state = next(s for seed in range(1, 7) for s in played(far, seed)
                 if not s.is_chance and s.factions[0] == "lantern-bearers"
                 and heroes_within_3(s))
    def looked() -> tuple[object, ...]:
        return tuple((evaluate(state, p), hero_threat(state, p)) for p in (0, 1))

    evaluation._LINE_REACH.clear()
    honest = looked()
    # what another content would have left under this id: every line of Key's Hero
    # reaching 3 squares for 9 damage. Kept as far's own, it is read (and tells)...
    key = (id(far), state.factions[0], True)
    bogus = {card.id: (3, 9) for card in far.cards}
    evaluation._LINE_REACH[key] = (far, dict(bogus))
    assert looked() != honest
    # ...but left by another content, it is made again
    evaluation._LINE_REACH[key] = (near, dict(bogus))
    assert looked() == honest
