"""The game store: SQLAlchemy Core tables for games and every decision taken.

SQLite in a file by default; any SQLAlchemy URL works, PostgreSQL included
(``postgresql+psycopg://user:pass@host/db``). Each decision is one row keyed by
(game, index). The game row holds a *revision* ``rev``: every write of the history
(decisions stored, an undo) is one transaction that first moves ``rev`` on with a
conditional ``UPDATE … WHERE rev = :expected``. A writer whose view of the game is not
the stored one updates no row and is refused (:class:`StaleError`), so two processes
can never build one history on two different pasts, and a revision, once passed, never
names another history (undo increments it too). A seat claimed and a rematch linked
move it on as well, so every change of what a view shows is a new revision.
``undos`` counts take-backs: a cached game whose ``undos`` matches may catch up by
appending; otherwise it is rebuilt.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql import Select

from .config import env_number

metadata = MetaData()
#: How long a SQLite write waits for another writer's lock before the request is
#: answered 503 busy (``RELIQUARY_DB_BUSY_MS``).
def _busy_timeout_ms() -> int:
    return int(env_number("RELIQUARY_DB_BUSY_MS", 5000, whole=True, unit="milliseconds"))


BUSY_TIMEOUT_MS = _busy_timeout_ms()
#: A database server's writer threads for the writes other than decisions.
SERVER_WRITERS = 8
#: A database server's decision writers (each keeps a connection): decisions that queue
#: while they are busy are stored together (:meth:`Store.store_decision`).
DECISION_WRITERS = 2
#: SQLite's durability (``PRAGMA synchronous``): FULL syncs the WAL at every commit.
SQLITE_SYNCHRONOUS = "FULL"
T = TypeVar("T")

#: Values of ``games.status``: in play (or finished), expired untouched, or quarantined
#: because its stored history does not replay.
ACTIVE, EXPIRED, QUARANTINED = "active", "expired", "quarantined"

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("mode", String(16), nullable=False),        # ai, hotseat, online, replay
    Column("settings", Text, nullable=False),          # JSON: the engine's Settings.as_dict
    Column("options", Text, nullable=False),           # JSON: ai level/seat, creator, clock…
    Column("tokens", Text, nullable=False),            # JSON: role -> secret token
    Column("finished", Integer, nullable=False, default=0),
    Column("rev", Integer, nullable=False, server_default="0"),    # moves on at each write
    Column("undos", Integer, nullable=False, server_default="0"),  # take-backs so far
    Column("seq", Integer, nullable=False, server_default="0"),    # decisions stored
    Column("touched", Float, nullable=False, server_default="0"),  # last write (epoch s)
    Column("status", String(16), nullable=False, server_default=ACTIVE),
    Column("problem", Text, nullable=True),            # why it was quarantined
    Column("public", Integer, nullable=False, server_default="0"),  # listed in the lobby
    Column("open_seat", String(8), nullable=True),     # the side awaiting its guest
    Column("rematch", Text, nullable=True),            # JSON: the rematch game and its links
    # JSON {"loser": 0|1, "reason": "timeout"|"resign"}: a game ended outside the rules'
    # own endings (the engine's ``Game.concede``), applied after its decisions replay.
    Column("conceded", Text, nullable=True),
    # The process thinking for the AI of this game, and until when (epoch s): a lease
    # taken by a conditional UPDATE and renewed while thinking, so that one process,
    # not every one watching the game, runs the search (Store.claim_thinking).
    Column("thinker", String(32), nullable=True),
    Column("think_until", Float, nullable=False, server_default="0"),
    # Who created the game (a keyed hash of the client's address, never the address):
    # the lobby lists a few games of each client at most (Store.waiting_of).
    Column("host", String(32), nullable=True),
)
Index("games_expiry", games.c.status, games.c.finished, games.c.touched)
#: Games waiting in the lobby, newest first, and each client's: partial indexes, so the
#: lobby reads a few index entries however many games are stored.
WAITING = (games.c.public == 1) & games.c.open_seat.is_not(None)
Index("games_lobby", games.c.status, games.c.finished, games.c.created,
      sqlite_where=WAITING, postgresql_where=WAITING)
Index("games_waiting_host", games.c.host, sqlite_where=WAITING, postgresql_where=WAITING)
#: Games against the AI in play, per client: a partial index, so the cap on them
#: (:meth:`Store.ai_games_of`) reads a client's few entries.
AI_IN_PLAY = (games.c.mode == "ai") & (games.c.finished == 0)
Index("games_ai_host", games.c.host, games.c.touched,
      sqlite_where=AI_IN_PLAY, postgresql_where=AI_IN_PLAY)

moves = Table(
    "moves", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("token", String(64), nullable=False),
    Column("player", Integer, nullable=False),         # 0, 1, or -1 for chance
    Column("created", Float, nullable=False),
)


#: The databases whose decision writes go through the DB-API connection itself
#: (:class:`_DirectWrites`); others through SQLAlchemy's execution.
DIRECT_WRITES = frozenset({"sqlite", "postgresql"})


class StaleError(Exception):
    """The game's stored revision is not the one the writer started from."""


#: The former name: a second writer of a decision index is a stale writer.
DuplicateMoveError = StaleError


@dataclass
class GameRow:
    """A game as stored, without its decisions."""

    id: str
    mode: str
    settings: dict[str, Any]
    options: dict[str, Any]
    tokens: dict[str, str]
    finished: bool
    rev: int = 0
    undos: int = 0
    seq: int = 0
    created: float = 0.0
    touched: float = 0.0
    status: str = ACTIVE
    problem: str | None = None
    public: bool = False
    open_seat: str | None = None
    rematch: str | None = None
    conceded: dict[str, Any] | None = None
    host: str | None = None  # who created it (a hash, see the column)


def _row(r: Any) -> GameRow:
    return GameRow(r.id, r.mode, json.loads(r.settings), json.loads(r.options),
                   json.loads(r.tokens), bool(r.finished), int(r.rev), int(r.undos),
                   int(r.seq), float(r.created), float(r.touched), str(r.status), r.problem,
                   bool(r.public), r.open_seat, r.rematch,
                   json.loads(r.conceded) if r.conceded else None, r.host)


class Store:
    """Games and their decisions in one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        # On a database server each decision writer keeps a connection of its own
        # (_DirectWrites._held): the pool is that much larger (SQLAlchemy's default is
        # 5), so reads and the other writes find theirs as before.
        server = make_url(url).get_backend_name() != "sqlite"
        self.engine: Engine = create_engine(
            url, future=True, **({"pool_size": 5 + DECISION_WRITERS} if server else {}))
        # Writes run in worker threads (:meth:`run`), never on the event loop: a held
        # SQLite lock then stalls only the write that waits for it. SQLite takes one
        # writer at a time anyway, so one thread (no lock contention among our own
        # writes); PostgreSQL overlaps several.
        self._writers = SERVER_WRITERS if server else 1
        self._read_limiter: Any = None
        self._writer = _Writer() if self._writers == 1 else None
        # A database server's decisions: threads of their own that store the ones
        # queued meanwhile together (:meth:`store_decision`).
        self._decision_writer = _Writer(DECISION_WRITERS) if server else None
        # A database server's writes: a plain thread pool (anyio's hand-off, with its
        # limiter and cancel scope, took a tenth of a decision's event-loop time
        # there; this one about two thirds of that).
        self._threads = (None if self._writer is not None else ThreadPoolExecutor(
            self._writers, thread_name_prefix="reliquary-db-writer"))
        self._direct: _DirectWrites | None = None
        #: PostgreSQL: ``(channel, origin)`` of the live updates
        #: (:class:`reliquary.web.live.LiveHub`): a decision's write then sends its
        #: ``NOTIFY`` itself (:attr:`tells`).
        self.notice: tuple[str, str] | None = None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        if self.engine.dialect.name in DIRECT_WRITES:
            self._direct = _DirectWrites(self.engine)
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Several processes starting at once: one creates the tables, the rest wait.
                conn.execute(text("SELECT pg_advisory_xact_lock(72201)"))
            metadata.create_all(conn)
            _upgrade(conn)

    @property
    def tells(self) -> bool:
        """Whether :meth:`add_moves` of decisions sends their ``NOTIFY`` itself."""
        return (self.notice is not None and self._direct is not None
                and self._direct.told_together is not None)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a read: on SQLite at once (WAL reads never wait for a writer, and
        take less time than a thread hand-off); on a database server in a worker thread,
        so that its network round trip does not hold up the event loop."""
        if self.engine.dialect.name == "sqlite":
            return fn(*args)
        import anyio

        if self._read_limiter is None:
            self._read_limiter = anyio.CapacityLimiter(8)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args),
                                              limiter=self._read_limiter)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a write of this store) in a worker thread, off the event loop.

        On SQLite the one writer thread (:class:`_Writer`) takes the writes in turn; on a
        database server, eight threads of the store's own pool. A caller cancelled
        meanwhile waits for a write that has begun to end (its lock then still orders
        the game's writes), and is cancelled after. A decision's write goes through
        :meth:`store_decision` instead."""
        if self._writer is not None:
            return await self._writer.run(fn, *args)
        assert self._threads is not None
        work = self._threads.submit(fn, *args)
        future = asyncio.wrap_future(work)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if not work.cancel():  # begun (or done): wait for it to end
                with contextlib.suppress(BaseException):
                    await future
            raise

    async def store_decision(self, game_id: str, rev: int, start: int,
                             entries: list[tuple[str, int]], finished: bool) -> int:
        """:meth:`add_moves` off the event loop (as :meth:`run`), grouped: the
        decisions that queue while the writer is busy are stored together, one commit
        for them all (a group commit: on SQLite one sync of the log, on a database
        server one statement and one round trip), each still refused alone when stale.
        On SQLite through the store's one writer, in order with its other writes; on a
        database server through writers of their own (:data:`DECISION_WRITERS`)."""
        args = (game_id, rev, start, entries, finished)
        writer = self._decision_writer or self._writer
        if writer is None or self._direct is None:
            return await self.run(self.add_moves, *args)
        return await writer.run(self.add_moves, *args, together=self._add_moves_together)

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, mode: str, settings: dict[str, Any],
                    options: dict[str, Any], tokens: dict[str, str],
                    entries: list[tuple[str, int]] | None = None, finished: bool = False,
                    *, public: bool = False, open_seat: str | None = None,
                    host: str | None = None) -> int:
        """Store a new game and its first decisions in one transaction; its revision."""
        now = time.time()
        entries = entries or []
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=game_id, created=now, mode=mode, settings=json.dumps(settings),
                options=json.dumps(options), tokens=json.dumps(tokens),
                finished=int(finished), rev=1, undos=0, seq=len(entries), touched=now,
                status=ACTIVE, public=int(public), open_seat=open_seat, host=host))
            _insert_moves(conn, game_id, 0, entries, now)
        return 1

    def get_game(self, game_id: str) -> GameRow | None:
        """The game row (revision, tokens, status …), or None for an unknown id."""
        with self.engine.connect() as conn:
            row = conn.execute(_GET_GAME, {"b_id": game_id}).first()
        return None if row is None else _row(row)

    def delete_game(self, game_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(moves).where(moves.c.game_id == game_id))
            conn.execute(delete(games).where(games.c.id == game_id))

    # ------------------------------------------------------------------ decisions
    def moves_of(self, game_id: str, start: int = 0,
                 rev: int | None = None) -> list[tuple[str, int]] | None:
        """The stored decisions of a game from index ``start``, in order.

        With ``rev``, None when the game's revision is no longer ``rev`` (one query:
        the rows and the revision come from one snapshot)."""
        joined = games.outerjoin(moves, and_(moves.c.game_id == games.c.id,
                                             moves.c.idx >= start))
        query = (select(games.c.rev, moves.c.token, moves.c.player).select_from(joined)
                 .where(games.c.id == game_id).order_by(moves.c.idx))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        if rev is not None and (not rows or any(r.rev != rev for r in rows)):
            return None
        return [(r.token, r.player) for r in rows if r.token is not None]

    def move_times(self, game_id: str, start: int, stop: int
                   ) -> list[tuple[int, int, float]]:
        """``(index, player, time stored)`` of decisions ``start`` to ``stop - 1``."""
        with self.engine.connect() as conn:
            rows = conn.execute(_MOVE_TIMES, {"b_id": game_id, "b_start": start,
                                              "b_stop": stop}).all()
        return [(int(r.idx), int(r.player), float(r.created)) for r in rows]

    def count_moves(self, game_id: str) -> int:
        row = self.get_game(game_id)
        return 0 if row is None else row.seq

    def add_moves(self, game_id: str, rev: int, start: int, entries: list[tuple[str, int]],
                  finished: bool) -> int:
        """Store decisions at indexes ``start``… if the game is still at revision ``rev``.

        All or none; returns the new revision. Raises :class:`StaleError` when another
        writer moved the game on (or already holds one of those indexes)."""
        now = time.time()
        values = _advance_values(game_id, rev, start, entries, finished, now)
        if self._direct is not None:  # the same statements, without the toolkit
            notice = (None if self.notice is None
                      else (self.notice[0], f"{self.notice[1]}:{game_id}"))
            self._direct.add_moves(values, game_id, start, entries, now, notice)
            return rev + 1
        try:
            with self.engine.begin() as conn:
                moved = conn.execute(_ADVANCE, values)
                if moved.rowcount != 1:
                    raise StaleError(f"game {game_id} is no longer at revision {rev}")
                _insert_moves(conn, game_id, start, entries, now)
        except IntegrityError:
            raise StaleError(f"decision {start} of game {game_id} is taken") from None
        return rev + 1

    def _add_moves_together(self, calls: list[tuple[Any, ...]]) -> list[tuple[bool, Any]]:
        """Several :meth:`add_moves` (their arguments) that queued for a decision
        writer, as one transaction: on SQLite one sync of the log for them all (each
        commit's sync is most of a decision's write, :data:`SQLITE_SYNCHRONOUS`), on a
        database server one statement. A stale one is refused alone. ``(True, new
        revision)`` or ``(False, error)`` for each, answered only once committed. A
        failure of the whole (a busy file, a decision index taken, a deadlock with
        another process) stored none of it: they are made again one by one, as
        without; a lost connection is each one's answer (it may have committed)."""
        assert self._direct is not None
        now = time.time()
        # PostgreSQL: each game's NOTIFY (channel, and the payload before its id).
        told = None if self.notice is None else (self.notice[0], f"{self.notice[1]}:")
        try:
            errors = self._direct.add_moves_together(
                [(_advance_values(game_id, rev, start, entries, finished, now), game_id,
                  start, entries, now) for game_id, rev, start, entries, finished in calls],
                told)
        except DBAPIError as err:
            if err.connection_invalidated:
                return [(False, err) for _ in calls]
            return [_attempt(self.add_moves, call) for call in calls]
        except Exception:  # nothing was stored: each on its own, with its own answer
            return [_attempt(self.add_moves, call) for call in calls]
        return [(False, error) if error is not None else (True, call[1] + 1)
                for call, error in zip(calls, errors, strict=True)]

    def concede(self, game_id: str, rev: int, seq: int, loser: int, reason: str) -> int:
        """End a game at revision ``rev`` (with ``seq`` decisions) by a concession (a loss
        on time, a resignation), once; the new revision. :class:`StaleError` when the game
        moved on or is over already. Every process, and a restarted one, rebuilds the
        game with it (:func:`reliquary.web.games.new_session`)."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(games).where(games.c.id == game_id, games.c.rev == rev,
                                    games.c.seq == seq, games.c.finished == 0,
                                    games.c.status == ACTIVE)
                .values(rev=games.c.rev + 1, finished=1, touched=time.time(),
                        conceded=json.dumps({"loser": loser, "reason": reason})))
            if moved.rowcount != 1:
                raise StaleError(f"game {game_id} is no longer at revision {rev}")
        return rev + 1

    def claim_thinking(self, game_id: str, owner: str, lease_s: float) -> float:
        """Take (or renew) the lease to think for a game's AI for ``lease_s`` seconds:
        0.0 when ``owner`` holds it now, else the epoch time the other holder's lease
        ends (or 0.0 with nothing to think for: the game is gone or over)."""
        now = time.time()
        with self.engine.begin() as conn:
            moved = conn.execute(_CLAIM_THINKING, {"b_id": game_id, "b_owner": owner,
                                                   "b_now": now, "b_until": now + lease_s})
            if moved.rowcount == 1:
                return 0.0
            held = conn.execute(select(games.c.think_until).where(
                games.c.id == game_id, games.c.finished == 0,
                games.c.status == ACTIVE)).scalar()
        return 0.0 if held is None else max(float(held), now + 0.01)

    def release_thinking(self, game_id: str, owner: str) -> None:
        """Give the lease back (the AI's turn is over here), if ``owner`` holds it."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id, games.c.thinker == owner)
                         .values(thinker=None, think_until=0.0))

    def truncate(self, game_id: str, rev: int, keep: int) -> int:
        """Delete the decisions from index ``keep`` on (undo) if still at ``rev``."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(games).where(games.c.id == game_id, games.c.rev == rev,
                                    games.c.status == ACTIVE)
                .values(rev=games.c.rev + 1, undos=games.c.undos + 1, seq=keep, finished=0,
                        touched=time.time()))
            if moved.rowcount != 1:
                raise StaleError(f"game {game_id} is no longer at revision {rev}")
            conn.execute(delete(moves).where(moves.c.game_id == game_id, moves.c.idx >= keep))
        return rev + 1

    # ------------------------------------------------------------------ seats, rematches
    def claim_seat(self, game_id: str, old_tokens: dict[str, str],
                   new_tokens: dict[str, str]) -> bool:
        """Give the open seat its token, once: False if someone claimed it first."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(games).where(games.c.id == game_id, games.c.open_seat.is_not(None),
                                    games.c.tokens == json.dumps(old_tokens))
                .values(tokens=json.dumps(new_tokens), open_seat=None, touched=time.time(),
                        rev=games.c.rev + 1))  # the views change: watchers look again
        return moved.rowcount == 1

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Link a finished game to its rematch, once: False if one is linked already."""
        with self.engine.begin() as conn:
            moved = conn.execute(update(games).where(games.c.id == game_id,
                                                     games.c.rematch.is_(None))
                                 .values(rematch=rematch_id, rev=games.c.rev + 1))
        return moved.rowcount == 1

    def lobby(self, touched_after: float, limit: int = 50) -> list[GameRow]:
        """Public online games waiting for a guest, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(lobby_query(limit)).all()
        # Untouched too long: expired, though not yet marked so (Manager's expiry loop).
        return [_row(r) for r in rows if r.touched >= touched_after]

    def waiting_of(self, host: str, touched_after: float) -> int:
        """How many public games of the client ``host`` wait for a guest in the lobby."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(games)
                .where(WAITING, games.c.host == host, games.c.status == ACTIVE,
                       games.c.finished == 0, games.c.touched >= touched_after)).scalar_one())

    def ai_games_of(self, host: str, touched_after: float) -> int:
        """How many unfinished games against the AI of the client ``host`` were played in
        (a decision stored, or created) since ``touched_after``."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(games)
                .where(AI_IN_PLAY, games.c.host == host, games.c.status == ACTIVE,
                       games.c.touched >= touched_after)).scalar_one())

    # ------------------------------------------------------------------ housekeeping
    def quarantine(self, game_id: str, problem: str) -> None:
        """Take a game that does not replay out of play, saying why."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(status=QUARANTINED, problem=problem[:2000]))

    def expire(self, touched_before: float, game_id: str | None = None) -> int:
        """Mark unfinished games untouched since ``touched_before`` expired; how many."""
        where = [games.c.status == ACTIVE, games.c.finished == 0,
                 games.c.touched < touched_before]
        if game_id is not None:
            where.append(games.c.id == game_id)
        with self.engine.begin() as conn:
            return int(conn.execute(update(games).where(*where)
                                    .values(status=EXPIRED)).rowcount)

    def unfinished_ids(self, touched_after: float = 0.0) -> list[str]:
        """Unfinished games against the AI still in play (to resume after a restart)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id).where(
                games.c.finished == 0, games.c.mode == "ai", games.c.status == ACTIVE,
                games.c.touched >= touched_after)).all()
        return [r.id for r in rows]


class _Writer:
    """Threads (one by default) that make a store's writes in the order they come
    (SQLite takes one writer at a time anyway). Handing each write to a thread of its
    own cost more than the write (a wake-up and a loop callback per decision, issue 7's
    throughput): here a busy writer takes the writes that queued meanwhile without
    being woken, and answers each event loop once per batch. With several threads, a
    free one takes everything queued while the others are busy."""

    def __init__(self, threads: int = 1) -> None:
        self._queue: collections.deque[_Job] = collections.deque()
        self._ready = threading.Condition()
        self._idle = 0  # threads waiting for work
        self._most = threads
        self._threads: list[threading.Thread] = []

    async def run(self, fn: Callable[..., T], *args: Any,
                  together: Together | None = None) -> T:
        """``fn(*args)`` in the writer's thread; ``together``: makes several such calls
        that queued one after another at once (their arguments in, each one's
        ``(ok, result or error)`` out)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        with self._ready:
            self._queue.append((fn, args, future, together))
            if self._idle:
                self._ready.notify()
            elif len(self._threads) < self._most:
                thread = threading.Thread(target=self._work, name="reliquary-db-writer",
                                          daemon=True)
                self._threads.append(thread)
                thread.start()
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # As anyio's threads: the caller waits for a write that has begun to end (its
            # lock then still orders the game's writes), and is cancelled after.
            with contextlib.suppress(BaseException):
                await future
            raise

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    self._idle += 1
                    self._ready.wait()
                    self._idle -= 1
                batch = list(self._queue)
                self._queue.clear()
            done: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool,
                                                              Any]]] = {}
            for jobs, results in _made(batch):
                for (_, _, future, _), (ok, value) in zip(jobs, results, strict=True):
                    done.setdefault(future.get_loop(), []).append((future, ok, value))
            for loop, outcomes in done.items():
                with contextlib.suppress(RuntimeError):  # that loop has closed meanwhile
                    loop.call_soon_threadsafe(_settle, outcomes)


#: A write waiting for :class:`_Writer`: the function, its arguments, the waiting
#: future and how several such calls are made together (or None).
_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]", "Together | None"]
#: Several calls' arguments in, ``(ok, result or error)`` of each out.
Together = Callable[[list[tuple[Any, ...]]], list[tuple[bool, Any]]]


def _made(batch: list[_Job]) -> Iterator[tuple[list[_Job], list[tuple[bool, Any]]]]:
    """Make the writes of ``batch`` in order: each one alone, except runs of two or more
    with the same ``together``, which make them at once; yields each run and its
    ``(ok, result or error)`` per job."""
    i = 0
    while i < len(batch):
        together = batch[i][3]
        j = i + 1
        while together is not None and j < len(batch) and batch[j][3] == together:
            j += 1
        jobs = batch[i:j]
        if together is not None and len(jobs) > 1:
            yield jobs, together([args for _, args, _, _ in jobs])
        else:
            yield jobs, [_attempt(jobs[0][0], jobs[0][1])]
        i = j


def _attempt(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
    """``(True, fn(*args))``, or ``(False, the error)`` for the waiting coroutine."""
    try:
        return True, fn(*args)
    except BaseException as err:  # given to the waiting coroutine
        return False, err


def _int_array(values: Iterable[int]) -> str:
    """A PostgreSQL array literal of integers (``{1,-1}``)."""
    return "{" + ",".join(str(int(v)) for v in values) + "}"


def _text_array(values: Iterable[str]) -> str:
    """A PostgreSQL array literal of texts, each quoted (``{"a","b \\"c\\""}``): any
    text, commas, braces, quotes, backslashes and the word NULL included."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
                          for v in values) + "}"


def _advance_values(game_id: str, rev: int, start: int, entries: list[tuple[str, int]],
                    finished: bool, now: float) -> dict[str, Any]:
    """The parameters of :data:`_ADVANCE` for decisions ``entries`` stored at ``start``."""
    return {"b_id": game_id, "b_rev": rev, "b_start": start,
            "b_seq": start + len(entries), "b_finished": int(finished), "b_now": now}


def _settle(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the event loop: give each write's result (or error) to its waiting coroutine."""
    for future, ok, value in outcomes:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


# The statements of the decision path, built once: building a statement costs more
# than running it on SQLite (issue 7's throughput).
def lobby_query(limit: int) -> Select[Any]:
    """The lobby's games, newest first: read along the partial index ``games_lobby``."""
    return (select(games).where(WAITING, games.c.status == ACTIVE, games.c.finished == 0)
            .order_by(games.c.created.desc()).limit(limit))


_GET_GAME = select(games).where(games.c.id == bindparam("b_id"))
_MOVE_TIMES = (select(moves.c.idx, moves.c.player, moves.c.created)
               .where(moves.c.game_id == bindparam("b_id"),
                      moves.c.idx >= bindparam("b_start"), moves.c.idx < bindparam("b_stop"))
               .order_by(moves.c.idx))
_ADVANCE = (update(games)
            .where(games.c.id == bindparam("b_id"), games.c.rev == bindparam("b_rev"),
                   games.c.seq == bindparam("b_start"), games.c.status == ACTIVE)
            .values(rev=games.c.rev + 1, seq=bindparam("b_seq"),
                    finished=bindparam("b_finished"), touched=bindparam("b_now")))
_INSERT_MOVES = insert(moves)
_CLAIM_THINKING = (update(games)
                   .where(games.c.id == bindparam("b_id"), games.c.finished == 0,
                          games.c.status == ACTIVE,
                          (games.c.thinker.is_(None)) | (games.c.thinker == bindparam("b_owner"))
                          | (games.c.think_until < bindparam("b_now")))
                   .values(thinker=bindparam("b_owner"), think_until=bindparam("b_until")))


class _DirectWrites:
    """The decision path's write (:meth:`Store.add_moves`) through the DB-API connection
    itself: the same two statements, compiled once for the dialect (SQLite's qmark,
    psycopg's named parameters). SQLAlchemy's execution machinery around them cost
    about twice the write (issue 30's CPU per decision). Errors come out as they do
    through it (:class:`StaleError` for a taken decision, SQLAlchemy's own exception
    otherwise: :class:`OperationalError` for a busy file or a lost server, which
    also drops the connection from the pool).

    The connection is kept between writes (the pool's checkout and return cost as much
    as the statements): on SQLite, whose writes are made by one thread
    (:class:`_Writer`), one; on a database server, whose writes come from several
    threads, one per thread, in autocommit."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        advance = _ADVANCE.compile(dialect=dialect)
        columns = [c.name for c in moves.columns]
        add = _INSERT_MOVES.compile(dialect=dialect, column_keys=columns)
        self.advance, self.insert = str(advance), str(add)
        self.advance_defaults = dict(advance.params)
        self.positional = bool(advance.positional)
        assert add.positional == advance.positional
        if self.positional:  # SQLite: values in the statement's order
            self.advance_order = list(advance.positiontup or ())
            assert list(add.positiontup or ()) == columns
        else:  # psycopg: by name (the columns' own names)
            assert set(add.params) == set(columns), add.params
        self.columns = columns
        self.dbapi = dialect.loaded_dbapi
        self.keep = dialect.name == "sqlite"
        # PostgreSQL: both statements as one (the UPDATE's row feeds the INSERT), run
        # in autocommit, its own transaction: one round trip, not BEGIN, UPDATE, INSERT
        # and COMMIT's four (each a wait and a wake-up of the writer's thread). No row
        # inserted: the UPDATE matched none, the game moved on (stale).
        # With a notice (:attr:`Store.notice`) the same statement tells the other
        # processes' watchers too (``pg_notify``, sent at its commit), so the event
        # loop sends no NOTIFY of its own for a decision.
        self.together = None if self.positional else self._together(told=False)
        self.told_together = None if self.positional else self._together(told=True)
        self._kept: Any = None
        self._lock = threading.Lock()
        self._local = threading.local()  # a database server's: each thread's connection

    def _together(self, *, told: bool) -> str:
        tell = (", told AS (SELECT pg_notify(%(n_channel)s, %(n_payload)s) FROM moved)"
                if told else "")
        return (f"WITH moved AS ({self.advance} RETURNING games.id){tell} "
                "INSERT INTO moves (game_id, idx, token, player, created) "
                "SELECT moved.id, m.idx, m.token, m.player, %(b_now)s "
                f"FROM moved, {'told, ' if told else ''}"
                "unnest(%(m_idx)s::integer[], %(m_token)s::text[], %(m_player)s::integer[]) "
                "AS m(idx, token, player)")

    def add_moves(self, values: dict[str, Any], game_id: str, start: int,
                  entries: list[tuple[str, int]], now: float,
                  notice: tuple[str, str] | None = None) -> None:
        params = {**self.advance_defaults, **values}
        rev = values["b_rev"]
        if self.together is not None and entries:
            # The arrays as PostgreSQL's own literals, cast in the statement: psycopg's
            # list adaptation looks for each list's element type every time, over a
            # quarter of the write's CPU here.
            params.update(m_idx=_int_array(start + i for i in range(len(entries))),
                          m_token=_text_array(token for token, _ in entries),
                          m_player=_int_array(player for _, player in entries))
            statement = self.together
            if notice is not None and self.told_together is not None:
                statement = self.told_together
                params.update(n_channel=notice[0], n_payload=notice[1])
            with self._held() as raw:
                self._write_together(raw, statement, params, game_id, rev, start,
                                     len(entries))
            return
        rows = [(game_id, start + i, token, player, now)
                for i, (token, player) in enumerate(entries)]
        advance: Any = params
        added: list[Any] = rows
        if self.positional:
            advance = [params[k] for k in self.advance_order]
        else:
            added = [dict(zip(self.columns, row, strict=True)) for row in rows]
        if not self.keep:
            with self._pooled() as raw:
                self._write(raw, advance, added, game_id, rev, start)
            return
        with self._lock:
            if self._kept is None:
                self._kept = self.engine.raw_connection()
            raw = self._kept
            try:
                self._write(raw, advance, added, game_id, rev, start)
            except StaleError:
                raise
            except BaseException:
                self._kept = None  # a fresh one next time: this one may be broken
                with contextlib.suppress(Exception):
                    raw.close()
                raise

    def add_moves_together(self, calls: list[tuple[dict[str, Any], str, int,
                                                 list[tuple[str, int]], float]],
                           told: tuple[str, str] | None = None
                           ) -> list[StaleError | None]:
        """Several :meth:`add_moves` (``(values, game_id, start, entries, now)`` each)
        as one transaction: None for a write made, :class:`StaleError` for one refused
        (its game moved on: its UPDATE matched no row and changed nothing), and one
        commit for all. Any other error (a decision index taken, a busy file, a lost
        server) stores none of them and is raised. ``told``: PostgreSQL's ``NOTIFY``
        of each game stored (the channel, and the payload before the game's id)."""
        if not self.positional:
            return self._together_on_server(calls, told)
        assert self.keep
        with self._lock:
            if self._kept is None:
                self._kept = self.engine.raw_connection()
            raw = self._kept
            cursor = raw.cursor()
            statement = "BEGIN"
            answers: list[StaleError | None] = []
            added: list[tuple[str, int, str, int, float]] = []
            try:
                cursor.execute(statement)
                statement = self.advance
                for values, game_id, start, entries, now in calls:
                    params = {**self.advance_defaults, **values}
                    cursor.execute(statement, [params[k] for k in self.advance_order])
                    if cursor.rowcount != 1:
                        answers.append(StaleError(f"game {game_id} is no longer at "
                                                  f"revision {values['b_rev']}"))
                        continue
                    answers.append(None)
                    added.extend((game_id, start + i, token, player, now)
                                 for i, (token, player) in enumerate(entries))
                statement = self.insert
                cursor.executemany(statement, added)
                statement = "COMMIT"
                raw.commit()
            except BaseException as err:
                with contextlib.suppress(Exception):
                    raw.rollback()
                if (isinstance(err, self.dbapi.Error)
                        and not isinstance(err, self.dbapi.IntegrityError)):
                    self._kept = None  # a fresh one next time: this one may be broken
                    with contextlib.suppress(Exception):
                        raw.close()
                    self._reword(err, raw, cursor, statement, "", 0)
                raise
            finally:
                with contextlib.suppress(Exception):
                    cursor.close()
        return answers

    def _together_on_server(self, calls: list[tuple[dict[str, Any], str, int,
                                                    list[tuple[str, int]], float]],
                            told: tuple[str, str] | None) -> list[StaleError | None]:
        """:meth:`add_moves_together` on PostgreSQL: one statement in autocommit (its own
        transaction), the games' revisions and every decision as arrays, that returns
        the games it moved on. A game twice in one group is not made: it cannot be (a
        game's decisions are stored one at a time in a process)."""
        ids = [game_id for _, game_id, _, _, _ in calls]
        if len(set(ids)) != len(ids):
            raise ValueError("a game twice in one group of decisions")
        now = calls[0][4]
        params: dict[str, Any] = {
            "g_id": _text_array(ids),
            "g_rev": _int_array(values["b_rev"] for values, _, _, _, _ in calls),
            "g_start": _int_array(start for _, _, start, _, _ in calls),
            "g_seq": _int_array(values["b_seq"] for values, _, _, _, _ in calls),
            "g_finished": _int_array(values["b_finished"] for values, _, _, _, _ in calls),
            "b_now": now, "b_active": ACTIVE,
            "m_game": _text_array(game_id for _, game_id, _, entries, _ in calls
                                  for _ in entries),
            "m_idx": _int_array(start + i for _, _, start, entries, _ in calls
                                for i in range(len(entries))),
            "m_token": _text_array(token for _, _, _, entries, _ in calls
                                   for token, _ in entries),
            "m_player": _int_array(player for _, _, _, entries, _ in calls
                                   for _, player in entries)}
        statement = _GROUP_TOLD if told is not None else _GROUP
        if told is not None:
            params.update(n_channel=told[0], n_prefix=told[1])
        with self._held() as raw:
            cursor = raw.cursor()
            try:
                cursor.execute(statement, params)
                moved = {row[0] for row in cursor.fetchall()}
            except BaseException as err:
                if not isinstance(err, self.dbapi.IntegrityError):
                    self._reword(err, raw, cursor, statement, "", 0)
                raise
            finally:
                with contextlib.suppress(Exception):
                    cursor.close()
        return [None if game_id in moved else StaleError(
                    f"game {game_id} is no longer at revision {values['b_rev']}")
                for values, game_id, _, _, _ in calls]

    @contextlib.contextmanager
    def _held(self) -> Iterator[Any]:
        """This thread's own connection, in autocommit, kept between its writes (the
        pool's checkout and return, and turning autocommit on and off, cost a sixth of
        a write); after an error other than a stale write it goes back to the pool (a
        lost one is dropped there) and the next write takes another."""
        raw: Any = getattr(self._local, "raw", None)
        if raw is None:
            raw = self.engine.raw_connection()
            raw.dbapi_connection.autocommit = True
            self._local.raw = raw
        try:
            yield raw
        except StaleError:
            raise
        except BaseException:
            self._local.raw = None
            with contextlib.suppress(Exception):
                raw.dbapi_connection.autocommit = False
            with contextlib.suppress(Exception):
                raw.close()
            raise

    @contextlib.contextmanager
    def _pooled(self) -> Iterator[Any]:
        """A connection from the pool for one write, given back after it (an
        invalidated one is dropped)."""
        raw = self.engine.raw_connection()
        try:
            yield raw
        finally:
            raw.close()

    def _write(self, raw: Any, advance: Any, added: list[Any], game_id: str, rev: int,
               start: int) -> None:
        cursor = raw.cursor()
        statement = self.advance
        try:
            cursor.execute(statement, advance)
            if cursor.rowcount != 1:
                raise StaleError(f"game {game_id} is no longer at revision {rev}")
            if added:
                statement = self.insert
                cursor.executemany(statement, added)
            raw.commit()
        except BaseException as err:
            with contextlib.suppress(Exception):
                raw.rollback()
            self._reword(err, raw, cursor, statement, game_id, start)
            raise
        finally:
            with contextlib.suppress(Exception):
                cursor.close()

    def _write_together(self, raw: Any, statement: str, params: dict[str, Any],
                        game_id: str, rev: int, start: int, count: int) -> None:
        """The one statement on ``raw``, a connection in autocommit (:meth:`_held`)."""
        cursor = raw.cursor()
        try:
            cursor.execute(statement, params)
            if cursor.rowcount != count:  # nothing was written (one statement)
                raise StaleError(f"game {game_id} is no longer at revision {rev}")
        except BaseException as err:
            self._reword(err, raw, cursor, statement, game_id, start)
            raise
        finally:
            with contextlib.suppress(Exception):
                cursor.close()

    def _reword(self, err: BaseException, raw: Any, cursor: Any, statement: str,
                game_id: str, start: int) -> None:
        """Raise a DB-API error as the store's callers expect it: a taken decision as
        :class:`StaleError`, anything else as SQLAlchemy words it (a lost connection
        dropped from the pool); other errors are left to the caller to raise."""
        if isinstance(err, self.dbapi.IntegrityError):
            raise StaleError(f"decision {start} of game {game_id} is taken") from None
        if isinstance(err, self.dbapi.Error):
            lost = self.engine.dialect.is_disconnect(err, raw.dbapi_connection, cursor)
            if lost:
                raw.invalidate(err)
            raise DBAPIError.instance(statement, None, err, self.dbapi.Error,
                                      connection_invalidated=lost,
                                      dialect=self.engine.dialect) from err


#: PostgreSQL's group of decisions (:meth:`_DirectWrites.add_moves_together`): each
#: game's revision moves on where it is still the one its decision answered, and the
#: decisions of the games moved on are inserted; the games moved on come back.
_GROUP_MOVED = (
    "WITH v AS (SELECT * FROM unnest(%(g_id)s::text[], %(g_rev)s::integer[], "
    "%(g_start)s::integer[], %(g_seq)s::integer[], %(g_finished)s::integer[]) "
    "AS v(id, rev, start, seq, finished)), "
    "moved AS (UPDATE games SET rev = games.rev + 1, seq = v.seq, finished = v.finished, "
    "touched = %(b_now)s FROM v WHERE games.id = v.id AND games.rev = v.rev "
    "AND games.seq = v.start AND games.status = %(b_active)s RETURNING games.id), "
    "added AS (INSERT INTO moves (game_id, idx, token, player, created) "
    "SELECT m.game_id, m.idx, m.token, m.player, %(b_now)s "
    "FROM unnest(%(m_game)s::text[], %(m_idx)s::integer[], %(m_token)s::text[], "
    "%(m_player)s::integer[]) AS m(game_id, idx, token, player) "
    "WHERE m.game_id IN (SELECT id FROM moved)) ")
_GROUP = _GROUP_MOVED + "SELECT id FROM moved"
#: The same, telling the other processes of each game moved on (sent at its commit).
_GROUP_TOLD = (_GROUP_MOVED
               + "SELECT id, pg_notify(%(n_channel)s, %(n_prefix)s || id) FROM moved")


def _insert_moves(conn: Connection, game_id: str, start: int,
                  entries: list[tuple[str, int]], now: float) -> None:
    if entries:
        conn.execute(_INSERT_MOVES, [
            {"game_id": game_id, "idx": start + i, "token": token, "player": player,
             "created": now} for i, (token, player) in enumerate(entries)])


def _upgrade(conn: Connection) -> None:
    """Add the columns a database made by an older version lacks (and fill them)."""
    have = {c["name"] for c in inspect(conn).get_columns("games")}
    missing = [c for c in games.columns if c.name not in have]
    for column in missing:
        kind = column.type.compile(dialect=conn.dialect)
        default = getattr(column.server_default, "arg", None)
        clause = f" NOT NULL DEFAULT '{default}'" if default is not None else ""
        conn.execute(text(f"ALTER TABLE games ADD COLUMN {column.name} {kind}{clause}"))
    if {"touched", "seq"} & {c.name for c in missing}:  # not for later columns alone
        conn.execute(text("UPDATE games SET touched = created, seq = (SELECT count(*) FROM "
                          "moves WHERE moves.game_id = games.id)"))
    for index in games.indexes:
        index.create(conn, checkfirst=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: a decision acknowledged is on disk, power cut included (NORMAL in WAL mode
    # may lose the last commits); its cost is measured by benchmarks/web_sqlite_sync.py.
    cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()
