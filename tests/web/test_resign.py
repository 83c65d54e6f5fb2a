"""Resigning (POST /api/games/{id}/resign): stored as a concession that every process and
a restart agree on, recorded, refused to spectators and in finished games."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from reliquary import default_content
from reliquary.engine import replay
from reliquary.web import create_app


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200
         ) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return dict(response.json())


def my_turn(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    """The view once the AI has answered (its driver runs beside the requests)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = dict(client.get(f"/api/games/{gid}", params={"t": token}).json())
        if view["decision"] and view["decision"]["mine"]:
            return view
        time.sleep(0.05)
    raise AssertionError("the AI did not answer within 30 s")


def test_resigning_against_the_ai_is_stored_recorded_and_replays(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(db, ai_delay=0)) as client:
        game = post(client, "/api/games", {"mode": "ai", "level": "easy", "seat": "skull"},
                    201)
        gid, token = game["id"], game["token"]
        view = my_turn(client, gid, token)
        spectator = post(client, f"/api/games/{gid}/resign",
                         {"token": "", "rev": view["rev"]}, 403)
        assert spectator["code"] == "forbidden"
        stale = post(client, f"/api/games/{gid}/resign",
                     {"token": token, "rev": "0"}, 409)
        assert stale["code"] == "stale" and stale["rev"] == view["rev"]
        view = my_turn(client, gid, token)
        over = post(client, f"/api/games/{gid}/resign", {"token": token, "rev": view["rev"]})
        assert over["result"]["reason"] == "resign"
        assert over["result"]["winner"] == "key"  # the AI's side wins
        assert over["decision"] is None and over["rev"] != view["rev"]
        assert over["result_text"]["es"] and over["result_text"]["en"]
        again = post(client, f"/api/games/{gid}/resign",
                     {"token": token, "rev": over["rev"]}, 409)
        assert again["code"] == "game_over"
        late = post(client, f"/api/games/{gid}/decide",
                    {"token": token, "rev": over["rev"], "option": "pass"}, 409)
        assert late["code"] == "game_over"
        record = client.get(f"/api/games/{gid}/record").json()
        assert record["result"]["reason"] == "resign"
        assert record["result"]["winner"] == "key"
        replayed = replay(record, default_content())
        assert replayed.state.result is not None
        assert replayed.state.result.reason == "resign"
    with TestClient(create_app(db, ai_delay=0)) as client:  # a restarted server agrees
        view = client.get(f"/api/games/{gid}").json()
        assert (view["result"]["reason"], view["result"]["winner"]) == ("resign", "key")


def test_a_resignation_in_one_process_is_seen_by_another(tmp_path: Path) -> None:
    """Two apps on one database file: the other one's cached game is not served on."""
    db = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(db, ai_delay=0)) as a, \
            TestClient(create_app(db, ai_delay=0)) as b:
        game = post(a, "/api/games", {"mode": "online"}, 201)
        gid, host = game["id"], game["token"]
        invite = game["links"]["invite"].split("invite=")[1]
        guest = post(b, f"/api/games/{gid}/claim", {"invite": invite})
        seen = b.get(f"/api/games/{gid}", params={"t": guest["token"]}).json()  # b caches
        assert seen["result"] is None
        host_view = a.get(f"/api/games/{gid}", params={"t": host}).json()
        over = post(a, f"/api/games/{gid}/resign", {"token": host, "rev": host_view["rev"]})
        assert over["result"]["winner"] == guest["seat"]
        seen = b.get(f"/api/games/{gid}", params={"t": guest["token"]}).json()
        assert (seen["result"]["reason"], seen["result"]["winner"]) == ("resign",
                                                                       guest["seat"])
        refused = post(b, f"/api/games/{gid}/resign",
                       {"token": guest["token"], "rev": seen["rev"]}, 409)
        assert refused["code"] == "game_over"


def test_on_one_screen_the_side_to_move_resigns(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", ai_delay=0)) as client:
        game = post(client, "/api/games", {"mode": "hotseat"}, 201)
        view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
        mover = view["decision"]["side"]
        over = post(client, f"/api/games/{game['id']}/resign",
                    {"token": game["token"], "rev": view["rev"]})
        assert over["result"]["winner"] == ("skull" if mover == "key" else "key")


def test_the_schema_documents_resign_and_its_refusals(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", ai_delay=0)) as client:
        operation = client.get("/openapi.json").json()["paths"][
            "/api/games/{game_id}/resign"]["post"]
        assert {"200", "400", "403", "404", "409", "410", "413", "415", "503"} <= set(
            operation["responses"])
        assert "Resign" in str(operation["requestBody"])


def test_the_short_way_for_decisions_answers_as_fastapi_does(tmp_path: Path) -> None:
    """Decisions skip FastAPI's machinery (reliquary.web.fast): the same view, the same
    refusals, and the security headers; a body the model refuses still goes to FastAPI."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", ai_delay=0)) as client:
        game = post(client, "/api/games", {"mode": "hotseat"}, 201)
        gid, token = game["id"], game["token"]
        view = client.get(f"/api/games/{gid}", params={"t": token}).json()
        answer = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": view["rev"], "option": view["decision"]["options"][0]})
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/json"
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.json() == client.get(f"/api/games/{gid}", params={"t": token}).json()
        stale = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": view["rev"], "option": "pass"})
        assert stale.status_code == 409 and stale.json()["rev"] == answer.json()["rev"]
        illegal = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": answer.json()["rev"], "option": "no-such-option"})
        assert (illegal.status_code, illegal.json()["code"]) == (422, "illegal_option")
        unknown = client.post("/api/games/0123456789abcdef/decide", json={
            "token": token, "rev": "1", "option": "pass"})
        assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
        malformed = client.post(f"/api/games/{gid}/decide", json={"token": token, "rev": 1})
        assert (malformed.status_code, malformed.json()["code"]) == (400, "bad_request")
        assert "option" in malformed.json()["error"]
