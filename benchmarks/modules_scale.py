"""Self-play with the worked example module on, on every side (8–12) under every variant
(a script, not a test): every game must end without an error. It prints games, errors,
how games ended and decisions per second beside the same games without the module.

    python benchmarks/modules_scale.py --games 20
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from reliquary._engine_build import engine_build
from reliquary.content import default_content
from reliquary.engine import Settings, State

ROOT = Path(__file__).resolve().parent.parent
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "VAR1 regroup_limit=1": {"regroup_limit": 1},
    "VAR2 vigil_reset=hero": {"vigil_reset": "hero"},
    "VAR3 vigil_start=3": {"vigil_start": 3},
    "VAR4 killed_minions=removed": {"killed_minions": "removed"},
    "los=straight, first_turn=no_attack": {"los": "straight", "first_turn": "no_attack"},
}


def load_example() -> None:
    """Register the worked example (tests/modules/smoulder.py) by path."""
    path = ROOT / "tests" / "modules" / "smoulder.py"
    spec = importlib.util.spec_from_file_location("smoulder_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


def play(settings: Settings, seed: int) -> tuple[str, int]:
    rng = random.Random(seed)
    state = State(default_content(), settings)
    decisions = 0
    while state.result is None:
        state.apply(rng.choice(state.legal_options()))
        decisions += 1
    return state.result.reason, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per side and variant")
    args = parser.parse_args(argv)
    load_example()
    print(f"{engine_build().label}; {args.games} games per side and variant")
    print(f"{'side':>4}  {'variant':<36} {'errors':>6}  {'reasons (with smoulder)':<44} "
          f"{'dec/s on':>9} {'dec/s off':>9}")
    errors = 0
    for size in range(8, 13):
        for name, variant in VARIANTS.items():
            reasons: Counter[str] = Counter()
            speed = []
            failed = 0
            for modules in (("smoulder",), ()):
                settings = Settings.from_dict({"size": size, **variant,
                                               "modules": list(modules)})
                began, total = time.perf_counter(), 0
                for g in range(args.games):
                    try:
                        reason, n = play(settings, 1000 * size + g)
                    except Exception as err:  # counted and shown: the point of the run
                        failed += 1
                        print(f"  error: side {size} {name} game {g}: "
                              f"{type(err).__name__}: {err}")
                        continue
                    total += n
                    if modules:
                        reasons[reason] += 1
                speed.append(total / (time.perf_counter() - began))
            errors += failed
            shown = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
            print(f"{size:>4}  {name:<36} {failed:>6}  {shown:<44} {speed[0]:>9.0f} "
                  f"{speed[1]:>9.0f}")
    print(f"errors: {errors}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
