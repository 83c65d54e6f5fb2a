"""The JSON API: creating games, deciding, every rejection path, undo, live updates."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary import default_content, replay
from reliquary.engine import Game, Settings
from reliquary.web import create_app
from reliquary.web.db import Store
from reliquary.web.errors import WebError
from reliquary.web.games import undo_count
from reliquary.web.manager import Manager


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'api.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def get_view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"t": token} if token else {}
    response = client.get(f"/api/games/{game_id}", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def decide(client: TestClient, game_id: str, token: str, rev: str, option: str) -> Any:
    return client.post(f"/api/games/{game_id}/decide",
                       json={"token": token, "rev": rev, "option": option})


def wait_for_turn(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """Poll until the AI has answered: the game is over or it is this seat's decision."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = get_view(client, game_id, token)
        if view["result"] or view["decision"]["mine"]:
            return view
        time.sleep(0.02)
    raise AssertionError("the AI did not answer within 20 s")


def token_of(game: dict[str, Any]) -> str:
    return str(game["token"])


def invite_token(client: TestClient, game: dict[str, Any]) -> str:
    """The guest's seat token: claim the invite of an online game (once)."""
    code = game["links"]["invite"].split("?invite=")[1]
    response = client.post(f"/api/games/{game['id']}/claim", json={"invite": code})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


# ---------------------------------------------------------------------- creation
def test_meta_offers_content_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert len(meta["cards"]) == 18 and len(meta["factions"]) == 9 and len(meta["rites"]) == 3
    assert "easy" in meta["levels"]
    bolt = next(c for c in meta["cards"] if c["id"] == "Bolt")
    assert bolt["diagram"] == [[0, 2], [0, -1]] and bolt["seal"] == "skull"
    assert "Hero: 2 damage" in bolt["attack"]["en"] and "Héroe" in bolt["attack"]["es"]


def test_quick_game_against_the_ai_starts_after_a_random_setup(client: TestClient) -> None:
    game = new_game(client, mode="ai", seat="skull", level="easy")
    assert game["seat"] == "skull" and game["links"]["self"].startswith(f"/g/{game['id']}?t=")
    view = wait_for_turn(client, game["id"], token_of(game))
    assert view["mode"] == "ai" and view["seats"] == ["skull"]
    assert view["phase"] == "play" and view["decision"]["kind"] == "play"
    assert len([p for p in view["position"]["pieces"] if p["owner"] == "skull"]) == 4


def test_hotseat_game_decides_for_both_seats(client: TestClient) -> None:
    game = new_game(client, mode="hotseat", quick=False, size=9, los="straight",
                    first_turn="no_attack")
    view = get_view(client, game["id"], token_of(game))
    assert view["seats"] == ["key", "skull"]
    settings = view["position"]["settings"]
    assert (settings["size"], settings["los"], settings["first_turn"]) == (9, "straight",
                                                                          "no_attack")
    assert view["decision"]["kind"] == "ruin" and view["decision"]["mine"]
    first = decide(client, game["id"], token_of(game), view["rev"],
                   view["decision"]["options"][0])
    assert first.status_code == 200
    assert first.json()["decision"]["side"] == "skull" and first.json()["decision"]["mine"]


def test_online_game_gives_invite_and_watch_links(client: TestClient) -> None:
    game = new_game(client, mode="online", seat="key", faction="grave-tide")
    assert set(game["links"]) == {"self", "spectate", "invite"}
    assert game["token"] not in game["links"]["invite"]
    creator = get_view(client, game["id"], token_of(game))
    assert creator["links"]["invite"] == game["links"]["invite"]
    assert creator["open_seat"] == "skull"
    assert creator["position"]["factions"]["key"] == "grave-tide"
    guest_token = invite_token(client, game)
    guest = get_view(client, game["id"], guest_token)
    assert guest["seats"] == ["skull"] and "invite" not in guest["links"]
    creator = get_view(client, game["id"], token_of(game))
    assert "invite" not in creator["links"] and creator["open_seat"] is None
    assert guest_token not in str(creator)
    watcher = get_view(client, game["id"])
    assert watcher["seats"] == [] and watcher["decision"]["options"] == []
    assert token_of(game) not in str(watcher) and guest_token not in str(watcher)


def test_a_full_setup_hotseat_game_plays_to_its_end(client: TestClient) -> None:
    game = new_game(client, mode="hotseat", quick=False)
    token = token_of(game)
    rng = random.Random(3)
    view = get_view(client, game["id"], token)
    while not view["result"]:
        option = rng.choice(view["decision"]["options"])
        response = decide(client, game["id"], token, view["rev"], option)
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["result_text"]["en"] and view["result_text"]["es"]
    assert view["result"]["reason"] and "tiebreak" in view["result"]
    record = client.get(f"/api/games/{game['id']}/record").json()
    again = replay(record, default_content())  # the engine's own format, replayable
    assert len(again.history) == view["seq"]
    assert again.record()["result"] == record["result"]


# ---------------------------------------------------------------------- rejections
@pytest.fixture
def online(client: TestClient) -> dict[str, Any]:
    game = new_game(client, mode="online", seat="key")
    view = get_view(client, game["id"], token_of(game))
    guest = invite_token(client, game)
    mover = token_of(game) if view["decision"]["side"] == "key" else guest
    waiter = guest if mover == token_of(game) else token_of(game)
    return {"game": game, "mover": mover, "waiter": waiter,
            "view": get_view(client, game["id"], mover)}


def assert_unchanged(client: TestClient, online: dict[str, Any]) -> None:
    after = get_view(client, online["game"]["id"], online["mover"])
    assert after["seq"] == online["view"]["seq"] and after["rev"] == online["view"]["rev"]
    assert after["position"] == online["view"]["position"]


@pytest.mark.parametrize("case, status, code, message", [
    ("wrong token", 403, "forbidden", "does not belong to this game"),
    ("spectator", 403, "forbidden", "spectators can only watch"),
    ("spectator token", 403, "forbidden", "spectators can only watch"),
    ("other seat", 409, "not_your_turn", "not your decision"),
    ("illegal option", 422, "illegal_option", "illegal option"),
    ("not an option", 422, "illegal_option", "illegal option"),
    ("stale decision", 409, "stale", "stale decision"),
    ("rev not a string", 400, "bad_request", "field 'rev'"),
    ("missing field", 400, "bad_request", "missing field 'option'"),
])
def test_rejected_decisions_change_nothing(client: TestClient, online: dict[str, Any],
                                           case: str, status: int, code: str,
                                           message: str) -> None:
    game_id = online["game"]["id"]
    rev = online["view"]["rev"]
    legal = online["view"]["decision"]["options"][0]
    body: dict[str, Any] = {"token": online["mover"], "rev": rev, "option": legal}
    if case == "wrong token":
        body["token"] = "not-a-token"
    elif case == "spectator":
        body["token"] = None
    elif case == "spectator token":
        body["token"] = client.app.state.manager.session(game_id).row.tokens["spectator"]
    elif case == "other seat":
        body["token"] = online["waiter"]
    elif case == "illegal option":
        body["option"] = "Bolt:rite" if "Bolt:rite" not in online["view"]["decision"]["options"] \
            else "Vault:rite"
    elif case == "not an option":
        body["option"] = "z99"
    elif case == "stale decision":
        body["rev"] = "0"
    elif case == "rev not a string":
        body["rev"] = int(rev)
    elif case == "missing field":
        del body["option"]
    response = client.post(f"/api/games/{game_id}/decide", json=body)
    assert response.status_code == status
    assert message in response.json()["error"] and response.json()["code"] == code
    if code == "stale":
        assert response.json()["rev"] == rev
    assert_unchanged(client, online)


def test_malformed_json_is_a_400(client: TestClient, online: dict[str, Any]) -> None:
    response = client.post(f"/api/games/{online['game']['id']}/decide", content=b"{rev: 1,",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "malformed JSON" in response.json()["error"]
    response = client.post(f"/api/games/{online['game']['id']}/decide", json=[1, 2])
    assert response.status_code == 400 and "JSON object" in response.json()["error"]
    assert_unchanged(client, online)


def test_unknown_game_is_a_404(client: TestClient) -> None:
    for response in (client.get("/api/games/0123456789abcdef"),
                     client.post("/api/games/0123456789abcdef/decide",
                                 json={"token": "x", "rev": "1", "option": "a1"}),
                     client.get("/api/games/0123456789abcdef/record")):
        assert response.status_code == 404 and response.json()["code"] == "not_found"
        assert "no game with id '0123456789abcdef'" in response.json()["error"]


def test_bad_new_game_settings_are_400(client: TestClient) -> None:
    for body, message in [({"size": 13}, "board size"), ({"mode": "solo"}, "field 'mode'"),
                          ({"los": "curved"}, "los"), ({"level": "godlike"},
                                                         "unknown AI level"),
                          ({"faction": "elves"}, "unknown faction")]:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, body
        assert message in response.json()["error"]


def test_the_finished_game_takes_no_decision(client: TestClient) -> None:
    game = new_game(client, mode="hotseat")
    token = token_of(game)
    view = get_view(client, game["id"], token)
    rng = random.Random(5)
    while not view["result"]:
        view = decide(client, game["id"], token, view["rev"],
                      rng.choice(view["decision"]["options"])).json()
    response = decide(client, game["id"], token, view["rev"], "a1")
    assert response.status_code == 409 and "the game is over" in response.json()["error"]
    assert response.json()["code"] == "game_over"


def test_a_secret_faction_stays_secret(client: TestClient) -> None:
    game = new_game(client, mode="online", seat="key", quick=False)
    key, skull = token_of(game), invite_token(client, game)
    view = get_view(client, game["id"], key)
    while view["decision"]["kind"] != "faction":
        mover = key if view["decision"]["side"] == "key" else skull
        view = decide(client, game["id"], mover, view["rev"],
                      get_view(client, game["id"], mover)["decision"]["options"][0]).json()
    assert view["decision"]["side"] == "key"
    view = decide(client, game["id"], key, view["rev"], "lantern-bearers").json()
    assert view["position"]["secret_factions"]["key"] == "lantern-bearers"
    for token in (skull, None):
        other = get_view(client, game["id"], token)
        assert other["position"]["secret_factions"]["key"] == "hidden"
        assert "lantern-bearers" not in str(other["log"])
    assert client.get(f"/api/games/{game['id']}/record").status_code == 403


# ---------------------------------------------------------------------- undo
def test_hotseat_undo_takes_back_the_last_turn(client: TestClient) -> None:
    game = new_game(client, mode="hotseat")
    token = token_of(game)
    start = get_view(client, game["id"], token)
    assert not start["undo"] or start["decision"]["kind"] == "play"
    moves = [o for o in start["decision"]["options"] if o.endswith(":move")]
    view = decide(client, game["id"], token, start["rev"], moves[0]).json()
    assert view["undo"]
    response = client.post(f"/api/games/{game['id']}/undo",
                           json={"token": token, "rev": view["rev"]})
    assert response.status_code == 200
    back = response.json()
    assert back["seq"] == start["seq"] and back["position"] == start["position"]
    # A revision is never reused: the one before the undo is stale now, as is the start's.
    assert back["rev"] not in (start["rev"], view["rev"])
    again = decide(client, game["id"], token, view["rev"], moves[0])
    assert again.status_code == 409 and again.json()["rev"] == back["rev"]


def test_undo_is_refused_online_and_to_spectators(client: TestClient,
                                                  online: dict[str, Any]) -> None:
    game_id = online["game"]["id"]
    rev = online["view"]["rev"]
    response = client.post(f"/api/games/{game_id}/undo",
                           json={"token": online["mover"], "rev": rev})
    assert response.status_code == 409 and "only for games on one screen" in response.text
    assert response.json()["code"] == "undo_refused"
    response = client.post(f"/api/games/{game_id}/undo", json={"rev": rev})
    assert response.status_code == 403


def test_undo_stops_at_a_die_roll_and_at_the_opponent() -> None:
    content = default_content()
    game = Game(content, Settings())
    rng = random.Random(11)
    rolled = None
    while not game.state.is_terminal and rolled is None:
        decision = game.state.decision()
        option = rng.choice(decision.options)
        game.apply(option)
        if game.history[-1].kind == "roll" and not game.state.is_terminal \
                and game.state.decision().player == game.history[-2].player:
            rolled = game.history[-2].player
    if rolled is None:
        pytest.fail("seed 11 gave no roll followed by a decision of the roller")
    after_roll = game.state.decision()
    game.apply(after_roll.options[0])
    # Decisions after a roll in the same turn: the turn cannot be taken back.
    if game.history[-1].player == rolled:
        assert undo_count(game.history, frozenset({rolled})) == 0
    assert undo_count(game.history, frozenset({1 - rolled})) == 0


# ---------------------------------------------------------------------- the AI, live updates
def test_the_ai_answers_and_the_game_reaches_its_end(client: TestClient) -> None:
    game = new_game(client, mode="ai", seat="key")
    token = token_of(game)
    view = wait_for_turn(client, game["id"], token)
    while not view["result"]:
        response = decide(client, game["id"], token, view["rev"], view["decision"]["options"][0])
        assert response.status_code == 200, response.text
        view = wait_for_turn(client, game["id"], token)
    assert any("Skull" in line["en"] for line in view["log"])


def test_websocket_tells_of_each_change(client: TestClient, online: dict[str, Any]) -> None:
    game_id = online["game"]["id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        first = socket.receive_json()
        assert first["type"] == "update" and first["rev"] == online["view"]["rev"]
        response = decide(client, game_id, online["mover"], first["rev"],
                          online["view"]["decision"]["options"][0])
        assert response.status_code == 200
        update = socket.receive_json()
        while update["type"] != "update":  # e.g. a ping
            update = socket.receive_json()
        assert (update["seq"], update["rev"]) == (response.json()["seq"],
                                                  response.json()["rev"])


def test_two_simultaneous_submissions_one_is_accepted(tmp_path: Path) -> None:
    manager = Manager(Store(f"sqlite:///{tmp_path / 'race.db'}"), default_content(), 0)

    async def race() -> list[Any]:
        game = manager.create("hotseat", Settings(), seat="key")
        session = manager.session(game["id"])
        options = session.state.decision().options
        from reliquary.engine import format_option
        a, b = (format_option(session.state, o) for o in (options[0], options[-1]))
        return list(await asyncio.gather(
            manager.decide(game["id"], game["token"], session.rev, a),
            manager.decide(game["id"], game["token"], session.rev, b),
            return_exceptions=True))

    results = asyncio.run(race())
    errors = [r for r in results if isinstance(r, WebError)]
    assert len(errors) == 1 and errors[0].status == 409 and "stale" in errors[0].message


# ---------------------------------------------------------------------- records, rules
def test_a_record_loads_and_replays_step_by_step(client: TestClient) -> None:
    game = Game(default_content(), Settings())
    rng = random.Random(2)
    while not game.state.is_terminal:
        game.apply(rng.choice(game.state.legal_options()))
    response = client.post("/api/records", json=game.record())
    assert response.status_code == 201
    replay_id = response.json()["id"]
    start = client.get(f"/api/games/{replay_id}/replay", params={"at": 0}).json()
    assert start["at"] == 0 and start["total"] == len(game.history)
    assert start["position"]["pieces"] == [] and start["decision"]["kind"] == "ruin"
    end = client.get(f"/api/games/{replay_id}/replay").json()
    assert end["result"]["reason"] == game.state.result.reason
    assert client.get(f"/api/games/{replay_id}/replay", params={"at": 10**6}).status_code == 400
    bad = client.post("/api/records", json={**game.record(), "turns": [["z9"]]})
    assert bad.status_code == 400 and "cannot be loaded" in bad.json()["error"]
    assert bad.json()["code"] == "bad_request"


def test_replay_waits_for_the_end_of_a_live_game(client: TestClient,
                                                 online: dict[str, Any]) -> None:
    response = client.get(f"/api/games/{online['game']['id']}/replay")
    assert response.status_code == 403 and "once it is over" in response.json()["error"]


def test_rules_page_is_rendered_from_the_specification(client: TestClient) -> None:
    html = client.get("/api/rules").json()["html"]
    assert "<h1>Reliquary — rules specification</h1>" in html
    assert "<table>" in html and "K-Gale" in html
    assert client.get("/rules").status_code == 200
    for path in ("/", "/g/abc", "/static/style.css"):  # (the page's scripts: test_browser)
        assert client.get(path).status_code == 200, path


def test_a_thinking_ai_does_not_block_other_games(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI thinks in a worker thread: meanwhile other games answer at once."""
    import reliquary.web.ai_driver as driver_module

    class SlowAgent:
        name = "slow"

        def choose(self, state: Any) -> Any:
            time.sleep(1.5)
            return state.legal_options()[0]

    monkeypatch.setattr(driver_module, "get_agent", lambda *_a, **_k: SlowAgent())
    app = create_app(f"sqlite:///{tmp_path / 'slow.db'}", ai_delay=0)
    with TestClient(app) as client:
        ai_game = new_game(client, mode="ai", seat="skull")  # Key (the AI) often starts
        token = token_of(ai_game)
        view = get_view(client, ai_game["id"], token)
        while view["decision"]["mine"]:  # finish the human's turn: the AI's turn comes
            view = decide(client, ai_game["id"], token, view["rev"],
                          view["decision"]["options"][0]).json()
        assert not view["decision"]["mine"]
        other = new_game(client, mode="hotseat")
        started = time.monotonic()
        other_view = get_view(client, other["id"], token_of(other))
        decide(client, other["id"], token_of(other), other_view["rev"],
               other_view["decision"]["options"][0])
        assert time.monotonic() - started < 1.0
        assert wait_for_turn(client, ai_game["id"], token)["seq"] > view["seq"]


def test_idle_games_leave_the_cache_and_come_back_from_the_store(tmp_path: Path) -> None:
    manager = Manager(Store(f"sqlite:///{tmp_path / 'lru.db'}"), default_content(), 0,
                      max_sessions=2)
    ids = [manager.create("hotseat", Settings())["id"] for _ in range(3)]
    assert list(manager.sessions) == ids[1:]
    seq = len(manager.store.moves_of(ids[0]) or [])
    assert manager.session(ids[0]).seq == seq and ids[0] in manager.sessions
