"""The clocks at every decision of random games with random stored times, against the
documented rule (web/clock.py, docs/web.md "Clocks"): setup is untimed and so is each
side's wait for its first turn decision; after that a side's time used is the sum, over
its own decisions, of the time since the decision before it, and the side owing the
current decision runs until now; the increment is added at each of its turns' ends."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.engine import CHANCE, Game, Settings
from reliquary.web.clock import Clocks, clock_view

CLOCK = {"initial_s": 300.0, "increment_s": 7.0}


def reference(history: list[Any], times: list[float], turns_taken: list[int],
              current: int | None, now: float) -> tuple[list[float], int | None]:
    used = [0.0, 0.0]
    begun = [False, False]
    first = next((i for i, e in enumerate(history) if e.kind == "play"), None)
    running = None
    if first is not None:
        for i in range(first, len(history)):
            p = history[i].player
            if p == CHANCE:
                continue
            if begun[p]:
                used[p] += max(0.0, times[i] - times[i - 1]) if i > first else 0.0
            begun[p] = True
        if current in (0, 1) and begun[current]:
            running = current
            used[current] += max(0.0, now - times[-1])
    return [CLOCK["initial_s"] + CLOCK["increment_s"] * turns_taken[p] - used[p]
            for p in (0, 1)], running


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_clocks_at_every_decision(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(default_content(), Settings(round_cap=10))
    times: list[float] = []
    clock_at = 1_000_000.0
    checked = 0
    while True:
        state, history = game.state, game.history
        now = clock_at + rng.choice((0.0, 0.5, 3.0, 40.0))
        clocks = Clocks(engine=None)
        assert clocks.wanted("g", len(history)) == ((0, len(history)) if history else None)
        clocks.add("g", 0, [(i, e.player, t) for i, (e, t) in enumerate(zip(history, times,
                                                                             strict=True))])
        assert clocks.wanted("g", len(history)) is None
        current = None if state.is_terminal else state.current_player
        want_left, want_running = reference(history, times, list(state.turns_taken),
                                            current, now)
        left, running = clocks.times("g", CLOCK, state, history, now)
        assert running == want_running
        assert left == pytest.approx(want_left)
        loser = clocks.expired("g", CLOCK, state, history, now)
        assert loser == (want_running if want_running is not None
                         and want_left[want_running] <= 0 else None)
        if want_running is not None and loser is None:
            assert clocks._deadlines["g"] == round(now + want_left[want_running], 2)
        checked += 1
        if state.is_terminal:
            break
        game.apply(rng.choice(state.decision().options))
        clock_at += rng.choice((0.0, 1.0, 5.0, 30.0, 120.0))
        times.append(clock_at)
    assert checked > 20


def test_the_view_shows_a_clock_run_out_as_zero_and_names_the_running_side() -> None:
    import time

    rng = random.Random(4)
    game = Game(default_content(), Settings(round_cap=10))

    def running_side_has_begun() -> bool:
        history, state = game.history, game.state
        first = next((i for i, e in enumerate(history) if e.kind == "play"), None)
        return (first is not None and not state.is_terminal and state.current_player in
                {e.player for e in history[first:]})

    while not running_side_has_begun():
        game.apply(rng.choice(game.state.decision().options))
    state, history = game.state, game.history
    start = time.time() - 1000.0  # every decision a second apart, the last 1000 s ago
    times = [start - len(history) + i for i in range(len(history))]
    clocks = Clocks(engine=None)
    clocks.add("g", 0, [(i, e.player, x) for i, (e, x) in enumerate(zip(history, times,
                                                                         strict=True))])
    mover = state.current_player
    left, _ = reference(list(history), times, list(state.turns_taken), mover, time.time())
    shown = clocks.view("g", CLOCK, state, history)
    assert shown is not None
    assert shown["running"] == ("key", "skull")[mover]
    assert shown["remaining"][("key", "skull")[mover]] == 0.0  # run out: never below 0
    other = ("key", "skull")[1 - mover]
    assert shown["remaining"][other] == round(left[1 - mover], 2)
    assert (shown["initial_s"], shown["increment_s"]) == (300.0, 7.0)
    assert clocks._deadlines["g"] <= round(time.time(), 2)  # looked at again at once
    assert clocks.view("g", None, state, history) is None


def test_an_app_without_clocks_shows_the_initial_times_and_only_online() -> None:
    game = Game(default_content())
    options = {"clock": CLOCK}
    assert clock_view(None, "g", options, "online", game.state, game.history) == {
        "initial_s": 300.0, "increment_s": 7.0, "remaining": {"key": 300.0, "skull": 300.0},
        "running": None}
    for mode in ("hotseat", "ai"):
        assert clock_view(None, "g", options, mode, game.state, game.history) is None
    assert clock_view(None, "g", {}, "online", game.state, game.history) is None
    assert Clocks.settings({"clock": "600"}, "online") is None  # not a clock object
