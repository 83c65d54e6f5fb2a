"""Playing a run's games: one game as a pure function of its job, and two backends that
map it over many games — a local process pool (every core by default) and Ray tasks.

A game depends only on its :class:`~reliquary.lab.spec.GameJob` (seeds, node budgets,
settings, content), never on which worker plays it or when, so both backends store the
same rows for the same spec (only ``seconds``, the wall-clock time, differs).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from ..ai import evaluate, get_agent, sample_chance
from ..ai.drafting import drafted
from ..content import default_content
from ..engine import SIDES, Game, Option, Settings, State
from ..engine.hooks import Rulebook
from .spec import GameJob, LabSpec
from .store import Store, settings_columns

Row = dict[str, Any]

_WARMED: set[tuple[str, int]] = set()


def _warm_up(state: State) -> None:
    """Fill the board's line-of-sight cache once per worker and board, so that timing
    is not skewed by the first game on a board (the cache changes no result)."""
    key = (state.content.fingerprint, state.geometry.size)
    if key in _WARMED:
        return
    geometry = state.geometry
    for a in range(geometry.area):
        for b in range(geometry.area):
            geometry.between(a, b)
    _WARMED.add(key)


class _ForcedSetup:
    """Wraps an agent so that the S3 faction choice and the S5 rite draft are the cell's
    (when the design fixes them); every other decision is the agent's own. A forced
    option must be one the engine offers."""

    def __init__(self, agent: Any, faction: str | None, rite: str | None = None) -> None:
        self.agent, self.faction, self.rite = agent, faction, rite
        self.name = agent.name

    def choose(self, state: State) -> Option:
        kind = state.decision().kind
        forced = self.faction if kind == "faction" else self.rite if kind == "rite" else None
        if forced is not None:
            if forced not in state.legal_options():
                raise ValueError(f"{kind} {forced!r} is not offered")
            return forced
        option: Option = self.agent.choose(state)
        return option


def sample_setup_chance(state: State, rng: random.Random, first: int | None) -> Option:
    """A chance outcome; with ``first`` set, the deal of the waiting card (S4) is drawn
    among the cards whose seal makes that seat the first player — the deal conditioned
    on who moves first, each card with its own probability."""
    if first is None or state.decision().kind != "deal" \
            or state.dealt != 2 * state.content.hand_size:
        return sample_chance(state, rng)
    seal = SIDES[first]
    outcomes = [(o, p) for o, p in state.chance_outcomes()
                if state.content.card(str(o)).seal == seal]
    if not outcomes:
        raise ValueError(f"no card left to deal makes {seal} the first player")
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


def stream_seed(chance_seed: int, kind: str) -> int:
    """The seed of a rule module's chance kind in one game: a stable hash (not Python's
    salted ``hash``) of the game's chance seed and the kind's name."""
    digest = hashlib.sha256(f"{chance_seed}:{kind}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class ChanceStreams:
    """The dice of one game. The base game's deal and rolls come from one stream seeded by
    the chance seed; each of a rule module's own chance kinds from a stream of its own.
    So a module cell deals and rolls the numbers of its default cell (MODULES.md §10.2
    step 1) until the rules make the games differ, whatever chance the module adds."""

    def __init__(self, chance_seed: int, module_kinds: Iterable[str] = ()) -> None:
        # module_kinds: the rulebook's chance kinds, which are the modules' only (the
        # base game's deal and rolls are not among them)
        self.main = random.Random(chance_seed)
        self._seed = chance_seed
        self._kinds = frozenset(module_kinds)
        self._streams: dict[str, random.Random] = {}

    def stream(self, state: State) -> random.Random:
        """The stream that draws the state's current chance outcome."""
        if not self._kinds:
            return self.main
        kind = state.decision().kind
        if kind not in self._kinds:
            return self.main
        if kind not in self._streams:
            self._streams[kind] = random.Random(stream_seed(self._seed, kind))
        return self._streams[kind]


def play_game(job: GameJob) -> Row:
    """Play one game of a run and return its row for the store (see ``docs/lab.md``)."""
    content = job.content or default_content()
    settings = Settings.from_dict(job.settings)
    state = State(content, settings)
    _warm_up(state)
    events: list[Any] = []
    state.events = events
    dice = ChanceStreams(job.chance_seed, Rulebook.of(content, settings).chance_kinds)
    agents = [
        _ForcedSetup(drafted(get_agent(entry.name, seed=seed, **entry.budget()), seed),
                     job.factions[seat] if job.factions else None,
                     job.rites[seat] if job.rites else None)
        for seat, (entry, seed) in enumerate(zip(job.agents, job.agent_seeds, strict=True))
    ]
    rites: list[str | None] = [None, None]
    play_options = [[0, 0], [0, 0]]          # per seat: sum of options, decisions
    evals: list[float] = []
    taken: list[Option] | None = [] if job.keep_records else None
    decisions = 0
    rounds_seen = 0
    started = time.perf_counter()
    while state.result is None:
        if state.is_chance:
            outcome = sample_setup_chance(state, dice.stream(state), job.first)
            state.apply(outcome)
            if taken is not None:
                taken.append(outcome)
            continue
        decision = state.decision()
        player = decision.player
        if decision.kind == "play":
            play_options[player][0] += len(decision.options)
            play_options[player][1] += 1
        option = agents[player].choose(state)
        if decision.kind == "rite":
            rites[player] = str(option)
        state.apply(option)
        if taken is not None:
            taken.append(option)
        decisions += 1
        if state.rounds != rounds_seen:
            rounds_seen = state.rounds
            evals.append(float(evaluate(state, 0)))
    seconds = time.perf_counter() - started
    row = _row(job, state, events, rites, play_options, evals, decisions, seconds)
    if taken is not None and keeps_record(job.keep_records, row):
        row[RECORD_KEY] = _record(job, content, settings, taken, row)
    return row


#: The row key under which a kept game's record travels from the worker to the store.
RECORD_KEY = "_record"
def keeps_record(keep: Iterable[str], row: Row) -> bool:
    """Whether a spec's ``keep_records`` asks for this game's full record."""
    reason = row["reason"]
    return any(k in ("all", reason) or (k == "draw" and row["winner"] is None)
               or (k == "capped" and reason == "round_cap") for k in keep)


def _record(job: GameJob, content: Any, settings: Settings, taken: list[Option],
            row: Row) -> dict[str, Any]:
    """The game's record (``reliquary replay`` reads it): its decisions applied again to
    a recording :class:`~reliquary.engine.Game` — only for kept games, so the others
    pay nothing for the notation."""
    game = Game(content, settings, meta={
        "source": "reliquary lab", "run": job.run, "game_id": job.game_id,
        "game_index": job.game_index, "agents": [a.display() for a in job.agents],
        "factions": [row["faction_key"], row["faction_skull"]], "seed": job.chance_seed,
        "ruleset": job.ruleset})
    for option in taken:
        game.apply(option)
    return game.record()


def _row(job: GameJob, state: State, events: list[Any], rites: list[str | None],
         play_options: list[list[int]], evals: list[float], decisions: int,
         seconds: float) -> Row:
    result = state.result
    assert result is not None
    killed = [0, 0]
    hero_damage = [0, 0]
    regroups = [0, 0]
    rites_played = [0, 0]
    pickups = [0, 0]
    drops = 0
    plays: Counter[tuple[int, str, str]] = Counter()
    first = first_card = None
    vigil_min = state.settings.as_dict().get("vigil_start", 6)
    for event in events:
        kind, data = event.kind, event.data
        if kind == "kill" and not data["hero"]:
            killed[data["owner"]] += 1
        elif kind == "damage" and data["hero"] and not data["prevented"]:
            hero_damage[data["owner"]] += data["amount"]
        elif kind == "play":
            plays[(data["player"], data["card"], data["mode"])] += 1
            if data["mode"] == "regroup":
                regroups[data["player"]] += 1
            elif data["mode"] == "rite":
                rites_played[data["player"]] += 1
        elif kind == "pickup":
            pickups[data["owner"]] += 1
        elif kind == "drop":
            drops += 1
        elif kind == "first":
            first, first_card = data["player"], data["card"]
        elif kind == "vigil":
            vigil_min = min(vigil_min, data["value"])
    factions = state.factions
    winner = result.winner
    a, b = job.agents
    row: Row = {
        "run": job.run, "spec_hash": job.spec_hash, "game_id": job.game_id,
        "game_index": job.game_index, "rep": job.rep, "seed": job.chance_seed,
        "content": state.content.fingerprint,
        **settings_columns(state.settings),
        "agent_key": a.display(), "agent_skull": b.display(),
        "agent_key_name": a.name, "agent_skull_name": b.name,
        "budget_key": _budget_text(a.budget()), "budget_skull": _budget_text(b.budget()),
        "agent_a_seat": SIDES[job.agent_a_seat],
        "faction_key": factions[0], "faction_skull": factions[1],
        "rite_key": rites[0], "rite_skull": rites[1],
        "first": None if first is None else SIDES[first], "first_card": first_card,
        "winner": None if winner is None else SIDES[winner],
        "reason": result.reason, "detail": result.detail,
        "tiebreak": result.detail if result.reason == "vigil" else None,
        "vigil_score_key": result.scores[0] if result.scores else None,
        "vigil_score_skull": result.scores[1] if result.scores else None,
        "vigil_min": vigil_min,
        "rounds": state.rounds, "turns": sum(state.turns_taken), "decisions": decisions,
        "killed_key": killed[0], "killed_skull": killed[1],
        "hero_damage_key": hero_damage[0], "hero_damage_skull": hero_damage[1],
        "regroups_key": regroups[0], "regroups_skull": regroups[1],
        "rites_played_key": rites_played[0], "rites_played_skull": rites_played[1],
        "pickups_key": pickups[0], "pickups_skull": pickups[1], "drops": drops,
        "play_options_key": play_options[0][0] / max(1, play_options[0][1]),
        "play_options_skull": play_options[1][0] / max(1, play_options[1][1]),
        "plays": [{"seat": SIDES[p], "card": c, "mode": m, "n": n}
                  for (p, c, m), n in sorted(plays.items())],
        "eval_key": evals,
        "module_stats": module_stats(state, events),
        "seconds": seconds,
    }
    return row


def module_stats(state: State, events: list[Any]) -> list[dict[str, Any]]:
    """The enabled modules' figures of a finished game (``Hooks.game_stats``), each named
    ``module.figure``, in the order of the modules."""
    if not state.settings.modules:
        return []
    hooks = Rulebook.of(state.content, state.settings).hooks
    return [{"name": f"{module}.{name}", "value": float(value)}
            for module, h in zip(state.settings.modules, hooks, strict=True)
            for name, value in h.game_stats(state, events).items()]


def _budget_text(budget: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(budget.items()))


# -- playing over local processes ------------------------------------------------------
#: Tries per game before it is recorded as failed: a game whose worker died, or that
#: raised (MemoryError included), is played once more on a fresh worker first.
ATTEMPTS = 2
#: Test hook: ``kill:INDEX[:ATTEMPT]`` makes the worker playing game INDEX kill itself
#: (SIGKILL, as the OOM killer would), ``memory:INDEX[:ATTEMPT]`` raise MemoryError;
#: without ATTEMPT on every try. Only the tests set it.
FAULT_ENV = "RELIQUARY_LAB_FAULT"
#: The workers' ``oom_score_adj`` (-1000 to 1000): the OOM killer's first choice.
OOM_SCORE_ADJ = 500


@dataclass(frozen=True)
class Failure:
    """A game that could not be played: the job, what went wrong, and the tries."""

    job: GameJob
    error: str
    attempts: int


def _inject_fault(job: GameJob, attempt: int) -> None:
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    kind, index, *when = spec.split(":")
    if kind not in ("kill", "memory"):  # a typo would otherwise test nothing, silently
        raise ValueError(f"{FAULT_ENV}={spec!r}: the kind must be 'kill' or 'memory'")
    if int(index) != job.game_index or (when and int(when[0]) != attempt):
        return
    if kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "memory":
        raise MemoryError("injected by " + FAULT_ENV)


def _worker_main(conn: Connection) -> None:
    """A worker process: play the jobs the parent sends until it sends None. Ctrl-C is
    the parent's to handle (it stores what finished and stops the workers), so the
    worker ignores SIGINT instead of printing a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # When memory runs out, Linux's OOM killer should take a worker — whose game the
    # parent then retries — and not the parent holding the run: raise the workers'
    # OOM score (allowed without privileges; Linux only).
    with contextlib.suppress(OSError):
        Path("/proc/self/oom_score_adj").write_text(str(OOM_SCORE_ADJ))
    while True:
        try:
            message = conn.recv()
        except EOFError:            # the parent is gone: nothing more to play
            return
        if message is None:
            return
        job, attempt = message
        try:
            _inject_fault(job, attempt)
            conn.send(("ok", play_game(job)))
        except Exception as err:  # any error is the game's, reported
            conn.send(("error", f"{type(err).__name__}: {err}"))


class _Worker:
    """One worker process and the job it is playing."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child,), daemon=True)
        with _sigint_ignored():      # inherited: a Ctrl-C while it starts is not its own
            self.process.start()
        child.close()
        self.job: GameJob | None = None
        self.attempt = 0

    def send(self, job: GameJob, attempt: int) -> None:
        self.job, self.attempt = job, attempt
        # A worker that died since its last game is found by its sentinel, like any
        # other death, and the job goes back to the queue from there.
        with contextlib.suppress(OSError):
            self.conn.send((job, attempt))



def _stop(pool: list[_Worker], grace: float = 1.0) -> None:
    """Ask idle workers to finish; kill those still playing (their game is lost anyway:
    the run is being stopped) or that do not finish within ``grace`` seconds."""
    for worker in pool:
        if worker.job is None:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        else:
            worker.process.kill()
    deadline = time.monotonic() + grace
    for worker in pool:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.conn.close()


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _death(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (killed: out of memory?)" if name == "SIGKILL" else ""
        return f"the worker process died of {name}{hint}"
    return f"the worker process exited with status {code}"


def run_local(jobs: Iterable[GameJob], workers: int | None = None,
              on_failure: Callable[[Failure], None] | None = None) -> Generator[Row]:
    """Rows of the jobs' games as they finish, over ``workers`` processes (default: every
    core; 1 plays in this process).

    Each worker plays one game at a time, so when a worker dies (``kill -9``, the
    out-of-memory killer) the parent knows which game it was playing: it starts a new
    worker and plays that game again; a game that fails :data:`ATTEMPTS` times is passed
    to ``on_failure`` and the run goes on. Closing the iterator (Ctrl-C, SIGTERM) stops
    the workers."""
    queue: deque[tuple[GameJob, int]] = deque((job, 1) for job in jobs)
    if not queue:
        return
    workers = max(1, min(workers or os.cpu_count() or 1, len(queue)))
    if workers == 1:
        yield from _run_here(queue, on_failure)
        return
    context = multiprocessing.get_context("spawn")
    pool = [_Worker(context) for _ in range(workers)]

    def retry_or_fail(job: GameJob, attempt: int, error: str) -> None:
        if attempt < ATTEMPTS:
            queue.appendleft((job, attempt + 1))
        elif on_failure is not None:
            on_failure(Failure(job, error, attempt))

    try:
        while True:
            for worker in pool:
                if worker.job is None and queue:
                    worker.send(*queue.popleft())
            busy = [w for w in pool if w.job is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for i, worker in enumerate(pool):
                job, attempt = worker.job, worker.attempt
                if job is None:
                    continue
                if worker.conn in ready:
                    try:
                        status, payload = worker.conn.recv()
                    except (EOFError, OSError):
                        status, payload = "dead", None
                    if status == "ok":
                        worker.job = None
                        yield payload
                        continue
                    if status == "error":
                        worker.job = None
                        retry_or_fail(job, attempt, payload)
                        continue
                elif worker.process.sentinel not in ready:
                    continue
                # The process is gone (its pipe closed or its sentinel fired): replace it.
                worker.process.join()
                error = _death(worker.process)
                worker.conn.close()
                pool[i] = _Worker(context)
                retry_or_fail(job, attempt, error)
    finally:
        _stop(pool)


def _run_here(queue: deque[tuple[GameJob, int]],
              on_failure: Callable[[Failure], None] | None) -> Iterator[Row]:
    """One worker: play in this process, with the same retry (a crash here is the run's)."""
    while queue:
        job, attempt = queue.popleft()
        try:
            row = play_game(job)
        except Exception as err:  # MemoryError is an Exception too
            error = f"{type(err).__name__}: {err}"
            if attempt < ATTEMPTS:
                queue.appendleft((job, attempt + 1))
            elif on_failure is not None:
                on_failure(Failure(job, error, attempt))
            continue
        yield row


def run_ray(jobs: Iterable[GameJob], address: str | None = "auto",
            in_flight: int | None = None,
            on_failure: Callable[[Failure], None] | None = None) -> Generator[Row]:
    """Rows of the jobs' games as Ray tasks finish. ``address``: a cluster address,
    ``auto`` (the running cluster) or ``local`` (start one here); if Ray is already
    initialised in this process (as the tests do) that instance is used. A task that
    fails (its worker died, or the game raised) is tried again once, then passed to
    ``on_failure``, as :func:`run_local` does."""
    import ray

    jobs = list(jobs)
    if not jobs:
        return
    if not ray.is_initialized():
        # "local" starts a Ray instance on this machine; anything else joins a cluster.
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False)
    # Ray's own retries would hide a failing game's tries from this count: none here.
    remote = ray.remote(max_retries=0)(play_game)
    cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
    limit = in_flight or max(2, 2 * cpus)  # a bounded queue: rows come back steadily
    queue: deque[tuple[GameJob, int]] = deque((job, 1) for job in jobs)
    pending: dict[Any, tuple[GameJob, int]] = {}

    def submit() -> None:
        while queue and len(pending) < limit:
            job, attempt = queue.popleft()
            pending[remote.remote(job)] = (job, attempt)

    submit()
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            job, attempt = pending.pop(ref)
            try:
                row = ray.get(ref)
            except Exception as err:  # Ray wraps the game's error
                if attempt < ATTEMPTS:
                    queue.appendleft((job, attempt + 1))
                elif on_failure is not None:
                    on_failure(Failure(job, f"{type(err).__name__}: {err}", attempt))
            else:
                yield row
        submit()


def run_games(jobs: Iterable[GameJob], workers: int | None = None, ray_address: str | None = None,
              on_row: Callable[[Row], None] | None = None,
              on_failure: Callable[[Failure], None] | None = None) -> list[Row]:
    """All rows, sorted by game index; Ray when ``ray_address`` is given."""
    rows = []
    source = run_ray(jobs, ray_address, on_failure=on_failure) if ray_address else \
        run_local(jobs, workers, on_failure=on_failure)
    for row in source:
        rows.append(row)
        if on_row:
            on_row(row)
    rows.sort(key=lambda r: r["game_index"])
    return rows


def run_spec(spec: LabSpec, run_dir: str | Path, workers: int | None = None,
             ray_address: str | None = None, batch: int | None = None,
             on_start: Callable[[int, int], None] | None = None,
             on_row: Callable[[Row], None] | None = None,
             on_failure: Callable[[Failure], None] | None = None,
             flush_seconds: float = 60.0, command: str | None = None) -> dict[str, Any]:
    """Play the spec's games that ``run_dir`` does not hold yet, storing them in batches.

    ``on_start(to_play, already_stored)`` is called once before the first game;
    ``on_row`` after each game; ``on_failure`` for a game given up after its tries (it
    is listed in ``RUN/failed.json`` and tried again when the run is resumed). A batch
    is written every ``batch`` games (default: twice the workers, at least 8) or every
    ``flush_seconds``, and at the end — also when interrupted, so finished games are
    never lost. ``command`` is the command line, recorded in ``lab.json``."""
    store = Store(run_dir)
    store.open_for(spec, command=command)
    done = store.done_ids()
    jobs = [job for job in spec.jobs() if job.game_id not in done]
    if on_start:
        on_start(len(jobs), len(done))
    workers = max(1, workers or os.cpu_count() or 1)
    batch = batch or max(8, 2 * workers)
    pending: list[Row] = []
    failures: list[Failure] = []
    played = 0
    started = last_flush = time.perf_counter()

    def failed(failure: Failure) -> None:
        failures.append(failure)
        store.write_failures([failure_entry(failure)])
        if on_failure:
            on_failure(failure)

    source = run_ray(jobs, ray_address, on_failure=failed) if ray_address else \
        run_local(jobs, workers, on_failure=failed)
    try:
        for row in source:
            record = row.pop(RECORD_KEY, None)
            if record is not None:
                store.write_record(row["game_id"], record)
            pending.append(row)
            played += 1
            if on_row:
                on_row(row)
            now = time.perf_counter()
            if len(pending) >= batch or now - last_flush > flush_seconds:
                store.write_batch(pending)
                pending, last_flush = [], now
    finally:
        source.close()          # stops the workers before the last batch is written
        store.write_batch(pending)
    seconds = time.perf_counter() - started
    _note_throughput(Path(run_dir), played, seconds, workers, ray_address)
    return {"run": str(run_dir), "played": played, "skipped": len(done),
            "failed": [failure_entry(f) for f in failures],
            "stored": len(done) + played, "planned": spec.games, "seconds": seconds,
            "games_per_hour": played / seconds * 3600 if seconds > 0 and played else 0.0}


#: Every session's throughput, one JSON object a line (``RUN/throughput.jsonl``).
THROUGHPUT_FILE = "throughput.jsonl"


def _note_throughput(run_dir: Path, played: int, seconds: float, workers: int,
                     ray_address: str | None) -> None:
    """Append this session's games, wall seconds and games/hour to the run's
    throughput log (with the load average: the machine's other work)."""
    if not played:
        return
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    entry = {"at": time.strftime("%Y-%m-%dT%H:%M:%S"), "played": played,
             "seconds": round(seconds, 1), "games_per_hour": round(played / seconds * 3600, 1)
             if seconds > 0 else None, "workers": workers, "ray": ray_address,
             "load_average": load}
    with contextlib.suppress(OSError), (run_dir / THROUGHPUT_FILE).open("a") as out:
        out.write(json.dumps(entry) + "\n")


def failure_entry(failure: Failure) -> dict[str, Any]:
    """A failed game as ``failed.json`` lists it."""
    job = failure.job
    return {"game_id": job.game_id, "game_index": job.game_index,
            "factions": list(job.factions) if job.factions else None,
            "agents": [a.display() for a in job.agents], "error": failure.error,
            "attempts": failure.attempts}
