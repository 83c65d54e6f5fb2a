"""The lab runner's contract value by value, in this process (issue 31, by class): the
runner's tests played real games through spawned workers, which coverage does not see,
so its small documented pieces went unread. Pins ``run_spec``'s summary, its batches
(every ``batch`` games, default twice the workers and at least 8, or every
``flush_seconds``) and callbacks, kept records and failures; ``run_games``' order;
``run_local`` playing one worker in this process; the in-process retries (``ATTEMPTS``
tries, then ``on_failure``); the worker loop's replies; the fault hook; a dead worker's
message; ``_stop``; a kept record's choice; ``failure_entry``; the throughput log; the
forced setup; the module chance streams."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from multiprocessing import Pipe
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reliquary.lab import runner
from reliquary.lab.runner import Failure
from reliquary.lab.spec import GameJob, LabSpec, parse_spec
from reliquary.lab.store import Store

from .tables import game

SPEC = """
name = "contract"
seed = 4
games_per_cell = {games}
factions = [["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]
[settings]
round_cap = 6
[[agents]]
name = "greedy"
[[agents]]
name = "random"
"""


def spec_of(tmp_path: Path, games: int) -> LabSpec:
    return parse_spec(SPEC.format(games=games), tmp_path / "contract.toml")


def row_of(job: GameJob, **extra: Any) -> dict[str, Any]:
    """A stand-in for a played game's row (the store's columns), marked as such."""
    return {**game(game_id=job.game_id, game_index=job.game_index, rep=job.rep,
                   run=job.run, detail="stand-in"), **extra}


class Clock:
    """``time`` for the runner with a perf_counter that moves ``step`` a call."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step
        self.strftime, self.monotonic = time.strftime, time.monotonic

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def fake_local(fail: set[int] | None = None) -> Any:
    seen: dict[str, Any] = {}

    def run_local(jobs: Any, workers: int | None = None, on_failure: Any = None) -> Any:
        seen["workers"] = workers
        for job in jobs:
            if fail and job.game_index in fail:
                if on_failure is not None:
                    on_failure(Failure(job, "MemoryError: boom", 2))
                continue
            yield row_of(job)
    run_local.seen = seen  # type: ignore[attr-defined]
    return run_local


# ---------------------------------------------------------------------- run_spec
@pytest.mark.parametrize(("workers", "batch", "sizes"), [
    (1, None, [8, 8, 4]), (6, None, [12, 8]), (1, 3, [3, 3, 3, 3, 3, 3, 2]),
    (None, None, [8, 8, 4])])
def test_run_spec_writes_a_batch_every_batch_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int | None,
        batch: int | None, sizes: list[int]) -> None:
    spec = spec_of(tmp_path, 5)                       # 2 seatings x 2 pairings x 5 = 20
    local = fake_local()
    monkeypatch.setattr(runner, "run_local", local)
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 1)
    written: list[int] = []
    real = Store.write_batch

    def write_batch(self: Store, rows: list[dict[str, Any]]) -> Any:
        written.append(len(rows))
        return real(self, rows)

    monkeypatch.setattr(Store, "write_batch", write_batch)
    monkeypatch.setattr(runner, "time", Clock(0.5))
    summary = runner.run_spec(spec, tmp_path / "run", workers=workers, batch=batch)
    assert [n for n in written if n] == sizes
    assert local.seen["workers"] == (workers or 1)
    assert summary["played"] == summary["stored"] == summary["planned"] == 20
    assert summary["skipped"] == 0 and summary["failed"] == []
    assert summary["run"] == str(tmp_path / "run")
    # the clock moved 0.5 s a reading: 21 readings after the start (one per row and
    # the end), so 10.5 s for 20 games
    assert summary["seconds"] == pytest.approx(10.5)
    assert summary["games_per_hour"] == pytest.approx(20 / 10.5 * 3600)
    [line] = (tmp_path / "run" / runner.THROUGHPUT_FILE).read_text().splitlines()
    entry = json.loads(line)
    assert (entry["played"], entry["workers"], entry["ray"]) == (20, workers or 1, None)
    assert entry["seconds"] == 10.5 and entry["games_per_hour"] == round(20 / 10.5 * 3600, 1)


def test_run_spec_flushes_after_flush_seconds(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of(tmp_path, 2)                       # 8 games
    monkeypatch.setattr(runner, "run_local", fake_local())
    written: list[int] = []
    real = Store.write_batch
    monkeypatch.setattr(Store, "write_batch",
                        lambda self, rows: (written.append(len(rows)), real(self, rows))[1])
    monkeypatch.setattr(runner, "time", Clock(10.0))
    runner.run_spec(spec, tmp_path / "a", workers=1, flush_seconds=25.0)
    # a reading every 10 s: more than 25 s since the last write after every third game
    assert [n for n in written if n] == [3, 3, 2]
    written.clear()
    runner.run_spec(spec_of(tmp_path, 2), tmp_path / "b", workers=1, flush_seconds=20.0)
    assert [n for n in written if n] == [3, 3, 2]     # 20 s is not more than 20 s
    written.clear()
    runner.run_spec(spec_of(tmp_path, 2), tmp_path / "c", workers=1)   # 60 s by default
    assert [n for n in written if n] == [7, 1]


def test_run_spec_resumed_with_nothing_left_and_its_failures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of(tmp_path, 1)                       # 4 games
    monkeypatch.setattr(runner, "run_local", fake_local(fail={2}))
    failures: list[Failure] = []
    summary = runner.run_spec(spec, tmp_path / "run", workers=1,
                              on_failure=failures.append)
    job = spec.jobs()[2]
    want = {"game_id": job.game_id, "game_index": 2,
            "factions": list(job.factions or ()), "agents": [a.display() for a in job.agents],
            "error": "MemoryError: boom", "attempts": 2}
    assert [f.job for f in failures] == [job]
    assert summary["failed"] == [want]
    assert (summary["played"], summary["stored"], summary["planned"]) == (3, 3, 4)
    assert Store(tmp_path / "run").failures() == [want]
    monkeypatch.setattr(runner, "run_local", fake_local())
    again = runner.run_spec(spec, tmp_path / "run", workers=1)
    assert (again["played"], again["skipped"], again["stored"]) == (1, 3, 4)
    assert Store(tmp_path / "run").failures() == []
    done = runner.run_spec(spec, tmp_path / "run", workers=1)
    assert (done["played"], done["skipped"], done["games_per_hour"]) == (0, 4, 0.0)
    lines = (tmp_path / "run" / runner.THROUGHPUT_FILE).read_text().splitlines()
    assert [json.loads(x)["played"] for x in lines] == [3, 1]   # none for no game


def test_run_spec_stores_a_kept_record_apart_from_its_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of(tmp_path, 1)

    def run_local(jobs: Any, workers: Any = None, on_failure: Any = None) -> Any:
        for job in jobs:
            extra = {runner.RECORD_KEY: {"moves": [job.game_index]}} \
                if job.game_index == 1 else {}
            yield row_of(job, **extra)

    monkeypatch.setattr(runner, "run_local", run_local)
    rows: list[dict[str, Any]] = []
    runner.run_spec(spec, tmp_path / "run", workers=1, on_row=rows.append)
    assert all(runner.RECORD_KEY not in r for r in rows) and len(rows) == 4
    store = Store(tmp_path / "run")
    assert list(store.records()) == [spec.jobs()[1].game_id]
    assert json.loads(store.records()[spec.jobs()[1].game_id].read_text()) == {"moves": [1]}


def test_run_spec_and_run_games_use_ray_only_with_an_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    def run_ray(jobs: Any, address: Any, in_flight: Any = None, on_failure: Any = None) -> Any:
        asked.append(address)
        for job in reversed(list(jobs)):
            yield row_of(job)

    monkeypatch.setattr(runner, "run_ray", run_ray)
    monkeypatch.setattr(runner, "run_local", fake_local())
    spec = spec_of(tmp_path, 1)
    runner.run_spec(spec, tmp_path / "run", workers=1, ray_address="auto")
    assert asked == ["auto"]
    entry = json.loads((tmp_path / "run" / runner.THROUGHPUT_FILE).read_text())
    assert entry["ray"] == "auto"
    seen: list[int] = []
    rows = runner.run_games(spec.jobs(), ray_address="local",
                            on_row=lambda r: seen.append(r["game_index"]))
    assert asked == ["auto", "local"]
    assert seen == [3, 2, 1, 0]                       # on_row as they come
    assert [r["game_index"] for r in rows] == [0, 1, 2, 3]   # returned in order
    rows = runner.run_games(spec.jobs(), workers=1)
    assert asked == ["auto", "local"] and len(rows) == 4


def test_run_games_reports_a_local_failure(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = spec_of(tmp_path, 1).jobs()

    def play(job: GameJob) -> dict[str, Any]:
        if job.game_index == 2:
            raise MemoryError("always")
        return row_of(job)

    monkeypatch.setattr(runner, "play_game", play)
    failures: list[Failure] = []
    rows = runner.run_games(jobs, workers=1, on_failure=failures.append)
    assert [r["game_index"] for r in rows] == [0, 1, 3]
    assert [(f.job.game_index, f.error, f.attempts) for f in failures] == [
        (2, "MemoryError: always", 2)]


# ---------------------------------------------------------------------- playing here
def test_one_worker_plays_in_this_process(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """One job, or one worker asked (or one core), is played here: the stand-in
    ``play_game`` of this process is the one called."""
    jobs = spec_of(tmp_path, 1).jobs()
    monkeypatch.setattr(runner, "play_game", lambda job: row_of(job))
    assert [r["detail"] for r in runner.run_local(jobs[:1], workers=4)] == ["stand-in"]
    assert len([r for r in runner.run_local(jobs, workers=1)]) == 4
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 1)
    assert len([r for r in runner.run_local(jobs)]) == 4
    assert list(runner.run_local([], workers=4)) == []


def test_a_game_raising_here_is_tried_again_then_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = spec_of(tmp_path, 1).jobs()
    tries: list[tuple[int, int]] = []

    def play(job: GameJob) -> dict[str, Any]:
        tries.append((job.game_index, len([t for t in tries if t[0] == job.game_index]) + 1))
        if job.game_index == 1 and tries[-1][1] == 1:
            raise ValueError("once")
        if job.game_index == 2:
            raise MemoryError("always")
        return row_of(job)

    monkeypatch.setattr(runner, "play_game", play)
    failures: list[Failure] = []
    rows = list(runner.run_local(jobs, workers=1, on_failure=failures.append))
    assert runner.ATTEMPTS == 2
    assert sorted(r["game_index"] for r in rows) == [0, 1, 3]
    assert sorted(tries) == [(0, 1), (1, 1), (1, 2), (2, 1), (2, 2), (3, 1)]
    [failure] = failures
    assert (failure.job, failure.error, failure.attempts) == (jobs[2], "MemoryError: always", 2)
    tries.clear()
    assert len(list(runner.run_local(jobs, workers=1))) == 3     # no on_failure: goes on


def test_the_worker_loop_answers_each_job(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    jobs = spec_of(tmp_path, 1).jobs()
    monkeypatch.setattr(runner, "play_game", lambda job: row_of(job))
    monkeypatch.setenv(runner.FAULT_ENV, "memory:1")
    written: list[tuple[str, str]] = []

    class FakePath:
        def __init__(self, path: str) -> None:
            self.path = path

        def write_text(self, text: str) -> None:
            written.append((self.path, text))

    monkeypatch.setattr(runner, "Path", FakePath)
    parent, child = Pipe()
    parent.send((jobs[0], 1))
    parent.send((jobs[1], 2))
    parent.send(None)
    previous = signal.getsignal(signal.SIGINT)
    try:
        runner._worker_main(child)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN   # Ctrl-C is the parent's
    finally:
        signal.signal(signal.SIGINT, previous)
    status, row = parent.recv()
    assert status == "ok" and row["game_id"] == jobs[0].game_id
    assert parent.recv() == ("error", "MemoryError: injected by RELIQUARY_LAB_FAULT")
    assert written == [("/proc/self/oom_score_adj", "500")] and runner.OOM_SCORE_ADJ == 500
    parent.close()
    gone, child = Pipe()   # a parent gone: the worker returns
    gone.close()
    try:
        runner._worker_main(child)
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize(("spec", "index", "attempt", "raises"), [
    ("", 1, 1, False), ("memory:1", 1, 1, True), ("memory:1", 1, 2, True),
    ("memory:1", 2, 1, False), ("memory:1:2", 1, 1, False), ("memory:1:2", 1, 2, True),
    ("memory:3:1", 3, 1, True), ("kill:1:2", 1, 1, False), ("kill:1", 2, 1, False)])
def test_the_fault_hook(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, spec: str,
                        index: int, attempt: int, raises: bool) -> None:
    job = next(j for j in spec_of(tmp_path, 1).jobs() if j.game_index == index)
    monkeypatch.setenv(runner.FAULT_ENV, spec)
    if raises:
        with pytest.raises(MemoryError, match="injected by RELIQUARY_LAB_FAULT"):
            runner._inject_fault(job, attempt)
    else:
        runner._inject_fault(job, attempt)
    assert runner.FAULT_ENV == "RELIQUARY_LAB_FAULT"


@pytest.mark.parametrize("spec", ["hang:1", "Memory:1", "kil:2:1"])
def test_the_fault_hook_refuses_an_unknown_kind(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path, spec: str) -> None:
    job = next(j for j in spec_of(tmp_path, 1).jobs() if j.game_index == 1)
    monkeypatch.setenv(runner.FAULT_ENV, spec)
    with pytest.raises(ValueError, match=f"RELIQUARY_LAB_FAULT='{spec}': the kind must be"):
        runner._inject_fault(job, 1)


@pytest.mark.parametrize(("code", "text"), [
    (-9, "the worker process died of SIGKILL (killed: out of memory?)"),
    (-15, "the worker process died of SIGTERM"),
    (-200, "the worker process died of signal 200"),
    (3, "the worker process exited with status 3"),
    (0, "the worker process exited with status 0"),
    (None, "the worker process exited with status None")])
def test_a_dead_worker_s_message(code: int | None, text: str) -> None:
    assert runner._death(SimpleNamespace(exitcode=code)) == text


class FakeProcess:
    def __init__(self, log: list[str], name: str, stays: bool) -> None:
        self.log, self.name, self.stays, self.killed = log, name, stays, False

    def kill(self) -> None:
        self.killed = True
        self.log.append(f"kill {self.name}")

    def join(self, timeout: float | None = None) -> None:
        self.log.append(f"join {self.name} {'-' if timeout is None else round(timeout, 1)}")

    def is_alive(self) -> bool:
        return self.stays and not self.killed


class FakeConn:
    def __init__(self, log: list[str], name: str) -> None:
        self.log, self.name = log, name

    def send(self, message: Any) -> None:
        self.log.append(f"send {self.name} {message}")

    def close(self) -> None:
        self.log.append(f"close {self.name}")


def test_stop_asks_the_idle_kills_the_busy_and_the_late(monkeypatch: pytest.MonkeyPatch,
                                                       ) -> None:
    log: list[str] = []
    monkeypatch.setattr(runner.time, "monotonic", lambda: 100.0)
    pool = [SimpleNamespace(job=None, process=FakeProcess(log, "idle", False),
                            conn=FakeConn(log, "idle")),
            SimpleNamespace(job="a game", process=FakeProcess(log, "busy", False),
                            conn=FakeConn(log, "busy")),
            SimpleNamespace(job=None, process=FakeProcess(log, "late", True),
                            conn=FakeConn(log, "late"))]
    runner._stop(pool)  # type: ignore[arg-type]
    assert log == ["send idle None", "kill busy", "send late None",
                   "join idle 1.0", "close idle", "join busy 1.0", "close busy",
                   "join late 1.0", "kill late", "join late -", "close late"]
    log.clear()
    runner._stop(pool[:1], grace=3.0)  # type: ignore[arg-type]
    assert log == ["send idle None", "join idle 3.0", "close idle"]


def test_sigint_is_ignored_while_a_worker_starts_on_the_main_thread_only() -> None:
    before = signal.getsignal(signal.SIGINT)
    with runner._sigint_ignored():
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) == before
    seen: list[Any] = []

    def elsewhere() -> None:
        with runner._sigint_ignored():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [before]


# ---------------------------------------------------------------------- small pieces
@pytest.mark.parametrize(("keep", "reason", "winner", "kept"), [
    ((), "vigil", None, False), (("all",), "hero_killed", "key", True),
    (("draw",), "vigil", None, True), (("draw",), "vigil", "key", False),
    (("capped",), "round_cap", None, True), (("capped",), "vigil", None, False),
    (("round_cap",), "round_cap", None, True), (("vigil",), "vigil", "skull", True),
    (("vigil",), "relic_home", "skull", False), (("relic_home", "draw"), "relic_home", "key", True),
    (("hero_killed",), "relic_home", "key", False)])
def test_which_games_keep_their_record(keep: tuple[str, ...], reason: str,
                                       winner: str | None, kept: bool) -> None:
    assert runner.keeps_record(keep, {"reason": reason, "winner": winner}) is kept


def test_a_failure_entry_with_and_without_factions(tmp_path: Path) -> None:
    job = spec_of(tmp_path, 1).jobs()[1]
    assert runner.failure_entry(Failure(job, "x", 1)) == {
        "game_id": job.game_id, "game_index": 1, "factions": list(job.factions or ()),
        "agents": [a.display() for a in job.agents], "error": "x", "attempts": 1}
    free = parse_spec(SPEC.format(games=1).replace(
        'factions = [["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]',
        'factions = "free"'), tmp_path / "free.toml").jobs()[0]
    assert runner.failure_entry(Failure(free, "y", 2))["factions"] is None


def test_the_throughput_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner._note_throughput(tmp_path, 0, 5.0, 2, None)
    assert not (tmp_path / runner.THROUGHPUT_FILE).exists()       # nothing played
    runner._note_throughput(tmp_path, 7, 0.0, 3, "auto")
    runner._note_throughput(tmp_path, 3, 7.26, 1, None)
    load = os.getloadavg()[0]

    def no_load() -> tuple[float, float, float]:
        raise OSError

    monkeypatch.setattr(runner.os, "getloadavg", no_load)
    runner._note_throughput(tmp_path, 1, 2.0, 1, None)
    entries = [json.loads(x) for x in
               (tmp_path / runner.THROUGHPUT_FILE).read_text().splitlines()]
    assert [(e["played"], e["seconds"], e["games_per_hour"], e["workers"], e["ray"])
            for e in entries] == [(7, 0.0, None, 3, "auto"), (3, 7.3, 1487.6, 1, None),
                                  (1, 2.0, 1800.0, 1, None)]
    assert entries[0]["load_average"] == pytest.approx(load, abs=50)
    assert entries[2]["load_average"] is None
    runner._note_throughput(tmp_path / "gone", 1, 1.0, 1, None)    # no folder: no error


def test_a_forced_setup_option_must_be_offered() -> None:
    class State:
        def __init__(self, kind: str, options: list[str]) -> None:
            self.kind, self.options = kind, options

        def decision(self) -> Any:
            return SimpleNamespace(kind=self.kind)

        def legal_options(self) -> list[str]:
            return self.options

    agent = SimpleNamespace(name="mine", choose=lambda state: "own")
    forced = runner._ForcedSetup(agent, "pyre-choir", "Harrow")
    assert forced.name == "mine"
    assert forced.choose(State("faction", ["grave-tide", "pyre-choir"])) == "pyre-choir"
    assert forced.choose(State("rite", ["Harrow"])) == "Harrow"
    assert forced.choose(State("play", ["x"])) == "own"
    with pytest.raises(ValueError, match="faction 'pyre-choir' is not offered"):
        forced.choose(State("faction", ["grave-tide"]))
    with pytest.raises(ValueError, match="rite 'Harrow' is not offered"):
        forced.choose(State("rite", ["Exhumation"]))
    free = runner._ForcedSetup(agent, None)
    assert free.choose(State("faction", ["grave-tide"])) == "own"
    assert free.choose(State("rite", ["Harrow"])) == "own"


def test_module_chance_kinds_draw_from_streams_of_their_own() -> None:
    def at(kind: str) -> Any:
        return SimpleNamespace(decision=lambda: SimpleNamespace(kind=kind))

    plain = runner.ChanceStreams(9)
    assert plain.stream(at("reveal")) is plain.main
    assert plain.main.random() == random.Random(9).random()
    dice = runner.ChanceStreams(9, ["reveal", "dread"])
    assert dice.stream(at("deal")) is dice.main
    reveal = dice.stream(at("reveal"))
    assert reveal is dice.stream(at("reveal")) and reveal is not dice.stream(at("dread"))
    assert reveal.random() == random.Random(runner.stream_seed(9, "reveal")).random()


# ---------------------------------------------------------------------- one game's row
def test_a_played_game_s_row_names_its_job_rules_result_and_rounds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real game: the row's identity columns are its job's, the rules' columns its
    settings', the result and counts the final state's; ``decisions`` counts the
    players' choices; ``eval_key`` holds Key's evaluation once at the end of each round,
    in order; no module figures without modules."""
    from reliquary.engine import SIDES
    from reliquary.lab.store import settings_columns

    job = spec_of(tmp_path, 1).jobs()[1]
    made: list[Any] = []
    real_state = runner.State

    def capture(*args: Any, **kwargs: Any) -> Any:
        made.append(real_state(*args, **kwargs))
        return made[-1]

    evaluated: list[tuple[int, int]] = []

    def evaluate(state: Any, side: int) -> float:
        evaluated.append((state.rounds, side))
        return 1.5 * state.rounds

    chosen: list[str] = []
    real_choose = runner._ForcedSetup.choose

    def choose(self: Any, state: Any) -> Any:
        chosen.append(state.decision().kind)
        return real_choose(self, state)

    monkeypatch.setattr(runner, "State", capture)
    monkeypatch.setattr(runner, "evaluate", evaluate)
    monkeypatch.setattr(runner._ForcedSetup, "choose", choose)
    row = runner.play_game(job)
    state = made[-1]
    assert state.result is not None
    assert (row["run"], row["spec_hash"], row["game_id"], row["game_index"], row["rep"],
            row["seed"]) == (job.run, job.spec_hash, job.game_id, job.game_index, job.rep,
                             job.chance_seed)
    assert row["content"] == state.content.fingerprint
    assert {k: row[k] for k in settings_columns(state.settings)} == settings_columns(
        state.settings)
    assert row["round_cap"] == 6
    winner = state.result.winner
    assert row["winner"] == (None if winner is None else SIDES[winner])
    assert (row["rounds"], row["turns"]) == (state.rounds, sum(state.turns_taken))
    assert row["decisions"] == len(chosen) > 0
    assert evaluated == [(r, 0) for r in range(1, state.rounds + 1)] and state.rounds > 1
    assert row["eval_key"] == [1.5 * r for r in range(1, state.rounds + 1)]
    assert row["module_stats"] == []
    assert isinstance(row["seconds"], float) and row["seconds"] >= 0
    plays = [k for k in chosen if k == "play"]
    assert plays and row["play_options_key"] > 0 and row["play_options_skull"] > 0


def test_a_seat_without_a_play_decision_has_no_options() -> None:
    from reliquary.content import default_content
    from reliquary.engine import State

    state = State(default_content(), runner.Settings())
    state.result = SimpleNamespace(winner=None, reason="round_cap", detail="", scores=None)
    job = SimpleNamespace(run="r", spec_hash="h", game_id="g", game_index=0, rep=0,
                          chance_seed=1, agents=(_entry(), _entry()), agent_a_seat=0)
    row = runner._row(job, state, [], [None, None], [[0, 0], [12, 3]], [], 0,  # type: ignore[arg-type]
                      0.0)
    assert (row["play_options_key"], row["play_options_skull"]) == (0.0, 4.0)
    assert row["vigil_min"] == state.settings.vigil_start and row["first"] is None
    assert (row["tiebreak"], row["vigil_score_key"], row["winner"]) == (None, None, None)


def _entry() -> Any:
    from reliquary.lab.spec import AgentEntry

    return AgentEntry(name="greedy")


def test_ray_is_started_quietly_without_its_own_retries(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``ray.init`` with the address (None for "local"), no dashboard, no worker logs
    in the driver; each game a task with Ray's retries off (the lab counts its own);
    "auto" by default."""
    import sys

    from .test_ray_retries import StandIn, games_failing

    jobs = spec_of(tmp_path, 1).jobs()
    games_failing(monkeypatch, {})
    for address, joined in (("local", None), ("auto", "auto")):
        ray = StandIn(initialized=False)
        monkeypatch.setitem(sys.modules, "ray", ray)
        assert len(list(runner.run_ray(jobs, address))) == len(jobs)
        assert ray.inits == [{"address": joined, "include_dashboard": False,
                              "log_to_driver": False}]
        assert ray.options == [{"max_retries": 0}]
    ray = StandIn(initialized=False)
    monkeypatch.setitem(sys.modules, "ray", ray)
    list(runner.run_ray(jobs))
    assert [i["address"] for i in ray.inits] == ["auto"]
