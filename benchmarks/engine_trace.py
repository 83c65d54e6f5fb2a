"""A hash of everything the engine does in seeded random games, to prove a refactor left
the base game bit-identical (a script, not a test).

Each game cycles through the board sides and rule options as the differential cases do
(:func:`reliquary.differential.settings_for`). After every decision it writes down the
decision (kind, player, piece, card, options, probabilities) and the events that the
option caused; at the end, the final position and the result. The games' digests, and
one digest of them all, are printed; ``--save`` writes them to a JSON file and
``--check`` compares against one (the first differing game is named). ``--module NAME``
(repeatable) plays the same games with rule modules on, to show that the compiled and
the pure build play them alike (the file names the modules; ``--check`` takes them
from it).

    python benchmarks/engine_trace.py --games 300 --save benchmarks/results/engine_trace.json
    python benchmarks/engine_trace.py --games 300 --check benchmarks/results/engine_trace.json
    RELIQUARY_PURE=1 python benchmarks/engine_trace.py --check benchmarks/results/engine_trace.json
    python benchmarks/engine_trace.py --games 200 --module keepers --save /tmp/keepers.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reliquary._engine_build import engine_build
from reliquary.content import default_content
from reliquary.differential import settings_for
from reliquary.engine import Game, Settings, position_to_dict


def settings_with(index: int, modules: Sequence[str]) -> Settings:
    """Case ``index``'s settings (every side and variant comes round), with ``modules`` on."""
    settings = settings_for(index)
    if not modules:
        return settings
    return Settings.from_dict({**settings.as_dict(), "modules": list(modules)})


def trace_game(index: int, seed: int, modules: Sequence[str] = ()) -> str:
    """The digest of one seeded random game, decision by decision."""
    rng = random.Random(seed)
    game = Game(default_content(), settings_with(index, modules), meta={"seed": seed})
    state = game.state
    state.events = []
    h = hashlib.sha256()

    def put(item: Any) -> None:
        h.update(json.dumps(item, sort_keys=True, default=repr).encode())

    while state.result is None:
        d = state.decision()
        put([d.kind, d.player, d.piece, d.card, [repr(o) for o in d.options],
             [repr(p) for p in d.probabilities]])
        option = rng.choice(d.options)
        state.events = []
        game.apply(option)
        state = game.state
        put([[e.kind, e.data] for e in (state.events or [])])
    put(position_to_dict(state))
    put(repr(state.result))
    put(game.record())
    return h.hexdigest()


def run(games: int, seed: int, modules: Sequence[str] = ()) -> dict[str, Any]:
    began = time.perf_counter()
    digests = [trace_game(i, seed + i, modules) for i in range(games)]
    total = hashlib.sha256("".join(digests).encode()).hexdigest()
    result: dict[str, Any] = {"engine": engine_build().label, "games": games, "seed": seed}
    if modules:  # a base-game file keeps the form it always had
        result["modules"] = list(modules)
    result.update(total=total, digests=digests,
                  seconds=round(time.perf_counter() - began, 1))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, help="write the digests to this JSON file")
    parser.add_argument("--check", type=Path, help="compare with digests saved earlier")
    parser.add_argument("--module", action="append", default=[],
                        help="a rule module to switch on in every game (repeat for several; "
                             "--check takes them from the file)")
    args = parser.parse_args(argv)
    games = args.games
    modules: list[str] = args.module
    expected: dict[str, Any] | None = None
    if args.check:
        expected = json.loads(args.check.read_text())
        games = expected["games"]
        args.seed = expected["seed"]
        if modules and modules != expected.get("modules", []):
            parser.error(f"{args.check} was saved with modules {expected.get('modules', [])}, "
                         f"not {modules}")
        modules = list(expected.get("modules", []))
    try:
        settings_with(0, modules)
    except ValueError as err:
        parser.error(str(err))
    result = run(games, args.seed, modules)
    on = f", modules {'+'.join(modules)}" if modules else ""
    print(f"{result['engine']}: {games} games{on}, total {result['total']} "
          f"({result['seconds']} s)")
    if args.save:
        args.save.write_text(json.dumps(result, indent=1) + "\n")
    if expected is not None:
        for i, (mine, theirs) in enumerate(zip(result["digests"], expected["digests"],
                                               strict=True)):
            if mine != theirs:
                print(f"DIFFERENT from {args.check}: first at game {i} "
                      f"({settings_with(i, modules)})")
                return 1
        print(f"identical to {args.check} ({expected['engine']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
