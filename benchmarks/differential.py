"""Compiled and pure engines, same answers: the full differential run (a script, not a test).

Plays ``--games`` seeded cases (random games, and one case in five an AI search with a
fixed budget: alpha-beta search, greedy, MCTS) under every board side and rule option,
once with the build this environment has (compiled when built) and once with
``RELIQUARY_PURE=1``, and compares every record, final position and chosen option
(see ``reliquary/differential.py``). Exits 1 on any difference, printing both answers.

    python benchmarks/differential.py --games 5000
    python benchmarks/differential.py --games 200 --start 5000   # another slice
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from reliquary.differential import compare_builds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5000, help="number of cases")
    parser.add_argument("--start", type=int, default=0, help="first case index")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    parser.add_argument("--chunk", type=int, default=500, help="cases per process")
    args = parser.parse_args()

    began = time.perf_counter()
    totals = {"cases": 0, "games": 0, "searches": 0}
    seconds = {"default": 0.0, "pure": 0.0}
    mismatches = []
    builds: dict[str, str] = {}
    same_build = 0  # chunks where both runs had the same build (nothing was compared)
    for start in range(args.start, args.start + args.games, args.chunk):
        count = min(args.chunk, args.start + args.games - start)
        report = compare_builds(start, count, args.seed)
        builds = report.builds
        same_build += builds["default"] == builds["pure"]
        totals["cases"] += report.cases
        totals["games"] += report.games
        totals["searches"] += report.searches
        for name, secs in report.seconds.items():
            seconds[name] += secs
        mismatches += report.mismatches
        print(f"cases {start}..{start + count - 1}: {len(report.mismatches)} differences "
              f"({report.seconds['default']:.1f} s {builds['default']}, "
              f"{report.seconds['pure']:.1f} s {builds['pure']})", flush=True)
    print(f"\n{totals['cases']} cases ({totals['games']} random games, {totals['searches']} "
          f"AI searches), sides 8-12, every rule option; builds compared: "
          f"{builds.get('default')} vs {builds.get('pure')}")
    print(f"time: {seconds['default']:.1f} s default build, {seconds['pure']:.1f} s pure "
          f"({time.perf_counter() - began:.0f} s in all)")
    if same_build:
        print(f"WARNING: in {same_build} chunk(s) both runs used the same build (is the "
              "compiled engine built and up to date? `pip install -e .` with a C compiler)")
    if mismatches:
        print(f"{len(mismatches)} DIFFERENCES; the first:")
        print(json.dumps(mismatches[0], indent=1)[:20_000])
        sys.exit(1)
    print("no differences")
    if same_build:
        sys.exit(2)  # not everything was compared


if __name__ == "__main__":
    main()
