"""The view's `last_turn` at every decision of random games against its definition
(docs/web.md: "The last finished turn is shaded yellow"; web/games.py): the squares
(an event's `square` and `to`) of the last finished turn's events, each named once,
in the order the events first touch them. Issue 31, sample H: a fault listing a square
as often as its events touched it passed every test."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.web.db import GameRow
from reliquary.web.games import new_session, view


def reference(session: Any) -> list[str]:
    history, state = session.game.history, session.state
    starts = [i for i, e in enumerate(history) if e.kind == "play"]
    if not starts:
        return []
    if state.is_terminal or state.decision().kind == "play":
        turn = history[starts[-1]:]  # the turn just ended (or the game's last)
    else:  # within a turn: the one before it
        turn = history[starts[-2]:starts[-1]] if len(starts) > 1 else []
    named: list[str] = []
    for entry in turn:
        for ev in entry.events:
            for key in ("square", "to"):
                sq = ev.data.get(key)
                if isinstance(sq, int) and sq >= 0:
                    name = state.geometry.name(sq)
                    if name not in named:
                        named.append(name)
    return named


def touched(session: Any) -> list[int]:
    """Every square the last entry's events name, repeats included."""
    return [sq for ev in session.game.history[-1].events for key in ("square", "to")
            if isinstance(sq := ev.data.get(key), int) and sq >= 0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_last_turn_at_every_decision(seed: int) -> None:
    rng = random.Random(seed)
    row = GameRow(f"g{seed}", "hotseat", {"round_cap": 12}, {"creator": "key"},
                  {"both": "b", "key": "k", "skull": "s", "invite": "inv"}, False, rev=1)
    session = new_session(row, default_content(), [])
    repeats = shaded = 0
    while True:
        got = view(session, frozenset({0, 1}), ai=None, clocks=None, token="b")["last_turn"]
        assert got == reference(session)
        assert len(got) == len(set(got))
        shaded += bool(got)
        if session.state.is_terminal:
            break
        session.apply(rng.choice(session.state.decision().options))
        squares = touched(session)
        repeats += len(squares) > len(set(squares))
    # The check meant something: turns were shaded and some decision's events touched
    # a square twice (a piece moved from and back, attacked where it stands ...).
    assert shaded > 10 and repeats > 0
