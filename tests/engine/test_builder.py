"""The Builder sets up legal positions only: no card dealt twice, no piece on a piece."""

from __future__ import annotations

import pytest

from reliquary.engine import KEY, SKULL


def test_a_card_dealt_twice_is_refused(build) -> None:
    with pytest.raises(ValueError, match=r"cards dealt twice .*'Bolt'"):
        build().hero(KEY, "a1").hero(SKULL, "h8").hands(
            key=["Bolt", "Hook", "Gale"], skull=["Bolt", "Veil", "Aegis"]).build()


def test_default_hands_give_way_to_chosen_cards(build) -> None:
    state = build().hero(KEY, "a1").hero(SKULL, "h8").hands(
        skull=["Pilgrim", "Vault", "Bolt"], waiting="Crossroads").build()
    dealt = [*state.hands[KEY], *state.hands[SKULL], state.waiting]
    assert len(set(dealt)) == 7
    assert state.hands[SKULL] == ["Pilgrim", "Vault", "Bolt"] and state.waiting == "Crossroads"


def test_two_pieces_on_one_square_are_refused(build) -> None:
    with pytest.raises(ValueError, match="d4 is not empty"):
        build().hero(KEY, "d4").minion(SKULL, "d4")
