"""The AI workers start with the server only when `RELIQUARY_AI_PREFORK` is 1
(docs/web.md: "1 under `reliquary serve`": start the AI workers with the server; 0: on
first use), so an app made in a test or a script starts no process it does not use.
Issue 31, sample I: workers started whatever the setting passed every test."""

from __future__ import annotations

import asyncio

import pytest

from reliquary.content import default_content
from reliquary.web.ai_pool import AIPool


@pytest.mark.parametrize("setting", [None, "0", "yes"])
def test_warm_starts_no_worker_unless_prefork_is_1(monkeypatch: pytest.MonkeyPatch,
                                                   setting: str | None) -> None:
    if setting is None:
        monkeypatch.delenv("RELIQUARY_AI_PREFORK", raising=False)
    else:
        monkeypatch.setenv("RELIQUARY_AI_PREFORK", setting)
    pool = AIPool(default_content(), max_thinking=2)
    try:
        asyncio.run(pool.warm())
        assert pool.warmed
        assert pool._workers == [None, None]  # left to start on first use
    finally:
        pool.shutdown()


def test_warm_starts_every_worker_with_prefork_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_AI_PREFORK", "1")
    pool = AIPool(default_content(), max_thinking=1)
    try:
        asyncio.run(pool.warm())
        assert pool.warmed
        [worker] = pool._workers
        assert worker is not None and len(worker._processes) == 1  # started, and ready
    finally:
        pool.shutdown()
