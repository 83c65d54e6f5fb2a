"""The games of one server process (:class:`Manager`): its parts put together, and the
creation of new games.

The parts, each in its own module with its collaborators passed in (no process-wide
registries):

- the store and the cache: :class:`reliquary.web.keeper.GameKeeper` (loading, caching,
  the clock check on reading a game, live notification) over
  :class:`reliquary.web.db.Store`;
- the decision and undo path: :class:`reliquary.web.decisions.Decisions` (decide,
  undo, resign; chance sampled by the server);
- the AI: :class:`reliquary.web.ai_driver.AIDriver` (one task per AI game), thinking
  in :class:`reliquary.web.ai_pool.AIPool`;
- the clocks: :class:`reliquary.web.clock.Clocks`, and live notification:
  :class:`reliquary.web.live.LiveHub` (both given to the keeper);
- creation (here: seats and their tokens made, a quick setup played, the game stored)
  and, on top, seats beyond creation (:class:`reliquary.web.seats.Seats`: invites, the
  lobby, rematches).

The routes and the other parts reach them through the manager's names below.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..ai import LEVELS, sample_chance
from ..engine import SIDES, Content, NotationError, Settings
from .ai_driver import AIDriver
from .clock import Clocks
from .db import GameRow, Store
from .decisions import Decisions, settle
from .errors import WebError, clip
from .games import Session, in_setup, new_session, ruleset_fields, settings_from, view
from .keeper import GameKeeper

if TYPE_CHECKING:
    from .ai_pool import AIPool
    from .live import LiveHub

log = logging.getLogger(__name__)
#: A game against the AI counts as in play (for the cap on them per client) while
#: unfinished and played in within this many seconds.
AI_IN_PLAY_S = 3600.0


class Manager:
    """All games of this server process: the parts of the module's docstring, built
    and wired here, and the creation of games."""

    def __init__(self, store: Store, content: Content, ai_delay: float = 0.2,
                 max_sessions: int = 1000, expire_after: float | None = None,
                 lobby_per_client: int = 3, *, ai: AIPool | None = None,
                 live: LiveHub | None = None, clocks: Clocks | None = None,
                 ai_games_per_client: int = 8) -> None:
        self.store = store
        self.content = content
        self.expire_after = expire_after
        self.lobby_per_client = lobby_per_client
        self.ai_games_per_client = ai_games_per_client
        self.rng = random.SystemRandom()
        # The AI's process pool (None: the AI thinks in a thread), the live updates of
        # the watchers (None: none), the clocks of online games (None: shown unrun).
        self.ai, self.live, self.clocks = ai, live, clocks
        self.keeper = GameKeeper(store, content, max_sessions=max_sessions,
                                expire_after=expire_after, clocks=clocks, live=live)
        self.decisions = Decisions(self.keeper, self.rng, kick=lambda game_id:
                                   self.driver.kick(game_id))
        self.driver = AIDriver(store, ai, delay=ai_delay, cached=self.keeper.sessions.get,
                               read=self.keeper.asession, lock=self.keeper.lock,
                               take=self.decisions.take,
                               watched=live.watching if live is not None else None)
        self.keeper.busy = self.driver.running
        if live is not None:
            live.on_leave.append(self.driver.left)
        self.keeper.evicted.append(self.driver.forget)
        # The parts' ways, under the names the routes and the other parts use.
        self.sessions = self.keeper.sessions
        self.session, self.asession, self.head = (self.keeper.session, self.keeper.asession,
                                                  self.keeper.head)
        self.lock, self.forget, self.notify = (self.keeper.lock, self.keeper.forget,
                                               self.keeper.notify)
        self.conceded = self.keeper.conceded
        self.seats_for = self.decisions.seats_for
        self.decide, self.undo, self.resign = (self.decisions.decide, self.decisions.undo,
                                               self.decisions.resign)

    def view(self, session: Session, seats: frozenset[int], upto: int | None = None,
             token: str | None = None) -> dict[str, Any]:
        """:func:`view` with this manager's AI pool and clocks."""
        return view(session, seats, ai=self.ai, clocks=self.clocks, upto=upto, token=token)

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
        self.keeper.keep(session)
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
        stored = {**settings.as_dict(), **ruleset_fields(ruleset)}
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
            settle(session, self.rng)
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
        stored = {**settings.as_dict(), **ruleset_fields(ruleset)}
        await self.store.run(self.store.create_game, game_id, "replay", stored,
                             {"ai_seat": -2}, tokens,
                             [(e.token, e.player) for e in game.history], True)
        link = f"/replay/{game_id}"
        return {"id": game_id, "links": {"self": link, "replay": link}}

    async def resume_all(self) -> None:
        """After a restart: let the AI take the decisions that are its turn (in the
        background, game by game; a game that fails to load is quarantined, not fatal)."""
        since = 0.0
        if self.expire_after:
            since = time.time() - self.expire_after
            await self.store.run(self.store.expire, since)
        for game_id in await self.store.read(self.store.unfinished_ids, since):
            try:
                await self.keeper.asession(game_id)
            except WebError:
                continue
            except Exception:  # one bad game must not stop the others
                log.exception("resuming game %s failed", game_id)
                continue
            self.driver.kick(game_id)
            await asyncio.sleep(0)
