"""The game view, field by field, at every decision of random games from the setup to
the end (docs/web.md, "The game view"), for each kind of viewer — both seats on one
screen, each seat alone, a spectator — against what the engine's state says: the
decision and whose it is, its options only for its owner, the phase, the last roll,
the result, the links, undo only where it is offered."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary.ai import evaluate
from reliquary.content import default_content
from reliquary.engine import CHANCE, format_option
from reliquary.web.ai_pool import squash
from reliquary.web.db import GameRow
from reliquary.web.games import PROMPTS, new_session, undo_count, view

SIDES = ("key", "skull")
VIEWERS = [frozenset({0, 1}), frozenset({0}), frozenset({1}), frozenset()]


def session_for(mode: str, seed: int, ai_seat: int = 1, **row: Any) -> Any:
    options: dict[str, Any] = {"creator": "key"}
    if mode == "ai":
        options |= {"ai_seat": ai_seat, "level": "easy"}
    game_row = GameRow(f"g{seed}", mode, {"round_cap": 12}, options,
                       {"both": "b", "key": "k", "skull": "s", "invite": "inv"}, False,
                       rev=seed, **row)
    return new_session(game_row, default_content(), [])


def check(session: Any, seats: frozenset[int], token: str | None) -> None:
    state = session.state
    got = view(session, seats, ai=None, clocks=None, token=token)
    row = session.row
    assert (got["id"], got["mode"], got["seq"], got["rev"]) == (
        row.id, row.mode, len(session.game.history), str(row.rev))
    assert got["seats"] == sorted(SIDES[p] for p in seats)
    history = session.game.history
    turns_begun = any(e.kind == "play" for e in history)
    if state.is_terminal:
        assert got["decision"] is None and got["phase"] == "over"
        assert got["undo"] is False
        result = state.result
        assert got["result"]["winner"] == (None if result.winner is None
                                           else SIDES[result.winner])
        assert got["result"]["reason"] == result.reason
        assert got["result"]["tiebreak"] == ((result.detail or None)
                                             if result.reason == "vigil" else None)
    else:
        d = state.decision()
        decision = got["decision"]
        mine = d.player in seats
        assert decision["kind"] == d.kind and decision["player"] == d.player
        assert decision["side"] == (SIDES[d.player] if d.player in (0, 1) else "chance")
        assert decision["mine"] is mine
        assert decision["options"] == ([format_option(state, o) for o in d.options]
                                       if mine else [])
        assert decision["piece"] == (state.geometry.name(d.piece) if d.piece >= 0 else None)
        assert decision["card"] == d.card
        if d.player != CHANCE:
            en, es = PROMPTS[d.kind]
            assert decision["prompt"] == {"en": en, "es": es}
        if mine:  # the view's tokens answer the next decision as the options they name
            for token_, option in zip(decision["options"], d.options, strict=True):
                assert session.option_of(token_) == option
        assert got["phase"] == ("play" if turns_begun or d.kind == "play" else "setup")
        assert got["result"] is None
        offered = (row.mode in ("ai", "hotseat") and bool(seats)
                   and undo_count(history, seats, row.options["ai_seat"] if row.mode == "ai"
                                  else None) > 0)
        assert got["undo"] is offered
    rolls = [e for e in history if e.kind in ("roll", "dread")]
    if rolls:
        assert got["last_roll"]["face"] == rolls[-1].token
        assert got["last_roll"]["kind"] == rolls[-1].kind
    else:
        assert got["last_roll"] is None
    assert got["deploy_rows"] == state.content.board_row(state.settings.size).deploy_rows
    assert got["links"]["spectate"] == f"/g/{row.id}"
    assert got["links"].get("self") == (f"/g/{row.id}?t={token}" if seats and token else None)
    invites = row.open_seat is not None and seats == frozenset({0})  # the creator: key
    assert got["links"].get("invite") == (f"/g/{row.id}?invite=inv" if invites else None)
    assert (got["public"], got["open_seat"], got["rematch"]) == (row.public, row.open_seat,
                                                                 None)
    assert got["clock"] is None
    if row.mode == "ai":
        ai_seat = row.options["ai_seat"]
        human = 1 - ai_seat
        # no pool: the AI thinks in a thread; "thinking" while it is to move, no budget
        # for a level without a time budget (easy), nothing queued, nothing left to count
        to_move = not state.is_terminal and state.current_player == ai_seat
        assert got["ai"] == {"level": "easy", "seat": SIDES[ai_seat],
                             "state": "thinking" if to_move else "idle",
                             "queue_position": None, "budget_s": None, "seconds_left": None}
        # the bar is the human's: the static evaluation from the human's side, or the
        # result for the human once the game is over
        if state.is_terminal:
            winner = state.result.winner
            assert got["evaluation"] == (0.0 if winner is None
                                         else 1.0 if winner == human else -1.0)
        else:
            assert got["evaluation"] == round(squash(evaluate(state, human)), 3)
    else:
        assert got["ai"] is None and got["evaluation"] is None


@pytest.mark.parametrize(("mode", "seed", "row"), [
    ("hotseat", 1, {}), ("hotseat", 2, {}), ("online", 3, {"open_seat": "skull",
                                                          "public": True}),
    ("online", 4, {})])
def test_every_view_of_every_decision(mode: str, seed: int, row: dict[str, Any]) -> None:
    rng = random.Random(seed)
    session = session_for(mode, seed, **row)
    tokens = {frozenset({0, 1}): "b", frozenset({0}): "k", frozenset({1}): "s",
              frozenset(): None}
    steps = 0
    while True:
        for seats in VIEWERS:
            check(session, seats, tokens[seats])
        if session.state.is_terminal:
            break
        state = session.state
        session.apply(rng.choice(state.decision().options))
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("ai_seat", [1, 0])
def test_an_ai_game_s_view_at_every_decision(ai_seat: int) -> None:
    rng = random.Random(9)
    session = session_for("ai", 9, ai_seat=ai_seat)
    human = frozenset({1 - ai_seat})
    token = "ks"[1 - ai_seat]
    while not session.state.is_terminal:
        check(session, human, token)
        check(session, frozenset(), None)
        session.apply(rng.choice(session.state.decision().options))
    check(session, human, token)


def test_a_past_position_s_view_offers_nothing() -> None:
    """``upto``: a look back at the game is no place to decide or undo."""
    rng = random.Random(5)
    session = session_for("hotseat", 5)
    for _ in range(30):
        session.apply(rng.choice(session.state.decision().options))
    got = view(session, frozenset({0, 1}), ai=None, clocks=None, upto=10)
    assert got["decision"]["mine"] is False and got["decision"]["options"] == []
    assert got["undo"] is False and got["clock"] is None


def test_a_past_position_of_an_ai_game_shows_no_bar_and_no_thinking() -> None:
    """``upto`` in an AI game: no evaluation bar, and the AI idle whoever is to move."""
    rng = random.Random(6)
    session = session_for("ai", 6, ai_seat=0)
    ai_to_move = 0
    for _ in range(40):
        state = session.state
        got = view(session, frozenset({1}), ai=None, clocks=None, upto=len(session.game.history))
        assert got["evaluation"] is None
        assert got["ai"] == {"level": "easy", "seat": "key", "state": "idle",
                             "queue_position": None, "budget_s": None, "seconds_left": None}
        assert got["undo"] is False
        ai_to_move += state.current_player == 0
        session.apply(rng.choice(state.decision().options))
    assert ai_to_move > 5
