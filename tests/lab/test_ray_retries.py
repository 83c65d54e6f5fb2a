"""A run over Ray tries a failing game as a local run does (docs/lab.md): once more,
then it is reported as failed with its tries and the run goes on — Ray's own retries
off so that they cannot hide the count — with a bounded number of games in flight.

Ray itself is replaced by a stand-in that runs each task at once in this process (the
real cluster is exercised end to end by ``test_run.py::test_ray_stores_the_same_games``),
so that a game can fail on the tries the test chooses."""

from __future__ import annotations

import sys
import types
from collections import Counter
from typing import Any

import pytest

from reliquary.lab import runner
from reliquary.lab.runner import ATTEMPTS, Failure, run_games, run_ray
from reliquary.lab.spec import GameJob, parse_spec

SPEC = """
name = "over-ray"
seed = 5
games_per_cell = 3
factions = [["pyre-choir", "grave-tide"]]
[[agents]]
name = "greedy"
"""


class Ref:
    """A finished task: its row or its error."""

    def __init__(self, fn: Any, job: GameJob) -> None:
        self.job = job
        try:
            self.value, self.error = fn(job), None
        except Exception as err:  # what the game raised, as Ray keeps it
            self.value, self.error = None, err


class StandIn(types.ModuleType):
    """The few calls of Ray that ``run_ray`` makes."""

    def __init__(self, cpus: int | None = 1, initialized: bool = True) -> None:
        super().__init__("ray")
        self.cpus, self.initialized = cpus, initialized
        self.inits: list[dict[str, Any]] = []
        self.options: list[dict[str, Any]] = []
        self.in_flight = self.most_in_flight = self.submitted = 0

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)
        self.initialized = True

    def cluster_resources(self) -> dict[str, float]:
        return {} if self.cpus is None else {"CPU": float(self.cpus)}

    def remote(self, **options: Any) -> Any:
        self.options.append(options)
        stand_in = self

        class Task:
            def __init__(self, fn: Any) -> None:
                self.fn = fn

            def remote(self, job: GameJob) -> Ref:
                stand_in.submitted += 1
                assert stand_in.submitted < 1000, "a game retried without end"
                stand_in.in_flight += 1
                stand_in.most_in_flight = max(stand_in.most_in_flight, stand_in.in_flight)
                return Ref(self.fn, job)

        return Task

    def wait(self, refs: list[Ref], num_returns: int) -> tuple[list[Ref], list[Ref]]:
        assert num_returns == 1
        return refs[:1], refs[1:]

    def get(self, ref: Ref) -> Any:
        self.in_flight -= 1
        if ref.error is not None:
            raise ref.error
        return ref.value


@pytest.fixture
def jobs() -> list[GameJob]:
    return parse_spec(SPEC).jobs()


def games_failing(monkeypatch: pytest.MonkeyPatch, failing: dict[int, int]
                  ) -> Counter[int]:
    """Each game's row is its index; game i raises on its first ``failing[i]`` tries.
    Returns the tries per game, counted as they happen."""
    tries: Counter[int] = Counter()

    def play(job: GameJob) -> dict[str, Any]:
        tries[job.game_index] += 1
        if tries[job.game_index] <= failing.get(job.game_index, 0):
            raise RuntimeError(f"game {job.game_index} broke")
        return {"game_index": job.game_index}

    monkeypatch.setattr(runner, "play_game", play)
    return tries


def test_a_game_failing_every_try_is_tried_twice_then_reported_and_the_run_goes_on(
        jobs: list[GameJob], monkeypatch: pytest.MonkeyPatch) -> None:
    ray = StandIn()
    monkeypatch.setitem(sys.modules, "ray", ray)
    tries = games_failing(monkeypatch, {1: 99})
    failures: list[Failure] = []
    rows = list(run_ray(jobs, on_failure=failures.append))
    assert ATTEMPTS == 2
    assert tries[1] == ATTEMPTS
    assert sorted(r["game_index"] for r in rows) == [j.game_index for j in jobs if
                                                     j.game_index != 1]
    [failure] = failures
    assert failure.job.game_index == 1 and failure.attempts == ATTEMPTS
    assert failure.error == "RuntimeError: game 1 broke"
    assert ray.options == [{"max_retries": 0}]  # Ray's retries would hide the tries


def test_a_game_failing_once_is_played_again_and_kept(jobs: list[GameJob],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", StandIn())
    tries = games_failing(monkeypatch, {0: 1, 2: 1})
    failures: list[Failure] = []
    rows = run_games(jobs, ray_address="auto", on_failure=failures.append)
    assert [r["game_index"] for r in rows] == sorted(j.game_index for j in jobs)
    assert not failures
    assert tries[0] == tries[2] == 2 and tries[1] == 1


@pytest.mark.parametrize(("cpus", "in_flight", "bound"), [
    (1, None, 2), (3, None, 6), (3, 4, 4), (None, None, 2)])
def test_games_in_flight_are_bounded(jobs: list[GameJob], monkeypatch: pytest.MonkeyPatch,
                                     cpus: int | None, in_flight: int | None, bound: int
                                     ) -> None:
    """At most twice the cluster's CPUs (at least 2; a cluster that reports none
    counts as one CPU), or the number asked for."""
    many = [j for _ in range(3) for j in jobs]
    ray = StandIn(cpus=cpus)
    monkeypatch.setitem(sys.modules, "ray", ray)
    games_failing(monkeypatch, {})
    rows = list(run_ray(many, in_flight=in_flight))
    assert len(rows) == len(many)
    assert ray.most_in_flight == bound


@pytest.mark.parametrize(("address", "joined"), [("local", None), ("auto", "auto"),
                                                 ("ray://head:10001", "ray://head:10001")])
def test_ray_is_started_or_joined_only_when_not_running(
        jobs: list[GameJob], monkeypatch: pytest.MonkeyPatch, address: str,
        joined: str | None) -> None:
    games_failing(monkeypatch, {})
    ray = StandIn(initialized=False)
    monkeypatch.setitem(sys.modules, "ray", ray)
    assert len(list(run_ray(jobs, address))) == len(jobs)
    assert [i["address"] for i in ray.inits] == [joined]
    running = StandIn(initialized=True)
    monkeypatch.setitem(sys.modules, "ray", running)
    list(run_ray(jobs, address))
    assert not running.inits
    none = StandIn(initialized=False)
    monkeypatch.setitem(sys.modules, "ray", none)
    assert list(run_ray([], address)) == [] and not none.inits
