"""Random self-play throughput of the engine (a script, not a test), and side-by-side figures.

Default: turns/s and decisions/s per board side for the build this process runs
(compiled or pure, printed first), the ratio to the issue's aims (20,000 decisions/s and
5,000 turns/s on side 8, one core), and the ratio to a fixed pure-Python reference
workload timed in the same run, so that figures from different (or busy) machines can
be compared. ``--profile`` adds where the time goes.

``--compare`` measures, in one run, each in its own process and interleaved round by
round (so that a busy machine slows them alike): the pure engine
(``RELIQUARY_PURE=1``), the compiled engine, python-chess and, when installed,
OpenSpiel's C++ chess and breakthrough, all as random playouts stepped from Python
(legal moves, a seeded random choice, apply), per second of the process's CPU time
(the wall clock of a shared machine counts waiting for a core too). ``--search`` adds
the AI's search (nodes/s at a fixed node budget on fixed positions), and
``--baseline-src TREE`` adds the pure engine of another source tree (e.g. an unchanged
copy of an older commit: ``git archive <commit> | tar -x -C /tmp/old``), and
``--baseline-site DIR`` its compiled engine (``pip wheel --no-deps /tmp/old -w /tmp/w``
and unzip the wheel into DIR). It prints best and median of ``--repeat`` rounds and their
ratios.

    python benchmarks/engine_speed.py --games 400
    python benchmarks/engine_speed.py --games 200 --profile
    python benchmarks/engine_speed.py --compare --search --repeat 5
    python benchmarks/engine_speed.py --compare --baseline-src /tmp/old --search
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

AIM_DECISIONS, AIM_TURNS = 20_000, 5_000
ROOT = Path(__file__).resolve().parent.parent


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


def engine_label() -> str:
    """Which engine build this process runs (trees older than issue 12 are pure)."""
    try:
        from reliquary import engine_build
    except ImportError:
        return "pure Python (a tree without the compiled build)"
    return engine_build().label


# ---------------------------------------------------------------------- workers
# Each worker runs in its own process and prints one JSON object: {rate, unit, work}.
# Timed work runs whole games (or searches) until at least `seconds` have passed.

def _timed(run_one: Callable[[int], int], seconds: float) -> tuple[float, int]:
    """Call run_one(seed) for seeds 0, 1, ... until `seconds` of this process's CPU time;
    (units per CPU second, seeds). CPU time, not wall time: on a shared machine the wall
    clock also counts the time spent waiting for a core, which varies run to run."""
    run_one(10_000)  # warm caches (tables, line of sight) outside the timing
    units, seed, start = 0, 0, time.process_time()
    while True:
        units += run_one(seed)
        seed += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return units / elapsed, seed


def worker_reliquary(seconds: float) -> dict[str, Any]:
    from reliquary import Settings, State, default_content

    content, settings = default_content(), Settings(size=8)

    def one_game(seed: int) -> int:  # the loop of reliquary.selfplay.play_random_game
        rng = random.Random(seed)
        state = State(content, settings)
        decisions = 0
        while state.result is None:
            state.apply(rng.choice(state.legal_options()))
            decisions += 1
        return decisions

    rate, games = _timed(one_game, seconds)
    return {"rate": rate, "unit": "decisions/s", "work": f"{games} random games, side 8"}


def search_positions(count: int, size: int = 8) -> list[Any]:
    """Fixed mid-game positions (seeded random play to a turn start): the search workload."""
    from reliquary import Settings, State, default_content

    content, out = default_content(), []
    for i in range(count):
        rng = random.Random(i)
        state = State(content, Settings(size=size))
        target = rng.randint(4, 30)
        while state.result is None:
            if (not state.is_chance and state.stack[-1][0] == "play"
                    and sum(state.turns_taken) >= target):
                out.append(state)
                break
            state.apply(rng.choice(state.legal_options()))
    return out


def worker_search(seconds: float, nodes: int = 4000) -> dict[str, Any]:
    import gc

    from reliquary.ai.search import SearchAgent

    positions = search_positions(24)

    def one_search(seed: int) -> int:
        state = positions[seed % len(positions)]
        agent = SearchAgent(seed=seed, nodes=nodes)
        gc.disable()  # as the agents think (PlanningAgent.choose)
        try:
            _, _, _, searcher = agent.analyse(state, None, nodes)
        finally:
            gc.enable()
        return int(searcher.nodes)

    rate, searches = _timed(one_search, seconds)
    return {"rate": rate, "unit": "nodes/s",
            "work": f"{searches} searches of {nodes} nodes, side 8"}


def worker_chess(seconds: float) -> dict[str, Any]:
    import chess

    def one_game(seed: int) -> int:
        rng = random.Random(seed)
        board = chess.Board()
        plies = 0
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        return plies

    rate, games = _timed(one_game, seconds)
    return {"rate": rate, "unit": "plies/s", "work": f"{games} random games"}


def _openspiel(game_name: str, seconds: float) -> dict[str, Any]:
    import pyspiel

    game = pyspiel.load_game(game_name)

    def one_game(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        return plies

    rate, games = _timed(one_game, seconds)
    return {"rate": rate, "unit": "plies/s", "work": f"{games} random games"}


WORKERS: dict[str, Callable[[float], dict[str, Any]]] = {
    "reliquary": worker_reliquary,
    "search": worker_search,
    "chess": worker_chess,
    "openspiel-chess": lambda s: _openspiel("chess", s),
    "openspiel-breakthrough": lambda s: _openspiel("breakthrough", s),
}


# ---------------------------------------------------------------------- --compare
class Contender:
    """One line of the comparison: a worker kind in an environment."""

    def __init__(self, name: str, kind: str, env: dict[str, str] | None = None) -> None:
        self.name, self.kind, self.env = name, kind, env or {}
        self.rates: list[float] = []
        self.unit = ""
        self.label = ""
        self.error = ""

    def run(self, seconds: float) -> None:
        env = {**os.environ, **self.env}
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", self.kind, "--seconds", str(seconds)],
            capture_output=True, text=True, env=env, cwd=ROOT, check=False)
        if proc.returncode != 0:
            self.error = (proc.stderr.strip().splitlines() or ["failed"])[-1]
            return
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        self.rates.append(data["rate"])
        self.unit, self.label = data["unit"], data.get("engine", "")

    @property
    def best(self) -> float:
        return max(self.rates) if self.rates else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.rates) if self.rates else 0.0


def _installed(module: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(module) is not None


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def compare(args: argparse.Namespace) -> None:
    pure_env = {"RELIQUARY_PURE": "1"}
    lines = [Contender("reliquary pure", "reliquary", pure_env),
             Contender("reliquary compiled", "reliquary")]
    baseline_env = None
    if args.baseline_src:
        src = str(Path(args.baseline_src).resolve() / "src")
        baseline_env = {"RELIQUARY_PURE": "1", "PYTHONPATH": src}
        lines.append(Contender("reliquary pure, baseline tree", "reliquary", baseline_env))
    site_env = {"PYTHONPATH": str(Path(args.baseline_site).resolve())} if args.baseline_site \
        else None
    if site_env:
        lines.append(Contender("reliquary compiled, baseline", "reliquary", site_env))
    lines.append(Contender("python-chess", "chess") if _installed("chess") else
                 Contender("python-chess (not installed)", "-"))
    if _installed("pyspiel"):
        lines += [Contender("OpenSpiel chess (C++)", "openspiel-chess"),
                  Contender("OpenSpiel breakthrough (C++)", "openspiel-breakthrough")]
    if args.search:
        lines += [Contender("search pure", "search", pure_env),
                  Contender("search compiled", "search")]
        if baseline_env:
            lines.append(Contender("search pure, baseline tree", "search", baseline_env))
        if site_env:
            lines.append(Contender("search compiled, baseline", "search", site_env))
    runnable = [c for c in lines if c.kind != "-"]
    print(f"load average before: {_load()}  (2 shared cores: figures vary with the load)")
    for round_no in range(args.repeat):
        for contender in runnable:  # interleaved: each round sees similar load
            contender.run(args.seconds)
        print(f"  round {round_no + 1}/{args.repeat} done, load average {_load()}", flush=True)
    print(f"load average after: {_load()}\n")
    print(f"{'':34} {'best':>12} {'median':>12}  unit")
    for c in lines:
        if c.kind == "-" or c.error:
            print(f"{c.name:34} {'-':>12} {'-':>12}  {c.error}")
            continue
        label = f"  [{c.label}]" if c.label else ""
        print(f"{c.name:34} {c.best:>12,.0f} {c.median:>12,.0f}  {c.unit}{label}")
    by_name = {c.name: c for c in lines if c.rates}

    def ratio(a: str, b: str, aim: str) -> None:
        if a in by_name and b in by_name:
            x, y = by_name[a], by_name[b]
            print(f"{a + ' / ' + b:66} best {x.best / y.best:5.2f}×  "
                  f"median {x.median / y.median:5.2f}×   {aim}")
    print("\nratios (best / best, median / median):")
    ratio("reliquary compiled", "reliquary pure", "aim ≥ 5")
    ratio("reliquary compiled", "OpenSpiel chess (C++)", "aim ≥ 1.5")
    ratio("reliquary compiled", "OpenSpiel breakthrough (C++)", "")
    ratio("reliquary compiled", "python-chess", "")
    ratio("reliquary pure", "python-chess", "")
    ratio("reliquary pure", "reliquary pure, baseline tree", "aim ≥ 1 (no slower)")
    ratio("reliquary compiled", "reliquary compiled, baseline", "aim ≥ 0.95 (issue 22)")
    ratio("search compiled", "search compiled, baseline", "aim ≥ 0.95 (issue 22)")
    ratio("search compiled", "search pure", "")
    ratio("search compiled", "search pure, baseline tree", "aim ≥ 3")
    ratio("search pure", "search pure, baseline tree", "")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"load": _load(), "seconds": args.seconds, "repeat": args.repeat,
             "lines": [{"name": c.name, "rates": c.rates, "unit": c.unit, "engine": c.label}
                       for c in lines if c.rates]}, indent=1))


# ---------------------------------------------------------------------- default mode
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per board side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12])
    parser.add_argument("--profile", action="store_true", help="profile side 8 and print")
    parser.add_argument("--compare", action="store_true",
                        help="pure, compiled, python-chess, OpenSpiel side by side")
    parser.add_argument("--search", action="store_true", help="--compare: add search nodes/s")
    parser.add_argument("--baseline-src", help="--compare: also a pure engine from this tree")
    parser.add_argument("--baseline-site",
                        help="--compare: also the compiled engine installed in this folder "
                             "(e.g. a wheel of an older commit, unzipped: see docs/compiled.md)")
    parser.add_argument("--repeat", type=int, default=3, help="--compare: rounds")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="--compare: seconds per measurement")
    parser.add_argument("--json", help="--compare: also write the figures to this file")
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        data = WORKERS[args.worker](args.seconds)
        if args.worker in ("reliquary", "search"):
            data["engine"] = engine_label()
        print(json.dumps(data))
        return
    if args.compare:
        compare(args)
        return

    from reliquary import Settings, default_content
    from reliquary.selfplay import run_selfplay

    print(f"engine: {engine_label()}")
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
