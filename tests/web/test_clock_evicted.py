"""A game with a running clock still ends on time with nobody connected after it left
the server's cache of games (docs/web.md "Clocks": a loss is decided "by the server on
the next request or by its timer with nobody connected"). The cache keeps the last
``max_sessions`` games; one pushed out is read from the store again when needed, and
its clock's deadline must stay with the timer (issue 31: evicting a game dropped its
deadline, so a game nobody looked at again never ended)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary.web import clock as clock_module
from reliquary.web.app import create_app

from .test_capacity import FakeTime, start_clock_game, wait_for


def test_an_evicted_game_still_ends_on_time(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    fake = FakeTime()
    monkeypatch.setattr(clock_module, "time", fake)
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", ai_delay=0)
    with TestClient(app) as client:
        game_id, _, _ = start_clock_game(client)
        keeper = app.state.manager.keeper
        store = app.state.manager.store
        assert game_id in keeper.sessions
        keeper.max_sessions = 1
        for _ in range(2):  # other games push it out of the cache
            assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
        assert game_id not in keeper.sessions
        assert not store.get_game(game_id).finished
        fake.offset += 66  # no request for it from here on
        wait_for("the timer ends the evicted game", lambda: store.get_game(game_id).finished)
        view = client.get(f"/api/games/{game_id}").json()
        assert view["result"]["reason"] == "timeout"
