"""The AI ladder: matches between neighbouring agents at a fixed time per turn on side 8.

Writes ``benchmarks/results/ladder.json`` and ``benchmarks/results/ladder.md`` (a table
of scores with 95% intervals and Elo differences, and an Elo for every agent anchored
at ``random`` = 0 with its interval), plus the search's nodes per second and how long
each level (``easy``, ``medium``, ``hard``, ``max``) takes per turn against its budget
(aim: within the budget + 10%). Not a test: it takes a while.

    python benchmarks/ladder.py                      # the full ladder
    python benchmarks/ladder.py --games 10 --time 0.3 --openspiel-games 6   # quicker
    python benchmarks/ladder.py --nodes 1000 --games 100 --openspiel-games 0  # by nodes

Aims (issue 3): mcts and search ≥ 95% against random; the strongest agent ≥ 75% against
greedy and ≥ 70% against OpenSpiel's MCTSBot at equal time per move; ``hard`` answers
within 2 s per turn.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reliquary import new_game
from reliquary.ai import LEVELS, get_agent, sample_chance
from reliquary.ai.match import MatchSpec, run_match
from reliquary.ai.search import SearchAgent

RESULTS = Path(__file__).resolve().parent / "results"

#: (A, B): neighbours on the ladder, weakest pairs first. None of the agents is given a
#: level's budget here: both get the ladder's time per turn.
PAIRS = [("greedy", "random"), ("mcts", "random"), ("search", "random"),
         ("mcts", "greedy"), ("search", "greedy"), ("search", "mcts")]


def positions(count: int, seed: int, size: int = 8) -> list[Any]:
    """Middle-game positions (at a ``play`` decision) from greedy self-play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = [get_agent("greedy", seed=rng.randrange(10**6), noise=20.0) for _ in "ab"]
        state = new_game(size=size)
        stop = rng.randrange(3, 12)
        while not state.is_terminal:
            if state.is_chance:
                state.apply(sample_chance(state, rng))
                continue
            if state.decision().kind == "play" and state.turns_taken[state.current_player] >= stop:
                out.append(state.clone())
                break
            state.apply(players[state.current_player].choose(state))
    return out


def search_speed(seconds: float, count: int, seed: int) -> dict[str, Any]:
    """The search's nodes per second and depth (in turns) reached, over sample positions."""
    rates, depths = [], []
    for state in positions(count, seed):
        agent = SearchAgent(seed=0, time=seconds)
        agent.analyse(state, time.perf_counter() + seconds)
        rates.append(agent.stats["nodes"] / agent.stats["seconds"])
        depths.append(agent.stats["depth"])
    return {"positions": count, "seconds_each": seconds,
            "nodes_per_second_mean": round(statistics.mean(rates)),
            "nodes_per_second_min": round(min(rates)),
            "nodes_per_second_max": round(max(rates)),
            "depth_mean": round(statistics.mean(depths), 2), "depth_min": min(depths),
            "depth_max": max(depths)}


def level_times(count: int, seed: int, levels: list[str]) -> dict[str, Any]:
    """Each level's seconds per whole turn (its own budget) over middle-game positions:
    mean, longest, and whether the longest is within the budget + 10%."""
    rng = random.Random(seed)
    sample = positions(count, seed)
    out: dict[str, Any] = {}
    for level in levels:
        budget = LEVELS[level][1].get("time")
        turns = []
        for state in sample:
            agent = get_agent(level, seed=rng.randrange(10**6))
            s = state.clone()
            player = s.current_player
            started = time.perf_counter()
            while not s.is_terminal and (s.is_chance or s.current_player == player):
                s.apply(sample_chance(s, rng) if s.is_chance else agent.choose(s))
            turns.append(time.perf_counter() - started)
        out[level] = {"budget": budget, "turns": len(turns),
                      "mean_seconds": round(statistics.mean(turns), 3),
                      "max_seconds": round(max(turns), 3),
                      "within_budget_10pct": None if budget is None
                      else max(turns) <= budget * 1.1}
    return out


def ratings(rows: list[dict[str, Any]], anchor: str = "random",
            prior_draws: float = 1.0) -> dict[str, Any]:
    """An Elo for every agent from all the pairs played, anchored at ``anchor`` = 0: the
    maximum-likelihood fit of the logistic Elo model (a draw is half a point), with
    ``prior_draws`` virtual draws per pair (as BayesElo's prior) so that a whitewash
    gives a finite rating, and 95% intervals from the fit's Fisher information."""
    import numpy as np
    from scipy.optimize import minimize

    names = sorted({r["agent_a"] for r in rows} | {r["agent_b"] for r in rows})
    if anchor not in names:
        return {}
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    pairs = [(r["agent_a"], r["agent_b"], r["games"] + prior_draws,
              r["wins_a"] + 0.5 * r["draws"] + 0.5 * prior_draws) for r in rows]
    k = math.log(10) / 400

    def rating(x: Any, name: str) -> float:
        return 0.0 if name == anchor else float(x[index[name]])

    def nll(x: Any) -> float:
        total = 0.0
        for a, b, n, points in pairs:
            d = rating(x, a) - rating(x, b)
            total += n * math.log1p(math.exp(-k * d)) + (n - points) * k * d
        return total

    fit = minimize(nll, np.zeros(len(free)), method="BFGS")
    x = fit.x
    hessian = np.zeros((len(free), len(free)))
    for a, b, n, _ in pairs:
        p = 1 / (1 + math.exp(-k * (rating(x, a) - rating(x, b))))
        w = n * k * k * p * (1 - p)
        for u, v, sign in ((a, a, 1), (b, b, 1), (a, b, -1), (b, a, -1)):
            if u != anchor and v != anchor:
                hessian[index[u], index[v]] += sign * w
    cov = np.linalg.pinv(hessian)
    out: dict[str, Any] = {anchor: {"elo": 0, "ci95": [0, 0]}}
    for name in free:
        e = float(x[index[name]])
        half = 1.96 * math.sqrt(max(float(cov[index[name], index[name]]), 0.0))
        out[name] = {"elo": round(e), "ci95": [round(e - half), round(e + half)]}
    return out


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def elo(x: float | None, sign: str) -> str:
    return f"{x:+.0f}" if x is not None else f"{sign}∞"


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| A | B | games | A wins | B wins | draws | A's score | 95% CI | Elo A−B "
             "| Elo 95% CI | mean rounds |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        low, high = r["score_ci95"]
        e_low, e_high = r["elo_ci95"]
        lines.append(
            f"| {r['agent_a']} | {r['agent_b']} | {r['games']} | {r['wins_a']} | "
            f"{r['wins_b']} | {r['draws']} | {pct(r['score_a'])} | {pct(low)}–{pct(high)} | "
            f"{elo(r['elo_diff'], '+' if r['score_a'] >= 0.5 else '-')} | "
            f"{elo(e_low, '-')} to {elo(e_high, '+')} | {r['mean_rounds']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per turn")
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes (MCTS iterations) per turn instead of --time: "
                             "reproducible and independent of the machine's load")
    parser.add_argument("--level-positions", type=int, default=6,
                        help="positions on which to time each level's turns (0: skip)")
    parser.add_argument("--levels", default="easy,medium,hard,max",
                        help="levels to time")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--round-cap", type=int, default=200)
    parser.add_argument("--pairs", default="", help="only these pairs, e.g. 'search:greedy'")
    parser.add_argument("--openspiel-games", type=int, default=10,
                        help="games of the strongest agent against OpenSpiel's MCTSBot "
                             "(0: skip)")
    parser.add_argument("--strongest", default="auto",
                        help="agent to face MCTSBot (auto: the winner of search vs mcts)")
    parser.add_argument("--hard-games", type=int, default=4,
                        help="games of the 'hard' level (its own budget) to time its turns")
    parser.add_argument("--speed-positions", type=int, default=8)
    parser.add_argument("--out", default="ladder")
    args = parser.parse_args(argv)

    pairs = PAIRS
    if args.pairs:
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]  # type: ignore[misc]
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f}s] {text}", file=sys.stderr, flush=True)

    for a, b in pairs:
        spec = MatchSpec(a, b, args.games, size=args.size, seed=args.seed,
                         time=None if args.nodes else args.time, nodes=args.nodes,
                         round_cap=args.round_cap)
        summary = run_match(spec, workers=args.workers)
        summary.pop("outcomes")
        rows.append(summary)
        log(f"{a} vs {b}: {pct(summary['score_a'])} {summary['score_ci95']}")

    strongest = args.strongest
    if strongest == "auto":  # the winner of search against mcts
        duel = next((r for r in rows if {r["agent_a"], r["agent_b"]} == {"search", "mcts"}),
                    None)
        strongest = "search" if duel is None else (
            duel["agent_a"] if duel["score_a"] >= 0.5 else duel["agent_b"])
    if args.openspiel_games:
        try:
            import openspiel_mcts
            summary = openspiel_mcts.run(strongest, args.openspiel_games, args.time,
                                         seed=args.seed, size=args.size,
                                         round_cap=args.round_cap, workers=args.workers)
            rows.append(summary)
            log(f"{strongest} vs openspiel-mcts: {pct(summary['score_a'])} "
                f"({summary.get('bot_simulations_per_move')} simulations per move)")
        except ImportError as err:
            log(f"OpenSpiel not available ({err}); skipped")

    hard: dict[str, Any] = {}
    if args.hard_games:
        spec = MatchSpec("hard", "greedy", args.hard_games, size=args.size, seed=args.seed,
                         round_cap=args.round_cap)
        summary = run_match(spec, workers=args.workers)
        summary.pop("outcomes")
        rows.append(summary)
        hard = {"games": args.hard_games,
                "longest_turn_seconds": summary["max_turn_seconds_a"]}
        log(f"hard vs greedy: {pct(summary['score_a'])}; longest turn "
            f"{summary['max_turn_seconds_a']:.2f}s")

    speed = search_speed(args.time, args.speed_positions, args.seed)
    log(f"search: {speed['nodes_per_second_mean']} nodes/s, depth {speed['depth_mean']}")
    levels: dict[str, Any] = {}
    if args.level_positions:
        levels = level_times(args.level_positions, args.seed, args.levels.split(","))
        log(f"levels: {levels}")
    agent_elo = ratings(rows)

    RESULTS.mkdir(exist_ok=True)
    meta = {"time_per_turn": None if args.nodes else args.time, "nodes_per_turn": args.nodes,
            "size": args.size, "games_per_pair": args.games,
            "seed": args.seed, "round_cap": args.round_cap, "python": platform.python_version(),
            "machine": platform.machine(), "seconds": round(time.perf_counter() - started)}
    (RESULTS / f"{args.out}.json").write_text(json.dumps(
        {"meta": meta, "rows": rows, "search_speed": speed, "hard": hard, "levels": levels,
         "elo": agent_elo}, indent=2))
    per_turn = f"{args.nodes} nodes" if args.nodes else f"{args.time}s"
    md = [f"# AI ladder (side {args.size}, {per_turn} per turn, seed {args.seed}, round cap "
          f"{args.round_cap})", "", table(rows), "",
          "Elo anchored at random = 0 (maximum-likelihood fit over all pairs, one "
          "virtual draw per pair as a prior; 95% intervals from the Fisher information):",
          "",
          "| agent | Elo | 95% CI |", "|---|---|---|",
          *[f"| {name} | {elo(e['elo'], '+')} | {elo(e['ci95'][0], '-')} to "
            f"{elo(e['ci95'][1], '+')} |" for name, e in agent_elo.items()], "",
          f"Search speed: {speed['nodes_per_second_mean']} nodes/s on average "
          f"({speed['nodes_per_second_min']}–{speed['nodes_per_second_max']}) over "
          f"{speed['positions']} middle-game positions at {args.time}s each; depth reached "
          f"{speed['depth_min']}–{speed['depth_max']} turns (mean {speed['depth_mean']}).", ""]
    if hard:
        md.append(f"`hard` (its own budget) against greedy: longest turn "
                  f"{hard['longest_turn_seconds']:.2f}s over {hard['games']} games.")
    if levels:
        md += ["", "Seconds per whole turn at each level's own budget (middle-game "
               "positions; aim: within the budget + 10%):", "",
               "| level | budget | turns | mean | longest | within budget + 10% |",
               "|---|---|---|---|---|---|"]
        for name, lv in levels.items():
            budget = "—" if lv["budget"] is None else f"{lv['budget']}s"
            ok = "—" if lv["within_budget_10pct"] is None else (
                "yes" if lv["within_budget_10pct"] else "no")
            md.append(f"| {name} | {budget} | {lv['turns']} | {lv['mean_seconds']}s | "
                      f"{lv['max_seconds']}s | {ok} |")
    notes = []
    if args.hard_games:
        notes.append("The `hard` row uses the level's own budget.")
    if args.openspiel_games:
        notes.append(f"The OpenSpiel row gives MCTSBot {args.time}s per decision.")
    md.append("\n" + " ".join([*notes, f"Total {meta['seconds']}s."]))
    (RESULTS / f"{args.out}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
