"""The AI of the web game, thinking in a pool of worker processes.

Why processes: a search is pure Python, so in threads of the web process it holds the
GIL and slows every other request (issue 7: four ``hard`` games pushed a hot-seat
game's p99 from 10 ms to 1 s). Here each search runs in a worker process of a
:class:`~concurrent.futures.ProcessPoolExecutor` (``spawn`` context: no forked copy of
the server's sockets, threads or database connections), and the event loop only
awaits its future.

The workers run at a lower CPU priority (``RELIQUARY_AI_NICE``, default 10): when
the CPUs are short, requests go first and searches wait.

Bounded: at most ``max_thinking`` searches (AI turns and hints) run at once, one per
worker; the rest wait in a first-come queue (a think may pass others to its own
worker: see below) whose positions the game view shows
(:meth:`AIPool.status`). A search whose game was undone meanwhile still holds its
slot until its deadline, so the bound is on CPU, not on requests.

One agent per game: the worker plans the AI's whole turn at its first decision (the
planning agents' line, :meth:`~reliquary.ai.planning.PlanningAgent.plan`) and returns
it as option tokens; the server keeps that plan, keyed by the position each option
expects (as :class:`~reliquary.ai.planning.PlanningAgent` does in one process), and
plays it decision by decision with the display delay. It thinks again only when the
position differs from the plan's (after a die roll, an undo, another process's move),
with what is left of the turn's budget, so a turn costs the level's budget once —
not once per decision. Setup choices and forced decisions are taken in the web process
(they cost microseconds).

Position keys come from :func:`~reliquary.ai.position_key`, which uses Python's
``hash`` (salted per process), so they are computed here, never in a worker. For the
same reason a worker rebuilds the game's memory of positions (the turn starts so far,
for the search's repetition check: a side ahead does not walk back into a position
the game has had) by replaying the game's tokens, which the server sends with the
position (:func:`recall`).

A worker keeps the search agents of its last few games (:func:`agent_for`,
``RELIQUARY_AI_WARM_GAMES``, default 4), so a think that lands on the worker that did
its game's last one starts warm from that one's table, as the search does in one
process. So each worker is a pool of its own (one process), and a game's thinks go
back to the worker of its last think (its *home*) whenever that worker is free; when
it is busy, the think takes another free worker (a cold start, no wait), which becomes
the game's home. A new game takes the free worker that is home to the fewest games.
Hints keep no agent: they take any free worker and move no game's home. When every
worker is busy, a freed worker takes the first waiting job it suits (its home, or one
without a home) before the first in the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..ai import LEVELS, Agent, get_agent, position_key
from ..ai.drafting import DRAFT_KINDS, draft_choice
from ..ai.drafting import setup_choice as draft_setup_choice
from ..ai.planning import PlanningAgent
from ..ai.search import SearchAgent
from ..engine import (
    SETUP_KINDS,
    Content,
    Game,
    GameOverError,
    IllegalOptionError,
    NotationError,
    Option,
    State,
    format_option,
    parse_option,
    position_from_dict,
    position_to_dict,
)
from ..rulesets import load_ruleset, patch_of, ruleset_names, stored_content
from .config import env_number

log = logging.getLogger(__name__)

#: Seconds a hint may think (``RELIQUARY_HINT_SECONDS``).
DEFAULT_HINT_SECONDS = 1.0


def default_max_thinking() -> int:
    """``RELIQUARY_AI_WORKERS``, or one fewer than the CPUs (at least 1)."""
    return int(env_number("RELIQUARY_AI_WORKERS", max(1, (os.cpu_count() or 2) - 1),
                          whole=True, low=1))


def level_budget(level: str) -> float | None:
    """The seconds per turn a level thinks, or None for levels without a time budget."""
    _, budget = LEVELS.get(level, ("", {}))
    seconds = budget.get("time")
    return float(seconds) if seconds is not None else None


def squash(points: float) -> float:
    """Evaluation points (positive: good) to [-1, 1] for the evaluation bar: the same
    scale as the hints (:func:`reliquary.ai.hint.squash`), ±1 for a proven result."""
    from ..ai.hint import squash as hint_squash

    return hint_squash(points)


# ---------------------------------------------------------------------- in the workers
_WORKER_CONTENT: Content | None = None


def _init_worker(content: Content, nice: int) -> None:
    """Worker start: keep the content; leave Ctrl+C to the server, which stops us; and
    yield the CPU to the web process when they compete (a search is background work,
    a request is someone waiting)."""
    global _WORKER_CONTENT
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent()
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    _WORKER_CONTENT = content


#: How often a worker looks whether the server that started it is still there.
PARENT_LOOK_S = 0.25


def watch_parent(parent: int | None = None, look_s: float = PARENT_LOOK_S) -> None:
    """End this worker as soon as the server process that started it is gone, however
    it went (``kill -9``, the OOM killer: no chance to stop its workers): a daemon
    thread looks at our parent's id every ``look_s`` and exits once it changed (we were
    orphaned). (Not Linux's ``PR_SET_PDEATHSIG``: it fires when the *thread* that
    started us ends, which in a server is not the same as the process.)
    multiprocessing's resource tracker then ends too: its last user is gone."""
    parent = os.getppid() if parent is None else parent

    def look() -> None:
        while os.getppid() == parent:
            time.sleep(look_s)
        os._exit(1)

    threading.Thread(target=look, name="reliquary-parent-watch", daemon=True).start()


def _ready() -> bool:
    """A no-op run in each worker at start (:meth:`AIPool.warm`)."""
    return _WORKER_CONTENT is not None


#: Beside a position sent to a worker: its content's ruleset patch, when it has one.
PATCH_KEY = "ruleset_patch"


def _position(state: State) -> dict[str, Any]:
    """``state`` as a worker reads it: its position, and the patch of its content when
    that is a ruleset's (a game keeps the patch it began with, which no file may hold
    now: :data:`reliquary.web.games.RULESET_PATCH_KEY`)."""
    position = position_to_dict(state)
    patch = patch_of(state.content)
    if patch:
        position[PATCH_KEY] = patch
    return position


def _state_of(position: dict[str, Any]) -> State:
    assert _WORKER_CONTENT is not None, "the worker was started without content"
    content = _WORKER_CONTENT
    if position.get("content") != content.fingerprint:  # a game under a patched ruleset
        content = ruleset_content(position.get("content"), content, position.get(PATCH_KEY))
    return position_from_dict({k: v for k, v in position.items() if k != PATCH_KEY}, content)


def ruleset_content(fingerprint: object, content: Content,
                    patch: dict[str, Any] | None = None) -> Content:
    """The content whose fingerprint is ``fingerprint``: the package's with ``patch``, or
    a packaged ruleset's (``content`` when none has: the position is then refused as of
    other content)."""
    if patch:
        patched = stored_content("ruleset", patch)
        if patched.fingerprint == fingerprint:
            return patched
    for name in ruleset_names():
        patched = load_ruleset(name).content()
        if patched.fingerprint == fingerprint:
            return patched
    return content


def _tokens(state: State, line: list[Option]) -> list[str]:
    """The line as tokens, each named on the position it is played on; it stops where
    the player's consecutive decisions stop (chance, the opponent, the end)."""
    out: list[str] = []
    s = state.clone()
    me = s.current_player
    for option in line:
        if s.is_terminal or s.is_chance or s.current_player != me \
                or option not in s.legal_options():
            break
        out.append(format_option(s, option))
        s.apply(option)
    return out


def recall(agent: Agent, state: State, history: Sequence[str]) -> int:
    """Give a fresh planning agent the game's memory of positions for its repetition
    check: every turn start of the game whose decisions are ``history`` (tokens from
    the start, chance included), replayed under ``state``'s content and settings, and
    ``state`` itself. Returns how many turn starts it remembers (0 for an agent without
    that memory).
    The server's tokens are the game's own; should they not replay (a bug), the agent
    keeps what it had so far, with a warning, rather than fail the AI's turn."""
    if not isinstance(agent, PlanningAgent):
        return 0
    game = Game(state.content, state.settings)
    for index, token in enumerate(history):
        agent.observe(game.state)
        try:
            game.apply_token(token)
        except (NotationError, IllegalOptionError, GameOverError) as err:
            log.warning("the game's decision %d (%r) does not replay: %s; the AI "
                        "remembers the positions before it", index, token, err)
            break
    agent.observe(state)
    return sum(agent.seen.values())


def choose_remembering(agent: Agent, state: State, history: Sequence[str]) -> Option:
    """``agent``'s option at ``state`` after :func:`recall` of the game's ``history`` (the
    server's in-process path, run off the event loop: the replay is work too). Factions
    and rites are drafted from the lab's values (:mod:`reliquary.ai.drafting`)."""
    if not state.is_chance and not state.is_terminal \
            and state.decision().kind in DRAFT_KINDS and agent.name != "random":
        return draft_choice(state, getattr(agent, "rng", None) or random.Random())
    recall(agent, state, history)
    return agent.choose(state)


#: Per worker, the search agents of its last few AI games, (game, level) -> agent: a
#: think that lands on the worker that did its game's last one starts warm from that
#: one's table (:class:`~reliquary.ai.search.SearchAgent`'s warm start), as in one
#: process. A table holds up to a think's nodes, so only a few are kept.
_WARM_AGENTS: OrderedDict[tuple[str, str], Agent] = OrderedDict()


def warm_games() -> int:
    """``RELIQUARY_AI_WARM_GAMES``: how many games' search agents a worker keeps for
    warm starts (default 4; 0: every think starts cold)."""
    return int(env_number("RELIQUARY_AI_WARM_GAMES", 4, whole=True, low=0))


def agent_for(game_id: str | None, level: str, seed: int) -> Agent:
    """The agent to think for ``game_id`` at ``level``: this worker's from the game's
    last think when it kept one (reseeded with ``seed``, its memory of positions
    forgotten, to be recalled; its search table kept), otherwise a fresh one."""
    if game_id is None:  # a think for no game: nothing to carry over, nothing to evict
        return get_agent(level, seed=seed)
    keep = warm_games()
    key = (game_id, level)
    agent = _WARM_AGENTS.pop(key, None)
    if agent is None:
        agent = get_agent(level, seed=seed)
        if not (isinstance(agent, SearchAgent) and agent.warm and not agent.one_turn):
            return agent  # nothing to carry over between thinks
    else:
        assert isinstance(agent, SearchAgent)
        agent.rng.seed(seed)
        agent.forget_positions()
    _WARM_AGENTS[key] = agent
    while len(_WARM_AGENTS) > keep:
        _WARM_AGENTS.popitem(last=False)
    return agent


def think_in_worker(position: dict[str, Any], level: str, seed: int,
                    seconds: float | None, history: Sequence[str] = (),
                    game_id: str | None = None) -> dict[str, Any]:
    """Plan the AI's turn from ``position`` (runs in a worker process); ``history``: the
    game's decisions so far as tokens, for the repetition check (:func:`recall`);
    ``game_id``: the game, whose agent the worker may keep for a warm start
    (:func:`agent_for`).

    Returns ``{"line": [tokens], "value": in [-1, 1] for the thinker or None,
    "seconds", "nodes", "remembered": turn starts recalled, "warm": table entries the
    search started from, "warm_turn": the turns taken at that search's root (-1:
    none)}``; ``line`` is never empty.
    """
    state = _state_of(position)
    agent = agent_for(game_id, level, seed)
    started = time.perf_counter()
    remembered = recall(agent, state, history)
    value: float | None = None
    if isinstance(agent, PlanningAgent):
        deadline = None if seconds is None else started + seconds
        nodes = agent.nodes if agent.time is None else None
        line = agent.plan(state, deadline, nodes)
        raw = agent.stats.get("value")
        if isinstance(raw, int | float):
            # MCTS reports a win probability, the searches evaluation points.
            value = raw * 2 - 1 if agent.name == "mcts" else squash(raw)
    else:
        line = [agent.choose(state)]
    tokens = _tokens(state, line)
    if not tokens:  # a safeguard: plans come from the legal options
        tokens = [format_option(state, random.Random(seed).choice(state.legal_options()))]
    stats = agent.stats if isinstance(agent, PlanningAgent) else {}
    return {"line": tokens, "value": value, "seconds": time.perf_counter() - started,
            "nodes": stats.get("nodes"), "remembered": remembered,
            "warm": stats.get("warm", 0), "warm_turn": stats.get("warm_turn", -1)}


def hint_in_worker(position: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The contract's hint for the player to move (runs in a worker process):
    ``{"best", "value" in [-1, 1] for that player, "pv", "alternatives"}``, from
    :func:`reliquary.ai.hint.analyse`."""
    from ..ai.hint import analyse

    data = analyse(_state_of(position), agent="hard", seed=0, time=seconds)
    return {"best": data["best"], "value": _unit(float(data["value"])), "pv": data["pv"],
            "alternatives": [{"option": alt["option"], "value": _unit(float(alt["value"]))}
                             for alt in data["alternatives"]]}


def _unit(value: float) -> float:
    """A value already in [-1, 1] stays; evaluation points are squashed."""
    return round(value if -1.0 <= value <= 1.0 else squash(value), 3)


# ---------------------------------------------------------------------- in the server
@dataclass
class _Job:
    game_id: str
    budget: float | None
    started: float | None = None  # monotonic time the search began; None while queued
    #: Whether the job goes to its game's home worker (a think: that worker keeps the
    #: game's agent) rather than any free one (a hint).
    sticky: bool = False
    worker: int = -1  # the worker it runs on, once admitted
    #: Who it is for (the game's creator, the hint's asker): the queue serves owners in
    #: turn, so one client's many games or hints cannot keep another's waiting.
    owner: str | None = None


class QueueFull(RuntimeError):
    """The AI queue is at its bound (``RELIQUARY_AI_QUEUE``): try again shortly."""


@dataclass
class _Brain:
    """What the server keeps of one AI game's agent: its plan and its turn's clock."""

    level: str
    plan: dict[int, Option] = field(default_factory=dict)
    turn: tuple[int, int, int] | None = None
    spent: float = 0.0
    value: float | None = None       # the last search's value for the AI, in [-1, 1]
    thinks: int = 0                  # searches run for this game (for tests, stats)
    warm_thinks: int = 0             # those that started from a kept table
    used: float = field(default_factory=time.monotonic)


#: Seconds an AI turn waits before asking a full queue again.
QUEUE_FULL_RETRY_S = 0.5
#: How many games' homes a pool remembers, the least recent forgotten first (a worker
#: keeps only its last ``RELIQUARY_AI_WARM_GAMES`` games' agents anyway).
_HOMES_KEPT = 4096


class AIPool:
    """Worker processes, the queue in front of them, and each AI game's plan."""

    def __init__(self, content: Content, max_thinking: int | None = None,
                 hint_seconds: float | None = None, start_method: str = "spawn") -> None:
        self.content = content
        self.max_thinking = max_thinking or default_max_thinking()
        self.hint_seconds = (hint_seconds if hint_seconds is not None
                             else env_number("RELIQUARY_HINT_SECONDS", DEFAULT_HINT_SECONDS,
                                        unit="seconds"))
        self.start_method = start_method
        #: How many searches may wait for a worker (``RELIQUARY_AI_QUEUE``); a hint
        #: beyond is refused (503), an AI turn waits and asks again.
        self.max_queued = int(env_number("RELIQUARY_AI_QUEUE", 8 * self.max_thinking + 8,
                                         whole=True, low=1))
        #: How much lower the workers' CPU priority is (``RELIQUARY_AI_NICE``, 0..19).
        self.nice = max(0, min(19, int(env_number("RELIQUARY_AI_NICE", 10, whole=True))))
        #: One single-process pool a worker, started on first use.
        self._workers: list[ProcessPoolExecutor | None] = [None] * self.max_thinking
        #: game -> its home: the worker of its last think, which keeps its agent.
        self._homes: OrderedDict[str, int] = OrderedDict()
        self._running: dict[int, _Job] = {}
        self._waiting: OrderedDict[int, tuple[_Job, asyncio.Future[None]]] = OrderedDict()
        self._tickets = 0
        #: Each owner's last job started (its ticket): owners are served in turn.
        self._served: dict[str | None, int] = {}
        self._brains: dict[str, _Brain] = {}
        self.stopped = 0  # thinks stopped in their worker (:meth:`stop`)
        self.closed = False
        self.warmed = False

    # -- the executor --------------------------------------------------------------
    def executor(self, worker: int) -> ProcessPoolExecutor:
        """The pool of worker number ``worker`` (one process), started on first use."""
        if self.closed:
            raise RuntimeError("the AI pool is shut down")
        executor = self._workers[worker]
        if executor is None:
            executor = self._workers[worker] = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context(self.start_method),
                initializer=_init_worker, initargs=(self.content, self.nice))
        return executor

    async def warm(self) -> None:
        """Start the workers now (each imports the engine and the AI: about a second),
        so that the first AI turn after a start keeps its pace. Runs in the background,
        when ``RELIQUARY_AI_PREFORK=1`` (``reliquary serve`` sets it unless it is set;
        apps made in tests leave the workers to start on first use)."""
        if os.environ.get("RELIQUARY_AI_PREFORK", "0") != "1":
            self.warmed = True
            return
        futures = [self.executor(i).submit(_ready) for i in range(self.max_thinking)]
        await asyncio.gather(*(asyncio.wrap_future(f) for f in futures),
                             return_exceptions=True)
        self.warmed = True

    def shutdown(self) -> None:
        """Stop at once: queued work is dropped and running searches are killed (a
        ``max`` search would otherwise hold the server's exit for seconds)."""
        self.closed = True
        for _job, waiter in self._waiting.values():
            if not waiter.done():
                waiter.cancel()
        self._waiting.clear()
        executors = [e for e in self._workers if e is not None]
        self._workers = [None] * self.max_thinking
        processes = [p for e in executors for p in getattr(e, "_processes", {}).values()]
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(timeout=1.0)

    # -- admission -----------------------------------------------------------------
    async def _admit(self, job: _Job) -> int:
        if len(self._running) < self.max_thinking and not self._waiting:
            self._tickets += 1
            self._start(self._tickets, job)
            return self._tickets
        if len(self._waiting) >= self.max_queued:
            raise QueueFull(f"the AI is busy: {len(self._waiting)} searches are waiting")
        self._tickets += 1
        ticket = self._tickets
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[ticket] = (job, waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            self._waiting.pop(ticket, None)
            if ticket in self._running:  # admitted just as we were cancelled
                self._release(ticket)
            raise
        return ticket

    def _release(self, ticket: int) -> None:
        self._running.pop(ticket, None)
        while self._waiting and len(self._running) < self.max_thinking:
            next_ticket = self._next_waiting()
            job, waiter = self._waiting.pop(next_ticket)
            if waiter.done():
                continue
            self._start(next_ticket, job)
            waiter.set_result(None)

    def _next_waiting(self) -> int:
        """The next job to run. Owners take turns: only the waiting jobs of the owners
        with the fewest searches running are candidates (one client's thirty games wait
        behind another's one). Among them, the first a free worker suits (its game's
        home is free, or it has no home), else the first: a think whose home is busy
        lets the others by until that worker is free rather than start cold."""
        busy = {job.worker for job in self._running.values()}
        running: dict[str | None, int] = {}
        for job in self._running.values():
            running[job.owner] = running.get(job.owner, 0) + 1

        def turn(job: _Job) -> tuple[int, int]:  # fewest running, then served longest ago
            return running.get(job.owner, 0), self._served.get(job.owner, 0)

        first = min(turn(job) for job, _ in self._waiting.values())
        candidates = [ticket for ticket, (job, _) in self._waiting.items()
                      if turn(job) == first]
        for ticket in candidates:
            job = self._waiting[ticket][0]
            home = self._homes.get(job.game_id) if job.sticky else None
            if home is None or home not in busy:
                return ticket
        return candidates[0]

    def _start(self, ticket: int, job: _Job) -> None:
        """Give an admitted job a free worker (there is one: at most one job a worker
        runs): a think its game's home when that is free, otherwise the free worker
        home to the fewest games (a think's becomes its game's home)."""
        busy = {running.worker for running in self._running.values()}
        home = self._homes.get(job.game_id) if job.sticky else None
        if home is None or home in busy:
            games = [0] * self.max_thinking
            for worker in self._homes.values():
                games[worker] += 1
            home = min((w for w in range(self.max_thinking) if w not in busy),
                       key=lambda w: games[w])
        if job.sticky:
            self._homes[job.game_id] = home
            self._homes.move_to_end(job.game_id)
            while len(self._homes) > _HOMES_KEPT:
                self._homes.popitem(last=False)
        job.worker = home
        job.started = time.monotonic()
        self._running[ticket] = job
        self._served.pop(job.owner, None)  # to the end: the least recent go first
        self._served[job.owner] = ticket
        if len(self._served) > _HOMES_KEPT:
            del self._served[next(iter(self._served))]

    def home(self, game_id: str) -> int | None:
        """The worker that ran the game's last think (and keeps its agent), if any."""
        return self._homes.get(game_id)

    async def run(self, game_id: str, budget: float | None, fn: Callable[..., Any],
                  *args: Any, sticky: bool = False, owner: str | None = None) -> Any:
        """Run ``fn(*args)`` in a worker once a slot is free (owners in turn, first come
        first served among them: :meth:`_next_waiting`); ``sticky``: in the game's home
        worker when it is free (see :meth:`_start`). :class:`QueueFull` when the queue
        is at its bound.

        A caller that stops waiting (cancelled: its client left) leaves the queue at
        once; once running, the slot is held until the worker is done (or the think
        is stopped there: :meth:`stop`).
        """
        job = _Job(game_id, budget, sticky=sticky, owner=owner)
        ticket = await self._admit(job)
        loop = asyncio.get_running_loop()

        def done(_: Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: shutting down
                loop.call_soon_threadsafe(self._release, ticket)

        try:
            executor = self.executor(job.worker)
            future = executor.submit(fn, *args)
        except BaseException:
            self._release(ticket)
            raise
        future.add_done_callback(done)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool for the next.
            if (self._workers[job.worker] is executor
                    and getattr(executor, "_broken", False)):
                self._workers[job.worker] = None
            raise

    def stop(self, game_id: str) -> bool:
        """Stop the AI think of ``game_id`` running in a worker (its player left): a
        search cannot be interrupted from outside, so its worker process is ended, the
        slot goes to the next job at once, and a fresh worker starts on the slot's next
        use (about a second of a CPU; the games whose agents that worker kept start
        cold). Whether a think of the game was running. Its caller's wait ends with
        :class:`BrokenProcessPool`; a hint runs to its end (a second at most)."""
        found = next(((ticket, job) for ticket, job in self._running.items()
                      if job.game_id == game_id and job.sticky), None)
        if found is None:
            return False
        ticket, job = found
        executor = self._workers[job.worker]
        self._workers[job.worker] = None
        if executor is not None:
            processes = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()  # the executor's own thread reaps it
        for game in [g for g, worker in self._homes.items() if worker == job.worker]:
            del self._homes[game]  # their agents went with the worker
        self.stopped += 1
        self._release(ticket)
        return True

    # -- status for the view -------------------------------------------------------
    def status(self, game_id: str) -> tuple[str, int | None, float | None] | None:
        """``(state, queue position, seconds left)`` of a game's search here, or None."""
        for job in self._running.values():
            if job.game_id == game_id:
                left = None
                if job.budget is not None and job.started is not None:
                    left = max(0.0, job.budget - (time.monotonic() - job.started))
                return "thinking", None, left
        for position, (job, _) in enumerate(self._waiting.values(), start=1):
            if job.game_id == game_id:
                return "queued", position, job.budget
        return None

    def stats(self) -> dict[str, Any]:
        """Searches running and queued (for the health endpoint)."""
        return {"thinking": self.thinking, "queued": self.queued,
                "workers": 0 if self.closed else self.max_thinking, "warmed": self.warmed}

    @property
    def thinking(self) -> int:
        """Searches running now."""
        return len(self._running)

    @property
    def queued(self) -> int:
        """Searches waiting for a worker."""
        return len(self._waiting)

    # -- the AI's decisions --------------------------------------------------------
    def brain(self, game_id: str) -> _Brain | None:
        return self._brains.get(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game's plan and home (it ended, or left the cache)."""
        self._brains.pop(game_id, None)
        self._homes.pop(game_id, None)

    async def choose(self, game_id: str, state: State, level: str, seed: int,
                     history: Sequence[str] = (), owner: str | None = None) -> Option:
        """The AI's option at ``state``: from its plan for the turn when the position is
        the one the plan expects, otherwise from a new search in a worker. ``history``:
        the tokens of the game's decisions up to ``state`` (see :func:`recall`)."""
        if state.is_terminal or state.is_chance:
            raise ValueError("the AI chooses only at its own decision")
        brain = self._brains.get(game_id)
        if brain is None or brain.level != level:
            brain = self._brains[game_id] = _Brain(level)
        brain.used = time.monotonic()
        self._prune()
        decision = state.decision()
        options = decision.options
        if decision.kind in SETUP_KINDS:
            # factions and rites from the lab's values, a mixed strategy (ai.drafting)
            return draft_setup_choice(state, random.Random(seed))
        planned = brain.plan.pop(position_key(state), None)
        if planned is not None and planned in options:
            return planned
        if len(options) == 1:
            return options[0]
        me = decision.player
        turn = (me, state.turns_taken[0], state.turns_taken[1])
        if turn != brain.turn:
            brain.turn, brain.spent = turn, 0.0
        budget = level_budget(level)
        seconds = None
        if budget is not None:
            # The budget is per turn (as PlanningAgent.choose keeps it): the first
            # think keeps a reserve for a second one after a die roll.
            seconds = (budget * 0.85 if brain.spent == 0.0
                       else max(budget - brain.spent, budget * 0.05))
        while True:
            try:
                result = await self.run(game_id, seconds, think_in_worker,
                                        _position(state), level, seed, seconds,
                                        list(history), game_id, sticky=True, owner=owner)
                break
            except QueueFull:  # an AI turn is not refused: it asks again shortly
                await asyncio.sleep(QUEUE_FULL_RETRY_S)
        brain.spent += result["seconds"]  # thinking only: a wait in the queue is not spent
        brain.thinks += 1
        brain.warm_thinks += bool(result.get("warm"))
        if result["value"] is not None:
            brain.value = float(result["value"])
        line = self._remember(brain, state, result["line"])
        if not line or line[0] not in options:
            return random.Random(seed).choice(options)
        return line[0]

    @staticmethod
    def _remember(brain: _Brain, state: State, tokens: list[str]) -> list[Option]:
        """Parse the worker's tokens along the line and keep all but the first, keyed by
        the position each expects."""
        brain.plan = {}
        line: list[Option] = []
        s = state.clone()
        for i, token in enumerate(tokens):
            try:
                option = parse_option(s, token)
            except (NotationError, IllegalOptionError, GameOverError):  # a stale plan
                break
            if i > 0:
                brain.plan[position_key(s)] = option
            line.append(option)
            s.apply(option)
            if s.is_terminal or s.is_chance:
                break
        return line

    def _prune(self, keep_s: float = 3600.0) -> None:
        """Plans of games nobody played for an hour go (they are cheap to rebuild)."""
        if len(self._brains) < 256:
            return
        cutoff = time.monotonic() - keep_s
        for game_id in [g for g, b in self._brains.items() if b.used < cutoff]:
            del self._brains[game_id]

    # -- hints ---------------------------------------------------------------------
    async def hint(self, game_id: str, state: State, owner: str | None = None
                   ) -> dict[str, Any]:
        """The contract's hint for the player to move, searched in a worker
        (:class:`QueueFull` when the queue is at its bound)."""
        if state.is_terminal or state.is_chance:
            raise ValueError("no hint: the game is over or chance decides now")
        result: dict[str, Any] = await self.run(game_id, self.hint_seconds, hint_in_worker,
                                                _position(state), self.hint_seconds,
                                                owner=owner)
        return result


def ai_status(pool: AIPool | None, game_id: str, level: str | None, ai_to_move: bool
              ) -> dict[str, Any]:
    """The view's ``ai`` object for an AI game (contract item 5), from ``pool`` (the
    app's; None: an app without one, where the AI thinks in a thread)."""
    budget = level_budget(level) if level else None
    found = pool.status(game_id) if pool is not None else None
    if found is not None:
        state, position, left = found
        return {"state": state, "queue_position": position, "budget_s": budget,
                "seconds_left": None if left is None else round(left, 2)}
    if ai_to_move:
        # Between searches: playing out its plan with the display delay, or about to
        # think (a forced or planned decision needs no search).
        brain = pool.brain(game_id) if pool is not None else None
        left = (round(max(0.0, budget - brain.spent), 2)
                if brain is not None and budget is not None else None)
        return {"state": "thinking", "queue_position": None, "budget_s": budget,
                "seconds_left": left}
    return {"state": "idle", "queue_position": None, "budget_s": budget, "seconds_left": None}


def ai_evaluation(pool: AIPool | None, game_id: str, state: State, human: int
                  ) -> float | None:
    """The evaluation bar for the human of an AI game, in [-1, 1] (contract item 5):
    the AI's last search value in ``pool`` turned to the human's side, or the static
    evaluation when the AI has not searched yet."""
    if state.result is not None:
        winner = state.result.winner
        return 0.0 if winner is None else (1.0 if winner == human else -1.0)
    brain = pool.brain(game_id) if pool is not None else None
    if brain is not None and brain.value is not None:
        return round(-brain.value, 3)
    from ..ai import evaluate

    return round(squash(evaluate(state, human)), 3)
