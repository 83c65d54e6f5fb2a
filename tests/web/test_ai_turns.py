"""The AI's turns cannot be hoarded (issue 30, finding 2, its open part): a client has a
few games against the AI in play at most, an AI turn still waiting for a worker is
dropped once its player has left, and one already thinking in a worker is stopped there
(their next view starts it again)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from reliquary.web import create_app
from reliquary.web.ai_pool import _Job
from reliquary.web.guard import Limits

from .test_api import get_view, wait_for_turn


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FastAPI:
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "1")
    monkeypatch.setenv("RELIQUARY_AI_ABSENT_S", "0.3")
    monkeypatch.setenv("RELIQUARY_AI_LEFT_S", "0.3")
    return create_app(f"sqlite:///{tmp_path / 'ai.db'}", ai_delay=0,
                      limits=Limits(ai_games_per_client=2))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as made:
        yield made


def until(what: str, check: Any, within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        time.sleep(0.02)


def play_a_turn(client: TestClient, game: dict[str, Any]) -> None:
    """The human's turn, first option each time, until the AI is to decide."""
    view = wait_for_turn(client, game["id"], game["token"])
    while view["decision"] and view["decision"]["mine"]:
        answer = client.post(f"/api/games/{game['id']}/decide", json={
            "token": game["token"], "rev": view["rev"],
            "option": view["decision"]["options"][0]})
        assert answer.status_code == 200, answer.text
        view = answer.json()


def busy_workers(app: FastAPI) -> None:
    """Every AI worker busy with another game's search: a think waits in the queue."""
    app.state.capacity.pool._running[-1] = _Job("elsewhere", None, worker=0)


def test_a_client_has_a_few_ai_games_in_play_at_most(client: TestClient) -> None:
    made = [client.post("/api/games", json={"mode": "ai"}) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 429]
    refused = made[2].json()
    assert refused["code"] == "rate_limited" and "2 games against the AI" in refused["error"]
    assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
    first = made[0].json()
    view = wait_for_turn(client, first["id"], first["token"])
    over = client.post(f"/api/games/{first['id']}/resign",
                       json={"token": first["token"], "rev": view["rev"]})
    assert over.status_code == 200, over.text
    # A finished game is no longer in play: room for a new one.
    assert client.post("/api/games", json={"mode": "ai"}).status_code == 201


def test_a_queued_ai_turn_is_dropped_when_its_player_leaves(app: FastAPI,
                                                            client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "ai", "level": "easy"}).json()
    pool, driver = app.state.capacity.pool, app.state.manager.driver
    wait_for_turn(client, game["id"], game["token"])
    busy_workers(app)
    play_a_turn(client, game)
    until("the AI's think is queued", lambda: pool.queued == 1)
    # Nobody asks about the game, nobody watches it: the think leaves the queue.
    until("the think is dropped", lambda: pool.queued == 0, within=5.0)
    assert driver.dropped == 1
    until("its driver is done", lambda: not driver.running(game["id"]), within=2.0)
    pool._running.clear()  # the workers are free again …
    time.sleep(0.3)
    assert pool.thinking == 0  # … and nothing of the left game runs on them
    view = wait_for_turn(client, game["id"], game["token"])  # the player is back
    assert view["result"] or view["decision"]["mine"]


def test_a_watched_game_s_queued_turn_waits_for_its_worker(app: FastAPI,
                                                           client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "ai", "level": "easy"}).json()
    pool, driver = app.state.capacity.pool, app.state.manager.driver
    wait_for_turn(client, game["id"], game["token"])
    busy_workers(app)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        play_a_turn(client, game)
        until("the AI's think is queued", lambda: pool.queued == 1)
        time.sleep(1.0)  # over three times the absence allowed, watched all along
        assert pool.queued == 1 and driver.dropped == 0
        pool._running.clear()
        pool._release(-1)  # the worker is free: the queued think runs
        view = wait_for_turn(client, game["id"], game["token"])
    assert view["result"] or view["decision"]["mine"]
    assert get_view(client, game["id"], game["token"])["seq"] > 0


def thinking(pool: Any, game_id: str) -> bool:
    found = pool.status(game_id)
    return found is not None and found[0] == "thinking"


def worker_of(pool: Any, game_id: str) -> Any:
    """The process of the worker running the game's think (None before it started)."""
    home = pool.home(game_id)
    executor = pool._workers[home] if home is not None and thinking(pool, game_id) else None
    processes = list((getattr(executor, "_processes", None) or {}).values())
    return processes[0] if processes else None


def test_a_running_ai_think_stops_when_its_last_watcher_leaves(app: FastAPI,
                                                               client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "ai", "level": "max"}).json()
    pool, driver = app.state.capacity.pool, app.state.manager.driver
    wait_for_turn(client, game["id"], game["token"])
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        play_a_turn(client, game)
        until("the AI thinks in its worker", lambda: worker_of(pool, game["id"]))
        worker = worker_of(pool, game["id"])
        time.sleep(0.6)  # twice the absence allowed, watched all along: it thinks on
        assert thinking(pool, game["id"])
    left = time.monotonic()
    # The page closed and nothing asks about the game: its think (6 s of `max`'s
    # budget, most of it still to come) stops, and its worker with it.
    until("the running think is stopped", lambda: pool.thinking == 0, within=3.0)
    assert time.monotonic() - left < 3.0
    assert (driver.stopped, pool.stopped, driver.dropped) == (1, 1, 0)
    until("its worker process has ended", lambda: not worker.is_alive(), within=5.0)
    until("its driver is done", lambda: not driver.running(game["id"]), within=2.0)
    # The player comes back: their view starts the AI's turn again, in a fresh worker.
    get_view(client, game["id"], game["token"])
    until("the AI thinks again", lambda: worker_of(pool, game["id"]))
    assert worker_of(pool, game["id"]).pid != worker.pid
