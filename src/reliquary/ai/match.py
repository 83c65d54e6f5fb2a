"""Matches between two agents: games in parallel, seats alternated, score and Elo with 95%
intervals.

The score interval is the Wilson interval from ``statsmodels`` (a draw counts half a
point; Wilson's variance p(1−p)/n bounds the variance of a game worth 0, ½ or 1, so the
interval is, if anything, conservative); the Elo difference and its interval are that
score and interval mapped through the logistic Elo curve.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import new_game
from .base import get_agent, sample_chance
from .drafting import drafted


@dataclass(frozen=True)
class MatchSpec:
    """What to play: agents by registry name or level, and the rules of each game."""

    agent_a: str
    agent_b: str
    games: int
    size: int = 8
    seed: int = 0
    time: float | None = None      # seconds per turn, for both agents
    nodes: int | None = None       # nodes per turn, for both agents
    los: str = "geometric"
    first_turn: str = "no_damage"
    round_cap: int = 200
    #: The §11 variants (VAR1–VAR4) by setting name, e.g. {"vigil_start": 4}.
    variants: dict[str, Any] = field(default_factory=dict)
    budget_a: dict[str, Any] = field(default_factory=dict)  # extra budget for A only
    budget_b: dict[str, Any] = field(default_factory=dict)
    #: The ruleset (name or file) whose content (patch included) the games use; its settings are
    #: given above (the CLI takes them from ``--ruleset``).
    ruleset: str = "classic"


@dataclass(frozen=True)
class GameOutcome:
    index: int
    a_seat: int                 # 0: A played Key; 1: Skull
    winner: str | None          # "a", "b" or None for a draw
    reason: str
    rounds: int
    seconds: float
    max_turn_seconds: tuple[float, float]  # (A, B): the longest turn each took to think


def game_seeds(seed: int, index: int) -> tuple[int, int, int]:
    """Seeds of (chance, agent A, agent B) for game ``index`` of a match."""
    base = (seed * 1_000_003 + index * 7919) % (2**31)
    return base, base + 1, base + 2


def play_game(spec: MatchSpec, index: int) -> GameOutcome:
    """Game ``index`` of the match: A is Key in even games, Skull in odd ones."""
    chance_seed, seed_a, seed_b = game_seeds(spec.seed, index)
    rng = random.Random(chance_seed)
    common = {"time": spec.time, "nodes": spec.nodes}
    a = drafted(get_agent(spec.agent_a, seed=seed_a, **{**common, **spec.budget_a}), seed_a)
    b = drafted(get_agent(spec.agent_b, seed=seed_b, **{**common, **spec.budget_b}), seed_b)
    a_seat = index % 2
    agents = (a, b) if a_seat == 0 else (b, a)
    state = new_game(size=spec.size, los=spec.los, first_turn=spec.first_turn,
                     round_cap=spec.round_cap, **spec.variants)
    if spec.ruleset != "classic":
        from ..engine import State
        from ..rulesets import load_ruleset

        state = State(load_ruleset(spec.ruleset).content(), state.settings)
    turn_time: dict[tuple[int, int], float] = {}
    started = time.perf_counter()
    while not state.is_terminal:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        player = state.current_player
        turn = (player, state.turns_taken[player])
        t0 = time.perf_counter()
        option = agents[player].choose(state)
        turn_time[turn] = turn_time.get(turn, 0.0) + time.perf_counter() - t0
        state.apply(option)
    winner = state.winner
    by_seat = [max((t for (p, _), t in turn_time.items() if p == seat), default=0.0)
               for seat in (0, 1)]
    assert state.result is not None
    return GameOutcome(
        index=index, a_seat=a_seat,
        winner=None if winner is None else ("a" if winner == a_seat else "b"),
        reason=state.result.reason, rounds=state.rounds,
        seconds=time.perf_counter() - started,
        max_turn_seconds=(by_seat[a_seat], by_seat[1 - a_seat]),
    )


def _play_indexed(args: tuple[MatchSpec, int]) -> GameOutcome:
    return play_game(*args)


def _warm_up(size: int) -> None:
    """Fill the board's line-of-sight cache once per worker, so that no agent's first
    turn pays for it (a long-lived front end pays it once too)."""
    geometry = new_game(size=size).geometry
    for a in range(geometry.area):
        for b in range(geometry.area):
            geometry.between(a, b)


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def summarize(outcomes: Iterable[GameOutcome], seconds: float = 0.0) -> dict[str, Any]:
    """Wins, draws, A's score with its 95% Wilson interval, and the Elo difference."""
    from statsmodels.stats.proportion import proportion_confint

    outcomes = list(outcomes)
    games = len(outcomes)
    wins_a = sum(1 for o in outcomes if o.winner == "a")
    wins_b = sum(1 for o in outcomes if o.winner == "b")
    draws = games - wins_a - wins_b
    if games == 0:
        raise ValueError("no games to summarize")
    points = wins_a + 0.5 * draws
    score = points / games
    low, high = proportion_confint(points, games, alpha=0.05, method="wilson")
    reasons: dict[str, int] = {}
    for o in outcomes:
        reasons[o.reason] = reasons.get(o.reason, 0) + 1

    def finite(x: float) -> float | None:
        return round(x, 1) if math.isfinite(x) else None

    return {
        "games": games, "wins_a": wins_a, "wins_b": wins_b, "draws": draws,
        "score_a": round(score, 4),
        "score_ci95": [round(float(low), 4), round(float(high), 4)],
        "elo_diff": finite(elo_from_score(score)),
        "elo_ci95": [finite(elo_from_score(float(low))), finite(elo_from_score(float(high)))],
        "reasons": reasons,
        "mean_rounds": round(sum(o.rounds for o in outcomes) / games, 1),
        "max_turn_seconds_a": round(max(o.max_turn_seconds[0] for o in outcomes), 3),
        "max_turn_seconds_b": round(max(o.max_turn_seconds[1] for o in outcomes), 3),
        "seconds": round(seconds, 2),
    }


def run_match(spec: MatchSpec, workers: int | None = None,
              on_game: Callable[[GameOutcome], None] | None = None) -> dict[str, Any]:
    """Play the match over ``workers`` processes (default: every core); the summary dict
    with the spec and every game's outcome under ``"spec"`` and ``"outcomes"``."""
    if spec.games < 1:
        raise ValueError("a match needs at least one game")
    for name in (spec.agent_a, spec.agent_b):
        get_agent(name)  # fail early, in this process, on an unknown name
    workers = max(1, min(workers or os.cpu_count() or 1, spec.games))
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    jobs = [(spec, i) for i in range(spec.games)]
    if workers == 1:
        _warm_up(spec.size)
        for job in jobs:
            outcomes.append(_play_indexed(job))
            if on_game:
                on_game(outcomes[-1])
    else:
        with multiprocessing.get_context("spawn").Pool(
                workers, initializer=_warm_up, initargs=(spec.size,)) as pool:
            for outcome in pool.imap_unordered(_play_indexed, jobs):
                outcomes.append(outcome)
                if on_game:
                    on_game(outcome)
    outcomes.sort(key=lambda o: o.index)
    summary = summarize(outcomes, time.perf_counter() - started)
    summary["agent_a"], summary["agent_b"] = spec.agent_a, spec.agent_b
    summary["spec"] = asdict(spec)
    summary["outcomes"] = [asdict(o) for o in outcomes]
    return summary
