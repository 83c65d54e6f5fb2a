"""Seeded games and searches written down exactly, to check that two engine builds agree.

The compiled engine (mypyc) and the pure-Python one come from the same source and must
give the same answers. :func:`case` plays one seeded case — a random game (record and
final position) or an AI search from a seeded position (chosen line, value, depth,
nodes) — under settings that cycle through every board side (8–12) and rule option
(``los``, ``first_turn``, the variants VAR1–VAR4); :func:`digest` hashes its answer.
``python -m reliquary.differential --start 0 --count 100`` prints one JSON line per
case: run it under both builds (``RELIQUARY_PURE=1`` forces the pure one) and compare
(``tests/compiled/test_differential.py``, ``benchmarks/differential.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ._engine_build import PURE_ENV, engine_build
from .content import default_content
from .engine import Game, Settings, State, format_option, position_to_dict

#: One in this many cases is an AI search; the others are random games.
SEARCH_EVERY = 5
#: Search budgets: (agent, nodes); small enough for CI, large enough to go deep.
SEARCH_BUDGETS: tuple[tuple[str, int], ...] = (("search", 3000), ("greedy", 0), ("mcts", 200))

_LOS = ("geometric", "straight")
_FIRST_TURN = ("no_damage", "no_attack")
_REGROUP_LIMIT: tuple[int | None, ...] = (None, 0, 1, 2)
_VIGIL_RESET = ("any", "hero")
_VIGIL_START = (6, 1, 3, 5, 2, 4)
_KILLED = ("pool", "removed")


def settings_for(index: int) -> Settings:
    """The settings of case ``index``: every side and rule option comes round.

    The cycles have lengths 5, 2, 2, 4, 2, 6 and 2, so their combinations vary from
    case to case; one case in three keeps the default variants (the common game).
    """
    i = index
    variants: dict[str, Any] = {}
    if i % 3:
        variants = {"regroup_limit": _REGROUP_LIMIT[i // 3 % 4],
                    "vigil_reset": _VIGIL_RESET[i // 7 % 2],
                    "vigil_start": _VIGIL_START[i // 2 % 6],
                    "killed_minions": _KILLED[i // 11 % 2]}
    return Settings.from_dict({"size": 8 + i % 5, "los": _LOS[i // 5 % 2],
                               "first_turn": _FIRST_TURN[i // 10 % 2], **variants})


def random_game(index: int, seed: int) -> dict[str, Any]:
    """A seeded random game: its full record and final position."""
    rng = random.Random(seed)
    game = Game(default_content(), settings_for(index), meta={"seed": seed})
    while game.state.result is None:
        game.apply(rng.choice(game.state.legal_options()))
    return {"record": game.record(), "position": position_to_dict(game.state)}


def search_position(index: int, seed: int) -> State:
    """A seeded position at the start of some player's turn (random play up to it);
    a game that ends before then is replaced by the next seed's."""
    while True:
        rng = random.Random(seed)
        state = State(default_content(), settings_for(index))
        target = rng.randint(2, 24)
        while state.result is None:
            if (not state.is_chance and state.stack[-1][0] == "play"
                    and sum(state.turns_taken) >= target):
                return state
            state.apply(rng.choice(state.legal_options()))
        seed += 1_000_003


def ai_search(index: int, seed: int) -> dict[str, Any]:
    """The options an agent chooses with a fixed budget, through a whole turn."""
    from .ai.base import get_agent, sample_chance

    agent_name, nodes = SEARCH_BUDGETS[index // SEARCH_EVERY % len(SEARCH_BUDGETS)]
    state = search_position(index, seed)
    agent = get_agent(agent_name, seed=seed, nodes=nodes or None)
    rng = random.Random(seed)
    chosen: list[str] = []
    turns = sum(state.turns_taken)
    while state.result is None and sum(state.turns_taken) == turns:  # one whole turn
        option = sample_chance(state, rng) if state.is_chance else agent.choose(state)
        chosen.append(format_option(state, option))
        state.apply(option)
    stats = getattr(agent, "stats", {})
    return {"agent": agent_name, "nodes_budget": nodes, "chosen": chosen,
            "stats": {k: stats[k] for k in sorted(stats) if "second" not in k},  # not timings
            "position": position_to_dict(state)}


def case(index: int, base_seed: int = 0) -> dict[str, Any]:
    """Case ``index``: an AI search every :data:`SEARCH_EVERY` cases, else a random game."""
    seed = base_seed + index
    if index % SEARCH_EVERY == SEARCH_EVERY - 1:
        return {"kind": "search", "index": index, **ai_search(index, seed)}
    return {"kind": "game", "index": index, **random_game(index, seed)}


def canonical(answer: dict[str, Any]) -> str:
    """The answer as canonical JSON (floats written exactly, by repr)."""
    return json.dumps(answer, sort_keys=True, separators=(",", ":"), default=repr)


def digest(answer: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(answer).encode()).hexdigest()


@dataclass
class Comparison:
    """What :func:`compare_builds` found."""

    builds: dict[str, str]          # run name -> the engine label it reported
    cases: int = 0
    games: int = 0
    searches: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def _run(start: int, count: int, seed: int, env: dict[str, str],
         full: bool = False) -> tuple[str, list[dict[str, Any]], float]:
    """Run the cases in a fresh process; (engine label, lines, seconds)."""
    command = [sys.executable, "-m", "reliquary.differential", "--start", str(start),
               "--count", str(count), "--seed", str(seed)] + (["--full"] if full else [])
    began = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0", **env})
    if proc.returncode != 0:
        raise RuntimeError(f"the differential run ({env or 'default build'}) failed:\n"
                           f"{proc.stderr[-3000:]}")
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return lines[0]["engine"], lines[1:], time.perf_counter() - began


def compare_builds(start: int = 0, count: int = 100, seed: int = 0) -> Comparison:
    """Run the cases under the default build and under ``RELIQUARY_PURE=1`` (two
    processes, one after the other) and compare every answer's digest; a mismatch is
    re-run in full on both builds so that the report shows both answers."""
    runs = {"default": {}, "pure": {PURE_ENV: "1"}}
    results = {name: _run(start, count, seed, env) for name, env in runs.items()}
    report = Comparison(builds={name: r[0] for name, r in results.items()},
                        seconds={name: r[2] for name, r in results.items()})
    default_lines, pure_lines = results["default"][1], results["pure"][1]
    for mine, theirs in zip(default_lines, pure_lines, strict=True):
        report.cases += 1
        report.games += mine["kind"] == "game"
        report.searches += mine["kind"] == "search"
        if mine["digest"] != theirs["digest"]:
            index = mine["index"]
            both = {name: _run(index, 1, seed, env, full=True)[1][0]["answer"]
                    for name, env in runs.items()}
            report.mismatches.append({"index": index, "settings": mine["settings"], **both})
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=0, help="first case index")
    parser.add_argument("--count", type=int, default=100, help="number of cases")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    parser.add_argument("--full", action="store_true",
                        help="print each answer in full instead of its digest")
    args = parser.parse_args(argv)
    print(json.dumps({"engine": engine_build().label}), flush=True)
    for index in range(args.start, args.start + args.count):
        answer = case(index, args.seed)
        line = {"index": index, "kind": answer["kind"],
                "settings": settings_for(index).as_dict(), "digest": digest(answer)}
        if args.full:
            line["answer"] = json.loads(canonical(answer))
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
