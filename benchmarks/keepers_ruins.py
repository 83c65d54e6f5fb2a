"""Ruin placement with Keepers' Relics (a script, not a test): greedy against itself on
a side with the module on, the same seeded games played twice — Ruins placed by the
module-aware term (``reliquary.ai.keepers_eval.ruin_choice``, MODULES.md §6.8) and by
the base game's heuristic (the term switched off) — with each arm's win reasons and
mean length. MODULES.md §6.9 expects the module to bring relic-points wins and shorter
games; the term is what lets both sides' tokens come into play.

    python benchmarks/keepers_ruins.py                  # 12 games per arm, side 8
    python benchmarks/keepers_ruins.py --games 20 --size 10 --seed 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from reliquary import default_content
from reliquary.ai import get_agent, module_terms, sample_chance
from reliquary.ai.drafting import drafted
from reliquary.engine import Settings, State


def play(seed: int, size: int) -> tuple[str, int]:
    """One greedy-against-greedy game: (the result's reason, rounds)."""
    rng = random.Random(seed)
    agents = [drafted(get_agent("greedy", seed=seed + i), seed + i) for i in (1, 2)]
    s = State(default_content(), Settings(size=size, modules=("keepers",)))
    while not s.is_terminal:
        s.apply(sample_chance(s, rng) if s.is_chance else agents[s.current_player].choose(s))
    assert s.result is not None
    return s.result.reason, s.rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games per arm (default 12)")
    parser.add_argument("--size", type=int, default=8, help="board side (default 8)")
    parser.add_argument("--seed", type=int, default=1000, help="first game's seed")
    args = parser.parse_args()
    term = dict(module_terms.BASE_SETUP)
    for label in ("term", "base"):
        if label == "base":
            module_terms.BASE_SETUP.clear()
        started = time.perf_counter()
        out = [play(args.seed + g, args.size) for g in range(args.games)]
        reasons = Counter(r for r, _ in out)
        print(f"{label}: mean rounds {statistics.mean(r for _, r in out):.1f}, "
              f"relic_points {reasons['relic_points']}/{args.games}, "
              f"reasons {dict(reasons.most_common())} "
              f"({time.perf_counter() - started:.0f} s)")
    module_terms.BASE_SETUP.update(term)


if __name__ == "__main__":
    main()
