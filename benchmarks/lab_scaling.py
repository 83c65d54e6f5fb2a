"""Lab throughput: games/hour with 1 worker and with N, the speed-up and its share of
linear, for a fixed small set of games (greedy self-play, every faction pairing).

    python benchmarks/lab_scaling.py                 # 1 and every core, 24 games
    python benchmarks/lab_scaling.py --workers 1 2 4 --games 48 --round-cap 60

Wall-clock speed-up depends on what else the machine is doing, so the load average is
printed before and after each measurement, and so is the CPU time spent per game
(processes' user+system time): if that stays flat from 1 to N workers the lab itself
adds no overhead, and a speed-up short of linear is the machine's other load.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from reliquary.lab.runner import run_local
from reliquary.lab.spec import parse_spec

SPEC = """
name = "scaling"
seed = 11
games_per_cell = 1
factions = "all"
[settings]
round_cap = {cap}
[[agents]]
name = "greedy"
"""


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(games: int, workers: int, cap: int) -> dict[str, float]:
    jobs = parse_spec(SPEC.format(cap=cap), "scaling.toml").jobs()[:games]
    before_load = load()
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    rows = list(run_local(jobs, workers=workers))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    assert len(rows) == len(jobs)
    print(f"workers {workers:2d}: {len(rows)} games in {wall:6.1f}s = "
          f"{len(rows) / wall * 3600:7.0f} games/hour; CPU {cpu / len(rows):.2f}s a game; "
          f"load before {before_load}, after {load()}", flush=True)
    return {"wall": wall, "cpu_per_game": cpu / len(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--round-cap", type=int, default=60)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; greedy self-play, round cap {args.round_cap}, "
          f"{args.games} games (the same games at every worker count)")
    results = {w: measure(args.games, w, args.round_cap) for w in args.workers}
    base = results[args.workers[0]]["wall"] * args.workers[0]
    for w, r in results.items():
        speedup = base / r["wall"]
        print(f"workers {w:2d}: speed-up {speedup:.2f}× = {speedup / w:.0%} of linear; "
              f"CPU per game {r['cpu_per_game'] / results[args.workers[0]]['cpu_per_game']:.2f}"
              f"× the first")


if __name__ == "__main__":
    main()
