"""Self-play speed with a rule module on, beside the base game in the same run (a script,
not a test). The issues' aim: with the module on, at least 0.7x the base game's
decisions per second.

Each round plays the same seeds with the base rules and with the module, in one process,
one after the other, and times each by the process's CPU time (on a shared machine the
wall clock counts waiting for a core too). It prints each round and the best and median
ratio. Games are ``reliquary selfplay``'s random games (``--agent random``) or games
between two AI agents (``--agent greedy`` or another name of ``reliquary.ai``).

    python benchmarks/module_speed.py --module conditions --games 200
    python benchmarks/module_speed.py --module keepers --module-option keepers.target=8
    python benchmarks/module_speed.py --module glory --agent greedy --games 20 --size 12
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from reliquary._engine_build import engine_build
from reliquary.content import default_content
from reliquary.engine import Settings, State
from reliquary.engine.modules import parse_option_text
from reliquary.selfplay import play_random_game

AIM = 0.7


def agent_game(agent_name: str) -> Callable[[Settings, Any, int], int]:
    """A game between two ``agent_name`` agents, chance sampled with its probabilities;
    returns the decisions taken."""
    from reliquary.ai import get_agent, sample_chance

    def play(settings: Settings, content: Any, seed: int) -> int:
        rng = random.Random(seed)
        agents = [get_agent(agent_name, seed=seed + seat) for seat in (0, 1)]
        state = State(content, settings)
        decisions = 0
        while state.result is None:
            if state.is_chance:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(agents[state.decision().player].choose(state))
            decisions += 1
        return decisions

    return play


def random_game(settings: Settings, content: Any, seed: int) -> int:
    return play_random_game(settings, content, seed)[1]


def timed(play: Callable[[Settings, Any, int], int], settings: Settings, content: Any,
          seeds: range) -> tuple[int, float]:
    """Decisions taken over ``seeds`` and the CPU seconds they took."""
    began, total = time.process_time(), 0
    for seed in seeds:
        total += play(settings, content, seed)
    return total, time.process_time() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", required=True,
                        help="a module to switch on (repeat for several)")
    parser.add_argument("--module-option", action="append", default=[], metavar="KEY=VALUE",
                        help="a module option, e.g. conditions.dread_tn=4")
    parser.add_argument("--games", type=int, default=100, help="games per round and side")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (best and median)")
    parser.add_argument("--size", type=int, default=8, help="board side (8-12)")
    parser.add_argument("--agent", default="random",
                        help="random (reliquary selfplay's games) or an AI agent's name")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    content = default_content()
    base = Settings.from_dict({"size": args.size})
    try:
        options = dict(parse_option_text(text) for text in args.module_option)
        on = Settings.from_dict({"size": args.size, "modules": args.module, **options})
    except ValueError as err:
        parser.error(str(err))
    play = random_game if args.agent == "random" else agent_game(args.agent)
    seeds = range(args.seed, args.seed + args.games)
    print(f"{engine_build().label}; modules {'+'.join(on.modules)} "
          f"{dict(on.module_options) or ''}; side {args.size}; {args.agent} games, "
          f"{args.games} per round")
    print(f"{'round':>5} {'base dec/s':>11} {'module dec/s':>13} {'ratio':>6} "
          f"{'base dec/game':>14} {'module dec/game':>16}")
    ratios = []
    for r in range(1, args.repeat + 1):
        n_base, t_base = timed(play, base, content, seeds)
        n_on, t_on = timed(play, on, content, seeds)
        base_rate, on_rate = n_base / t_base, n_on / t_on
        ratios.append(on_rate / base_rate)
        print(f"{r:>5} {base_rate:>11.0f} {on_rate:>13.0f} {ratios[-1]:>6.2f} "
              f"{n_base / args.games:>14.1f} {n_on / args.games:>16.1f}")
    best, median = max(ratios), statistics.median(ratios)
    verdict = "meets" if median >= AIM else "misses"
    print(f"ratio module/base: best {best:.2f}, median {median:.2f} "
          f"({verdict} the {AIM}x aim)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
