"""The server's guard: limits and headers applied before a request reaches the API.

:class:`Guard` is a plain ASGI middleware. For HTTP it adds the security headers to
every answer; on the routes that take a POST it refuses requests that are not
``application/json`` (415: a cross-site form cannot post), bodies over the size limit
(413) or slower to arrive than ``body_timeout_s`` (408), rate-limits game creation per
client (429), and only then refuses JSON nested deeper than the limit (400; the check
is linear, and runs off the event loop for a large body). A POST to a route that does
not take one goes on to the router, which answers 405. For WebSockets it refuses
another site's pages (``Origin``), rate-limits opening them per client and caps how many
are open per game and per client. Every limit is a field of :class:`Limits`
(environment variables, documented in docs/web.md), injectable in ``create_app`` so
tests can use small values.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from itertools import accumulate
from typing import Any
from urllib.parse import urlsplit

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
SOCKET = re.compile(r"^/api/games/([^/]+)/ws(?:/social)?/?$")  # live; social (issue 28)
#: For :func:`json_depth`: every byte but a bracket, and a bracket as its step + 1.
NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
STEPS = bytes.maketrans(b"[]{}", b"\x02\x00\x02\x00")
#: Bodies larger than this are depth-checked in a thread (a few ms of work at most).
OFF_LOOP_BYTES = 8 * 1024


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
    body_timeout_s: float = 10.0              # a request body must arrive within (408)
    lobby_per_client: int = 3                 # public games of one client in the lobby
    ai_games_per_client: int = 8              # games against the AI of one client in play
    hints_per_minute: float = 20.0            # hints per client, and per game …
    hints_burst: int = 5                      # … with this many at once (one per game)

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
    """How deeply a JSON text nests arrays and objects, in time linear in its length
    (no parsing, no recursion, no regular expression that may backtrack).

    Escapes go first (an escaped backslash, then an escaped quote), so every quote left
    opens or closes a string: the text outside strings is every other piece between
    quotes. Its brackets, as steps of +1 and -1, sum up to the depth at each point."""
    plain = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(plain.split(b'"')[::2])
    steps = outside.translate(None, NOT_BRACKETS).translate(STEPS)
    return max(accumulate((step - 1 for step in steps), initial=0))


class Guard:
    """The ASGI middleware described in the module's docstring.

    ``takes_post(path)`` tells whether a route takes a POST there (default: every
    path); ``origins``: the ``Origin`` values a WebSocket may come from besides the
    server's own (its ``Host``)."""

    def __init__(self, app: ASGIApp, limits: Limits,
                 takes_post: Callable[[str], bool] | None = None,
                 origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.limits = limits
        self.takes_post = takes_post or (lambda _path: True)
        self.origins = origins
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

        if scope["method"] not in STATE_CHANGING or not self.takes_post(scope["path"]):
            await self.app(scope, receive, send_with_headers)  # the router answers 404/405
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
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
        try:  # (a timeout scope, not wait_for: no task of its own per request)
            async with asyncio.timeout(self.limits.body_timeout_s):
                body = await read_body(receive, limit)
        except TimeoutError:
            await refuse(send_with_headers, 408, "timeout",
                         f"the request body did not arrive within "
                         f"{self.limits.body_timeout_s:g} s")
            return
        if body is None:  # the client left
            return
        if isinstance(body, int):
            await refuse(send_with_headers, 413, "too_large",
                         f"the request body is larger than {limit} bytes")
            return
        if CREATES.match(scope["path"]):
            wait = self.creates.take(client_of(scope))
            if wait:
                await refuse(send_with_headers, 429, "rate_limited",
                             "too many new games from this client: wait a little "
                             f"({math.ceil(wait)} s)", retry_after=wait)
                return
        depth = (json_depth(body) if len(body) <= OFF_LOOP_BYTES
                 else await asyncio.to_thread(json_depth, body))
        if depth > self.limits.max_json_depth:
            await refuse(send_with_headers, 400, "bad_request",
                         f"the JSON body nests deeper than {self.limits.max_json_depth} "
                         "levels")
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
        if not self.same_origin(scope):  # another site's page: refused before the handshake
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "this page's origin may not open this WebSocket"})
            return
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

    def same_origin(self, scope: Scope) -> bool:
        """Whether a WebSocket may open: no ``Origin`` (not a browser: a page of another
        site always sends one), the server's own (its ``Host``), or a configured one."""
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        origin = headers.get(b"origin")
        if origin is None:
            return True
        text = origin.decode("latin-1").strip().lower()
        if text in self.origins:
            return True
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        parts = urlsplit(text)
        return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


async def read_body(receive: Receive, limit: int) -> bytes | int | None:
    """A request's body; its size so far once past ``limit``; None if the client left."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return size
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def allowed_origins(env: MutableMapping[str, str] | None = None) -> frozenset[str]:
    """``RELIQUARY_ALLOWED_ORIGINS``: other origins whose pages may open the WebSockets
    (comma-separated, e.g. ``https://play.example.org``); the server's own always may."""
    raw = (os.environ if env is None else env).get("RELIQUARY_ALLOWED_ORIGINS", "")
    return frozenset(part.strip().lower().rstrip("/") for part in raw.split(",")
                     if part.strip())


def client_of(scope: Scope) -> str:
    """Who asks: the client's address (uvicorn takes it from X-Forwarded-For only when
    the peer is a trusted proxy: ``reliquary serve --trusted-proxies``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def client_key(scope: Scope) -> str:
    """The client as stored with the games it creates (for the lobby's per-client cap):
    a hash of its address, so the database keeps no addresses in the clear."""
    return hashlib.blake2b(client_of(scope).encode(), digest_size=12,
                           person=b"reliquary-host").hexdigest()


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
