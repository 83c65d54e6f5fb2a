"""Glory & Support on the web (issue 25) through the API: a hotseat game with the module
shows its markers, Glory and hands in the view, /api/meta carries the objective and
upgrade cards, the End phase's decisions carry prompts in both languages, and its events
are told in the log (en/es)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.engine.modules import glory as g
from reliquary.web import create_app
from reliquary.web.games import PROMPTS

from .conftest import seed_server
from .glory_driver import at_end_phase, play_until


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'glory.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def test_meta_carries_the_cards_and_prompts_cover_every_decision(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [o["id"] for o in meta["glory"]["objectives"]] == [o.id for o in g.DATA.objective]
    assert all(o["text"]["en"] and o["text"]["es"] for o in meta["glory"]["objectives"])
    assert {u["id"] for u in meta["glory"]["upgrades"]} == {u.id for u in g.DATA.upgrade}
    assert "glory" in [m["name"] for m in meta["modules"]]
    for kind in (g.MARKER, g.DISCARD, g.UPGRADE, g.UPGRADE_PIECE, "fast_step"):
        en, es = PROMPTS[kind]
        assert en and es and en != es


def test_a_glory_game_through_the_api_reaches_an_end_phase_and_tells_it(
        client: TestClient) -> None:
    seed_server(client.app, 25)  # a game that reaches its first End phase, every run
    response = client.post("/api/games", json={"mode": "hotseat", "modules": ["glory"]})
    assert response.status_code == 201, response.text
    gid, token = response.json()["id"], response.json()["token"]

    def get() -> dict[str, Any]:
        return client.get(f"/api/games/{gid}", params={"t": token}).json()

    def post(option: str, rev: str) -> dict[str, Any]:
        answer = client.post(f"/api/games/{gid}/decide",
                             json={"token": token, "rev": rev, "option": option})
        assert answer.status_code == 200, answer.text
        return answer.json()

    view = play_until(get, post, at_end_phase)
    assert not view.get("result"), "the game ended before its first End phase"
    glory = view["position"]["modules"]["glory"]
    assert len(glory["markers"]) == 3
    assert view["decision"]["kind"] in ("discard_objective", "upgrade", "upgrade_piece")
    log = view["log"]
    assert any("places an objective marker" in line["en"] for line in log)
    assert any("coloca un marcador de objetivo" in line["es"] for line in log)
    assert any("draws the objective" in line["en"] for line in log)
    assert any(line["en"].startswith("End phase 1") for line in log)
    assert any(line["es"].startswith("Fase final 1") for line in log)


def test_the_attack_preview_shows_support_and_why() -> None:
    from reliquary import default_content
    from reliquary.engine import KEY, SKULL, Builder
    from reliquary.web.preview import preview_of

    s = (Builder(default_content(), 8, factions=("pyre-choir", "bone-wardens"),
                 modules=("glory",))
         .hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=3, max_hp=3)
         .minion(KEY, "c5").minion(SKULL, "a7").hands(key=["Bolt", "Smite", "Hook"]).build())
    out = preview_of(s, frozenset({KEY}), "Bolt:attack")
    assert out["support"]["d4"]["d5"] == {"bonus": 1, "attackers": 1, "defenders": 0}
    # Smite's Minion line deals no damage: no Support shown for the Minion at c5
    smite = preview_of(s, frozenset({KEY}), "Smite:attack")
    assert "c5" not in smite["support"]
