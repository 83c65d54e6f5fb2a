"""What SQLite's ``synchronous=FULL`` costs the web server (a script that prints figures,
not a test).

The server stores each decision in its own transaction (:meth:`Store.add_moves`). In WAL
mode, ``NORMAL`` syncs the log only at checkpoints, so a power cut may lose the last
acknowledged decisions; ``FULL`` (what the server runs) syncs the log at every commit.
This stores the same decisions both ways, on a file in the chosen folder (the disk
matters: a tmpfs syncs for free), and prints the time per decision and their ratio.

    python benchmarks/web_sqlite_sync.py                      # 2,000 decisions, /tmp
    python benchmarks/web_sqlite_sync.py --decisions 5000 --dir /var/lib/reliquary
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from reliquary.web import db


def per_decision_ms(folder: Path, mode: str, decisions: int, games: int) -> list[float]:
    """Store ``decisions`` single-decision writes spread over ``games`` games with
    ``PRAGMA synchronous=mode``; each write's milliseconds."""
    db.SQLITE_SYNCHRONOUS = mode
    path = folder / f"sync-{mode.lower()}.db"
    path.unlink(missing_ok=True)
    store = db.Store(f"sqlite:///{path}")
    revs = {}
    for g in range(games):
        revs[g] = store.create_game(f"g{g}", "hotseat", {}, {}, {"both": "t"})
    seqs = dict.fromkeys(revs, 0)
    times = []
    for n in range(decisions):
        g = n % games
        began = time.perf_counter()
        revs[g] = store.add_moves(f"g{g}", revs[g], seqs[g], [("a1", 0)], False)
        times.append((time.perf_counter() - began) * 1000)
        seqs[g] += 1
    store.engine.dispose()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder of the database files [default: a temporary one]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        results = {mode: per_decision_ms(Path(folder), mode, args.decisions, args.games)
                   for mode in ("NORMAL", "FULL")}
    print(f"{args.decisions} decisions, one transaction each, {args.games} games")
    print(f"{'synchronous':<12} {'mean ms':>8} {'p50 ms':>8} {'p99 ms':>8} {'per s':>8}")
    for mode, times in results.items():
        ordered = sorted(times)
        mean = statistics.fmean(times)
        print(f"{mode:<12} {mean:8.3f} {ordered[len(ordered) // 2]:8.3f} "
              f"{ordered[int(len(ordered) * 0.99)]:8.3f} {1000 / mean:8.0f}")
    ratio = statistics.fmean(results["FULL"]) / statistics.fmean(results["NORMAL"])
    print(f"FULL costs {ratio:.2f}x NORMAL per decision stored")


if __name__ == "__main__":
    main()
