"""Scenario tests for RULES.md §4, setup (S1–S7), played through ``reliquary.new_game``."""

from __future__ import annotations

import pytest

import reliquary
from reliquary.engine import (
    CHANCE,
    KEY,
    SKULL,
    State,
)
from reliquary.engine.visibility import position_for

from .scenario import act, options


def squares(state: State, names: list[str]) -> set[int]:
    return {state.geometry.parse(n) for n in names}


def row(size: int, rank: int) -> list[str]:
    return [f"{'abcdefghijkl'[f]}{rank}" for f in range(size)]


def past_ruins(state: State) -> None:
    """Mark the first offered pair until the factions are asked."""
    while state.decision().kind == "ruin":
        state.apply(state.legal_options()[0])


def deal(state: State, key: list[str], skull: list[str], waiting: str) -> None:
    assert state.decision().kind == "faction"
    act(state, "pyre-choir", "bone-wardens")
    for card in [*key, *skull, waiting]:
        assert state.decision().kind == "deal"
        act(state, card)


KEY_HAND = ["Pilgrim", "Crossroads", "Sidewind"]
SKULL_HAND = ["Vault", "Litany", "Procession"]


# --------------------------------------------------------------------------- S1
def test_S1_back_rows_and_halves_on_an_odd_board(content):
    """S1: your back row is the row nearest you; your half is your side of the centre; on
    an odd board the central row belongs to nobody (so no relic can be placed there)."""
    state = reliquary.new_game(size=9, content=content)
    past_ruins(state)
    deal(state, KEY_HAND, SKULL_HAND, "Requiem")  # Requiem: Key seal, Key first
    act(state, "Exhumation", "Harrow")
    while state.decision().kind == "deploy":
        player = state.current_player
        if not any(p.owner == player for p in state.pieces.values()):
            back = set(row(9, 1 if player == KEY else 9))  # the row nearest the player
            assert back <= set(options(state))
        state.apply(state.legal_options()[0])
    assert state.decision().kind == "relic" and state.current_player == KEY
    key_relic = set(options(state))
    act(state, sorted(key_relic)[0])
    skull_relic = set(options(state))
    ranks_key = {int(n[1:]) for n in key_relic}
    ranks_skull = {int(n[1:]) for n in skull_relic}
    assert ranks_key == {2, 3, 4} and ranks_skull == {6, 7, 8}  # rank 5: nobody's


# --------------------------------------------------------------------------- S2
@pytest.mark.parametrize("size", [8, 9, 10, 11, 12])
def test_S2_ruins_are_mirrored_pairs_never_on_back_rows_or_the_centre(content, size):
    """S2: taking turns, Key first, each player marks a pair — a square and its mirror
    through the centre — until the table's total; never a back row, never the centre."""
    state = reliquary.new_game(size=size, content=content)
    geo = state.geometry
    area = size * size
    expected_first = set(range(size, area - size)) - {geo.mirror(sq) for sq in range(area)
                                                       if geo.mirror(sq) == sq}
    assert set(state.legal_options()) == expected_first
    if size % 2:
        assert (area - 1) // 2 not in state.legal_options()  # the exact centre
    total = content.board_row(size).ruins
    players = []
    marked: set[int] = set()
    while state.decision().kind == "ruin":
        players.append(state.current_player)
        offered = set(state.legal_options())
        assert offered == expected_first - marked
        choice = sorted(offered)[len(offered) // 3]
        state.apply(choice)
        marked |= {choice, geo.mirror(choice)}
    assert players == [KEY, SKULL, KEY, SKULL, KEY, SKULL, KEY, SKULL][:total // 2]
    ruins = {sq for sq in range(area) if state.is_ruin(sq)}
    assert ruins == marked and len(ruins) == total
    assert all(geo.mirror(sq) in ruins for sq in ruins)


def test_S2_a_marked_pair_is_exactly_the_square_and_its_mirror(content):
    """S2: marking b3 on 8×8 makes b3 and its mirror g6 Ruins; neither is offered again."""
    state = reliquary.new_game(size=8, content=content)
    act(state, "b3")
    assert state.is_ruin(state.geometry.parse("b3")) and state.is_ruin(state.geometry.parse("g6"))
    assert state.current_player == SKULL
    assert "b3" not in options(state) and "g6" not in options(state)
    assert len(state.legal_options()) == 46


# --------------------------------------------------------------------------- S3
def test_S3_factions_are_chosen_in_secret_and_revealed_together(content):
    """S3: each player chooses one of the nine in secret; both are revealed together."""
    state = reliquary.new_game(content=content)
    past_ruins(state)
    assert options(state) == [f.id for f in content.factions] and len(content.factions) == 9
    act(state, "grave-tide")
    assert state.current_player == SKULL
    assert state.factions == [None, None]
    assert position_for(state, SKULL)["secret_factions"]["key"] == "hidden"
    assert position_for(state, KEY)["secret_factions"]["key"] == "grave-tide"
    act(state, "hollow-kin")
    assert state.factions == ["grave-tide", "hollow-kin"]
    assert state.decision().kind == "deal"


def test_S3_a_clash_makes_both_choose_again(content):
    """S3: if they are the same, both choose again (Key first, nothing kept)."""
    state = reliquary.new_game(content=content)
    past_ruins(state)
    state.events = []
    act(state, "storm-sworn", "storm-sworn")
    assert [e.kind for e in state.events] == ["faction_clash"]
    assert state.decision().kind == "faction" and state.current_player == KEY
    assert state.factions == [None, None] and state.secret_faction == [None, None]
    act(state, "storm-sworn", "ash-reapers")
    assert state.factions == ["storm-sworn", "ash-reapers"]


# --------------------------------------------------------------------------- S4
@pytest.mark.parametrize(("waiting", "first"), [("Gale", KEY), ("Requiem", KEY),
                                                 ("Bolt", SKULL), ("Rapture", SKULL)])
def test_S4_deal_three_each_one_waiting_and_its_seal_names_the_first_player(
        content, waiting, first):
    """S4: deal 7 face up: 3 to each player and 1 aside as the waiting card; the player
    whose emblem matches the waiting card's seal goes first; the Vigil starts at 6."""
    state = reliquary.new_game(content=content)
    past_ruins(state)
    act(state, "pyre-choir", "gallows-court")
    seen: list[str] = []
    for card in [*KEY_HAND, *SKULL_HAND, waiting]:
        assert state.is_chance and state.current_player == CHANCE
        offered = options(state)
        assert len(offered) == 18 - len(seen) and not set(offered) & set(seen)
        probs = state.decision().probabilities
        assert probs == tuple([1 / len(offered)] * len(offered))
        act(state, card)
        seen.append(card)
    assert state.hands == [KEY_HAND, SKULL_HAND] and state.waiting == waiting
    assert state.first == first and state.vigil == 6
    assert state.decision().kind == "rite" and state.current_player == 1 - first


# --------------------------------------------------------------------------- S5
def test_S5_second_player_drafts_a_rite_first_and_the_last_is_out(content):
    """S5: the second player picks one of the three rites first, then the first player
    one of the two left; the last is out of the game."""
    state = reliquary.new_game(content=content)
    past_ruins(state)
    deal(state, KEY_HAND, SKULL_HAND, "Bolt")  # Skull seal: Skull first, Key second
    assert state.first == SKULL
    assert state.current_player == KEY
    assert options(state) == ["Exhumation", "Desecration", "Harrow"]
    act(state, "Desecration")
    assert state.current_player == SKULL
    assert options(state) == ["Exhumation", "Harrow"]
    act(state, "Harrow")
    assert state.rites == ["Desecration", "Harrow"] and state.rite_draft == []
    assert state.decision().kind == "deploy" and state.current_player == SKULL


# --------------------------------------------------------------------------- S6
@pytest.mark.parametrize("size", [8, 10, 11])
def test_S6_deployment_alternates_from_the_first_player_hero_last(content, size):
    """S6: the first player starts; alternately, one piece at a time, each in their own
    deployment rows, never on a Ruin or another piece; each Hero is placed last."""
    state = reliquary.new_game(size=size, content=content)
    past_ruins(state)
    deal(state, KEY_HAND, SKULL_HAND, "Bolt")  # Skull first
    act(state, "Exhumation", "Harrow")
    rows = content.board_row(size)
    deploy = {KEY: set(), SKULL: set()}
    for r in range(rows.deploy_rows):
        deploy[KEY] |= squares(state, row(size, 1 + r))
        deploy[SKULL] |= squares(state, row(size, size - r))
    order = []
    while state.decision().kind == "deploy":
        player = state.current_player
        order.append(player)
        taken = {p.sq for p in state.pieces.values()}
        ruins = {sq for sq in range(size * size) if state.is_ruin(sq)}
        assert set(state.legal_options()) == deploy[player] - taken - ruins
        state.apply(max(state.legal_options()) if player == SKULL else
                    min(state.legal_options()))
        placed = [p for p in state.pieces.values() if p.owner == player]
        newest = max(placed, key=lambda p: p.id)
        assert newest.hero == (len(placed) == rows.minions + 1)
    n = rows.minions + 1
    assert order == [SKULL, KEY] * n
    for player in (KEY, SKULL):
        own = [p for p in state.pieces.values() if p.owner == player]
        assert len(own) == n and sum(p.hero for p in own) == 1


def test_S6_deployment_skips_ruins_in_the_second_row(content):
    """S6: never on a Ruin: a Ruin in Key's second row is not offered."""
    state = reliquary.new_game(size=8, content=content)
    act(state, "c2", "a3")  # Ruins c2+f7, a3+h6
    deal(state, KEY_HAND, SKULL_HAND, "Gale")
    act(state, "Harrow", "Exhumation")
    offered = set(options(state))
    assert offered == set(row(8, 1) + row(8, 2)) - {"c2"}
    act(state, "d2")
    assert set(options(state)) == set(row(8, 8) + row(8, 7)) - {"f7"}


# --------------------------------------------------------------------------- S7
def test_S7_relics_go_on_an_empty_square_of_ones_own_half_not_back_row_nor_ruin(content):
    """S7: the first player starts; each places their own relic on an empty square of
    their own half, not in their back row and not on a Ruin."""
    state = reliquary.new_game(size=8, content=content)
    act(state, "c2", "d3")  # Ruins c2+f7, d3+e6
    deal(state, KEY_HAND, SKULL_HAND, "Bolt")  # Skull first
    act(state, "Exhumation", "Harrow")
    skull_squares = ["a8", "b7", "c7", "d7", "b8", "c8", "d8", "e8"]
    key_squares = ["a2", "b2", "d2", "e2", "a1", "b1", "c1", "d1"]
    while state.decision().kind == "deploy":
        mine = skull_squares if state.current_player == SKULL else key_squares
        act(state, mine.pop(0))
    assert state.decision().kind == "relic" and state.current_player == SKULL
    expected_skull = (set(row(8, 5) + row(8, 6) + row(8, 7))
                      - {"e6", "f7", "b7", "c7", "d7"})
    assert set(options(state)) == expected_skull
    act(state, "a7")
    assert state.current_player == KEY
    expected_key = set(row(8, 2) + row(8, 3) + row(8, 4)) - {"c2", "d3", "a2", "b2", "d2", "e2"}
    assert set(options(state)) == expected_key
    act(state, "h4")
    assert state.relic_sq == [state.geometry.parse("h4"), state.geometry.parse("a7")]
    assert state.relic_carrier == [-1, -1]
    decision = state.decision()
    assert decision.kind == "play" and decision.player == SKULL
