"""The plain-language log (from the engine's events) and the store's guard on indexes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from reliquary import default_content
from reliquary.engine import Game, Settings, position_to_dict
from reliquary.web.db import StaleError, Store
from reliquary.web.manager import Manager
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


def test_a_write_from_a_stale_revision_is_refused(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    rev = store.create_game("g1", "online", {"size": 8}, {}, {})
    after = store.add_moves("g1", rev, 0, [("b3", 0)], finished=False)
    with pytest.raises(StaleError):  # a second writer that started from the same revision
        store.add_moves("g1", rev, 0, [("c3", 0)], finished=False)
    with pytest.raises(StaleError):  # the right revision but a taken index is refused too
        store.add_moves("g1", after, 0, [("c3", 0)], finished=False)
    assert store.moves_of("g1") == [("b3", 0)]
    undone = store.truncate("g1", after, 0)
    assert undone not in (rev, after)  # an undo never goes back to an old revision
    with pytest.raises(StaleError):  # the history before the undo cannot be extended
        store.add_moves("g1", after, 1, [("c3", 1)], finished=False)
    assert store.moves_of("g1", 0, rev=after) is None  # a read checks the revision too
    assert store.get_game("g1").seq == 0  # type: ignore[union-attr]


def test_a_database_of_the_previous_version_is_upgraded(tmp_path: Path) -> None:
    """A store made before revisions existed gains its columns and keeps its games."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    game = Game(default_content(), Settings())
    rng = random.Random(1)
    for _ in range(12):
        game.apply(rng.choice(game.state.legal_options()))
    engine = create_engine(url)
    with engine.begin() as conn:  # the tables as the previous version made them
        conn.execute(text("CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, created FLOAT "
                          "NOT NULL, mode VARCHAR(16) NOT NULL, settings TEXT NOT NULL, "
                          "options TEXT NOT NULL, tokens TEXT NOT NULL, finished INTEGER "
                          "NOT NULL)"))
        conn.execute(text("CREATE TABLE moves (game_id VARCHAR(32) NOT NULL REFERENCES "
                          "games (id), idx INTEGER NOT NULL, token VARCHAR(64) NOT NULL, "
                          "player INTEGER NOT NULL, created FLOAT NOT NULL, "
                          "PRIMARY KEY (game_id, idx))"))
        conn.execute(text("INSERT INTO games VALUES ('old1', 5.0, 'hotseat', :s, '{}', "
                          "'{\"both\": \"tok\"}', 0)"),
                     {"s": json.dumps(Settings().as_dict())})
        for i, entry in enumerate(game.history):
            conn.execute(text("INSERT INTO moves VALUES ('old1', :i, :t, :p, 5.0)"),
                         {"i": i, "t": entry.token, "p": entry.player})
    engine.dispose()
    store = Store(url)
    row = store.get_game("old1")
    assert row is not None and row.seq == 12 and row.touched == 5.0
    assert row.status == "active" and row.open_seat is None
    manager = Manager(store, default_content(), 0)
    assert position_to_dict(manager.session("old1").state) == position_to_dict(game.state)
    assert store.add_moves("old1", row.rev, 12, [("x", 0)], False) == row.rev + 1
