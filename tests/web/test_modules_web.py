"""Rule modules through the web API (M-MOD-1, M-MOD-2): a new game takes them, the
view shows them, and bad ones are a 400 that names what is wrong."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app

from ..modules import smoulder  # registers the worked example module


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'modules.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def test_a_hotseat_game_with_a_module_and_an_option(client: TestClient) -> None:
    response = client.post("/api/games", json={
        "mode": "hotseat", "modules": ["smoulder"],
        "module_options": {"smoulder.damage": 2}})
    assert response.status_code == 201, response.text
    game = response.json()
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    settings = view["position"]["settings"]
    assert settings["modules"] == [smoulder.MODULE.name]
    assert settings["smoulder.damage"] == 2


@pytest.mark.parametrize(("body", "message"), [
    ({"modules": ["smolder"]}, "did you mean 'smoulder'"),
    ({"modules": ["smoulder"], "module_options": {"smoulder.damage": 7}},
     "smoulder.damage must be a whole number from 1 to 3"),
    ({"module_options": {"smoulder.damage": 2}}, "which is off"),
    ({"modules": ["conditions"], "module_options": {"conditions.dread": "always"}},
     "conditions.dread must be one of"),
])
def test_bad_modules_are_refused_by_name(client: TestClient, body: dict[str, object],
                                         message: str) -> None:
    response = client.post("/api/games", json={"mode": "hotseat", **body})
    assert response.status_code == 400, response.text
    assert message in response.text


def test_meta_lists_the_modules_and_their_options(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    [entry] = [m for m in meta["modules"] if m["name"] == "smoulder"]
    [option] = entry["options"]
    assert option["key"] == "smoulder.damage"
    assert (option["default"], option["min"], option["max"]) == (1, 1, 3)
