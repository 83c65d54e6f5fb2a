"""Positions round-trip through JSON; records replay exactly and refuse other content."""

from __future__ import annotations

import copy
import json
import random

import pytest

from reliquary import load_content
from reliquary.engine import (
    Game,
    IllegalOptionError,
    NotationError,
    Settings,
    position_from_dict,
    position_to_dict,
    replay,
)
from reliquary.engine.visibility import position_for
from reliquary.selfplay import record_random_game


def test_record_replays_to_the_same_final_state(content) -> None:
    game = record_random_game(Settings(size=9, los="straight"), content, seed=11)
    record = json.loads(json.dumps(game.record()))
    assert record["format"] == "reliquary-record" and record["version"] == 1
    assert record["settings"] == {"size": 9, "los": "straight", "first_turn": "no_damage",
                                  "round_cap": 200, "regroup_limit": None,
                                  "vigil_reset": "any", "vigil_start": 6,
                                  "killed_minions": "pool"}
    again = replay(record, content)
    assert position_to_dict(again.state) == position_to_dict(game.state)
    assert all(turn[0].endswith((":move", ":attack", ":regroup", ":rite", ":pass"))
               for turn in record["turns"])


def test_record_of_other_content_is_refused(content, tmp_path) -> None:
    game = record_random_game(Settings(), content, seed=3)
    (tmp_path / "board.toml").write_text(
        'content = "board"\n[[row]]\nsides = [8, 8]\nminions = 2\nruins = 4\ndeploy_rows = 2\n')
    other = load_content(tmp_path)
    with pytest.raises(NotationError, match="refused"):
        replay(game.record(), other)


def test_tampered_record_names_the_bad_token(content) -> None:
    record = record_random_game(Settings(), content, seed=5).record()
    bad = copy.deepcopy(record)
    bad["setup"][0] = "a1"  # a back-row square: never a Ruin (S2)
    with pytest.raises(NotationError, match=r"setup\[0\]: .*not legal"):
        replay(bad, content)
    bad = copy.deepcopy(record)
    bad["result"]["winner"] = "key" if record["result"]["winner"] != "key" else "skull"
    with pytest.raises(NotationError, match="replaying it gives"):
        replay(bad, content)
    with pytest.raises(NotationError, match="not a Reliquary game record"):
        replay({"format": "chess"}, content)
    bad = copy.deepcopy(record)
    bad["version"] = 99
    with pytest.raises(NotationError, match="version 99"):
        replay(bad, content)


def test_position_json_round_trip_mid_turn(content) -> None:
    rng = random.Random(2)
    game = Game(content, Settings(size=10))
    while not game.state.is_terminal:
        data = json.loads(json.dumps(position_to_dict(game.state)))
        state = position_from_dict(data, content)
        assert position_to_dict(state) == data
        assert state.legal_options() == game.state.legal_options()
        game.apply(rng.choice(game.state.legal_options()))


def test_position_errors_are_clear(content) -> None:
    state = Game(content).state
    data = position_to_dict(state)
    with pytest.raises(NotationError, match="not a Reliquary position"):
        position_from_dict({"format": "x"}, content)
    other = dict(data, content="0000")
    with pytest.raises(NotationError, match="made with content '0000'"):
        position_from_dict(other, content)
    broken = dict(data, pieces=[{"id": 1}])
    with pytest.raises(NotationError, match="malformed position"):
        position_from_dict(broken, content)


def test_secret_faction_is_hidden_from_the_other_view(content) -> None:
    """S3: neither player's choice is visible to the other before both are made."""
    game = Game(content)
    while game.state.decision().kind != "faction":
        game.apply(game.state.legal_options()[0])
    game.apply("grave-tide")
    assert position_for(game.state, 1)["secret_factions"]["key"] == "hidden"
    assert position_for(game.state, 0)["secret_factions"]["key"] == "grave-tide"
    assert game.state.decision().options == tuple(f.id for f in content.factions)


def test_illegal_option_leaves_state_untouched(content) -> None:
    game = Game(content)
    before = position_to_dict(game.state)
    for bad in (0, "pass", ("Bolt", "attack"), None, 3.5, True):
        with pytest.raises(IllegalOptionError):
            game.state.apply(bad)  # type: ignore[arg-type]
    assert position_to_dict(game.state) == before


def test_undo_takes_back_decisions(content) -> None:
    rng = random.Random(4)
    game = Game(content)
    for _ in range(40):
        game.apply(rng.choice(game.state.legal_options()))
    snapshot = position_to_dict(game.state)
    options = game.state.legal_options()
    game.apply(options[0])
    game.undo()
    assert position_to_dict(game.state) == snapshot and len(game.history) == 40
