"""One client must not stall the AI for everyone (issue 30, finding 2): the AI queue is
bounded, owners take turns in it, a search whose asker left leaves it, and hints are
limited per client and per game."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary import default_content
from reliquary.web import create_app
from reliquary.web.ai_pool import AIPool, QueueFull
from reliquary.web.guard import Limits

from .test_api import wait_for_turn


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[AIPool]:
    monkeypatch.setenv("RELIQUARY_AI_QUEUE", "4")
    made = AIPool(default_content(), max_thinking=1)
    yield made
    made.shutdown()


def test_the_queue_is_bounded_and_left_by_those_who_stop_waiting(pool: AIPool) -> None:
    async def main() -> None:
        running = asyncio.ensure_future(pool.run("a", 1.0, time.sleep, 1.5, owner="x"))
        while not pool.thinking:
            await asyncio.sleep(0.01)
        waiting = [asyncio.ensure_future(pool.run("a", 1.0, time.sleep, 0, owner="x"))
                   for _ in range(4)]
        await asyncio.sleep(0.05)
        assert pool.queued == 4
        with pytest.raises(QueueFull):
            await pool.run("b", 1.0, time.sleep, 0, owner="y")
        for task in waiting:  # their clients left
            task.cancel()
        await asyncio.sleep(0.05)
        assert pool.queued == 0  # nothing of theirs will run
        await running

    asyncio.run(main())


def test_owners_take_turns_in_the_queue(pool: AIPool) -> None:
    order: list[str] = []

    async def job(owner: str) -> None:
        await pool.run(owner, 1.0, time.sleep, 0.05, owner=owner)
        order.append(owner)

    async def main() -> None:
        first = asyncio.ensure_future(job("attacker"))
        while not pool.thinking:
            await asyncio.sleep(0.01)
        flood = [asyncio.ensure_future(job("attacker")) for _ in range(3)]
        await asyncio.sleep(0.02)
        victim = asyncio.ensure_future(job("victim"))  # queued last
        await asyncio.gather(first, victim, *flood)

    asyncio.run(main())
    assert order[:2] == ["attacker", "victim"]  # served as soon as a worker was free


def test_hints_are_limited_per_client_and_per_game(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_HINT_SECONDS", "0.05")
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "1")
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", ai_delay=0,
                     limits=Limits(hints_burst=2, hints_per_minute=1))
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"mode": "ai", "level": "easy"}).json()
                 for _ in range(2)]
        for game in games:
            wait_for_turn(client, game["id"], game["token"])
        ask = [(g["id"], g["token"]) for g in (games[0], games[0], games[1])]
        statuses = [client.get(f"/api/games/{gid}/hint", params={"t": t}).status_code
                    for gid, t in ask]
        assert statuses == [200, 200, 429]  # the client's two are spent
        refused = client.get(f"/api/games/{games[1]['id']}/hint",
                             params={"t": games[1]["token"]})
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1


def test_one_hint_at_a_time_per_game_and_a_full_queue_is_503(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "1")
    app = create_app(f"sqlite:///{tmp_path / 'q.db'}", ai_delay=0)
    with TestClient(app) as client:
        game = client.post("/api/games", json={"mode": "ai", "level": "easy"}).json()
        wait_for_turn(client, game["id"], game["token"])
        capacity = app.state.capacity
        capacity.hinting.add(game["id"])  # as while a hint is searched
        busy = client.get(f"/api/games/{game['id']}/hint", params={"t": game["token"]})
        assert busy.status_code == 429 and "being searched" in busy.json()["error"]
        capacity.hinting.clear()
        capacity.pool.max_queued = 0
        capacity.pool._running[0] = object()  # every worker busy, no room to wait
        full = client.get(f"/api/games/{game['id']}/hint", params={"t": game["token"]})
        capacity.pool._running.clear()
        assert full.status_code == 503 and full.json()["code"] == "busy"
