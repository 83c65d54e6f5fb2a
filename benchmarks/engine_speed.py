"""Random self-play throughput of the engine on sides 8 and 12 (a script, not a test).

Prints turns/s and decisions/s per board side, the ratio to the issue's aims
(20,000 decisions/s and 5,000 turns/s on side 8, one core), and the ratio to a
fixed pure-Python reference workload timed in the same run, so that figures from
different (or busy) machines can be compared. ``--profile`` adds where the time goes.

    python benchmarks/engine_speed.py --games 400
    python benchmarks/engine_speed.py --games 200 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from reliquary import Settings, default_content
from reliquary.selfplay import run_selfplay

AIM_DECISIONS, AIM_TURNS = 20_000, 5_000


def reference_ops_per_second(seconds: float = 0.5) -> float:
    """A fixed pure-Python workload (dict, list and int work), in loops per second."""
    loops, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        d: dict[int, int] = {}
        for i in range(200):
            d[i] = (i * 7) % 13
        sorted(d.values())
        loops += 1
    return loops / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per board side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12])
    parser.add_argument("--profile", action="store_true", help="profile side 8 and print")
    args = parser.parse_args()

    content = default_content()
    run_selfplay(20, args.seed, Settings(size=8), content)  # warm caches (LoS, tables)
    ref = reference_ops_per_second()
    print(f"reference workload: {ref:,.0f} loops/s")
    print(f"{'side':>4} {'games':>6} {'turns/s':>10} {'decisions/s':>12} {'mean turns':>10} "
          f"{'vs aim (turns, dec.)':>22} {'dec. per ref loop':>18}")
    for size in args.sizes:
        stats = run_selfplay(args.games, args.seed, Settings(size=size), content).as_dict()
        tps, dps = stats["turns_per_second"], stats["decisions_per_second"]
        aim = f"{tps / AIM_TURNS:.2f}×, {dps / AIM_DECISIONS:.2f}×" if size == 8 else "-"
        print(f"{size:>4} {stats['games']:>6} {tps:>10,.0f} {dps:>12,.0f} "
              f"{stats['mean_turns']:>10} {aim:>22} {dps / ref:>18.2f}")
        if stats["errors"]:
            print(f"  {len(stats['errors'])} games failed: {stats['errors'][0]['error']}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run_selfplay(args.games, args.seed, Settings(size=8), content)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
