"""The clocks of online games as the docs promise them (issue 31): each side's first
turn decision is free, a loss on time comes at the deadline (not later), and the
settings' bounds. The wall clock is faked in the clock and the store alike (the stored
decision times and "now" move together), so nothing here depends on the machine's speed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.web import clock as clock_module
from reliquary.web import create_app
from reliquary.web import db as db_module

INITIAL, INCREMENT = 60.0, 5.0
SLACK = 1.0  # real time that passes between requests, generously


class FakeTime:
    """``time`` with a wall clock that jumps when told (everything else is real)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(clock_module, "time", fake)
    monkeypatch.setattr(db_module, "time", fake)
    return fake


@pytest.fixture
def client(tmp_path: Path, fake: FakeTime) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'clock.db'}", ai_delay=0)) as client:
        yield client


class Online:
    """An online game with a clock, both seats taken."""

    def __init__(self, client: TestClient, fake: FakeTime) -> None:
        self.client, self.fake = client, fake
        game = client.post("/api/games", json={
            "mode": "online", "clock": {"initial_s": INITIAL, "increment_s": INCREMENT}})
        assert game.status_code == 201, game.text
        self.id = game.json()["id"]
        invite = game.json()["links"]["invite"].split("invite=")[1]
        guest = client.post(f"/api/games/{self.id}/claim", json={"invite": invite}).json()
        self.tokens = {game.json()["seat"]: game.json()["token"], guest["seat"]: guest["token"]}

    def view(self) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{self.id}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def decide(self) -> dict[str, Any]:
        """The side to move takes its first option."""
        side = self.view()["decision"]["side"]
        mine = self.client.get(f"/api/games/{self.id}", params={"t": self.tokens[side]}).json()
        response = self.client.post(f"/api/games/{self.id}/decide", json={
            "token": self.tokens[side], "rev": mine["rev"],
            "option": mine["decision"]["options"][0]})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def through_setup(self) -> dict[str, Any]:
        view = self.view()
        while view["phase"] != "play":
            view = self.decide()
        return view

    def turn(self) -> dict[str, Any]:
        """The side to move plays its whole turn (no time passes)."""
        side = self.view()["decision"]["side"]
        view = self.decide()
        while view["result"] is None and view["decision"]["side"] == side:
            view = self.decide()
        return view


def test_each_side_s_first_turn_decision_is_free_of_the_clock(client: TestClient,
                                                              fake: FakeTime) -> None:
    game = Online(client, fake)
    view = game.through_setup()
    first = view["decision"]["side"]
    assert view["clock"]["running"] is None
    fake.offset += 10 * INITIAL  # the first player thinks long over the first turn
    view = game.turn()
    second = view["decision"]["side"]
    assert view["result"] is None and second != first
    assert view["clock"]["running"] is None  # the second player's first decision: free too
    assert view["clock"]["remaining"][first] == pytest.approx(INITIAL + INCREMENT, abs=SLACK)
    fake.offset += 10 * INITIAL
    view = game.turn()
    assert view["result"] is None
    assert view["clock"]["running"] == first
    for side in (first, second):
        assert view["clock"]["remaining"][side] == pytest.approx(INITIAL + INCREMENT,
                                                                 abs=SLACK)
    fake.offset += 20  # from now on, the first player's time runs
    view = game.view()
    assert view["clock"]["remaining"][first] == pytest.approx(INITIAL + INCREMENT - 20,
                                                              abs=SLACK)
    assert view["clock"]["remaining"][second] == pytest.approx(INITIAL + INCREMENT, abs=SLACK)


def test_a_loss_on_time_comes_at_the_deadline(client: TestClient, fake: FakeTime) -> None:
    game = Online(client, fake)
    game.through_setup()
    game.turn()
    view = game.turn()
    running = view["clock"]["running"]
    assert running is not None
    left = view["clock"]["remaining"][running]
    fake.offset += left - SLACK  # just before the deadline: still playing
    view = game.view()
    assert view["result"] is None and view["clock"]["running"] == running
    assert 0 < view["clock"]["remaining"][running] <= SLACK + 0.1
    fake.offset += 2 * SLACK  # just after it: lost on time
    view = game.view()
    assert view["result"] is not None and view["result"]["reason"] == "timeout"
    assert view["result"]["winner"] != running
    assert view["result"]["tiebreak"] is None  # a tie-break is for Vigil endings only
    assert view["clock"]["running"] is None and view["clock"]["remaining"][running] == 0


@pytest.mark.parametrize(("clock", "ok"), [
    ({"initial_s": 10.0, "increment_s": 0.0}, True),
    ({"initial_s": 9.5, "increment_s": 0.0}, False),
    ({"initial_s": 10800.0, "increment_s": 60.0}, True),
    ({"initial_s": 10801.0, "increment_s": 5.0}, False),
    ({"initial_s": 600.0, "increment_s": 60.5}, False),
    ({"initial_s": 600.0, "increment_s": -1.0}, False),
])
def test_the_clock_settings_bounds(client: TestClient, clock: dict[str, float],
                                   ok: bool) -> None:
    response = client.post("/api/games", json={"mode": "online", "clock": clock})
    if ok:
        assert response.status_code == 201, response.text
        assert response.json()["id"]
    else:
        assert response.status_code == 400, response.text
        assert "clock" in response.json()["error"]
