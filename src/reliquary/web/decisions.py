"""The decision and undo path (:class:`Decisions`): a seat's decision, its undo and its
resignation, each answering the revision it was taken on, validated by the engine,
stored at that revision and only then kept; chance is sampled here
(:func:`reliquary.ai.sample_chance`, :func:`settle`) and stored like a decision. The
undo policy is :func:`reliquary.web.games.undo_count`. The AI takes its decisions
through :meth:`Decisions.take` too (:class:`reliquary.web.ai_driver.AIDriver`)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import OperationalError

from ..ai import sample_chance
from ..engine import CHANCE, SIDES, IllegalOptionError, NotationError
from .db import ACTIVE, StaleError
from .errors import WebError, clip
from .games import Session, new_session, undo_count
from .keeper import GameKeeper

log = logging.getLogger(__name__)


def settle(session: Session, rng: random.Random) -> None:
    """Sample every chance decision now due (the server rolls the dice)."""
    while not session.state.is_terminal and session.state.is_chance:
        session.apply(sample_chance(session.state, rng))


class Decisions:
    """Decisions, undos and resignations on the games of ``games``; ``kick(game_id)``
    starts the AI's turn when it is due after one."""

    def __init__(self, games: GameKeeper, rng: random.Random,
                 kick: Callable[[str], None]) -> None:
        self.games = games
        self.rng = rng
        self.kick = kick

    @staticmethod
    def seats_for(session: Session, token: Any, action: str) -> frozenset[int]:
        """The seats ``token`` decides for in ``session``; 403 for a foreign token or a
        spectator (who cannot ``action``)."""
        seats = session.seats_of(token)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        if not seats:
            raise WebError(403, f"spectators can only watch: this link cannot {action}")
        return seats

    def cached_at(self, game_id: str, rev: Any, token: Any) -> Session | None:
        """The cached game, without reading the store, when a decision may be taken on
        it as it is: it is at the revision the request answers and knows the token, and
        it has no clock (whose time is read from the store). The write is conditional on
        that revision, so a game another process moved on meanwhile refuses it (409);
        anything else (an unknown token, another revision) reads the store first."""
        session = self.games.sessions.get(game_id)
        if (session is None or str(rev) != session.rev or session.row.status != ACTIVE
                or session.row.options.get("clock") or not session.seats_of(token)
                or (self.games.expire_after  # near expiry: the store says (410)
                    and session.row.touched < time.time() - self.games.expire_after / 2)):
            return None
        self.games.sessions.move_to_end(game_id)
        return session

    async def take(self, session: Session, option: Any, kind: str | None = None) -> None:
        """Apply one decision and the chance after it, and store them at the session's
        revision; a clash with another writer drops the cached game (409 stale).

        The write runs in a thread (:meth:`Store.store_decision`, with the other
        decisions waiting for it); meanwhile the game is out of the cache, so a reader
        never sees a decision that is not stored yet. ``kind``: the decision's, when
        the caller has it."""
        start = session.seq
        try:
            session.apply(option, kind)
            settle(session, self.rng)
            entries = [(e.token, e.player) for e in session.game.history[start:]]
            self.games.forget(session.id)
            store = self.games.store
            rev = await store.store_decision(session.id, session.row.rev, start, entries,
                                             session.state.is_terminal)
        except StaleError:
            self.games.forget(session.id)
            raise await self.games.stale(session.id, "decision") from None
        except OperationalError:
            self.games.forget(session.id)
            log.warning("storing a decision of game %s failed", session.id, exc_info=True)
            raise WebError(503, "the database is busy: the decision was not taken; try "
                                "again", "busy") from None
        except BaseException:
            self.games.forget(session.id)
            raise
        session.row.rev = rev
        session.row.seq = session.seq
        session.row.touched = time.time()
        session.row.finished = session.state.is_terminal
        self.games.keep(session)
        await self.games.clock_read(session)
        self.games.notify(session.id, told=store.tells and bool(entries))

    async def decide(self, game_id: str, token: Any, rev: Any, option: Any) -> Session:
        """One decision of the seat holding ``token``, answering revision ``rev``."""
        await self.games.known(game_id)
        async with self.games.lock(game_id):
            session = self.cached_at(game_id, rev, token) or await self.games.asession(game_id)
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
            await self.take(session, chosen, decision.kind)
        self.kick(game_id)
        return session

    async def resign(self, game_id: str, token: Any, rev: Any) -> Session:
        """The seat of ``token`` resigns (on one screen: the side to move), answering
        revision ``rev``; stored as the engine's ``concede(loser, "resign")``."""
        await self.games.known(game_id)
        async with self.games.lock(game_id):
            session = await self.games.asession(game_id)
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
            self.games.forget(game_id)  # no reader sees the game before the write is done
            try:
                store = self.games.store
                new_rev = await store.run(store.concede, game_id, session.row.rev,
                                          session.seq, loser, "resign")
            except StaleError:
                raise await self.games.stale(game_id, "resignation") from None
            except OperationalError:
                log.warning("storing a resignation in game %s failed", game_id,
                            exc_info=True)
                raise WebError(503, "the database is busy: the resignation was not taken; "
                                    "try again", "busy") from None
            log.info("game %s: %s resigned", game_id, SIDES[loser])
            return self.games.conceded(session, loser, "resign", new_rev)

    async def undo(self, game_id: str, token: Any, rev: Any, *, agreed: bool = False
                   ) -> Session:
        """Take back the asker's last turn (and the AI's reply after it); ``agreed``: in
        an online game, the opponent accepted the asker's take-back request
        (:mod:`reliquary.web.social`), and their reply after it goes back too."""
        await self.games.known(game_id)
        async with self.games.lock(game_id):
            session = await self.games.asession(game_id)
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
                store = self.games.store
                new_rev = await store.run(store.truncate, game_id, session.row.rev, keep)
            except StaleError:
                self.games.forget(game_id)
                raise await self.games.stale(game_id, "undo") from None
            row = replace(session.row, rev=new_rev, undos=session.row.undos + 1, seq=keep,
                          finished=False)
            fresh = await asyncio.to_thread(new_session, row, self.games.content, tokens)
            self.games.keep(fresh)
            self.games.notify(game_id)
        self.kick(game_id)
        return fresh
