"""A sequential probability ratio test (SPRT) between two versions of the ``search`` agent.

A change is accepted only if it wins this test against the previous version: games are
played one by one (the new version as Key in even games, Skull in odd ones, each game
seeded from the seed and its index as in ``reliquary match``) at equal budget, and
after each game the log-likelihood ratio of H1 (the new version is ``elo1`` Elo
stronger) against H0 (``elo0``) is updated. The test stops when the LLR crosses
log((1−β)/α) (H1 accepted: the change is accepted) or log(β/(1−α)) (H0: rejected), or
after ``--max-games`` (undecided).

The LLR is the generalised SPRT for a trinomial (win/draw/loss) outcome in the
logistic Elo model, the normal approximation used by Fishtest and cutechess:
``LLR ≈ N (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)`` with x̄ the mean score, σ² its
per-game variance and s0, s1 the expected scores at elo0, elo1.

Versions are agent settings (``VERSIONS``); ``spsa`` and ``texel`` read tuned weights
(``TUNED_WEIGHTS``: ``benchmarks/spsa_tune.py``, ``benchmarks/texel_tune.py``) and
are otherwise the defaults. Every game goes to a JSON-lines file in
``benchmarks/results/sprt/`` (so a test can be stopped and resumed), and ``history``
writes ``benchmarks/results/sprt/history.md`` from all of them.

    python benchmarks/sprt.py run v2-vigil v0-previous --nodes 1000 --max-games 400
    python benchmarks/sprt.py history

Equal *time* without timing games on a shared machine: ``--nodes-old`` gives the old
version fewer nodes a turn than the new one's ``--nodes``, in the ratio of the two
builds' search speeds measured side by side (``benchmarks/engine_speed.py --compare
--search --baseline-src``). E.g. 0.3 s a turn at 87k nodes/s (compiled, now) against
37k nodes/s (pure, before issue 12):

    python benchmarks/sprt.py run v2-vigil v0-previous --nodes 26000 --nodes-old 11000

``--nodes 0 --time T --nodes-old N`` plays the new version on the clock (T seconds a
turn, on this machine: give it a core of its own) against the old one at N nodes, the
old build's nodes in T seconds: for what only a clock shows (how a time budget is
spent).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import Any

from reliquary.ai.evaluation import DEFAULT_WEIGHTS, Weights
from reliquary.ai.match import MatchSpec, elo_from_score, play_game

RESULTS = Path(__file__).resolve().parent / "results" / "sprt"
SPSA_STATE = Path(__file__).resolve().parent / "results" / "spsa" / "state.json"
TEXEL_WEIGHTS = Path(__file__).resolve().parent / "results" / "texel" / "weights.json"
#: Versions with tuned weights: name -> (what it is, file, its key of the weights, the
#: script that writes it)
TUNED_WEIGHTS: dict[str, tuple[str, Path, str, str]] = {
    "spsa": ("the defaults with the weights in benchmarks/results/spsa/state.json",
             SPSA_STATE, "theta", "benchmarks/spsa_tune.py"),
    "texel": ("the defaults with the weights in benchmarks/results/texel/weights.json",
              TEXEL_WEIGHTS, "weights", "benchmarks/texel_tune.py fit"),
}

#: v2's weights where v3 changed them (v3: a killed Minion that REGROUP can bring back at
#: once is worth more, and a lead of one Minion that REGROUP can undo earns no clock).
_V2 = {"pool_ready": 0.0, "clock_regroupable": 1.0}
#: The search before v4: every search starts cold, an unfinished iteration is dropped
#: (and, in a time budget, one that cannot finish is not started).
_COLD = {"warm": False, "partial": False, "fill_clock": False, "killers": False}

#: name -> (what it is, SearchAgent keyword arguments; "weights" as a dict of changes)
VERSIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "v0-previous": ("the evaluation and search before issue 9: no Vigil clock, no Minion "
                    "en prise, no repetition check",
                    {"weights": {**_V2, "vigil_clock": 0.0, "contempt": 0.0,
                                 "minion_en_prise": 0.0},
                     "repetition": False, **_COLD}),
    "v2-vigil": ("the Vigil read as a linear clock (vigil_clock 300, can_reset), a Minion "
                 "en prise (12), repetitions a draw with contempt 20",
                 {"weights": dict(_V2), **_COLD}),
    "v2-no-contempt": ("v2 without the repetition check",
                       {"weights": dict(_V2), "repetition": False, **_COLD}),
    "v2-no-en-prise": ("v2 without the Minion en prise term",
                       {"weights": {**_V2, "minion_en_prise": 0.0}, **_COLD}),
    "v2-no-clock": ("v2 without the Vigil clock (Minion en prise and contempt kept)",
                    {"weights": {**_V2, "vigil_clock": 0.0}, **_COLD}),
    "v3-regroup": ("v2, and REGROUP-aware: a killed Minion that REGROUP can bring back at "
                   "once is worth 12 more, and a lead of one Minion that the other side "
                   "can REGROUP back earns no Vigil clock", dict(_COLD)),
    "v4-warm": ("v3, and a warm search: each search starts from the table of the player's "
                "last one in the game, and an iteration that runs out of budget still "
                "gives the best option it found in the root's turn",
                {"fill_clock": False, "killers": False}),
    "v5-clock": ("v4, and a time budget spent to its end: the search starts an "
                 "iteration it cannot finish, since an unfinished one still counts "
                 "(with a node budget it plays as v4); not adopted",
                 {"fill_clock": True, "killers": False}),
    "v7-draw": ("v4, and draw contempt: a draw is 20 below 0 for the searching side, and "
                "a tied Vigil running out costs it 20 times the clock's share",
                {"weights": {"draw_contempt": 20.0}, "killers": False}),
    "v8-killers": ("v4, and killers: at each ply the search tries the last two options that "
                   "cut off there right after the table's hint (the same values, fewer "
                   "nodes): the defaults", {"killers": True}),
}
#: Tests of versions no longer in the code (their files are kept in results/superseded/):
#: ``v1-vigil`` scored the clock as vigil_clock / r and had no Minion en prise term;
#: ``v6-reduce`` was v4 with late turn reductions (in each turn, the quiet turn ends after
#: the first two searched a turn shallower with a null window first, and at full depth
#: only if they beat the bound): even with v4 after 133 games at 0.3 s, so dropped;
#: ``v9-scout`` was v8 with null-window scouts (principal variation search: each option
#: after the first searched with a null window first, and with the full window only if
#: it beat the best so far; the same values with 16% fewer nodes to depth 3): +6 Elo
#: (−19 to +31) against v8 after 543 games at 0.3 s, undecided, so dropped.


def describe(name: str) -> str:
    """What a version is, in words."""
    return VERSIONS[name][0] if name in VERSIONS else TUNED_WEIGHTS[name][0]


def version_kwargs(name: str) -> dict[str, Any]:
    """SearchAgent keyword arguments of a version, its weights as a Weights."""
    if name in TUNED_WEIGHTS:
        _, path, key, script = TUNED_WEIGHTS[name]
        if not path.exists():
            raise SystemExit(f"no {name} weights at {path}: run {script}")
        theta = json.loads(path.read_text())[key]
        return {"weights": Weights(**{**asdict(DEFAULT_WEIGHTS), **theta})}
    if name not in VERSIONS:
        raise SystemExit(f"unknown version {name!r}; known: "
                         f"{', '.join([*VERSIONS, *TUNED_WEIGHTS])}")
    kwargs = dict(VERSIONS[name][1])
    changes = kwargs.pop("weights", {})
    known = {f.name for f in fields(Weights)}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise SystemExit(f"version {name!r}: unknown weights {unknown}")
    kwargs["weights"] = Weights(**{**asdict(DEFAULT_WEIGHTS), **changes})
    return kwargs


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_and_variance(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The mean score per game and its per-game variance (win 1, draw ½, loss 0)."""
    n = wins + draws + losses
    mean = (wins + 0.5 * draws) / n
    return mean, (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of elo1 against elo0 (0 until the score varies)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    mean, var = score_and_variance(wins, draws, losses)
    if var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def elo_interval(wins: int, draws: int, losses: int) -> list[float | None]:
    """The Elo difference of the score and its 95% interval (normal, per-game variance);
    None where the score is 0 or 1."""
    n = wins + draws + losses
    if n == 0:
        return [None, None, None]
    mean, var = score_and_variance(wins, draws, losses)
    half = 1.96 * math.sqrt(var / n)

    def elo(score: float) -> float | None:
        value = elo_from_score(score)
        return round(value, 1) if math.isfinite(value) else None

    return [elo(mean), elo(mean - half), elo(mean + half)]


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: reject below, accept above."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return lines[0], [x for x in lines[1:] if "index" in x]


def tally(games: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(wins, draws, losses) of the new version (agent A)."""
    wins = sum(1 for g in games if g["winner"] == "a")
    losses = sum(1 for g in games if g["winner"] == "b")
    return wins, len(games) - wins - losses, losses


def decision(head: dict[str, Any], games: list[dict[str, Any]]) -> tuple[str, int | None]:
    """The test's verdict and the game count at which the LLR first crossed a bound
    (games played past it, for a tighter Elo estimate, do not change the verdict)."""
    lower, upper = bounds(head["alpha"], head["beta"])
    counts = {"a": 0, None: 0, "b": 0}  # wins, draws, losses so far
    for n, game in enumerate(games, start=1):
        counts[game["winner"]] += 1
        value = llr(counts["a"], counts[None], counts["b"], head["elo0"], head["elo1"])
        if value >= upper:
            return "accepted (H1)", n
        if value <= lower:
            return "rejected (H0)", n
    return "undecided", None


def status(head: dict[str, Any], games: list[dict[str, Any]]) -> dict[str, Any]:
    wins, draws, losses = tally(games)
    value = llr(wins, draws, losses, head["elo0"], head["elo1"])
    lower, upper = bounds(head["alpha"], head["beta"])
    verdict, decided_at = decision(head, games)
    n = len(games)
    score = (wins + 0.5 * draws) / n if n else 0.0
    return {"new": head["new"], "old": head["old"], "games": n, "wins": wins,
            "draws": draws, "losses": losses, "score": round(score, 4),
            "llr": round(value, 3), "bounds": [round(lower, 3), round(upper, 3)],
            "verdict": verdict, "decided_at": decided_at,
            "capped": sum(1 for g in games if g["reason"] == "round_cap"),
            "budget": head["budget"], "budget_old": head.get("budget_old", head["budget"]),
            "elo": elo_interval(wins, draws, losses), "elo0": head["elo0"], "elo1": head["elo1"],
            "alpha": head["alpha"], "beta": head["beta"]}


def run(args: argparse.Namespace) -> None:
    new, old = version_kwargs(args.new), version_kwargs(args.old)
    budget = {"nodes": args.nodes} if args.nodes else {"time": args.time}
    budget_old = {"nodes": args.nodes_old} if args.nodes_old else budget
    RESULTS.mkdir(parents=True, exist_ok=True)
    tag = f"n{args.nodes}" if args.nodes else f"t{args.time}"
    if args.nodes_old:
        tag += f"-old{args.nodes_old}"
    path = RESULTS / f"{args.new}_vs_{args.old}_{tag}_s{args.seed}.jsonl"
    if not path.exists():
        head = {"new": args.new, "old": args.old, "budget": budget,
                "budget_old": budget_old, "seed": args.seed,
                "elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha,
                "beta": args.beta, "round_cap": args.round_cap,
                "new_is": describe(args.new), "old_is": describe(args.old)}
        path.write_text(json.dumps(head) + "\n")
    head, games = read(path)
    done = {g["index"] for g in games}
    spec = MatchSpec("search", "search", args.max_games, seed=args.seed,
                     round_cap=args.round_cap, budget_a={**new, **budget},
                     budget_b={**old, **budget_old})
    lower, upper = bounds(args.alpha, args.beta)

    def finished() -> bool:
        return (status(head, games)["verdict"] != "undecided"
                and len(games) >= args.min_games)

    def record(outcome: dict[str, Any]) -> None:
        games.append(outcome)
        with path.open("a") as f:
            f.write(json.dumps(outcome) + "\n")
        st = status(head, games)
        print(f"game {outcome['index']}: {outcome['winner']} {outcome['reason']} "
              f"{outcome['rounds']} rounds | W{st['wins']} D{st['draws']} L{st['losses']} "
              f"LLR {st['llr']} [{lower:.2f}, {upper:.2f}]", file=sys.stderr, flush=True)

    todo = [index for index in range(args.max_games) if index not in done]
    if args.workers <= 1:
        for index in todo:
            if finished():
                break
            record(asdict(play_game(spec, index)))
    elif todo and not finished():
        # Games in parallel, recorded as they end; the test stops at the first crossing
        # (games still running then are dropped: a resumed run plays them again).
        portable = replace(spec, budget_a=_portable(spec.budget_a),
                           budget_b=_portable(spec.budget_b))
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            for outcome in pool.imap_unordered(_play, [(portable, i) for i in todo]):
                record(outcome)
                if finished():
                    pool.terminate()
                    break
    print(json.dumps(status(head, games), indent=2))


def _portable(budget: dict[str, Any]) -> dict[str, Any]:
    """A budget that pickles: the compiled Weights do not unpickle, so as a dict."""
    return {k: asdict(v) if isinstance(v, Weights) else v for k, v in budget.items()}


def _play(job: tuple[MatchSpec, int]) -> dict[str, Any]:
    spec, index = job

    def weighted(budget: dict[str, Any]) -> dict[str, Any]:
        return {k: Weights(**v) if k == "weights" else v for k, v in budget.items()}
    spec = replace(spec, budget_a=weighted(spec.budget_a), budget_b=weighted(spec.budget_b))
    return asdict(play_game(spec, index))


def history(args: argparse.Namespace) -> None:
    rows = []
    superseded = RESULTS.parent / "superseded"
    for path in [*sorted(superseded.glob("*_vs_*.jsonl")), *sorted(RESULTS.glob("*.jsonl"))]:
        head, games = read(path)
        rows.append({**status(head, games), "file": str(path.relative_to(RESULTS.parent)),
                     "new_is": head["new_is"], "old_is": head["old_is"],
                     "stopped": path.parent == superseded})
    (RESULTS / "history.json").write_text(json.dumps(rows, indent=2) + "\n")
    md = ["# SPRT history", "",
          "Each change to the `search` agent is tested against the previous version "
          "(`benchmarks/sprt.py`); it is accepted only when the test accepts H1.", "",
          "| new | old | budget (new; old) | games | W | D | L | score | Elo (95% CI) | LLR | "
          "bounds | verdict | games at the round cap |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def per_turn(budget: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v}" for k, v in budget.items()) + " per turn"

    def signed(x: float | None) -> str:
        return "—" if x is None else f"{x:+.0f}"

    for r in rows:
        budget = per_turn(r["budget"])
        if r["budget_old"] != r["budget"]:
            budget += f"; {per_turn(r['budget_old'])}"
        elo, low, high = r["elo"]
        md.append(f"| {r['new']} | {r['old']} | {budget} | {r['games']} | "
                  f"{r['wins']} | {r['draws']} | {r['losses']} | {100 * r['score']:.1f}% | "
                  f"{signed(elo)} ({signed(low)} to {signed(high)}) | "
                  f"{r['llr']} | {r['bounds'][0]} to {r['bounds'][1]} "
                  f"(elo0 {r['elo0']}, elo1 {r['elo1']}, α {r['alpha']}, β {r['beta']}) | "
                  f"{r['verdict']}{' (stopped: superseded)' if r['stopped'] else ''}"
                  f"{f' after {at} games' if (at := r.get('decided_at')) else ''} | "
                  f"{r['capped']} |")
    md += ["", "Versions:", ""]
    for name, (what, _) in VERSIONS.items():
        md.append(f"- `{name}`: {what}")
    md.extend(f"- `{name}`: {what}" for name, (what, *_) in TUNED_WEIGHTS.items())
    (RESULTS / "history.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run (or resume) a test of NEW against OLD")
    p.add_argument("new")
    p.add_argument("old")
    p.add_argument("--nodes", type=int, default=1000, help="nodes per turn (0: use --time)")
    p.add_argument("--time", type=float, default=0.3, help="seconds per turn if --nodes 0")
    p.add_argument("--nodes-old", type=int, default=0,
                   help="nodes per turn for OLD (default: NEW's budget): equal time by "
                        "node rates")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1,
                   help="games played at once, each in a process (with --time: give each "
                        "a core of its own)")
    p.add_argument("--max-games", type=int, default=1000)
    p.add_argument("--round-cap", type=int, default=200)
    p.add_argument("--min-games", type=int, default=0,
                   help="play on after the verdict to this many games (a tighter Elo "
                        "estimate; the verdict stays the first crossing)")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=20.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.set_defaults(func=run)
    h = sub.add_parser("history", help="write results/sprt/history.md from every test")
    h.set_defaults(func=history)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
