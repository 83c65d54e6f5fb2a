"""The decision request's short way through the app (issue 7's throughput).

``POST /api/games/{id}/decide`` is most of a game's requests. Through FastAPI it pays
for the router's matching, the dependency solver and a response model on top of the
decision itself; this ASGI middleware, inside :class:`reliquary.web.guard.Guard` (so the
limits, the JSON-only rule and the security headers still apply), answers a well-formed
decision directly: the body is validated by the same pydantic model
(:class:`reliquary.web.schemas.Decide`), the decision taken by the same
:meth:`Manager.decide`, refusals given in the same format. Anything else (another
route, a body the model refuses) goes on to FastAPI, whose handlers word the refusal.
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
        status, payload, headers = 200, b"", list(JSON_HEADERS)
        try:
            session = await self.manager.decide(match.group(1), request.token, request.rev,
                                                request.option)
            seats = session.seats_of(request.token) or frozenset()
            payload = view_json(session, self.manager.view(session, seats, token=request.token))
        except WebError as err:
            status, payload = err.status, encode_json(err.body()).encode()
        except (OperationalError, PoolTimeout) as err:  # as reliquary.web.capacity answers
            log.warning("database error: %s", err)
            status = 503
            payload = encode_json({"error": "the database is busy; try again in a moment",
                                   "code": "busy"}).encode()
            headers.append((b"retry-after", b"1"))
        headers.append((b"content-length", str(len(payload)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives the messages already read, then the client's."""
    pending = list(messages)

    async def replay() -> Any:
        return pending.pop(0) if pending else await receive()

    return replay
