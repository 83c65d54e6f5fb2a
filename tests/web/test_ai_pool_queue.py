"""The AI pool's queue as docs/web.md describes it ("One client cannot stall the AI"),
with the workers replaced by futures the test finishes itself: at most
``max_thinking`` searches run; ``RELIQUARY_AI_QUEUE`` (8 per worker + 8) may wait and
one more is refused; owners take turns (fewest searches running, then served longest
ago); a game's thinks go to its home worker; a caller that leaves its place leaves the
queue; and the view's status says thinking or queued, with the place in the queue."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.web.ai_pool import AIPool, QueueFull, default_max_thinking


class Workers:
    """Stand-in executors: each submitted call waits until the test finishes it."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, tuple[Any, ...], Future[Any]]] = []

    def executor(self, worker: int) -> Any:
        workers = self

        class One:
            def submit(self, fn: Any, *args: Any) -> Future[Any]:
                future: Future[Any] = Future()
                workers.calls.append((worker, args, future))
                return future

        return One()

    def running(self) -> list[tuple[int, Any]]:
        """(worker, label) of the calls not finished yet."""
        return [(w, args[0]) for w, args, f in self.calls if not f.done()]

    def finish(self, label: Any) -> None:
        for _, args, future in self.calls:
            if args[0] == label and not future.done():
                future.set_result(label)
                return
        raise AssertionError(f"{label} is not running")


def pool_with(workers: Workers, max_thinking: int, monkeypatch: pytest.MonkeyPatch,
              **env: str) -> AIPool:
    for name in ("RELIQUARY_AI_QUEUE", "RELIQUARY_AI_NICE", "RELIQUARY_HINT_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    pool = AIPool(default_content(), max_thinking=max_thinking)
    monkeypatch.setattr(pool, "executor", workers.executor)
    return pool


def echo(label: Any) -> Any:
    return label


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_documented_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 3, monkeypatch)
    assert (pool.max_queued, pool.nice, pool.hint_seconds) == (8 * 3 + 8, 10, 1.0)
    monkeypatch.delenv("RELIQUARY_AI_WORKERS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    assert default_max_thinking() == 3
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert default_max_thinking() == 1
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "5")
    assert default_max_thinking() == 5


@pytest.mark.parametrize(("nice", "kept"), [("0", 0), ("19", 19), ("25", 19)])
def test_the_workers_niceness_is_kept_within_0_and_19(monkeypatch: pytest.MonkeyPatch,
                                                      nice: str, kept: int) -> None:
    assert pool_with(Workers(), 1, monkeypatch, RELIQUARY_AI_NICE=nice).nice == kept
    with pytest.raises(ValueError, match="RELIQUARY_AI_NICE must be at least 0, not -3"):
        pool_with(Workers(), 1, monkeypatch, RELIQUARY_AI_NICE="-3")


def test_a_full_queue_refuses_one_more_and_the_rest_run_in_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 2, monkeypatch, RELIQUARY_AI_QUEUE="3")

    async def scenario() -> None:
        tasks = [asyncio.ensure_future(pool.run(f"g{i}", 1.0, echo, i)) for i in range(5)]
        await settle()
        assert sorted(label for _, label in workers.running()) == [0, 1]
        assert (pool.thinking, pool.queued) == (2, 3)
        with pytest.raises(QueueFull, match="3 searches are waiting"):
            await pool.run("g9", 1.0, echo, 9)
        assert pool.status("g0")[:2] == ("thinking", None)  # type: ignore[index]
        assert [pool.status(f"g{i}")[:2] for i in (2, 3, 4)] == [  # type: ignore[index]
            ("queued", 1), ("queued", 2), ("queued", 3)]
        assert pool.status("g2")[2] == 1.0  # type: ignore[index]  # its budget, all of it
        assert pool.status("nothing") is None
        workers.finish(0)
        await settle()
        assert sorted(label for _, label in workers.running()) == [1, 2]
        for label in (1, 2, 3, 4):
            workers.finish(label)
            await settle()
        assert [await t for t in tasks] == [0, 1, 2, 3, 4]
        assert (pool.thinking, pool.queued) == (0, 0)

    asyncio.run(scenario())


def test_owners_take_turns_fewest_running_first_then_served_longest_ago(
        monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 2, monkeypatch)

    async def scenario() -> None:
        def start(label: str, owner: str) -> asyncio.Future[Any]:
            return asyncio.ensure_future(pool.run(label, None, echo, label, owner=owner))

        tasks = [start("a1", "a"), start("a2", "a")]
        await settle()
        tasks += [start("a3", "a"), start("a4", "a"), start("b1", "b"), start("c1", "c")]
        await settle()
        workers.finish("a1")  # a runs one, b and c none: b, the first of them, goes
        await settle()
        assert sorted(label for _, label in workers.running()) == ["a2", "b1"]
        workers.finish("b1")  # a and c run... c none: c goes before a's waiting thinks
        await settle()
        assert sorted(label for _, label in workers.running()) == ["a2", "c1"]
        workers.finish("c1")  # a1's turn came before b's and c's: a is served longest ago
        await settle()
        assert sorted(label for _, label in workers.running()) == ["a2", "a3"]
        for label in ("a2", "a3", "a4"):
            workers.finish(label)
            await settle()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())


def test_a_game_s_thinks_go_home_and_hints_to_any_free_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 3, monkeypatch)

    async def scenario() -> None:
        first = asyncio.ensure_future(pool.run("g", None, echo, "g1", sticky=True))
        await settle()
        [(home, _)] = workers.running()
        assert pool.home("g") == home
        workers.finish("g1")
        await first
        others = [asyncio.ensure_future(pool.run(f"h{i}", None, echo, f"h{i}", sticky=True))
                  for i in range(2)]
        await settle()
        # the two other games' thinks go to the workers home to no game
        assert {w for w, _ in workers.running()} == {0, 1, 2} - {home}
        for label in ("h0", "h1"):
            workers.finish(label)
        await asyncio.gather(*others)
        again = asyncio.ensure_future(pool.run("g", None, echo, "g2", sticky=True))
        hint = asyncio.ensure_future(pool.run("g", None, echo, "hint"))
        await settle()
        running = dict((label, w) for w, label in workers.running())
        assert running["g2"] == home and running["hint"] != home
        workers.finish("g2")
        workers.finish("hint")
        await asyncio.gather(again, hint)
        pool.forget("g")
        assert pool.home("g") is None

    asyncio.run(scenario())


def test_a_caller_that_leaves_leaves_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 1, monkeypatch)

    async def scenario() -> None:
        running = asyncio.ensure_future(pool.run("a", None, echo, "a"))
        waiting = asyncio.ensure_future(pool.run("b", None, echo, "b"))
        after = asyncio.ensure_future(pool.run("c", None, echo, "c"))
        await settle()
        assert pool.queued == 2
        waiting.cancel()
        await settle()
        assert pool.queued == 1 and pool.status("b") is None
        assert pool.status("c")[:2] == ("queued", 1)  # type: ignore[index]
        workers.finish("a")
        await settle()
        assert [label for _, label in workers.running()] == ["c"]
        workers.finish("c")
        assert (await running, await after) == ("a", "c")

    asyncio.run(scenario())


def test_stopping_a_game_s_think_frees_its_worker_for_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 1, monkeypatch)

    async def scenario() -> None:
        think = asyncio.ensure_future(pool.run("g", None, echo, "g", sticky=True))
        hint = asyncio.ensure_future(pool.run("h", None, echo, "h"))
        await settle()
        assert pool.stop("h") is False  # a hint (queued, or running) is not stopped
        assert pool.stop("g") is True and pool.stopped == 1
        await settle()
        assert pool.thinking == 1 and pool.status("h")[0] == "thinking"  # type: ignore[index]
        assert pool.home("g") is None
        assert pool.stop("g") is False
        workers.finish("h")
        assert await hint == "h"
        think.cancel()

    asyncio.run(scenario())
