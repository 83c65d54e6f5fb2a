"""On a database server every database call of a request runs off the event loop (a
slow round trip then holds up only its own request): cache misses and catch-up
(``get_game``, ``moves_of``), the clock's times (``move_times``), and the writes of
create, claim/join, rematch, resign; and the replay of a game missing from the cache
runs in a thread."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app, manager
from reliquary.web.db import Store
from reliquary.web.games import new_session

WATCHED = ("get_game", "moves_of", "create_game", "claim_seat", "set_rematch", "add_moves",
           "concede", "truncate", "lobby", "delete_game", "move_times")


@pytest.fixture
def on_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Stores that read in a thread as on PostgreSQL, and the calls made on a loop."""
    seen: list[str] = []

    async def threaded_read(self: Store, fn: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(functools.partial(fn, *args))

    monkeypatch.setattr(Store, "read", threaded_read)
    for name in WATCHED:
        original = getattr(Store, name)

        def watched(self: Store, *args: Any, _original: Any = original, _name: str = name,
                    **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
                seen.append(_name)  # called on the event loop's thread
            except RuntimeError:
                pass
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, watched)

    def replayed(row: Any, content: Any, tokens: Any) -> Any:
        tokens = list(tokens)
        if tokens:  # a replay (a new game's empty start is no work)
            try:
                asyncio.get_running_loop()
                seen.append("replay")
            except RuntimeError:
                pass
        return new_session(row, content, tokens)

    monkeypatch.setattr(manager, "new_session", replayed)
    yield seen


def test_requests_touch_the_database_only_off_the_loop(tmp_path: Path,
                                                       on_loop: list[str]) -> None:
    db = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(db, ai_delay=0)) as a, TestClient(create_app(db, ai_delay=0)) as b:
        host = a.post("/api/games", json={"mode": "online", "public": True, "clock": {
            "initial_s": 600, "increment_s": 5}}).json()
        gid = host["id"]
        assert b.get("/api/lobby").json()["games"]
        guest = b.post(f"/api/games/{gid}/join", json={}).json()  # b: a cache miss
        tokens = {host["seat"]: host["token"], guest["seat"]: guest["token"]}
        for _ in range(6):  # decisions alternate between the processes: catch-up reads
            for client in (a, b):
                view = client.get(f"/api/games/{gid}").json()
                side = view["decision"]["side"]
                mine = client.get(f"/api/games/{gid}", params={"t": tokens[side]}).json()
                answer = client.post(f"/api/games/{gid}/decide", json={
                    "token": tokens[side], "rev": mine["rev"],
                    "option": mine["decision"]["options"][0]})
                assert answer.status_code == 200, answer.text
        view = a.get(f"/api/games/{gid}").json()
        over = a.post(f"/api/games/{gid}/resign", json={"token": host["token"],
                                                        "rev": view["rev"]})
        assert over.status_code == 200, over.text
        again = b.post(f"/api/games/{gid}/rematch", json={"token": guest["token"]})
        assert again.status_code == 201, again.text
        invited = a.post(f"/api/games/{gid}/rematch", json={"token": host["token"]})
        assert invited.status_code == 201, invited.text
    assert on_loop == [], on_loop
