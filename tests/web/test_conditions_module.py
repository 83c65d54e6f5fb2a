"""Conditions on the web (issue 23) through the API: a hotseat game with the module plays
INTERACT → GUARD, the view shows the piece's condition, the log tells it in English and
Spanish, the INTERACT preview says what each action would do, and every decision and
event of the module has its words in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.engine.modules.conditions import MODULE
from reliquary.web import create_app
from reliquary.web.conditions_text import PROMPTS as CONDITIONS_PROMPTS
from reliquary.web.conditions_text import event_line
from reliquary.web.games import PROMPTS

from .conftest import seed_server
from .keepers_driver import play_until


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'conditions.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def test_guard_through_the_api_shows_the_condition_and_tells_it(client: TestClient) -> None:
    seed_server(client.app, 23)  # the same game every run
    response = client.post("/api/games", json={"mode": "hotseat", "modules": ["conditions"],
                                               "module_options": {"conditions.dread_tn": 4}})
    assert response.status_code == 201, response.text
    gid, token = response.json()["id"], response.json()["token"]

    def get() -> dict[str, Any]:
        return client.get(f"/api/games/{gid}", params={"t": token}).json()

    def post(option: str, rev: str) -> dict[str, Any]:
        answer = client.post(f"/api/games/{gid}/decide",
                             json={"token": token, "rev": rev, "option": option})
        assert answer.status_code == 200, answer.text
        return answer.json()

    view = play_until(get, post, lambda v: bool(v.get("decision")) and
                      v["decision"]["kind"] == "play")
    assert view["position"]["settings"]["conditions.dread_tn"] == 4
    play = next(o for o in view["decision"]["options"] if o.endswith(":interact"))
    preview = client.get(f"/api/games/{gid}/preview", params={"t": token, "option": play})
    assert preview.status_code == 200, preview.text
    actions = preview.json()["actions"]
    assert set(actions) == {"focus", "guard"} and actions["guard"]["actors"]
    view = post(play, view["rev"])
    assert view["decision"]["kind"] == "interact"
    assert view["decision"]["prompt"]["es"]
    view = post("guard", view["rev"])
    assert view["decision"]["kind"] == "cond_actor"
    assert view["decision"]["prompt"]["en"] == CONDITIONS_PROMPTS["cond_actor"][0]
    actor = view["decision"]["options"][0]
    view = post(actor, view["rev"])
    [piece] = [p for p in view["position"]["pieces"] if p["square"] == actor]
    assert piece["conditions"][0]["name"] == "defensive" and piece["conditions"][0]["value"] == 1
    en = " ".join(line["en"] for line in view["log"])
    es = " ".join(line["es"] for line in view["log"])
    assert "GUARD:" in en and "gains Defensive 1" in en
    assert "GUARDIA:" in es and "gana Defensiva 1" in es


def test_every_decision_of_the_module_has_a_prompt_in_both_languages() -> None:
    for kind in MODULE.decisions:
        en, es = PROMPTS[kind]
        assert en and es and en != es and CONDITIONS_PROMPTS[kind] == (en, es)


@pytest.mark.parametrize("kind", sorted(MODULE.events))
def test_every_event_of_the_module_has_a_line_in_both_languages(kind: str) -> None:
    data = {"piece": 3, "owner": 0, "hero": False, "square": 10, "condition": "burning",
            "value": 2, "why": "upkeep", "by": "slow", "face": 2, "tn": 3, "passed": False,
            "paralyzed": True, "target": 5, "target_square": 18, "card": "Bolt",
            "action": "tend"}
    line = event_line(kind, data, lambda sq: f"sq{sq}", lambda lang: f"<{lang}>")
    assert line is not None and line["en"] != line["es"]
    assert "<en>" in line["en"] and "<es>" in line["es"]


def test_the_lobby_lists_the_module_and_its_options(client: TestClient) -> None:
    response = client.post("/api/games", json={
        "mode": "online", "public": True, "modules": ["conditions"],
        "module_options": {"conditions.dread": "hero", "conditions.actions": ["focus"]}})
    assert response.status_code == 201, response.text
    games = client.get("/api/lobby").json()["games"]
    [game] = [g for g in games if g["id"] == response.json()["id"]]
    settings = game["settings"]
    assert settings["modules"] == ["conditions"] and settings["conditions.dread"] == "hero"
    assert settings["conditions.actions"] == ["focus"]


def test_the_rules_page_has_the_module_in_both_languages(client: TestClient) -> None:
    for lang, heading in (("en", "Optional module: Conditions"),
                          ("es", "Módulo opcional: Condiciones")):
        response = client.get("/api/rulebook", params={"lang": lang})
        assert response.status_code == 200
        assert heading in response.text
