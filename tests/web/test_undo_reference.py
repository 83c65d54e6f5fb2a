"""What an undo takes back, at every decision of random games, against its definition
(docs/web.md "Undo"; ``undo_count``): the last turn — from its card play to now, the
opponent's decisions inside it included — or, before the first turn, the last setup
decision; against the AI, the human's last turn and the AI's reply after it; never past
a chance outcome, never from the turns back into the setup, and never between the two
secret faction choices (S3). Counted over the whole game here, as the definition reads
(the server looks at the last three turns only; sample G's survivor ``games:259`` broke
that window in a game's first turns)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.engine import CHANCE, Game, Settings
from reliquary.web.games import undo_count


def reference(history: list[Any], seats: frozenset[int], ai_seat: int | None) -> int:
    plays = [i for i, e in enumerate(history) if e.kind == "play"]
    first = plays[0] if plays else len(history)
    # the units an undo takes: each decision before the first turn, then each turn
    units = [(i, history[i].player) for i in range(first)]
    units += [(p, history[p].player) for p in plays]
    in_turns = bool(plays) or sum(e.kind == "relic" for e in history) >= 2
    while ai_seat is not None and units and units[-1][1] == ai_seat:
        units.pop()
    if not units or units[-1][1] not in seats:
        return 0
    start = units[-1][0]
    if in_turns and history[start].kind != "play":
        return 0
    if any(e.player == CHANCE for e in history[start:]):
        return 0
    factions = [i for i in range(start) if history[i].kind == "faction"]
    if len(factions) % 2:
        start = factions[-1]
    return len(history) - start


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_undo_takes_back_what_its_definition_says_at_every_decision(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(default_content(), Settings(round_cap=8))
    offered = 0
    while not game.state.is_terminal:
        history = list(game.history)
        for seats, ai in ((frozenset({0, 1}), None), (frozenset({0}), None),
                          (frozenset({1}), None), (frozenset({0}), 1), (frozenset({1}), 0)):
            want = reference(history, seats, ai)
            assert undo_count(history, seats, ai) == want, (len(history), seats, ai)
            offered += want > 0
        game.apply(rng.choice(game.state.decision().options))
    assert offered > 10
