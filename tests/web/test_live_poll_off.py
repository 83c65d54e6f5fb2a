"""On SQLite the live hub polls for other processes' changes every
`RELIQUARY_LIVE_POLL` seconds, and 0 means no poll at all (docs/web.md: "0: one
process, no poll"), as does a hub without a way to look (no probe). Issue 31,
sample I: a poll started at 0 too (a loop with no pause between its looks, a query
each turn while anyone watches) passed every test."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from reliquary.web.live import LiveHub


def tasks_started(poll_s: float, probe: bool = True) -> int:
    """How many background tasks the hub's start leaves running."""

    def look(ids: list[str]) -> dict[str, Any]:
        return {}

    async def scenario() -> int:
        hub = LiveHub("sqlite://", probe=look if probe else None, ping_s=0, idle_s=0,
                      poll_s=poll_s)
        before = asyncio.all_tasks()
        await hub.start()
        started = len(asyncio.all_tasks() - before)
        await hub.stop()
        return started

    return asyncio.run(scenario())


@pytest.mark.parametrize(("poll_s", "probe", "polls"), [
    (0.0, True, 0),     # 0: one process, no poll
    (2.0, True, 1),     # the default: one poll
    (0.5, True, 1),
    (2.0, False, 0),    # nothing to look with
])
def test_the_sqlite_poll_runs_only_with_a_period_and_a_probe(poll_s: float, probe: bool,
                                                             polls: int) -> None:
    assert tasks_started(poll_s, probe) == polls
