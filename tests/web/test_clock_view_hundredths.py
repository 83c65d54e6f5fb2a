"""The view's clocks to the hundredth of a second (web/clock.py: ``remaining`` rounded
to 2 decimals; docs/web.md: the seconds left now): with stored decisions 1.237 s apart
the waiting side's clock shows its time left to the hundredth, not to the tenth, and
the running side's too (with ``time.time`` held still). Issue 31, sample L: the view
rounded to one decimal passed every test, whose stored times were whole seconds."""

from __future__ import annotations

import random

import pytest

from reliquary.content import default_content
from reliquary.engine import Game, Settings
from reliquary.web import clock as clock_module
from reliquary.web.clock import Clocks

from .test_clock_reference import CLOCK, reference


def test_the_view_shows_hundredths(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    game = Game(default_content(), Settings(round_cap=10))

    def both_sides_have_begun() -> bool:
        history, state = game.history, game.state
        first = next((i for i, e in enumerate(history) if e.kind == "play"), None)
        return (first is not None and not state.is_terminal
                and {0, 1} <= {e.player for e in history[first:]}
                and state.current_player in (0, 1))

    while not both_sides_have_begun():
        game.apply(rng.choice(game.state.decision().options))
    state, history = game.state, game.history
    now = 1_000_000.0
    times = [now - 1.237 * (len(history) - i) for i in range(len(history))]
    clocks = Clocks(engine=None)
    clocks.add("g", 0, [(i, e.player, x) for i, (e, x) in enumerate(zip(history, times,
                                                                         strict=True))])
    monkeypatch.setattr(clock_module.time, "time", lambda: now)
    mover = state.current_player
    left, running = reference(list(history), times, list(state.turns_taken), mover, now)
    assert running == mover
    shown = clocks.view("g", CLOCK, state, history)
    assert shown is not None
    for p, side in enumerate(("key", "skull")):
        assert shown["remaining"][side] == round(left[p], 2)
    # the times left have hundredths of their own: a view to the tenth would differ
    assert any(round(x, 2) != round(x, 1) for x in left)
