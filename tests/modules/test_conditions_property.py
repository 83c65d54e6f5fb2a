"""M-COND with random options and variants: every position clones, serializes and hashes
the same, every game ends, and a record replays exactly (and is refused under other
module settings)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from reliquary.engine import (
    Content,
    Game,
    ReliquaryError,
    Settings,
    State,
    position_from_dict,
    position_to_dict,
    replay,
)

from .test_framework import play_random


def random_settings(rng: random.Random, index: int, modules: list[str]) -> Settings:
    actions = rng.sample(["focus", "guard", "tend"], rng.randint(0, 3))
    return Settings.from_dict({
        "size": 8 + index % 5, "los": rng.choice(["geometric", "straight"]),
        "first_turn": rng.choice(["no_damage", "no_attack"]), "round_cap": 60,
        "regroup_limit": rng.choice([None, 0, 1]), "vigil_reset": rng.choice(["any", "hero"]),
        "vigil_start": rng.randint(1, 6), "killed_minions": rng.choice(["pool", "removed"]),
        "modules": modules, "conditions.actions": actions,
        "conditions.dread": rng.choice(["carrier", "hero", "none"]),
        "conditions.dread_tn": rng.randint(1, 6),
        "conditions.dread_affects": rng.choice(["all", "minions"]),
        "conditions.paralysis_immune": rng.choice(["hero", "none"])})


@pytest.mark.parametrize("index", range(20))
def test_random_conditions_games_round_trip_and_end(content: Content, index: int) -> None:
    rng = random.Random(2300 + index)
    state = State(content, random_settings(rng, index, ["conditions"]))
    state.events = []
    for s in play_random(state, rng):
        copy = s.clone()
        assert copy.key() == s.key()
        data = position_to_dict(s)
        assert position_to_dict(copy) == data
        again = position_from_dict(json.loads(json.dumps(data)), content)
        assert position_to_dict(again) == data
        assert again.key() == s.key()
        assert again.legal_options() == s.legal_options()
    assert state.result is not None


def test_random_games_reach_every_decision_and_event(content: Content) -> None:
    """Across a few default-option games, every decision kind and event of the module
    happens (so the property test above exercises them)."""
    kinds: Counter[str] = Counter()
    events: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        state = State(content, Settings(modules=("conditions",), round_cap=80))
        state.events = []
        for s in play_random(state, rng):
            if s.result is None:
                kinds[s.stack[-1][0]] += 1
        events.update(e.kind for e in state.events)
    for kind in ("interact", "cond_actor", "fast_step", "dread"):
        assert kinds[kind], kind
    for kind in ("condition", "condition_end", "dread", "cond_action"):
        assert events[kind], kind


@pytest.mark.parametrize("seed", range(4))
def test_a_record_replays_exactly_and_other_settings_are_refused(content: Content,
                                                               seed: int) -> None:
    rng = random.Random(seed)
    settings = random_settings(rng, seed, ["conditions"]).as_dict()
    settings["conditions.actions"] = ["focus", "guard", "tend"]  # INTERACT is played
    game = Game(content, Settings.from_dict(settings))
    while not game.state.is_terminal:
        s = game.state
        if s.is_chance:
            outcomes = s.chance_outcomes()
            option = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            option = rng.choice(s.legal_options())
        game.apply(option)
    record = json.loads(json.dumps(game.record()))
    again = replay(record, content)
    assert again.record() == game.record()
    assert position_to_dict(again.state) == position_to_dict(game.state)
    tampered = json.loads(json.dumps(record))
    tampered["content"]["modules"]["conditions"] = "0" * 16
    with pytest.raises(ReliquaryError, match="module 'conditions' data"):
        replay(tampered, content)
    off = json.loads(json.dumps(record))
    off["settings"]["modules"] = []
    for key in [k for k in off["settings"] if k.startswith("conditions.")]:
        del off["settings"][key]
    with pytest.raises((ReliquaryError, ValueError)):
        replay(off, content)


@pytest.mark.parametrize("modules", [["conditions", "glory"], ["conditions", "keepers"],
                                     ["conditions", "glory", "keepers"]])
@pytest.mark.parametrize("seed", range(2))
def test_conditions_with_the_other_modules_round_trip_and_end(content: Content,
                                                             modules: list[str],
                                                             seed: int) -> None:
    """M-MOD-1: any subset combines (their decision kinds and conditions apart)."""
    rng = random.Random(seed)
    state = State(content, random_settings(rng, seed, modules))
    for s in play_random(state, rng):
        if s.turns_taken[0] % 5 == 0:
            data = position_to_dict(s)
            again = position_from_dict(json.loads(json.dumps(data)), content)
            assert again.key() == s.key()
            assert again.legal_options() == s.legal_options()
    assert state.result is not None
