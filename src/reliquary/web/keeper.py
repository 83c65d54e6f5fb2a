"""The games of one server process in step with the store (:class:`GameKeeper`): the
cache, loading, and live notification.

The store is the truth: a game is served from the cache only while its stored revision
is the cached one, and every write names the revision it started from
(:mod:`reliquary.web.db`). A game missing from the cache is rebuilt by replaying its
stored tokens (in a thread when served); one that does not replay is quarantined
(reported, marked in the store, answered 410) instead. Reading a game also reads its
clock's stored times and ends it on time if its clock ran out
(:class:`reliquary.web.clock.Clocks`). Every change stored is told to the watchers
(:class:`reliquary.web.live.LiveHub`, :meth:`GameKeeper.notify`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine import SIDES, Content, GameOverError, IllegalOptionError, NotationError
from .clock import Clocks
from .db import ACTIVE, EXPIRED, QUARANTINED, GameRow, StaleError, Store
from .errors import WebError, clip
from .games import Session, apply_concession, new_session

if TYPE_CHECKING:
    from .live import LiveHub

log = logging.getLogger(__name__)
#: "The game row was not read yet" (a fetched row may be None: no such game).
UNREAD: Any = object()
T = TypeVar("T")
#: A call that loading needs: a database read or write, or other slow work (a replay),
#: the function and its arguments.
READ, WRITE, WORK = "read", "write", "work"
Call = tuple[str, Callable[..., Any], tuple[Any, ...]]
#: Loading steps: a generator yielding such calls, given their results, returning T.
Steps = Generator[Call, Any, T]


def _run_now(steps: Steps[T]) -> T:
    """Run loading steps with each database call made at once (on this thread)."""
    try:
        _kind, fn, args = next(steps)
        while True:
            try:
                result = fn(*args)
            except Exception as err:
                _kind, fn, args = steps.throw(err)
            else:
                _kind, fn, args = steps.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


class GameKeeper:
    """The games of this process, read from and kept in step with the store.

    ``busy(game_id)``: whether a game is in use beyond its lock (its AI driver runs), so
    it stays cached; ``evicted``: called with each game that leaves the cache."""

    def __init__(self, store: Store, content: Content, *, max_sessions: int = 1000,
                 expire_after: float | None = None, clocks: Clocks | None = None,
                 live: LiveHub | None = None) -> None:
        self.store = store
        self.content = content
        self.max_sessions = max_sessions
        self.expire_after = expire_after
        # The clocks of online games (None: shown unrun), the live updates of the
        # watchers (None: none).
        self.clocks = clocks
        self.live = live
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.busy: Callable[[str], bool] = lambda _game_id: False
        self.evicted: list[Callable[[str], None]] = []

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock that orders this process's writes to one game."""
        found = self.locks.get(game_id)
        if found is None:
            found = self.locks[game_id] = asyncio.Lock()
        return found

    async def known(self, game_id: str) -> None:
        """Refuse an unknown game before making a lock for it (no entry per made-up id)."""
        if game_id not in self.locks:
            await self.asession(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a cached game (it may differ from the store); the next request reloads."""
        self.sessions.pop(game_id, None)

    # Loading is written once, as generators that yield each database call they need
    # (``(READ|WRITE, fn, args)``) and get its result back: :meth:`session` runs the calls
    # at once, :meth:`asession` off the event loop on a database server (Store.read/run).
    def _head_steps(self, game_id: str, fetched: Any = UNREAD) -> Steps[GameRow]:
        row: GameRow | None = (yield (READ, self.store.get_game, (game_id,))) \
            if fetched is UNREAD else fetched
        if row is None:
            self.forget(game_id)
            raise WebError(404, f"no game with id {clip(game_id)}", "not_found")
        if (row.status == ACTIVE and not row.finished and self.expire_after
                and row.touched < time.time() - self.expire_after
                and (yield (WRITE, self.store.expire,
                            (time.time() - self.expire_after, game_id)))):
            row.status = EXPIRED
        if row.status == EXPIRED:
            self.forget(game_id)
            days = f" ({self.expire_after / 86400:g} days)" if self.expire_after else ""
            raise WebError(410, "this game expired: nobody played in it for too long"
                                f"{days}", "gone")
        if row.status == QUARANTINED:
            self.forget(game_id)
            raise WebError(410, "this game cannot be loaded: its stored history does not "
                                "replay, so it was set aside (the server's log says why)",
                           "gone")
        return row

    def _load_steps(self, game_id: str, row: GameRow | None = None) -> Steps[Session]:
        row = row or (yield from self._head_steps(game_id))
        for _attempt in range(5):
            stored = yield (READ, self.store.moves_of, (game_id, 0, row.rev))
            if stored is not None and len(stored) == row.seq:
                break
            row = yield from self._head_steps(game_id)  # written meanwhile: read both again
        else:
            raise WebError(503, "the game is changing too fast to load; try again", "busy")
        try:  # the replay: in a thread when served (a long game takes milliseconds)
            session: Session = yield (WORK, new_session,
                             (row, self.content, [t for t, _ in stored]))
        except Exception as err:  # any failure to replay: report it, set the game aside
            log.error("game %s does not replay; quarantined", game_id, exc_info=True)
            self.forget(game_id)
            yield (WRITE, self.store.quarantine, (game_id, f"{type(err).__name__}: {err}"))
            raise WebError(410, "this game cannot be loaded: its stored history does not "
                                "replay, so it was set aside (the server's log says why)",
                           "gone") from None
        self.keep(session)
        return session

    def keep(self, session: Session) -> None:
        """Cache a game; the least recently used idle ones leave (the store has them)."""
        self.sessions[session.id] = session
        self.sessions.move_to_end(session.id)
        over = len(self.sessions) - self.max_sessions
        if over <= 0:
            return  # (not a list of every cached game on each decision)
        for game_id in list(islice(self.sessions, over)):
            if not self.lock(game_id).locked() and not self.busy(game_id):
                del self.sessions[game_id]
                self.locks.pop(game_id, None)
                if self.clocks is not None:
                    self.clocks.forget(game_id)
                for forget in self.evicted:
                    forget(game_id)

    def session(self, game_id: str, fetched: Any = UNREAD) -> Session:
        """The game exactly as stored now (other processes' writes and undos included),
        ended on time if its clock ran out (:meth:`_timed_steps`)."""
        return _run_now(self._timed_steps(game_id, fetched))

    async def asession(self, game_id: str) -> Session:
        """:meth:`session` with every database call (the row, a catch-up, a reload, the
        clock's times) off the event loop on a database server (``Store.read``,
        ``Store.run``), and a replay in a thread."""
        return await self.run_off_loop(self._timed_steps(game_id))

    def _timed_steps(self, game_id: str, fetched: Any = UNREAD) -> Steps[Session]:
        """The game as stored, ended on time if the side to move has used up its clock
        (stored, watchers told)."""
        session = yield from self._stored_steps(game_id, fetched)
        clock = yield from self._clock_steps(session)
        if clock is None:
            return session
        assert self.clocks is not None
        loser = self.clocks.expired(session.id, clock, session.state, session.game.history)
        if loser is None:
            return session
        row = session.row
        if row.finished:  # stored by a version before stored concessions: derive it
            session.game.concede(loser, "timeout")
            return session
        try:  # the one way a concession is stored (a resignation goes the same way)
            rev = yield (WRITE, self.store.concede,
                         (session.id, row.rev, session.seq, loser, "timeout"))
        except StaleError:  # a decision came first after all: read the game again
            self.forget(session.id)
            return (yield from self._timed_steps(session.id))
        log.info("game %s: %s lost on time", session.id, SIDES[loser])
        return self.conceded(session, loser, "timeout", rev)

    def _clock_steps(self, session: Session) -> Steps[dict[str, float] | None]:
        """Read the stored times of the game's decisions that its clock has not read
        yet; the clock's settings (None: a game without a clock, or no clocks here)."""
        clock = Clocks.settings(session.row.options, session.row.mode)
        if self.clocks is None or clock is None:
            return None
        wanted = self.clocks.wanted(session.id, session.seq)
        if wanted is not None:
            rows = yield (READ, self.store.move_times, (session.id, *wanted))
            self.clocks.add(session.id, wanted[0], rows)
        return clock

    async def clock_read(self, session: Session) -> None:
        """After a stored decision: the clock's new times, read off the event loop (a
        failed read is not the decision's: the next view of the game reads them)."""
        try:
            await self.run_off_loop(self._clock_steps(session))
        except Exception:
            log.warning("reading the clock of game %s failed", session.id, exc_info=True)

    async def head(self, game_id: str) -> GameRow:
        """The stored game row, read off the event loop (refusing unknown, expired and
        quarantined games)."""
        return await self.run_off_loop(self._head_steps(game_id))

    async def run_off_loop(self, steps: Steps[T]) -> T:
        """Run loading steps, each database call through the store's helpers."""
        try:
            kind, fn, args = next(steps)
            while True:
                try:
                    if kind is WORK:
                        result = await asyncio.to_thread(fn, *args)
                    else:
                        runner = self.store.read if kind is READ else self.store.run
                        result = await runner(fn, *args)
                except Exception as err:
                    kind, fn, args = steps.throw(err)
                else:
                    kind, fn, args = steps.send(result)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    def _stored_steps(self, game_id: str, fetched: Any = UNREAD) -> Steps[Session]:
        row = yield from self._head_steps(game_id, fetched)
        session = self.sessions.get(game_id)
        if session is None:
            return (yield from self._load_steps(game_id, row))
        self.sessions.move_to_end(game_id)
        if row.rev < session.row.rev:
            return session  # read before this process stored a newer revision: ours holds
        if row.rev == session.row.rev:
            session.row = row  # the same history; seat tokens may have changed (a claim)
            return session
        if row.undos == session.row.undos and row.seq >= session.seq:
            # No undo since: the cached decisions are stored ones; append the new ones.
            seq, rev = session.seq, session.row.rev
            added = yield (READ, self.store.moves_of, (game_id, seq, row.rev))
            if (self.sessions.get(game_id) is not session or session.seq != seq
                    or session.row.rev != rev):  # this process moved it on while we read
                return (yield from self._load_steps(game_id))
            if added is not None and len(added) == row.seq - session.seq:
                try:
                    for token, _ in added:
                        session.apply_token(token)
                except (NotationError, IllegalOptionError, GameOverError):
                    return (yield from self._load_steps(game_id))
                session.row = row
                apply_concession(session)
                return session
        return (yield from self._load_steps(game_id))

    async def stale(self, game_id: str, why: str) -> WebError:
        row = await self.store.read(self.store.get_game, game_id)
        if row is None or row.status != ACTIVE:  # expired or quarantined meanwhile: say so
            try:
                _run_now(self._head_steps(game_id, row))
            except WebError as err:
                return err
        current = str(row.rev) if row is not None else None
        return WebError(409, f"stale {why}: the game moved on (another decision or an undo "
                             "came first); reload the game", "stale", rev=current)

    def conceded(self, session: Session, loser: int, reason: str, rev: int) -> Session:
        """After ``Store.concede`` stored a concession at revision ``rev``: the game
        ended so here too, and its watchers told."""
        session.row.rev = rev
        session.row.finished = True
        session.row.conceded = {"loser": loser, "reason": reason}
        apply_concession(session)
        self.keep(session)
        self.notify(session.id)
        return session

    def notify(self, game_id: str, *, told: bool = False) -> None:
        """A change of the game was stored: tell its watchers (live notification;
        ``told``: its write told other processes already)."""
        if self.live is not None:  # watchers here, and other processes (PostgreSQL)
            self.live.publish(game_id, told=told)
