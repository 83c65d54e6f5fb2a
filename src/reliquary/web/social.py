"""Online play beyond the moves (issue 28): who is here, offers and preset messages.

- **Presence.** Each seat of an online game is *joined* (its seat has a token: the
  host's from the start, the guest's once the invite is claimed), *connected* (a page
  holding that seat's token has its social socket open) and, when it is not, *away*
  since when. A page opens ``/api/games/{id}/ws/social?t=TOKEN``; the server counts
  the seat's open sockets and pushes the room's state to every socket of the game
  whenever it changes (presence, an offer, a message).
- **Offers.** A seat offers a draw or asks to take back its last turn; only the other
  seat accepts or declines, and the offerer may withdraw. An offer answers the
  revision it was made at: once the game moves on it lapses. Allowed only in online
  games in play (after the setup, before the end), once the guest has joined, one
  offer at a time; an offer declined is not made again by the same seat until the
  game moves on. A draw is the engine's :meth:`~reliquary.engine.Game.agree_draw`,
  stored as a concession (every process and a restarted one rebuild it); a take-back
  is the manager's undo (:meth:`Manager.undo`, ``agreed=True``) under the web's undo
  policy (:func:`reliquary.web.games.undo_count`, the opponent's reply counted as the
  AI's would be), so it never goes past a die roll, a card dealt or into the setup.
- **Preset messages.** A seat sends one of :data:`PRESETS` (the page words each in
  English and Spanish): no free text, so nothing to moderate; one every
  :data:`MESSAGE_GAP_S` seconds, the last :data:`MESSAGES_KEPT` kept.

The room lives in this server process's memory: after a restart presence and messages
start afresh, and an offer must be made again (a draw accepted, or a take-back, is
stored). Several processes on one database each see their own sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import Field, StrictBool, StrictStr
from starlette.websockets import WebSocketState

from ..engine import SIDES
from .db import StaleError
from .errors import WebError
from .games import Session, in_setup, undo_count
from .manager import Manager
from .routes import answer, refusals
from .schemas import Body, Token

#: The preset messages, by id (the page has their words in each language).
PRESETS = ("hello", "good_luck", "have_fun", "nice_move", "well_played", "thanks",
           "oops", "sorry", "thinking", "hurry", "rematch", "bye")
#: Seconds between two messages of one seat.
MESSAGE_GAP_S = 1.0
#: Messages kept per game (the oldest leave).
MESSAGES_KEPT = 30
#: Seconds between the socket's pings (a dead connection fails the send).
PING_S = 20.0
#: Close code: the token belongs to no seat of this game.
CLOSE_FORBIDDEN = 4403
OfferKind = Literal["draw", "takeback"]
#: The ``t`` query parameter: a seat token (none: a spectator).
SeatToken = Annotated[str | None, Query(max_length=64, description="a seat token")]


class Offer(Body):
    """``POST /api/games/{id}/offer``: offer a draw or ask to take back the last turn."""

    token: Token = Field(description="the offering seat's token")
    rev: Token = Field(description="the revision of the view the offer answers")
    kind: OfferKind = Field(description="draw, or takeback (the asker's last turn)")


class Reply(Body):
    """``POST /api/games/{id}/offer/reply``: accept or decline the other seat's offer,
    or withdraw one's own (``accept: false``)."""

    token: Token = Field(description="the answering seat's token")
    rev: Token = Field(description="the revision of the view the answer answers")
    accept: StrictBool = Field(description="true: accept; false: decline (or withdraw)")


class Message(Body):
    """``POST /api/games/{id}/message``: one of the preset messages."""

    token: Token = Field(description="the sending seat's token")
    preset: Annotated[StrictStr, Field(max_length=20, description="a preset message's id")]


@dataclass
class Pending:
    """An offer waiting for the other seat: its kind, the offering seat, the revision
    it answers and when it was made."""

    kind: str
    by: int
    rev: str
    at: float


@dataclass
class Room:
    """One game's social state in this process."""

    sockets: dict[int, int] = field(default_factory=dict)       # open sockets per seat
    away: dict[int, float] = field(default_factory=dict)        # seat -> since (epoch)
    offer: Pending | None = None
    declined: dict[tuple[str, int], str] = field(default_factory=dict)  # (kind, by) -> rev
    messages: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=MESSAGES_KEPT))
    sent: dict[int, float] = field(default_factory=dict)        # seat -> last message time
    serial: int = 0                                             # messages numbered
    version: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def touch(self) -> None:
        """Something changed: every socket of the game sends the new state."""
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()


class Social:
    """The rooms of this process's online games (see the module's docstring)."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.rooms: dict[str, Room] = {}

    def room(self, game_id: str) -> Room:
        found = self.rooms.get(game_id)
        if found is None:
            if len(self.rooms) > 10_000:  # bounded: drop rooms nobody holds a socket in
                for key in [k for k, r in self.rooms.items() if not any(r.sockets.values())]:
                    del self.rooms[key]
            found = self.rooms[game_id] = Room()
        return found

    # ------------------------------------------------------------------ the state
    def state(self, session: Session, seats: frozenset[int]) -> dict[str, Any]:
        """What a viewer (``seats``: none for a spectator) sees of the room now."""
        room = self.room(session.id)
        self._lapse(room, session)
        row = session.row
        online = row.mode == "online"
        now = time.time()
        presence = None
        if online:
            presence = {}
            for p, side in enumerate(SIDES):
                connected = room.sockets.get(p, 0) > 0
                since = room.away.get(p)
                presence[side] = {"joined": side in row.tokens, "connected": connected,
                                  "away_s": None if connected or since is None
                                  else round(now - since, 1)}
        offer = None
        if room.offer is not None:
            offer = {"kind": room.offer.kind, "by": SIDES[room.offer.by],
                     "mine": room.offer.by in seats and len(seats) == 1,
                     "rev": room.offer.rev}
        return {"id": session.id, "version": room.version, "presence": presence,
                "offer": offer, "can_offer": self._allowed(room, session, seats) if online
                else {"draw": False, "takeback": False},
                "messages": list(room.messages), "presets": list(PRESETS)}

    @staticmethod
    def _lapse(room: Room, session: Session) -> None:
        """An offer made at another revision than the game's lapses (the game moved on)."""
        if room.offer is not None and (room.offer.rev != session.rev
                                       or session.state.is_terminal):
            room.offer = None
            room.touch()

    @staticmethod
    def _allowed(room: Room, session: Session, seats: frozenset[int]) -> dict[str, bool]:
        """Which offers the viewer may make now (the rules of the docstring)."""
        if (len(seats) != 1 or session.row.open_seat is not None
                or session.state.is_terminal or in_setup(session.state)
                or room.offer is not None):
            return {"draw": False, "takeback": False}
        me = min(seats)
        draw = room.declined.get(("draw", me)) != session.rev
        takeback = (room.declined.get(("takeback", me)) != session.rev
                    and undo_count(session.game.history, seats, 1 - me) > 0)
        return {"draw": draw, "takeback": takeback}

    async def _seat(self, game_id: str, token: str, action: str) -> tuple[Session, int]:
        session = await self.manager.asession(game_id)
        seats = self.manager.seats_for(session, token, action)
        if session.row.mode != "online" or len(seats) != 1:
            raise WebError(409, "offers and messages are for the two players of an online "
                                "game", "not_online")
        return session, min(seats)

    # ------------------------------------------------------------------ offers
    async def offer(self, game_id: str, token: str, rev: str, kind: str) -> dict[str, Any]:
        session, me = await self._seat(game_id, token, "make an offer")
        room = self.room(game_id)
        self._lapse(room, session)
        if rev != session.rev:
            raise WebError(409, f"stale offer: the game is at revision {session.rev}; "
                                "reload the game", "stale", rev=session.rev)
        if session.state.is_terminal:
            raise WebError(409, "the game is over: there is nothing to offer", "game_over")
        if room.offer is not None:
            who = "yours" if room.offer.by == me else "your opponent's"
            raise WebError(409, f"an offer is already waiting ({who}): answer or withdraw "
                                "it first", "offer_pending")
        allowed = self._allowed(room, session, frozenset({me}))
        if not allowed[kind]:
            raise WebError(409, self._why_not(room, session, me, kind), "offer_refused")
        room.offer = Pending(kind, me, session.rev, time.time())
        room.touch()
        return self.state(session, frozenset({me}))

    @staticmethod
    def _why_not(room: Room, session: Session, me: int, kind: str) -> str:
        what = "a draw" if kind == "draw" else "a take-back"
        if session.row.open_seat is not None:
            return f"the guest has not joined yet: no {what} to offer"
        if in_setup(session.state):
            return f"no {what} during the setup: offers start with the first turn"
        if room.declined.get((kind, me)) == session.rev:
            return f"your offer of {what} was declined: offer again after the next move"
        return ("nothing to take back: you have not played a turn yet, or a die was "
                "rolled or a card dealt since")

    async def reply(self, game_id: str, token: str, rev: str, accept: bool) -> Response:
        session, me = await self._seat(game_id, token, "answer an offer")
        room = self.room(game_id)
        self._lapse(room, session)
        pending = room.offer
        if pending is None:
            raise WebError(409, "there is no offer to answer (it lapsed when the game "
                                "moved on, or was withdrawn)", "no_offer")
        if rev != session.rev:
            raise WebError(409, f"stale answer: the game is at revision {session.rev}; "
                                "reload the game", "stale", rev=session.rev)
        if pending.by == me and accept:
            raise WebError(409, "your own offer is for your opponent to accept",
                           "not_your_turn")
        room.offer = None
        if not accept:
            if pending.by != me:  # declined: not offered again until the game moves on
                room.declined[(pending.kind, pending.by)] = pending.rev
            room.touch()
            return answer(self.manager, session, frozenset({me}), token)
        room.touch()
        if pending.kind == "draw":
            session = await self._draw(session)
        else:
            asker = session.row.tokens[SIDES[pending.by]]
            session = await self.manager.undo(game_id, asker, rev, agreed=True)
        room.touch()
        return answer(self.manager, session, frozenset({me}), token)

    async def _draw(self, session: Session) -> Session:
        """Store the agreed draw (as a concession, loser -1) and end the game here."""
        manager = self.manager
        async with manager.lock(session.id):
            current = await manager.asession(session.id)
            if current.rev != session.rev or current.state.is_terminal:
                raise WebError(409, "stale answer: the game moved on; reload the game",
                               "stale", rev=current.rev)
            manager.forget(session.id)  # no reader sees the game before the write is done
            try:
                await manager.store.run(manager.store.concede, session.id, current.row.rev,
                                        current.seq, -1, "agreed")
            except StaleError:
                raise WebError(409, "stale answer: the game moved on; reload the game",
                               "stale") from None
            # read back as stored (games.apply_concession ends it drawn), as seats.py
            # reads a claimed game: the manager's public names only
            drawn = await manager.asession(session.id)
        manager.notify(session.id)
        return drawn

    # ------------------------------------------------------------------ messages
    async def message(self, game_id: str, token: str, preset: str) -> dict[str, Any]:
        session, me = await self._seat(game_id, token, "send a message")
        if preset not in PRESETS:
            raise WebError(400, f"unknown message {preset[:20]!r}: only the preset "
                                f"messages are sent ({', '.join(PRESETS)})")
        room = self.room(game_id)
        now = time.time()
        wait = room.sent.get(me, 0.0) + MESSAGE_GAP_S - now
        if wait > 0:
            raise WebError(429, "one message at a time: wait a moment", "rate_limited",
                           retry_after=1)
        room.sent[me] = now
        room.serial += 1
        room.messages.append({"n": room.serial, "by": SIDES[me], "preset": preset,
                              "at": round(now, 3)})
        room.touch()
        return self.state(session, frozenset({me}))

    # ------------------------------------------------------------------ the socket
    async def serve(self, socket: WebSocket, game_id: str, token: str | None) -> None:
        """One page's social socket: its seat counts as connected while it is open, and
        it gets the room's state at once and after every change."""
        await socket.accept()
        try:
            session = await self.manager.asession(game_id)
        except WebError as err:
            await socket.send_json({"type": "error", "code": err.code, "error": err.message})
            await socket.close(code=4404 if err.status == 404 else 4410)
            return
        seats = session.seats_of(token)
        if seats is None:
            await socket.send_json({"type": "error", "code": "forbidden",
                                    "error": "this token does not belong to this game"})
            await socket.close(code=CLOSE_FORBIDDEN)
            return
        room = self.room(game_id)
        seat = min(seats) if len(seats) == 1 else None
        if seat is not None:
            room.sockets[seat] = room.sockets.get(seat, 0) + 1
            room.away.pop(seat, None)
            room.touch()
        reader = asyncio.create_task(_drain(socket))
        try:
            await self._push(socket, game_id, seats, room, reader)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass  # the client went away mid-send
        finally:
            reader.cancel()
            if seat is not None:
                room.sockets[seat] -= 1
                if room.sockets[seat] <= 0:
                    room.away[seat] = time.time()
                room.touch()
            if socket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await socket.close()

    async def _push(self, socket: WebSocket, game_id: str, seats: frozenset[int],
                    room: Room, reader: asyncio.Task[None]) -> None:
        sent = -1
        while not reader.done():
            changed = room.changed
            if room.version != sent:
                try:
                    session = await self.manager.asession(game_id)
                except WebError:
                    return  # gone meanwhile: the game's own socket says so
                sent = room.version
                await socket.send_json({"type": "social", **self.state(session, seats)})
                continue  # reading may have touched the room (a lapsed offer)
            waiter = asyncio.create_task(changed.wait())
            try:
                done, _ = await asyncio.wait({waiter, reader}, timeout=PING_S,
                                             return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
            if not done:
                await socket.send_json({"type": "ping"})


async def _drain(socket: WebSocket) -> None:
    """Read (and ignore) the client's messages until it disconnects."""
    while (await socket.receive())["type"] != "websocket.disconnect":
        pass


def invite_qr(url: str) -> bytes:
    """The invite link as a QR code, an SVG image made here (segno), nothing fetched."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                    dark="#1b1b1b", light="#ffffff", title="Invite link")
    return out.getvalue()


def router(social: Social) -> APIRouter:
    """The social routes: the room's state, offers and their answers, preset messages,
    the invite's QR code, and the social socket."""
    api = APIRouter()
    manager = social.manager

    @api.get("/api/games/{game_id}/social", responses=refusals(400, 403, 404, 410, 503))
    async def state(game_id: str, t: SeatToken = None) -> dict[str, Any]:
        """Presence, the waiting offer, what the viewer may offer, the messages."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        return social.state(session, seats)

    @api.post("/api/games/{game_id}/offer",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def offer(game_id: str, body: Offer) -> dict[str, Any]:
        """Offer a draw, or ask to take back one's last turn (the other seat answers).
        409 ``offer_pending``, ``offer_refused`` (with the reason), ``stale``,
        ``game_over``, ``not_online``."""
        return await social.offer(game_id, body.token, body.rev, body.kind)

    @api.post("/api/games/{game_id}/offer/reply",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def reply(game_id: str, body: Reply) -> Response:
        """Accept or decline the other seat's offer (or withdraw one's own); the game's
        view after it. 409 ``no_offer``, ``stale``, ``not_your_turn``, ``undo_refused``."""
        return await social.reply(game_id, body.token, body.rev, body.accept)

    @api.post("/api/games/{game_id}/message",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 429, 503))
    async def message(game_id: str, body: Message) -> dict[str, Any]:
        """Send one of the preset messages (400 for any other text)."""
        return await social.message(game_id, body.token, body.preset)

    @api.get("/api/games/{game_id}/invite.svg", response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}},
                        **refusals(400, 403, 404, 409, 410, 503)})
    async def invite_code(request: Request, game_id: str, t: SeatToken = None) -> Response:
        """The invite link as a QR code, for the host while the guest's seat is open
        (403 for anyone else: the link holds the invite; 409 once it was used)."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        row = session.row
        if (not seats or len(seats) != 1 or row.mode != "online"
                or SIDES[min(seats)] != row.options.get("creator")):
            raise WebError(403, "only the host's link shows the invite")
        invite = row.tokens.get("invite")
        if row.open_seat is None or invite is None:
            raise WebError(409, "the guest has joined: the invite was used", "invite_used")
        base = str(request.base_url).rstrip("/")
        svg = await asyncio.to_thread(invite_qr, f"{base}/g/{game_id}?invite={invite}")
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @api.websocket("/api/games/{game_id}/ws/social")
    async def live(socket: WebSocket, game_id: str, t: str | None = None) -> None:
        await social.serve(socket, game_id, t[:64] if t else None)

    return api
