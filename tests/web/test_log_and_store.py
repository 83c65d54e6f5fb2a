"""The plain-language log (from the engine's events) and the store's guard on indexes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reliquary import default_content
from reliquary.engine import Game, Settings
from reliquary.web.db import DuplicateMoveError, Store
from reliquary.web.text import LogContext, describe, note_before


def logged_game(seed: int) -> tuple[Game, list[tuple[int, dict[str, str]]]]:
    content = default_content()
    game = Game(content, Settings())
    ctx = LogContext(content, game.state.geometry)
    rng = random.Random(seed)
    lines = []
    while not game.state.is_terminal:
        option = rng.choice(game.state.legal_options())
        note_before(ctx, game.state, game.state.decision().kind, option)
        entry = game.apply(option)
        lines.extend((len(game.history) - 1, line) for line in describe(ctx, entry))
    return game, lines


def test_every_damage_event_has_a_line_in_both_languages() -> None:
    checked = 0
    for seed in range(40):
        game, lines = logged_game(seed)
        by_index: dict[int, list[dict[str, str]]] = {}
        for index, line in lines:
            by_index.setdefault(index, []).append(line)
        for index, entry in enumerate(game.history):
            for event in entry.events:
                if event.kind != "damage":
                    continue
                square = game.state.geometry.name(event.data["square"])
                amount = event.data["amount"]
                en = [ln["en"] for ln in by_index[index] if f"{square}" in ln["en"]
                      and f"{amount} damage" in ln["en"]]
                es = [ln["es"] for ln in by_index[index] if f"{amount} de daño" in ln["es"]]
                assert en and es, (seed, index, by_index[index])
                if event.data["crush"]:
                    assert any("crushed" in ln for ln in en)
                checked += 1
    assert checked > 0


def test_the_log_names_attacker_target_and_outcome() -> None:
    for seed in range(60):
        _, lines = logged_game(seed)
        smites = [ln for _, ln in lines if " smites " in ln["en"]]
        if smites:
            line = smites[0]
            assert line["en"].split(" smites ")[0].endswith(("Hero", "Minion"))
            assert " golpea " in line["es"]
            return
    pytest.fail("no attack in 60 random games")


def test_results_are_told_with_their_reason() -> None:
    game, lines = logged_game(0)
    reason = game.state.result.reason
    words = {"vigil": "Vigil reached 0", "hero_killed": "Hero was killed",
             "relic_home": "brought home", "round_cap": "round limit"}[reason]
    assert words in lines[-1][1]["en"]


def test_a_taken_index_cannot_be_stored_twice(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    store.create_game("g1", "online", {"size": 8}, {}, {})
    store.add_moves("g1", 0, [("b3", 0)], finished=False)
    with pytest.raises(DuplicateMoveError):
        store.add_moves("g1", 0, [("c3", 0)], finished=False)
    assert store.moves_of("g1") == [("b3", 0)]
