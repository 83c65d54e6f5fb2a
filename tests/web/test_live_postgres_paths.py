"""The live hub's PostgreSQL channel without a PostgreSQL server (web/live.py, docs/web.md
"Live updates"): ``LISTEN reliquary`` on its own autocommit connection, every watched
game woken once it listens (a change may have been missed while connecting), another
process's notifications waking their games and our own not, a lost connection listened
to again after a second; the changes of the next moments sent in one ``NOTIFY``
statement (``pg_notify`` over the batch, each payload ``<process>:<game>``) on one kept
connection, a failed batch sent again on a new connection after half a second; and a
handler whose client left mid-handshake counted out. psycopg's connection is a stand-in
here (``tests/web/test_postgres.py`` runs the real thing in CI); the fault run, which
has no server, reaches these lines only through this file."""

from __future__ import annotations

import asyncio
import contextlib
import socket as socketlib
from collections.abc import Callable, Coroutine
from typing import Any

import psycopg
import pytest
from starlette.websockets import WebSocketDisconnect

from reliquary.web import live
from reliquary.web.live import LiveHub

from .test_live_watchers import Socket, unchanged

URL = "postgresql+psycopg://me:pw@db.test:5433/games"
CONNINFO = "postgresql://me:pw@db.test:5433/games"


class Note:
    def __init__(self, payload: str) -> None:
        self.extra = payload.encode()


class PgConn:
    """psycopg's low-level connection: a socket that turns readable, its notifications."""

    def __init__(self) -> None:
        self.ours, self.theirs = socketlib.socketpair()
        self.ours.setblocking(False)
        self.queue: list[Note] = []
        self.fail: Exception | None = None
        self.consumed = 0

    @property
    def socket(self) -> int:
        return self.ours.fileno()

    def consume_input(self) -> None:
        self.consumed += 1
        if self.fail is not None:
            raise self.fail
        with contextlib.suppress(BlockingIOError):
            self.ours.recv(4096)

    def notifies(self) -> Note | None:
        return self.queue.pop(0) if self.queue else None

    def arrive(self, *payloads: str) -> None:
        """Notifications come in: they wait, and the socket turns readable."""
        self.queue.extend(Note(p) for p in payloads)
        self.theirs.send(b"x")

    def close(self) -> None:
        self.ours.close()
        self.theirs.close()


class Conn:
    """psycopg's AsyncConnection as the hub uses it."""

    def __init__(self, failing: int = 0) -> None:
        self.pgconn = PgConn()
        self.executed: list[tuple[str, Any]] = []
        self.closed = False
        self.failing = failing  # how many executes fail

    async def __aenter__(self) -> Conn:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.closed = True

    async def execute(self, query: str, params: Any = None) -> None:
        if self.failing:
            self.failing -= 1
            raise psycopg.OperationalError("the server closed the connection")
        self.executed.append((query, params))

    async def close(self) -> None:
        self.closed = True


class Connect:
    """``psycopg.AsyncConnection.connect``: hands out the connections prepared, records
    how it was asked."""

    def __init__(self, *conns: Conn) -> None:
        self.conns = list(conns)
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.made: list[Conn] = []

    async def __call__(self, conninfo: str, **kwargs: Any) -> Conn:
        self.calls.append((conninfo, kwargs))
        conn = self.conns.pop(0) if self.conns else Conn()
        self.made.append(conn)
        return conn


class Sleeps:
    """``asyncio.sleep`` that records each delay and only yields (no real wait)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.delays: list[float] = []
        self.real = asyncio.sleep
        monkeypatch.setattr(asyncio, "sleep", self)

    async def __call__(self, delay: float, result: Any = None) -> Any:
        self.delays.append(delay)
        return await self.real(0, result)


async def settle(rounds: int = 30) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)


async def until(what: Callable[[], bool], rounds: int = 2000) -> None:
    for _ in range(rounds):
        if what():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


# ---------------------------------------------------------------------- hearing
def test_other_processes_notifications_wake_their_games_and_ours_do_not() -> None:
    async def body() -> None:
        hub = LiveHub(URL, ping_s=0, idle_s=0)
        hub.origin = "aaaa0000"
        woken: list[str] = []
        hub.on_wake.append(woken.append)
        conn = Conn()
        conn.pgconn.queue.append(Note("bbbb1111:early"))  # before the reader was there
        hearing = asyncio.create_task(hub._hear(conn))
        await settle()
        assert woken == ["early"] and hub.notifications_received == 1
        conn.pgconn.arrive("bbbb1111:g1", "aaaa0000:mine", "cccc2222:g2")
        await until(lambda: hub.notifications_received == 4)
        assert woken == ["early", "g1", "g2"]  # every one counted, our own not woken
        conn.pgconn.arrive("bbbb1111:g1")
        await until(lambda: hub.notifications_received == 5)
        assert woken == ["early", "g1", "g2", "g1"]
        hearing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hearing
        conn.pgconn.close()

    run(body)


def test_hearing_ends_with_the_connection_s_error_and_lets_its_socket_go() -> None:
    async def body() -> None:
        hub = LiveHub(URL, ping_s=0, idle_s=0)
        conn = Conn()
        hearing = asyncio.create_task(hub._hear(conn))
        await settle()
        conn.pgconn.fail = psycopg.OperationalError("gone")
        conn.pgconn.arrive()
        with pytest.raises(psycopg.OperationalError, match="gone"):
            await asyncio.wait_for(hearing, 5)
        loop = asyncio.get_running_loop()
        assert loop.remove_reader(conn.pgconn.socket) is False  # already removed
        conn.pgconn.close()

    run(body)


def test_listen_wakes_the_watched_games_and_listens_again_after_a_loss(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = Sleeps(monkeypatch)
    first, second = Conn(), Conn()
    connect = Connect(first, second)
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect)

    async def body() -> None:
        hub = LiveHub(URL, ping_s=0, idle_s=0)
        hub.listening = asyncio.Event()
        hub._watchers = {"a": 1, "b": 2}
        woken: list[str] = []
        hub.on_wake.append(woken.append)
        task = asyncio.create_task(hub._listen())
        await until(lambda: hub.listening is not None and hub.listening.is_set())
        assert connect.calls == [(CONNINFO, {"autocommit": True})]
        assert first.executed == [("LISTEN reliquary", None)]
        assert sorted(woken) == ["a", "b"]  # missed while connecting: looked at again
        assert 1.0 not in sleeps.delays
        first.pgconn.fail = psycopg.OperationalError("restarting")
        first.pgconn.arrive()
        await until(lambda: len(connect.calls) == 2)
        assert sleeps.delays.count(1.0) == 1  # a second before listening again
        assert first.closed
        await until(lambda: hub.listening is not None and hub.listening.is_set())
        assert second.executed == [("LISTEN reliquary", None)]
        assert sorted(woken) == ["a", "a", "b", "b"]
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for conn in (first, second):
            conn.pgconn.close()

    run(body)


def test_listening_is_cleared_while_the_connection_is_lost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(Connect):
        async def __call__(self, conninfo: str, **kwargs: Any) -> Conn:
            if len(self.calls) >= 1:
                self.calls.append((conninfo, kwargs))
                raise psycopg.OperationalError("no server")
            return await super().__call__(conninfo, **kwargs)

    sleeps = Sleeps(monkeypatch)
    conn = Conn()
    connect = Refusing(conn)
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect)

    async def body() -> None:
        hub = LiveHub(URL, ping_s=0, idle_s=0)
        hub.listening = asyncio.Event()
        task = asyncio.create_task(hub._listen())
        await until(lambda: hub.listening is not None and hub.listening.is_set())
        conn.pgconn.fail = psycopg.OperationalError("lost")
        conn.pgconn.arrive()
        await until(lambda: len(connect.calls) >= 3)  # refused, a second, refused again
        assert not hub.listening.is_set()
        assert sleeps.delays.count(1.0) >= 2
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        conn.pgconn.close()

    run(body)


# ---------------------------------------------------------------------- sending
def sender() -> tuple[LiveHub, asyncio.Task[None]]:
    """A PostgreSQL hub's NOTIFY sender alone, as ``start`` runs it (its origin fixed,
    so the payloads are known)."""
    hub = LiveHub(URL, ping_s=0, idle_s=0)
    hub.origin = "abcd0123"
    hub._pending_event = asyncio.Event()
    return hub, asyncio.create_task(hub._send())


def test_changes_go_out_in_one_notify_on_one_kept_connection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = Sleeps(monkeypatch)
    conn = Conn()
    connect = Connect(conn)
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect)

    async def body() -> None:
        hub, task = sender()
        await settle()
        assert connect.calls == [] and conn.executed == []  # nothing to say yet
        hub.publish("g1")
        hub.publish("g2")
        hub.publish("g1")
        hub.publish("told", told=True)  # the write sent its own
        await until(lambda: len(conn.executed) == 1)
        assert live.NOTIFY_GATHER_S in sleeps.delays  # gathered a moment first
        query, (channel, payloads) = conn.executed[0]
        assert query == "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p"
        assert channel == "reliquary"
        assert sorted(payloads) == ["abcd0123:g1", "abcd0123:g2"]
        assert connect.calls == [(CONNINFO, {"autocommit": True})]
        assert hub._pending == set() and not hub._pending_event.is_set()
        hub.publish("g3")
        await until(lambda: len(conn.executed) == 2)
        assert conn.executed[1][1] == ("reliquary", ["abcd0123:g3"])
        assert len(connect.calls) == 1  # the same connection
        conn.closed = True  # lost meanwhile: a new one
        hub.publish("g4")
        await until(lambda: len(connect.calls) == 2)
        await until(lambda: len(connect.made[1].executed) == 1)
        assert connect.made[1].executed[0][1] == ("reliquary", ["abcd0123:g4"])
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert connect.made[1].closed  # closed on the way out

    run(body)


def test_a_failed_notify_is_sent_again_on_a_new_connection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = Sleeps(monkeypatch)
    bad, good = Conn(failing=1), Conn()
    connect = Connect(bad, good)
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect)

    async def body() -> None:
        hub, task = sender()
        await settle()
        hub.publish("g1")
        await until(lambda: len(good.executed) == 1)
        assert bad.executed == []
        assert good.executed[0][1] == ("reliquary", ["abcd0123:g1"])
        assert 0.5 in sleeps.delays  # half a second before the retry
        assert len(connect.calls) == 2
        assert hub._pending == set()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert good.closed

    run(body)


def test_a_started_postgres_hub_listens_and_sends_and_stop_ends_both(
        monkeypatch: pytest.MonkeyPatch) -> None:
    Sleeps(monkeypatch)
    connect = Connect()
    monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect)

    async def body() -> None:
        hub = LiveHub(URL, ping_s=0, idle_s=0, poll_s=1.0,
                      probe=lambda ids: {})  # a probe is for SQLite only
        await hub.start()
        assert len(hub._tasks) == 2
        await until(lambda: hub.listening is not None and hub.listening.is_set())
        hub.publish("g")
        await until(lambda: len(connect.made) == 2 and bool(connect.made[1].executed))
        listener, sender = connect.made
        assert listener.executed == [("LISTEN reliquary", None)]
        assert sender.executed[0][1] == ("reliquary", [f"{hub.origin}:g"])
        await hub.stop()
        assert hub._tasks == [] and sender.closed and listener.closed
        listener.pgconn.close()

    run(body)


# ---------------------------------------------------------------------- one watcher
class Gone(Socket):
    """A client that left before the handshake finished."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    async def accept(self) -> None:
        raise self.error


@pytest.mark.parametrize("error", [WebSocketDisconnect(1006), OSError("reset"),
                                   RuntimeError("closed")])
def test_a_client_gone_mid_handshake_is_counted_out(error: BaseException) -> None:
    async def body() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        left: list[str] = []
        hub.on_leave.append(left.append)
        await hub.serve(Gone(error), "g", unchanged)  # no error comes out
        assert hub.handlers == 0 and not hub.watching("g") and left == ["g"]

    run(body)


def test_closing_before_start_does_nothing() -> None:
    hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
    hub.closing()
    assert hub._stopping is None
