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
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

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
from .ai_pool import ai_evaluation, ai_status
from .clock import clock_view
from .db import ACTIVE, EXPIRED, QUARANTINED, GameRow, StaleError, Store

if TYPE_CHECKING:
    from .ai_pool import AIPool
    from .clock import Clocks
    from .live import LiveHub
from .text import Line, LogContext, describe, note_before, result_text

log = logging.getLogger(__name__)
#: "The game row was not read yet" (a fetched row may be None: no such game).
UNREAD: Any = object()

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


#: The stable code of a refusal by status, when the raiser names none.
DEFAULT_CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 409: "stale",
                 410: "gone", 413: "too_large", 415: "unsupported_media_type",
                 422: "illegal_option", 429: "rate_limited", 503: "busy"}
#: The longest message a refusal carries (user input quoted in it is cut short).
MAX_MESSAGE = 500


def clip(value: Any, limit: int = 60) -> str:
    """``repr`` of a value from a request, cut short: refusals never echo large input."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class WebError(Exception):
    """A request the server refuses: an HTTP status, a stable code and a clear message.

    ``extra`` fields go into the answer's body beside ``error`` and ``code`` (e.g. the
    current ``rev`` of a stale request)."""

    def __init__(self, status: int, message: str, code: str | None = None,
                 **extra: Any) -> None:
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "…"
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or DEFAULT_CODES.get(status, "bad_request")
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal."""
        return {"error": self.message, "code": self.code, **self.extra}


@dataclass
class Session:
    """One game in memory: the engine's Game, its log and the stored row it matches."""

    row: GameRow
    game: Game
    ctx: LogContext
    log: list[Line] = field(default_factory=list)

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
        self.log.extend(describe(self.ctx, entry))
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


def settings_from(data: dict[str, Any], content: Content) -> Settings:
    """The engine's Settings from a dict, checked (board size included); ValueError says
    which field is wrong."""
    from_dict = getattr(Settings, "from_dict", None)
    try:
        settings = from_dict(data) if from_dict is not None else Settings(**data)
    except TypeError as err:  # an unknown field (older engines without from_dict)
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
    return session


class Manager:
    """All games of this server process, backed by the store.

    The store is the truth: :meth:`session` serves a cached game only while its
    revision is the stored one, and every write names the revision it started from
    (see :mod:`reliquary.web.db`).
    """

    def __init__(self, store: Store, content: Content, ai_delay: float = 0.2,
                 max_sessions: int = 1000, expire_after: float | None = None) -> None:
        self.store = store
        self.content = content
        self.ai_delay = ai_delay
        self.expire_after = expire_after
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.max_sessions = max_sessions
        self.changed: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.rng = random.SystemRandom()
        # Set by reliquary.web.capacity: the AI's process pool, live updates, clocks.
        self.ai: AIPool | None = None
        self.live: LiveHub | None = None
        self.clocks: Clocks | None = None

    # ------------------------------------------------------------------ loading
    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock that orders this process's writes to one game."""
        found = self.locks.get(game_id)
        if found is None:
            found = self.locks[game_id] = asyncio.Lock()
        return found

    def _known(self, game_id: str) -> None:
        """Refuse an unknown game before making a lock for it (no entry per made-up id)."""
        if game_id not in self.locks:
            self.session(game_id)

    def _forget(self, game_id: str) -> None:
        """Drop a cached game (it may differ from the store); the next request reloads."""
        self.sessions.pop(game_id, None)

    def _head(self, game_id: str, fetched: Any = UNREAD) -> GameRow:
        """The stored game row (``fetched`` if it was just read), refusing unknown,
        expired and quarantined games."""
        row = self.store.get_game(game_id) if fetched is UNREAD else fetched
        if row is None:
            self._forget(game_id)
            raise WebError(404, f"no game with id {clip(game_id)}", "not_found")
        if (row.status == ACTIVE and not row.finished and self.expire_after
                and row.touched < time.time() - self.expire_after
                and self.store.expire(time.time() - self.expire_after, game_id)):
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

    def _load(self, game_id: str, row: GameRow | None = None) -> Session:
        """Rebuild a game from the store; one that does not replay is quarantined."""
        row = row or self._head(game_id)
        for _attempt in range(5):
            stored = self.store.moves_of(game_id, 0, row.rev)
            if stored is not None and len(stored) == row.seq:
                break
            row = self._head(game_id)  # written meanwhile: read both again
        else:
            raise WebError(503, "the game is changing too fast to load; try again", "busy")
        try:
            session = new_session(row, self.content, (t for t, _ in stored))
        except Exception as err:  # any failure to replay: report it, set the game aside
            log.error("game %s does not replay; quarantined", game_id, exc_info=True)
            self._forget(game_id)
            self.store.quarantine(game_id, f"{type(err).__name__}: {err}")
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
        ended on time if its clock ran out (:meth:`reliquary.web.clock.Clocks.enforce`)."""
        session = self._stored(game_id, fetched)
        return session if self.clocks is None else self.clocks.enforce(self, session)

    async def asession(self, game_id: str) -> Session:
        """:meth:`session`, with the game row read off the event loop on a database
        server (:meth:`Store.read`)."""
        return self.session(game_id, await self.store.read(self.store.get_game, game_id))

    def _stored(self, game_id: str, fetched: Any = UNREAD) -> Session:
        row = self._head(game_id, fetched)
        session = self.sessions.get(game_id)
        if session is None:
            return self._load(game_id, row)
        self.sessions.move_to_end(game_id)
        if fetched is not UNREAD and row.rev < session.row.rev:
            return session  # read before this process stored a newer revision: ours holds
        if row.rev == session.row.rev:
            session.row = row  # the same history; seat tokens may have changed (a claim)
            return session
        if row.undos == session.row.undos and row.seq >= session.seq:
            # No undo since: the cached decisions are stored ones; append the new ones.
            added = self.store.moves_of(game_id, session.seq, row.rev)
            if added is not None and len(added) == row.seq - session.seq:
                try:
                    for token, _ in added:
                        session.apply_token(token)
                except (NotationError, IllegalOptionError, GameOverError):
                    return self._load(game_id)
                session.row = row
                return session
        return self._load(game_id)

    # ------------------------------------------------------------------ creation
    def create(self, mode: str, settings: Settings, *, level: str = "easy",
               seat: str = "key", quick: bool = True, faction: str | None = None,
               public: bool = False, clock: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new game; the creator's answer ``{id, token, seat, links}``."""
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
        row.rev = self.store.create_game(
            game_id, mode, row.settings, options, tokens,
            [(e.token, e.player) for e in session.game.history], session.state.is_terminal,
            public=public, open_seat=open_seat)
        row.seq = session.seq
        self._keep(session)
        self.kick(game_id)
        creator = tokens.get("both") or tokens[seat]
        links = {"self": f"/g/{game_id}?t={creator}", "spectate": f"/g/{game_id}"}
        if open_seat is not None:
            links["invite"] = f"/g/{game_id}?invite={tokens['invite']}"
        return {"id": game_id, "token": creator, "seat": seat, "links": links}

    def load_record(self, record: dict[str, Any]) -> dict[str, Any]:
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
        self.store.create_game(game_id, "replay", settings.as_dict(), {"ai_seat": -2},
                               tokens, [(e.token, e.player) for e in game.history], True)
        link = f"/replay/{game_id}"
        return {"id": game_id, "links": {"self": link, "replay": link}}

    # ------------------------------------------------------------------ seats
    def claim(self, game_id: str, invite: str | None) -> dict[str, Any]:
        """Exchange an invite (or, for a public game, nothing) for the open seat's token.

        Once: a second claim is refused with ``invite_used``."""
        session = self.session(game_id)
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
        if not self.store.claim_seat(game_id, row.tokens, tokens):
            raise WebError(409, "this game's second seat is taken: the invite was used",
                           "invite_used")
        self._forget(game_id)  # the stored revision moved on: read it again
        session = self.session(game_id)
        self._notify(game_id)
        return {"id": game_id, "token": token, "seat": seat, "rev": session.rev,
                "links": {"self": f"/g/{game_id}?t={token}"}}

    def lobby(self) -> list[dict[str, Any]]:
        """Public online games waiting for a guest."""
        since = time.time() - self.expire_after if self.expire_after else 0.0
        return [{"id": row.id, "created": row.created, "settings": row.settings,
                 "host_seat": row.options.get("creator"), "clock": row.options.get("clock")}
                for row in self.store.lobby(since)]

    def rematch(self, game_id: str, token: str) -> dict[str, Any]:
        """A new game with the same settings after a finished one (see the API docs)."""
        session = self.session(game_id)
        seats = self._seats(session, token, "ask for a rematch")
        row = session.row
        if row.mode not in ("ai", "hotseat", "online"):
            raise WebError(409, "a replayed record has no rematch", "game_over")
        if not session.state.is_terminal:
            raise WebError(409, "a rematch is for finished games: this one goes on",
                           "stale", rev=session.rev)
        mine = "key" if len(seats) == 2 else SIDES[min(seats)]
        if row.rematch is not None:
            return self._rematch_of(game_id, json.loads(row.rematch), mine)
        settings = settings_from(dict(row.settings), self.content)
        quick = bool(row.options.get("quick", True))
        if row.mode == "online":
            game = self.create("online", settings, seat=SIDES[1 - SIDES.index(mine)],
                               quick=quick, clock=row.options.get("clock"))
            invite = game["links"]["invite"].split("?invite=", 1)[1]
            other = SIDES[1 - SIDES.index(mine)]
            link = {"id": game["id"], "seats": {mine: game},
                    "invite": {"side": other, "code": invite}}
        else:
            game = self.create(row.mode, settings, seat=row.options.get("creator", "key"),
                               quick=quick, level=str(row.options.get("level", "easy")))
            link = {"id": game["id"], "seats": {side: game for side in SIDES}, "invite": None}
        if not self.store.set_rematch(game_id, json.dumps(link)):  # someone was first
            self.store.delete_game(game["id"])
            self._forget(game["id"])
            return self._rematch_of(game_id, json.loads(self._head(game_id).rematch or "{}"),
                                    mine)
        self._forget(game_id)  # the stored revision moved on: read it again
        self._notify(game_id)
        return game

    def _rematch_of(self, game_id: str, link: dict[str, Any], mine: str) -> dict[str, Any]:
        """A rematch asked for again: the same answer, or the opponent's claim of it."""
        if mine in link.get("seats", {}):
            return dict(link["seats"][mine])
        invite = link.get("invite") or {}
        if invite.get("side") == mine:
            answer = self.claim(link["id"], invite["code"])
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

    def _stale(self, game_id: str, why: str) -> WebError:
        row = self.store.get_game(game_id)
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
            raise self._stale(session.id, "decision") from None
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
        session.row.finished = session.state.is_terminal
        self._keep(session)
        self._notify(session.id)

    async def decide(self, game_id: str, token: Any, rev: Any, option: Any) -> Session:
        """One decision of the seat holding ``token``, answering revision ``rev``."""
        self._known(game_id)
        async with self.lock(game_id):
            session = await self.asession(game_id)
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

    async def undo(self, game_id: str, token: Any, rev: Any) -> Session:
        """Take back the asker's last turn (and the AI's reply after it)."""
        self._known(game_id)
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
                raise self._stale(game_id, "undo") from None
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
        seed = self.rng.randrange(2**32)
        while True:
            try:
                session = await self.asession(game_id)
            except WebError:
                return  # gone, expired or quarantined: nothing to play
            if session.state.is_terminal or session.state.current_player != session.ai_seat():
                return
            rev = session.rev
            snapshot = session.state.clone()
            level = session.row.options.get("level", "easy")
            if self.ai is not None:  # a worker process plans the turn; its plan is kept
                option = await self.ai.choose(game_id, snapshot, level, seed + session.seq)
            else:
                agent = get_agent(level, seed=seed + session.seq)
                option = await asyncio.to_thread(agent.choose, snapshot)
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            async with self.lock(game_id):
                try:
                    session = await self.asession(game_id)
                except WebError:
                    return
                if session.rev != rev:
                    continue  # an undo or another process moved on: think again
                try:
                    await self._take(session, option)
                except WebError:
                    continue

    async def resume_all(self) -> None:
        """After a restart: let the AI take the decisions that are its turn (in the
        background, game by game; a game that fails to load is quarantined, not fatal)."""
        since = 0.0
        if self.expire_after:
            since = time.time() - self.expire_after
            self.store.expire(since)
        for game_id in self.store.unfinished_ids(since):
            try:
                self.session(game_id)
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
    return len(history) - start
# ---------------------------------------------------------------------- the view
def view(session: Session, seats: frozenset[int], upto: int | None = None,
         content: Content | None = None, token: str | None = None) -> dict[str, Any]:
    """What a viewer sees: position, decision with options (if theirs), log, result.

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
                **ai_status(session.id, row.options.get("level"), upto is None
                            and not state.is_terminal
                            and state.current_player == session.ai_seat())}
               if row.mode == "ai" else None),
        "evaluation": (ai_evaluation(session.id, state, 1 - session.ai_seat())
                       if row.mode == "ai" and upto is None else None),
        "clock": clock_view(session) if upto is None else None,
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
    turns = list(game.turns())
    if not turns:
        return []
    state = game.state
    at_turn_start = state.is_terminal or state.decision().kind == "play"
    turn = turns[-1] if at_turn_start else (turns[-2] if len(turns) > 1 else [])
    name = state.geometry.name
    squares: list[str] = []
    for entry in turn:
        for ev in entry.events:
            for key in ("square", "to"):
                sq = ev.data.get(key)
                if isinstance(sq, int) and sq >= 0 and name(sq) not in squares:
                    squares.append(name(sq))
    return squares
