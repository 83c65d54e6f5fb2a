"""Games in play on the server: sessions rebuilt from the store, decisions, AI and chance.

A :class:`Session` is a :class:`~reliquary.engine.Game` plus its log and the stored row
(revision, seat tokens) it matches. Every decision is validated by the engine
(``parse_option``), stored at the revision it answers, and only then kept; chance is
sampled here with :func:`reliquary.ai.sample_chance` and stored like a decision. A
restarted server rebuilds each game by replaying its stored tokens; one that does not
replay is quarantined (reported, marked in the store, answered 410) instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import OperationalError

from ..ai import LEVELS, get_agent, sample_chance
from ..engine import (
    CHANCE,
    SETUP_KINDS,
    SIDES,
    Content,
    Entry,
    Game,
    GameOverError,
    IllegalOptionError,
    NotationError,
    Settings,
    State,
    format_option,
    parse_option,
    position_to_dict,
    read_option,
)
from .ai_pool import ai_evaluation, ai_status, choose_remembering
from .clock import Clocks, clock_view
from .db import ACTIVE, EXPIRED, QUARANTINED, GameRow, StaleError, Store
from .errors import WebError, clip, encode_json

if TYPE_CHECKING:
    from .ai_pool import AIPool
    from .live import LiveHub
from .config import env_number
from .text import Line, LogContext, describe, note_before, result_text

log = logging.getLogger(__name__)
#: "The game row was not read yet" (a fetched row may be None: no such game).
UNREAD: Any = object()
T = TypeVar("T")
#: A database call that loading needs: a read or a write, the function, its arguments.
READ, WRITE = "read", "write"
Call = tuple[str, Callable[..., Any], tuple[Any, ...]]
#: Loading steps: a generator yielding database calls, given their results, returning T.
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

MODES = ("ai", "hotseat", "online", "replay")

PROMPTS: dict[str, tuple[str, str]] = {
    "ruin": ("Mark a pair of Ruins: click a square (its mirror comes with it).",
             "Marca un par de Ruinas: pulsa una casilla (su simétrica va con ella)."),
    "faction": ("Choose your faction in secret.", "Elige tu facción en secreto."),
    "rite": ("Draft a rite.", "Elige un rito."),
    "deploy": ("Deploy your next piece in your deployment rows (Minions first, Hero last).",
               "Despliega tu siguiente pieza en tus filas de despliegue (Esbirros, luego Héroe)."),
    "relic": ("Place your relic in your half (not the back row).",
              "Coloca tu Reliquia en tu mitad (no en la fila trasera)."),
    "play": ("Play a card: choose a card and a mode.", "Juega una carta: elige carta y modo."),
    "mover": ("Choose the piece to move.", "Elige la pieza que mueve."),
    "destination": ("Choose where it moves.", "Elige adónde mueve."),
    "escort": ("Escort: another piece may take 1 step (click it, then its square), or pass.",
               "Escolta: otra pieza puede dar 1 paso (púlsala y luego la casilla), o pasa."),
    "attacker": ("Choose the attacking piece.", "Elige la pieza que ataca."),
    "lunge": ("Lunge: step first, or pass to stay.", "Acometida: da un paso antes, o pasa."),
    "target": ("Choose the target.", "Elige el objetivo."),
    "second_target": ("Choose a second target, or pass.", "Elige un segundo objetivo, o pasa."),
    "gale_step": ("Gale: choose the step.", "Vendaval: elige el paso."),
    "gale_push": ("Gale: choose the next enemy to push.",
                  "Vendaval: elige el siguiente enemigo a empujar."),
    "rapture_step": ("Rapture: choose a step, or pass to stop.",
                     "Éxtasis: elige un paso, o pasa para parar."),
    "after_step": ("Take the step after the attack.", "Da el paso tras el ataque."),
    "kill_step": ("Step into the freed square, or pass.", "Entra en la casilla liberada, o pasa."),
    "swap": ("Swap with a friendly Minion, or pass.",
             "Intercámbiate con un Esbirro amigo, o pasa."),
    "grave_return": ("Grave Tide: return your Minion to your back row.",
                     "Marea Sepulcral: devuelve tu Esbirro a tu fila trasera."),
    "regroup": ("Regroup: choose the back-row square.", "Reagrupa: elige la casilla trasera."),
    "rite_effect": ("Rite: choose where it acts.", "Rito: elige dónde actúa."),
    "lantern_step": ("Lantern: your carrier may take 1 step, or pass.",
                     "Farol: tu portador puede dar 1 paso, o pasa."),
}


@dataclass
class Session:
    """One game in memory: the engine's Game, its log and the stored row it matches."""

    row: GameRow
    game: Game
    ctx: LogContext
    log: list[Line] = field(default_factory=list)
    #: Each log line already in JSON: a view's answer is the log's bulk, and it only grows.
    log_json: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def seq(self) -> int:
        return len(self.game.history)

    @property
    def rev(self) -> str:
        """The stored revision this game is at, as the API shows it."""
        return str(self.row.rev)

    def apply(self, option: Any) -> Entry:
        note_before(self.ctx, self.game.state, self.game.state.decision().kind, option)
        entry = self.game.apply(option)
        lines = describe(self.ctx, entry)
        self.log.extend(lines)
        self.log_json.extend(encode_json(line) for line in lines)
        return entry

    def apply_token(self, token: str) -> Entry:
        state = self.game.state
        return self.apply(read_option(state, state.decision().kind, token))

    def seats_of(self, token: Any) -> frozenset[int] | None:
        """The seats a token decides for; empty for spectators; None for a wrong token."""
        if not token:
            return frozenset()
        if not isinstance(token, str):
            return None
        tokens = self.row.tokens

        def same(role: str) -> bool:
            secret = tokens.get(role)
            return secret is not None and secrets.compare_digest(token.encode(), secret.encode())

        if same("both"):
            return frozenset({0, 1})
        for p, side in enumerate(SIDES):
            if same(side):
                return frozenset({p})
        if same("spectator"):
            return frozenset()
        return None

    def ai_seat(self) -> int:
        return int(self.row.options["ai_seat"]) if self.row.mode == "ai" else -2


def view_json(session: Session, view_dict: dict[str, Any]) -> bytes:
    """The JSON body of ``view_dict`` (a :func:`view` of ``session`` now), its log from
    the lines encoded as they were written rather than encoded again."""
    assert view_dict["log"] is session.log, "a view of another moment than the session's"
    rest = {k: v for k, v in view_dict.items() if k != "log"}
    head = encode_json(rest)
    return (f'{head[:-1]},"log":[{",".join(session.log_json)}]}}' if rest
            else f'{{"log":[{",".join(session.log_json)}]}}').encode()


def settings_from(data: dict[str, Any], content: Content) -> Settings:
    """The engine's Settings from a dict, checked (board size included); ValueError says
    which field is wrong."""
    try:
        settings = Settings.from_dict(data)
    except TypeError as err:  # a value of the wrong kind
        raise ValueError(str(err)) from None
    if settings.size not in content.sizes:
        raise ValueError(f"board size must be {min(content.sizes)} to "
                         f"{max(content.sizes)}, not {settings.size}")
    return settings


def new_session(row: GameRow, content: Content, tokens: Iterable[str]) -> Session:
    settings = settings_from(dict(row.settings), content)
    game = Game(content, settings, meta={"mode": row.mode})
    ctx = LogContext(content, game.state.geometry)
    session = Session(row, game, ctx)
    for token in tokens:
        session.apply_token(token)
    apply_concession(session)
    return session


def apply_concession(session: Session) -> None:
    """End the game as its row says it was conceded (on time, by resignation), once its
    decisions are replayed: the one way a stored concession comes back."""
    conceded = session.row.conceded
    if conceded and not session.state.is_terminal:
        session.game.concede(int(conceded["loser"]), conceded["reason"])


class Manager:
    """All games of this server process, backed by the store.

    The store is the truth: :meth:`session` serves a cached game only while its
    revision is the stored one, and every write names the revision it started from
    (see :mod:`reliquary.web.db`).
    """

    def __init__(self, store: Store, content: Content, ai_delay: float = 0.2,
                 max_sessions: int = 1000, expire_after: float | None = None,
                 lobby_per_client: int = 3, *, ai: AIPool | None = None,
                 live: LiveHub | None = None, clocks: Clocks | None = None) -> None:
        self.store = store
        self.lobby_per_client = lobby_per_client
        self.content = content
        self.ai_delay = ai_delay
        self.expire_after = expire_after
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.max_sessions = max_sessions
        self.changed: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.rng = random.SystemRandom()
        # One thinker per AI game across processes: this process's name in the lease
        # (games.thinker), the lease's length, and how many AI decisions it thought of.
        self.owner = secrets.token_hex(8)
        self.lease_s = _lease_seconds()
        self.ai_decisions = 0
        # The AI's process pool (None: the AI thinks in a thread), the live updates of
        # the watchers (None: none), the clocks of online games (None: shown unrun).
        self.ai = ai
        self.live = live
        self.clocks = clocks

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

    def _forget(self, game_id: str) -> None:
        """Drop a cached game (it may differ from the store); the next request reloads."""
        self.sessions.pop(game_id, None)

    # Loading is written once, as generators that yield each database call they need
    # (``(READ|WRITE, fn, args)``) and get its result back: :meth:`session` runs the calls
    # at once, :meth:`asession` off the event loop on a database server (Store.read/run).
    def _head_steps(self, game_id: str, fetched: Any = UNREAD) -> Steps[GameRow]:
        row: GameRow | None = (yield (READ, self.store.get_game, (game_id,))) \
            if fetched is UNREAD else fetched
        if row is None:
            self._forget(game_id)
            raise WebError(404, f"no game with id {clip(game_id)}", "not_found")
        if (row.status == ACTIVE and not row.finished and self.expire_after
                and row.touched < time.time() - self.expire_after
                and (yield (WRITE, self.store.expire,
                            (time.time() - self.expire_after, game_id)))):
            row.status = EXPIRED
        if row.status == EXPIRED:
            self._forget(game_id)
            days = f" ({self.expire_after / 86400:g} days)" if self.expire_after else ""
            raise WebError(410, "this game expired: nobody played in it for too long"
                                f"{days}", "gone")
        if row.status == QUARANTINED:
            self._forget(game_id)
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
        try:
            session = new_session(row, self.content, (t for t, _ in stored))
        except Exception as err:  # any failure to replay: report it, set the game aside
            log.error("game %s does not replay; quarantined", game_id, exc_info=True)
            self._forget(game_id)
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
            driver = self.drivers.get(game_id)
            if not self.lock(game_id).locked() and (driver is None or driver.done()):
                del self.sessions[game_id]
                self.drivers.pop(game_id, None)
                self.locks.pop(game_id, None)

    def session(self, game_id: str, fetched: Any = UNREAD) -> Session:
        """The game exactly as stored now (other processes' writes and undos included),
        ended on time if its clock ran out (:meth:`_on_time`)."""
        return self._on_time(_run_now(self._stored_steps(game_id, fetched)))

    async def asession(self, game_id: str) -> Session:
        """:meth:`session` with every database call (the row, a catch-up, a reload) off
        the event loop on a database server (:meth:`Store.read`, :meth:`Store.run`)."""
        return self._on_time(await self._run_off_loop(self._stored_steps(game_id)))

    def _on_time(self, session: Session) -> Session:
        """End ``session`` on time if the side to move has used up its clock (stored,
        watchers told); the game as it now stands."""
        row = session.row
        clock = Clocks.settings(row.options, row.mode)
        if self.clocks is None or clock is None:
            return session
        loser = self.clocks.expired(session.id, clock, session.state, session.game.history)
        if loser is None:
            return session
        if row.finished:  # stored by a version before stored concessions: derive it
            session.game.concede(loser, "timeout")
            return session
        try:  # the one way a concession is stored (a resignation goes the same way)
            rev = self.store.concede(session.id, row.rev, session.seq, loser, "timeout")
        except StaleError:  # a decision came first after all: read the game again
            self._forget(session.id)
            return self.session(session.id)
        self.clocks.forget(session.id)
        log.info("game %s: %s lost on time", session.id, SIDES[loser])
        return self.conceded(session, loser, "timeout", rev)

    def view(self, session: Session, seats: frozenset[int], upto: int | None = None,
             token: str | None = None) -> dict[str, Any]:
        """:func:`view` with this manager's AI pool and clocks."""
        return view(session, seats, ai=self.ai, clocks=self.clocks, upto=upto, token=token)

    async def _run_off_loop(self, steps: Steps[T]) -> T:
        """Run loading steps, each database call through the store's helpers."""
        try:
            kind, fn, args = next(steps)
            while True:
                try:
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
        at most ``lobby_per_client`` public games waiting in the lobby (429 beyond)."""
        if how.get("public") and host is not None:
            waiting = await asyncio.to_thread(self.store.waiting_of, host,
                                              self._lobby_since())
            if waiting >= self.lobby_per_client:
                raise WebError(429, f"this client already has {waiting} public games "
                                    "waiting in the lobby: wait for a guest, or share an "
                                    "invite link instead", "rate_limited")
        session, write = self._new_game(mode, settings, **how)
        session.row.host = host
        session.row.rev = await self.store.run(functools.partial(write[0], host=host),
                                               *write[1:])
        return self._created(session)

    def _lobby_since(self) -> float:
        """Games untouched since before this have expired (none: every game counts)."""
        return time.time() - self.expire_after if self.expire_after else 0.0

    def _created(self, session: Session) -> dict[str, Any]:
        """Cache a new game just stored and answer its creator."""
        row, game_id = session.row, session.id
        row.seq = session.seq
        self._keep(session)
        self.kick(game_id)
        seat = SIDES[int(row.options["human"])]
        creator = row.tokens.get("both") or row.tokens[seat]
        links = {"self": f"/g/{game_id}?t={creator}", "spectate": f"/g/{game_id}"}
        if row.open_seat is not None:
            links["invite"] = f"/g/{game_id}?invite={row.tokens['invite']}"
        return {"id": game_id, "token": creator, "seat": seat, "links": links}

    def _new_game(self, mode: str, settings: Settings, *, level: str = "easy",
                  seat: str = "key", quick: bool = True, faction: str | None = None,
                  public: bool = False, clock: dict[str, Any] | None = None
                  ) -> tuple[Session, tuple[Any, ...]]:
        """A new game, set up, and the store call that writes it."""
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
        row = GameRow(game_id, mode, settings.as_dict(), options, tokens, False,
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
        try:
            settings = settings_from(dict(record.get("settings") or {}), self.content)
        except ValueError as err:
            raise WebError(400, f"this record cannot be loaded: settings: {err}") from None
        try:
            game = replay({**record, "settings": settings.as_dict()}, self.content)
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
        await self.store.run(self.store.create_game, game_id, "replay", settings.as_dict(),
                             {"ai_seat": -2}, tokens,
                             [(e.token, e.player) for e in game.history], True)
        link = f"/replay/{game_id}"
        return {"id": game_id, "links": {"self": link, "replay": link}}

    # ------------------------------------------------------------------ seats
    async def claim(self, game_id: str, invite: str | None) -> dict[str, Any]:
        """Exchange an invite (or, for a public game, nothing) for the open seat's token.

        Once: a second claim is refused with ``invite_used``."""
        session = await self.asession(game_id)
        row = session.row
        if row.mode != "online":
            raise WebError(409, "only online games have a seat to claim", "invite_used")
        if invite is None and not row.public:
            raise WebError(403, "this game is private: it is joined through its invite link")
        if row.open_seat is None:
            raise WebError(409, "this game's second seat is taken: the invite was used",
                           "invite_used")
        code = row.tokens.get("invite", "")
        if invite is not None and not secrets.compare_digest(invite.encode(), code.encode()):
            raise WebError(403, "this invite does not belong to this game")
        token = secrets.token_urlsafe(18)
        seat = row.open_seat
        tokens = {k: v for k, v in row.tokens.items() if k != "invite"}
        tokens[seat] = token
        if not await self.store.run(self.store.claim_seat, game_id, row.tokens, tokens):
            raise WebError(409, "this game's second seat is taken: the invite was used",
                           "invite_used")
        self._forget(game_id)  # the stored revision moved on: read it again
        session = await self.asession(game_id)
        self._notify(game_id)
        return {"id": game_id, "token": token, "seat": seat, "rev": session.rev,
                "links": {"self": f"/g/{game_id}?t={token}"}}

    async def lobby(self) -> list[dict[str, Any]]:
        """Public online games waiting for a guest."""
        rows = await asyncio.to_thread(self.store.lobby, self._lobby_since())
        return [{"id": row.id, "created": row.created, "settings": row.settings,
                 "host_seat": row.options.get("creator"), "clock": row.options.get("clock")}
                for row in rows]

    async def rematch(self, game_id: str, token: str) -> dict[str, Any]:
        """A new game with the same settings after a finished one (see the API docs)."""
        session = await self.asession(game_id)
        seats = self._seats(session, token, "ask for a rematch")
        row = session.row
        if row.mode not in ("ai", "hotseat", "online"):
            raise WebError(409, "a replayed record has no rematch", "game_over")
        if not session.state.is_terminal:
            raise WebError(409, "a rematch is for finished games: this one goes on",
                           "stale", rev=session.rev)
        mine = "key" if len(seats) == 2 else SIDES[min(seats)]
        if row.rematch is not None:
            return await self._rematch_of(game_id, json.loads(row.rematch), mine)
        settings = settings_from(dict(row.settings), self.content)
        quick = bool(row.options.get("quick", True))
        if row.mode == "online":
            game = await self.acreate("online", settings, host=row.host,
                                      seat=SIDES[1 - SIDES.index(mine)],
                               quick=quick, clock=row.options.get("clock"))
            invite = game["links"]["invite"].split("?invite=", 1)[1]
            other = SIDES[1 - SIDES.index(mine)]
            link = {"id": game["id"], "seats": {mine: game},
                    "invite": {"side": other, "code": invite}}
        else:
            game = await self.acreate(row.mode, settings, host=row.host,
                                      seat=row.options.get("creator", "key"),
                               quick=quick, level=str(row.options.get("level", "easy")))
            link = {"id": game["id"], "seats": {side: game for side in SIDES}, "invite": None}
        if not await self.store.run(self.store.set_rematch, game_id, json.dumps(link)):
            await self.store.run(self.store.delete_game, game["id"])  # someone was first
            self._forget(game["id"])
            head = await self._run_off_loop(self._head_steps(game_id))
            return await self._rematch_of(game_id, json.loads(head.rematch or "{}"), mine)
        self._forget(game_id)  # the stored revision moved on: read it again
        self._notify(game_id)
        return game

    async def _rematch_of(self, game_id: str, link: dict[str, Any], mine: str
                          ) -> dict[str, Any]:
        """A rematch asked for again: the same answer, or the opponent's claim of it."""
        if mine in link.get("seats", {}):
            return dict(link["seats"][mine])
        invite = link.get("invite") or {}
        if invite.get("side") == mine:
            answer = await self.claim(link["id"], invite["code"])
            return {"id": link["id"], **answer,
                    "links": {**answer["links"], "spectate": f"/g/{link['id']}"}}
        raise WebError(409, "the rematch of this game is already set up", "invite_used")

    # ------------------------------------------------------------------ decisions
    def _seats(self, session: Session, token: Any, action: str) -> frozenset[int]:
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

    async def _take(self, session: Session, option: Any) -> None:
        """Apply one decision and the chance after it, and store them at the session's
        revision; a clash with another writer drops the cached game (409 stale).

        The write runs in a thread (:meth:`Store.run`); meanwhile the game is out of the
        cache, so a reader never sees a decision that is not stored yet."""
        start = session.seq
        try:
            session.apply(option)
            self._settle(session)
            entries = [(e.token, e.player) for e in session.game.history[start:]]
            self._forget(session.id)
            rev = await self.store.run(self.store.add_moves, session.id, session.row.rev,
                                       start, entries, session.state.is_terminal)
        except StaleError:
            self._forget(session.id)
            raise await self._stale(session.id, "decision") from None
        except OperationalError:
            self._forget(session.id)
            log.warning("storing a decision of game %s failed", session.id, exc_info=True)
            raise WebError(503, "the database is busy: the decision was not taken; try "
                                "again", "busy") from None
        except BaseException:
            self._forget(session.id)
            raise
        session.row.rev = rev
        session.row.seq = session.seq
        session.row.touched = time.time()
        session.row.finished = session.state.is_terminal
        self._keep(session)
        self._notify(session.id)

    async def decide(self, game_id: str, token: Any, rev: Any, option: Any) -> Session:
        """One decision of the seat holding ``token``, answering revision ``rev``."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = self._cached_at(game_id, rev, token) or await self.asession(game_id)
            seats = self._seats(session, token, "decide")
            if not isinstance(option, str):
                raise WebError(400, "'option' must be an option token (a string)")
            state = session.state
            if state.is_terminal:
                raise WebError(409, "the game is over: no decision to take", "game_over")
            if str(rev) != session.rev:
                raise WebError(409, f"stale decision: it answers revision {clip(rev, 20)}, "
                                    f"but the game is at revision {session.rev}; reload the "
                                    "game", "stale", rev=session.rev)
            decision = state.decision()
            if decision.player not in seats:
                who = "chance" if decision.player == CHANCE else SIDES[decision.player]
                raise WebError(409, f"not your decision: it is {who}'s {decision.kind!r} "
                                    "decision now", "not_your_turn")
            try:
                chosen = parse_option(state, option)
            except (NotationError, IllegalOptionError) as err:
                raise WebError(422, f"illegal option: {err}", "illegal_option") from None
            await self._take(session, chosen)
        self.kick(game_id)
        return session

    def conceded(self, session: Session, loser: int, reason: str, rev: int) -> Session:
        """After :meth:`Store.concede` stored a concession at revision ``rev``: the game
        ended so here too, and its watchers told."""
        session.row.rev = rev
        session.row.finished = True
        session.row.conceded = {"loser": loser, "reason": reason}
        apply_concession(session)
        self._keep(session)
        self._notify(session.id)
        return session

    async def resign(self, game_id: str, token: Any, rev: Any) -> Session:
        """The seat of ``token`` resigns (on one screen: the side to move), answering
        revision ``rev``; stored as the engine's ``concede(loser, "resign")``."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = await self.asession(game_id)
            seats = self._seats(session, token, "resign")
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
            self._forget(game_id)  # no reader sees the game before the write is done
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

    async def undo(self, game_id: str, token: Any, rev: Any) -> Session:
        """Take back the asker's last turn (and the AI's reply after it)."""
        await self._known(game_id)
        async with self.lock(game_id):
            session = await self.asession(game_id)
            seats = self._seats(session, token, "undo")
            if session.row.mode not in ("ai", "hotseat"):
                raise WebError(409, "undo is only for games on one screen or against the AI",
                               "undo_refused")
            if session.state.is_terminal:
                raise WebError(409, "the game is over: nothing can be taken back",
                               "game_over")
            if str(rev) != session.rev:
                raise WebError(409, f"stale undo: it answers revision {clip(rev, 20)}, but "
                                    f"the game is at revision {session.rev}; reload the game",
                               "stale", rev=session.rev)
            ai = session.ai_seat() if session.row.mode == "ai" else None
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
                self._forget(game_id)
                raise await self._stale(game_id, "undo") from None
            row = replace(session.row, rev=new_rev, undos=session.row.undos + 1, seq=keep,
                          finished=False)
            fresh = new_session(row, self.content, tokens)
            self._keep(fresh)
            self._notify(game_id)
        self.kick(game_id)
        return fresh

    # ------------------------------------------------------------------ the AI
    def kick(self, game_id: str) -> None:
        """Start the AI driver of a game if the AI is to decide and none runs."""
        session = self.sessions.get(game_id)
        if session is None or session.row.mode != "ai" or session.state.is_terminal:
            return
        if session.state.current_player != session.ai_seat():
            return
        task = self.drivers.get(game_id)
        if task is not None and not task.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop (tests without one)
            task = asyncio.get_running_loop().create_task(self._drive(game_id))
            task.add_done_callback(_report_failure)
            self.drivers[game_id] = task

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
                session = await self.asession(game_id)
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
                if self.ai is not None:  # a worker process plans the turn; its plan is kept
                    option = await self.ai.choose(game_id, snapshot, level, seed + session.seq,
                                                  history, owner=session.row.host)
                else:
                    agent = get_agent(level, seed=seed + session.seq)
                    option = await asyncio.to_thread(choose_remembering, agent, snapshot,
                                                     history)
            finally:
                renewing.cancel()
            self.ai_decisions += 1
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            async with self.lock(game_id):
                try:
                    session = await self.asession(game_id)
                except WebError:
                    return held
                if session.rev != rev:
                    continue  # an undo or another process moved on: think again
                try:
                    await self._take(session, option)
                except WebError:
                    continue

    async def _renew_lease(self, game_id: str) -> None:
        """Renew the thinking lease every third of its length while the search runs."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await self.store.run(self.store.claim_thinking, game_id, self.owner,
                                     self.lease_s)
            except OperationalError:  # a busy database: the next renewal may get through
                log.warning("renewing the thinking lease of game %s failed", game_id)

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
            self.kick(game_id)
            await asyncio.sleep(0)

    # ------------------------------------------------------------------ live updates
    def _notify(self, game_id: str) -> None:
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


#: How often a process waiting on another's thinking lease looks at the game again.
LEASE_LOOK_S = 0.5


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


def _turn_blocks(history: list[Entry]) -> list[tuple[int, int]]:
    """The history cut into the units an undo takes back: ``(start, player)``.

    A turn runs from its ``play`` decision to the next one (chance and any decision of
    the opponent inside it included); before the first turn each setup decision, and
    each card dealt, is a unit of its own.
    """
    blocks: list[tuple[int, int]] = []
    for i, entry in enumerate(history):
        if entry.kind == "play" or not blocks or history[blocks[-1][0]].kind != "play":
            blocks.append((i, entry.player))
    return blocks


def undo_count(history: list[Entry], seats: frozenset[int], ai_seat: int | None = None) -> int:
    """How many decisions an undo takes back; 0 when it is refused.

    Hot-seat: the last turn (or setup decision). Against the AI (``ai_seat``): the
    human's last turn and the AI's reply after it. Never past a chance outcome (a die
    roll, or a card dealt: taking it back would let a player draw again), and never
    from the turns back into the setup.
    """
    # Only the last three turns can matter (the AI's reply, the human's turn before it,
    # and the turn that bounds it): look at them, not the whole game, each view.
    plays, begin = 0, 0
    for index in range(len(history) - 1, -1, -1):
        if history[index].kind == "play":
            plays += 1
            if plays == 3:
                begin = index
                break
    history = history[begin:]
    blocks = _turn_blocks(history)
    if not blocks:
        return 0
    in_turns = history[blocks[-1][0]].kind == "play"
    while ai_seat is not None and blocks and blocks[-1][1] == ai_seat:
        blocks.pop()  # the AI's reply (or its turn in progress)
    if not blocks or blocks[-1][1] not in seats:
        return 0
    start = blocks[-1][0]
    if in_turns and history[start].kind != "play":
        return 0
    if any(e.player == CHANCE for e in history[start:]):
        return 0
    # S3: factions are chosen in secret, key first. An undo that would stop between the
    # two choices keeps the first one, which the asker may know (after "both chose the
    # same faction", or on one screen): it goes back before it, and both choose again.
    chosen = [i for i in range(start) if history[i].kind == "faction"]
    if len(chosen) % 2:
        start = chosen[-1]
    return len(history) - start
# ---------------------------------------------------------------------- the view
def view(session: Session, seats: frozenset[int], *, ai: AIPool | None,
         clocks: Clocks | None, upto: int | None = None, token: str | None = None
         ) -> dict[str, Any]:
    """What a viewer sees: position, decision with options (if theirs), log, result;
    the AI's status and evaluation from ``ai``, the clocks from ``clocks``.

    Secrets stay with their owner: the other seat's faction chosen in secret shows as
    ``"hidden"`` (to both on one screen), and the only seat token in a view is the
    viewer's own ``token`` (the host's invite link shows until the guest claims it)."""
    game = session.game
    state = game.state
    pos = position_to_dict(state)
    for p, side in enumerate(SIDES):  # S3: a secret choice stays secret
        chosen = pos["secret_factions"][side]
        if chosen is not None and (p not in seats or len(seats) == 2):
            pos["secret_factions"][side] = "hidden"
    decision = None
    if not state.is_terminal:
        d = state.decision()
        mine = d.player in seats and upto is None
        en, es = PROMPTS.get(d.kind, (d.kind, d.kind))
        decision = {
            "kind": d.kind,
            "player": d.player,
            "side": SIDES[d.player] if d.player in (0, 1) else "chance",
            "mine": mine,
            "options": [format_option(state, o) for o in d.options] if mine else [],
            "piece": state.geometry.name(d.piece) if d.piece >= 0 else None,
            "card": d.card,
            "prompt": {"en": en, "es": es},
        }
    result = pos["result"]
    if result is not None:  # how it was decided: the Vigil's tie-break (V2) when it came to it
        result = {**result, "tiebreak": (result.get("detail") or None)
                  if result.get("reason") == "vigil" else None}
    last_roll = None
    for entry in reversed(game.history):
        if entry.kind == "roll":
            last_roll = {"face": entry.token,
                         "card": next((e.data.get("card") for e in entry.events
                                       if e.kind == "roll"), None)}
            break
    row = session.row
    out: dict[str, Any] = {
        "id": session.id,
        "mode": row.mode,
        "seq": session.seq,
        "seats": sorted(SIDES[p] for p in seats),
        "position": pos,
        "decision": decision,
        "result": result,
        "result_text": result_text(result),
        "log": session.log,
        "last_turn": last_turn_squares(session),
        "last_roll": last_roll,
        "rev": session.rev,
        "undo": row.mode in ("ai", "hotseat") and bool(seats) and not state.is_terminal
        and undo_count(game.history, seats, session.ai_seat() if row.mode == "ai" else None)
        > 0 and upto is None,
        "ai": ({"level": row.options.get("level"), "seat": SIDES[session.ai_seat()],
                **ai_status(ai, session.id, row.options.get("level"), upto is None
                            and not state.is_terminal
                            and state.current_player == session.ai_seat())}
               if row.mode == "ai" else None),
        "evaluation": (ai_evaluation(ai, session.id, state, 1 - session.ai_seat())
                       if row.mode == "ai" and upto is None else None),
        "clock": (clock_view(clocks, session.id, row.options, row.mode, state, game.history)
                  if upto is None else None),
        "deploy_rows": state.content.board_row(state.settings.size).deploy_rows,
        "phase": "over" if state.is_terminal else ("setup" if in_setup(state) else "play"),
    }
    links = {"spectate": f"/g/{session.id}"}
    if seats and token:
        links["self"] = f"/g/{session.id}?t={token}"
    creator = row.options.get("creator")
    if row.open_seat is not None and len(seats) == 1 and SIDES[min(seats)] == creator:
        links["invite"] = f"/g/{session.id}?invite={row.tokens['invite']}"
    out["links"] = links
    out["public"] = row.public
    out["open_seat"] = row.open_seat
    out["rematch"] = rematch_view(row.rematch, seats)
    return out


def rematch_view(stored: str | None, seats: frozenset[int]) -> dict[str, str] | None:
    """The rematch of a finished game as one viewer sees it: a link with their own new
    token, the invite to it for the opponent who did not ask, a watch link otherwise."""
    if stored is None:
        return None
    link = json.loads(stored)
    new_id = link["id"]
    answer = next((link["seats"][SIDES[p]] for p in sorted(seats)
                   if SIDES[p] in link.get("seats", {})), None)
    if answer is not None:
        return {"id": new_id, "link": answer["links"]["self"]}
    invite = link.get("invite") or {}
    if len(seats) == 1 and invite.get("side") == SIDES[min(seats)]:
        return {"id": new_id, "link": f"/g/{new_id}?invite={invite['code']}"}
    return {"id": new_id, "link": f"/g/{new_id}"}


def in_setup(state: State) -> bool:
    """Before the first turn: setup choices and the deal (S1–S7)."""
    return not state.is_terminal and (state.first < 0 or state.decision().kind in SETUP_KINDS)


def last_turn_squares(session: Session) -> list[str]:
    """Squares touched by the last finished turn (for the highlight)."""
    game = session.game
    history = game.history
    # The last two turn starts, looked for from the end (not the whole game each view).
    starts: list[int] = []
    for index in range(len(history) - 1, -1, -1):
        if history[index].kind == "play":
            starts.append(index)
            if len(starts) == 2:
                break
    if not starts:
        return []
    state = game.state
    at_turn_start = state.is_terminal or state.decision().kind == "play"
    if at_turn_start:
        turn = history[starts[0]:]
    else:
        turn = history[starts[1]:starts[0]] if len(starts) > 1 else []
    name = state.geometry.name
    squares: list[str] = []
    for entry in turn:
        for ev in entry.events:
            for key in ("square", "to"):
                sq = ev.data.get(key)
                if isinstance(sq, int) and sq >= 0 and name(sq) not in squares:
                    squares.append(name(sq))
    return squares
