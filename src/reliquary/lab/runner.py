"""Playing a run's games: one game as a pure function of its job, and two backends that
map it over many games — a local process pool (every core by default) and Ray tasks.

A game depends only on its :class:`~reliquary.lab.spec.GameJob` (seeds, node budgets,
settings, content), never on which worker plays it or when, so both backends store the
same rows for the same spec (only ``seconds``, the wall-clock time, differs).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..ai import evaluate, get_agent, sample_chance
from ..content import default_content
from ..engine import SIDES, Option, Settings, State
from .spec import GameJob, LabSpec
from .store import Store

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


class _ForcedFaction:
    """Wraps an agent so that the S3 faction choice is the cell's faction; every other
    decision is the agent's own (the option still comes from the engine's legal list)."""

    def __init__(self, agent: Any, faction: str | None) -> None:
        self.agent, self.faction = agent, faction
        self.name = agent.name

    def choose(self, state: State) -> Option:
        if self.faction is not None and state.decision().kind == "faction":
            if self.faction not in state.legal_options():
                raise ValueError(f"faction {self.faction!r} is not offered")
            return self.faction
        option: Option = self.agent.choose(state)
        return option


def play_game(job: GameJob) -> Row:
    """Play one game of a run and return its row for the store (see ``docs/lab.md``)."""
    content = job.content or default_content()
    settings = Settings.from_dict(job.settings)
    state = State(content, settings)
    _warm_up(state)
    events: list[Any] = []
    state.events = events
    rng = random.Random(job.chance_seed)
    agents = [
        _ForcedFaction(get_agent(entry.name, seed=seed, **entry.budget()),
                       job.factions[seat] if job.factions else None)
        for seat, (entry, seed) in enumerate(zip(job.agents, job.agent_seeds, strict=True))
    ]
    rites: list[str | None] = [None, None]
    play_options = [[0, 0], [0, 0]]          # per seat: sum of options, decisions
    evals: list[float] = []
    decisions = 0
    rounds_seen = 0
    started = time.perf_counter()
    while state.result is None:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
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
        decisions += 1
        if state.rounds != rounds_seen:
            rounds_seen = state.rounds
            evals.append(float(evaluate(state, 0)))
    seconds = time.perf_counter() - started
    return _row(job, state, events, rites, play_options, evals, decisions, seconds)


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
        **{name: value for name, value in state.settings.as_dict().items()},
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
        "seconds": seconds,
    }
    return row


def _budget_text(budget: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(budget.items()))


def _play_indexed(job: GameJob) -> Row:
    return play_game(job)


def run_local(jobs: Iterable[GameJob], workers: int | None = None) -> Iterator[Row]:
    """Rows of the jobs' games as they finish, over ``workers`` processes (default: every
    core; 1 plays in this process)."""
    jobs = list(jobs)
    if not jobs:
        return
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    if workers == 1:
        for job in jobs:
            yield play_game(job)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_indexed, jobs, chunksize=1)


def run_ray(jobs: Iterable[GameJob], address: str | None = "auto",
            in_flight: int | None = None) -> Iterator[Row]:
    """Rows of the jobs' games as Ray tasks finish. ``address``: a cluster address,
    ``auto`` (the running cluster) or ``local`` (start one here); if Ray is already
    initialised in this process (as the tests do) that instance is used."""
    import ray

    jobs = list(jobs)
    if not jobs:
        return
    if not ray.is_initialized():
        # "local" starts a Ray instance on this machine; anything else joins a cluster.
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False)
    remote = ray.remote(play_game)
    cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
    limit = in_flight or max(2, 2 * cpus)  # a bounded queue: rows come back steadily
    pending: list[Any] = []
    queue = iter(jobs)
    for job in itertools.islice(queue, limit):
        pending.append(remote.remote(job))
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)
            nxt = next(queue, None)
            if nxt is not None:
                pending.append(remote.remote(nxt))


def run_games(jobs: Iterable[GameJob], workers: int | None = None, ray_address: str | None = None,
              on_row: Callable[[Row], None] | None = None) -> list[Row]:
    """All rows, sorted by game index; Ray when ``ray_address`` is given."""
    rows = []
    source = run_ray(jobs, ray_address) if ray_address else run_local(jobs, workers)
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
             flush_seconds: float = 60.0) -> dict[str, Any]:
    """Play the spec's games that ``run_dir`` does not hold yet, storing them in batches.

    ``on_start(to_play, already_stored)`` is called once before the first game;
    ``on_row`` after each game. A batch is written every ``batch`` games (default:
    twice the workers, at least 8) or every ``flush_seconds``, and at the end — also when
    interrupted, so finished games are never lost."""
    store = Store(run_dir)
    store.open_for(spec)
    done = store.done_ids()
    jobs = [job for job in spec.jobs() if job.game_id not in done]
    if on_start:
        on_start(len(jobs), len(done))
    workers = max(1, workers or os.cpu_count() or 1)
    batch = batch or max(8, 2 * workers)
    pending: list[Row] = []
    played = 0
    started = last_flush = time.perf_counter()
    source = run_ray(jobs, ray_address) if ray_address else run_local(jobs, workers)
    try:
        for row in source:
            pending.append(row)
            played += 1
            if on_row:
                on_row(row)
            now = time.perf_counter()
            if len(pending) >= batch or now - last_flush > flush_seconds:
                store.write_batch(pending)
                pending, last_flush = [], now
    finally:
        store.write_batch(pending)
    seconds = time.perf_counter() - started
    return {"run": str(run_dir), "played": played, "skipped": len(done),
            "stored": len(done) + played, "planned": spec.games, "seconds": seconds,
            "games_per_hour": played / seconds * 3600 if seconds > 0 and played else 0.0}
