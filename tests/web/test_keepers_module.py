"""Keepers' Relics on the web (issue 24) through the API: a hotseat game with the module
shows its tokens, points and Wayshrines in the view, its decisions carry prompts in both
languages, and its events are told in the log (en/es), a reveal and a lift included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app
from reliquary.web.games import PROMPTS
from reliquary.web.keepers_text import PROMPTS as KEEPERS_PROMPTS

from .conftest import seed_server
from .keepers_driver import carrying, play_until


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'keepers.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def new_game(client: TestClient, **options: Any) -> tuple[str, str]:
    response = client.post("/api/games", json={"mode": "hotseat", "modules": ["keepers"],
                                               "module_options": options})
    assert response.status_code == 201, response.text
    game = response.json()
    return game["id"], game["token"]


def lifted(view: dict[str, Any]) -> bool:
    return any(" lifts " in line["en"] for line in view["log"])


def test_a_keepers_game_through_the_api_tells_reveals_lifts_and_points(
        client: TestClient) -> None:
    # A seeded server deals the same games every run; a game that ends before a lift
    # gives way to the next (a DELVE is chosen whenever one can be).
    seed_server(client.app, 24)
    for _attempt in range(4):
        gid, token = new_game(client, **{"keepers.target": -1})

        def get(gid: str = gid, token: str = token) -> dict[str, Any]:
            return client.get(f"/api/games/{gid}", params={"t": token}).json()

        def post(option: str, rev: str, gid: str = gid, token: str = token) -> dict[str, Any]:
            response = client.post(f"/api/games/{gid}/decide",
                                   json={"token": token, "rev": rev, "option": option})
            assert response.status_code == 200, response.text
            return response.json()

        view = get()
        keepers = view["position"]["modules"]["keepers"]
        assert len(keepers["tokens"]) == len(view["position"]["ruins"]) == 4
        assert all(t["face"] == "down" and "value" not in t for t in keepers["tokens"])
        view = play_until(get, post, lifted)
        if lifted(view):
            break
    log = " ".join(line["en"] for line in view["log"])
    log_es = " ".join(line["es"] for line in view["log"])
    assert "Revealed on" in log and " lifts " in log, log[-2000:]
    assert "Revelado en" in log_es and " levanta " in log_es
    assert "delves the Ruin" in log and "excava la Ruina" in log_es
    # The lifted token is carried, unless the same decision went on to drop or recover
    # it (a kill, a Recover at the turn's end), which the log then tells.
    told_after = log[log.rindex(" lifts "):]
    assert carrying(view) or any(word in told_after for word in (
        " is dropped on ", " recovers ", " as a Prize ")), told_after


def test_every_keepers_decision_has_a_prompt_in_both_languages() -> None:
    from reliquary.engine.modules.keepers import MODULE

    for kind in MODULE.decisions:
        if kind in ("token_type", "reveal"):  # chance: nobody is asked
            continue
        en, es = PROMPTS[kind]
        assert en and es and en != es and KEEPERS_PROMPTS[kind] == (en, es)
