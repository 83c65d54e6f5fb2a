"""Steps per second of each research interface, with the engine as the baseline.

Every interface plays random legal moves (chance drawn with its probabilities) for
``--seconds`` each, whole games one after another (side 8, round cap 40, whole setup),
and counts steps: one step is one decision of a player (the unit of the PettingZoo and
Gymnasium ``step`` and of OpenSpiel's ``apply_action``). Printed per interface: steps/s,
and the ratio to the bare engine measured in the same run (legal options and apply,
nothing encoded), so figures from other machines can be compared by their ratios.

- ``engine``: ``State.legal_options`` and ``State.apply``;
- ``encoding``: the engine plus the observation planes (channels first) and the action
  mask of the player to move: what every interface pays;
- ``encoding-last``: the same with the older channels-last layout;
- ``pettingzoo``: ``env()`` (with PettingZoo's wrappers), ``last()`` and ``step()``;
- ``pettingzoo-raw``: ``raw_env()``;
- ``gymnasium``: ``ReliquaryGymEnv`` against ``random`` (the opponent's moves happen
  inside ``step``: its steps count only the learner's decisions);
- ``openspiel``: ``legal_actions``, ``apply_action`` and ``observation_tensor``;
- ``openspiel-bare``: ``legal_actions`` and ``apply_action`` only.

    python benchmarks/env_speed.py                  # every interface, 3 s each
    python benchmarks/env_speed.py --seconds 10 --only engine,pettingzoo,openspiel
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

ROUND_CAP = 40


def _engine_steps(encode: str | None) -> Iterator[int]:
    from reliquary import new_game
    from reliquary.env.encoding import ActionSpace, Observer

    rng = random.Random(1)
    state = new_game(round_cap=ROUND_CAP)
    observer = Observer(state.content, 8, encode or "channels_first")
    actions = ActionSpace(state.content, 8)
    while True:
        if state.is_terminal:
            state = new_game(round_cap=ROUND_CAP)
        if state.is_chance:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if encode:
            observer.encode(state, state.current_player)
            actions.mask(state)
        state.apply(rng.choice(state.legal_options()))
        yield 1


def _pettingzoo_steps(wrapped: bool) -> Iterator[int]:
    from reliquary.env import env, raw_env

    rng = np.random.default_rng(1)
    make = env if wrapped else raw_env
    seed = 0
    while True:
        game = make(settings={"round_cap": ROUND_CAP}, seed=seed)
        game.reset(seed=seed)
        seed += 1
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            yield 1


def _gymnasium_steps() -> Iterator[int]:
    from reliquary.env import ReliquaryGymEnv

    rng = np.random.default_rng(1)
    game = ReliquaryGymEnv(opponent="random", settings={"round_cap": ROUND_CAP})
    seed = 0
    while True:
        obs, _ = game.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, done, truncated, _ = game.step(action)
            done = done or truncated
            yield 1


def _openspiel_steps(observe: bool) -> Iterator[int]:
    import pyspiel

    import reliquary.env.openspiel as og

    rng = np.random.default_rng(1)
    game = pyspiel.load_game(og.SHORT_NAME, {"round_cap": ROUND_CAP})
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            yield 1


INTERFACES: dict[str, Callable[[], Iterator[int]]] = {
    "engine": lambda: _engine_steps(None),
    "encoding": lambda: _engine_steps("channels_first"),
    "encoding-last": lambda: _engine_steps("channels_last"),
    "pettingzoo": lambda: _pettingzoo_steps(True),
    "pettingzoo-raw": lambda: _pettingzoo_steps(False),
    "gymnasium": _gymnasium_steps,
    "openspiel": lambda: _openspiel_steps(True),
    "openspiel-bare": lambda: _openspiel_steps(False),
}


def measure(name: str, seconds: float) -> dict[str, Any]:
    """Steps of interface ``name`` in ``seconds`` (after a short warm-up)."""
    steps = INTERFACES[name]()
    for _ in range(50):
        next(steps)
    count, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for _ in range(20):
            next(steps)
        count += 20
    return {"interface": name, "steps": count, "seconds": round(elapsed, 2),
            "steps_per_second": round(count / elapsed, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per interface")
    parser.add_argument("--only", default=",".join(INTERFACES),
                        help="comma-separated interfaces (engine is always measured)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in INTERFACES]
    if unknown:
        parser.error(f"unknown interface {unknown[0]!r}; choose from {', '.join(INTERFACES)}")
    rows = []
    for name in ["engine", *(n for n in names if n != "engine")]:
        try:
            rows.append(measure(name, args.seconds))
        except ImportError as err:  # an extra not installed: say so, measure the rest
            rows.append({"interface": name, "skipped": f"not installed: {err.name}"})
    from reliquary import _engine_build

    base = rows[0]["steps_per_second"]
    for row in rows:
        if "steps_per_second" in row:
            row["vs_engine"] = round(row["steps_per_second"] / base, 3)
    result = {"engine_build": getattr(_engine_build, "BUILD", "?"), "side": 8,
              "round_cap": ROUND_CAP, "interfaces": rows}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"engine build: {result['engine_build']}; side 8, random play, "
          f"{args.seconds:g} s each")
    print(f"{'interface':<16}{'steps/s':>10}{'× engine':>10}")
    for row in rows:
        if "skipped" in row:
            print(f"{row['interface']:<16}{row['skipped']:>20}")
        else:
            print(f"{row['interface']:<16}{row['steps_per_second']:>10.0f}"
                  f"{row['vs_engine']:>10.3f}")


if __name__ == "__main__":
    main()
