"""Notation: squares named like chess, one token per decision, parsed and formatted round-trip."""

from __future__ import annotations

import random

import pytest

from reliquary import new_game
from reliquary.engine import (
    Geometry,
    IllegalOptionError,
    NotationError,
    Play,
    Settings,
    State,
    Step,
    format_option,
    parse_option,
    read_option,
)


def test_square_names_from_keys_back_row() -> None:
    g = Geometry.of(12)
    assert g.name(0) == "a1" and g.name(11) == "l1" and g.name(143) == "l12"
    assert all(g.parse(g.name(sq)) == sq for sq in range(g.area))


@pytest.mark.parametrize("bad", ["", "z1", "a0", "a13", "1a", "aa", "a-1"])
def test_bad_square_names_raise(bad: str) -> None:
    with pytest.raises(ValueError):
        Geometry.of(12).parse(bad)


@pytest.mark.parametrize("size", [8, 9, 10, 11, 12])
def test_every_option_round_trips_through_its_token(content, size: int) -> None:
    rng = random.Random(size)
    for _ in range(3):
        state = State(content, Settings(size=size))
        while not state.is_terminal:
            decision = state.decision()
            for option in decision.options:
                token = format_option(state, option)
                assert read_option(state, decision.kind, token) == option
                assert " " not in token
            state.apply(rng.choice(decision.options))


def test_token_shapes(content) -> None:
    state = new_game()
    assert format_option(state, Play("Bolt", "attack")) == "Bolt:attack"
    assert format_option(state, Step(2, 10)) == "c1-c2"
    assert format_option(state, "pass") == "pass"
    assert read_option(state, "escort", "c1-c2") == Step(2, 10)
    assert read_option(state, "roll", "5") == 5


def test_parse_option_rejects_illegal_and_malformed() -> None:
    state = new_game()
    with pytest.raises(IllegalOptionError, match="'a1' is not legal for the 'ruin' decision"):
        parse_option(state, "a1")  # S2: never in a back row
    with pytest.raises(NotationError, match="not a square name"):
        parse_option(state, "Bolt:attack")
    with pytest.raises(NotationError):
        read_option(state, "play", "Bolt-attack")
    with pytest.raises(NotationError):
        read_option(state, "escort", "c1c2")
