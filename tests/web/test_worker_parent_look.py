"""An AI worker looks at its parent's id every 0.25 s, as docs/web.md says ("a thread
looks at its parent's id every 0.25 s"): how soon a killed server's workers end.
Issue 31, sample H: the interval halved passed every test (the tests of
``watch_parent`` give their own ``look_s``). The sleep is faked: no clock is read."""

from __future__ import annotations

import threading
import types

import pytest

from reliquary.web import ai_pool


def test_a_worker_looks_at_its_parent_every_quarter_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    exits: list[int] = []
    looking, release = threading.Event(), threading.Event()

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 1:  # hold the thread until the test has seen it
            looking.set()
            release.wait(timeout=30)

    # The parent is there for three looks, then gone: the worker exits (faked here).
    fake_os = types.SimpleNamespace(getppid=lambda: 7 if len(slept) < 3 else 1,
                                    _exit=exits.append)
    monkeypatch.setattr(ai_pool, "time", types.SimpleNamespace(sleep=sleep))
    monkeypatch.setattr(ai_pool, "os", fake_os)
    before = set(threading.enumerate())
    ai_pool.watch_parent(7)
    assert looking.wait(timeout=30)
    [watcher] = set(threading.enumerate()) - before
    assert watcher.name == "reliquary-parent-watch" and watcher.daemon
    release.set()
    watcher.join(timeout=30)
    assert not watcher.is_alive()
    assert slept == [0.25, 0.25, 0.25]
    assert exits == [1]
