"""The server as an attacker tries it (issue 7): seat secrecy, one history, bad input,
limits and headers — each finding as first written, and each limit."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text, update
from starlette.websockets import WebSocketDisconnect

from reliquary import default_content
from reliquary.engine import Game, Settings
from reliquary.web import create_app
from reliquary.web.db import games
from reliquary.web.games import undo_count
from reliquary.web.guard import Limits, RateLimiter, json_depth

from .test_api import wait_for_turn

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[MakeClient]:
    """A factory of test clients on one database file, with chosen limits."""
    opened: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        app = create_app(f"sqlite:///{tmp_path / 'trust.db'}", ai_delay=0,
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


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def get(client: TestClient, game_id: str, token: str | None = None,
        status: int = 200) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"t": token} if token else {})
    assert response.status_code == status, response.text
    return dict(response.json())


def decide(client: TestClient, game_id: str, token: str, view: dict[str, Any],
           option: str | None = None) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/decide", json={
        "token": token, "rev": view["rev"], "option": option or view["decision"]["options"][0]})
    assert response.status_code == 200, response.text
    return dict(response.json())


def claim(client: TestClient, game: dict[str, Any]) -> tuple[str, Any]:
    """Claim an online game's invite: the invite code and the answer."""
    code = game["links"]["invite"].split("?invite=")[1]
    response = client.post(f"/api/games/{game['id']}/claim", json={"invite": code})
    return code, response


# ---------------------------------------------------------------------- seat secrecy
def test_the_host_cannot_use_the_invite_after_the_claim_nor_see_the_guest_secret(
        client: TestClient) -> None:
    """Finding 2 as first written: the host keeps the invite link and tries to play the
    guest's seat and read the guest's secret faction before choosing their own."""
    game = new_game(client, mode="online", seat="skull", quick=False)
    host = game["token"]
    code, response = claim(client, game)
    assert response.status_code == 200
    guest = response.json()["token"]
    assert guest != code and guest != host and response.json()["seat"] == "key"
    # The invite is used up, and it never was a seat token.
    again = client.post(f"/api/games/{game['id']}/claim", json={"invite": code})
    assert again.status_code == 409 and again.json()["code"] == "invite_used"
    assert get(client, game["id"], code, status=403)["code"] == "forbidden"
    view = get(client, game["id"], guest)
    for _ in range(200):  # play the setup up to the guest's (Key's) secret faction choice
        if view["decision"]["kind"] == "faction":
            break
        mover = guest if view["decision"]["side"] == "key" else host
        view = decide(client, game["id"], mover, get(client, game["id"], mover))
    assert view["decision"]["kind"] == "faction" and view["decision"]["side"] == "key"
    view = get(client, game["id"], guest)
    refused = client.post(f"/api/games/{game['id']}/decide", json={
        "token": code, "rev": view["rev"], "option": "lantern-bearers"})
    assert refused.status_code == 403
    decide(client, game["id"], guest, view, "lantern-bearers")
    # Everything the host (or anyone but the guest) can read keeps the choice hidden.
    host_view = get(client, game["id"], host)
    assert host_view["position"]["secret_factions"]["key"] == "hidden"
    assert host_view["decision"]["mine"] and host_view["decision"]["kind"] == "faction"
    host_view["decision"]["options"] = []  # the host's own choices name every faction
    readable = [host_view, get(client, game["id"])]
    for path in ("record", "replay", "events?since=0"):
        readable.append(client.get(f"/api/games/{game['id']}/{path}").text)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        readable.append(socket.receive_json())
    for seen in readable:
        assert "lantern-bearers" not in json.dumps(seen)
        assert guest not in json.dumps(seen)
    assert get(client, game["id"], guest)["position"]["secret_factions"]["key"] == \
        "lantern-bearers"


def test_only_the_viewer_s_own_token_is_in_a_view(client: TestClient) -> None:
    game = new_game(client, mode="online", seat="key")
    before = get(client, game["id"], game["token"])
    assert before["links"]["invite"] == game["links"]["invite"]
    assert "invite" not in get(client, game["id"])["links"]  # spectators never see it
    _, response = claim(client, game)
    guest = response.json()["token"]
    after = get(client, game["id"], game["token"])
    assert "invite" not in after["links"] and guest not in json.dumps(after)
    # The claim is a change of the views: a new revision, which the claim answers with.
    assert after["rev"] != before["rev"] and response.json()["rev"] == after["rev"]
    assert game["token"] not in json.dumps(get(client, game["id"], guest))


def test_a_wrong_invite_is_refused_and_leaves_the_seat_open(client: TestClient) -> None:
    game = new_game(client, mode="online")
    wrong = client.post(f"/api/games/{game['id']}/claim", json={"invite": "guess"})
    assert wrong.status_code == 403
    assert claim(client, game)[1].status_code == 200


# ---------------------------------------------------------------------- lobby, rematch
def test_the_lobby_lists_public_games_until_someone_joins(client: TestClient) -> None:
    public = new_game(client, mode="online", public=True, seat="skull",
                      clock={"initial_s": 600, "increment_s": 5})
    private = new_game(client, mode="online")
    listed = client.get("/api/lobby").json()["games"]
    assert [g["id"] for g in listed] == [public["id"]]
    assert listed[0]["host_seat"] == "skull" and listed[0]["clock"]["initial_s"] == 600
    assert listed[0]["settings"]["size"] == 8
    refused = client.post(f"/api/games/{private['id']}/join", json={})
    assert refused.status_code == 403
    joined = client.post(f"/api/games/{public['id']}/join", json={})
    assert joined.status_code == 200 and joined.json()["seat"] == "key"
    assert get(client, public["id"], joined.json()["token"])["seats"] == ["key"]
    second = client.post(f"/api/games/{public['id']}/join", json={})
    assert second.status_code == 409 and second.json()["code"] == "invite_used"
    assert client.get("/api/lobby").json()["games"] == []
    assert client.post("/api/games", json={"mode": "ai", "public": True}).status_code == 400


def play_out(client: TestClient, game_id: str, tokens: dict[str, str],
             rng: random.Random) -> dict[str, Any]:
    view = get(client, game_id)
    while not view["result"]:
        token = tokens[view["decision"]["side"]]
        mine = get(client, game_id, token)
        view = decide(client, game_id, token, mine, rng.choice(mine["decision"]["options"]))
    return view


def test_an_online_rematch_swaps_seats_and_invites_the_opponent(client: TestClient) -> None:
    game = new_game(client, mode="online", seat="key", round_cap=2)  # (a short game)
    _, response = claim(client, game)
    tokens = {"key": game["token"], "skull": response.json()["token"]}
    early = client.post(f"/api/games/{game['id']}/rematch", json={"token": tokens["key"]})
    assert early.status_code == 409  # the game goes on
    end = play_out(client, game["id"], tokens, random.Random(7))
    assert end["result"]["reason"] and "tiebreak" in end["result"]
    asked = client.post(f"/api/games/{game['id']}/rematch", json={"token": tokens["key"]})
    assert asked.status_code == 201, asked.text
    rematch = asked.json()
    assert rematch["seat"] == "skull"  # the requester takes the other seat
    twice = client.post(f"/api/games/{game['id']}/rematch", json={"token": tokens["key"]})
    assert twice.json()["id"] == rematch["id"]  # asking again: the same game
    offered = get(client, game["id"], tokens["skull"])["rematch"]
    assert offered["id"] == rematch["id"] and "?invite=" in offered["link"]
    assert rematch["token"] not in json.dumps(get(client, game["id"], tokens["skull"]))
    accepted = client.post(f"/api/games/{game['id']}/rematch", json={"token": tokens["skull"]})
    assert accepted.status_code == 201 and accepted.json()["seat"] == "key"
    assert get(client, rematch["id"], accepted.json()["token"])["seats"] == ["key"]
    assert get(client, rematch["id"], rematch["token"])["open_seat"] is None


def test_an_ai_rematch_keeps_level_and_seat(client: TestClient) -> None:
    game = new_game(client, mode="hotseat", size=9, round_cap=2)
    play_out(client, game["id"], {"key": game["token"], "skull": game["token"]},
             random.Random(3))
    again = client.post(f"/api/games/{game['id']}/rematch", json={"token": game["token"]})
    assert again.status_code == 201
    view = get(client, again.json()["id"], again.json()["token"])
    assert view["mode"] == "hotseat" and view["position"]["settings"]["size"] == 9
    assert view["position"]["settings"]["round_cap"] == 2
    assert get(client, game["id"], game["token"])["rematch"]["id"] == again.json()["id"]


# ---------------------------------------------------------------------- undo
def test_undo_against_the_ai_takes_back_its_reply_too(client: TestClient) -> None:
    game = new_game(client, mode="ai", seat="key", level="easy")
    token = game["token"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    for _attempt in range(6):
        view = wait_for_turn(client, game["id"], token)
        if view["result"]:
            break
        start = view
        while True:  # one whole turn of the human
            view = decide(client, game["id"], token, view)
            if view["result"] or not view["decision"]["mine"]:
                break
        view = wait_for_turn(client, game["id"], token)
        if view["result"]:
            break
        history = manager.session(game["id"]).game.history[start["seq"]:]
        response = client.post(f"/api/games/{game['id']}/undo",
                               json={"token": token, "rev": view["rev"]})
        if any(e.player == -1 for e in history):  # a die was rolled: no take-back
            assert response.status_code == 409
            assert response.json()["code"] == "undo_refused"
            continue
        assert response.status_code == 200, response.text
        back = response.json()
        assert back["seq"] == start["seq"] and back["position"] == start["position"]
        assert back["decision"]["mine"] and back["rev"] not in (start["rev"], view["rev"])
        return
    pytest.fail("no turn could be taken back in six tries")


def test_undo_never_goes_past_a_chance_outcome_or_into_the_setup() -> None:
    content = default_content()
    rng = random.Random(5)
    checked = 0
    for _game in range(6):
        game = Game(content, Settings())
        while not game.state.is_terminal:
            game.apply(rng.choice(game.state.legal_options()))
            history = game.history
            for seats, ai in ((frozenset({0, 1}), None), (frozenset({0}), 1)):
                count = undo_count(history, seats, ai)
                taken = history[len(history) - count:] if count else []
                assert all(e.player != -1 for e in taken)
                if count and any(e.kind == "play" for e in history):
                    assert taken[0].kind == "play"  # from the start of a turn
                checked += bool(count)
    assert checked > 100


# ---------------------------------------------------------------------- one history
def test_a_game_that_does_not_replay_is_quarantined_not_a_500(
        make_client: MakeClient, caplog: pytest.LogCaptureFixture) -> None:
    first = make_client()
    games_made = [new_game(first, mode=mode, seat="skull") for mode in ("hotseat", "ai")]
    manager = first.app.state.manager  # type: ignore[attr-defined]
    with manager.store.engine.begin() as conn:  # histories no engine accepts
        for game in games_made:
            conn.execute(text("UPDATE moves SET token = 'z99' WHERE game_id = :g AND idx = 3"),
                         {"g": game["id"]})
    with caplog.at_level(logging.ERROR):
        client = make_client()  # a server started on that database: it starts all the same
        broken = client.get(f"/api/games/{games_made[0]['id']}")
    assert broken.status_code == 410 and broken.json()["code"] == "gone"
    assert any("quarantined" in r.message for r in caplog.records)
    for game in games_made:
        for path in ("", "/record", "/replay"):  # the same clear answer from then on
            assert client.get(f"/api/games/{game['id']}{path}").status_code == 410
        assert manager.store.get_game(game["id"]).status == "quarantined"
    assert new_game(client, mode="hotseat")["id"]  # the others go on


def test_unfinished_untouched_games_expire(make_client: MakeClient) -> None:
    client = make_client(expire_after_s=3600)
    old = new_game(client, mode="ai", seat="skull")
    fresh = new_game(client, mode="hotseat")
    lobby_game = new_game(client, mode="online", public=True)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with manager.store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id.in_([old["id"], lobby_game["id"]]))
                     .values(touched=time.time() - 7200))
    gone = client.get(f"/api/games/{old['id']}", params={"t": old["token"]})
    assert gone.status_code == 410 and "expired" in gone.json()["error"]
    assert get(client, fresh["id"])["mode"] == "hotseat"
    assert client.get("/api/lobby").json()["games"] == []
    # Not replayed at the next start either.
    assert old["id"] not in manager.store.unfinished_ids(time.time() - 3600)


# ---------------------------------------------------------------------- bad input
def record_of(seed: int = 2) -> dict[str, Any]:
    game = Game(default_content(), Settings())
    rng = random.Random(seed)
    while not game.state.is_terminal:
        game.apply(rng.choice(game.state.legal_options()))
    return game.record()


@pytest.mark.parametrize("case", [
    "deep json", "very deep json", "faction list", "faction object", "quick string",
    "size string", "huge round cap", "long level", "unknown field", "body a list",
    "body a string", "clock out of range", "clock not an object", "public string",
])
def test_bad_new_games_get_a_4xx_with_a_message(client: TestClient, case: str) -> None:
    bodies: dict[str, Any] = {
        "deep json": "[" * 1200 + "]" * 1200,
        "very deep json": '{"a":' * 30_000 + "1" + "}" * 30_000,
        "faction list": {"faction": ["pyre-choir"]},
        "faction object": {"faction": {"id": "pyre-choir"}},
        "quick string": {"quick": "false"},
        "size string": {"size": "8"},
        "huge round cap": {"round_cap": 10**12},
        "long level": {"mode": "ai", "level": "x" * 5000},
        "unknown field": {"mode": "ai", "lvl": "easy"},
        "body a list": [{"mode": "ai"}],
        "body a string": "ai",
        "clock out of range": {"mode": "online", "clock": {"initial_s": 1}},
        "clock not an object": {"mode": "online", "clock": "10+5"},
        "public string": {"mode": "online", "public": "yes"},
    }
    body = bodies[case]
    raw = body if isinstance(body, str) and case.endswith("json") else json.dumps(body)
    response = client.post("/api/games", content=raw.encode(),
                           headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500 and response.status_code != 404
    error = response.json()
    assert error["code"] == "bad_request" and error["error"]
    assert len(response.text) < 1000  # the input is never echoed back


def test_the_rule_variants_are_accepted_and_checked_by_the_engine(client: TestClient) -> None:
    variants = {"regroup_limit": 2, "vigil_reset": "hero", "vigil_start": 4,
                "killed_minions": "removed", "round_cap": 50}
    game = new_game(client, mode="hotseat", **variants)
    settings = get(client, game["id"])["position"]["settings"]
    assert {k: settings[k] for k in variants} == variants
    for bad, field in (({"vigil_start": 9}, "vigil_start"), ({"vigil_reset": "never"},
                                                             "vigil_reset"),
                       ({"killed_minions": "eaten"}, "killed_minions"),
                       ({"regroup_limit": -1}, "regroup_limit")):
        response = client.post("/api/games", json={"mode": "hotseat", **bad})
        assert response.status_code == 400 and field in response.json()["error"], bad


def test_quick_false_is_read_as_false(client: TestClient) -> None:
    game = new_game(client, mode="hotseat", quick=False)
    assert get(client, game["id"])["phase"] == "setup"


@pytest.mark.parametrize("case", [
    "size 1", "size 20", "size 26", "content a string", "meta a string", "meta a list",
    "truncated with no result", "turns not lists", "token a number", "settings a list",
    "unknown setting", "wrong result", "not a record",
])
def test_bad_records_get_a_400_with_a_message(client: TestClient, case: str) -> None:
    record = record_of()
    if case.startswith("size"):
        record["settings"]["size"] = int(case.split()[1])
    elif case == "content a string":
        record["content"] = "default"
    elif case == "meta a string":
        record["meta"] = "x"
    elif case == "meta a list":
        record["meta"] = [1, 2]
    elif case == "truncated with no result":
        record["turns"] = record["turns"][:5]
        record["result"] = None
    elif case == "turns not lists":
        record["turns"] = ["b3"]
    elif case == "token a number":
        record["setup"] = [3, *record["setup"][1:]]
    elif case == "settings a list":
        record["settings"] = [8]
    elif case == "unknown setting":
        record["settings"]["gravity"] = 2
    elif case == "wrong result":
        record["result"]["winner"] = "skull" if record["result"]["winner"] == "key" else "key"
    elif case == "not a record":
        record = {"format": "chess"}
    response = client.post("/api/records", json=record)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_request" and response.json()["error"]
    if case == "truncated with no result":
        assert "before the game is over" in response.json()["error"]


def test_a_huge_illegal_option_is_refused_without_echo(make_client: MakeClient) -> None:
    client = make_client(max_body_bytes=2 * 1024 * 1024)
    game = new_game(client, mode="hotseat")
    view = get(client, game["id"])
    for option in ("q" * 1_000_000, "q" * 65):  # within the body limit: too long a token
        response = client.post(f"/api/games/{game['id']}/decide", json={
            "token": game["token"], "rev": view["rev"], "option": option})
        assert response.status_code == 400 and len(response.text) < 1000
    with_default = make_client()
    response = with_default.post(f"/api/games/{game['id']}/decide", json={
        "token": game["token"], "rev": view["rev"], "option": "q" * 10_000_000})
    assert response.status_code == 413 and response.json()["code"] == "too_large"


@pytest.mark.parametrize("path, body", [
    ("decide", {"token": ["x"], "rev": "1", "option": "a1"}),
    ("decide", {"token": "x", "rev": None, "option": "a1"}),
    ("decide", {"token": "x", "rev": "1", "option": {"card": "Bolt"}}),
    ("undo", {"token": "x"}),
    ("claim", {"invite": 5}),
    ("join", {"anything": 1}),
    ("rematch", {}),
])
def test_bad_game_requests_get_a_400(client: TestClient, path: str,
                                     body: dict[str, Any]) -> None:
    game = new_game(client, mode="online")
    response = client.post(f"/api/games/{game['id']}/{path}", json=body)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


# ---------------------------------------------------------------------- limits, headers
def test_creating_games_is_rate_limited_per_client(make_client: MakeClient) -> None:
    client = make_client(create_burst=3, create_per_minute=1)
    for _ in range(3):
        new_game(client, mode="hotseat")
    refused = client.post("/api/games", json={"mode": "hotseat"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    assert client.post("/api/records", json=record_of()).status_code == 429
    assert client.get("/api/lobby").status_code == 200  # reading is not limited


def test_a_rate_limiter_refills() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=2, clock=lambda: now[0])
    assert limiter.take("a") == 0 and limiter.take("a") == 0
    assert limiter.take("a") > 0 and limiter.take("b") == 0  # per client
    now[0] = 1.0
    assert limiter.take("a") == 0


def receive_refusal(client: TestClient, path: str) -> tuple[str, int]:
    with client.websocket_connect(path) as socket:
        message = socket.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    return message["code"], closed.value.code


def test_websockets_are_rate_limited_and_capped(make_client: MakeClient) -> None:
    client = make_client(sockets_burst=3, sockets_per_minute=1, sockets_per_game=1)
    game = new_game(client, mode="hotseat")
    path = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(path) as first:
        assert first.receive_json()["type"] == "update"
        assert receive_refusal(client, path) == ("busy", 1013)  # one per game
    with client.websocket_connect(path) as again:  # the first one's slot was freed
        assert again.receive_json()["type"] == "update"
    assert receive_refusal(client, path) == ("rate_limited", 4429)


def test_a_websocket_to_an_unknown_game_says_so(client: TestClient) -> None:
    assert receive_refusal(client, "/api/games/0123456789abcdef/ws") == ("not_found", 4404)


def test_bodies_over_the_limit_are_413(make_client: MakeClient) -> None:
    client = make_client(max_body_bytes=1000)
    response = client.post("/api/games", json={"mode": "ai", "level": "x" * 2000})
    assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_json_nested_past_the_limit_is_400(make_client: MakeClient) -> None:
    client = make_client(max_json_depth=4)
    deep = {"mode": "ai", "clock": {"a": [[[1]]]}}
    assert json_depth(json.dumps(deep).encode()) == 5
    assert json_depth(b'{"s": "[[[[[[[["}') == 1  # brackets in strings do not count
    response = client.post("/api/games", json=deep)
    assert response.status_code == 400 and "deeper than 4" in response.json()["error"]


def test_security_headers_and_json_only_posts(client: TestClient) -> None:
    for path in ("/", "/api/meta", "/no-such-page"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
    before = client.get("/api/lobby").json()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        response = client.post("/api/games", content=b'{"mode": "online", "public": true}',
                               headers={"Content-Type": kind})
        assert response.status_code == 415
        assert response.json()["code"] == "unsupported_media_type"
    assert client.post("/api/games", content=b"{}").status_code == 415  # no type at all
    assert client.get("/api/lobby").json() == before  # nothing was created


def test_unknown_pages_get_an_html_404_and_unknown_games_a_json_one(
        client: TestClient) -> None:
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "not found" in page.text.lower()
    api = client.get("/api/games/0123456789abcdef")
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    assert client.get("/api/no-such-route").json()["code"] == "not_found"


def test_limits_come_from_the_environment() -> None:
    limits = Limits.from_env({"RELIQUARY_CREATE_BURST": "5",
                              "RELIQUARY_EXPIRE_AFTER_S": "60"})
    assert limits.create_burst == 5 and limits.expire_after_s == 60.0
    assert limits.max_body_bytes == Limits().max_body_bytes
    with pytest.raises(ValueError, match="RELIQUARY_MAX_JSON_DEPTH"):
        Limits.from_env({"RELIQUARY_MAX_JSON_DEPTH": "deep"})
