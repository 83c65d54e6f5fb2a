"""The play screen's read-only routes: card previews, events, the rulebook, /spec."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary import default_content
from reliquary.engine import Game, format_option
from reliquary.web import create_app
from reliquary.web.preview import preview_of


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'preview.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def hotseat(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    game = client.post("/api/games", json={"mode": "hotseat"}).json()
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    return game, view


def reached_squares(game: Game, option: Any, kinds: frozenset[str]) -> dict[str, set[str]]:
    """By brute force: for each piece, the squares the decisions of ``kinds`` offer it
    right after it is chosen (the engine, not the preview module, says so)."""
    state = game.state.clone()
    state.apply(option)
    out: dict[str, set[str]] = {}
    if state.is_terminal or state.is_chance or state.decision().kind not in ("mover",
                                                                              "attacker"):
        return out
    for piece in state.decision().options:
        after = state.clone()
        after.apply(piece)
        squares: set[str] = set()
        if not after.is_terminal and not after.is_chance:
            decision = after.decision()
            if decision.kind in kinds:
                squares = {format_option(after, o) for o in decision.options
                           if isinstance(o, int)}
        out[format_option(state, piece)] = squares
    return out


def test_preview_lists_each_pieces_moves_as_the_engine_offers_them() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(6):
        game = Game(default_content())
        while not game.state.is_terminal and checked < 60:
            state = game.state
            if state.is_chance:
                game.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            decision = state.decision()
            if decision.kind == "play":
                for option in decision.options:
                    token = format_option(state, option)
                    answer = preview_of(state, frozenset({decision.player}), token)
                    if token.endswith(":move"):
                        expected = reached_squares(game, option, frozenset({"destination"}))
                        got = {piece: set(marks["move"])
                               for piece, marks in answer["pieces"].items()}
                        assert got == expected, token
                        checked += 1
                    if token.endswith(":attack"):
                        # a target offered right after choosing the attacker is previewed
                        direct = reached_squares(game, option, frozenset({"target"}))
                        for piece, squares in direct.items():
                            assert squares <= set(answer["pieces"][piece]["attack"]), token
            game.apply(rng.choice(decision.options))
    assert checked >= 60


def test_preview_refusals_and_no_change(client: TestClient) -> None:
    game, view = hotseat(client)
    url = f"/api/games/{game['id']}/preview"
    option = next(o for o in view["decision"]["options"] if o.endswith(":move"))
    answer = client.get(url, params={"t": game["token"], "option": option})
    assert answer.status_code == 200 and answer.json()["option"] == option
    after = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    assert after["rev"] == view["rev"] and after["seq"] == view["seq"]  # nothing decided
    spectator = client.get(url, params={"option": option})
    assert spectator.status_code == 403 and spectator.json()["code"] == "forbidden"
    wrong = client.get(url, params={"t": "not-a-token", "option": option})
    assert wrong.status_code == 403
    illegal = client.get(url, params={"t": game["token"], "option": "Nothing:move"})
    assert illegal.status_code == 422 and illegal.json()["code"] == "illegal_option"
    missing = client.get(url, params={"t": game["token"]})
    assert missing.status_code == 400 and "option" in missing.json()["error"]
    unknown = client.get("/api/games/0000000000000000/preview",
                         params={"t": game["token"], "option": option})
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    # mid-turn there is no card to preview
    client.post(f"/api/games/{game['id']}/decide",
                json={"token": game["token"], "rev": view["rev"], "option": option})
    midturn = client.get(url, params={"t": game["token"], "option": option})
    assert midturn.status_code == 409


def test_events_name_squares_and_sides(client: TestClient) -> None:
    game, view = hotseat(client)
    option = next(o for o in view["decision"]["options"] if o.endswith(":move"))
    seq = view["seq"]
    view = client.post(f"/api/games/{game['id']}/decide",
                       json={"token": game["token"], "rev": view["rev"],
                             "option": option}).json()
    while view["decision"]["kind"] != "play":
        view = client.post(f"/api/games/{game['id']}/decide",
                           json={"token": game["token"], "rev": view["rev"],
                                 "option": view["decision"]["options"][0]}).json()
    out = client.get(f"/api/games/{game['id']}/events", params={"since": seq}).json()
    assert out["total"] == view["seq"]
    assert [e["seq"] for e in out["entries"]] == list(range(seq, view["seq"]))
    assert out["entries"][0]["kind"] == "play"
    moves = [ev for e in out["entries"] for ev in e["events"] if ev["kind"] == "move"]
    assert len(moves) == 1
    move = moves[0]
    assert move["owner"] in ("key", "skull")
    assert move["square"][0].isalpha() and move["to"][0].isalpha()
    assert any(f"{move['square']} → {move['to']}" in line["en"] for line in view["log"])
    bad = client.get(f"/api/games/{game['id']}/events", params={"since": 5, "until": 2})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_setup_events_keep_a_secret_faction_secret(client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "hotseat", "quick": False}).json()
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    for _ in range(50):  # through the Ruins to the faction choice
        if view["decision"]["kind"] == "faction":
            break
        view = client.post(f"/api/games/{game['id']}/decide",
                           json={"token": game["token"], "rev": view["rev"],
                                 "option": view["decision"]["options"][0]}).json()
    if view["decision"]["kind"] != "faction":
        pytest.fail("the setup never reached the faction choice")
    chosen = view["decision"]["options"][0]
    client.post(f"/api/games/{game['id']}/decide",
                json={"token": game["token"], "rev": view["rev"], "option": chosen})
    out = client.get(f"/api/games/{game['id']}/events").json()
    assert out["entries"][-1]["kind"] == "faction"
    assert chosen not in str(out)  # the events show no choice before both are revealed


def test_rulebook_and_spec_pages(client: TestClient) -> None:
    for lang, title in (("en", "how to play"), ("es", "cómo se juega")):
        answer = client.get("/api/rulebook", params={"lang": lang})
        assert answer.status_code == 200
        assert title in answer.json()["html"].lower()
    wrong = client.get("/api/rulebook", params={"lang": "fr"})
    assert wrong.status_code == 400 and "en, es" in wrong.json()["error"]
    spec = client.get("/spec")
    assert spec.status_code == 200 and "/static/js/spec-page.js" in spec.text
    rules = client.get("/rules")
    assert rules.status_code == 200 and "/static/js/rules-page.js" in rules.text
    # no page carries an inline script: the CSP forbids them
    for page in ("/", "/rules", "/spec"):
        text = client.get(page).text
        assert "<script>" not in text and "onclick" not in text
