"""Tune the evaluation's weights by self-play with SPSA (simultaneous perturbation
stochastic approximation), the method that tuned maxbennedich/onitama's evaluation.

Each iteration k perturbs every tuned weight at once by ±c_k (a random sign each),
plays a pair of games between the two perturbed versions (θ+ as Key, then as Skull),
and moves θ along the signs by a_k times the score difference:

    θ_i ← θ_i + a_k · c_i · (score(θ+) − score(θ−)) · Δ_i,   Δ_i = ±1
    c_k = c / (k + 1)^0.101,   a_k = a / (k + 1 + A)^0.602

with c_i a fraction of each weight's starting value (``--c-scale``), so every weight
moves in its own units. Games use a node budget (``--nodes``) so an iteration's
outcome does not depend on the machine's load. The state (θ, k, every iteration) is
kept in ``benchmarks/results/spsa/state.json`` after each iteration, so a run can be
stopped and resumed; ``benchmarks/sprt.py run spsa v2-vigil`` then tests the result
against the current defaults — SPSA's weights are adopted only if that test accepts.

    python benchmarks/spsa_tune.py --iterations 200 --nodes 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from reliquary.ai.evaluation import DEFAULT_WEIGHTS, Weights
from reliquary.ai.match import MatchSpec, play_game

STATE = Path(__file__).resolve().parent / "results" / "spsa" / "state.json"

#: The weights tuned (the rest keep their defaults).
TUNED = ("hero_hp", "minion", "pool", "carry", "carry_progress", "carrier_threat", "reach",
         "threat_adjacent", "hero_en_prise", "hero_exposed", "vigil_clock", "minion_en_prise",
         "contempt")


def weights_of(theta: dict[str, float]) -> Weights:
    return Weights(**{**asdict(DEFAULT_WEIGHTS), **theta})


def score_a(spec: MatchSpec, index: int) -> float:
    """Agent A's points in game ``index`` (1, ½ or 0)."""
    outcome = play_game(spec, index)
    return 1.0 if outcome.winner == "a" else 0.5 if outcome.winner is None else 0.0


def load(args: argparse.Namespace) -> dict[str, Any]:
    if STATE.exists() and not args.restart:
        return json.loads(STATE.read_text())
    theta0 = {name: getattr(DEFAULT_WEIGHTS, name) for name in TUNED}
    return {"theta0": theta0, "theta": dict(theta0), "k": 0, "iterations": [],
            "settings": {"nodes": args.nodes, "a": args.a, "A": args.big_a,
                         "c_scale": args.c_scale, "round_cap": args.round_cap,
                         "seed": args.seed}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=200, help="iterations to add")
    parser.add_argument("--nodes", type=int, default=1000, help="search nodes per turn")
    parser.add_argument("--a", type=float, default=1.0, help="step size a")
    parser.add_argument("--big-a", type=float, default=20.0, help="stability constant A")
    parser.add_argument("--c-scale", type=float, default=0.2,
                        help="perturbation c_i as a fraction of the starting weight")
    parser.add_argument("--round-cap", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--restart", action="store_true", help="forget the saved state")
    args = parser.parse_args(argv)

    state = load(args)
    settings = state["settings"]
    theta0: dict[str, float] = state["theta0"]
    theta: dict[str, float] = state["theta"]
    c_unit = {n: settings["c_scale"] * max(abs(v), 5.0) for n, v in theta0.items()}
    STATE.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(args.iterations):
        k = state["k"]
        rng = random.Random(settings["seed"] * 100_003 + k)
        ck = 1.0 / (k + 1) ** 0.101
        ak = settings["a"] / (k + 1 + settings["A"]) ** 0.602
        delta = {n: rng.choice((-1, 1)) for n in theta}
        plus = {n: max(0.0, v + ck * c_unit[n] * delta[n]) for n, v in theta.items()}
        minus = {n: max(0.0, v - ck * c_unit[n] * delta[n]) for n, v in theta.items()}
        spec = MatchSpec("search", "search", 2, seed=settings["seed"] * 7 + k,
                         nodes=settings["nodes"], round_cap=settings["round_cap"],
                         budget_a={"weights": weights_of(plus)},
                         budget_b={"weights": weights_of(minus)})
        started = time.perf_counter()
        points = score_a(spec, 0) + score_a(spec, 1)  # θ+ as Key, then as Skull
        diff = points - 1.0  # score(θ+) − score(θ−) over the pair, in [−1, 1]
        for n in theta:
            theta[n] = max(0.0, theta[n] + ak * c_unit[n] * diff * delta[n])
        state["iterations"].append({"k": k, "points_plus": points, "ck": round(ck, 4),
                                    "ak": round(ak, 4),
                                    "seconds": round(time.perf_counter() - started, 1)})
        state["k"] = k + 1
        STATE.write_text(json.dumps(state, indent=1) + "\n")
        moved = ", ".join(f"{n} {theta[n]:.1f}" for n in theta)
        print(f"iteration {k}: θ+ scored {points}/2 | {moved}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
