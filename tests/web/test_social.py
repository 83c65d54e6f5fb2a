"""Online play beyond the moves (issue 28), through the API without a browser: the host
waits for the guest, presence, draw offers and take-back requests, preset messages,
the invite's QR code, a past turn of a game in progress, the setup's hints, and the
take-back that went back into the setup (bug 1)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary import default_content, replay
from reliquary.web import create_app
from reliquary.web.social import MESSAGES_KEPT, PRESETS, invite_qr


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'social.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def ok(response: Any) -> Any:
    assert response.status_code < 300, response.text
    return response.json()


def view(client: TestClient, game_id: str, token: str | None = None) -> Any:
    return ok(client.get(f"/api/games/{game_id}", params={"t": token} if token else {}))


def social(client: TestClient, game_id: str, token: str | None = None) -> Any:
    return ok(client.get(f"/api/games/{game_id}/social",
                         params={"t": token} if token else {}))


def online(client: TestClient, join: bool = True) -> dict[str, Any]:
    """An online game (quick setup): the host's answer, and the guest's token once joined."""
    game: dict[str, Any] = ok(client.post("/api/games", json={"mode": "online", "seat": "key"}))
    game["host"] = game["token"]
    if join:
        code = game["links"]["invite"].split("?invite=")[1]
        game["guest"] = ok(client.post(f"/api/games/{game['id']}/claim",
                                       json={"invite": code}))["token"]
    return game


def mover(game: dict[str, Any], v: dict[str, Any]) -> str:
    """The token of the seat whose decision it is."""
    return str(game["host"] if v["decision"]["side"] == "key" else game["guest"])


def play_turn(client: TestClient, game: dict[str, Any], rng: random.Random) -> Any:
    """One whole turn, random legal decisions, by whichever seat is to move."""
    v = view(client, game["id"], game["host"])
    turns = sum(v["position"]["turns_taken"].values())
    while not v["result"] and sum(v["position"]["turns_taken"].values()) == turns:
        token = mover(game, v)
        mine = view(client, game["id"], token)
        v = ok(client.post(f"/api/games/{game['id']}/decide",
                           json={"token": token, "rev": mine["rev"],
                                 "option": rng.choice(mine["decision"]["options"])}))
    return v


def offer(client: TestClient, game_id: str, token: str, kind: str) -> Any:
    rev = view(client, game_id, token)["rev"]
    return client.post(f"/api/games/{game_id}/offer",
                       json={"token": token, "rev": rev, "kind": kind})


def reply(client: TestClient, game_id: str, token: str, accept: bool) -> Any:
    rev = view(client, game_id, token)["rev"]
    return client.post(f"/api/games/{game_id}/offer/reply",
                       json={"token": token, "rev": rev, "accept": accept})


# ---------------------------------------------------------------------- bug 1
@pytest.mark.parametrize("seat", ["key", "skull"])
def test_no_take_back_into_the_setup_at_the_first_turn(client: TestClient, seat: str) -> None:
    for _ in range(30):  # either side may move first: a game where the human does
        game = ok(client.post("/api/games", json={"mode": "hotseat", "seat": seat}))
        v = view(client, game["id"], game["token"])
        assert v["phase"] == "play"
        if v["decision"]["side"] == seat:
            break
    assert v["decision"]["side"] == seat and v["decision"]["mine"]
    assert sum(v["position"]["turns_taken"].values()) == 0
    assert v["undo"] is False
    refused = client.post(f"/api/games/{game['id']}/undo",
                          json={"token": game["token"], "rev": v["rev"]})
    assert refused.status_code == 409 and refused.json()["code"] == "undo_refused"
    assert view(client, game["id"], game["token"])["seq"] == v["seq"]


def test_hot_seat_setup_decisions_are_still_taken_back_during_the_setup(
        client: TestClient) -> None:
    game = ok(client.post("/api/games", json={"mode": "hotseat", "quick": False}))
    v = view(client, game["id"], game["token"])
    v = ok(client.post(f"/api/games/{game['id']}/decide",
                       json={"token": game["token"], "rev": v["rev"],
                             "option": v["decision"]["options"][0]}))
    assert v["phase"] == "setup" and v["undo"] is True
    back = ok(client.post(f"/api/games/{game['id']}/undo",
                          json={"token": game["token"], "rev": v["rev"]}))
    assert back["seq"] == v["seq"] - 1


# ---------------------------------------------------------------------- waiting, presence
def test_the_host_waits_for_the_guest_then_plays(client: TestClient) -> None:
    for _ in range(30):  # a game where the host (Key) moves first
        game = online(client, join=False)
        v = view(client, game["id"], game["host"])
        if v["decision"]["side"] == "key":
            break
    assert v["open_seat"] == "skull" and v["decision"]["mine"]
    refused = client.post(f"/api/games/{game['id']}/decide",
                          json={"token": game["host"], "rev": v["rev"],
                                "option": v["decision"]["options"][0]})
    assert refused.status_code == 409 and refused.json()["code"] == "waiting_for_guest"
    assert view(client, game["id"], game["host"])["seq"] == v["seq"]
    code = game["links"]["invite"].split("?invite=")[1]
    game["guest"] = ok(client.post(f"/api/games/{game['id']}/claim",
                                   json={"invite": code}))["token"]
    after = play_turn(client, game, random.Random(1))
    assert sum(after["position"]["turns_taken"].values()) == 1


def test_presence_joined_connected_and_away(client: TestClient) -> None:
    game = online(client, join=False)
    gid = game["id"]
    start = social(client, gid, game["host"])["presence"]
    assert start["key"] == {"joined": True, "connected": False, "away_s": None}
    assert start["skull"]["joined"] is False
    with client.websocket_connect(f"/api/games/{gid}/ws/social?t={game['host']}") as host:
        first = host.receive_json()
        assert first["type"] == "social" and first["presence"]["key"]["connected"] is True
        code = game["links"]["invite"].split("?invite=")[1]
        guest = ok(client.post(f"/api/games/{gid}/claim", json={"invite": code}))["token"]
        assert social(client, gid)["presence"]["skull"]["joined"] is True
        with client.websocket_connect(f"/api/games/{gid}/ws/social?t={guest}") as sock:
            sock.receive_json()
            update = host.receive_json()
            assert update["presence"]["skull"]["connected"] is True
        gone = host.receive_json()  # the guest's tab closed
        assert gone["presence"]["skull"]["connected"] is False
        assert gone["presence"]["skull"]["away_s"] is not None
        assert gone["presence"]["skull"]["away_s"] >= 0
    later = social(client, gid)["presence"]
    assert later["key"]["connected"] is False and later["key"]["away_s"] >= 0
    # a token of no seat is refused
    with client.websocket_connect(f"/api/games/{gid}/ws/social?t=nope") as bad:
        assert bad.receive_json()["code"] == "forbidden"


# ---------------------------------------------------------------------- offers
def test_a_draw_offer_accepted_ends_the_game_drawn_for_good(client: TestClient,
                                                            tmp_path: Path) -> None:
    game = online(client)
    gid = game["id"]
    play_turn(client, game, random.Random(2))
    assert social(client, gid, game["host"])["can_offer"]["draw"] is True
    made = offer(client, gid, game["host"], "draw")
    assert made.status_code == 200 and made.json()["offer"]["mine"] is True
    seen = social(client, gid, game["guest"])
    assert seen["offer"] == {"kind": "draw", "by": "key", "mine": False,
                             "rev": seen["offer"]["rev"]}
    assert seen["can_offer"] == {"draw": False, "takeback": False}  # one offer at a time
    again = offer(client, gid, game["guest"], "draw")
    assert again.status_code == 409 and again.json()["code"] == "offer_pending"
    own = reply(client, gid, game["host"], True)  # one's own offer is not one's to accept
    assert own.status_code == 409
    done = ok(reply(client, gid, game["guest"], True))
    assert done["result"]["winner"] is None and done["result"]["reason"] == "agreed"
    assert "agreed" in done["result_text"]["en"] and "tablas" in done["result_text"]["es"]
    # stored: a fresh server on the same database, and the record, say the same
    record = ok(client.get(f"/api/games/{gid}/record"))
    assert record["result"]["reason"] == "agreed"
    result = replay(record, default_content()).state.result
    assert result is not None and result.reason == "agreed" and result.winner is None
    url = str(client.app.state.manager.store.engine.url)  # type: ignore[attr-defined]
    with TestClient(create_app(url, ai_delay=0)) as fresh:
        assert view(fresh, gid)["result"]["reason"] == "agreed"
    assert offer(client, gid, game["host"], "draw").json()["code"] == "game_over"


def test_a_declined_offer_waits_for_the_next_move_and_offers_lapse(client: TestClient
                                                                   ) -> None:
    game = online(client)
    gid = game["id"]
    rng = random.Random(3)
    play_turn(client, game, rng)
    ok(offer(client, gid, game["host"], "draw"))
    declined = ok(reply(client, gid, game["guest"], False))
    assert declined["result"] is None
    assert social(client, gid, game["guest"])["offer"] is None
    refused = offer(client, gid, game["host"], "draw")
    assert refused.status_code == 409 and refused.json()["code"] == "offer_refused"
    assert "declined" in refused.json()["error"]
    assert social(client, gid, game["guest"])["can_offer"]["draw"] is True  # the other may
    play_turn(client, game, rng)  # the game moves on: the host may offer again …
    ok(offer(client, gid, game["host"], "draw"))
    play_turn(client, game, rng)  # … and an offer lapses when the game moves on
    assert social(client, gid, game["guest"])["offer"] is None
    assert reply(client, gid, game["guest"], True).json()["code"] == "no_offer"
    ok(offer(client, gid, game["guest"], "draw"))  # withdrawn by its maker
    ok(reply(client, gid, game["guest"], False))
    assert social(client, gid, game["host"])["offer"] is None


def test_a_take_back_request_accepted_goes_back_one_turn(client: TestClient) -> None:
    rng = random.Random(4)
    for _ in range(20):  # a first turn with no die rolled (a roll is never taken back)
        game = online(client)
        gid = game["id"]
        start = view(client, gid, game["host"])
        first = start["decision"]["side"]
        asker = game["host"] if first == "key" else game["guest"]
        answerer = game["guest"] if asker == game["host"] else game["host"]
        assert social(client, gid, asker)["can_offer"]["takeback"] is False  # nothing played
        assert offer(client, gid, asker, "takeback").json()["code"] == "offer_refused"
        after = play_turn(client, game, rng)
        if after["last_roll"] is None and after["result"] is None:
            break
    assert after["last_roll"] is None
    assert social(client, gid, asker)["can_offer"]["takeback"] is True
    assert social(client, gid, answerer)["can_offer"]["takeback"] is False  # not played
    ok(offer(client, gid, asker, "takeback"))
    back = ok(reply(client, gid, answerer, True))
    assert back["seq"] == start["seq"]
    assert back["position"] == view(client, gid, answerer)["position"]
    assert back["seq"] < after["seq"]
    mine = view(client, gid, asker)
    assert mine["decision"]["mine"] and mine["position"]["turns_taken"] == \
        start["position"]["turns_taken"]
    # against the AI or on one screen there is no one to ask
    ai = ok(client.post("/api/games", json={"mode": "ai", "level": "easy"}))
    v = view(client, ai["id"], ai["token"])
    refused = client.post(f"/api/games/{ai['id']}/offer",
                          json={"token": ai["token"], "rev": v["rev"], "kind": "draw"})
    assert refused.status_code == 409 and refused.json()["code"] == "not_online"


def test_no_offer_during_the_setup_or_before_the_guest(client: TestClient) -> None:
    waiting = online(client, join=False)
    assert offer(client, waiting["id"], waiting["host"], "draw").json()["code"] == \
        "offer_refused"
    game = ok(client.post("/api/games", json={"mode": "online", "seat": "key",
                                              "quick": False}))
    code = game["links"]["invite"].split("?invite=")[1]
    ok(client.post(f"/api/games/{game['id']}/claim", json={"invite": code}))
    refused = offer(client, game["id"], game["token"], "draw")
    assert refused.status_code == 409 and "setup" in refused.json()["error"]
    spectator = client.post(f"/api/games/{game['id']}/offer",
                            json={"token": "nope", "rev": "1", "kind": "draw"})
    assert spectator.status_code == 403


# ---------------------------------------------------------------------- messages
def test_preset_messages_only(client: TestClient) -> None:
    game = online(client)
    gid = game["id"]
    sent = ok(client.post(f"/api/games/{gid}/message",
                          json={"token": game["guest"], "preset": "good_luck"}))
    assert sent["messages"][-1]["by"] == "skull" and sent["messages"][-1]["preset"] == "good_luck"
    assert social(client, gid)["messages"] == sent["messages"]  # spectators read them
    free = client.post(f"/api/games/{gid}/message",
                       json={"token": game["host"], "preset": "you are bad"})
    assert free.status_code == 400 and "preset" in free.json()["error"]
    quick = client.post(f"/api/games/{gid}/message",
                        json={"token": game["guest"], "preset": "thanks"})
    assert quick.status_code == 429
    assert "thanks" in PRESETS and len(sent["messages"]) <= MESSAGES_KEPT
    watcher = client.post(f"/api/games/{gid}/message", json={"token": "", "preset": "hello"})
    assert watcher.status_code == 403


# ---------------------------------------------------------------------- the invite's QR
def test_the_invite_qr_code_is_for_the_host_while_the_seat_is_open(client: TestClient
                                                                   ) -> None:
    game = online(client, join=False)
    gid = game["id"]
    svg = client.get(f"/api/games/{gid}/invite.svg", params={"t": game["host"]})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.content == invite_qr(f"http://testserver{game['links']['invite']}")
    assert client.get(f"/api/games/{gid}/invite.svg").status_code == 403
    code = game["links"]["invite"].split("?invite=")[1]
    guest = ok(client.post(f"/api/games/{gid}/claim", json={"invite": code}))["token"]
    assert client.get(f"/api/games/{gid}/invite.svg", params={"t": guest}).status_code == 403
    used = client.get(f"/api/games/{gid}/invite.svg", params={"t": game["host"]})
    assert used.status_code == 409 and used.json()["code"] == "invite_used"


# ---------------------------------------------------------------------- looks
def test_a_past_turn_of_a_game_in_progress(client: TestClient) -> None:
    game = online(client)
    gid = game["id"]
    rng = random.Random(5)
    before = view(client, gid, game["host"])
    play_turn(client, game, rng)
    now = play_turn(client, game, rng)
    past = ok(client.get(f"/api/games/{gid}/at", params={"t": game["host"],
                                                         "at": before["seq"]}))
    assert past["position"] == before["position"] and past["at"] == before["seq"]
    assert past["total"] == now["seq"] and past["result"] is None
    assert past["decision"]["options"] == []  # a look, not a decision
    assert client.get(f"/api/games/{gid}/at",
                      params={"at": now["seq"] + 1}).status_code == 400
    assert client.get(f"/api/games/{gid}/at", params={"t": "nope", "at": 0}).status_code == 403


def test_setup_hints_mirror_each_ruin_and_count_the_pieces(client: TestClient) -> None:
    game = ok(client.post("/api/games", json={"mode": "hotseat", "quick": False}))
    gid, token = game["id"], game["token"]
    hints = ok(client.get(f"/api/games/{gid}/setup", params={"t": token}))
    assert hints["kind"] == "ruin"
    v = view(client, gid, token)
    assert set(hints["mirrors"]) == set(v["decision"]["options"])
    square = v["decision"]["options"][0]
    pair = hints["mirrors"][square]
    assert square in pair and len(pair) == 2
    v = ok(client.post(f"/api/games/{gid}/decide",
                       json={"token": token, "rev": v["rev"], "option": square}))
    assert set(pair) <= set(v["position"]["ruins"])
    assert ok(client.get(f"/api/games/{gid}/setup"))["mirrors"] is None  # a spectator
    rng = random.Random(6)
    while v["decision"]["kind"] != "deploy":
        v = ok(client.post(f"/api/games/{gid}/decide",
                           json={"token": token, "rev": v["rev"],
                                 "option": rng.choice(v["decision"]["options"])}))
    counts = []
    while v["decision"]["kind"] == "deploy":
        side = v["decision"]["side"]
        deploy = ok(client.get(f"/api/games/{gid}/setup", params={"t": token}))["deploy"]
        assert deploy["placed"] == v["position"]["placed"][side]
        counts.append((side, deploy["total"]))
        v = ok(client.post(f"/api/games/{gid}/decide",
                           json={"token": token, "rev": v["rev"],
                                 "option": rng.choice(v["decision"]["options"])}))
    pieces = {side: sum(p["owner"] == side for p in v["position"]["pieces"])
              for side in ("key", "skull")}
    assert all(total == pieces[side] for side, total in counts), (counts, pieces)
