"""The guard's remaining promises, value by value (web/guard.py; docs/web.md "Limits" and
"Headers"), beside ``test_guard_exact.py``: what a refused WebSocket is told, message by
message, and which refusal comes first when several apply; a handler's slot freed even
when it fails; the depth of JSON bodies without brackets (a string, a number: depth 0,
not an error); large bodies depth-checked off the event loop and small ones on it (the
edge at 8 KB); a rate limiter's memory trimmed only past ten thousand clients; other
ASGI traffic (the lifespan) passed through untouched; an ``Origin`` without a ``Host``
refused; and the stored client key, which must not change between versions (the lobby's
per-client cap counts the games stored under it)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from reliquary.web import guard as guard_module
from reliquary.web.guard import OFF_LOOP_BYTES, Guard, Limits, RateLimiter, client_key, json_depth

from .test_guard_exact import App, guard_with, http, socket

Message = dict[str, Any]


# ---------------------------------------------------------------------- WebSockets
def test_a_socket_from_another_site_is_told_why_it_is_closed() -> None:
    sent = socket(guard_with(), origin=b"https://evil.test")
    assert sent == [{"type": "websocket.close", "code": 1008,
                     "reason": "this page's origin may not open this WebSocket"}]


def test_an_origin_without_a_host_is_refused() -> None:
    guard = guard_with()
    sent: list[Message] = []
    scope = {"type": "websocket", "path": "/api/games/g/ws",
             "headers": [(b"origin", b"http://")], "client": ("a", 1)}

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    assert [m["code"] for m in sent] == [1008]


def _refused(sent: list[Message]) -> Message:
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send",
                                         "websocket.close"]
    assert set(sent[2]) == {"type", "code"}
    return {"close": sent[2]["code"], **json.loads(sent[1]["text"])}


def test_each_socket_refusal_is_accepted_told_and_closed() -> None:
    """The page reads the refusal's message before the close (docs/web.md: 4429 and
    1013 show a notice); each says which limit it met."""
    guard = guard_with(sockets_burst=1, sockets_per_minute=1)
    guard.socket_opens.clock = lambda: 0.0
    assert socket(guard) == []
    assert _refused(socket(guard)) == {
        "close": 4429, "type": "error", "code": "rate_limited",
        "error": "too many WebSockets opened by this client: wait a little"}

    guard = guard_with(sockets_per_client=0)
    assert _refused(socket(guard)) == {
        "close": 1013, "type": "error", "code": "busy",
        "error": "this client has too many WebSockets open"}

    guard = guard_with(sockets_per_game=0)
    assert _refused(socket(guard)) == {
        "close": 1013, "type": "error", "code": "busy",
        "error": "this game has too many watchers right now"}


def test_a_refusal_to_a_client_that_never_connects_sends_nothing() -> None:
    guard = guard_with(sockets_per_game=0)
    sent: list[Message] = []
    scope = {"type": "websocket", "path": "/api/games/g/ws", "headers": [],
             "client": ("a", 1)}

    async def receive() -> Message:
        return {"type": "websocket.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    assert sent == []
    sent.clear()
    scope["headers"] = [(b"origin", b"https://evil.test"), (b"host", b"play.test")]
    asyncio.run(guard(scope, receive, send))
    assert sent == []


def test_the_rate_comes_first_then_the_client_s_cap_then_the_game_s() -> None:
    guard = guard_with(sockets_burst=1, sockets_per_client=0, sockets_per_game=0)
    guard.socket_opens.clock = lambda: 0.0
    assert _refused(socket(guard))["code"] == "busy"  # the client's cap (an open spent)
    assert _refused(socket(guard))["code"] == "rate_limited"
    guard = guard_with(sockets_per_client=0, sockets_per_game=0)
    assert _refused(socket(guard))["error"] == "this client has too many WebSockets open"


def test_a_failing_handler_frees_its_slots() -> None:
    class Failing(App):
        async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
            raise RuntimeError("the handler failed")

    guard = guard_with(Failing(), sockets_per_client=1, sockets_per_game=1)
    for _ in range(3):
        with pytest.raises(RuntimeError):
            socket(guard)
        assert guard.open_per_client == {} and guard.open_per_game == {}


# ---------------------------------------------------------------------- HTTP
@pytest.mark.parametrize("body", [b'"a string"', b"5", b"true", b"", b'"[[[["'])
def test_json_without_brackets_is_depth_0(body: bytes) -> None:
    assert json_depth(body) == 0


def test_a_body_without_brackets_reaches_the_app() -> None:
    """(The API answers 422 for it; the guard neither refuses it nor fails.)"""
    app = App()
    guard = guard_with(app, max_json_depth=0)
    for body in (b'"x"', b"12"):
        assert http(guard, "/api/x", body)[0] == 200
    assert [b for _, b in app.calls] == [b'"x"', b"12"]
    assert http(guard, "/api/x", b"[]")[0] == 400  # depth 1 > 0


@pytest.mark.parametrize(("size", "in_thread"), [(OFF_LOOP_BYTES, False),
                                                 (OFF_LOOP_BYTES + 1, True)])
def test_bodies_past_8_kb_are_depth_checked_in_a_thread(
        monkeypatch: pytest.MonkeyPatch, size: int, in_thread: bool) -> None:
    assert OFF_LOOP_BYTES == 8 * 1024
    threaded: list[Any] = []
    real = asyncio.to_thread

    async def to_thread(fn: Any, *args: Any) -> Any:
        threaded.append(fn)
        return await real(fn, *args)

    monkeypatch.setattr(guard_module.asyncio, "to_thread", to_thread)
    body = b"[[" + b" " * (size - 4) + b"]]"
    assert len(body) == size
    app = App()
    assert http(guard_with(app, max_json_depth=2), "/api/x", body)[0] == 200
    assert http(guard_with(app, max_json_depth=1), "/api/x", body)[0] == 400
    assert threaded == ([json_depth, json_depth] if in_thread else [])


def test_other_asgi_traffic_passes_untouched() -> None:
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope, receive, send))

    guard = Guard(app, Limits())

    async def receive() -> Message:
        return {"type": "lifespan.startup"}

    async def send(message: Message) -> None:
        pass

    scope = {"type": "lifespan"}
    asyncio.run(guard(scope, receive, send))
    assert seen == [(scope, receive, send)]


# ---------------------------------------------------------------------- the pieces
def test_a_rate_limiter_keeps_ten_thousand_clients_even_when_full() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=1, clock=lambda: now[0])
    for i in range(9_999):
        limiter.take(f"c{i}")
    now[0] = 5.0  # every bucket full again
    limiter.take("c9999")  # the 10 000th client: nothing forgotten yet
    assert len(limiter.buckets) == 10_000
    limiter.take("c10000")  # the 10 001st: the full buckets go
    assert set(limiter.buckets) == {"c9999", "c10000"}  # the two just spent


def test_a_rate_limiter_refills_from_its_last_take() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=30, burst=3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a") == pytest.approx(2.0)  # half a request a second
    now[0] = 1.0
    assert limiter.take("a") == pytest.approx(1.0)
    now[0] = 2.0
    assert limiter.take("a") == 0.0
    now[0] = 100.0  # never above the burst
    assert [limiter.take("a") for _ in range(4)][:3] == [0.0, 0.0, 0.0]
    assert limiter.take("a") > 0


def test_the_stored_client_key_stays_the_same_between_versions() -> None:
    assert client_key({"client": ("203.0.113.7", 1)}) == "c73fa70bc03988834b63d17e"
