"""The AI's side of AI games: a task per game plays the AI's decisions while they are
due (:class:`AIDriver`).

A driver task holds the game's thinking lease in the store (``games.thinker``), so that
of several processes serving the game one thinks; it asks the AI pool (or, in an app
without one, an agent in a thread) for each option, waits the display delay, and takes
the decision through the decision path it was given, which stores it at the revision
it was thought at (an undo or another process meanwhile: it thinks again).

A think goes on only while its player is there (:meth:`AIDriver.present`). The player
has gone when the game has no watcher in this process
(:meth:`reliquary.web.live.LiveHub.watching`) and either its last watcher here left
``RELIQUARY_AI_LEFT_S`` seconds ago with no request since (a page reloaded comes back
within that), or it has had no request (:meth:`AIDriver.kick`, called by every view,
decision and undo) for ``RELIQUARY_AI_ABSENT_S`` seconds. Then a think still queued
leaves the queue, and a think running in a worker is stopped there
(:meth:`reliquary.web.ai_pool.AIPool.stop`: its worker is ended and replaced), so its
worker goes to the players still there; the turn waits for the player's return, and
their next view of the game starts it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy.exc import OperationalError

from ..ai import get_agent
from .ai_pool import AIPool, choose_remembering
from .config import env_number
from .db import Store
from .errors import WebError
from .games import Session

log = logging.getLogger(__name__)


class AIDriver:
    """The AI driver tasks of this process, one per AI game whose AI is to decide.

    Its collaborators are passed in: the store (for the lease), the AI pool, and the
    game keeper's ways to find a cached game (``cached``), read one as stored
    (``read``), lock one for a write (``lock``) and take a decision on it (``take``)."""

    def __init__(self, store: Store, pool: AIPool | None, *, delay: float,
                 cached: Callable[[str], Session | None],
                 read: Callable[[str], Awaitable[Session]],
                 lock: Callable[[str], asyncio.Lock],
                 take: Callable[[Session, Any], Awaitable[None]],
                 watched: Callable[[str], bool] | None = None) -> None:
        self.store = store
        self.pool = pool
        self.delay = delay
        self.cached = cached
        self.read = read
        self.lock = lock
        self.take = take
        self.tasks: dict[str, asyncio.Task[None]] = {}
        # The player's presence: watched now (a live socket here), or last seen (a
        # request of the game, monotonic time) within ``absent_s``.
        self.watched = watched or (lambda _game_id: False)
        self.seen: dict[str, float] = {}
        #: When a game's last watcher here left (monotonic time; :meth:`left`).
        self.gone: dict[str, float] = {}
        self.absent_s = _absent_seconds()
        self.left_s = _left_seconds()
        self.dropped = 0  # queued thinks dropped because their player was gone
        self.stopped = 0  # running thinks stopped because their player was gone
        self.rng = random.SystemRandom()
        # One thinker per AI game across processes: this process's name in the lease
        # (games.thinker), the lease's length, and how many AI decisions it thought of.
        self.owner = secrets.token_hex(8)
        self.lease_s = _lease_seconds()
        self.decisions = 0

    def running(self, game_id: str) -> bool:
        """Whether the game's driver task runs."""
        task = self.tasks.get(game_id)
        return task is not None and not task.done()

    def present(self, game_id: str) -> bool:
        """Whether the game's player is there: watching it here, or seen lately (within
        ``left_s`` of its last watcher leaving, when no request came since; within
        ``absent_s`` of its last request otherwise)."""
        if self.watched(game_id):
            return True
        now = time.monotonic()
        seen = self.seen.get(game_id, -math.inf)
        gone = self.gone.get(game_id, -math.inf)
        if gone > seen:  # its last watcher closed the page, and nothing came since
            return now - gone < self.left_s
        return now - seen < self.absent_s

    def left(self, game_id: str) -> None:
        """The last watcher of a game here has gone (:attr:`LiveHub.on_leave`)."""
        if game_id in self.tasks:  # only an AI game in play here needs to know
            self.gone[game_id] = time.monotonic()

    def forget(self, game_id: str) -> None:
        """Drop what is kept of a game that left the cache (its task is done)."""
        self.tasks.pop(game_id, None)
        self.seen.pop(game_id, None)
        self.gone.pop(game_id, None)

    def kick(self, game_id: str) -> None:
        """Start the AI driver of a game if the AI is to decide and none runs; the game
        was just asked about (a view, a decision, an undo), so its player is there."""
        self.seen[game_id] = time.monotonic()
        session = self.cached(game_id)
        if session is None or session.row.mode != "ai" or session.state.is_terminal:
            return
        if session.state.current_player != session.ai_seat():
            return
        task = self.tasks.get(game_id)
        if task is not None and not task.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop (tests without one)
            task = asyncio.get_running_loop().create_task(self._drive(game_id))
            task.add_done_callback(_report_failure)
            self.tasks[game_id] = task

    async def _drive(self, game_id: str) -> None:
        """Play the AI's decisions of a game while they are due, holding the game's
        thinking lease (so another process serving the game does not search too)."""
        held = False
        try:
            held = await self._drive_leased(game_id)
        finally:
            # Given back when the AI's turn is over (not on shutdown: it just expires).
            if held and not _cancelling():
                with contextlib.suppress(Exception):
                    await self.store.run(self.store.release_thinking, game_id, self.owner)

    async def _drive_leased(self, game_id: str) -> bool:
        """:meth:`_drive`'s loop; whether this process took the lease."""
        seed = self.rng.randrange(2**32)
        held = False
        while True:
            try:
                session = await self.read(game_id)
            except WebError:
                return held  # gone, expired or quarantined: nothing to play
            if session.state.is_terminal or session.state.current_player != session.ai_seat():
                return held
            until = await self.store.run(self.store.claim_thinking, game_id, self.owner,
                                         self.lease_s)
            if until:  # another process thinks: look again soon (its decision, or the
                # lease given back or run out: a process that died mid-thought)
                await asyncio.sleep(min(max(until - time.time(), 0.05), LEASE_LOOK_S))
                continue
            if not held:
                # Just taken: the last holder may have played on after our read (it gives
                # the lease back once its moves are stored), so read again before thinking.
                held = True
                continue
            rev = session.rev
            snapshot = session.state.clone()
            history = [entry.token for entry in session.game.history]
            level = session.row.options.get("level", "easy")
            renewing = asyncio.get_running_loop().create_task(self._renew_lease(game_id))
            try:
                if self.pool is not None:  # a worker process plans the turn; its plan is kept
                    think = asyncio.ensure_future(self.pool.choose(
                        game_id, snapshot, level, seed + session.seq, history,
                        owner=session.row.host))
                    option = await self._unless_gone(game_id, think)
                    if option is None:
                        return held  # the player left: their next view starts it again
                else:
                    agent = get_agent(level, seed=seed + session.seq)
                    option = await asyncio.to_thread(choose_remembering, agent, snapshot,
                                                     history)
            except RuntimeError:
                if self.pool is not None and self.pool.closed:
                    return held  # the server stops: the lease runs out, another resumes
                raise
            finally:
                renewing.cancel()
            self.decisions += 1
            if self.delay:
                await asyncio.sleep(self.delay)
            async with self.lock(game_id):
                try:
                    session = await self.read(game_id)
                except WebError:
                    return held
                if session.rev != rev:
                    continue  # an undo or another process moved on: think again
                try:
                    await self.take(session, option)
                except WebError:
                    continue

    async def _unless_gone(self, game_id: str, think: asyncio.Future[Any]) -> Any:
        """``think``'s option, or None when the player left before it was done: a think
        still queued is cancelled (it leaves the queue), one running in a worker is
        stopped there (:meth:`AIPool.stop`)."""
        assert self.pool is not None
        try:
            while True:
                done, _ = await asyncio.wait({think}, timeout=ABSENT_LOOK_S)
                if done:
                    return think.result()
                if not self.present(game_id):
                    if self.pool.stop(game_id):
                        self.stopped += 1
                    else:
                        self.dropped += 1
                    log.info("game %s: its player left; the AI's turn waits for them",
                             game_id)
                    return None
        finally:
            if not think.done():
                think.cancel()
                # A stopped think's worker is gone: its wait ends broken, not cancelled.
                with contextlib.suppress(asyncio.CancelledError, BrokenProcessPool):
                    await think

    async def _renew_lease(self, game_id: str) -> None:
        """Renew the thinking lease every third of its length while the search runs."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await self.store.run(self.store.claim_thinking, game_id, self.owner,
                                     self.lease_s)
            except OperationalError:  # a busy database: the next renewal may get through
                log.warning("renewing the thinking lease of game %s failed", game_id)


#: How often a process waiting on another's thinking lease looks at the game again.
LEASE_LOOK_S = 0.5
#: How often a queued think looks whether its player is still there.
ABSENT_LOOK_S = 0.25


def _absent_seconds() -> float:
    """``RELIQUARY_AI_ABSENT_S``: how long a game without watcher or request counts as
    left by its player, whose queued AI think is then dropped (seconds, default 30)."""
    return env_number("RELIQUARY_AI_ABSENT_S", 30.0, low=0.1, high=86400, unit="seconds")


def _left_seconds() -> float:
    """``RELIQUARY_AI_LEFT_S``: how long after a game's last watcher left, with no
    request since, the game counts as left by its player, whose AI think (queued or
    running) then stops (seconds, default 5: a reloaded page is back well within it)."""
    return env_number("RELIQUARY_AI_LEFT_S", 5.0, low=0.1, high=86400, unit="seconds")


def _lease_seconds() -> float:
    """``RELIQUARY_AI_LEASE``: how long a process's claim to think for an AI game holds
    without renewal (seconds, default 15; renewed every third of it while thinking)."""
    return env_number("RELIQUARY_AI_LEASE", 15.0, low=0.5, high=3600, unit="seconds")


def _cancelling() -> bool:
    """Whether the running task is being cancelled (the server stops)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _report_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the AI driver failed", exc_info=task.exception())
