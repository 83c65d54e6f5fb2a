"""Our agents against OpenSpiel's ``MCTSBot`` (random rollouts) on the OpenSpiel game.

Both sides get the same time per move. ``MCTSBot`` counts simulations, not seconds, so
it is given as many simulations as it ran in that time on its previous moves (measured
as it plays); it gets that time for *every* decision it takes, while our agent gets it
per turn (a turn is several decisions) — the comparison favours ``MCTSBot``. The
factions are drawn by chance in the OpenSpiel game (see ``reliquary.ai.openspiel_game``).

    python benchmarks/openspiel_mcts.py --agent search --games 10 --time 0.5
    python benchmarks/openspiel_mcts.py --games 100 --time 0.1 --workers 1 \
        --out benchmarks/results/mcts/search_t0.1.jsonl

With ``--out`` every game is appended to a JSON-lines file as it ends, and a run started
again with the same file plays only the games not yet in it; the summary covers them all.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from typing import Any


class TimedMCTSBot:
    """``MCTSBot`` with its simulation count fitted to a time per move."""

    def __init__(self, game: Any, seconds: float, seed: int, uct_c: float = 2.0) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        rng = np.random.RandomState(seed)
        self.seconds = seconds
        self.rate = 50.0  # simulations per second, refined after each move
        self.bot = mcts.MCTSBot(game, uct_c, 1, mcts.RandomRolloutEvaluator(1, rng),
                                random_state=rng)
        self.simulations = 0
        self.decisions = 0
        self.thinking = 0.0  # seconds

    def step(self, state: Any) -> int:
        sims = max(2, int(self.rate * self.seconds))
        self.bot.max_simulations = sims
        started = time.perf_counter()
        action = int(self.bot.step(state))
        spent = max(time.perf_counter() - started, 1e-3)
        # A solved tree stops early: its apparent rate would be far too high, so the
        # estimate may at most double a move.
        self.rate = 0.5 * self.rate + 0.5 * min(sims / spent, 4.0 * self.rate)
        self.simulations += sims
        self.decisions += 1
        self.thinking += spent
        return action


def play_one(args: tuple[str, int, int, float, int, int]) -> dict[str, Any]:
    """One game; our agent is Key in even games. Returns the outcome for our agent."""
    import numpy as np
    import pyspiel

    import reliquary.ai.openspiel_game as og
    from reliquary.ai import get_agent

    agent_name, index, seed, seconds, size, round_cap = args
    game = pyspiel.load_game(og.SHORT_NAME, {"size": size, "round_cap": round_cap})
    ours = get_agent(agent_name, seed=seed * 1000 + index, time=seconds)
    bot = TimedMCTSBot(game, seconds, seed * 1000 + index + 500)
    our_seat = index % 2
    chance = np.random.RandomState(seed * 1000 + index + 900)
    state = game.new_initial_state()
    started = time.perf_counter()
    our_thinking, our_turns = 0.0, set()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(actions, p=probs)))
        elif state.current_player() == our_seat:
            t0 = time.perf_counter()
            option = ours.choose(state.engine)
            our_thinking += time.perf_counter() - t0
            our_turns.add(state.engine.turns_taken[our_seat])
            state.apply_action(state.action_of(option))
        else:
            state.apply_action(bot.step(state))
    winner = state.engine.winner
    return {"index": index, "our_seat": our_seat,
            "winner": None if winner is None else ("a" if winner == our_seat else "b"),
            "reason": state.engine.result.reason if state.engine.result else "",
            "rounds": state.engine.rounds, "seconds": time.perf_counter() - started,
            "bot_decisions": bot.decisions,
            "bot_simulations_per_move": round(bot.simulations / max(bot.decisions, 1)),
            "bot_seconds_per_move": round(bot.thinking / max(bot.decisions, 1), 4),
            "our_seconds_per_turn": round(our_thinking / max(len(our_turns), 1), 4)}


def run(agent: str, games: int, seconds: float, seed: int = 1, size: int = 8,
        round_cap: int = 100, workers: int | None = None,
        progress: Any = None, out: Path | None = None) -> dict[str, Any]:
    """Play the games in parallel; a match summary (A = our agent, B = MCTSBot).

    With ``out``, games already in that file are kept and each new one is appended."""
    from reliquary.ai.match import GameOutcome, summarize

    spec = {"agent": agent, "games": games, "time": seconds, "seed": seed, "size": size,
            "round_cap": round_cap}
    results = _resume(out, spec) if out else []
    done = {r["index"] for r in results}
    jobs = [(agent, i, seed, seconds, size, round_cap) for i in range(games) if i not in done]
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs) or 1))
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for r in pool.imap_unordered(play_one, jobs):
            results.append(r)
            if out:
                with out.open("a") as f:
                    f.write(json.dumps(r) + "\n")
            if progress:
                progress(r)
    outcomes = [GameOutcome(index=r["index"], a_seat=r["our_seat"], winner=r["winner"],
                            reason=r["reason"], rounds=r["rounds"], seconds=r["seconds"],
                            max_turn_seconds=(0.0, 0.0)) for r in results]
    summary = summarize(outcomes, time.perf_counter() - started)
    summary["agent_a"], summary["agent_b"] = agent, "openspiel-mcts"
    decisions = sum(r.get("bot_decisions", 0) for r in results)
    if decisions:  # per decision over every game (files before these fields lack them)
        summary["bot_simulations_per_move"] = round(sum(
            r["bot_simulations_per_move"] * r["bot_decisions"] for r in results) / decisions)
        summary["bot_seconds_per_move"] = round(sum(
            r["bot_seconds_per_move"] * r["bot_decisions"] for r in results) / decisions, 4)
        summary["our_seconds_per_turn"] = round(
            sum(r["our_seconds_per_turn"] for r in results) / len(results), 4)
    return summary


def _resume(out: Path, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The games already in ``out`` (written with the same spec), creating the file."""
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"spec": spec}) + "\n")
        return []
    lines = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    if not lines or lines[0].get("spec") != spec:
        raise SystemExit(f"{out}: written for another match ({lines[0] if lines else 'empty'}); "
                         f"use another --out")
    return [x for x in lines[1:] if "index" in x]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="search")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--round-cap", type=int, default=100)
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON-lines file of games, appended to and resumed")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    summary = run(args.agent, args.games, args.time, args.seed, args.size,
                  round_cap=args.round_cap, workers=args.workers, out=args.out,
                  progress=lambda r: print(f"game {r['index']}: {r['winner']} ({r['reason']})",
                                           file=sys.stderr, flush=True))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
