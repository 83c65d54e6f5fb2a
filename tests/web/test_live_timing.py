"""A watcher's periods to the second, on a fake clock (web/live.py, docs/web.md "Live
updates": a ``{"type": "ping"}`` every ``RELIQUARY_WS_PING`` seconds; a socket on which
nothing happened — no update and no client message — for ``RELIQUARY_WS_IDLE`` seconds
is closed 4408). The hub's monotonic clock is faked and its waits are answered at once,
the clock moved on by the time waited, so each close and each ping lands exactly at
its period: not a wait later, not sooner, and every update sent or message received
starts the idle period again. The SQLite poll forgets what it saw once nobody watches,
so a game watched again is looked at afresh."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from reliquary.web import live
from reliquary.web.live import LiveHub

from .test_live_watchers import CountedUnchanged, Socket


class Clock:
    """The hub's ``time``: ``monotonic()`` is ``now``; the rest is real."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        import time

        return getattr(time, name)


class Talking(Socket):
    """A client that may send messages (each read by the hub's reader)."""

    def __init__(self) -> None:
        super().__init__()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()  # (a disconnect is a message put here too)


class Waits:
    """``asyncio.wait`` for the hub: what has happened is answered at once; otherwise the
    clock moves on by the timeout (or to the next thing the test makes happen, which is
    then done) and the wait ends as timed out."""

    def __init__(self, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
        self.clock = clock
        self.timeouts: list[float] = []
        self.events: list[tuple[float, Callable[[], None]]] = []
        self.real = asyncio.wait
        monkeypatch.setattr(live.asyncio, "wait", self)

    def at(self, when: float, action: Callable[[], None]) -> None:
        self.events.append((when, action))
        self.events.sort(key=lambda e: e[0])

    async def __call__(self, fs: Any, timeout: float | None = None,
                       return_when: str = asyncio.ALL_COMPLETED) -> Any:
        assert len(self.timeouts) < 200, "the watcher never stops waiting"
        for _ in range(10):
            await asyncio.sleep(0)
        done = {f for f in fs if f.done()}
        if done:
            return done, set(fs) - done
        assert timeout is not None
        self.timeouts.append(timeout)
        until = self.clock.now + timeout
        if self.events and self.events[0][0] <= until:
            when, action = self.events.pop(0)
            self.clock.now = when
            action()
            for _ in range(10):
                await asyncio.sleep(0)
        else:
            self.clock.now = until
        done = {f for f in fs if f.done()}
        return done, set(fs) - done


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(live, "time", clock)
    return clock


def _serve(hub: LiveHub, socket: Socket, snapshot: Any) -> None:
    async def body() -> None:
        await hub.start()
        await asyncio.wait_for(hub.serve(socket, "g", snapshot), 10)
        await hub.stop()

    asyncio.run(body())


async def _same() -> dict[str, Any]:
    return {"type": "update", "rev": "1"}


IDLE = {"type": "error", "code": "idle",
        "error": "closed after a long time with no activity: reload to watch again"}


def test_an_idle_socket_closes_exactly_at_its_period(clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    waits = Waits(clock, monkeypatch)
    start = clock.now
    socket = Socket()
    _serve(LiveHub("sqlite://", ping_s=0, idle_s=10.0, poll_s=0), socket, _same)
    assert socket.sent == [{"type": "update", "rev": "1"}, IDLE]
    assert socket.closed == [4408]
    assert clock.now == start + 10.0 and waits.timeouts == [10.0]


def test_pings_come_each_period_and_the_idle_close_between(
        clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    waits = Waits(clock, monkeypatch)
    start = clock.now
    snapshot = CountedUnchanged()
    socket = Socket()
    _serve(LiveHub("sqlite://", ping_s=4.5, idle_s=9.5, poll_s=0), socket, snapshot)
    # pings at 4.5 and 9.0 (a ping is no activity of the client's), the close at 9.5
    assert socket.sent == [{"type": "update", "rev": "1"}, {"type": "ping"},
                           {"type": "ping"}, IDLE]
    assert waits.timeouts == [4.5, 4.5, 0.5]
    assert clock.now == start + 9.5 and socket.closed == [4408]
    assert snapshot.reads == 3  # each ping looks at the game again


def test_an_update_sent_starts_the_idle_period_again(
        clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    waits = Waits(clock, monkeypatch)
    start = clock.now
    rev = ["1"]

    async def snapshot() -> dict[str, Any]:
        return {"type": "update", "rev": rev[0]}

    hub = LiveHub("sqlite://", ping_s=0, idle_s=10.0, poll_s=0)

    def change() -> None:
        rev[0] = "2"
        hub.publish("g")

    waits.at(start + 6.0, change)
    socket = Socket()
    _serve(hub, socket, snapshot)
    assert socket.sent == [{"type": "update", "rev": "1"}, {"type": "update", "rev": "2"},
                           IDLE]
    assert clock.now == start + 16.0


def test_an_unchanged_wake_is_no_activity(clock: Clock,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    waits = Waits(clock, monkeypatch)
    start = clock.now
    hub = LiveHub("sqlite://", ping_s=0, idle_s=10.0, poll_s=0)
    waits.at(start + 6.0, lambda: hub.publish("g"))  # nothing new to send
    socket = Socket()
    _serve(hub, socket, _same)
    assert socket.sent == [{"type": "update", "rev": "1"}, IDLE]
    assert clock.now == start + 10.0


def test_a_client_message_starts_the_idle_period_again(
        clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    waits = Waits(clock, monkeypatch)
    start = clock.now
    socket = Talking()
    waits.at(start + 7.0, lambda: socket.inbox.put_nowait(
        {"type": "websocket.receive", "text": "{}"}))
    _serve(LiveHub("sqlite://", ping_s=0, idle_s=10.0, poll_s=0), socket, _same)
    assert socket.sent == [{"type": "update", "rev": "1"}, IDLE]
    assert clock.now == start + 17.0


def test_the_poll_looks_afresh_at_a_game_watched_again() -> None:
    """Once nobody watches, the poll forgets what it saw: a game watched again is woken
    at its next look even if its revision is the one seen before (it may have changed
    and changed back meanwhile; a needless wake costs one read)."""
    asked: list[list[str]] = []

    def probe(ids: list[str]) -> dict[str, Any]:
        asked.append(list(ids))
        return {"g": 7}

    async def scenario() -> None:
        hub = LiveHub("sqlite://", probe=probe, ping_s=0, idle_s=0, poll_s=0.001)
        woken: list[int] = []
        hub.on_wake.append(lambda g: woken.append(len(asked)))
        hub._watchers["g"] = 1
        await hub.start()

        async def until(what: Callable[[], bool]) -> None:
            for _ in range(20_000):
                if what():
                    return
                await asyncio.sleep(0.001)
            raise AssertionError("the poll never got there")

        await until(lambda: len(asked) >= 3)
        assert woken == [1]  # first seen, then unchanged
        del hub._watchers["g"]  # the watcher left
        await asyncio.sleep(0.02)  # periods with nobody watching
        looked = len(asked)
        hub._watchers["g"] = 1
        await until(lambda: len(asked) >= looked + 2)
        await hub.stop()
        assert woken[1:2] == [looked + 1]  # its first look afresh wakes it
        assert len(woken) == 2

    asyncio.run(scenario())
