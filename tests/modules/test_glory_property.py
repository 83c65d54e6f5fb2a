"""M-GLORY property tests: random games under random options and variants.

- Glory totals equal the sum of their ``glory`` events (M-GLORY-1, M-GLORY-2, M-GLORY-7,
  M-GLORY-8, M-GLORY-42), and spent Glory the sum of the upgrades bought (M-GLORY-40);
- the game ends by the last phase (M-GLORY-9): never after round phases × phase_rounds;
- clone, positions and ``State.key()`` round-trip after every decision, and records
  replay exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from reliquary import default_content
from reliquary.engine import Settings
from reliquary.engine.modules import glory as g
from reliquary.engine.record import Game, replay
from reliquary.engine.serialize import position_from_dict, position_to_dict

CONTENT = default_content()


def random_settings(rng: random.Random, index: int) -> Settings:
    return Settings.from_dict({
        "size": 8 + index % 5, "los": rng.choice(["geometric", "straight"]),
        "first_turn": rng.choice(["no_damage", "no_attack"]),
        "regroup_limit": rng.choice([None, 0, 1]), "vigil_reset": rng.choice(["any", "hero"]),
        "vigil_start": rng.randint(1, 6), "killed_minions": rng.choice(["pool", "removed"]),
        "round_cap": 80,
        "modules": ["glory"],
        "glory.phases": rng.choice([0, 1, 2, 3, 4, 6]),
        "glory.support": rng.choice(["both", "attack", "off"]),
        "glory.upgrades": rng.choice(["on", "off"]),
        "glory.shrine": rng.choice(["on", "off"]),
    })


def play(game: Game, rng: random.Random, check: bool) -> None:
    while game.state.result is None:
        s = game.state
        if check:
            copy = s.clone()
            assert copy.key() == s.key()
            data = position_to_dict(s)
            again = position_from_dict(json.loads(json.dumps(data)), CONTENT)
            assert position_to_dict(again) == data
            assert again.key() == s.key()
            assert again.legal_options() == s.legal_options()
        if s.is_chance:
            outcomes = s.chance_outcomes()
            game.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            game.apply(rng.choice(s.legal_options()))


@pytest.mark.parametrize("index", range(30))
def test_glory_totals_are_their_events_and_the_game_ends_by_the_last_phase(index: int) -> None:
    rng = random.Random(2500 + index)
    settings = random_settings(rng, index)
    game = Game(CONTENT, settings)
    play(game, rng, check=index % 3 == 0)
    s = game.state
    events: list[Any] = [e for entry in game.history for e in entry.events]
    gained = [0, 0]
    spent = [0, 0]
    for e in events:
        if e.kind == "glory":
            gained[e.data["player"]] += e.data["amount"]
        elif e.kind == "upgrade":
            spent[e.data["player"]] += e.data["cost"]
    state = g.glory_state(s)
    assert state.glory == gained
    assert state.spent == spent
    assert all(state.spent[p] <= state.glory[p] for p in (0, 1))
    rules = g.rules_of(s)
    if rules.phases:
        assert s.rounds <= rules.last_round
        assert s.result is not None and s.result.reason != "round_cap"
    if settings.option("glory.upgrades") == "off":
        assert spent == [0, 0]
    # records replay exactly
    record = json.loads(json.dumps(game.record()))
    again = replay(record, CONTENT)
    assert position_to_dict(again.state) == position_to_dict(s)


def test_glory_combines_with_every_built_in_module() -> None:
    """M-MOD-1: glory with each other registered module (and all of them) plays to an end."""
    from reliquary.engine.modules import registered

    others = [n for n in registered() if n in ("conditions", "keepers")]
    subsets = [(n,) for n in others] + ([tuple(others)] if len(others) > 1 else [])
    for i, extra in enumerate(subsets):
        rng = random.Random(90 + i)
        game = Game(CONTENT, Settings.from_dict({"modules": ["glory", *extra]}))
        play(game, rng, check=True)
        assert game.state.result is not None
