"""Scenario tests for the rites of RULES.md §9 (Exhumation, Desecration, Harrow) and the
RITE mode (T5): once per game, with any card, the card still waits, the Vigil goes to 6."""

from __future__ import annotations

from reliquary.engine import KEY, SKULL, State

from .scenario import act, at, kind, sq, turn_passed_to
from .scenario import sorted_options as options


def minions(state: State, owner: int) -> int:
    return sum(1 for p in state.pieces.values() if p.owner == owner and not p.hero)


# ---------------------------------------------------------------------- Exhumation
def test_rite_Exhumation_places_a_new_minion_on_the_back_row(build):
    state = (build().hero(KEY, "d1").minion(KEY, "a1").minion(KEY, "c4").minion(KEY, "e4")
             .hero(SKULL, "h8").rites(key="Exhumation").set(vigil=2).build())
    # Any card can carry the rite (T5).
    assert {"Pilgrim:rite", "Crossroads:rite", "Sidewind:rite"} <= set(options(state))
    act(state, "Sidewind:rite")
    assert kind(state) == "rite_effect"
    assert options(state) == ["b1", "c1", "e1", "f1", "g1", "h1"]
    assert state.vigil == 6 and state.rites[KEY] is None
    act(state, "g1")
    new = at(state, "g1")
    assert new is not None and new.owner == KEY and not new.hero and new.hp == 1
    assert not new.harrowed
    # D17: the supply is unlimited (three Minions already on the board, empty pool).
    assert minions(state, KEY) == 4 and state.pool[KEY] == 0
    # The played card still becomes the waiting card (T5).
    assert state.waiting == "Sidewind" and "Requiem" in state.hands[KEY]
    assert turn_passed_to(state, SKULL)
    # The round ends with the Vigil at 6 (D7), and the rite is gone for good.
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 6 and state.rounds == 1
    assert not any(option.endswith(":rite") for option in options(state))


def test_rite_Exhumation_needs_an_empty_back_row_square_T6(build):
    builder = build().hero(KEY, "a1").hero(SKULL, "h8").rites(key="Exhumation")
    for file in "bcdefgh":
        builder.minion(KEY, f"{file}1")
    state = builder.build()
    assert not any(option.endswith(":rite") for option in options(state))


def test_rite_Exhumation_placed_minion_picks_nothing_up_RL5(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").relic(SKULL, "c1")
             .rites(key="Exhumation").build())
    act(state, "Pilgrim:rite", "c1")
    assert at(state, "c1") is not None
    assert state.relic_carrier[SKULL] == -1 and state.relic_sq[SKULL] == sq(state, "c1")


# ---------------------------------------------------------------------- Desecration
def test_rite_Desecration_removes_a_ruin_of_your_half_and_places_a_minion(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").ruins("c3", "f6", "b4", "e5")
             .rites(key="Desecration").set(vigil=3).build())
    act(state, "Crossroads:rite")
    assert options(state) == ["b4", "c3"]  # only Ruins in Key's half
    act(state, "c3")
    new = at(state, "c3")
    assert new is not None and new.owner == KEY and not new.hero and new.hp == 1
    assert not state.is_ruin(sq(state, "c3")) and not (state.ruins >> sq(state, "c3")) & 1
    assert state.is_ruin(sq(state, "f6")) and state.is_ruin(sq(state, "b4"))
    assert state.vigil == 6 and state.rites[KEY] is None
    assert turn_passed_to(state, SKULL)


def test_rite_Desecration_needs_a_ruin_in_your_half_T6(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").ruins("f6")
             .rites(key="Desecration").build())
    assert not any(option.endswith(":rite") for option in options(state))


def test_rite_Desecration_for_skull_uses_skulls_half(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").ruins("c3", "f6")
             .rites(skull="Desecration").to_move(SKULL).build())
    act(state, "Vault:rite")
    assert options(state) == ["f6"]
    act(state, "f6")
    assert at(state, "f6").owner == SKULL


# ---------------------------------------------------------------------- Harrow
def test_rite_Harrow_takes_a_killed_enemy_minion_to_fight_for_you_D10(build):
    state = (build().hero(KEY, "d1").hero(SKULL, "h8").minion(SKULL, "c3")
             .rites(key="Harrow").pools(skull=1).hands(key=["Pilgrim", "Bolt", "Smite"])
             .build())
    act(state, "Pilgrim:rite")
    assert options(state) == ["a1", "b1", "c1", "e1", "f1", "g1", "h1"]
    act(state, "b1")
    harrowed = at(state, "b1")
    assert harrowed is not None and harrowed.owner == KEY and harrowed.harrowed
    assert state.pool == [0, 0] and state.vigil == 6
    assert turn_passed_to(state, SKULL)
    act(state, "Vault:move", "h8", "h6")
    # It fights under Key's emblem (Bolt's Minion line, 1 damage adjacent, with lunge).
    act(state, "Bolt:attack", "b1", "b2", "c3")
    assert at(state, "c3") is None and state.pool[SKULL] == 1


def test_rite_Harrow_killed_harrowed_minion_leaves_the_game_D10(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "d5", harrowed=True)
             .minion(KEY, "d4").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert at(state, "d5") is None
    assert state.pool == [0, 0]


def test_rite_Harrow_needs_a_killed_enemy_minion_T6(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").rites(key="Harrow").pools(key=2)
             .build())
    assert not any(option.endswith(":rite") for option in options(state))
    assert "Pilgrim:regroup" in options(state)  # its own pool is for Regroup
