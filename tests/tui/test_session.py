"""The terminal app's model: seats, chance, preview, undo, records and replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reliquary import default_content
from reliquary.engine import CHANCE, Game, Play, Settings, position_to_dict, replay
from reliquary.tui.session import (
    GameSession,
    ReplaySession,
    Setup,
    in_setup,
    option_squares,
    turn_squares,
)
from reliquary.web.games import undo_count


def random_session(seed: int, opponent: str = "random", quick: bool = True,
                   **settings: object) -> GameSession:
    return GameSession(default_content(), Setup(opponent=opponent, quick=quick, seed=seed,
                                                settings=Settings(**settings)))  # type: ignore[arg-type]


def play_until(session: GameSession, decisions: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(decisions):
        if session.state.is_terminal:
            return
        if session.ai_to_move():
            session.choose(session.think())
        else:
            session.choose(rng.choice(session.state.decision().options))


def test_quick_setup_deals_a_legal_setup_and_stops_at_the_first_turn() -> None:
    session = random_session(seed=1)
    assert not in_setup(session.state)
    assert session.state.decision().kind == "play"
    # The same setup replays from its record: every choice was legal.
    again = replay(session.record(), default_content())
    assert position_to_dict(again.state) == position_to_dict(session.state)


def test_quick_setup_gives_the_human_the_chosen_faction() -> None:
    session = GameSession(default_content(), Setup(opponent="random", seat=1, quick=True,
                                                   faction="grave-tide", seed=4))
    assert session.state.factions[1] == "grave-tide"


def test_chance_is_drawn_at_once_and_the_seed_repeats_the_game() -> None:
    one, two = random_session(seed=9), random_session(seed=9)
    play_until(one, 60, seed=2)
    play_until(two, 60, seed=2)
    assert [e.token for e in one.history] == [e.token for e in two.history]
    assert not one.state.is_chance
    assert any(e.player == CHANCE for e in one.history)


def test_preview_changes_nothing_and_names_the_squares_it_touches() -> None:
    session = random_session(seed=2)
    before = position_to_dict(session.state)
    log = list(session.log)
    move = next(o for o in session.state.decision().options
                if isinstance(o, Play) and o.mode == "move")
    squares, lines = session.preview(move)
    assert lines and move.card in lines[0]["en"] and lines[0]["es"]
    session.choose(move)
    mover = session.state.decision().options[0]
    squares, lines = session.preview(mover)
    assert mover in squares
    assert position_to_dict(session.state)["stack"] != before["stack"]
    assert session.log[:len(log)] == log


def test_a_secret_faction_is_not_told_by_the_preview() -> None:
    session = GameSession(default_content(), Setup(opponent="human", seed=0))
    while session.state.decision().kind != "faction":
        session.choose(session.state.decision().options[0])
    assert session.preview(session.state.decision().options[0])[1] == []


@pytest.mark.parametrize("opponent", ["random", "human"])
def test_undo_takes_back_what_the_web_takes_back(opponent: str) -> None:
    """The count is the web's undo_count; the game after it is the game replayed to
    that point, and its log is that game's log."""
    checked = 0
    for seed in range(6):
        session = random_session(seed=seed, opponent=opponent)
        play_until(session, 3 + seed * 7, seed=seed)
        if session.state.is_terminal:
            continue
        count = undo_count(session.history, session.humans, session.ai_seat)
        tokens = [e.token for e in session.history]
        assert session.undo() == count
        assert [e.token for e in session.history] == tokens[:len(tokens) - count]
        if count:
            checked += 1
            fresh = GameSession(default_content(), session.setup, session.game)
            assert fresh.log == session.log
    assert checked >= 2


def test_undo_is_refused_past_a_chance_outcome() -> None:
    """A die roll (or a deal) in the human's last turn: nothing is taken back."""
    for seed in range(20):
        session = random_session(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if session.state.is_terminal:
                break
            if session.ai_to_move():
                session.choose(session.think())
                continue
            plays = [i for i, e in enumerate(session.history)
                     if e.kind == "play" and e.player in session.humans]
            if plays and any(e.player == CHANCE for e in session.history[plays[-1]:]):
                tokens = [e.token for e in session.history]
                assert session.undo() == 0
                assert [e.token for e in session.history] == tokens
                return
            session.choose(rng.choice(session.state.decision().options))
    pytest.fail("no die roll in any of the games")


def test_last_turn_squares_are_those_its_events_touched() -> None:
    session = random_session(seed=3)
    play_until(session, 1)
    while not session.state.is_terminal and session.state.decision().kind != "play":
        play_until(session, 1)
    turn = list(Game.turns(session.game))[-1]
    touched = {sq for e in turn for ev in e.events for key in ("square", "to")
               if isinstance(sq := ev.data.get(key), int) and sq >= 0}
    assert session.last_turn() == touched
    assert turn_squares(session.state, []) == set()


def test_option_squares() -> None:
    session = random_session(seed=1)
    state = session.state
    play = state.decision().options[0]
    assert option_squares(state, play) == ()


def test_record_and_position_files_load_with_clear_errors(tmp_path: Path) -> None:
    session = random_session(seed=6)
    play_until(session, 10)
    record, position = tmp_path / "r.json", tmp_path / "p.json"
    session.save_record(record)
    session.save_position(position)
    loaded = GameSession.load(record, default_content(), Setup())
    assert [e.token for e in loaded.history] == [e.token for e in session.history]
    from_position = GameSession.load(position, default_content(), Setup())
    assert position_to_dict(from_position.state) == position_to_dict(session.state)
    assert not from_position.has_record and from_position.undo() == 0
    with pytest.raises(ValueError, match="has no record"):
        from_position.record()
    (tmp_path / "x.json").write_text("[1,", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.json: not valid JSON \(line 1"):
        GameSession.load(tmp_path / "x.json", default_content(), Setup())
    bad = json.loads(record.read_text(encoding="utf-8"))
    bad["turns"][0][0] = "Nonsense:move"
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json: turns\[0\]\[0\]"):
        GameSession.load(tmp_path / "bad.json", default_content(), Setup())
    with pytest.raises(ValueError, match="cannot read"):
        GameSession.load(tmp_path / "missing.json", default_content(), Setup())


def test_replay_steps_by_decision_and_by_turn() -> None:
    game = Game(default_content())
    rng = random.Random(4)
    while not game.state.is_terminal:
        game.apply(rng.choice(game.state.legal_options()))
    r = ReplaySession(game.record(), default_content())
    assert r.index == r.total == len(game.history) and r.state.is_terminal
    r.go(0)
    assert r.lines() == [] and r.state.decision().kind == "ruin"
    r.turn(1)
    assert r.entries[r.index].kind == "play"
    first_turn = r.index
    r.turn(1)
    assert r.index > first_turn and r.entries[r.index].kind == "play"
    r.turn(-1)
    assert r.index == first_turn
    r.step(1)
    assert r.index == first_turn + 1
    expected = replay(game.record(), default_content(), upto=r.index)
    assert position_to_dict(r.state) == position_to_dict(expected.state)
    r.step(-10_000)
    assert r.index == 0
    r.go(10_000)
    assert r.index == r.total


def test_the_preview_of_a_card_shows_its_pieces_and_where_they_may_go() -> None:
    session = random_session(seed=2)
    state = session.state
    move = next(o for o in state.decision().options
                if isinstance(o, Play) and o.mode == "move")
    squares, _ = session.preview(move)
    after = state.clone()
    after.apply(move)
    movers = set(after.decision().options)
    assert movers and movers <= squares
    mover = sorted(movers)[0]
    after.apply(mover)
    assert set(after.decision().options) <= squares  # its destinations
    assert all(state.piece_at(sq) is None or sq in movers for sq in squares)
