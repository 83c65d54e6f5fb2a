"""The server's capacity machinery, wired into the app: the AI pool, live updates,
clocks, the hint and health endpoints, and a clean, quick shutdown.

``create_app`` calls :func:`install` once and runs :meth:`Capacity.running` in its
lifespan. On shutdown (Ctrl+C, SIGTERM) the lifespan closes every WebSocket (1001),
stops the AI drivers and the clock timer, and kills the AI workers without waiting
for running searches; ``reliquary serve`` starts this at the signal itself
(:meth:`Capacity.begin_stop`, :class:`reliquary.web.serving.Server`) and bounds
uvicorn's graceful wait, so the server is gone within about a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import Response

from ..engine.visibility import is_secret_choice
from .ai_pool import AIPool, QueueFull
from .clock import Clocks
from .errors import WebError
from .games import Session
from .guard import Limits, RateLimiter, client_of
from .live import GameGone, LiveHub
from .manager import Manager

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds a game's WebSocket update is reused by its other watchers (a change drops it
#: at once; the bound only makes the pings' second look a real one).
SNAPSHOT_TTL_S = 5.0

#: The hint endpoint's documented refusals (and the health endpoint's answer).
HINT_RESPONSES: dict[int | str, dict[str, Any]] = {
    403: {"description": "not the human's seat of a game against the AI, or not their turn"},
    429: {"description": "too many hints from this client or for this game, or one is "
                         "being searched for it (code rate_limited; Retry-After)"},
    404: {"description": "no such game"},
    409: {"description": "the game is over"},
    410: {"description": "the game expired or was set aside"},
    503: {"description": "the database is busy, or the AI pool is shutting down"},
}


class Capacity:
    """The AI pool, the live hub and the clocks of one app."""

    def __init__(self, manager: Manager, pool: AIPool, hub: LiveHub, clocks: Clocks,
                 limits: Limits | None = None) -> None:
        self.manager = manager
        self.pool, self.hub, self.clocks = pool, hub, clocks
        limits = limits or Limits()
        # Hints cost a worker's second each: limited per client and per game, one at a
        # time per game, and refused when the AI queue is full (issue 30).
        self.hints_of_client = RateLimiter(limits.hints_per_minute, limits.hints_burst)
        self.hints_of_game = RateLimiter(limits.hints_per_minute, limits.hints_burst)
        self.hinting: set[str] = set()
        self._snapshots: dict[str, tuple[float, dict[str, Any]]] = {}
        self._generations: dict[str, int] = {}
        self.hub.on_wake.append(self._drop_snapshot)
        self._timer: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Start the channel and the clock timer; on exit stop everything quickly."""
        await self.hub.start()
        self._timer = asyncio.create_task(self.clocks.run(self._check_clock))
        self._warming = asyncio.create_task(self.pool.warm())
        self._resuming = asyncio.create_task(self._watch_clocks())
        try:
            yield
        finally:
            await self.stop()

    async def _watch_clocks(self) -> None:
        """After a start: read each unfinished game with a clock once, which schedules
        its timeout check (in the background: many games never delay the start)."""
        for game_id in await asyncio.to_thread(self.clocks.running_games):
            try:
                await self.manager.asession(game_id)
            except WebError:
                pass  # gone or set aside: no clock to watch
            except Exception:  # one game's trouble must not stop the others' clocks
                log.exception("reading game %s after the start failed", game_id)
            await asyncio.sleep(0)

    def begin_stop(self) -> None:
        """The server is stopping (a signal, before uvicorn's graceful wait): watchers'
        sockets close (1001), and running and queued AI searches end at once, so no
        connection holds the exit up. :meth:`stop` finishes the job."""
        self.hub.closing()
        self.pool.shutdown()

    async def stop(self) -> None:
        for task in (self._timer, self._warming, self._resuming):
            if task is not None:
                task.cancel()
        for task in list(self.manager.driver.tasks.values()):
            task.cancel()
        self.pool.shutdown()
        await self.hub.stop()

    async def _check_clock(self, game_id: str) -> None:
        """The timer's visit: reading the game ends it if its time ran out."""
        async with self.manager.lock(game_id):
            with contextlib.suppress(WebError):
                await self.manager.asession(game_id)

    async def snapshot(self, game_id: str) -> dict[str, Any]:
        """The WebSocket update for the game as stored now (contract item 1).

        Read once per change for all of the game's watchers in this process: a change
        (here, or announced by another process) drops the cached update before it wakes
        them (:attr:`LiveHub.on_wake`), so a thousand watchers cost one read, not a
        thousand."""
        now = time.monotonic()
        cached = self._snapshots.get(game_id)
        if cached is not None and now - cached[0] < SNAPSHOT_TTL_S:
            return cached[1]
        generation = self._generations.get(game_id, 0)
        try:
            session = await self.manager.asession(game_id)
        except WebError as err:
            if err.status in (404, 410):
                raise GameGone(err.message) from None
            raise
        update = {"type": "update", "seq": session.seq, "rev": session.rev,
                  "over": session.state.is_terminal}
        if self._generations.get(game_id, 0) == generation:  # no change while reading
            if len(self._snapshots) > 10_000:
                self._snapshots.clear()
            self._snapshots[game_id] = (now, update)
        return update

    def _drop_snapshot(self, game_id: str) -> None:
        self._snapshots.pop(game_id, None)
        self._generations[game_id] = self._generations.get(game_id, 0) + 1
        if len(self._generations) > 10_000:
            self._generations.clear()

    async def hint(self, game_id: str, token: str | None, client: str = "unknown"
                   ) -> dict[str, Any]:
        """``GET /api/games/{id}/hint``: for the human of an AI game, on their turn;
        ``client``: who asks (for the limits)."""
        session: Session = await self.manager.asession(game_id)
        if session.row.mode != "ai":
            raise WebError(403, "hints are only for games against the AI")
        seats = session.seats_of(token)
        if not seats:
            raise WebError(403, "only the player's own link can ask for a hint")
        state = session.state
        if state.is_terminal:
            raise WebError(409, "the game is over: no hint", "game_over")
        if state.is_chance or state.current_player not in seats:
            raise WebError(403, "a hint is for your own decision: it is not your turn",
                           "not_your_turn")
        if is_secret_choice(state):  # S3 (engine.visibility): it could tell a secret
            raise WebError(403, "factions are chosen in secret: no hint for this choice")
        if game_id in self.hinting:
            raise WebError(429, "a hint for this game is being searched: wait for it",
                           "rate_limited", retry_after=1)
        for limiter, key, who in ((self.hints_of_client, client, "this client"),
                                  (self.hints_of_game, game_id, "this game")):
            wait = limiter.take(key)
            if wait:
                raise WebError(429, f"too many hints for {who}: wait a little "
                                    f"({math.ceil(wait)} s)", "rate_limited",
                               retry_after=math.ceil(wait))
        self.hinting.add(game_id)
        try:
            return await self.pool.hint(game_id, state.clone(), owner=client)
        except QueueFull as err:
            raise WebError(503, f"no hint now: {err}; try again in a moment", "busy",
                           retry_after=1) from None
        except RuntimeError as err:  # the pool is shut down: the server is stopping
            raise WebError(503, f"no hint now: {err}", "busy") from None
        finally:
            self.hinting.discard(game_id)


def routes(capacity: Capacity) -> APIRouter:
    """The hint, the health counters and the live WebSocket of a game; the lifespan
    must run ``capacity.running()``."""
    router = APIRouter()
    manager = capacity.manager

    @router.get("/api/games/{game_id}/hint", responses=HINT_RESPONSES)
    async def hint(request: Request, game_id: str, t: str | None = None) -> Any:
        """The best option for the human of a game against the AI, on their turn:
        ``{best, value (in [-1, 1] for the asker), pv, alternatives}``, searched in the
        AI pool within ``RELIQUARY_HINT_SECONDS``. Limited per client and per game (429),
        refused when the AI's queue is full (503); dropped if the client leaves."""
        answer = await until_gone(request, capacity.hint(game_id, t, client_of(request.scope)))
        return Response(status_code=204) if answer is None else answer

    @router.get("/api/health")
    async def health() -> dict[str, Any]:
        """Counters of this process: live WebSocket handlers, AI searches running and
        queued, AI decisions thought of here, games cached."""
        return {"ok": True, "pid": os.getpid(), "websockets": capacity.hub.handlers,
                "ai": {**capacity.pool.stats(), "decisions": manager.driver.decisions},
                "games_cached": len(manager.sessions),
                "notifications_received": capacity.hub.notifications_received}

    @router.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str) -> None:
        # Ends when the client goes away, idles, or the server stops (reliquary.web.live).
        await capacity.hub.serve(socket, game_id, lambda: capacity.snapshot(game_id))

    return router


async def until_gone(request: Request, work: Awaitable[T]) -> T | None:
    """``work``'s result, or None once the client has left (``work`` is cancelled: a
    search still waiting for a worker leaves the queue)."""
    task = asyncio.ensure_future(work)

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    watch = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
        if not task.done():
            task.cancel()
    return task.result() if not task.cancelled() else None
