"""The server attacked again (issue 30), in one process: each finding as first written.

The findings that need a real server process (timeouts, forwarded headers, signals,
orphaned workers, one request holding up another) are in test_server_hardening.py."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from reliquary.web import create_app
from reliquary.web.db import Store, lobby_query
from reliquary.web.guard import Guard, Limits, json_depth

from .test_api import wait_for_turn

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[MakeClient]:
    opened: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        app = create_app(f"sqlite:///{tmp_path / 'hard.db'}", ai_delay=0,
                         limits=Limits(**limits))
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()


# ---------------------------------------------------------------------- 1. JSON depth
def quote_body(size: int) -> bytes:
    """The attack's body: a quote, then escaped quotes up to ``size`` bytes."""
    return b'"' + b'\\"' * ((size - 1) // 2)


def test_the_depth_check_reads_strings_and_escapes_right() -> None:
    assert json_depth(b"") == 0
    assert json_depth(b'{"a": [1, {"b": "x]]]"}]}') == 3
    assert json_depth(b'["\\\\", [["\\"[[["]]]') == 3  # an escaped backslash ends no string
    assert json_depth(b'"[[[[') == 0  # an unfinished string hides what follows
    assert json_depth(b"[" * 1000) == 1000
    assert json_depth(b"[]" * 1000) == 1


def test_the_depth_check_is_linear_on_the_attack_s_bodies() -> None:
    # The regular expression it replaced took 8 s on 64 KB and about two minutes on
    # 256 KB (quadratic); linear work on 256 KB takes milliseconds. The bound is loose
    # (a shared machine), the figures are in benchmarks/web_attack.py.
    for size in (64 * 1024, 256 * 1024):
        started = time.perf_counter()
        assert json_depth(quote_body(size)) == 0
        assert time.perf_counter() - started < 0.5
    started = time.perf_counter()
    assert json_depth(b"[" * 256 * 1024) == 256 * 1024
    assert time.perf_counter() - started < 0.5


def test_a_quote_body_at_the_size_limit_is_refused_as_bad_json(client: TestClient) -> None:
    response = client.post("/api/games", content=quote_body(256 * 1024 - 1),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert len(response.text) < 1000  # no echo of the body


def test_creation_is_rate_limited_before_the_depth_check(make_client: MakeClient) -> None:
    client = make_client(create_burst=1, create_per_minute=1, max_json_depth=2)
    assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
    deep = client.post("/api/games", json={"mode": "ai", "clock": {"a": [[1]]}})
    assert deep.status_code == 429  # the limit spent, nothing else is looked at


# ---------------------------------------------------------------------- 6. body timeout
def test_a_body_that_does_not_arrive_in_time_gets_a_408() -> None:
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def main() -> list[dict[str, Any]]:
        guard = Guard(app, Limits(body_timeout_s=0.2))
        sent: list[dict[str, Any]] = []
        first = [True]

        async def receive() -> dict[str, Any]:
            if first[0]:
                first[0] = False
                return {"type": "http.request", "body": b'{"mode":', "more_body": True}
            await asyncio.sleep(3600)  # the rest never comes
            raise AssertionError

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))

        scope = {"type": "http", "method": "POST", "path": "/api/games",
                 "headers": [(b"content-type", b"application/json")]}
        await asyncio.wait_for(guard(scope, receive, send), 5)
        return sent

    sent = asyncio.run(main())
    assert sent[0]["status"] == 408 and not reached
    assert json.loads(sent[1]["body"])["code"] == "timeout"


# ---------------------------------------------------------------------- 7. echo, 405, origin
def test_print_pdf_errors_do_not_echo_their_input(client: TestClient) -> None:
    for params in ({"paper": "p" * 60_000}, {"lang": "l" * 60_000}):
        response = client.get("/print.pdf", params=params)
        assert response.status_code == 400 and len(response.content) < 300
        assert "characters)" in response.json()["error"]


def test_a_post_to_a_get_only_route_is_405(client: TestClient) -> None:
    for path in ("/api/meta", "/api/lobby", "/"):
        for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/json"}):
            response = client.post(path, content=b"{}", headers=headers)
            assert response.status_code == 405, (path, headers, response.text)
    assert client.post("/api/games", content=b"{}").status_code == 415  # a POST route
    assert client.post("/api/no-such-route", json={}).status_code == 404


def test_websockets_from_another_site_are_refused(client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "hotseat"}).json()
    path = f"/api/games/{game['id']}/ws"
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect(path, headers={"origin": origin}):
            pass
        assert refused.value.code == 1008
    for headers in ({"origin": "http://testserver"}, {}):  # the page itself; no browser
        with client.websocket_connect(path, headers=headers) as socket:
            assert socket.receive_json()["type"] == "update"


def test_other_allowed_origins_come_from_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_ALLOWED_ORIGINS", "https://play.example.org/, x")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}", ai_delay=0)) as client:
        game = client.post("/api/games", json={"mode": "hotseat"}).json()
        with client.websocket_connect(f"/api/games/{game['id']}/ws",
                                      headers={"origin": "https://play.example.org"}) as ws:
            assert ws.receive_json()["type"] == "update"


# ---------------------------------------------------------------------- 4. the lobby
def test_one_client_cannot_fill_the_lobby(make_client: MakeClient) -> None:
    client = make_client(lobby_per_client=2)
    for _ in range(2):
        assert client.post("/api/games", json={"mode": "online", "public": True}
                           ).status_code == 201
    refused = client.post("/api/games", json={"mode": "online", "public": True})
    assert refused.status_code == 429 and "lobby" in refused.json()["error"]
    assert client.post("/api/games", json={"mode": "online"}).status_code == 201  # private
    assert len(client.get("/api/lobby").json()["games"]) == 2
    game = client.get("/api/lobby").json()["games"][0]
    assert client.post(f"/api/games/{game['id']}/join", json={}).status_code == 200
    assert client.post("/api/games", json={"mode": "online", "public": True}
                       ).status_code == 201  # a guest came: a place is free again


def test_the_lobby_query_reads_an_index(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'plan.db'}")
    query = lobby_query(50).compile(store.engine,
                                         compile_kwargs={"literal_binds": True})
    with store.engine.connect() as conn:
        plan = " ".join(str(row[-1]) for row in conn.execute(text(f"EXPLAIN QUERY PLAN {query}")))
    assert "games_lobby" in plan and "TEMP B-TREE" not in plan, plan


# ---------------------------------------------------------------------- 8. durability
def test_sqlite_syncs_every_commit(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'sync.db'}")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar_one() == 2  # FULL


# ---------------------------------------------------------------------- 5. secret faction
def test_the_same_faction_undo_asks_both_choices_again(client: TestClient) -> None:
    """The AI (key) chooses first; the human picks the same faction ("both chose the
    same faction"), so the human knows the AI's choice. An undo must not bring that
    choice back: both choose again."""
    game = client.post("/api/games", json={"mode": "ai", "seat": "skull", "level": "easy",
                                           "quick": False}).json()
    gid, token = game["id"], game["token"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    view = wait_for_turn(client, gid, token)
    while view["decision"]["kind"] != "faction":  # the ruins
        view = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": view["rev"], "option": view["decision"]["options"][0]}
            ).json()
        view = wait_for_turn(client, gid, token)
    assert view["position"]["secret_factions"]["key"] == "hidden"
    history = list(manager.session(gid).game.history)
    ai_pick = history[-1]
    assert ai_pick.kind == "faction" and ai_pick.player == 0
    view = client.post(f"/api/games/{gid}/decide", json={
        "token": token, "rev": view["rev"], "option": ai_pick.token}).json()
    view = wait_for_turn(client, gid, token)  # both chose the same: the AI chose again
    assert view["decision"]["kind"] == "faction" and view["undo"]
    response = client.post(f"/api/games/{gid}/undo", json={"token": token, "rev": view["rev"]})
    assert response.status_code == 200, response.text
    back = response.json()
    assert back["seq"] == len(history) - 1  # before the AI's first choice
    assert back["position"]["secret_factions"] == {"key": None, "skull": None}


# ---------------------------------------------------------------------- 11. slow reads
def test_a_replay_is_read_off_the_event_loop(client: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from reliquary.web import games as web_games

    from .test_trust import record_of

    loaded = client.post("/api/records", json=record_of()).json()
    assert client.get(f"/api/games/{loaded['id']}").status_code == 200  # in the cache
    replaying = web_games.new_session

    def slow_replay(*args: Any) -> Any:
        time.sleep(3.0)  # a long game replayed: CPU work that holds its thread
        return replaying(*args)

    monkeypatch.setattr(web_games, "new_session", slow_replay)
    monkeypatch.setattr("reliquary.web.routes.new_session", slow_replay)
    answers: dict[str, float] = {}

    def replay() -> None:
        assert client.get(f"/api/games/{loaded['id']}/replay", params={"at": 3}
                          ).status_code == 200

    worker = threading.Thread(target=replay)
    worker.start()
    time.sleep(0.3)  # the replay is under way
    began = time.perf_counter()
    assert client.get("/api/meta").status_code == 200
    answers["meta"] = time.perf_counter() - began
    worker.join()
    assert answers["meta"] < 1.5, answers  # it did not wait for the replay (2.7 s more)
