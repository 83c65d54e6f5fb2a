"""Our agents against OpenSpiel's ``MCTSBot`` (random rollouts) on the OpenSpiel game.

Budgets, for reproducible or timed runs:

- ``--nodes N``: our agent searches N nodes a turn and ``MCTSBot`` runs a fixed
  ``--bot-simulations`` a decision (default 1000): with the seeds, every game replays
  exactly, on any machine.
- ``--time S`` (default 0.5): both sides get S seconds. ``MCTSBot`` counts simulations,
  not seconds, so it is given as many as it ran in that time on its previous moves
  (measured as it plays), for *every* decision it takes, while our agent gets S per
  turn (a turn is several decisions): the comparison favours ``MCTSBot``.
- ``--yardstick strong``: a stronger ``MCTSBot``: 20 times the simulations (fitted to
  20 × S, or 20 × ``--bot-simulations``) and 2 random rollouts per leaf.

The summary reports the real time per turn of both sides, measured on the clock as the
game is played (``our_seconds_per_turn``, ``bot_seconds_per_turn`` and the longest turn
of each, ``max_turn_seconds_a``/``_b``), and ``MCTSBot``'s simulations per decision.
The factions are drawn by chance in the OpenSpiel game (see ``reliquary.env.openspiel``).

    python benchmarks/openspiel_mcts.py --agent search --games 10 --time 0.5
    python benchmarks/openspiel_mcts.py --agent search --games 20 --nodes 2000 \
        --bot-simulations 1000
    python benchmarks/openspiel_mcts.py --games 10 --time 0.2 --yardstick strong
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
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

STRONG = 20  # the strong yardstick's factor on simulations
DEFAULT_BOT_SIMULATIONS = 1000


@dataclass(frozen=True)
class Budget:
    """What each side may spend: ours in seconds or nodes a turn; the bot's fixed
    simulations a decision, or fitted to ``bot_seconds``; rollouts per leaf."""

    seconds: float | None = None
    nodes: int | None = None
    bot_simulations: int | None = None
    bot_seconds: float | None = None
    bot_rollouts: int = 1

    @classmethod
    def make(cls, seconds: float | None, nodes: int | None, bot_simulations: int | None,
             yardstick: str = "fair") -> Budget:
        if (seconds is None) == (nodes is None):
            raise ValueError("give our agent either a time or a node budget")
        factor = STRONG if yardstick == "strong" else 1
        if bot_simulations is None and seconds is None:
            bot_simulations = DEFAULT_BOT_SIMULATIONS
        return cls(seconds=seconds, nodes=nodes,
                   bot_simulations=None if bot_simulations is None else bot_simulations * factor,
                   bot_seconds=None if bot_simulations is not None or seconds is None
                   else seconds * factor,
                   bot_rollouts=2 if yardstick == "strong" else 1)


class Yardstick:
    """``MCTSBot`` with a fixed simulation count, or one fitted to a time per move."""

    def __init__(self, game: Any, budget: Budget, seed: int, uct_c: float = 2.0) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        rng = np.random.RandomState(seed)
        self.budget = budget
        self.rate = 50.0  # simulations per second, refined after each move (timed)
        self.bot = mcts.MCTSBot(game, uct_c, budget.bot_simulations or 2,
                                mcts.RandomRolloutEvaluator(budget.bot_rollouts, rng),
                                random_state=rng)
        self.simulations = 0
        self.decisions = 0

    def step(self, state: Any) -> int:
        if self.budget.bot_seconds is not None:
            sims = max(2, int(self.rate * self.budget.bot_seconds))
            self.bot.max_simulations = sims
        else:
            sims = int(self.bot.max_simulations)
        started = time.perf_counter()
        action = int(self.bot.step(state))
        spent = max(time.perf_counter() - started, 1e-3)
        if self.budget.bot_seconds is not None:
            # A solved tree stops early: its apparent rate would be far too high, so
            # the estimate may at most quadruple a move.
            self.rate = 0.5 * self.rate + 0.5 * min(sims / spent, 4.0 * self.rate)
        self.simulations += sims
        self.decisions += 1
        return action


def play_one(args: tuple[str, int, int, Budget, int, int]) -> dict[str, Any]:
    """One game; our agent is Key in even games. Returns the outcome for our agent and
    each side's thinking time per turn, on the clock."""
    import numpy as np
    import pyspiel

    import reliquary.env.openspiel as og
    from reliquary.ai import get_agent

    agent_name, index, seed, budget, size, round_cap = args
    game = pyspiel.load_game(og.SHORT_NAME, {"size": size, "round_cap": round_cap})
    ours = get_agent(agent_name, seed=seed * 1000 + index, time=budget.seconds,
                     nodes=budget.nodes)
    bot = Yardstick(game, budget, seed * 1000 + index + 500)
    our_seat = index % 2
    chance = np.random.RandomState(seed * 1000 + index + 900)
    state = game.new_initial_state()
    started = time.perf_counter()
    # (seat, turn) -> seconds thinking: a turn is every decision its player takes.
    turns: dict[tuple[int, int], float] = defaultdict(float)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        turn = (seat, state.engine.turns_taken[seat])
        t0 = time.perf_counter()
        action = (state.action_of(ours.choose(state.engine)) if seat == our_seat
                  else bot.step(state))
        turns[turn] += time.perf_counter() - t0
        state.apply_action(action)
    winner = state.engine.winner
    ours_turns = [s for (seat, _), s in turns.items() if seat == our_seat]
    bot_turns = [s for (seat, _), s in turns.items() if seat != our_seat]
    return {"index": index, "our_seat": our_seat,
            "winner": None if winner is None else ("a" if winner == our_seat else "b"),
            "reason": state.engine.result.reason if state.engine.result else "",
            "rounds": state.engine.rounds, "seconds": time.perf_counter() - started,
            "bot_decisions": bot.decisions,
            "bot_simulations_per_move": round(bot.simulations / max(bot.decisions, 1)),
            "our_turns": len(ours_turns), "bot_turns": len(bot_turns),
            "our_seconds_per_turn": round(sum(ours_turns) / max(len(ours_turns), 1), 4),
            "bot_seconds_per_turn": round(sum(bot_turns) / max(len(bot_turns), 1), 4),
            "our_max_turn_seconds": round(max(ours_turns, default=0.0), 4),
            "bot_max_turn_seconds": round(max(bot_turns, default=0.0), 4)}


def run(agent: str, games: int, seconds: float | None = 0.5, seed: int = 1, size: int = 8,
        round_cap: int = 100, workers: int | None = None,
        progress: Any = None, out: Path | None = None, *, nodes: int | None = None,
        bot_simulations: int | None = None, yardstick: str = "fair") -> dict[str, Any]:
    """Play the games in parallel; a match summary (A = our agent, B = MCTSBot).

    ``nodes`` replaces ``seconds`` as our agent's budget. With ``out``, games already
    in that file are kept and each new one is appended."""
    from reliquary.ai.match import GameOutcome, summarize

    if nodes is None and seconds is None:
        seconds = 0.5  # a caller with neither (the ladder run by nodes): the default time
    budget = Budget.make(None if nodes is not None else seconds, nodes, bot_simulations,
                         yardstick)
    spec = {"agent": agent, "games": games, "seed": seed, "size": size,
            "round_cap": round_cap, "yardstick": yardstick,
            **{k: v for k, v in asdict(budget).items() if v is not None}}
    results = _resume(out, spec) if out else []
    done = {r["index"] for r in results}
    jobs = [(agent, i, seed, budget, size, round_cap) for i in range(games) if i not in done]
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
                            max_turn_seconds=(r.get("our_max_turn_seconds", 0.0),
                                              r.get("bot_max_turn_seconds", 0.0)))
                for r in results]
    summary = summarize(outcomes, time.perf_counter() - started)
    summary["agent_a"], summary["agent_b"] = agent, f"openspiel-mcts ({yardstick})"
    summary["budget"] = spec
    decisions = sum(r.get("bot_decisions", 0) for r in results)
    if decisions:  # per decision over every game
        summary["bot_simulations_per_move"] = round(sum(
            r["bot_simulations_per_move"] * r["bot_decisions"] for r in results) / decisions)
    for side in ("our", "bot"):
        counted = [r for r in results if r.get(f"{side}_turns")]
        turns = sum(r[f"{side}_turns"] for r in counted)
        if turns:  # the mean over every turn of every game, on the clock
            summary[f"{side}_seconds_per_turn"] = round(sum(
                r[f"{side}_seconds_per_turn"] * r[f"{side}_turns"] for r in counted) / turns, 4)
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
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, default=None,
                        help="seconds a turn for our agent (and fitted for MCTSBot); "
                             "default 0.5 unless --nodes")
    budget.add_argument("--nodes", type=int, default=None,
                        help="nodes a turn for our agent: reproducible games")
    parser.add_argument("--bot-simulations", type=int, default=None,
                        help=f"MCTSBot's simulations a decision (default with --nodes: "
                             f"{DEFAULT_BOT_SIMULATIONS}; with --time: fitted to the time)")
    parser.add_argument("--yardstick", choices=["fair", "strong"], default="fair",
                        help=f"strong: {STRONG}x the simulations, 2 rollouts a leaf")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--round-cap", type=int, default=100)
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON-lines file of games, appended to and resumed")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    seconds = args.time if args.time is not None or args.nodes is not None else 0.5
    try:
        summary = run(args.agent, args.games, seconds, args.seed, args.size,
                      round_cap=args.round_cap, workers=args.workers, out=args.out,
                      nodes=args.nodes, bot_simulations=args.bot_simulations,
                      yardstick=args.yardstick,
                      progress=lambda r: print(
                          f"game {r['index']}: {r['winner']} ({r['reason']}); turns: ours "
                          f"{r['our_seconds_per_turn']} s, bot {r['bot_seconds_per_turn']} s",
                          file=sys.stderr, flush=True))
    except ValueError as err:
        parser.error(str(err))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
