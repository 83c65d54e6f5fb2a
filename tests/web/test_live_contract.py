"""The live hub's documented contract, value by value (issue 31, by class: the samples
kept finding survivors in ``web/live.py`` that the app's tests do not reach). Pins the
module docstring's defaults (ping 20 s, idle 900 s, poll 2 s, each read from its
variable), the close codes (4404, 4408, 1001) and the messages sent with them, the
ping's message, ``publish``/``wake`` (the wake hooks first, a NOTIFY queued only on
PostgreSQL and only when the write did not send its own), the watcher counts, and the
SQLite poll's wakes: a game seen for the first time wakes, an unchanged one does not, a
changed one does, a failing probe skips a period. No wall-clock bounds: the waits are
driven by the hub's own events or by idle/ping periods of a few milliseconds."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import create_engine

from reliquary.web import live
from reliquary.web.live import GameGone, LiveHub, revision_probe

from .test_live_watchers import CountedUnchanged, Socket, unchanged


async def _settle(rounds: int = 10) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)


def test_module_constants() -> None:
    assert live.CHANNEL == "reliquary"
    assert live.NOTIFY_GATHER_S == 0.01
    assert (live.CLOSE_NOT_FOUND, live.CLOSE_IDLE, live.CLOSE_GOING_AWAY) == (4404, 4408, 1001)


def test_defaults_without_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RELIQUARY_WS_PING", "RELIQUARY_WS_IDLE", "RELIQUARY_LIVE_POLL"):
        monkeypatch.delenv(name, raising=False)
    hub = LiveHub("sqlite:///x.db")
    assert (hub.ping_s, hub.idle_s, hub.poll_s) == (20.0, 900.0, 2.0)
    assert hub.postgres is False and hub.probe is None
    assert hub.handlers == 0 and hub.notifications_received == 0
    assert hub.on_wake == [] and hub.on_leave == []
    assert len(hub.origin) == 8 and int(hub.origin, 16) >= 0  # four random bytes in hex
    assert LiveHub("sqlite://").origin != hub.origin


def test_each_period_read_from_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_WS_PING", "7")
    monkeypatch.setenv("RELIQUARY_WS_IDLE", "33")
    monkeypatch.setenv("RELIQUARY_LIVE_POLL", "0.5")
    hub = LiveHub("sqlite://")
    assert (hub.ping_s, hub.idle_s, hub.poll_s) == (7.0, 33.0, 0.5)
    # an argument wins over the variable, 0 included
    hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
    assert (hub.ping_s, hub.idle_s, hub.poll_s) == (0, 0, 0)


def test_postgres_told_by_its_url() -> None:
    assert LiveHub("postgresql+psycopg://u@h/db").postgres is True
    assert LiveHub("postgresql://u@h/db").postgres is True
    assert LiveHub("sqlite:///postgresql.db").postgres is False


def test_conninfo_drops_the_driver_and_keeps_the_password() -> None:
    hub = LiveHub("postgresql+psycopg://me:secret@db.example:5433/games")
    assert hub._conninfo() == "postgresql://me:secret@db.example:5433/games"


def test_publish_wakes_after_the_hooks_and_queues_a_notify_only_on_postgres() -> None:
    async def scenario() -> None:
        order: list[str] = []
        hub = LiveHub("postgresql://u@h/db", ping_s=0, idle_s=0)
        hub._pending_event = asyncio.Event()  # as start() makes it, without connecting
        hub.on_wake.append(lambda g: order.append(f"forget {g}"))
        event = hub._event("g")
        assert hub._event("g") is event  # one event per game
        hub.publish("g")
        assert event.is_set() and "g" not in hub._events  # woken and dropped
        assert order == ["forget g"]
        assert hub._pending == {"g"} and hub._pending_event.is_set()
        hub._pending.clear()
        hub._pending_event.clear()
        hub.publish("h", told=True)  # the write sent its own NOTIFY
        assert hub._pending == set() and not hub._pending_event.is_set()
        assert order == ["forget g", "forget h"]

        sqlite = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await sqlite.start()
        sqlite_event = sqlite._event("g")
        sqlite.publish("g")
        assert sqlite_event.is_set() and sqlite._pending == set()
        await sqlite.stop()

    asyncio.run(scenario())


def test_start_makes_no_task_for_sqlite_without_a_poll_or_a_probe() -> None:
    async def scenario() -> None:
        for hub in (LiveHub("sqlite://", poll_s=0, probe=lambda ids: {}),
                    LiveHub("sqlite://", poll_s=2)):
            await hub.start()
            assert hub._tasks == []
            assert hub._stopping is not None and hub.listening is not None
            await hub.stop()
        polled = LiveHub("sqlite://", poll_s=2, probe=lambda ids: {})
        await polled.start()
        assert len(polled._tasks) == 1
        await polled.stop()
        assert polled._tasks == []

    asyncio.run(scenario())


def test_a_game_gone_is_told_and_closed_4404() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await hub.start()
        left: list[str] = []
        hub.on_leave.append(left.append)
        socket = Socket()

        async def snapshot() -> dict[str, Any]:
            raise GameGone("no game g")

        await hub.serve(socket, "g", snapshot)
        assert socket.sent == [{"type": "error", "code": "not_found", "error": "no game g"}]
        assert socket.closed[0] == 4404
        assert hub.handlers == 0 and not hub.watching("g") and left == ["g"]
        await hub.stop()

    asyncio.run(scenario())


def test_an_idle_socket_is_told_and_closed_4408() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0.005, poll_s=0)
        await hub.start()
        socket = Socket()
        await hub.serve(socket, "g", unchanged)
        assert socket.sent == [
            {"type": "update", "rev": "1"},
            {"type": "error", "code": "idle",
             "error": "closed after a long time with no activity: reload to watch again"}]
        assert socket.closed[0] == 4408
        assert hub.handlers == 0
        await hub.stop()

    asyncio.run(scenario())


def test_no_idle_close_at_idle_0_and_a_ping_each_period() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0.002, idle_s=0, poll_s=0)
        await hub.start()
        snapshot = CountedUnchanged()
        socket = Socket()
        task = asyncio.ensure_future(hub.serve(socket, "g", snapshot))
        for _ in range(20_000):  # a bound on turns, not a clock: pings come every 2 ms
            if socket.sent.count({"type": "ping"}) >= 3 or task.done():
                break
            await asyncio.sleep(0.001)
        # the update once (unchanged snapshots are not sent again), then pings; each ping
        # reads the game again (a notification may have been lost)
        assert socket.sent[0] == {"type": "update", "rev": "1"}
        assert all(m == {"type": "ping"} for m in socket.sent[1:])
        assert snapshot.reads >= 3
        assert not task.done()
        socket.gone.set()
        await task
        assert hub.handlers == 0
        await hub.stop()

    asyncio.run(scenario())


def test_a_change_sends_the_new_snapshot_only_when_it_differs() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await hub.start()
        rev = ["1"]

        async def snapshot() -> dict[str, Any]:
            return {"type": "update", "rev": rev[0]}

        socket = Socket()
        task = asyncio.ensure_future(hub.serve(socket, "g", snapshot))
        await _settle()
        hub.publish("g")  # nothing changed: nothing sent
        await _settle()
        assert socket.sent == [{"type": "update", "rev": "1"}]
        rev[0] = "2"
        hub.publish("g")
        await _settle()
        assert socket.sent == [{"type": "update", "rev": "1"}, {"type": "update", "rev": "2"}]
        hub.publish("other")  # another game's change does not reach this watcher
        rev[0] = "3"
        await _settle()
        assert len(socket.sent) == 2
        socket.gone.set()
        await task
        await hub.stop()

    asyncio.run(scenario())


def test_a_failing_read_sends_nothing_and_the_watcher_stays() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await hub.start()
        fail = [True]

        async def snapshot() -> dict[str, Any]:
            if fail[0]:
                raise RuntimeError("database is locked")
            return {"type": "update", "rev": "1"}

        socket = Socket()
        task = asyncio.ensure_future(hub.serve(socket, "g", snapshot))
        await _settle()
        assert socket.sent == [] and not task.done() and hub.watching("g")
        fail[0] = False
        hub.wake("g")
        await _settle()
        assert socket.sent == [{"type": "update", "rev": "1"}]
        socket.gone.set()
        await task
        await hub.stop()

    asyncio.run(scenario())


def test_stop_closes_every_watcher_1001() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await hub.start()
        sockets = [Socket(), Socket()]
        tasks = [asyncio.ensure_future(hub.serve(s, g, unchanged))
                 for s, g in zip(sockets, ("g", "h"), strict=True)]
        await _settle()
        assert hub.handlers == 2
        await hub.stop()
        await asyncio.gather(*tasks)
        assert [s.closed for s in sockets] == [[1001], [1001]]
        assert hub.handlers == 0 and not hub.watching("g") and not hub.watching("h")

    asyncio.run(scenario())


def test_the_poll_wakes_a_game_first_seen_or_changed_only() -> None:
    """The poll's turns are driven by the probe (each call lets the test move on)."""
    answers: list[dict[str, Any] | Exception] = [
        {"g": 1},                      # first seen: wakes
        {"g": 1},                      # unchanged: no wake
        RuntimeError("locked"),        # a failed period: no wake, the last seen kept
        {"g": 1},                      # still unchanged against the last seen
        {"g": 2},                      # changed: wakes
    ]
    asked: list[list[str]] = []

    def probe(ids: list[str]) -> dict[str, Any]:
        asked.append(list(ids))
        answer = answers[min(len(asked), len(answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def scenario() -> None:
        hub = LiveHub("sqlite://", probe=probe, ping_s=0, idle_s=0, poll_s=0.001)
        woken: list[tuple[int, str]] = []
        hub.on_wake.append(lambda g: woken.append((len(asked), g)))
        hub._watchers["g"] = 1  # one watcher of g (its socket is not the point here)
        await hub.start()
        for _ in range(20_000):
            if len(asked) >= 6:
                break
            await asyncio.sleep(0.001)
        await hub.stop()
        assert all(ids == ["g"] for ids in asked)
        assert woken[:2] == [(1, "g"), (5, "g")]
        assert all(n >= 6 for n, _ in woken[2:])

    asyncio.run(scenario())


def test_revision_probe_reads_each_watched_game_s_revision(tmp_path: Any) -> None:
    from reliquary.web.db import games, metadata

    engine = create_engine(f"sqlite:///{tmp_path / 'live.db'}")
    metadata.create_all(engine)
    columns = {c.name: c for c in games.c}
    with engine.begin() as conn:
        for game_id, rev in (("a", 3), ("b", 7), ("c", 1)):
            row: dict[str, Any] = {"id": game_id, "rev": rev}
            for name, column in columns.items():
                if name in row or column.nullable or column.default is not None \
                        or column.server_default is not None:
                    continue
                row[name] = _filler(column)
            conn.execute(games.insert().values(**row))
    probe = revision_probe(engine)
    assert probe(["a", "b", "zz"]) == {"a": 3, "b": 7}
    assert probe([]) == {}
    engine.dispose()


def _filler(column: Any) -> Any:
    python_type = column.type.python_type
    return {str: "x", int: 0, float: 0.0, bool: False, bytes: b""}.get(python_type, "x")
