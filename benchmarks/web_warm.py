"""How many of the web AI's thinks start warm (a script that prints figures, not a test).

Several AI games play at once against random legal moves through the server's AI pool
(:class:`reliquary.web.ai_pool.AIPool`, real worker processes), and every think's
report says which of the game's searches its table came from: a warm start from the
game's last think (+51 Elo at equal nodes, ``docs/ai.md``), one from an older think
(a worker that played the game turns ago), or none. Two ways of picking a worker:

- ``routed``: the pool's own, a game's thinks go back to its home worker;
- ``unrouted``: any free worker, drawn at random (what one shared process pool gives:
  whichever worker is idle takes the next call), for comparison.

Each prints the thinks after a game's first, and the share that started from the
game's last think, with a Wilson 95% interval.

    python benchmarks/web_warm.py                      # 4 games, 2 workers, hard
    python benchmarks/web_warm.py --games 6 --workers 3 --turns 8 --level max
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

from statsmodels.stats.proportion import proportion_confint

from reliquary.ai import sample_chance
from reliquary.content import default_content
from reliquary.engine import Game
from reliquary.web import ai_pool
from reliquary.web.ai_pool import AIPool, think_in_worker


class Counting(AIPool):
    """The pool, counting where each think's table came from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_root: dict[str, int] = {}  # game -> turns taken at its last think
        self.counts = {"last": 0, "older": 0, "cold": 0}

    async def run(self, game_id: str, budget: float | None, fn: Callable[..., Any],
                  *args: Any, sticky: bool = False) -> Any:
        result = await super().run(game_id, budget, fn, *args, sticky=sticky)
        if fn is think_in_worker:
            root = sum(args[0]["turns_taken"].values())
            before = self.last_root.get(game_id)
            if before is not None:
                kind = ("last" if result["warm_turn"] == before
                        else "older" if result["warm_turn"] >= 0 else "cold")
                self.counts[kind] += 1
            self.last_root[game_id] = root
        return result


class UnroutedPool(Counting):
    """The pool with its routing off: a free worker drawn at random for every job."""

    def _start(self, ticket: int, job: ai_pool._Job) -> None:
        busy = {running.worker for running in self._running.values()}
        job.worker = random.choice([w for w in range(self.max_thinking) if w not in busy])
        job.started = time.monotonic()
        self._running[ticket] = job


async def play(pool: AIPool, game_id: str, level: str, turns: int, seed: int) -> None:
    """One game: the AI (Key) against random legal options, for ``turns`` AI turns."""
    rng = random.Random(seed)
    game = Game(default_content())
    ai_turns = 0
    while not game.state.is_terminal:
        state = game.state
        if state.is_chance:
            game.apply(sample_chance(state, rng))
            continue
        decision = state.decision()
        if decision.player == 0:
            if decision.kind == "play":
                ai_turns += 1
                if ai_turns > turns:
                    return
            history = [entry.token for entry in game.history]
            game.apply(await pool.choose(game_id, state.clone(), level, seed, history))
        else:
            game.apply(rng.choice(decision.options))


async def measure(pool: Counting, games: int, level: str, turns: int) -> dict[str, int]:
    try:
        await asyncio.gather(*(play(pool, f"game{i}", level, turns, i) for i in range(games)))
        return pool.counts
    finally:
        pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="AI games at once")
    parser.add_argument("--workers", type=int, default=2, help="AI worker processes")
    parser.add_argument("--turns", type=int, default=6, help="AI turns a game")
    parser.add_argument("--level", default="hard", help="the AI's level (a search level)")
    args = parser.parse_args()
    print(f"{args.games} {args.level} games at once, {args.workers} workers, "
          f"{args.turns} AI turns each, against random legal options")
    print(f"{'workers':>9} | {'thinks':>6} | {'from last':>9} | {'older':>5} | {'cold':>4} "
          f"| from the last think (95% CI)")
    for name, kind in (("routed", Counting), ("unrouted", UnroutedPool)):
        pool = kind(default_content(), max_thinking=args.workers)
        counts = asyncio.run(measure(pool, args.games, args.level, args.turns))
        thinks = sum(counts.values())
        low, high = (proportion_confint(counts["last"], thinks, method="wilson")
                     if thinks else (0.0, 0.0))
        share = counts["last"] / thinks if thinks else 0.0
        print(f"{name:>9} | {thinks:>6} | {counts['last']:>9} | {counts['older']:>5} | "
              f"{counts['cold']:>4} | {share:.0%} ({low:.0%}–{high:.0%})")


if __name__ == "__main__":
    main()
