"""Small helpers shared by the scenario tests: drive a state by notation tokens, look at it."""

from __future__ import annotations

from reliquary.engine import Piece, State, format_option, parse_option


def act(state: State, *tokens: str) -> None:
    """Apply each token as an option of the current decision (checked legal)."""
    for token in tokens:
        state.apply(parse_option(state, token))


def options(state: State) -> list[str]:
    """The current options as tokens, in the engine's order."""
    return [format_option(state, o) for o in state.legal_options()]


def sorted_options(state: State) -> list[str]:
    return sorted(options(state))


def at(state: State, square: str) -> Piece | None:
    return state.piece_at(state.geometry.parse(square))


def hp(state: State, square: str) -> int:
    piece = at(state, square)
    assert piece is not None, f"no piece at {square}"
    return piece.hp


def kind(state: State) -> str:
    return state.decision().kind


def sq(state: State, square: str) -> int:
    return state.geometry.parse(square)


def turn_passed_to(state: State, player: int) -> bool:
    return state.decision().kind == "play" and state.current_player == player
