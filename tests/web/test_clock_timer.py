"""The clocks' timer and what feeds it (web/clock.py, docs/web.md "Clocks": a loss on time
is "decided by the server on the next request or by its timer with nobody connected").

``Clocks.schedule`` keeps one deadline a game (to the hundredth; a later one replaces
it), ``Clocks.run`` calls ``check(game)`` at each game's deadline and at no other time,
asleep at most a second at a time (the wall clock may jump), and one game's failing
check stops no other's. ``view`` and ``expired`` schedule a running game at its true
deadline, and never on a partial record of its decision times. The wall clock is faked
(``clock.time``) and the timer is driven by scheduling, so no test waits on the machine.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.engine import Game, Settings
from reliquary.web import clock as clock_module
from reliquary.web.clock import Clocks

from .test_clock_reference import CLOCK, reference

NOW = 1_000_000.0


class Wall:
    """``time`` for the clock module: ``time()`` is ``now``, the rest is real."""

    def __init__(self) -> None:
        self.now = NOW

    def time(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        import time

        return getattr(time, name)


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> Wall:
    wall = Wall()
    monkeypatch.setattr(clock_module, "time", wall)
    return wall


class Timer:
    """``Clocks.run`` as a task, with the games its check was called for, in order."""

    def __init__(self, clocks: Clocks, failing: frozenset[str] = frozenset()) -> None:
        self.clocks = clocks
        self.checked: list[str] = []
        self.failing = failing
        self.task: asyncio.Task[None] | None = None

    async def check(self, game_id: str) -> None:
        self.checked.append(game_id)
        if game_id in self.failing:
            raise RuntimeError(f"{game_id} could not be read")

    async def start(self) -> None:
        self.task = asyncio.create_task(self.clocks.run(self.check))
        await self.settle()

    @staticmethod
    async def settle() -> None:
        for _ in range(20):  # let the timer's loop take every step it can now
            await asyncio.sleep(0)

    async def until(self, count: int) -> None:
        """Wait (at most 5 s: a second asleep at most, then a look) for ``count`` checks."""
        for _ in range(500):
            if len(self.checked) >= count:
                await self.settle()
                return
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        assert self.task is not None
        assert not self.task.done(), "the timer ended on its own"
        self.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self.task


def drive(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


# ---------------------------------------------------------------------- schedule
def test_a_deadline_is_kept_to_the_hundredth_and_once() -> None:
    clocks = Clocks(None)
    clocks.schedule("g", 100.004)
    clocks.schedule("g", 100.001)  # the same hundredth: the same deadline
    assert clocks._deadlines == {"g": 100.0} and clocks._heap == [(100.0, "g")]
    clocks.schedule("g", 100.006)  # another: it replaces the first
    assert clocks._deadlines == {"g": 100.01}
    assert sorted(clocks._heap) == [(100.0, "g"), (100.01, "g")]


def test_a_forgotten_game_is_still_checked_at_its_deadline(wall: Wall) -> None:
    """``forget`` (the game left the cache) drops its times, not its deadline: the timer
    reads it again then (``test_clock_evicted.py`` through the app)."""
    async def body() -> None:
        clocks = Clocks(None)
        clocks.add("g", 0, [(0, 0, 1.0)])
        clocks.schedule("g", NOW + 5.0)
        clocks.forget("g")
        assert clocks.wanted("g", 1) == (0, 1)  # its times are read again
        timer = Timer(clocks)
        await timer.start()
        wall.now = NOW + 5.0
        clocks.schedule("other", NOW + 100.0)
        await timer.until(1)
        assert timer.checked == ["g"]
        await timer.stop()

    drive(body)


# ---------------------------------------------------------------------- the timer
def test_the_timer_checks_a_game_at_its_deadline_and_not_before(wall: Wall) -> None:
    async def body() -> None:
        clocks = Clocks(None)
        timer = Timer(clocks)
        clocks.schedule("due", NOW)          # exactly now: due
        clocks.schedule("past", NOW - 30.0)  # overdue
        clocks.schedule("later", NOW + 60.0)
        await timer.start()
        await timer.until(2)
        assert sorted(timer.checked) == ["due", "past"]
        assert clocks._deadlines == {"later": NOW + 60.0}
        wall.now = NOW + 59.99  # a hundredth early: not yet
        clocks.schedule("other", NOW + 500.0)  # (wakes the timer to look again)
        await timer.settle()
        await asyncio.sleep(0.05)
        assert sorted(timer.checked) == ["due", "past"]
        wall.now = NOW + 60.0
        clocks.schedule("other", NOW + 501.0)
        await timer.until(3)
        assert timer.checked[2:] == ["later"]
        await timer.stop()
        assert timer.checked.count("later") == 1

    drive(body)


def test_a_replaced_deadline_is_not_checked(wall: Wall) -> None:
    async def body() -> None:
        clocks = Clocks(None)
        timer = Timer(clocks)
        clocks.schedule("g", NOW - 5.0)
        clocks.schedule("g", NOW + 10.0)  # the later read moved its deadline
        clocks.schedule("h", NOW - 1.0)
        await timer.start()
        await timer.until(1)
        await asyncio.sleep(0.05)
        assert timer.checked == ["h"]
        wall.now = NOW + 10.0
        clocks.schedule("h", NOW + 100.0)
        await timer.until(2)
        assert timer.checked == ["h", "g"]
        await timer.stop()

    drive(body)


def test_a_game_checked_may_be_scheduled_again_at_the_same_time(wall: Wall) -> None:
    """The check found time left after all (a move raced it): the same deadline, given
    again, is watched again."""
    async def body() -> None:
        clocks = Clocks(None)
        timer = Timer(clocks)
        clocks.schedule("g", NOW)
        await timer.start()
        await timer.until(1)
        clocks.schedule("g", NOW)
        await timer.until(2)
        assert timer.checked == ["g", "g"]
        await timer.stop()

    drive(body)


def test_one_game_s_failing_check_stops_no_other(wall: Wall) -> None:
    async def body() -> None:
        clocks = Clocks(None)
        timer = Timer(clocks, failing=frozenset({"a"}))
        clocks.schedule("a", NOW - 2.0)
        clocks.schedule("b", NOW - 1.0)
        await timer.start()
        await timer.until(2)
        assert timer.checked == ["a", "b"]
        clocks.schedule("c", NOW)
        await timer.until(3)
        assert timer.checked == ["a", "b", "c"]
        await timer.stop()

    drive(body)


def test_the_timer_sleeps_at_most_a_second_at_a_time(wall: Wall,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Asleep until the next deadline (and a hundredth), a second at most: a wall clock
    that jumps (NTP, a suspended machine) is noticed within a second; with nothing to
    watch, it looks every second too."""
    waits: list[float] = []
    real_wait_for = asyncio.wait_for

    async def wait_for(awaitable: Any, timeout: float | None = None) -> Any:
        assert timeout is not None
        waits.append(timeout)
        return await real_wait_for(awaitable, timeout=0.001)

    monkeypatch.setattr(asyncio, "wait_for", wait_for)

    async def body() -> None:
        clocks = Clocks(None)
        timer = Timer(clocks)
        await timer.start()
        await asyncio.sleep(0.02)
        assert waits and set(waits) == {1.0}  # nothing scheduled
        clocks.schedule("g", NOW + 0.25)
        await asyncio.sleep(0.02)
        assert waits[-1] == pytest.approx(0.26)
        clocks.schedule("g", NOW + 7200.0)
        await asyncio.sleep(0.02)
        assert waits[-1] == 1.0
        wall.now = NOW + 7200.0  # the wall clock jumped: seen at the next look
        await timer.until(1)
        assert timer.checked == ["g"]
        await timer.stop()

    drive(body)


# ---------------------------------------------------------------------- who schedules
def _in_play(seed: int) -> Game:
    """A game whose side to move has made its first turn decision (its clock runs)."""
    rng = random.Random(seed)
    game = Game(default_content(), Settings(round_cap=10))
    while True:
        history, state = game.history, game.state
        first = next((i for i, e in enumerate(history) if e.kind == "play"), None)
        if (first is not None and not state.is_terminal and state.current_player in
                {e.player for e in history[first:]}):
            return game
        game.apply(rng.choice(state.decision().options))


def _times(game: Game, last_ago: float) -> tuple[Clocks, list[float]]:
    history = game.history
    times = [NOW - last_ago - 2.0 * (len(history) - 1 - i) for i in range(len(history))]
    clocks = Clocks(None)
    clocks.add("g", 0, [(i, e.player, t) for i, (e, t) in enumerate(zip(history, times,
                                                                         strict=True))])
    return clocks, times


@pytest.mark.parametrize("last_ago", [3.0, 250.0, 2000.0])
def test_the_view_schedules_the_running_side_s_deadline(wall: Wall, last_ago: float) -> None:
    game = _in_play(5)
    state, history = game.state, game.history
    clocks, times = _times(game, last_ago)
    left, running = reference(list(history), times, list(state.turns_taken),
                              state.current_player, NOW)
    assert running == state.current_player
    shown = clocks.view("g", CLOCK, state, history)
    assert shown is not None
    side = ("key", "skull")[running]
    assert shown["running"] == side
    assert shown["remaining"][side] == round(max(0.0, left[running]), 2)
    # at the deadline; a clock already run out: now (never in the past)
    assert clocks._deadlines == {"g": round(NOW + max(0.0, left[running]), 2)}


def test_expired_schedules_the_deadline_or_names_the_loser(wall: Wall) -> None:
    game = _in_play(6)
    state, history = game.state, game.history
    clocks, times = _times(game, 0.0)
    left, running = reference(list(history), times, list(state.turns_taken),
                              state.current_player, NOW)
    assert running is not None and left[running] > 0
    assert clocks.expired("g", CLOCK, state, history) is None  # now: the wall clock's
    assert clocks._deadlines == {"g": round(NOW + left[running], 2)}
    at = NOW + left[running]
    assert clocks.expired("g", CLOCK, state, history, at) == running  # exactly at 0
    assert clocks.expired("g", CLOCK, state, history, at - 0.01) is None


def test_no_clock_runs_on_a_partial_record_of_the_times(wall: Wall) -> None:
    """Until every stored time of the game is read (a read in flight, another writer
    mid-way) nobody runs and nobody loses: a clock is never computed from a gap."""
    game = _in_play(7)
    state, history = game.state, game.history
    clocks = Clocks(None)
    clocks.add("g", 0, [(i, e.player, NOW - 5000.0 + i)
                        for i, e in enumerate(history[:-1])])  # the last one missing
    left, running = clocks.times("g", CLOCK, state, history, NOW)
    assert running is None
    assert left == [CLOCK["initial_s"] + CLOCK["increment_s"] * state.turns_taken[p]
                    for p in (0, 1)]
    assert clocks.expired("g", CLOCK, state, history, NOW + 1e6) is None
    assert clocks._deadlines == {}
    shown = clocks.view("g", CLOCK, state, history)
    assert shown is not None and shown["running"] is None and clocks._deadlines == {}


@pytest.mark.parametrize("reason", ["resign", "timeout"])
def test_only_a_loss_on_time_shows_the_loser_s_clock_run_out(wall: Wall, reason: str) -> None:
    """A finished game's clocks stop; the loser's shows 0 only when it lost on time (a
    resignation leaves what was left)."""
    game = _in_play(8)
    clocks, times = _times(game, 30.0)
    loser = game.state.current_player
    game.concede(loser, reason)
    state, history = game.state, game.history
    left, running = reference(list(history), times, list(state.turns_taken), None, NOW)
    assert running is None and min(left) > 0
    shown = clocks.view("g", CLOCK, state, history)
    assert shown is not None and shown["running"] is None
    want = [round(x, 2) for x in left]
    if reason == "timeout":
        want[loser] = 0.0
    assert [shown["remaining"][side] for side in ("key", "skull")] == want
    assert clocks._deadlines == {}  # a finished game is not watched
