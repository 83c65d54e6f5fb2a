"""A game without a clock never loses on time (web/clock.py, ``Clocks.expired``: its
``clock`` is None for a game without one) and schedules no timer, at every decision of a
random game, finished or not. Issue 31, sample H: the check for a missing clock dropped
(the game's clock read as if it had one) passed every test; the server's one caller
passes only a game's clock, so this pins the method's own contract."""

from __future__ import annotations

import random

from reliquary.content import default_content
from reliquary.engine import Game, Settings
from reliquary.web.clock import Clocks


def test_a_game_without_a_clock_never_expires() -> None:
    rng = random.Random(2)
    game = Game(default_content(), Settings(round_cap=8))
    clocks = Clocks(engine=None)
    seen = 0
    while True:
        history = game.history
        clocks.add("g", 0, [(i, e.player, 1_000.0 + i) for i, e in enumerate(history)])
        for now in (1_000.0 + len(history), 1e12):  # now, and long after any deadline
            assert clocks.expired("g", None, game.state, history, now) is None
        assert "g" not in clocks._deadlines
        clocks.forget("g")
        seen += 1
        if game.state.is_terminal:
            break
        game.apply(rng.choice(game.state.decision().options))
    assert seen > 20
