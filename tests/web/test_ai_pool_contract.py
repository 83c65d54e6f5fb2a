"""The AI pool's documented contract, value by value, without starting a worker (issue
31, by class: the samples kept finding survivors in ``web/ai_pool.py`` that the app's
tests do not reach). Pins the module's constants, each ``RELIQUARY_AI_*`` default and
bound, the levels' budgets, a worker's kept agents (``agent_for``), the values sent to
the view (``_unit``, ``ai_status``, ``ai_evaluation``), the pool's status and stats,
``forget`` and ``_prune``'s hour, and ``choose``'s refusals and per-turn budget."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from reliquary.ai.search import SearchAgent
from reliquary.content import default_content
from reliquary.engine import Game
from reliquary.web import ai_pool
from reliquary.web.ai_pool import AIPool, _Brain, _Job


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RELIQUARY_AI_WORKERS", "RELIQUARY_HINT_SECONDS", "RELIQUARY_AI_QUEUE",
                 "RELIQUARY_AI_NICE", "RELIQUARY_AI_WARM_GAMES"):
        monkeypatch.delenv(name, raising=False)


def test_module_constants() -> None:
    assert ai_pool.DEFAULT_HINT_SECONDS == 1.0
    assert ai_pool.PARENT_LOOK_S == 0.25
    assert ai_pool.PATCH_KEY == "ruleset_patch"
    assert ai_pool.QUEUE_FULL_RETRY_S == 0.5
    assert ai_pool._HOMES_KEPT == 4096


def test_default_workers_one_fewer_than_the_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    for cpus, workers in ((8, 7), (2, 1), (1, 1), (None, 1)):
        monkeypatch.setattr(ai_pool.os, "cpu_count", lambda c=cpus: c)
        assert ai_pool.default_max_thinking() == workers
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "3")
    assert ai_pool.default_max_thinking() == 3
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "0")  # at least 1
    with pytest.raises(ValueError, match="RELIQUARY_AI_WORKERS"):
        ai_pool.default_max_thinking()


def test_level_budgets() -> None:
    assert ai_pool.level_budget("easy") is None
    assert ai_pool.level_budget("medium") == 0.3
    assert ai_pool.level_budget("hard") == 1.5
    assert ai_pool.level_budget("max") == 6.0
    assert ai_pool.level_budget("no such level") is None


def test_warm_games_default_and_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ai_pool.warm_games() == 4
    monkeypatch.setenv("RELIQUARY_AI_WARM_GAMES", "0")
    assert ai_pool.warm_games() == 0
    monkeypatch.setenv("RELIQUARY_AI_WARM_GAMES", "-1")
    with pytest.raises(ValueError):
        ai_pool.warm_games()


def test_pool_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    content = default_content()
    pool = AIPool(content, max_thinking=3)
    assert pool.max_thinking == 3
    assert pool.hint_seconds == 1.0
    assert pool.start_method == "spawn"
    assert pool.max_queued == 8 * 3 + 8
    assert pool.nice == 10
    assert pool._workers == [None, None, None]  # started on first use
    assert (pool.stopped, pool.closed, pool.warmed) == (0, False, False)
    assert pool.stats() == {"thinking": 0, "queued": 0, "workers": 3, "warmed": False}
    assert AIPool(content, max_thinking=1, hint_seconds=0.25).hint_seconds == 0.25
    monkeypatch.setattr(ai_pool.os, "cpu_count", lambda: 5)
    assert AIPool(content).max_thinking == 4


def test_pool_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    content = default_content()
    monkeypatch.setenv("RELIQUARY_HINT_SECONDS", "2.5")
    monkeypatch.setenv("RELIQUARY_AI_QUEUE", "5")
    monkeypatch.setenv("RELIQUARY_AI_NICE", "3")
    pool = AIPool(content, max_thinking=2)
    assert (pool.hint_seconds, pool.max_queued, pool.nice) == (2.5, 5, 3)
    monkeypatch.setenv("RELIQUARY_AI_NICE", "40")  # 0..19
    assert AIPool(content, max_thinking=2).nice == 19
    monkeypatch.setenv("RELIQUARY_AI_NICE", "0")
    assert AIPool(content, max_thinking=2).nice == 0
    monkeypatch.setenv("RELIQUARY_AI_QUEUE", "0")  # at least 1
    with pytest.raises(ValueError, match="RELIQUARY_AI_QUEUE"):
        AIPool(content, max_thinking=2)


def test_a_shut_pool_starts_no_worker() -> None:
    pool = AIPool(default_content(), max_thinking=1)
    pool.closed = True
    with pytest.raises(RuntimeError, match="shut down"):
        pool.executor(0)
    assert pool.stats()["workers"] == 0


def test_unit_keeps_values_in_range_and_squashes_points() -> None:
    assert ai_pool._unit(0.5) == 0.5
    assert ai_pool._unit(-1.0) == -1.0
    assert ai_pool._unit(1.0) == 1.0
    assert ai_pool._unit(0.12345) == 0.123  # three decimals
    assert ai_pool._unit(150.0) == round(ai_pool.squash(150.0), 3) == 0.762
    assert ai_pool._unit(-150.0) == -0.762
    assert ai_pool._unit(-99_999.0) == -1.0


def test_agent_for_keeps_the_last_games_search_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_pool, "_WARM_AGENTS", type(ai_pool._WARM_AGENTS)())
    kept = ai_pool._WARM_AGENTS
    first = ai_pool.agent_for("g1", "hard", seed=1)
    assert isinstance(first, SearchAgent)
    assert list(kept) == [("g1", "hard")]
    # the same game and level: the same agent, reseeded
    again = ai_pool.agent_for("g1", "hard", seed=2)
    assert again is first
    # another level of the same game is another agent
    assert ai_pool.agent_for("g1", "max", seed=1) is not first
    for n in range(2, 6):
        ai_pool.agent_for(f"g{n}", "hard", seed=n)
    assert len(kept) == 4  # RELIQUARY_AI_WARM_GAMES
    assert ("g1", "hard") not in kept and ("g1", "max") not in kept  # the oldest first
    assert list(kept)[-1] == ("g5", "hard")
    # a level without a search table keeps nothing
    ai_pool.agent_for("g9", "easy", seed=1)
    ai_pool.agent_for("g9", "medium", seed=1)
    assert list(kept) == [("g2", "hard"), ("g3", "hard"), ("g4", "hard"), ("g5", "hard")]
    # nor does a think without a game, which leaves the games' agents kept
    ai_pool.agent_for(None, "hard", seed=1)
    assert list(kept) == [("g2", "hard"), ("g3", "hard"), ("g4", "hard"), ("g5", "hard")]
    monkeypatch.setenv("RELIQUARY_AI_WARM_GAMES", "0")
    assert ai_pool.agent_for("g2", "hard", seed=1) is not None
    assert len(kept) == 0


def test_status_of_a_running_and_a_queued_search(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = AIPool(default_content(), max_thinking=1)
    now = [100.0]
    monkeypatch.setattr(ai_pool.time, "monotonic", lambda: now[0])
    pool._running[1] = _Job("run", 1.5, started=99.0)
    loop = asyncio.new_event_loop()
    try:
        pool._waiting[2] = (_Job("q1", 0.3), loop.create_future())
        pool._waiting[3] = (_Job("q2", None), loop.create_future())
    finally:
        loop.close()
    assert pool.status("run") == ("thinking", None, 0.5)
    now[0] = 200.0
    assert pool.status("run") == ("thinking", None, 0.0)  # never below 0
    assert pool.status("q1") == ("queued", 1, 0.3)
    assert pool.status("q2") == ("queued", 2, None)
    assert pool.status("none") is None
    pool._running[4] = _Job("unbudgeted", None, started=1.0)
    assert pool.status("unbudgeted") == ("thinking", None, None)
    assert (pool.thinking, pool.queued) == (2, 2)
    assert pool.stats() == {"thinking": 2, "queued": 2, "workers": 1, "warmed": False}


def test_ai_status_objects() -> None:
    pool = AIPool(default_content(), max_thinking=1)
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=False) == {
        "state": "idle", "queue_position": None, "budget_s": 1.5, "seconds_left": None}
    assert ai_pool.ai_status(None, "g", "easy", ai_to_move=True) == {
        "state": "thinking", "queue_position": None, "budget_s": None, "seconds_left": None}
    pool._brains["g"] = _Brain("hard", spent=0.4)
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=True) == {
        "state": "thinking", "queue_position": None, "budget_s": 1.5, "seconds_left": 1.1}
    pool._brains["g"].spent = 2.0
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=True)["seconds_left"] == 0.0
    assert ai_pool.ai_status(pool, "g", None, ai_to_move=False)["budget_s"] is None
    pool._running[1] = _Job("g", 1.5, started=time.monotonic() - 0.5)
    found = ai_pool.ai_status(pool, "g", "hard", ai_to_move=False)
    assert found["state"] == "thinking" and found["queue_position"] is None
    assert found["budget_s"] == 1.5 and 0.0 <= found["seconds_left"] <= 1.0
    pool._running[1] = _Job("g", None, started=time.monotonic())
    assert ai_pool.ai_status(pool, "g", "easy", ai_to_move=False)["seconds_left"] is None


def test_ai_evaluation_turned_to_the_human() -> None:
    pool = AIPool(default_content(), max_thinking=1)
    state = Game(default_content()).state
    # no search yet: the static evaluation for the human, squashed
    from reliquary.ai import evaluate

    for human in (0, 1):
        assert ai_pool.ai_evaluation(pool, "g", state, human) == round(
            ai_pool.squash(evaluate(state, human)), 3)
    pool._brains["g"] = _Brain("hard", value=0.6)
    assert ai_pool.ai_evaluation(pool, "g", state, 0) == -0.6
    pool._brains["g"].value = -0.25
    assert ai_pool.ai_evaluation(pool, "g", state, 1) == 0.25
    pool._brains["g"].value = None
    assert ai_pool.ai_evaluation(pool, "g", state, 0) == round(
        ai_pool.squash(evaluate(state, 0)), 3)


def test_forget_drops_the_plan_and_the_home() -> None:
    pool = AIPool(default_content(), max_thinking=2)
    pool._brains["g"] = _Brain("hard")
    pool._homes["g"] = 1
    pool._brains["h"] = _Brain("hard")
    assert pool.home("g") == 1 and pool.brain("g") is not None
    pool.forget("g")
    assert pool.home("g") is None and pool.brain("g") is None
    assert pool.brain("h") is not None
    pool.forget("never")  # nothing to drop: no error


def test_prune_drops_plans_unused_for_an_hour_once_256_are_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = AIPool(default_content(), max_thinking=1)
    monkeypatch.setattr(ai_pool.time, "monotonic", lambda: 10_000.0)
    for n in range(255):
        pool._brains[f"old{n}"] = _Brain("hard", used=0.0)
    pool._prune()
    assert len(pool._brains) == 255  # under 256: kept however old
    pool._brains["recent"] = _Brain("hard", used=10_000.0 - 3599.0)
    pool._brains["edge"] = _Brain("hard", used=10_000.0 - 3601.0)
    pool._prune()
    assert set(pool._brains) == {"recent"}


def test_choose_and_hint_refuse_chance_and_the_end() -> None:
    pool = AIPool(default_content(), max_thinking=1)
    for state in (SimpleNamespace(is_chance=True, is_terminal=False),
                  SimpleNamespace(is_chance=False, is_terminal=True)):
        with pytest.raises(ValueError, match="only at its own decision"):
            asyncio.run(pool.choose("g", state, "hard", 1))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="no hint"):
            asyncio.run(pool.hint("g", state))  # type: ignore[arg-type]
    assert pool.brain("g") is None and pool.thinking == 0 and pool.queued == 0
