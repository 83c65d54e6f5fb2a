"""Seats and invites: the guest's claim of an online game's open seat, the lobby of
public games waiting for one, and rematches (:class:`Seats`, a part on top of the
:class:`~reliquary.web.manager.Manager` it is given)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

from ..engine import SIDES
from .errors import WebError
from .games import RULESET_PATCH_KEY, settings_from
from .manager import Manager


class Seats:
    """Who sits where beyond a game's creation: claims, the lobby, rematches."""

    def __init__(self, games: Manager) -> None:
        self.games = games

    async def claim(self, game_id: str, invite: str | None) -> dict[str, Any]:
        """Exchange an invite (or, for a public game, nothing) for the open seat's token.

        Once: a second claim is refused with ``invite_used``."""
        session = await self.games.asession(game_id)
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
        if not await self.games.store.run(self.games.store.claim_seat, game_id, row.tokens, tokens):
            raise WebError(409, "this game's second seat is taken: the invite was used",
                           "invite_used")
        self.games.forget(game_id)  # the stored revision moved on: read it again
        session = await self.games.asession(game_id)
        self.games.notify(game_id)
        return {"id": game_id, "token": token, "seat": seat, "rev": session.rev,
                "links": {"self": f"/g/{game_id}?t={token}"}}

    async def lobby(self) -> list[dict[str, Any]]:
        """Public online games waiting for a guest."""
        rows = await asyncio.to_thread(self.games.store.lobby, self.games.lobby_since())
        return [{"id": row.id, "created": row.created,
                 "settings": {k: v for k, v in row.settings.items() if k != RULESET_PATCH_KEY},
                 "host_seat": row.options.get("creator"), "clock": row.options.get("clock")}
                for row in rows]

    async def rematch(self, game_id: str, token: str) -> dict[str, Any]:
        """A new game with the same settings after a finished one (see the API docs)."""
        session = await self.games.asession(game_id)
        seats = self.games.seats_for(session, token, "ask for a rematch")
        row = session.row
        if row.mode not in ("ai", "hotseat", "online"):
            raise WebError(409, "a replayed record has no rematch", "game_over")
        if not session.state.is_terminal:
            raise WebError(409, "a rematch is for finished games: this one goes on",
                           "stale", rev=session.rev)
        mine = "key" if len(seats) == 2 else SIDES[min(seats)]
        if row.rematch is not None:
            return await self._rematch_of(game_id, json.loads(row.rematch), mine)
        settings = settings_from(dict(row.settings), self.games.content)
        quick = bool(row.options.get("quick", True))
        if row.mode == "online":
            game = await self.games.acreate("online", settings, host=row.host,
                                            seat=SIDES[1 - SIDES.index(mine)],
                                            quick=quick, clock=row.options.get("clock"),
                                            ruleset=row.settings.get("ruleset"))
            invite = game["links"]["invite"].split("?invite=", 1)[1]
            other = SIDES[1 - SIDES.index(mine)]
            link = {"id": game["id"], "seats": {mine: game},
                    "invite": {"side": other, "code": invite}}
        else:
            game = await self.games.acreate(row.mode, settings, host=row.host,
                                            seat=row.options.get("creator", "key"),
                                            quick=quick,
                                            level=str(row.options.get("level", "easy")),
                                            ruleset=row.settings.get("ruleset"))
            link = {"id": game["id"], "seats": {side: game for side in SIDES}, "invite": None}
        store = self.games.store
        if not await store.run(store.set_rematch, game_id, json.dumps(link)):
            await store.run(store.delete_game, game["id"])  # someone was first
            self.games.forget(game["id"])
            head = await self.games.head(game_id)
            return await self._rematch_of(game_id, json.loads(head.rematch or "{}"), mine)
        self.games.forget(game_id)  # the stored revision moved on: read it again
        self.games.notify(game_id)
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
