"""The live hub's count of each game's watchers (docs/web.md: an AI turn thinks only
while its player is there; a game has gone unwatched when its last watcher leaves):
a game is watched while any of its sockets is open and not once the last has closed,
its leave hooks run then and only then, and a fresh process counts nothing (sample G's
survivors ``live:279`` and ``live:72``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketState

from reliquary.web import create_app
from reliquary.web.live import LiveHub


class Socket:
    """A client's WebSocket: open until the test makes it leave; ``closed``: the codes
    the server closed it with."""

    def __init__(self) -> None:
        self.gone = asyncio.Event()
        self.sent: list[Any] = []
        self.closed: list[int] = []
        self.application_state = WebSocketState.CONNECTING

    async def accept(self) -> None:
        self.application_state = WebSocketState.CONNECTED

    async def receive(self) -> dict[str, Any]:
        await self.gone.wait()
        return {"type": "websocket.disconnect"}

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed.append(code)
        self.application_state = WebSocketState.DISCONNECTED


async def unchanged() -> dict[str, Any]:
    """A game's snapshot that never changes."""
    return {"type": "update", "rev": "1"}


class CountedUnchanged:
    """:func:`unchanged`, counting how often the game is read."""

    def __init__(self) -> None:
        self.reads = 0

    async def __call__(self) -> dict[str, Any]:
        self.reads += 1
        return await unchanged()


def test_a_game_is_watched_until_its_last_socket_closes() -> None:
    async def scenario() -> None:
        hub = LiveHub("sqlite://", ping_s=0, idle_s=0, poll_s=0)
        await hub.start()
        left: list[str] = []
        hub.on_leave.append(left.append)

        one, two, other = Socket(), Socket(), Socket()
        tasks = [asyncio.ensure_future(hub.serve(s, g, unchanged))
                 for s, g in ((one, "g"), (two, "g"), (other, "h"))]
        for _ in range(5):
            await asyncio.sleep(0)
        assert hub.watching("g") and hub.watching("h") and hub.handlers == 3
        assert one.sent == [{"type": "update", "rev": "1"}]
        one.gone.set()
        await tasks[0]
        assert hub.watching("g") and left == [] and hub.handlers == 2
        two.gone.set()
        await tasks[1]
        assert not hub.watching("g") and left == ["g"] and hub.handlers == 1
        assert hub.watching("h")
        other.gone.set()
        await tasks[2]
        assert not hub.watching("h") and left == ["g", "h"] and hub.handlers == 0
        # a game watched again after that counts afresh
        again = Socket()
        task = asyncio.ensure_future(hub.serve(again, "g", unchanged))
        for _ in range(5):
            await asyncio.sleep(0)
        assert hub.watching("g")
        again.gone.set()
        await task
        assert not hub.watching("g") and left == ["g", "h", "g"]
        await hub.stop()

    asyncio.run(scenario())


def test_a_fresh_server_s_health_counts_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as client:
        health = client.get("/api/health").json()
    assert health["ok"] is True
    assert (health["websockets"], health["notifications_received"],
            health["games_cached"]) == (0, 0, 0)
    assert (health["ai"]["thinking"], health["ai"]["queued"], health["ai"]["decisions"]) == (
        0, 0, 0)
