"""The games of one server process, kept in step with the store (:class:`Manager`).

The store is the truth: a game is served from the cache only while its stored revision
is the cached one, and every write names the revision it started from
(:mod:`reliquary.web.db`). Every decision is validated by the engine
(``parse_option``), stored at the revision it answers, and only then kept; chance is
sampled here with :func:`reliquary.ai.sample_chance` and stored like a decision. A
restarted server rebuilds each game by replaying its stored tokens; one that does not
replay is quarantined (reported, marked in the store, answered 410) instead.

The manager's parts, each with its collaborators passed in: loading and the cache
(here), creation (here), the decision and undo path (here: :meth:`Manager.decide`,
:meth:`Manager.undo`, :meth:`Manager.resign`, with the undo policy
:func:`reliquary.web.games.undo_count`), seats beyond creation
(:class:`reliquary.web.seats.Seats`: invites, the lobby, rematches, on top), the AI
(:class:`reliquary.web.ai_driver.AIDriver`), the clocks
(:class:`reliquary.web.clock.Clocks`, asked by :meth:`Manager.session`) and live
notification (:class:`reliquary.web.live.LiveHub`, told by :meth:`Manager.notify`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import OperationalError

from ..ai import LEVELS, sample_chance
from ..engine import (
    CHANCE,
    SIDES,
    Content,
    GameOverError,
    IllegalOptionError,
    NotationError,
    Settings,
)
from .ai_driver import AIDriver
from .clock import Clocks
from .db import ACTIVE, EXPIRED, QUARANTINED, GameRow, StaleError, Store
from .errors import WebError, clip
from .games import (
    Session,
    apply_concession,
    in_setup,
    new_session,
    settings_from,
    undo_count,
    view,
)

if TYPE_CHECKING:
    from .ai_pool import AIPool
    from .live import LiveHub

log = logging.getLogger(__name__)
#: A game against the AI counts as in play (for the cap on them per client) while
#: unfinished and played in within this many seconds.
AI_IN_PLAY_S = 3600.0
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


class Manager:
    """All games of this server process, backed by the store (see the module's
    docstring): the cache and loading, creation and seats, the decision and undo path;
    the AI driver, the clocks and the live hub are its collaborators."""

    def __init__(self, store: Store, content: Content, ai_delay: float = 0.2,
                 max_sessions: int = 1000, expire_after: float | None = None,
                 lobby_per_client: int = 3, *, ai: AIPool | None = None,
                 live: LiveHub | None = None, clocks: Clocks | None = None,
                 ai_games_per_client: int = 8) -> None:
        self.store = store
        self.lobby_per_client = lobby_per_client
        self.ai_games_per_client = ai_games_per_client
        self.content = content
        self.ai_delay = ai_delay
        self.expire_after = expire_after
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.max_sessions = max_sessions
        self.changed: dict[str, asyncio.Event] = {}
        self.rng = random.SystemRandom()
        # The AI's process pool (None: the AI thinks in a thread), the live updates of
        # the watchers (None: none), the clocks of online games (None: shown unrun).
        self.ai = ai
        self.live = live
        self.clocks = clocks
        self.driver = AIDriver(store, ai, delay=ai_delay, cached=self.sessions.get,
                               read=self.asession, lock=self.lock, take=self._take,
                               watched=live.watching if live is not None else None)

    # ------------------------------------------------------------------ loading
    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock that orders this process's writes to one game."""
        found = self.locks.get(game_id)
        if found is None:
            found = self.locks[game_id] = asyncio.Lock()
        return found

    async def _known(self, game_id: str) -> None:
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
        self._keep(session)
        return session

    def _keep(self, session: Session) -> None:
        """Cache a game; the least recently used idle ones leave (the store has them)."""
        self.sessions[session.id] = session
        self.sessions.move_to_end(session.id)
        for game_id in list(self.sessions)[:max(0, len(self.sessions) - self.max_sessions)]:
            if not self.lock(game_id).locked() and not self.driver.running(game_id):
                del self.sessions[game_id]
                self.driver.forget(game_id)
                self.locks.pop(game_id, None)
                if self.clocks is not None:
                    self.clocks.forget(game_id)

    def session(self, game_id: str, fetched: Any = UNREAD) -> Session:
        """The game exactly as stored now (other processes' writes and undos included),
        ended on time if its clock ran out (:meth:`_timed_steps`)."""
        return _run_now(self._timed_steps(game_id, fetched))

    async def asession(self, game_id: str) -> Session:
        """:meth:`session` with every database call (the row, a catch-up, a reload, the
        clock's times) off the event loop on a database server (:meth:`Store.read`,
        :meth:`Store.run`), and a replay in a thread."""
        return await self._run_off_loop(self._timed_steps(game_id))

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

    async def _clock_read(self, session: Session) -> None:
        """After a stored decision: the clock's new times, read off the event loop (a
        failed read is not the decision's: the next view of the game reads them)."""
        try:
            await self._run_off_loop(self._clock_steps(session))
        except Exception:
            log.warning("reading the clock of game %s failed", session.id, exc_info=True)

    def view(self, session: Session, seats: frozenset[int], upto: int | None = None,
             token: str | None = None) -> dict[str, Any]:
        """:func:`view` with this manager's AI pool and clocks."""
        return view(session, seats, ai=self.ai, clocks=self.clocks, upto=upto, token=token)

    async def head(self, game_id: str) -> GameRow:
        """The stored game row, read off the event loop (refusing unknown, expired and
        quarantined games)."""
        return await self._run_off_loop(self._head_steps(game_id))

    async def _run_off_loop(self, steps: Steps[T]) -> T:
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

    # ------------------------------------------------------------------ creation
    def create(self, mode: str, settings: Settings, **how: Any) -> dict[str, Any]:
        """A new game; the creator's answer ``{id, token, seat, links}`` (the write made
        here: for tests and tools; the server uses :meth:`acreate`)."""
        session, write = self._new_game(mode, settings, **how)
        session.row.rev = write[0](*write[1:])
        return self._created(session)

    async def acreate(self, mode: str, settings: Settings, *, host: str | None = None,
                      **how: Any) -> dict[str, Any]:
        """:meth:`create`, writing the game off the event loop (:meth:`Store.run`).

        ``host``: who asks (:func:`reliquary.web.guard.client_key`); a client may have
        at most ``lobby_per_client`` public games waiting in the lobby, and at most
        ``ai_games_per_client`` games against the AI in play (:data:`AI_IN_PLAY_S`),
        each of which may ask the AI's workers for a search (429 beyond; 0: no cap)."""
        if how.get("public") and host is not None:
            waiting = await asyncio.to_thread(self.store.waiting_of, host,
                                              self.lobby_since())
            if waiting >= self.lobby_per_client:
                raise WebError(429, f"this client already has {waiting} public games "
                                    "waiting in the lobby: wait for a guest, or share an "
                                    "invite link instead", "rate_limited")
        if mode == "ai" and host is not None and self.ai_games_per_client:
            playing = await asyncio.to_thread(self.store.ai_games_of, host,
                                              time.time() - AI_IN_PLAY_S)
            if playing >= self.ai_games_per_client:
                raise WebError(429, f"this client already has {playing} games against the "
                                    "AI in play: finish or resign one, or wait an hour "
                                    "after its last move", "rate_limited",
                               retry_after=60)
        session, write = self._new_game(mode, settings, **how)
        session.row.host = host
        session.row.rev = await self.store.run(functools.partial(write[0], host=host),
                                               *write[1:])
        return self._created(session)

    def lobby_since(self) -> float:
        """Games untouched since before this have expired (none: every game counts)."""
        return time.time() - self.expire_after if self.expire_after else 0.0

    def _created(self, session: Session) -> dict[str, Any]:
        """Cache a new game just stored and answer its creator."""
        row, game_id = session.row, session.id
        row.seq = session.seq
        self._keep(session)
        self.driver.kick(game_id)
        seat = SIDES[int(row.options["human"])]
        creator = row.tokens.get("both") or row.tokens[seat]
        links = {"self": f"/g/{game_id}?t={creator}", "spectate": f"/g/{game_id}"}
        if row.open_seat is not None:
            links["invite"] = f"/g/{game_id}?invite={row.tokens['invite']}"
        return {"id": game_id, "token": creator, "seat": seat, "links": links}

    def _new_game(self, mode: str, settings: Settings, *, level: str = "easy",
                  seat: str = "key", quick: bool = True, faction: str | None = None,
                  public: bool = False, clock: dict[str, Any] | None = None,
                  ruleset: str | None = None) -> tuple[Session, tuple[Any, ...]]:
        """A new game, set up, and the store call that writes it; ``ruleset``: a named
        ruleset other than classic, kept in the row beside the settings."""
        if mode not in ("ai", "hotseat", "online"):
            raise WebError(400, f"mode must be 'ai', 'hotseat' or 'online', not {clip(mode)}")
        if seat == "random":
            seat = self.rng.choice(SIDES)
        if seat not in SIDES:
            raise WebError(400, f"seat must be 'key', 'skull' or 'random', not {clip(seat)}")
        if mode == "ai" and level not in LEVELS:
            raise WebError(400, f"unknown AI level {clip(level)}; levels: {', '.join(LEVELS)}")
        if faction is not None and faction not in {f.id for f in self.content.factions}:
            known = ", ".join(f.id for f in self.content.factions)
            raise WebError(400, f"unknown faction {clip(faction)}; factions: {known}")
        if public and mode != "online":
            raise WebError(400, "only online games can be public (listed in the lobby)")
        if clock is not None and mode != "online":
            raise WebError(400, "clocks are for online games only")
        human = SIDES.index(seat)
        tokens: dict[str, str] = {"spectator": secrets.token_urlsafe(12)}
        open_seat = None
        if mode == "hotseat":
            tokens["both"] = secrets.token_urlsafe(18)
        elif mode == "ai":
            tokens[seat] = secrets.token_urlsafe(18)
        else:  # the guest's seat token is made only when the guest claims the seat
            tokens[seat] = secrets.token_urlsafe(18)
            tokens["invite"] = secrets.token_urlsafe(12)
            open_seat = SIDES[1 - human]
        options = {"ai_seat": 1 - human, "human": human, "quick": quick, "creator": seat,
                   "clock": clock}
        if mode == "ai":
            options["level"] = level
        game_id = secrets.token_hex(8)
        stored = settings.as_dict()
        if ruleset and ruleset != "classic":
            stored["ruleset"] = ruleset  # games.RULESET_KEY: the game's content and record
        row = GameRow(game_id, mode, stored, options, tokens, False,
                      public=public, open_seat=open_seat)
        session = new_session(row, self.content, ())
        if quick:  # a random legal setup, with the chosen faction for the creator
            while in_setup(session.state):
                decision = session.state.decision()
                if decision.is_chance:
                    option = sample_chance(session.state, self.rng)
                elif (decision.kind == "faction" and faction is not None
                      and decision.player == human):
                    option = faction
                else:
                    option = self.rng.choice(decision.options)
                session.apply(option)
        else:
            self._settle(session)
        write = (functools.partial(self.store.create_game, public=public,
                                   open_seat=open_seat),
                 game_id, mode, row.settings, options, tokens,
                 [(e.token, e.player) for e in session.game.history],
                 session.state.is_terminal)
        return session, write

    async def load_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """Store a finished game's record (the engine's format) as a game to replay."""
        from ..engine import replay
        from ..rulesets import RulesetError, load_ruleset, ruleset_names, ruleset_of_record

        ruleset = ruleset_of_record(record)  # a record is replayed under its own ruleset
        if ruleset not in ruleset_names():
            raise WebError(400, f"this record cannot be loaded: it was played under the "
                                f"ruleset {clip(ruleset)}, which this server does not have "
                                f"({', '.join(ruleset_names())})")
        try:
            content = (self.content if ruleset == "classic"
                       else load_ruleset(ruleset).content())
        except RulesetError as err:
            raise WebError(400, f"this record cannot be loaded: {err}") from None
        try:
            settings = settings_from(dict(record.get("settings") or {}), content)
        except ValueError as err:
            raise WebError(400, f"this record cannot be loaded: settings: {err}") from None
        try:
            game = replay({**record, "settings": settings.as_dict()}, content)
        except NotationError as err:
            raise WebError(400, f"this record cannot be loaded: {err}") from None
        except Exception as err:  # the engine choked on it: still the record's fault
            log.warning("a record upload failed to replay", exc_info=True)
            raise WebError(400, f"this record cannot be loaded: {type(err).__name__}: "
                                f"{err}") from None
        if not game.state.is_terminal:
            raise WebError(400, f"this record cannot be loaded: it stops after "
                                f"{len(game.history)} decisions, before the game is over "
                                "(only finished games can be replayed)")
        game_id = secrets.token_hex(8)
        tokens = {"spectator": secrets.token_urlsafe(12)}
        stored = settings.as_dict()
        if ruleset != "classic":
            stored["ruleset"] = ruleset
        await self.store.run(self.store.create_game, game_id, "replay", stored,
                             {"ai_seat": -2}, tokens,
                             [(e.token, e.player) for e in game.history], True)
        link = f"/replay/{game_id}"
        return {"id": game_id, "links": {"self": link, "replay": link}}

    # ------------------------------------------------------------------ decisions
    def seats_for(self, session: Session, token: Any, action: str) -> frozenset[int]:
        """The seats ``token`` decides for in ``session``; 403 for a foreign token or a
        spectator (who cannot ``action``)."""
        seats = session.seats_of(token)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        if not seats:
            raise WebError(403, f"spectators can only watch: this link cannot {action}")
        return seats

    def _settle(self, session: Session) -> None:
        """Sample every chance decision now due (the server rolls the dice)."""
        while not session.state.is_terminal and session.state.is_chance:
            session.apply(sample_chance(session.state, self.rng))

    def _cached_at(self, game_id: str, rev: Any, token: Any) -> Session | None:
        """The cached game, without reading the store, when a decision may be taken on
        it as it is: it is at the revision the request answers and knows the token, and
        it has no clock (whose time is read from the store). The write is conditional on
        that revision, so a game another process moved on meanwhile refuses it (409);
        anything else (an unknown token, another revision) reads the store first."""
        session = self.sessions.get(game_id)
        if (session is None or str(rev) != session.rev or session.row.status != ACTIVE
                or session.row.options.get("clock") or not session.seats_of(token)
                or (self.expire_after  # near expiry: the store says (410)
                    and session.row.touched < time.time() - self.expire_after / 2)):
            return None
        self.sessions.move_to_end(game_id)
        return session

    async def _stale(self, game_id: str, why: str) -> WebError:
        row = await self.store.read(self.store.get_game, game_id)
        if row is None or row.status != ACTIVE:  # expired or quarantined meanwhile: say so
            try:
                _run_now(self._head_steps(game_id, row))
            except WebError as err:
                return err
        current = str(row.rev) if row is not None else None
        return WebError(409, f"stale {why}: the game moved on (another decision or an undo "
                             "came first); reload the game", "stale", rev=current)

    async def _take(self, session: Session, option: Any, kind: str | None = None) -> None:
        """Apply one decision and the chance after it, and store them at the session's
        revision; a clash with another writer drops the cached game (409 stale).

        The write runs in a thread (:meth:`Store.run`); meanwhile the game is out of the
        cache, so a reader never sees a decision that is not stored yet. ``kind``: the
        decision's, when the caller has it."""
        start = session.seq
        try:
            session.apply(option, kind)
            self._settle(session)
            entries = [(e.token, e.player) for e in session.game.history[start:]]
            self.forget(session.id)
            rev = await self.store.run(self.store.add_moves, session.id, session.row.rev,
                                       start, entries, session.state.is_terminal)
        except StaleError:
            self.forget(session.id)
            raise await self._stale(session.id, "decision") from None
        except OperationalError:
            self.forget(session.id)
            log.warning("storing a decision of game %s failed", session.id, exc_info=True)
            raise WebError(503, "the database is busy: the decision was not taken; try "
                                "again", "busy") from None
        except BaseException:
            self.forget(session.id)
            raise
        session.row.rev = rev
        session.row.seq = session.seq
        session.row.touched = time.time()
        session.row.finished = session.state.is_terminal
        self._keep(session)
        await self._clock_read(session)
        self.notify(session.id)

    async def decide(self, game_id: str, token: Any, rev: Any, option: Any) -> Session:
        """One decision of the seat holding ``token``, answering revision ``rev``."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = self._cached_at(game_id, rev, token) or await self.asession(game_id)
            seats = self.seats_for(session, token, "decide")
            if not isinstance(option, str):
                raise WebError(400, "'option' must be an option token (a string)")
            state = session.state
            if state.is_terminal:
                raise WebError(409, "the game is over: no decision to take", "game_over")
            if str(rev) != session.rev:
                raise WebError(409, f"stale decision: it answers revision {clip(rev, 20)}, "
                                    f"but the game is at revision {session.rev}; reload the "
                                    "game", "stale", rev=session.rev)
            if session.row.open_seat is not None:  # the host waits for the guest
                raise WebError(409, "the guest has not joined yet: the game starts when "
                                    "they open the invite link", "waiting_for_guest")
            decision = state.decision()
            if decision.player not in seats:
                who = "chance" if decision.player == CHANCE else SIDES[decision.player]
                raise WebError(409, f"not your decision: it is {who}'s {decision.kind!r} "
                                    "decision now", "not_your_turn")
            try:
                chosen = session.option_of(option)
            except (NotationError, IllegalOptionError) as err:
                raise WebError(422, f"illegal option: {err}", "illegal_option") from None
            await self._take(session, chosen, decision.kind)
        self.driver.kick(game_id)
        return session

    def conceded(self, session: Session, loser: int, reason: str, rev: int) -> Session:
        """After :meth:`Store.concede` stored a concession at revision ``rev``: the game
        ended so here too, and its watchers told."""
        session.row.rev = rev
        session.row.finished = True
        session.row.conceded = {"loser": loser, "reason": reason}
        apply_concession(session)
        self._keep(session)
        self.notify(session.id)
        return session

    async def resign(self, game_id: str, token: Any, rev: Any) -> Session:
        """The seat of ``token`` resigns (on one screen: the side to move), answering
        revision ``rev``; stored as the engine's ``concede(loser, "resign")``."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = await self.asession(game_id)
            seats = self.seats_for(session, token, "resign")
            if session.row.mode == "replay" or session.state.is_terminal:
                raise WebError(409, "the game is over: there is nothing to resign",
                               "game_over")
            if str(rev) != session.rev:
                raise WebError(409, f"stale resignation: it answers revision "
                                    f"{clip(rev, 20)}, but the game is at revision "
                                    f"{session.rev}; reload the game", "stale",
                               rev=session.rev)
            current = session.state.current_player
            loser = current if len(seats) == 2 and current in seats else min(seats)
            self.forget(game_id)  # no reader sees the game before the write is done
            try:
                new_rev = await self.store.run(self.store.concede, game_id,
                                               session.row.rev, session.seq, loser, "resign")
            except StaleError:
                raise await self._stale(game_id, "resignation") from None
            except OperationalError:
                log.warning("storing a resignation in game %s failed", game_id,
                            exc_info=True)
                raise WebError(503, "the database is busy: the resignation was not taken; "
                                    "try again", "busy") from None
            log.info("game %s: %s resigned", game_id, SIDES[loser])
            return self.conceded(session, loser, "resign", new_rev)

    async def undo(self, game_id: str, token: Any, rev: Any, *, agreed: bool = False
                   ) -> Session:
        """Take back the asker's last turn (and the AI's reply after it); ``agreed``: in
        an online game, the opponent accepted the asker's take-back request
        (:mod:`reliquary.web.social`), and their reply after it goes back too."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = await self.asession(game_id)
            seats = self.seats_for(session, token, "undo")
            if session.row.mode not in ("ai", "hotseat") and not (
                    agreed and session.row.mode == "online"):
                raise WebError(409, "undo is only for games on one screen or against the AI",
                               "undo_refused")
            if session.state.is_terminal:
                raise WebError(409, "the game is over: nothing can be taken back",
                               "game_over")
            if str(rev) != session.rev:
                raise WebError(409, f"stale undo: it answers revision {clip(rev, 20)}, but "
                                    f"the game is at revision {session.rev}; reload the game",
                               "stale", rev=session.rev)
            ai = (session.ai_seat() if session.row.mode == "ai"
                  else 1 - min(seats) if agreed else None)  # the reply goes back too
            count = undo_count(session.game.history, seats, ai)
            if count == 0:
                raise WebError(409, "nothing to take back: a die was rolled or a card dealt "
                                    "since, or you have not played a turn yet",
                               "undo_refused")
            keep = session.seq - count
            tokens = [e.token for e in session.game.history[:keep]]
            try:
                new_rev = await self.store.run(self.store.truncate, game_id,
                                               session.row.rev, keep)
            except StaleError:
                self.forget(game_id)
                raise await self._stale(game_id, "undo") from None
            row = replace(session.row, rev=new_rev, undos=session.row.undos + 1, seq=keep,
                          finished=False)
            fresh = await asyncio.to_thread(new_session, row, self.content, tokens)
            self._keep(fresh)
            self.notify(game_id)
        self.driver.kick(game_id)
        return fresh

    # ------------------------------------------------------------------ live updates
    def notify(self, game_id: str) -> None:
        event = self.changed.pop(game_id, None)
        if event is not None:
            event.set()
        if self.live is not None:  # watchers here, and other processes (PostgreSQL)
            self.live.publish(game_id)

    def waiter(self, game_id: str) -> asyncio.Event:
        event = self.changed.get(game_id)
        if event is None:
            event = self.changed[game_id] = asyncio.Event()
        return event

    async def resume_all(self) -> None:
        """After a restart: let the AI take the decisions that are its turn (in the
        background, game by game; a game that fails to load is quarantined, not fatal)."""
        since = 0.0
        if self.expire_after:
            since = time.time() - self.expire_after
            await self.store.run(self.store.expire, since)
        for game_id in await self.store.read(self.store.unfinished_ids, since):
            try:
                await self.asession(game_id)
            except WebError:
                continue
            except Exception:  # one bad game must not stop the others
                log.exception("resuming game %s failed", game_id)
                continue
            self.driver.kick(game_id)
            await asyncio.sleep(0)
