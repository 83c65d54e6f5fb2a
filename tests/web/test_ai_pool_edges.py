"""The AI pool's paths the app's tests seldom take (web/ai_pool.py; issue 31, by class:
its lines no test of its set ran), each against its docstring: a worker's start (its
content kept, Ctrl+C left to the server, its niceness) and ``_ready``; the content of
a position under a packaged ruleset; a line turned into tokens and back into a plan,
each stopping where the AI's own decisions stop or a token no longer reads;
``think_in_worker``'s value for each kind of agent, an agent that is not a planner and
the safeguard for an empty plan; ``hint_in_worker``'s fields; ``choose`` at a setup
decision and with a line that does not answer; the queue's fallback when every
candidate's home is busy; a worker that cannot start or breaks; ``shutdown`` dropping
the queue; and ``choose_remembering`` for an agent that does not draft."""

from __future__ import annotations

import asyncio
import random
import signal
from collections import OrderedDict
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

import reliquary
from reliquary.ai import get_agent, position_key
from reliquary.ai.drafting import setup_choice as draft_setup_choice
from reliquary.ai.planning import PlanningAgent
from reliquary.content import default_content
from reliquary.engine import KEY, SETUP_KINDS, SKULL, Builder, State, format_option
from reliquary.rulesets import load_ruleset
from reliquary.web import ai_pool
from reliquary.web.ai_pool import AIPool, _Brain, _Job, choose_remembering

from .test_ai_pool_queue import Workers, pool_with


def _position() -> State:
    content = default_content()
    return (Builder(content).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
            .hero(SKULL, "h5").minion(SKULL, "g7").build())


def _turn_line(state: State) -> list[Any]:
    """The first legal option at each of the mover's decisions to the end of its turn,
    and one decision past it (the opponent's, or chance)."""
    s = state.clone()
    me = s.current_player
    line: list[Any] = []
    while True:
        option = s.legal_options()[0]
        line.append(option)
        mine = s.current_player == me and not s.is_chance
        s.apply(option)
        if not mine or s.is_terminal:
            return line


# ---------------------------------------------------------------------- a worker's start
def test_a_worker_keeps_its_content_ignores_ctrl_c_and_lowers_its_priority(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(ai_pool.signal, "signal",
                        lambda sig, handler: calls.append(("signal", (sig, handler))))
    monkeypatch.setattr(ai_pool, "watch_parent", lambda: calls.append(("watch", None)))
    monkeypatch.setattr(ai_pool.os, "nice", lambda n: calls.append(("nice", n)))
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", None)
    assert ai_pool._ready() is False
    content = default_content()
    ai_pool._init_worker(content, 7)
    assert calls == [("signal", (signal.SIGINT, signal.SIG_IGN)), ("watch", None),
                     ("nice", 7)]
    assert ai_pool._WORKER_CONTENT is content and ai_pool._ready() is True
    calls.clear()
    ai_pool._init_worker(content, 0)  # niceness 0: left as it is
    assert [c[0] for c in calls] == ["signal", "watch"]


def test_a_niceness_the_system_refuses_is_no_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(n: int) -> int:
        raise PermissionError("not allowed")

    monkeypatch.setattr(ai_pool.signal, "signal", lambda *a: None)
    monkeypatch.setattr(ai_pool, "watch_parent", lambda: None)
    monkeypatch.setattr(ai_pool.os, "nice", refuse)
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", None)
    ai_pool._init_worker(default_content(), 10)
    assert ai_pool._ready() is True


# ---------------------------------------------------------------------- rulesets
def test_a_position_s_content_by_its_fingerprint() -> None:
    content = default_content()
    tournament = load_ruleset("tournament").content()
    assert tournament.fingerprint != content.fingerprint
    # a packaged ruleset's, with no patch sent
    found = ai_pool.ruleset_content(tournament.fingerprint, content)
    assert found.fingerprint == tournament.fingerprint
    # the patch sent wins (a game keeps the patch it began with)
    patch = load_ruleset("tournament").patch
    found = ai_pool.ruleset_content(tournament.fingerprint, content, patch)
    assert found.fingerprint == tournament.fingerprint
    # a patch of another content: the packaged rulesets are looked at all the same
    found = ai_pool.ruleset_content(tournament.fingerprint, content, {"cards": {}})
    assert found.fingerprint == tournament.fingerprint
    # an edited ruleset: only the patch the game kept has it
    edited = {"factions": {"gallows-court": {"hero_hp": 5}}}
    kept = ai_pool.stored_content("ruleset", edited)
    assert kept.fingerprint not in (content.fingerprint, tournament.fingerprint)
    found = ai_pool.ruleset_content(kept.fingerprint, content, edited)
    assert found.fingerprint == kept.fingerprint
    # none has it: the server's content (the position is then refused as of another)
    assert ai_pool.ruleset_content("no-such-fingerprint", content) is content


def test_a_worker_reads_a_position_under_a_packaged_ruleset(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = load_ruleset("tournament").content()
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    state = reliquary.new_game(content=tournament) if _takes_content() else None
    if state is None:
        pytest.skip("new_game takes no content")  # pragma: no cover
    position = ai_pool.position_to_dict(state)  # no patch sent beside it
    assert ai_pool._state_of(position).content.fingerprint == tournament.fingerprint


def _takes_content() -> bool:
    import inspect

    return "content" in inspect.signature(reliquary.new_game).parameters


# ---------------------------------------------------------------------- lines and plans
def test_tokens_stop_where_the_ai_s_own_decisions_stop() -> None:
    state = _position()
    line = _turn_line(state)
    tokens = ai_pool._tokens(state, line)
    assert len(tokens) == len(line) - 1  # not the decision past the turn
    s = state.clone()
    for option, token in zip(line, tokens, strict=False):
        assert token == format_option(s, option)  # each named on its own position
        s.apply(option)
    # an option no longer legal stops the line there
    assert line[0] not in _after(state, line[:1]).legal_options()
    assert ai_pool._tokens(state, [line[0], line[0], *line[1:]]) == tokens[:1]
    assert ai_pool._tokens(state, []) == []


def _after(state: State, options: list[Any]) -> State:
    s = state.clone()
    for option in options:
        s.apply(option)
    return s


def test_a_plan_keeps_every_decision_but_the_first_by_its_position() -> None:
    state = _position()
    line = _turn_line(state)[:-1]
    assert len(line) >= 2
    tokens = ai_pool._tokens(state, line)
    brain = _Brain("hard", plan={123: line[0]})
    got = AIPool._remember(brain, state, tokens)
    assert got == line
    s = state.clone()
    keys = []
    for option in line:
        keys.append(position_key(s))
        s.apply(option)
    assert brain.plan == dict(zip(keys[1:], line[1:], strict=True))  # the old plan gone


def test_a_plan_stops_at_a_token_that_does_not_read() -> None:
    state = _position()
    line = _turn_line(state)[:-1]
    tokens = ai_pool._tokens(state, line)
    brain = _Brain("hard")
    got = AIPool._remember(brain, state, [tokens[0], "no-such-option", *tokens[1:]])
    assert got == line[:1] and brain.plan == {}


def test_a_plan_stops_at_chance() -> None:
    """Tokens past a die roll are not kept: the roll decides what follows."""
    rng = random.Random(1)
    state = reliquary.new_game()
    while True:
        assert not state.is_terminal
        if not state.is_chance:
            rolls = [o for o in state.legal_options() if _after(state, [o]).is_chance]
            if rolls:
                break
        state.apply(rng.choice(state.legal_options()))
    s = _after(state, rolls[:1])
    past = format_option(s, s.legal_options()[0])  # the roll's outcome, as a token
    brain = _Brain("hard")
    got = AIPool._remember(brain, state, [format_option(state, rolls[0]), past])
    assert got == rolls[:1] and brain.plan == {}


# ---------------------------------------------------------------------- the worker's think
class Capture:
    """``get_agent`` that keeps the agents it made."""

    def __init__(self) -> None:
        self.made: list[Any] = []

    def __call__(self, level: str, **kwargs: Any) -> Any:
        agent = get_agent(level, **kwargs)
        self.made.append(agent)
        return agent


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_think_in_worker_reports_the_agent_s_value_on_the_bar_s_scale(
        monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    """MCTS reports a win probability (p → 2p − 1), the searches evaluation points
    (squashed): the value is the thinker's, in [−1, 1]."""
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    monkeypatch.setattr(ai_pool, "_WARM_AGENTS", OrderedDict())
    capture = Capture()
    monkeypatch.setattr(ai_pool, "get_agent", capture)
    state = _position()
    result = ai_pool.think_in_worker(ai_pool._position(state), level, 3, 0.05)
    agent = capture.made[-1]
    raw = agent.stats["value"]
    want = raw * 2 - 1 if level == "medium" else ai_pool.squash(raw)
    assert result["value"] == pytest.approx(want)
    assert result["nodes"] == agent.stats.get("nodes")
    assert result["warm"] == agent.stats.get("warm", 0)
    assert result["warm_turn"] == agent.stats.get("warm_turn", -1)


def test_think_in_worker_for_an_agent_that_does_not_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    state = _position()
    result = ai_pool.think_in_worker(ai_pool._position(state), "random", 4, None)
    twin = get_agent("random", seed=4)
    assert result["line"] == [format_option(state, twin.choose(state.clone()))]
    assert (result["value"], result["nodes"], result["remembered"], result["warm"],
            result["warm_turn"]) == (None, None, 0, 0, -1)


class Empty(PlanningAgent):
    """A planner whose plan is empty (a bug the safeguard covers)."""

    name = "empty"

    def plan(self, state: State, deadline: float | None, nodes: int | None) -> list[Any]:
        self.stats = {"value": None}
        return []


def test_an_empty_plan_plays_a_legal_option_by_the_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    monkeypatch.setattr(ai_pool, "get_agent", lambda level, seed: Empty(seed=seed))
    state = _position()
    for seed in (1, 2, 3, 4):
        result = ai_pool.think_in_worker(ai_pool._position(state), "x", seed, None)
        legal = state.legal_options()
        assert result["line"] == [format_option(state, random.Random(seed).choice(legal))]
        assert result["value"] is None


def test_hint_in_worker_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    import reliquary.ai.hint as hint

    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    asked: list[tuple[Any, ...]] = []

    def analyse(state: State, agent: str = "", seed: int | None = None,
                **budget: Any) -> dict[str, Any]:
        asked.append((agent, seed, budget))
        return {"best": "c2-c3", "value": 250.0, "pv": ["c2-c3", "h5-h4"],
                "alternatives": [{"option": "d4-d5", "value": 0.51234},
                                 {"option": "e2-e3", "value": -3.0}],
                "points": 250.0}

    monkeypatch.setattr(hint, "analyse", analyse)
    got = ai_pool.hint_in_worker(ai_pool._position(_position()), 0.7)
    assert asked == [("hard", 0, {"time": 0.7})]
    assert got == {"best": "c2-c3", "value": round(ai_pool.squash(250.0), 3),
                   "pv": ["c2-c3", "h5-h4"],
                   "alternatives": [{"option": "d4-d5", "value": 0.512},
                                    {"option": "e2-e3", "value": round(ai_pool.squash(-3.0), 3)}]}


# ---------------------------------------------------------------------- choose
class Answers(AIPool):
    """A pool whose think answers the line it is given."""

    def __init__(self, line: list[str], **kwargs: Any) -> None:
        super().__init__(default_content(), max_thinking=1, **kwargs)
        self.line = line
        self.thinks = 0

    async def run(self, game_id: str, budget: float | None, fn: Any, *args: Any,
                  sticky: bool = False, owner: str | None = None) -> Any:
        self.thinks += 1
        return {"line": self.line, "value": None, "seconds": 0.1, "nodes": 1,
                "remembered": 0, "warm": 0, "warm_turn": -1}


def test_a_setup_decision_is_drafted_here_without_a_think() -> None:
    rng = random.Random(3)
    state = reliquary.new_game()
    seen = 0
    while not state.is_terminal and sum(state.turns_taken) == 0:
        if not state.is_chance and state.decision().kind in SETUP_KINDS \
                and len(state.legal_options()) > 1:
            pool = Answers(["nonsense"])
            for seed in (1, 2):
                want = draft_setup_choice(state, random.Random(seed))
                assert asyncio.run(pool.choose("g", state, "hard", seed)) == want
            assert pool.thinks == 0
            seen += 1
        state.apply(rng.choice(state.legal_options()))
    assert seen > 3


def test_a_line_that_does_not_answer_plays_a_legal_option_by_the_seed() -> None:
    state = _position()
    options = state.decision().options
    assert len(options) > 1
    for seed in range(1, 12):
        pool = Answers(["no-such-option"])
        got = asyncio.run(pool.choose("g", state, "hard", seed))
        assert got == random.Random(seed).choice(options) and pool.thinks == 1
        brain = pool.brain("g")
        assert brain is not None and brain.plan == {}


def test_a_line_played_keeps_its_plan_for_the_next_decisions() -> None:
    state = _position()
    line = _turn_line(state)[:-1]
    pool = Answers(ai_pool._tokens(state, line))
    played = []
    s = state.clone()
    for _ in line:
        option = asyncio.run(pool.choose("g", s, "hard", 1))
        played.append(option)
        s.apply(option)
    assert played == line and pool.thinks == 1


# ---------------------------------------------------------------------- the queue
def test_when_every_candidate_s_home_is_busy_the_first_goes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 2, monkeypatch)
    pool._homes = OrderedDict({"a": 0, "b": 0, "c": 1})
    pool._running = {1: _Job("x", None, sticky=True, worker=0)}
    loop = asyncio.new_event_loop()
    try:
        def wait(job: _Job) -> tuple[_Job, asyncio.Future[None]]:
            return job, loop.create_future()

        pool._waiting = OrderedDict({2: wait(_Job("a", None, sticky=True)),
                                     3: wait(_Job("b", None, sticky=True))})
        assert pool._next_waiting() == 2  # both homes busy: the first
        pool._waiting[4] = wait(_Job("c", None, sticky=True))
        assert pool._next_waiting() == 4  # its home is free: it passes the others
        pool._waiting = OrderedDict({2: wait(_Job("a", None, sticky=True)),
                                     5: wait(_Job("a", None, sticky=False))})
        assert pool._next_waiting() == 5  # a hint has no home: any free worker suits
    finally:
        loop.close()


def test_each_worker_is_one_process_started_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[dict[str, Any]] = []

    class Recorded:
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)

    monkeypatch.setattr(ai_pool, "ProcessPoolExecutor", Recorded)
    pool = AIPool(default_content(), max_thinking=2, start_method="spawn")
    first = pool.executor(1)
    assert pool.executor(1) is first and len(made) == 1  # started on first use only
    pool.executor(0)
    assert [m["max_workers"] for m in made] == [1, 1]  # a worker's agents live in one process
    assert made[0]["mp_context"].get_start_method() == "spawn"
    assert made[0]["initializer"] is ai_pool._init_worker
    assert made[0]["initargs"] == (pool.content, pool.nice)


def test_a_worker_that_cannot_start_frees_its_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 1, monkeypatch)

    def broken(worker: int) -> Any:
        raise RuntimeError("the AI pool is shut down")

    monkeypatch.setattr(pool, "executor", broken)

    async def body() -> None:
        with pytest.raises(RuntimeError, match="shut down"):
            await pool.run("g", 1.0, len, "x")
        assert pool.thinking == 0 and pool.queued == 0

    asyncio.run(body())


class Broken:
    """An executor whose worker died: every call ends with BrokenProcessPool."""

    def __init__(self, broken: bool) -> None:
        self._broken = broken

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("a worker died"))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


@pytest.mark.parametrize("marked", [True, False])
def test_a_broken_worker_is_replaced_on_its_next_use(marked: bool) -> None:
    pool = AIPool(default_content(), max_thinking=2)
    executor = Broken(marked)
    pool._workers[0] = executor  # type: ignore[assignment]

    async def body() -> None:
        with pytest.raises(BrokenProcessPool):
            await pool.run("g", 1.0, len, "x")
        await asyncio.sleep(0)

    asyncio.run(body())
    # a pool marked broken is dropped (a fresh one starts on its next use)
    assert pool._workers[0] is (None if marked else executor)
    assert pool.thinking == 0
    pool.shutdown()


def test_a_worker_replaced_meanwhile_is_kept() -> None:
    """A worker breaks after its slot already has a fresh pool (a stopped think's slot
    was started again): the fresh pool stays."""
    pool = AIPool(default_content(), max_thinking=1)
    pending: Future[Any] = Future()

    class Dying(Broken):
        def submit(self, fn: Any, *args: Any) -> Future[Any]:
            return pending

    fresh = Broken(False)
    pool._workers[0] = Dying(True)  # type: ignore[assignment]

    async def body() -> None:
        call = asyncio.ensure_future(pool.run("g", 1.0, len, "x"))
        for _ in range(5):
            await asyncio.sleep(0)
        pool._workers[0] = fresh  # type: ignore[assignment]
        pending.set_exception(BrokenProcessPool("a worker died"))
        with pytest.raises(BrokenProcessPool):
            await call

    asyncio.run(body())
    assert pool._workers[0] is fresh


def test_shutdown_drops_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    workers = Workers()
    pool = pool_with(workers, 1, monkeypatch)

    async def body() -> None:
        running = asyncio.ensure_future(pool.run("a", 1.0, len, "a"))
        queued = asyncio.ensure_future(pool.run("b", 1.0, len, "b"))
        for _ in range(5):
            await asyncio.sleep(0)
        assert pool.thinking == 1 and pool.queued == 1
        pool.shutdown()
        assert pool.queued == 0 and pool.closed
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(queued, 10)  # (not a wait for ever if it is not)
        assert pool.stats()["workers"] == 0
        with pytest.raises(RuntimeError, match="shut down"):
            AIPool.executor(pool, 0)
        running.cancel()

    asyncio.run(body())


# ---------------------------------------------------------------------- in process
def test_an_agent_that_does_not_draft_chooses_for_itself() -> None:
    """``random`` is not drafted from the values; at a turn decision every agent first
    hears the game's positions."""
    rng = random.Random(2)
    state = reliquary.new_game()
    history: list[str] = []
    while state.is_chance or state.decision().kind != "faction":
        option = rng.choice(state.legal_options())
        history.append(format_option(state, option))
        state.apply(option)
    agent, twin = get_agent("random", seed=5), get_agent("random", seed=5)
    assert choose_remembering(agent, state, history) == twin.choose(state)
    # a planning agent at a turn decision: it remembers the game's turn starts
    while sum(state.turns_taken) < 4 or state.is_chance:
        option = rng.choice(state.legal_options())
        history.append(format_option(state, option))
        state.apply(option)
    planner = get_agent("easy", seed=1)
    assert choose_remembering(planner, state, history) in state.legal_options()
    assert sum(planner.seen.values()) >= 4  # type: ignore[attr-defined]


def test_the_view_s_seconds_left_of_a_running_think(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ai_status``: the budget and the seconds left of the think running now, to the
    hundredth, never below 0."""
    pool = AIPool(default_content(), max_thinking=1)
    now = [50.0]
    monkeypatch.setattr(ai_pool.time, "monotonic", lambda: now[0])
    pool._running[1] = _Job("g", 1.5, started=50.0 - 0.4567)
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=False) == {
        "state": "thinking", "queue_position": None, "budget_s": 1.5, "seconds_left": 1.04}
    now[0] = 60.0
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=True)["seconds_left"] == 0.0
    pool._brains["g"] = _Brain("hard", spent=0.123)
    pool._running.clear()  # between thinks: what is left of the turn's budget
    assert ai_pool.ai_status(pool, "g", "hard", ai_to_move=True)["seconds_left"] == 1.38


# ---------------------------------------------------------------------- bounds and turns
def test_plans_are_pruned_from_256_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = AIPool(default_content(), max_thinking=1)
    monkeypatch.setattr(ai_pool.time, "monotonic", lambda: 10_000.0)
    for n in range(255):
        pool._brains[f"new{n}"] = _Brain("hard", used=10_000.0)
    pool._brains["stale"] = _Brain("hard", used=0.0)  # the 256th
    pool._prune()
    assert "stale" not in pool._brains and len(pool._brains) == 255


def _loop_future() -> Any:
    loop = asyncio.new_event_loop()
    try:
        return loop.create_future()
    finally:
        loop.close()


def test_among_owners_running_as_many_the_one_served_longest_ago_goes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 2, monkeypatch)
    pool._served = {"a": 5, "b": 2}
    pool._waiting = OrderedDict({10: (_Job("ga", None, owner="a"), _loop_future()),
                                 11: (_Job("gb", None, owner="b"), _loop_future())})
    assert pool._next_waiting() == 11  # b was served at ticket 2, a at 5
    pool._waiting[12] = (_Job("gc", None, owner="c"), _loop_future())
    assert pool._next_waiting() == 12  # c never was
    pool._running = {3: _Job("x", None, owner="c", worker=0)}
    assert pool._next_waiting() == 11  # c runs one now: the others first


def test_a_think_whose_home_is_busy_takes_a_free_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 2, monkeypatch)
    pool._homes = OrderedDict({"g": 0})
    pool._running = {1: _Job("other", None, worker=0)}
    job = _Job("g", None, sticky=True)
    pool._start(2, job)
    assert job.worker == 1 and pool.home("g") == 1  # a cold start, its new home


def test_the_homes_and_owners_kept_are_the_most_recent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept = ai_pool._HOMES_KEPT
    pool = pool_with(Workers(), 2, monkeypatch)
    pool._homes = OrderedDict((f"g{n}", 0) for n in range(kept))
    pool._served = {f"o{n}": n + 1 for n in range(kept)}
    pool._tickets = kept
    pool._start(kept + 1, _Job("g0", None, sticky=True, owner="o0"))  # used again
    pool._running.clear()
    pool._start(kept + 2, _Job("fresh", None, sticky=True, owner="new"))
    assert "g0" in pool._homes and "g1" not in pool._homes and "fresh" in pool._homes
    assert "o0" in pool._served and "o1" not in pool._served and "new" in pool._served
    assert len(pool._homes) == len(pool._served) == kept


def test_stopping_a_game_leaves_its_hint_running(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = pool_with(Workers(), 1, monkeypatch)
    pool._running = {1: _Job("g", 1.0, sticky=False, worker=0)}
    assert pool.stop("g") is False
    assert 1 in pool._running and pool.stopped == 0


class Asked(AIPool):
    """A pool that records how each search was asked for."""

    def __init__(self) -> None:
        super().__init__(default_content(), max_thinking=1, hint_seconds=0.7)
        self.asked: list[tuple[Any, ...]] = []

    async def run(self, game_id: str, budget: float | None, fn: Any, *args: Any,
                  sticky: bool = False, owner: str | None = None) -> Any:
        self.asked.append((game_id, budget, fn, args, sticky, owner))
        if fn is ai_pool.think_in_worker:
            return {"line": [], "value": None, "seconds": 0.1, "nodes": 1,
                    "remembered": 0, "warm": 0, "warm_turn": -1}
        return {"best": "x"}


def test_each_search_is_asked_for_its_owner() -> None:
    """The queue serves owners in turn: a hint is its asker's, a think the game's
    creator's; a hint goes to any worker, a think home, each with its budget."""
    state = _position()
    pool = Asked()
    assert asyncio.run(pool.hint("g", state, owner="asker")) == {"best": "x"}
    game_id, budget, fn, args, sticky, owner = pool.asked[-1]
    assert (game_id, budget, fn, sticky, owner) == ("g", 0.7, ai_pool.hint_in_worker,
                                                    False, "asker")
    assert args == (ai_pool._position(state), 0.7)
    asyncio.run(pool.choose("g", state, "hard", 9, ["t1"], owner="creator"))
    game_id, budget, fn, args, sticky, owner = pool.asked[-1]
    assert (game_id, fn, sticky, owner) == ("g", ai_pool.think_in_worker, True, "creator")
    assert budget == pytest.approx(1.5 * 0.85)
    assert args == (ai_pool._position(state), "hard", 9, budget, ["t1"], "g")


@pytest.mark.parametrize("raw", ["2.5", "1e1"])
def test_the_workers_niceness_must_be_a_whole_number(monkeypatch: pytest.MonkeyPatch,
                                                     raw: str) -> None:
    monkeypatch.setenv("RELIQUARY_AI_NICE", raw)
    with pytest.raises(ValueError, match=f"RELIQUARY_AI_NICE must be a whole number, "
                                         f"not '{raw}'"):
        AIPool(default_content(), max_thinking=1)
    monkeypatch.setenv("RELIQUARY_AI_NICE", "25")  # past the top: the system's lowest
    assert AIPool(default_content(), max_thinking=1).nice == 19
