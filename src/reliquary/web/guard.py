"""The server's guard: limits and headers applied before a request reaches the API.

:class:`Guard` is a plain ASGI middleware. For HTTP it adds the security headers to
every answer, refuses state-changing requests that are not ``application/json`` (415:
a cross-site form cannot post), bodies over the size limit (413) and JSON nested deeper
than the limit (400), and rate-limits game creation per client (429). For WebSockets
it rate-limits opening them per client and caps how many are open per game and per
client. Every limit is a field of :class:`Limits` (environment variables, documented
in docs/web.md), injectable in ``create_app`` so tests can use small values.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The page loads only its own scripts, styles, images and sockets, and no site may
#: frame it (clickjacking); inline styles stay allowed for the SVG board's attributes.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat tokens travel in links: never leak them
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
#: Only POST changes state here (other methods answer 405 from the router).
STATE_CHANGING = frozenset({"POST"})
#: Requests that create a game (rate-limited per client).
CREATES = re.compile(r"^/api/(games/?|records/?|games/[^/]+/rematch/?)$")
SOCKET = re.compile(r"^/api/games/([^/]+)/ws/?$")
STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
BRACKETS = re.compile(rb"[\[\]{}]")


@dataclass
class Limits:
    """What one client may ask of the server. ``Limits.from_env()`` reads each field
    from ``RELIQUARY_<FIELD>`` (upper case) when set."""

    max_body_bytes: int = 256 * 1024          # a request body (413 beyond)
    max_json_depth: int = 32                  # nesting of a JSON body (400 beyond)
    create_per_minute: float = 30.0           # new games (and records, rematches) …
    create_burst: int = 30                    # … per client, with this many at once
    sockets_per_minute: float = 60.0          # WebSocket opens per client …
    sockets_burst: int = 30                   # … with this many at once
    sockets_per_game: int = 64                # open WebSockets on one game
    sockets_per_client: int = 32              # open WebSockets of one client
    expire_after_s: float = 7 * 24 * 3600.0   # an unfinished game untouched this long expires

    @classmethod
    def from_env(cls, env: MutableMapping[str, str] | None = None, **given: Any) -> Limits:
        """The defaults, overridden by ``RELIQUARY_*`` variables, then by ``given``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"RELIQUARY_{f.name.upper()}")
            if raw is not None:
                kind = int if f.type in ("int", int) else float
                try:
                    values[f.name] = kind(raw)
                except ValueError:
                    raise ValueError(f"RELIQUARY_{f.name.upper()} must be a number, "
                                     f"not {raw!r}") from None
        values.update({k: v for k, v in given.items() if v is not None})
        return cls(**values)


class RateLimiter:
    """Token buckets per client: ``burst`` requests at once, refilled at ``per_minute``."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> float:
        """Spend one request of ``client``: 0 if allowed, else seconds until one is."""
        now = self.clock()
        level, since = self.buckets.get(client, (self.burst, now))
        level = min(self.burst, level + (now - since) * self.rate)
        if level < 1.0:
            self.buckets[client] = (level, now)
            return (1.0 - level) / self.rate if self.rate > 0 else math.inf
        self.buckets[client] = (level - 1.0, now)
        if len(self.buckets) > 10_000:  # forget clients whose bucket is full again
            self.buckets = {c: (lv, t) for c, (lv, t) in self.buckets.items()
                            if lv + (now - t) * self.rate < self.burst}
        return 0.0


def json_depth(body: bytes) -> int:
    """How deeply a JSON text nests arrays and objects (without parsing or recursion)."""
    depth = deepest = 0
    for match in BRACKETS.finditer(STRINGS.sub(b'""', body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class Guard:
    """The ASGI middleware described in the module's docstring."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.creates = RateLimiter(limits.create_per_minute, limits.create_burst)
        self.socket_opens = RateLimiter(limits.sockets_per_minute, limits.sockets_burst)
        self.open_per_game: dict[str, int] = {}
        self.open_per_client: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ------------------------------------------------------------------ HTTP
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        method = scope["method"]
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        if method not in STATE_CHANGING:
            await self.app(scope, receive, send_with_headers)
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if kind != b"application/json":
            await refuse(send_with_headers, 415, "unsupported_media_type",
                         "this request must send a JSON body with Content-Type: "
                         "application/json")
            return
        limit = self.limits.max_body_bytes
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await refuse(send_with_headers, 413, "too_large",
                         f"the request body is larger than {limit} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(send_with_headers, 413, "too_large",
                             f"the request body is larger than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_depth(body) > self.limits.max_json_depth:
            await refuse(send_with_headers, 400, "bad_request",
                         f"the JSON body nests deeper than {self.limits.max_json_depth} "
                         "levels")
            return
        if CREATES.match(scope["path"]):
            wait = self.creates.take(client_of(scope))
            if wait:
                await refuse(send_with_headers, 429, "rate_limited",
                             "too many new games from this client: wait a little "
                             f"({math.ceil(wait)} s)", retry_after=wait)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_with_headers)

    # ------------------------------------------------------------------ WebSockets
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = SOCKET.match(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        game_id = match.group(1)
        refusal = None
        if self.socket_opens.take(client):
            refusal = ("rate_limited", 4429, "too many WebSockets opened by this client: "
                                             "wait a little")
        elif self.open_per_client.get(client, 0) >= self.limits.sockets_per_client:
            refusal = ("busy", 1013, "this client has too many WebSockets open")
        elif self.open_per_game.get(game_id, 0) >= self.limits.sockets_per_game:
            refusal = ("busy", 1013, "this game has too many watchers right now")
        if refusal is not None:
            code, close, message = refusal
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": json.dumps(
                    {"type": "error", "code": code, "error": message})})
                await send({"type": "websocket.close", "code": close})
            return
        self.open_per_client[client] = self.open_per_client.get(client, 0) + 1
        self.open_per_game[game_id] = self.open_per_game.get(game_id, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:  # the handler ended: its slot is free again
            for counts, key in ((self.open_per_client, client), (self.open_per_game, game_id)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]


def client_of(scope: Scope) -> str:
    """Who asks: the client's address (uvicorn takes it from X-Forwarded-For when the
    proxy is trusted, see ``--forwarded-allow-ips``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def refuse(send: Send, status: int, code: str, message: str,
                 retry_after: float | None = None) -> None:
    """Answer a refusal in the API's error format."""
    body = json.dumps({"error": message, "code": code}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
