"""After a start the server reads every unfinished online game with a clock once, so
that its timeout is watched with nobody connected (web/clock.py; docs/web.md "Clocks"):
``running_games`` lists exactly those — not finished ones, not games without a clock,
not other modes (sample G's survivor ``clock:200``)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from reliquary.web import create_app
from reliquary.web.clock import Clocks

CLOCK = {"initial_s": 60.0, "increment_s": 5.0}


def test_running_games_are_the_unfinished_online_games_with_a_clock(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}", ai_delay=0)
    with TestClient(app) as client:
        def new(**body: object) -> dict[str, str]:
            answer = client.post("/api/games", json=body)
            assert answer.status_code == 201, answer.text
            return dict(answer.json())

        running = new(mode="online", clock=CLOCK)
        also = new(mode="online", clock=CLOCK, public=True)
        new(mode="online")               # no clock
        new(mode="hotseat")              # not online
        finished = new(mode="online", clock=CLOCK)
        view = client.get(f"/api/games/{finished['id']}", params={"t": finished["token"]})
        resigned = client.post(f"/api/games/{finished['id']}/resign",
                               json={"token": finished["token"], "rev": view.json()["rev"]})
        assert resigned.status_code == 200, resigned.text
        clocks = Clocks(app.state.manager.store.engine)
        assert sorted(clocks.running_games()) == sorted([running["id"], also["id"]])
