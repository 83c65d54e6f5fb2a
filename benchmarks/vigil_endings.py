"""Do AI games end? Games that end before the round cap, and how many rounds they take.

Plays games of A against B one by one (seats alternated, game *i* seeded from the seed
and *i*, as in ``reliquary match``) and appends each game's outcome as one JSON line to
``--out``, so a long run can be stopped and resumed (games already in the file are
skipped) and a "before" run can be played with an older checkout on ``PYTHONPATH``.
With a ``--nodes`` budget the games do not depend on the machine's load.

    python benchmarks/vigil_endings.py play search search --nodes 300 --games 100 \\
        --out benchmarks/results/endings/after_search_search_300.jsonl
    python benchmarks/vigil_endings.py summary benchmarks/results/endings/*.jsonl
    python benchmarks/vigil_endings.py play hard greedy --nodes 5000 --games 100 \
        --version-a v0-previous --version-b v0-previous --out before_hard_greedy.jsonl
    python benchmarks/vigil_endings.py wins before_hard_greedy.jsonl after_hard_greedy.jsonl

``--version-a``/``--version-b`` give an agent the settings of a version of
``benchmarks/sprt.py`` (e.g. ``v0-previous``, the evaluation and search before issue 9),
so a "before" run can use today's (compiled) engine.
``summary`` prints, for each file, the games, how many ended before the round cap with
the 95% Wilson interval, the mean rounds (and the mean rounds of decided games), A's
score with its interval, and the endings. ``wins`` compares how many rounds A's wins
took in two files: means, medians, the difference of means with a bootstrap 95%
interval, and the Mann–Whitney U test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from reliquary.ai.match import MatchSpec, play_game


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    return float(low), float(high)


def read(path: Path) -> list[dict[str, Any]]:
    """The outcomes stored in a JSON-lines file (the first line is the match's spec)."""
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if "index" in r]


def version_budget(name: str | None) -> dict[str, Any]:
    """An agent's keyword arguments for a version of ``benchmarks/sprt.py`` (none: {})."""
    if not name:
        return {}
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from sprt import version_kwargs

    return version_kwargs(name)


def play(args: argparse.Namespace) -> None:
    budget_a = json.loads(args.budget_a) if args.budget_a else {}
    budget_b = json.loads(args.budget_b) if args.budget_b else {}
    # Only with variants, so that older checkouts (without them) can play "before" runs.
    extra = {"variants": json.loads(args.variants)} if args.variants else {}
    spec = MatchSpec(args.a, args.b, args.games, size=args.size, seed=args.seed,
                     time=args.time, nodes=args.nodes, round_cap=args.round_cap,
                     budget_a=budget_a, budget_b=budget_b, **extra)
    head = {"spec": asdict(spec), "label": args.label}
    if args.version_a or args.version_b:  # stored by name (weights are no JSON)
        head["versions"] = {"a": args.version_a, "b": args.version_b}
        spec = replace(spec, budget_a={**version_budget(args.version_a), **budget_a},
                       budget_b={**version_budget(args.version_b), **budget_b})
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {r["index"] for r in read(out)}
    if not out.exists():
        out.write_text(json.dumps(head) + "\n")
    for index in range(args.games):
        if index in done:
            continue
        outcome = asdict(play_game(spec, index))
        with out.open("a") as f:
            f.write(json.dumps(outcome) + "\n")
        print(f"game {index}: {outcome['winner']} {outcome['reason']} "
              f"{outcome['rounds']} rounds {outcome['seconds']:.0f}s", file=sys.stderr,
              flush=True)


def summarize_file(path: Path, round_cap: int | None = None) -> dict[str, Any]:
    """The figures of one file of outcomes."""
    rows = read(path)
    if not rows:
        raise ValueError(f"{path}: no games")
    n = len(rows)
    capped = sum(1 for r in rows if r["reason"] == "round_cap")
    ended = n - capped
    decided = [r["rounds"] for r in rows if r["winner"] is not None]
    a_wins = [r["rounds"] for r in rows if r["winner"] == "a"]
    points = sum(1.0 if r["winner"] == "a" else 0.5 if r["winner"] is None else 0.0
                 for r in rows)
    reasons: dict[str, int] = {}
    for r in rows:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    low, high = wilson(ended, n)
    s_low, s_high = wilson(points, n)
    return {"file": str(path), "games": n, "ended_before_cap": ended,
            "ended_share": round(ended / n, 4), "ended_ci95": [round(low, 4), round(high, 4)],
            "mean_rounds": round(statistics.mean(r["rounds"] for r in rows), 1),
            "mean_rounds_decided": round(statistics.mean(decided), 1) if decided else None,
            "median_rounds_decided": statistics.median(decided) if decided else None,
            "a_wins": len(a_wins), "draws": sum(1 for r in rows if r["winner"] is None),
            "mean_rounds_a_wins": round(statistics.mean(a_wins), 1) if a_wins else None,
            "sd_rounds_a_wins": round(statistics.stdev(a_wins), 1) if len(a_wins) > 1 else None,
            "score_a": round(points / n, 4), "score_ci95": [round(s_low, 4), round(s_high, 4)],
            "reasons": reasons,
            "mean_seconds": round(statistics.mean(r["seconds"] for r in rows), 1)}


def summary(args: argparse.Namespace) -> None:
    rows = [summarize_file(Path(p)) for p in args.files if read(Path(p))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| file | games | ended before cap | 95% CI | mean rounds | mean rounds (decided) "
          "| A's wins: mean rounds (sd) | A's score | 95% CI | endings |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["ended_ci95"]
        slo, shi = r["score_ci95"]
        endings = ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].items()))
        print(f"| {Path(r['file']).stem} | {r['games']} | {r['ended_before_cap']} "
              f"({100 * r['ended_share']:.0f}%) | {100 * lo:.0f}–{100 * hi:.0f}% | "
              f"{r['mean_rounds']} | {r['mean_rounds_decided']} | {r['a_wins']}: "
              f"{r['mean_rounds_a_wins']} ({r['sd_rounds_a_wins']}) | {100 * r['score_a']:.0f}% | "
              f"{100 * slo:.0f}–{100 * shi:.0f}% | {endings} |")


def wins(args: argparse.Namespace) -> None:
    """How many rounds A's wins took: BEFORE against AFTER."""
    import numpy as np
    from scipy.stats import mannwhitneyu

    before, after = ([r["rounds"] for r in read(Path(f)) if r["winner"] == "a"]
                     for f in (args.before, args.after))
    if len(before) < 2 or len(after) < 2:
        raise SystemExit("each file needs at least two games won by A")
    rng = np.random.default_rng(args.seed)
    b, a = np.array(before), np.array(after)
    diffs = [rng.choice(a, a.size).mean() - rng.choice(b, b.size).mean()
             for _ in range(10_000)]
    low, high = np.percentile(diffs, [2.5, 97.5])
    test = mannwhitneyu(a, b, alternative="less")
    print(f"A's wins before: {b.size} games, mean {b.mean():.1f} rounds (median "
          f"{np.median(b):.0f}, sd {b.std(ddof=1):.1f})")
    print(f"A's wins after:  {a.size} games, mean {a.mean():.1f} rounds (median "
          f"{np.median(a):.0f}, sd {a.std(ddof=1):.1f})")
    print(f"after − before: {a.mean() - b.mean():+.1f} rounds, bootstrap 95% interval "
          f"[{low:+.1f}, {high:+.1f}]; Mann–Whitney U (after shorter): p = {test.pvalue:.3g}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play games, appending outcomes to --out")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--nodes", type=int, default=None, help="nodes per turn, both agents")
    p.add_argument("--time", type=float, default=None, help="seconds per turn, both agents")
    p.add_argument("--budget-a", default="", help='extra budget for A, JSON: {"nodes": 5000}')
    p.add_argument("--budget-b", default="", help="extra budget for B, JSON")
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--round-cap", type=int, default=200)
    p.add_argument("--variants", default="",
                   help='rule variants (RULES.md §11), JSON: {"vigil_reset": "hero"}')
    p.add_argument("--label", default="", help="a note stored with the spec (e.g. 'before')")
    p.add_argument("--version-a", default=None,
                   help="give A the settings of this version of benchmarks/sprt.py")
    p.add_argument("--version-b", default=None, help="the same for B")
    p.add_argument("--out", required=True)
    p.set_defaults(func=play)
    s = sub.add_parser("summary", help="figures of files of outcomes")
    s.add_argument("files", nargs="+")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=summary)
    w = sub.add_parser("wins", help="rounds of A's wins: BEFORE against AFTER")
    w.add_argument("before")
    w.add_argument("after")
    w.add_argument("--seed", type=int, default=1, help="seed of the bootstrap")
    w.set_defaults(func=wins)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
