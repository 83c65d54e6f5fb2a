"""Live updates: each game's WebSocket watchers are told when the game changes.

- **In one process** a stored change wakes the game's watchers at once
  (:meth:`LiveHub.publish`, an :class:`asyncio.Event` per watched game).
- **Across processes on PostgreSQL**, :meth:`LiveHub.publish` also sends
  ``NOTIFY reliquary, '<process>:<game>'`` (batched, on its own autocommit psycopg 3
  connection), and every process ``LISTEN``\\ s on one more connection and wakes its
  watchers of that game. No polling.
- **Across processes on SQLite** (several servers on one database file, which works
  but is not the way to scale), one task per process polls the watched games' stored
  revisions every ``RELIQUARY_LIVE_POLL`` seconds (default 2; 0 turns it off
  for a single process) — one small query per period, however many watchers.

A watcher's handler (:meth:`LiveHub.serve`) reads from its socket while it waits for
updates, so it ends as soon as the client goes away; it sends ``{"type": "ping"}``
every ``RELIQUARY_WS_PING`` seconds (default 20: dead connections fail the send),
closes a socket on which nothing happened — no update and no client message — for
``RELIQUARY_WS_IDLE`` seconds (default 900) with code 4408, and on server shutdown
closes every socket with code 1001 at once. :attr:`LiveHub.handlers` counts the live
handlers (``GET /api/health`` shows it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .config import env_number

log = logging.getLogger(__name__)

CHANNEL = "reliquary"
#: How long a change waits for others to share its NOTIFY (other processes' watchers
#: hear of it that much later; SQLite's poll takes seconds).
NOTIFY_GATHER_S = 0.01
#: Close codes: the game does not exist, the socket was idle, the server stops.
CLOSE_NOT_FOUND, CLOSE_IDLE, CLOSE_GOING_AWAY = 4404, 4408, 1001

Snapshot = Callable[[], Awaitable[dict[str, Any]]]
Probe = Callable[[list[str]], dict[str, Any]]


class GameGone(Exception):
    """The watched game does not exist: ``message`` says so."""


class LiveHub:
    """The watchers of this process and the channel to the other processes."""

    def __init__(self, db_url: str, *, probe: Probe | None = None,
                 ping_s: float | None = None, idle_s: float | None = None,
                 poll_s: float | None = None) -> None:
        self.db_url = db_url
        self.postgres = db_url.startswith("postgresql")
        self.probe = probe
        self.ping_s = ping_s if ping_s is not None else env_number(
            "RELIQUARY_WS_PING", 20.0, unit="seconds")
        self.idle_s = idle_s if idle_s is not None else env_number(
            "RELIQUARY_WS_IDLE", 900.0, unit="seconds")
        self.poll_s = poll_s if poll_s is not None else env_number(
            "RELIQUARY_LIVE_POLL", 2.0, unit="seconds")
        self.origin = secrets.token_hex(4)  # tells our own notifications from others'
        self.handlers = 0
        self.notifications_received = 0
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: dict[str, int] = {}
        self._pending: set[str] = set()
        self._pending_event: asyncio.Event | None = None
        self._stopping: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.listening: asyncio.Event | None = None
        #: Called with a game's id before its watchers wake (to drop cached snapshots).
        self.on_wake: list[Callable[[str], None]] = []
        #: Called with a game's id when its last watcher here has gone (the AI driver:
        #: a think for a player who left stops).
        self.on_leave: list[Callable[[str], None]] = []

    # -- lifecycle -----------------------------------------------------------------
    async def start(self) -> None:
        """Start the cross-process channel (call from the app's lifespan)."""
        self._stopping = asyncio.Event()
        self._pending_event = asyncio.Event()
        self.listening = asyncio.Event()
        if self.postgres:
            self._tasks.append(asyncio.create_task(self._listen()))
            self._tasks.append(asyncio.create_task(self._send()))
        elif self.poll_s > 0 and self.probe is not None:
            self._tasks.append(asyncio.create_task(self._poll()))

    def closing(self) -> None:
        """Tell every watcher to close its socket (1001) now (the server stops)."""
        if self._stopping is not None:
            self._stopping.set()

    async def stop(self) -> None:
        """Close every watcher's socket (1001) and the channel, without waiting long."""
        self.closing()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        deadline = time.monotonic() + 0.5
        while self.handlers and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    # -- changes -------------------------------------------------------------------
    def publish(self, game_id: str, *, told: bool = False) -> None:
        """A change of ``game_id`` was stored: wake its watchers here and elsewhere
        (``told``: the write sent its ``NOTIFY`` itself, :attr:`Store.notice`)."""
        self.wake(game_id)
        if self.postgres and self._pending_event is not None and not told:
            self._pending.add(game_id)
            self._pending_event.set()

    def wake(self, game_id: str) -> None:
        """Wake this process's watchers of ``game_id``."""
        for forget in self.on_wake:
            forget(game_id)
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def watching(self, game_id: str) -> bool:
        """Whether a watcher of ``game_id`` is connected to this process."""
        return game_id in self._watchers

    def _event(self, game_id: str) -> asyncio.Event:
        event = self._events.get(game_id)
        if event is None:
            event = self._events[game_id] = asyncio.Event()
        return event

    # -- PostgreSQL LISTEN/NOTIFY --------------------------------------------------
    def _conninfo(self) -> str:
        from sqlalchemy.engine import make_url

        url = make_url(self.db_url).set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    async def _listen(self) -> None:
        import psycopg

        assert self.listening is not None
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self._conninfo(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    for game_id in list(self._watchers):  # missed while (re)connecting
                        self.wake(game_id)
                    await self._hear(conn)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the database restarts: listen again
                self.listening.clear()
                log.warning("live updates: LISTEN connection lost (%s); retrying", err)
                await asyncio.sleep(1.0)

    async def _hear(self, conn: Any) -> None:
        """Take the notifications on ``conn`` as they arrive until it is lost: its socket
        read in a callback of the event loop, and every notification that came with it
        taken at once. (psycopg's ``notifies()`` registered and dropped a reader and
        made a future for each wait, and this process hears its own decisions too: as
        much event-loop work per decision as the decision's own, issue 30.)"""
        loop = asyncio.get_running_loop()
        pgconn = conn.pgconn
        lost: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()
            except Exception as err:  # the connection is gone
                if not lost.done():
                    lost.set_exception(err)
                return
            while (note := pgconn.notifies()) is not None:
                origin, _, game_id = note.extra.decode().partition(":")
                self.notifications_received += 1
                if origin != self.origin:
                    self.wake(game_id)

        socket = pgconn.socket
        loop.add_reader(socket, readable)
        try:
            readable()  # any that came before the reader was there
            await lost
        finally:
            loop.remove_reader(socket)

    async def _send(self) -> None:
        import psycopg

        assert self._pending_event is not None
        conn: Any = None
        try:
            while True:
                await self._pending_event.wait()
                # The changes of the next moments go in the same NOTIFY: one statement
                # costs about as much as a decision's own work on the event loop.
                await asyncio.sleep(NOTIFY_GATHER_S)
                self._pending_event.clear()
                batch, self._pending = self._pending, set()
                payloads = [f"{self.origin}:{game_id}" for game_id in batch]
                try:
                    if conn is None or conn.closed:
                        conn = await psycopg.AsyncConnection.connect(self._conninfo(),
                                                                     autocommit=True)
                    await conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                                       (CHANNEL, payloads))
                except asyncio.CancelledError:
                    raise
                except Exception as err:  # retry the batch on a new connection
                    log.warning("live updates: NOTIFY failed (%s); retrying", err)
                    self._pending |= batch
                    conn = None
                    await asyncio.sleep(0.5)
                    self._pending_event.set()
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # -- SQLite: a slow poll for changes made by other processes -------------------
    async def _poll(self) -> None:
        assert self.probe is not None
        seen: dict[str, Any] = {}
        while True:
            await asyncio.sleep(self.poll_s)
            ids = list(self._watchers)
            if not ids:
                seen = {}
                continue
            try:
                now = await anyio.to_thread.run_sync(self.probe, ids)
            except Exception as err:  # a locked database: next period
                log.debug("live updates: poll failed (%s)", err)
                continue
            for game_id, fingerprint in now.items():
                # A game seen for the first time wakes too: it may have changed between
                # its watcher's first snapshot and this look (the watcher sends only a
                # difference, so a needless wake costs one read).
                if seen.get(game_id) != fingerprint:
                    self.wake(game_id)
            seen = now

    # -- one watcher ---------------------------------------------------------------
    async def serve(self, socket: WebSocket, game_id: str, snapshot: Snapshot) -> None:
        """Run one watcher's socket until the client leaves, it idles, or we stop.

        ``snapshot()`` returns the update message for the game's stored state (it must
        change whenever the game does) or raises :class:`GameGone`.
        """
        self.handlers += 1
        self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        reader: asyncio.Task[None] | None = None
        try:
            await socket.accept()
            activity = [time.monotonic()]
            reader = asyncio.create_task(self._read(socket, activity))
            await self._watch(socket, game_id, snapshot, reader, activity)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass  # the client went away mid-send
        finally:
            if reader is not None:
                reader.cancel()
            self.handlers -= 1
            left = self._watchers.get(game_id, 1) - 1
            if left <= 0:
                self._watchers.pop(game_id, None)
                self._events.pop(game_id, None)
                for gone in self.on_leave:
                    gone(game_id)
            else:
                self._watchers[game_id] = left

    async def _read(self, socket: WebSocket, activity: list[float]) -> None:
        """Read (and ignore) client messages until the client disconnects."""
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            activity[0] = time.monotonic()

    async def _watch(self, socket: WebSocket, game_id: str, snapshot: Snapshot,
                     reader: asyncio.Task[None], activity: list[float]) -> None:
        stopping = self._stopping or asyncio.Event()
        stop_wait = asyncio.create_task(stopping.wait())
        sent: dict[str, Any] | None = None
        last_ping = time.monotonic()
        try:
            while True:
                changed = self._event(game_id)  # taken before reading: no change is missed
                try:
                    update: dict[str, Any] | None = await snapshot()
                except GameGone as gone:
                    await socket.send_json({"type": "error", "code": "not_found",
                                            "error": str(gone)})
                    await socket.close(code=CLOSE_NOT_FOUND)
                    return
                except Exception as err:  # a busy database: look again at the next wake
                    log.warning("live updates: reading game %s failed (%s)", game_id, err)
                    update = None
                if update is not None and update != sent:
                    await socket.send_json(update)
                    sent = update
                    activity[0] = time.monotonic()
                while not changed.is_set():
                    now = time.monotonic()
                    idle_left = activity[0] + self.idle_s - now if self.idle_s else None
                    if idle_left is not None and idle_left <= 0:
                        await socket.send_json({"type": "error", "code": "idle",
                                                "error": "closed after a long time with no "
                                                         "activity: reload to watch again"})
                        await socket.close(code=CLOSE_IDLE)
                        return
                    ping_left = last_ping + self.ping_s - now if self.ping_s else None
                    timeout = min(x for x in (idle_left, ping_left, 3600.0) if x is not None)
                    change_wait = asyncio.create_task(changed.wait())
                    try:
                        await asyncio.wait({change_wait, reader, stop_wait},
                                           timeout=max(timeout, 0.0),
                                           return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        change_wait.cancel()
                    if reader.done():
                        return  # the client went away
                    if stopping.is_set():
                        with contextlib.suppress(Exception):
                            await socket.close(code=CLOSE_GOING_AWAY)
                        return
                    if self.ping_s and time.monotonic() >= last_ping + self.ping_s:
                        await socket.send_json({"type": "ping"})
                        last_ping = time.monotonic()
                        break  # look again too: a notification may have been lost
        finally:
            stop_wait.cancel()
            if socket.application_state == WebSocketState.CONNECTED and reader.done():
                with contextlib.suppress(Exception):
                    await socket.close()


def revision_probe(engine: Any) -> Probe:
    """A :data:`Probe` for the SQLite poll: each watched game's stored revision (which
    every stored change moves on, undo included)."""
    from sqlalchemy import select

    from .db import games

    def probe(game_ids: list[str]) -> dict[str, Any]:
        with engine.connect() as conn:
            rows = conn.execute(select(games.c.id, games.c.rev)
                                .where(games.c.id.in_(game_ids))).all()
        return {row[0]: row[1] for row in rows}

    return probe
