"""Keepers' Relics, property tests over random games with random options and variants:
tokens are conserved (box + board + carried + recovered = 12), a face-down value never
appears in any serialized position, record, event, view or observation before its
reveal (M-KEEP-3, D1), the reveal's odds follow from the public position alone, and
records replay exactly."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from reliquary.engine import (
    Content,
    Game,
    Settings,
    State,
    position_from_dict,
    position_to_dict,
    replay,
)
from reliquary.engine.modules.keepers import DATA, kstate
from reliquary.engine.visibility import event_for, position_for
from reliquary.env.encoding import Observer

TOTAL = sum(len(t.values) for t in DATA.relic_type)


def random_settings(rng: random.Random) -> Settings:
    return Settings.from_dict({
        "size": rng.choice([8, 10, 12]),
        "modules": ["keepers"],
        "keepers.target": rng.choice(["ruins+1", -1, 3, 12]),
        "keepers.devout": rng.choice(["on", "off"]),
        "keepers.prizes": rng.choice(["on", "off"]),
        "keepers.wayshrines": rng.choice(["on", "off"]),
        "los": rng.choice(["geometric", "straight"]),
        "killed_minions": rng.choice(["pool", "removed"]),
    })


def choose(state: State, rng: random.Random) -> Any:
    """A random option, chance outcomes by their odds; a lean towards INTERACT, so that
    delves, lifts and carries happen often."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    options = state.legal_options()
    interact = [o for o in options if getattr(o, "mode", "") == "interact"]
    if interact and rng.random() < 0.5:
        return rng.choice(interact)
    delve = [o for o in options if o == "delve"]
    if delve and rng.random() < 0.8:
        return delve[0]
    return rng.choice(options)


def check_conserved(s: State) -> None:
    st = kstate(s)
    places = [(t.sq >= 0) + (t.carrier >= 0) + (t.recovered >= 0) for t in st.tokens]
    assert all(n == 1 for n in places), places
    board = sum(1 for t in st.tokens if t.sq >= 0)
    carried = sum(1 for t in st.tokens if t.carrier >= 0)
    recovered = sum(1 for t in st.tokens if t.recovered >= 0)
    assert sum(st.box) + board + carried + recovered == TOTAL
    if s.result is None or s.result.reason != "hero_killed":
        assert all(t.carrier in s.pieces for t in st.tokens if t.carrier >= 0), s.result
    # Off the Ruins, tokens lie face up (a desecrated Ruin's token: once its reveal is in).
    pending = {f[1] for f in s.stack if f[0] == "reveal"}
    assert all(t.face_up or i in pending for i, t in enumerate(st.tokens)
               if t.sq >= 0 and not (s.ruins >> t.sq) & 1)


def face_down(s: State) -> set[int]:
    return {i for i, t in enumerate(kstate(s).tokens) if not t.face_up}


def no_value_written(blob: Any, down: set[int]) -> None:
    """No serialized token entry gives a face-down token a value."""
    tokens = blob["modules"]["keepers"]["tokens"]
    for i in down:
        assert "value" not in tokens[i] and tokens[i]["face"] == "down"


def odds_from_json(blob: dict[str, Any], i: int) -> dict[str, float]:
    """M-KEEP-3 worked out from the written position alone."""
    tokens = blob["modules"]["keepers"]["tokens"]
    kind = tokens[i]["type"]
    left = list(next(t.values for t in DATA.relic_type if t.id == kind))
    for t in tokens:
        if t["type"] == kind and t["face"] == "up":
            left.remove(t["value"])
    return {f"v{v}": left.count(v) / len(left) for v in sorted(set(left))}


@pytest.mark.parametrize("seed", range(30))
def test_random_games_conserve_tokens_and_never_show_a_face_down_value(
        content: Content, seed: int) -> None:
    rng = random.Random(seed)
    settings = random_settings(rng)
    game = Game(content, settings)
    s = game.state
    s.events = []
    observer = Observer(content, settings.size, settings=settings)
    revealed: dict[int, int] = {}
    steps = 0
    while not s.is_terminal and steps < 3000:
        down = face_down(s)
        blob = position_to_dict(s)
        no_value_written(blob, down)
        for viewer in (0, 1, -1):
            no_value_written(position_for(s, viewer), down)
        # Every event so far names a token's value only once it was revealed.
        for e in s.events:
            token = e.data.get("token")
            if token is not None and token in down:
                assert "value" not in e.data or e.data["value"] == 0, e
                assert event_for(s, e, 0) is None or "value" not in event_for(s, e, 0).data \
                    or event_for(s, e, 0).data["value"] == 0
        assert len(re.findall(r'"v[0-9]+"', json.dumps(game.record()))) == sum(
            1 for e in s.events if e.kind == "token_reveal")  # a reveal only when taken
        if steps % 7 == 0:  # the observation is a function of the written position
            again = position_from_dict(blob, content)
            assert (observer.encode(again, 0) == observer.encode(s, 0)).all()
            assert again.key() == s.key() and s.clone().key() == s.key()
        if s.decision().kind == "reveal":
            i = s.stack[-1][1]
            odds = dict(s.chance_outcomes())
            assert odds == pytest.approx(odds_from_json(blob, i))
        option = game.state.legal_options() and choose(s, rng)
        game.apply(option)
        steps += 1
        for e in s.events:
            if e.kind == "token_reveal":
                revealed.setdefault(e.data["token"], e.data["value"])
        check_conserved(s)
    assert all(kstate(s).tokens[i].value == v for i, v in revealed.items()
               if kstate(s).tokens[i].face_up)
    # Records replay exactly.
    record = game.record()
    again = replay(record, content)
    assert position_to_dict(again.state) == position_to_dict(s)
    assert again.record() == record


def test_the_random_games_reach_every_keepers_decision_and_event(content: Content) -> None:
    kinds: set[str] = set()
    events: set[str] = set()
    for seed in range(60):
        rng = random.Random(1000 + seed)
        s = State(content, Settings.from_dict({"size": rng.choice([8, 10]),
                                               "modules": ["keepers"]}))
        s.events = []
        n = 0
        while not s.is_terminal and n < 3000:
            kinds.add(s.decision().kind)
            s.apply(choose(s, rng))
            n += 1
            check_conserved(s)
        events.update(e.kind for e in s.events)
    assert {"token_type", "reveal", "delver", "encamper", "wayshrine_type"} <= kinds
    assert {"token_placed", "token_reveal", "token_lift", "lift_failed", "encamp",
            "decamp"} <= events
