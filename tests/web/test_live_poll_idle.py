"""The SQLite poll asks the database only about the games watched here: with nobody
watching it asks nothing (docs/web.md: "each polls the revisions of the games its
watchers watch"), and once a game is watched it asks about that game. Issue 31,
sample J: a poll that queried with an empty list while nobody watched passed every
test. The poll's turns are counted by its reads of the period, not by a clock."""

from __future__ import annotations

import asyncio
from typing import Any

from reliquary.web.live import LiveHub

from .test_live_watchers import Socket, unchanged


class Counted(LiveHub):
    """A hub whose poll period (1 ms) counts how often the poll has read it."""

    turns = 0

    @property
    def poll_s(self) -> float:
        self.turns += 1
        return 0.001

    @poll_s.setter
    def poll_s(self, value: float) -> None:
        pass


def test_the_poll_asks_nothing_while_nobody_watches() -> None:
    asked: list[list[str]] = []

    def probe(ids: list[str]) -> dict[str, Any]:
        asked.append(list(ids))
        return {game_id: "1" for game_id in ids}

    async def until(condition: Any) -> None:
        for _ in range(100_000):
            if condition():
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the poll did not go on")

    async def scenario() -> None:
        hub = Counted("sqlite://", probe=probe, ping_s=0, idle_s=0)
        await hub.start()
        begun = hub.turns
        await until(lambda: hub.turns > begun + 20)  # twenty turns with nobody there
        assert asked == []

        socket = Socket()
        task = asyncio.ensure_future(hub.serve(socket, "g", unchanged))
        await until(lambda: bool(asked))
        assert asked[0] == ["g"]
        socket.gone.set()
        await task
        await until(lambda: not hub.watching("g"))
        after = len(asked)
        settled = hub.turns
        await until(lambda: hub.turns > settled + 20)  # nobody again: no more questions
        assert len(asked) <= after + 1  # (a turn already under way when it left)
        await hub.stop()

    asyncio.run(scenario())
