"""The links a game's view carries (docs/web.md: `links: {self, spectate, invite?}`;
"the spectator link only watches"): a seat's token gets its own `self` link, a
spectator — with no token or with the game's spectator token — only the watch link.
Issue 31, sample F: a `self` link made from the spectator's token passed every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'links.db'}", ai_delay=0)) as made:
        yield made


def _links(client: TestClient, game_id: str, token: str | None) -> dict[str, Any]:
    params = {"t": token} if token else {}
    response = client.get(f"/api/games/{game_id}", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json()["links"])


def test_a_seat_s_view_links_to_itself_and_a_spectator_s_only_watches(
        client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "online", "seat": "key"}).json()
    game_id = game["id"]
    watch = f"/g/{game_id}"
    assert _links(client, game_id, game["token"])["self"] == f"{watch}?t={game['token']}"
    assert _links(client, game_id, None) == {"spectate": watch}
    spectator = client.app.state.manager.session(game_id).row.tokens["spectator"]
    assert _links(client, game_id, spectator) == {"spectate": watch}
