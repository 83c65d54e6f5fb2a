"""The guard's every answer by its exact value (docs/web.md, "Limits", "Headers" and the
error table), driven as the ASGI middleware it is, in front of a stand-in app: each
refusal's status, code and headers, each limit at its edge and one past it, and what
reaches the app when nothing is refused."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from reliquary.web.guard import (
    Guard,
    Limits,
    RateLimiter,
    allowed_origins,
    client_key,
    client_of,
    refuse,
)

Message = dict[str, Any]

#: docs/web.md, "Headers", word for word.
DOCUMENTED_HEADERS = {
    b"content-security-policy": (
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; "
        b"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"),
    b"x-frame-options": b"DENY",
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"cross-origin-opener-policy": b"same-origin",
}


class App:
    """The API behind the guard: records each call and the body it read."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bytes | None]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            self.calls.append((scope["path"], None))
            await receive()
            return
        first = await receive()
        after = await receive()  # a second read goes on to the server's own
        self.calls.append((scope["path"], first.get("body", b"")))
        assert after["type"] == "http.disconnect"
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def http(guard: Guard, path: str, body: bytes = b"{}", *, method: str = "POST",
         content_type: bytes | None = b"application/json", client: str = "1.2.3.4",
         chunks: list[bytes] | None = None, length: int | None = None,
         stall: bool = False) -> tuple[int, dict[bytes, bytes], dict[str, Any] | None]:
    """Status, headers (lower case) and JSON body of one request through the guard."""
    headers = [] if content_type is None else [(b"content-type", content_type)]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {"type": "http", "method": method, "path": path, "headers": headers,
             "client": (client, 5000)}
    parts = chunks if chunks is not None else [body]
    incoming: list[Message] = [
        {"type": "http.request", "body": p, "more_body": i < len(parts) - 1}
        for i, p in enumerate(parts)] + [{"type": "http.disconnect"}]
    sent: list[Message] = []

    async def receive() -> Message:
        if stall:
            await asyncio.sleep(3600)
        return incoming.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    if not sent:
        return 0, {}, None
    start = sent[0]
    payload = b"".join(m.get("body", b"") for m in sent[1:])
    return (start["status"], dict(start["headers"]),
            json.loads(payload) if payload and payload != b"{}" else None)


def guard_with(app: App | None = None, takes_post: Callable[[str], bool] | None = None,
               origins: frozenset[str] = frozenset(), **limits: Any) -> Guard:
    return Guard(app or App(), Limits(**limits), takes_post=takes_post, origins=origins)


def test_every_answer_carries_the_documented_headers() -> None:
    app = App()
    guard = guard_with(app)
    for method, path in (("GET", "/api/lobby"), ("POST", "/api/games/x/decide")):
        status, headers, _ = http(guard, path, method=method)
        assert status == 200
        assert {k: headers[k] for k in DOCUMENTED_HEADERS} == DOCUMENTED_HEADERS
    status, headers, _ = http(guard, "/api/games", content_type=b"text/plain")
    assert status == 415
    assert {k: headers[k] for k in DOCUMENTED_HEADERS} == DOCUMENTED_HEADERS


@pytest.mark.parametrize("kind", [b"text/plain", b"application/x-www-form-urlencoded",
                                  b"multipart/form-data; boundary=x", None])
def test_a_post_that_is_not_json_is_415(kind: bytes | None) -> None:
    app = App()
    status, _, body = http(guard_with(app), "/api/games/x/decide", content_type=kind)
    assert status == 415 and body is not None and body["code"] == "unsupported_media_type"
    assert not app.calls


@pytest.mark.parametrize("kind", [b"application/json", b"application/json; charset=utf-8",
                                  b"Application/JSON"])
def test_a_json_post_reaches_the_app_with_its_body(kind: bytes) -> None:
    app = App()
    status, _, _ = http(guard_with(app), "/api/games/x/decide", b'{"a": [1]}',
                        content_type=kind)
    assert status == 200 and app.calls == [("/api/games/x/decide", b'{"a": [1]}')]


def test_a_post_to_a_route_that_takes_none_goes_to_the_router_unchecked() -> None:
    app = App()
    guard = guard_with(app, takes_post=lambda path: path != "/api/lobby", max_body_bytes=10)
    status, _, _ = http(guard, "/api/lobby", b"x" * 100, content_type=b"text/plain")
    assert status == 200 and app.calls == [("/api/lobby", b"x" * 100)]
    status, _, _ = http(guard, "/api/other", content_type=b"text/plain")
    assert status == 415


def test_the_body_limit_in_chunks_and_by_its_declared_length() -> None:
    app = App()
    guard = guard_with(app, max_body_bytes=10)
    assert http(guard, "/api/x", chunks=[b"[1,2,", b"3,4]", b" "])[0] == 200  # 10 bytes
    assert app.calls == [("/api/x", b"[1,2,3,4] ")]
    status, _, body = http(guard, "/api/x", chunks=[b"[1,2,", b"3,4]", b"  "])  # 11
    assert (status, body) == (413, {"error": "the request body is larger than 10 bytes",
                                    "code": "too_large"})
    assert http(guard, "/api/x", b"[1]", length=10)[0] == 200
    assert http(guard, "/api/x", b"[1]", length=11)[0] == 413
    assert len(app.calls) == 2


def test_a_body_slower_than_its_timeout_is_408() -> None:
    app = App()
    status, _, body = http(guard_with(app, body_timeout_s=0.05), "/api/x", stall=True)
    assert (status, body) == (408, {"error": "the request body did not arrive within "
                                             "0.05 s", "code": "timeout"})
    assert not app.calls


def test_a_client_that_leaves_mid_body_gets_nothing() -> None:
    app = App()
    guard = guard_with(app)
    scope = {"type": "http", "method": "POST", "path": "/api/x",
             "headers": [(b"content-type", b"application/json")], "client": ("a", 1)}
    sent: list[Message] = []
    incoming = [{"type": "http.request", "body": b"[", "more_body": True},
                {"type": "http.disconnect"}]

    async def receive() -> Message:
        return incoming.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    assert not sent and not app.calls


@pytest.mark.parametrize("path", ["/api/games", "/api/games/", "/api/records",
                                  "/api/records/", "/api/games/g1/rematch",
                                  "/api/games/g1/rematch/"])
def test_creations_are_limited_per_client_at_their_burst(path: str) -> None:
    now = [50.0]
    app = App()
    guard = guard_with(app, create_per_minute=6, create_burst=2)
    guard.creates.clock = lambda: now[0]
    assert [http(guard, path)[0] for _ in range(2)] == [200, 200]
    status, headers, body = http(guard, path)
    assert status == 429 and body is not None and body["code"] == "rate_limited"
    assert headers[b"retry-after"] == b"10" and "(10 s)" in body["error"]  # 6 a minute
    assert http(guard, path, client="5.6.7.8")[0] == 200  # another client
    now[0] += 7.5
    status, headers, body = http(guard, path)
    assert status == 429 and headers[b"retry-after"] == b"3"  # 2.5 s left: rounded up
    now[0] += 2.5
    assert http(guard, path)[0] == 200


@pytest.mark.parametrize("path", ["/api/games/g1/decide", "/api/games/g1", "/api/gamesx",
                                  "/api/games/g1/rematch/x", "/api/hint"])
def test_other_posts_are_not_creations(path: str) -> None:
    guard = guard_with(create_per_minute=1, create_burst=1)
    assert [http(guard, path)[0] for _ in range(3)] == [200, 200, 200]


def nested(depth: int, pad: int = 0) -> bytes:
    return b"[" * depth + b" " * pad + b"]" * depth


@pytest.mark.parametrize("pad", [0, 9000])  # on the loop, and in a thread past 8 KB
def test_json_nested_to_the_limit_passes_and_one_deeper_is_400(pad: int) -> None:
    app = App()
    guard = guard_with(app, max_json_depth=5)
    assert http(guard, "/api/x", nested(5, pad))[0] == 200
    status, _, body = http(guard, "/api/x", nested(6, pad))
    assert (status, body) == (400, {"error": "the JSON body nests deeper than 5 levels",
                                    "code": "bad_request"})
    assert len(app.calls) == 1


def test_the_size_and_rate_checks_come_before_the_depth_check() -> None:
    guard = guard_with(max_json_depth=1, max_body_bytes=4, create_burst=1,
                       create_per_minute=1)
    assert http(guard, "/api/games", nested(3))[0] == 413
    assert http(guard, "/api/games", b"[]")[0] == 200
    assert http(guard, "/api/games", nested(2))[0] == 429


# ---------------------------------------------------------------------- WebSockets
def socket(guard: Guard, path: str = "/api/games/g1/ws", *, origin: bytes | None = None,
           host: bytes = b"play.test:8000", client: str = "1.2.3.4",
           ) -> list[Message]:
    """What the guard sends a WebSocket before the app (or instead of it)."""
    headers = [(b"host", host)] + ([(b"origin", origin)] if origin is not None else [])
    scope = {"type": "websocket", "path": path, "headers": headers, "client": (client, 1)}
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    return sent


@pytest.mark.parametrize(("origin", "allowed"), [
    (None, True), (b"http://play.test:8000", True), (b"https://PLAY.test:8000", True),
    (b"http://play.test", False), (b"http://evil.test:8000", False),
    (b"ftp://play.test:8000", False), (b"null", False), (b"https://friend.test", True)])
def test_a_socket_from_another_site_is_closed_1008_before_the_handshake(
        origin: bytes | None, allowed: bool) -> None:
    app = App()
    guard = guard_with(app, origins=frozenset({"https://friend.test"}))
    sent = socket(guard, origin=origin)
    if allowed:
        assert not sent and app.calls == [("/api/games/g1/ws", None)]
    else:
        assert [m["type"] for m in sent] == ["websocket.close"] and sent[0]["code"] == 1008
        assert not app.calls


def refusal(sent: list[Message]) -> tuple[str, int]:
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send",
                                         "websocket.close"]
    return json.loads(sent[1]["text"])["code"], sent[2]["code"]


def test_socket_opens_are_rate_limited_per_client_at_their_burst() -> None:
    guard = guard_with(sockets_burst=3, sockets_per_minute=60)
    guard.socket_opens.clock = lambda: 0.0
    for _ in range(3):
        assert socket(guard) == []
    assert refusal(socket(guard)) == ("rate_limited", 4429)
    assert socket(guard, client="9.9.9.9") == []
    # the limit counts opens of the game's sockets only
    app = App()
    other = guard_with(app, sockets_burst=1)
    for path in ("/api/lobby/ws", "/api/games/g1/ws/x"):
        assert socket(other, path) == socket(other, path) == []
    assert socket(other, "/api/games/g1/ws/social") == []
    assert refusal(socket(other, "/api/games/g1/ws/")) == ("rate_limited", 4429)


def open_sockets(guard: Guard, opens: list[tuple[str, str]]) -> list[list[Message]]:
    """Open the sockets (client, game) at once, each held open until all have tried;
    what each was sent; afterwards every slot is free again."""
    results: list[list[Message]] = [[] for _ in opens]

    async def main() -> None:
        release = asyncio.Event()
        tried = 0

        class Held(App):
            async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
                await release.wait()

        guard.app = Held()

        async def one(i: int, client: str, game: str) -> None:
            nonlocal tried
            scope = {"type": "websocket", "path": f"/api/games/{game}/ws",
                     "headers": [], "client": (client, 1)}

            async def receive() -> Message:
                return {"type": "websocket.connect"}

            async def send(message: Message) -> None:
                results[i].append(message)

            task = asyncio.ensure_future(guard(scope, receive, send))
            await asyncio.sleep(0)
            tried += 1
            if tried == len(opens):
                release.set()
            await task

        await asyncio.gather(*(one(i, c, g) for i, (c, g) in enumerate(opens)))

    asyncio.run(main())
    assert guard.open_per_client == {} and guard.open_per_game == {}
    return results


def test_a_client_may_hold_exactly_its_cap_of_sockets() -> None:
    guard = guard_with(sockets_per_client=3, sockets_per_game=100, sockets_burst=100)
    sent = open_sockets(guard, [("a", f"g{i}") for i in range(4)] + [("b", "g0")])
    assert sent[:3] == [[], [], []] and sent[4] == []
    assert refusal(sent[3]) == ("busy", 1013)


def test_a_game_may_have_exactly_its_cap_of_watchers() -> None:
    guard = guard_with(sockets_per_client=100, sockets_per_game=2, sockets_burst=100)
    sent = open_sockets(guard, [(f"c{i}", "g") for i in range(3)] + [("c9", "h")])
    assert sent[:2] == [[], []] and sent[3] == []
    assert refusal(sent[2]) == ("busy", 1013)


# ---------------------------------------------------------------------- the pieces
def test_a_rate_limiter_s_burst_is_at_least_one_and_no_refill_waits_for_ever() -> None:
    limiter = RateLimiter(per_minute=0, burst=0, clock=lambda: 0.0)
    assert limiter.burst == 1.0 and limiter.take("a") == 0.0
    assert limiter.take("a") == math.inf


def test_a_rate_limiter_forgets_only_full_buckets_past_ten_thousand_clients() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=2, clock=lambda: now[0])
    for i in range(10_000):
        limiter.take(f"c{i}")
    assert len(limiter.buckets) == 10_000
    limiter.take("c0")  # c0's bucket empty, the others' half full
    now[0] = 0.5
    limiter.take("new")  # 10 001 clients: none full yet
    assert len(limiter.buckets) == 10_001
    now[0] = 1.0  # a second on, every bucket spent once is full again; c0 is not
    limiter.take("newer")
    assert set(limiter.buckets) == {"c0", "new", "newer"}


def test_limits_come_from_the_environment_then_from_what_is_given() -> None:
    env = {"RELIQUARY_SOCKETS_PER_GAME": "7", "RELIQUARY_BODY_TIMEOUT_S": "2.5",
           "RELIQUARY_MAX_JSON_DEPTH": "9"}
    limits = Limits.from_env(env, max_json_depth=4, lobby_per_client=None)
    assert (limits.sockets_per_game, limits.body_timeout_s, limits.max_json_depth,
            limits.lobby_per_client) == (7, 2.5, 4, 3)
    assert isinstance(limits.sockets_per_game, int)
    with pytest.raises(ValueError, match="RELIQUARY_SOCKETS_BURST must be a number, "
                                         "not 'many'"):
        Limits.from_env({"RELIQUARY_SOCKETS_BURST": "many"})
    with pytest.raises(ValueError, match="RELIQUARY_SOCKETS_BURST"):
        Limits.from_env({"RELIQUARY_SOCKETS_BURST": "2.5"})  # a whole number


def test_allowed_origins_are_trimmed_lower_case_without_a_trailing_slash() -> None:
    env = {"RELIQUARY_ALLOWED_ORIGINS": " https://A.test/ ,, http://b.test:81 ,"}
    assert allowed_origins(env) == frozenset({"https://a.test", "http://b.test:81"})
    assert allowed_origins({}) == frozenset()


def test_a_client_is_its_address_and_is_stored_hashed() -> None:
    assert client_of({"client": ("10.0.0.1", 4000)}) == "10.0.0.1"
    assert client_of({"client": None}) == client_of({}) == "unknown"
    key = client_key({"client": ("10.0.0.1", 4000)})
    assert len(key) == 24 and "10.0.0.1" not in key
    assert key == client_key({"client": ("10.0.0.1", 9)})
    assert key != client_key({"client": ("10.0.0.2", 4000)})


@pytest.mark.parametrize(("wait", "header"), [(None, None), (0.2, b"1"), (1.0, b"1"),
                                              (2.01, b"3")])
def test_a_refusal_is_the_api_s_error_with_a_whole_second_retry_after(
        wait: float | None, header: bytes | None) -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(refuse(send, 429, "rate_limited", "wait", retry_after=wait))
    start, body = sent
    headers = dict(start["headers"])
    assert start["status"] == 429
    assert json.loads(body["body"]) == {"error": "wait", "code": "rate_limited"}
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"content-length"] == str(len(body["body"])).encode()
    assert headers.get(b"retry-after") == header


def test_the_limits_default_to_the_table_in_the_docs() -> None:
    """docs/web.md, "Limits": every variable's default."""
    assert Limits.from_env({}) == Limits(
        max_body_bytes=262144, max_json_depth=32, body_timeout_s=10.0, lobby_per_client=3,
        ai_games_per_client=8, hints_per_minute=20.0, hints_burst=5, create_per_minute=30.0,
        create_burst=30, sockets_per_minute=60.0, sockets_burst=30, sockets_per_game=64,
        sockets_per_client=32, expire_after_s=604800.0)
    assert Limits() == Limits.from_env({})
