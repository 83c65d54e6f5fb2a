"""Clocks for online games (API contract item 7): Fischer time, decided by the server.

A game created with ``clock: {"initial_s": 600, "increment_s": 5}`` keeps it in its
options. Nothing else is stored for the clocks: every stored decision has the time it
was stored (``moves.created``), so each side's time used is the sum, over its own turn
decisions, of the time since the decision before it — the time that decision was owed
to them. Setup is untimed, and so is the wait for each side's *first* turn decision
(as on chess sites: the guest of an online game may arrive minutes after the host
started, and must not find their time gone); from then on the player who owes the
current decision is *running*. ``increment_s`` is added each time a side's turn ends
(the engine's ``turns_taken``). So every server process, and a restarted one,
computes the same clocks from the database.

A side whose time is used up loses: each time the web layer reads a game
(:meth:`reliquary.web.manager.Manager.session`) it asks :meth:`Clocks.expired`, stores
the concession (:meth:`reliquary.web.db.Store.concede`, moving the revision on, so a
decision racing it is refused as stale; a resignation is stored the same way), ends
the game with the engine's ``Game.concede(loser,
"timeout")`` and tells the watchers. A timer task (:meth:`Clocks.run`) reads
each running game again at its next possible timeout, so a game ends on time with
nobody connected. The loss follows from the stored times, so a game rebuilt after a
restart ends on time again by the same check.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ..engine import CHANCE, SIDES, State
from .db import games

log = logging.getLogger(__name__)

def first_turn_index(history: list[Any]) -> int | None:
    """The index of the first turn decision (``play``), where the clocks start."""
    for index, entry in enumerate(history):
        if entry.kind == "play":
            return index
    return None


@dataclass
class _Track:
    """The stored times of one game's decisions read so far."""

    times: list[float] = field(default_factory=list)   # created, by decision index
    players: list[int] = field(default_factory=list)


class Clocks:
    """The clocks of the games this process serves, and the timer that ends games."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._tracks: dict[str, _Track] = {}
        self._deadlines: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._wakeup: asyncio.Event | None = None

    # -- the stored times, read by the caller -------------------------------------
    # The clocks never read the database themselves: the game keeper asks which times
    # are missing (:meth:`wanted`), reads them off the event loop
    # (:meth:`reliquary.web.db.Store.move_times`) and hands them over (:meth:`add`).
    def wanted(self, game_id: str, seq: int) -> tuple[int, int] | None:
        """The decision indexes ``(start, stop)`` whose stored times are still to be
        read for a game of ``seq`` decisions (None: all are here). A game that went
        back (an undo) starts over."""
        track = self._tracks.get(game_id)
        if track is None or len(track.times) > seq:
            track = self._tracks[game_id] = _Track()
        have = len(track.times)
        return (have, seq) if have < seq else None

    def add(self, game_id: str, start: int, rows: list[tuple[int, int, float]]) -> None:
        """Keep the stored ``(index, player, time)`` of decisions from ``start`` on."""
        track = self._tracks.setdefault(game_id, _Track())
        if start != len(track.times):
            return  # read for an older length: the next read catches up
        for idx, player, created in rows:
            if idx != len(track.times):
                break  # a gap: another writer mid-way; read again next time
            track.times.append(float(created))
            track.players.append(int(player))

    def forget(self, game_id: str) -> None:
        """Drop a game's stored times (it left the cache: they are read again when it
        comes back). Its deadline stays: the timer reads the game again then, so a game
        nobody looks at still ends on time."""
        self._tracks.pop(game_id, None)

    # -- the clocks ----------------------------------------------------------------
    @staticmethod
    def settings(options: dict[str, Any], mode: str) -> dict[str, float] | None:
        clock = options.get("clock") if mode == "online" else None
        return clock if isinstance(clock, dict) else None

    def times(self, game_id: str, clock: dict[str, float], state: State,
              history: list[Any], now: float | None = None) -> tuple[list[float], int | None]:
        """Each side's seconds left now, and the side running (or None)."""
        now = time.time() if now is None else now
        initial, increment = clock["initial_s"], clock["increment_s"]
        start = first_turn_index(history)
        used = [0.0, 0.0]
        running: int | None = None
        track = self._tracks.get(game_id)
        if start is not None and track is not None:
            times = track.times
            if len(times) == len(history):
                started = [False, False]  # each side's first turn decision is free
                previous = times[start]
                for index in range(start, len(history)):
                    player = history[index].player
                    if player != CHANCE:
                        if started[player]:
                            used[player] += max(0.0, times[index] - previous)
                        started[player] = True
                    previous = times[index]
                current = state.current_player
                if not state.is_terminal and current in (0, 1) and started[current]:
                    running = current
                    used[running] += max(0.0, now - previous)
        left = [initial + increment * state.turns_taken[p] - used[p] for p in (0, 1)]
        return left, running

    def view(self, game_id: str, clock: dict[str, float] | None, state: State,
             history: list[Any]) -> dict[str, Any] | None:
        """The view's ``clock`` object (contract item 7), or None for a game without."""
        if clock is None:
            return None
        left, running = self.times(game_id, clock, state, history)
        if running is not None:
            self.schedule(game_id, time.time() + max(0.0, left[running]))
        result = state.result
        if result is not None and result.reason == "timeout" and result.winner is not None:
            left[1 - result.winner] = 0.0  # lost on time: that clock shows it ran out
        return {"initial_s": clock["initial_s"], "increment_s": clock["increment_s"],
                "remaining": {SIDES[p]: round(max(0.0, left[p]), 2) for p in (0, 1)},
                "running": None if running is None else SIDES[running]}

    def expired(self, game_id: str, clock: dict[str, float] | None, state: State,
                history: list[Any], now: float | None = None) -> int | None:
        """The side that has lost on time (its clock ran out while running), or None."""
        if clock is None or state.is_terminal:
            return None
        left, running = self.times(game_id, clock, state, history, now)
        if running is None:
            return None
        if left[running] <= 0:
            return running
        self.schedule(game_id, (time.time() if now is None else now) + left[running])
        return None

    # -- the timer -----------------------------------------------------------------
    def schedule(self, game_id: str, at: float) -> None:
        """Look at ``game_id`` again at ``at`` (epoch seconds), its next possible timeout."""
        at = round(at, 2)  # the same deadline seen twice is one entry
        if self._deadlines.get(game_id) == at:
            return
        self._deadlines[game_id] = at
        heapq.heappush(self._heap, (at, game_id))
        if self._wakeup is not None:
            self._wakeup.set()

    async def run(self, check: Callable[[str], Awaitable[None]]) -> None:
        """The timer task: at each scheduled time call ``check(game_id)``, which reads
        the game (and so ends it if its time ran out). Runs until cancelled."""
        self._wakeup = asyncio.Event()
        while True:
            self._wakeup.clear()
            while self._heap and self._deadlines.get(self._heap[0][1]) != self._heap[0][0]:
                heapq.heappop(self._heap)  # superseded by a later schedule
            delay = 3600.0 if not self._heap else max(0.0, self._heap[0][0] - time.time())
            if delay > 0:
                # At most a second asleep: the wall clock may jump (NTP, a suspended VM).
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._wakeup.wait(), timeout=min(delay + 0.01, 1.0))
                continue
            at, game_id = heapq.heappop(self._heap)
            if self._deadlines.get(game_id) == at:
                del self._deadlines[game_id]
                try:
                    await check(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one game's trouble must not stop the others' clocks
                    log.exception("the clock check of game %s failed", game_id)

    def running_games(self) -> list[str]:
        """Unfinished online games with a clock (to watch after a start)."""
        with self.engine.connect() as conn:
            query = select(games.c.id, games.c.options).where(games.c.mode == "online",
                                                              games.c.finished == 0)
            if "status" in games.c:
                query = query.where(games.c.status == "active")
            rows = conn.execute(query).all()
        return [r.id for r in rows if isinstance(json.loads(r.options).get("clock"), dict)]


def clock_view(clocks: Clocks | None, game_id: str, options: dict[str, Any], mode: str,
               state: State, history: list[Any]) -> dict[str, Any] | None:
    """The view's ``clock`` object of a game (None without a clock), as computed by
    ``clocks`` (the app's; None: an app without clocks shows the initial times)."""
    clock = Clocks.settings(options, mode)
    if clock is None:
        return None
    if clocks is None:
        left = clock["initial_s"]
        return {"initial_s": clock["initial_s"], "increment_s": clock["increment_s"],
                "remaining": {side: left for side in SIDES}, "running": None}
    return clocks.view(game_id, clock, state, history)
