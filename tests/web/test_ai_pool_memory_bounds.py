"""The AI pool's memories are bounded at ``_HOMES_KEPT`` (4096) entries, the least
recent forgotten first: the games' homes (web/ai_pool.py: "How many games' homes a pool
remembers") and the owners' last turns (the queue serves owners in turn). Exactly 4096
are kept, and the 4097th pushes out the oldest. Issue 31, sample L: the owners'
memory kept one fewer (``>`` → ``>=``) and passed every test."""

from __future__ import annotations

from reliquary.content import default_content
from reliquary.web.ai_pool import _HOMES_KEPT, AIPool, _Job


def _started(count: int) -> AIPool:
    pool = AIPool(default_content(), max_thinking=1)
    for n in range(count):
        ticket = n + 1
        pool._start(ticket, _Job(f"g{n}", None, sticky=True, owner=f"o{n}"))
        pool._running.pop(ticket)  # done: the one worker is free again
    return pool


def test_exactly_4096_games_and_owners_are_remembered() -> None:
    assert _HOMES_KEPT == 4096
    pool = _started(4096)
    assert len(pool._homes) == 4096 and len(pool._served) == 4096
    assert pool.home("g0") == 0 and "o0" in pool._served


def test_the_next_pushes_out_the_oldest() -> None:
    pool = _started(4097)
    assert len(pool._homes) == 4096 and len(pool._served) == 4096
    assert pool.home("g0") is None and "o0" not in pool._served
    assert pool.home("g1") == 0 and "o1" in pool._served
    assert pool._served["o4096"] == 4097  # each owner's last ticket
