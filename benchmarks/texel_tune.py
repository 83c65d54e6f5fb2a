"""Tune the evaluation's weights on stored self-play games (Texel's method).

Texel tuning fits the weights so that the evaluation of a position, squashed by a
logistic curve, predicts how the game ended for the side to move:

    loss(w) = mean over positions of (result − σ(K · evaluate(position, w)))²

with result 1, ½ or 0. The evaluation is linear in each weight (the others fixed), so
each position is read once as a feature vector f (f_i = evaluate(w₀ + e_i) −
evaluate(w₀), checked to add back up to evaluate(w₀)) and the fit is a small smooth
problem: K first with the current weights, then the weights with K fixed, by L-BFGS
within [0, 4 w₀], with a ridge towards w₀ whose strength is chosen on held-out games
(the games are split, not the positions: positions of one game are alike).

Positions are the starts of turns (the search's leaves) of games the current
``search`` plays against itself at a node budget, stored as game records so that a fit
can be re-run on the same games:

    python benchmarks/texel_tune.py play --games 1200 --nodes 1000 --seed 1
    python benchmarks/texel_tune.py fit
    python benchmarks/sprt.py run texel v5-clock --nodes 11200     # adopted only if it wins

``fit`` writes ``benchmarks/results/texel/weights.json`` (the weights, the losses, the
chosen ridge), which ``sprt.py``'s version ``texel`` reads.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from reliquary.ai import sample_chance
from reliquary.ai.evaluation import DEFAULT_WEIGHTS, Weights, evaluate
from reliquary.ai.hashing import at_turn_start
from reliquary.ai.match import game_seeds
from reliquary.ai.search import SearchAgent
from reliquary.content import default_content
from reliquary.engine import Game, Settings, replay

RESULTS = Path(__file__).resolve().parent / "results" / "texel"
WEIGHTS = RESULTS / "weights.json"

#: The weights fitted: every evaluation term (not ``contempt``, which scores a
#: repetition in the search, nor ``clock_regroupable``, a share of another weight, nor
#: ``relic_en_prise``, off by choice).
TUNED = ("hero_hp", "hero_last_hp", "minion", "advance", "threat_adjacent", "threat_near",
         "carry", "carry_progress", "carrier_threat", "reach", "ground_progress", "guard",
         "pool", "rite", "vigil", "hero_en_prise", "hero_exposed", "vigil_clock",
         "minion_en_prise", "pool_ready")
RIDGES = (0.0, 1e-5, 1e-4, 1e-3, 1e-2)


def games_path(seed: int, nodes: int) -> Path:
    return RESULTS / f"games_n{nodes}_s{seed}.jsonl"


def play(args: argparse.Namespace) -> None:
    """Self-play games of the default search at ``--nodes``, appended as records."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = games_path(args.seed, args.nodes)
    done = set()
    if path.exists():
        done = {json.loads(line)["index"] for line in path.read_text().splitlines() if line}
    content = default_content()
    started, played = time.perf_counter(), 0
    for index in range(args.games):
        if index in done:
            continue
        chance_seed, seed_a, seed_b = game_seeds(args.seed, index)
        rng = random.Random(chance_seed)
        agents = (SearchAgent(seed=seed_a, nodes=args.nodes),
                  SearchAgent(seed=seed_b, nodes=args.nodes))
        game = Game(content, Settings(round_cap=args.round_cap))
        while not game.state.is_terminal:
            state = game.state
            game.apply(sample_chance(state, rng) if state.is_chance
                       else agents[state.current_player].choose(state))
        with path.open("a") as f:
            f.write(json.dumps({"index": index, "record": game.record()}) + "\n")
        played += 1
        if played % 20 == 0:
            rate = played / (time.perf_counter() - started)
            print(f"{index + 1}/{args.games} games ({rate * 60:.0f} a minute)",
                  file=sys.stderr, flush=True)


def positions(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (positions × TUNED), results for the side to move, and game numbers."""
    content = default_content()
    base = DEFAULT_WEIGHTS
    shifted = [replace(base, **{name: getattr(base, name) + 1.0}) for name in TUNED]
    rows: list[list[float]] = []
    results: list[float] = []
    groups: list[int] = []
    worst = 0.0
    number = 0
    for path in paths:
        for line in path.read_text().splitlines():
            if not line:
                continue
            record = json.loads(line)["record"]
            game = replay(record, content)
            winner = game.state.winner
            again = Game(content, game.settings)
            for entry in game.history:
                s = again.state
                if at_turn_start(s) and s.result is None:
                    me = s.current_player
                    at_base = evaluate(s, me, base)
                    row = [evaluate(s, me, w) - at_base for w in shifted]
                    # Linear in each weight: the features add back up to the evaluation.
                    worst = max(worst, abs(sum(getattr(base, n) * f
                                               for n, f in zip(TUNED, row, strict=True)) - at_base))
                    rows.append(row)
                    results.append(0.5 if winner is None else 1.0 if winner == me else 0.0)
                    groups.append(number)
                again.apply(entry.option)
            number += 1
    if worst > 1e-6:
        raise SystemExit(f"the evaluation is not linear in the tuned weights (off by "
                         f"{worst:.3g} points): check TUNED against evaluation.py")
    return np.array(rows), np.array(results), np.array(groups)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def loss(w: np.ndarray, k: float, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((y - sigmoid(k * (x @ w))) ** 2))


def fit_weights(x: np.ndarray, y: np.ndarray, k: float, w0: np.ndarray,
                ridge: float) -> np.ndarray:
    scale = np.abs(w0) + 1.0

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = sigmoid(k * (x @ w))
        r = p - y
        value = np.mean(r * r) + ridge * np.sum(((w - w0) / scale) ** 2)
        grad = (x.T @ (2 * r * p * (1 - p) * k)) / len(y) + 2 * ridge * (w - w0) / scale ** 2
        return float(value), grad

    bounds = [(0.0, 4.0 * max(v, 1.0)) for v in w0]
    return np.asarray(minimize(objective, w0, jac=True, method="L-BFGS-B",
                               bounds=bounds).x)


def fit(args: argparse.Namespace) -> None:
    paths = sorted(RESULTS.glob("games_*.jsonl")) if not args.games else args.games
    if not paths:
        raise SystemExit(f"no games in {RESULTS}: run `texel_tune.py play` first")
    started = time.perf_counter()
    x, y, groups = positions(paths)
    games = int(groups.max()) + 1
    print(f"{len(y)} positions from {games} games ({time.perf_counter() - started:.0f} s)",
          file=sys.stderr)
    held = np.random.default_rng(args.seed).random(games) < args.holdout
    test = held[groups]
    w0 = np.array([getattr(DEFAULT_WEIGHTS, n) for n in TUNED])
    k = float(minimize_scalar(lambda k: loss(w0, k, x, y), bounds=(1e-5, 0.1),
                              method="bounded").x)
    base_train, base_test = loss(w0, k, x[~test], y[~test]), loss(w0, k, x[test], y[test])
    trials = []
    for ridge in RIDGES:
        w = fit_weights(x[~test], y[~test], k, w0, ridge)
        trials.append((loss(w, k, x[test], y[test]), ridge, w))
        print(f"ridge {ridge:g}: held-out loss {trials[-1][0]:.5f} (defaults {base_test:.5f})",
              file=sys.stderr)
    best_test, ridge, _ = min(trials, key=lambda t: t[0])
    if best_test < base_test:
        w = fit_weights(x, y, k, w0, ridge)  # the chosen ridge, on every game
    else:  # no fit predicts the held-out games better: keep the defaults
        print("no fit beats the defaults on the held-out games: the defaults are kept",
              file=sys.stderr)
        best_test, ridge, w = base_test, math.inf, w0
    out = {
        "weights": {n: round(float(v), 3) for n, v in zip(TUNED, w, strict=True)},
        "defaults": {n: float(v) for n, v in zip(TUNED, w0, strict=True)},
        "k": k, "ridge": ridge if math.isfinite(ridge) else None,
        "positions": len(y), "games": games,
        "held_out_games": int(held.sum()),
        "loss": {"defaults_train": base_train, "defaults_held_out": base_test,
                 "fitted_held_out": best_test, "fitted_all": loss(w, k, x, y),
                 "defaults_all": loss(w0, k, x, y)},
        "files": [str(p.name) for p in paths],
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"K {k:.5f}; held-out loss {base_test:.5f} -> {best_test:.5f} (ridge {ridge:g}); "
          f"written to {args.out}")
    for n, a, b in zip(TUNED, w0, w, strict=True):
        print(f"  {n:16} {a:8.2f} -> {b:8.2f}")


def texel_weights(path: Path = WEIGHTS) -> Weights:
    """The fitted weights (the defaults for the rest), for ``sprt.py``'s ``texel``."""
    if not path.exists():
        raise SystemExit(f"no fitted weights at {path}: run `texel_tune.py fit`")
    fitted = json.loads(path.read_text())["weights"]
    return Weights(**{**asdict(DEFAULT_WEIGHTS), **fitted})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play (or resume) self-play games and store them")
    p.add_argument("--games", type=int, default=1200)
    p.add_argument("--nodes", type=int, default=1000, help="search nodes per turn")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--round-cap", type=int, default=200)
    p.set_defaults(run=play)
    p = sub.add_parser("fit", help="fit the weights to the stored games")
    p.add_argument("--games", type=Path, nargs="*", help="game files (default: all stored)")
    p.add_argument("--holdout", type=float, default=0.2, help="share of games held out")
    p.add_argument("--seed", type=int, default=1, help="seed of the held-out split")
    p.add_argument("--out", type=Path, default=WEIGHTS)
    p.set_defaults(run=fit)
    args = parser.parse_args(argv)
    if getattr(args, "holdout", 0.5) <= 0 or getattr(args, "holdout", 0.5) >= 1:
        raise SystemExit(f"--holdout must lie between 0 and 1, not {args.holdout}")
    args.run(args)


if __name__ == "__main__":
    main()
