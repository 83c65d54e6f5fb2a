"""The decide path: :func:`decision`, and the short way a request gets to it.

``POST /api/games/{id}/decide`` is most of a game's requests. Through FastAPI it pays
for the router's matching, the dependency solver and a response model on top of the
decision itself; :class:`FastDecide`, an ASGI middleware inside
:class:`reliquary.web.guard.Guard` (so the limits, the JSON-only rule and the security
headers still apply), validates a decision's body with the route's own pydantic model
(:class:`reliquary.web.schemas.Decide`) and calls :func:`decision`, as the FastAPI route
does (it is reached only by a body the model refuses, whose refusal FastAPI words, or in
an app without the middleware): one decide path, two doors.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import WebError, encode_json
from .games import view_json
from .manager import Manager
from .schemas import Decide

log = logging.getLogger(__name__)
#: The decision route (Starlette's ``{game_id}``: any text without a slash).
DECIDE = re.compile(r"^/api/games/([^/]+)/decide$")
JSON_HEADERS = [(b"content-type", b"application/json")]


class FastDecide:
    """ASGI middleware: the decision route without FastAPI's per-request machinery."""

    def __init__(self, app: ASGIApp, manager: Manager) -> None:
        self.app = app
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = DECIDE.match(scope["path"]) if scope["type"] == "http" else None
        if match is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        body = b""
        while True:  # Guard has read and checked it already: one message
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        try:
            request = Decide.model_validate_json(body)
        except ValidationError:  # FastAPI's validation handler words it
            await self.app(scope, _replaying(messages, receive), send)
            return
        status, payload, headers = await decision(self.manager, match.group(1), request)
        headers.append((b"content-length", str(len(payload)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})


async def decision(manager: Manager, game_id: str, request: Decide
                   ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
    """The decide path, the one way a decision is taken: ``(status, JSON body,
    headers)`` of the answer — the view after it, or the refusal."""
    status, payload, headers = 200, b"", list(JSON_HEADERS)
    try:
        session = await manager.decide(game_id, request.token, request.rev, request.option)
        seats = session.seats_of(request.token) or frozenset()
        payload = view_json(session, manager.view(session, seats, token=request.token))
    except WebError as err:
        status, payload = err.status, encode_json(err.body()).encode()
    except (OperationalError, PoolTimeout) as err:  # as the app's handler answers
        log.warning("database error: %s", err)
        status = 503
        payload = encode_json({"error": "the database is busy; try again in a moment",
                               "code": "busy"}).encode()
        headers.append((b"retry-after", b"1"))
    return status, payload, headers


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives the messages already read, then the client's."""
    pending = list(messages)

    async def replay() -> Any:
        return pending.pop(0) if pending else await receive()

    return replay
