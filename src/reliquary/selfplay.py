"""Random self-play: complete games between uniformly random legal players.

Each game ``i`` of a run with seed ``S`` draws every choice and chance outcome from
``random.Random(S + i)``, so any single game can be reproduced on its own.

>>> stats = run_selfplay(3, seed=1)
>>> stats.games, stats.errors
(3, [])
"""

from __future__ import annotations

import random
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .content import default_content
from .engine import Content, Game, Settings, State


@dataclass
class SelfplayStats:
    """What a self-play run measured."""

    games: int = 0
    turns: int = 0
    decisions: int = 0          # every option applied, chance outcomes included
    chance_outcomes: int = 0
    seconds: float = 0.0
    results: Counter[str] = field(default_factory=Counter)      # first / second / draw
    end_reasons: Counter[str] = field(default_factory=Counter)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        secs = self.seconds or 1e-9
        return {
            "games": self.games,
            "turns": self.turns,
            "decisions": self.decisions,
            "chance_outcomes": self.chance_outcomes,
            "seconds": round(self.seconds, 4),
            "turns_per_second": round(self.turns / secs, 1),
            "decisions_per_second": round(self.decisions / secs, 1),
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0.0,
            "results": {k: self.results.get(k, 0) for k in ("first", "second", "draw")},
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "errors": self.errors,
        }


def play_random_game(settings: Settings, content: Content, seed: int) -> tuple[State, int, int]:
    """Play one random game; returns the final state, options applied and chance outcomes."""
    rng = random.Random(seed)
    state = State(content, settings)
    decisions = chance = 0
    choice = rng.choice
    while state.result is None:
        if state.is_chance:
            chance += 1
        state.apply(choice(state.legal_options()))
        decisions += 1
    return state, decisions, chance


def record_random_game(settings: Settings, content: Content, seed: int) -> Game:
    """The same game as :func:`play_random_game` with its full history (for records)."""
    rng = random.Random(seed)
    game = Game(content, settings, meta={"players": ["random", "random"], "seed": seed})
    while game.state.result is None:
        game.apply(rng.choice(game.state.legal_options()))
    return game


def run_selfplay(games: int, seed: int = 0, settings: Settings | None = None,
                 content: Content | None = None,
                 progress: Callable[[int], None] | None = None) -> SelfplayStats:
    """Play ``games`` random games and gather statistics; a crash is counted, not raised."""
    settings = settings or Settings()
    content = content or default_content()
    stats = SelfplayStats()
    start = time.perf_counter()
    for i in range(games):
        try:
            state, decisions, chance = play_random_game(settings, content, seed + i)
        except Exception as err:  # counted and reported: a bug, never a silent loss
            stats.errors.append({"seed": seed + i, "error": f"{type(err).__name__}: {err}",
                                 "trace": traceback.format_exc(limit=3)})
        else:
            stats.turns += sum(state.turns_taken)
            stats.decisions += decisions
            stats.chance_outcomes += chance
            result = state.result
            assert result is not None
            if result.winner is None:
                stats.results["draw"] += 1
            else:
                stats.results["first" if result.winner == state.first else "second"] += 1
            stats.end_reasons[result.reason] += 1
        stats.games += 1
        if progress is not None:
            progress(i + 1)
    stats.seconds = time.perf_counter() - start
    return stats
