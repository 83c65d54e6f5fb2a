"""A run survives its faults: a worker killed mid-game (``kill -9``, the out-of-memory
killer), a game that raises MemoryError, and Ctrl-C, which stops it in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reliquary.lab.runner import FAULT_ENV, run_spec
from reliquary.lab.spec import parse_spec
from reliquary.lab.store import Store

SPEC = """
name = "faulty"
seed = 11
games_per_cell = {games}
factions = [["pyre-choir", "grave-tide"], ["storm-sworn", "bone-wardens"]]
[settings]
round_cap = 8
[[agents]]
name = "greedy"
"""


def _spec(tmp_path: Path, games: int = 2) -> Path:
    path = tmp_path / "faulty.toml"
    path.write_text(SPEC.format(games=games))
    return path


def _run(tmp_path: Path, fault: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    monkeypatch.setenv(FAULT_ENV, fault)   # inherited by the spawned workers
    spec = parse_spec(_spec(tmp_path).read_text(), tmp_path / "faulty.toml")
    return run_spec(spec, tmp_path / "run", workers=2, batch=1)


def test_a_worker_killed_once_mid_game_is_replaced_and_its_game_played_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The worker playing game 1 kills itself (SIGKILL) on the first try only.
    summary = _run(tmp_path, "kill:1:1", monkeypatch)
    assert summary["played"] == 4 and summary["failed"] == []
    assert Store(tmp_path / "run").table()["game_index"].to_list() == [0, 1, 2, 3]
    assert not (tmp_path / "run" / "failed.json").exists()


def test_a_game_whose_worker_always_dies_is_recorded_as_failed_and_the_run_finishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = _run(tmp_path, "kill:2", monkeypatch)
    assert summary["played"] == 3
    [failure] = summary["failed"]  # type: ignore[misc]
    assert failure["game_index"] == 2 and failure["attempts"] == 2
    assert "SIGKILL" in failure["error"]
    store = Store(tmp_path / "run")
    assert store.table()["game_index"].to_list() == [0, 1, 3]
    assert [f["game_index"] for f in store.failures()] == [2]
    # Resuming tries the failed game again; once it plays, it is no longer listed.
    monkeypatch.delenv(FAULT_ENV)
    spec = parse_spec(_spec(tmp_path).read_text(), tmp_path / "faulty.toml")
    again = run_spec(spec, tmp_path / "run", workers=1)
    assert (again["played"], again["skipped"]) == (1, 3)
    assert store.failures() == []


def test_a_memory_error_in_one_game_is_recorded_and_the_run_finishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = _run(tmp_path, "memory:0", monkeypatch)
    assert summary["played"] == 3
    [failure] = summary["failed"]  # type: ignore[misc]
    assert failure["game_index"] == 0 and failure["error"].startswith("MemoryError")


def _cli(*args: str, env: dict[str, str] | None = None, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", "from reliquary.cli.main import main; main()", *args],
        env={**os.environ, **(env or {})}, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, **kwargs)


def _workers(pid: int) -> list[int]:
    """The run's worker processes (its spawned children, not Python's resource tracker)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    out = []
    for child in map(int, children):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(child)
        except FileNotFoundError:
            continue
    return out


def _oom_score_adj(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/oom_score_adj").read_text().strip()
    except FileNotFoundError:
        return ""


def test_kill_9_of_the_workers_from_outside_does_not_hang_the_run(tmp_path: Path) -> None:
    """As in the issue: ``kill -9`` on the workers while they play (a worker is idle only
    for the moment between two games, so both are killed mid-game)."""
    spec = _spec(tmp_path, games=3)
    out = tmp_path / "run"
    proc = _cli("lab", "run", str(spec), "--out", str(out), "--workers", "2", "--batch", "1")
    try:
        # Wait for one stored game (both workers are up by then), then kill them both.
        deadline = time.monotonic() + 120
        victims: list[int] = []
        while len(victims) < 2 and time.monotonic() < deadline and proc.poll() is None:
            if list((out / "games").glob("*.parquet")):
                # Ready workers have raised their OOM score: out of memory, the kernel
                # picks one of them first, not the run itself.
                victims = [w for w in _workers(proc.pid) if _oom_score_adj(w) == "500"]
            time.sleep(0.02)
        assert len(victims) == 2, "the run ended before its workers could be killed"
        assert _oom_score_adj(proc.pid) == _oom_score_adj(os.getpid())
        for victim in victims:
            os.kill(victim, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=180)
    finally:
        proc.kill()
    assert proc.returncode == 0, stderr
    assert "6 games played, 0 already stored, 6/6" in stdout
    assert len(Store(out).table()) == 6


def test_ctrl_c_stops_in_one_line_and_keeps_the_finished_games(tmp_path: Path) -> None:
    spec = _spec(tmp_path, games=200)
    out = tmp_path / "run"
    # A new session, so that the SIGINT goes to the whole group as a terminal's Ctrl-C does;
    # and SIGINT's default disposition, as in a terminal's foreground job: a Python started
    # with SIGINT ignored (inherited from a test process that ignores it) keeps ignoring it.
    proc = _cli("lab", "run", str(spec), "--out", str(out), "--workers", "2", "--batch", "1",
                start_new_session=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while (not list((out / "games").glob("*.parquet")) and time.monotonic() < deadline
               and proc.poll() is None):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    [line] = [line for line in stderr.splitlines() if line.startswith("stopped:")]
    stored = len(Store(out).table())
    assert 1 <= stored < 400
    assert line == (f"stopped: {stored} of 400 games stored in {out}; run the same command "
                    "again to resume")
    meta = json.loads((out / "lab.json").read_text())
    assert meta["command"].startswith("reliquary lab run")


def test_compare_leaves_out_the_pair_of_a_failed_game_and_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reliquary.lab.compare import compare

    monkeypatch.setenv(FAULT_ENV, "kill:1")        # game 1 of A and of B: always killed
    a = parse_spec(SPEC.format(games=1), tmp_path / "a.toml")
    b = parse_spec(SPEC.format(games=1).replace("round_cap = 8", "round_cap = 9"),
                   tmp_path / "b.toml")
    result = compare(a, b, "mean_length", tmp_path / "A", tmp_path / "B", max_games=8,
                     workers=2)
    assert result.failed == 2
    # Pairs by cell: games 0, 2, 3 and 4 of each (game 1's pair left out), none shifted.
    assert (result.observations, result.games_used) == (4, 8)
    for run in ("A", "B"):
        assert Store(tmp_path / run).table()["game_index"].to_list() == [0, 2, 3, 4]
