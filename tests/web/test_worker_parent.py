"""An AI worker ends once the server that started it is gone (web/ai_pool.py,
``watch_parent``: "a daemon thread looks at our parent's id every ``look_s`` and exits
once it changed"). Issue 31, sample F: the parent given to it ignored passed every test.
Here a process watches a parent it does not have (so: already gone), and one watches
its real parent, which is then killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

WATCH = ("import sys, time; from reliquary.web.ai_pool import watch_parent; "
         "watch_parent({parent}, look_s=0.05); print('watching', flush=True); "
         "time.sleep(20); print('still here')")


def test_a_worker_whose_parent_is_gone_ends_at_once() -> None:
    gone = 1 if os.getpid() != 1 else 2  # not the child's parent: this test process is
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", WATCH.format(parent=gone)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "still here" not in done.stdout
    assert time.monotonic() - started < 15


def test_an_orphaned_worker_ends_when_its_parent_is_killed() -> None:
    # A middle process (the "server") starts the worker and is then killed with -9.
    middle = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys, time; "
         f"w = subprocess.Popen([sys.executable, '-c', {WATCH.format(parent='None')!r}]); "
         "print(w.pid, flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    assert middle.stdout is not None
    worker = int(middle.stdout.readline())
    assert middle.stdout.readline().strip() == "watching"  # (its stdout is the middle's)
    middle.send_signal(signal.SIGKILL)
    middle.wait(timeout=30)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and _alive(worker):
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
