"""The view's `clock` object as docs/web.md gives it — `{initial_s, increment_s,
remaining: {key, skull}, running}` — also from an app without clocks (it shows the
initial times, nothing running), and none for a game without a clock or off line
(issue 31: a fault dropping the increment there passed every test)."""

from __future__ import annotations

import reliquary
from reliquary.web.clock import clock_view

CLOCK = {"initial_s": 300.0, "increment_s": 5.0}


def test_without_the_app_s_clocks_the_view_shows_the_initial_times() -> None:
    state = reliquary.new_game()
    view = clock_view(None, "g1", {"clock": CLOCK}, "online", state, [])
    assert view == {"initial_s": 300.0, "increment_s": 5.0,
                    "remaining": {"key": 300.0, "skull": 300.0}, "running": None}


def test_no_clock_object_without_a_clock_or_off_line() -> None:
    state = reliquary.new_game()
    assert clock_view(None, "g1", {}, "online", state, []) is None
    assert clock_view(None, "g1", {"clock": CLOCK}, "hotseat", state, []) is None
    assert clock_view(None, "g1", {"clock": CLOCK}, "ai", state, []) is None
