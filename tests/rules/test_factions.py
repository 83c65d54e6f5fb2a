"""Scenario tests for the nine factions of RULES.md §8: each row's Hero line, Minion
line and passive, played through a generic card's «ATAQUE DE FACCIÓN»."""

from __future__ import annotations

import pytest

import reliquary
from reliquary.engine import KEY, SKULL

from .scenario import act, at, hp, kind, turn_passed_to
from .scenario import sorted_options as options


# ---------------------------------------------------------------------- Pyre Choir
def test_faction_Pyre_Choir_hero_two_damage_range_two_los(build):
    state = (build(factions=("pyre-choir", "bone-wardens")).hero(KEY, "d4").hero(SKULL, "f6")
             .minion(SKULL, "d7").minion(SKULL, "b6").ruins("c5").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["f6"]  # d7 at 3; b6 behind the Ruin c5
    act(state, "f6")
    assert hp(state, "f6") == 3  # Bone Wardens Hero: 5 HP


def test_faction_Pyre_Choir_minion_one_damage_adjacent(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e5")
             .build())
    act(state, "Pilgrim:attack", "d4", "pass", "e5")
    assert at(state, "e5") is None and state.pool[SKULL] == 1


def test_faction_Pyre_Choir_no_passive_hero_has_4_hp(build):
    state = build().hero(KEY, "a1").hero(SKULL, "h8").build()
    assert at(state, "a1").hp == 4 and state.faction(KEY).passive == "none"


# ---------------------------------------------------------------------- Bone Wardens
def test_faction_Bone_Wardens_hero_damage_and_push(build):
    state = (build(factions=("bone-wardens", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "e4")
             .build())
    act(state, "Pilgrim:attack", "d4", "pass", "e4")
    assert hp(state, "f4") == 3


def test_faction_Bone_Wardens_hero_crush_G7(build):
    state = (build(factions=("bone-wardens", "pyre-choir")).hero(KEY, "g4").hero(SKULL, "h4")
             .build())
    act(state, "Pilgrim:attack", "g4", "pass", "h4")
    assert hp(state, "h4") == 2


def test_faction_Bone_Wardens_minion_push_only(build):
    state = (build(factions=("bone-wardens", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert hp(state, "d6") == 4


def test_faction_Bone_Wardens_passive_hero_5_hp_from_deployment(content):
    state = reliquary.new_game(content=content)
    while state.decision().kind == "ruin":
        state.apply(state.legal_options()[0])
    act(state, "bone-wardens", "pyre-choir")
    for card in ("Bolt", "Smite", "Hook", "Gale", "Veil", "Passage", "Aegis"):
        act(state, card)
    while state.decision().kind != "play":
        state.apply(state.legal_options()[0])
    heroes = {p.owner: p for p in state.pieces.values() if p.hero}
    assert (heroes[KEY].hp, heroes[KEY].max_hp) == (5, 5)
    assert (heroes[SKULL].hp, heroes[SKULL].max_hp) == (4, 4)


def test_faction_Bone_Wardens_hero_has_5_hp_in_play(build):
    state = (build(factions=("pyre-choir", "bone-wardens")).hero(KEY, "d4").hero(SKULL, "d6")
             .build())
    assert hp(state, "d6") == 5
    act(state, "Pilgrim:attack", "d4", "d6")
    assert hp(state, "d6") == 3 and not state.is_terminal


# ---------------------------------------------------------------------- Veiled Hand
def test_faction_Veiled_Hand_hero_damage_then_mandatory_step(build):
    state = (build(factions=("veiled-hand", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d5")
             .build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 3
    assert kind(state) == "after_step"
    assert options(state) == ["c3", "c4", "c5", "d3", "e3", "e4", "e5"]  # no pass
    act(state, "e3")
    assert at(state, "e3").hero
    assert turn_passed_to(state, SKULL)


def test_faction_Veiled_Hand_minion_one_damage_adjacent_no_step(build):
    state = (build(factions=("veiled-hand", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 3
    assert turn_passed_to(state, SKULL)
    assert at(state, "d4") is not None


# ---------------------------------------------------------------------- Grave Tide
def test_faction_Grave_Tide_hero_one_damage_range_two_los(build):
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "f6")
             .minion(SKULL, "b6").ruins("c5").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["f6"]
    act(state, "f6")
    assert hp(state, "f6") == 3


def test_faction_Grave_Tide_minion_kill_step_into_freed_square(build):
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "h8").minion(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert kind(state) == "kill_step"
    assert options(state) == ["d5", "pass"]
    act(state, "d5")
    assert at(state, "d5") is not None and at(state, "d5").owner == KEY
    assert at(state, "d4") is None
    assert turn_passed_to(state, SKULL)


def test_faction_Grave_Tide_kill_step_onto_a_guarded_relic_picks_it_up_RL1(build):
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "h8").minion(SKULL, "d5").relic(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5", "d5")
    assert state.carrier_of(SKULL) is at(state, "d5")


def test_faction_Grave_Tide_minion_no_kill_no_step(build):
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 3
    assert turn_passed_to(state, SKULL)


def test_faction_Grave_Tide_passive_returns_first_killed_minion_victim_decides(build):
    state = (build(factions=("pyre-choir", "grave-tide")).hero(KEY, "d4").hero(SKULL, "e8")
             .minion(SKULL, "d6").minion(SKULL, "c8").minion(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "d6")
    decision = state.decision()
    assert decision.kind == "grave_return" and decision.player == SKULL
    assert options(state) == ["a8", "b8", "d8", "f8", "g8", "h8"]
    act(state, "a8")
    returned = at(state, "a8")
    assert returned is not None and returned.owner == SKULL and returned.hp == 1
    assert state.pool[SKULL] == 0 and state.is_spent(SKULL, "grave_return")
    assert turn_passed_to(state, SKULL)
    # Once per game: the next killed Minion waits in the pool.
    act(state, "Vault:move", "e8", "e6")
    act(state, "Crossroads:attack", "d4")
    act(state, "d5")
    assert turn_passed_to(state, SKULL)
    assert state.pool[SKULL] == 1


# ---------------------------------------------------------------------- Storm Sworn
def test_faction_Storm_Sworn_hero_push_2(build):
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d6")
             .build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert hp(state, "d8") == 3


def test_faction_Storm_Sworn_hero_push_along_nearest_line_G6(build):
    # d4→f5 is nearest the diagonal: f5 → g6 → h7.
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "f5")
             .build())
    act(state, "Pilgrim:attack", "d4", "f5")
    assert hp(state, "h7") == 3


def test_faction_Storm_Sworn_hero_partial_push_no_crush_then_full_crush(build):
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d6")
             .ruins("d8").build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert hp(state, "d7") == 3  # moved 1 of 2: no crush
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "d6").hero(SKULL, "d8")
             .build())
    act(state, "Pilgrim:attack", "d6", "d8")
    assert hp(state, "d8") == 2  # 1 damage + 1 crush against the edge


def test_faction_Storm_Sworn_minion_push_1_adjacent(build):
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "c5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "c5")
    assert hp(state, "b6") == 4


# ---------------------------------------------------------------------- Lantern Bearers
def test_faction_Lantern_Bearers_hero_one_damage_range_three(build):
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d7")
             .minion(SKULL, "h8").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["d7"]
    act(state, "d7")
    assert hp(state, "d7") == 3


def test_faction_Lantern_Bearers_minion_one_damage_adjacent(build):
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "e4").build())
    act(state, "Pilgrim:attack", "d4", "pass", "e4")
    assert hp(state, "e4") == 3


def test_faction_Lantern_Bearers_passive_step_after_a_move(build):
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "c4")
             .carry(SKULL, "c4").hero(SKULL, "h8").build())
    act(state, "Pilgrim:move", "c4", "c5")
    assert kind(state) == "escort"
    act(state, "pass")
    assert kind(state) == "lantern_step"  # a card's MOVE is not a step
    assert options(state) == ["b4", "b5", "b6", "c4", "c6", "d4", "d5", "d6", "pass"]
    act(state, "d6")
    assert state.carrier_of(SKULL) is at(state, "d6")
    assert turn_passed_to(state, SKULL)


def test_faction_Lantern_Bearers_passive_not_after_a_step(build):
    # The carrier took the Escort step: no Lantern step.
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "c4")
             .carry(SKULL, "c4").hero(SKULL, "h8").build())
    act(state, "Pilgrim:move", "a1", "a2", "c4-c5")
    assert turn_passed_to(state, SKULL)
    # The carrier lunged: that was a step too.
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "c4")
             .carry(SKULL, "c4").hero(SKULL, "e6").build())
    act(state, "Pilgrim:attack", "c4", "d5", "e6")
    assert hp(state, "e6") == 3
    assert turn_passed_to(state, SKULL)


def test_faction_Lantern_Bearers_passive_only_for_the_carrier_and_may_pass(build):
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "c4")
             .carry(SKULL, "c4").hero(SKULL, "h8").build())
    act(state, "Crossroads:move", "a1", "b1", "pass")
    assert at(state, "c4") is not None and state.carrier_of(SKULL) is at(state, "c4")
    assert turn_passed_to(state, SKULL)
    # No carrier: no decision. Other factions: no decision.
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "c4")
             .hero(SKULL, "h8").build())
    act(state, "Crossroads:move", "c4", "c5")
    assert turn_passed_to(state, SKULL)
    state = (build(factions=("pyre-choir", "lantern-bearers")).hero(KEY, "a1").minion(KEY, "c4")
             .carry(SKULL, "c4").hero(SKULL, "h8").build())
    act(state, "Crossroads:move", "c4", "c5")
    assert turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- Gallows Court
def test_faction_Gallows_Court_hero_damage_and_pull_2(build):
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "b2").hero(SKULL, "e5")
             .minion(SKULL, "b6").build())
    act(state, "Pilgrim:attack", "b2")
    assert options(state) == ["e5"]  # b6 is at 4
    act(state, "e5")
    assert hp(state, "c3") == 3  # e5 → d4 → c3


def test_faction_Gallows_Court_hero_pull_adjacent_crushes(build):
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "b2").hero(SKULL, "c3")
             .build())
    act(state, "Pilgrim:attack", "b2", "c3")
    assert hp(state, "c3") == 2


def test_faction_Gallows_Court_minion_pull_1_at_2_los(build):
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d2")
             .hero(SKULL, "d4").minion(SKULL, "f4").ruins("e3").build())
    act(state, "Pilgrim:attack", "d2")
    assert options(state) == ["d4"]  # f4 behind the Ruin e3
    act(state, "d4")
    assert hp(state, "d3") == 4  # pull only, no damage
    # Against an adjacent Minion the pull crushes it.
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d2")
             .hero(SKULL, "h8").minion(SKULL, "d3").build())
    act(state, "Pilgrim:attack", "d2", "d3")
    assert at(state, "d3") is None and state.pool[SKULL] == 1


# ---------------------------------------------------------------------- Ash Reapers
def test_faction_Ash_Reapers_hero_second_target(build):
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d5")
             .minion(SKULL, "e5").minion(SKULL, "c3").minion(SKULL, "f6").build())
    act(state, "Pilgrim:attack", "d4", "pass")
    assert options(state) == ["c3", "d5", "e5"]
    act(state, "d5")
    assert hp(state, "d5") == 3
    assert kind(state) == "second_target"
    assert options(state) == ["c3", "e5", "pass"]
    act(state, "e5")
    assert at(state, "e5") is None and state.pool[SKULL] == 1
    assert turn_passed_to(state, SKULL)


def test_faction_Ash_Reapers_hero_second_target_is_optional(build):
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d5")
             .minion(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "e5", "pass")
    assert hp(state, "d5") == 4 and at(state, "e5") is None
    assert turn_passed_to(state, SKULL)
    # With a single enemy there is no second-target decision.
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d5")
             .build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert turn_passed_to(state, SKULL)


def test_faction_Ash_Reapers_minion_single_target(build):
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "d5").minion(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 3 and hp(state, "e5") == 1
    assert turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- Hollow Kin
def test_faction_Hollow_Kin_hero_damage_then_swap_targets(build):
    state = (build(factions=("hollow-kin", "pyre-choir")).hero(KEY, "d4").minion(KEY, "b4")
             .minion(KEY, "d6").minion(KEY, "f6").minion(KEY, "g4").hero(SKULL, "h8")
             .minion(SKULL, "c5").carry(SKULL, "d4").ruins("e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "c5")
    assert at(state, "c5") is None
    assert kind(state) == "swap"
    # Friendly Minions at 2 or less with LoS: f6 is behind the Ruin e5, g4 at 3.
    assert options(state) == ["b4", "d6", "pass"]
    hero = at(state, "d4")
    minion = at(state, "d6")
    act(state, "d6")
    assert at(state, "d6") is hero and at(state, "d4") is minion
    assert state.carrier_of(SKULL) is hero  # each keeps its relic
    assert turn_passed_to(state, SKULL)


def test_faction_Hollow_Kin_hero_swap_is_optional(build):
    state = (build(factions=("hollow-kin", "pyre-choir")).hero(KEY, "d4").minion(KEY, "b4")
             .hero(SKULL, "c5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "c5", "pass")
    assert at(state, "d4").hero and hp(state, "c5") == 3
    assert turn_passed_to(state, SKULL)


def test_faction_Hollow_Kin_minion_one_damage_adjacent(build):
    state = (build(factions=("hollow-kin", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .minion(KEY, "b4").hero(SKULL, "c5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "c5")
    assert hp(state, "c5") == 3
    assert turn_passed_to(state, SKULL)  # the swap belongs to the Hero line only


# ---------------------------------------------------------------------- rows without a passive
@pytest.mark.parametrize("faction", [
    "pyre-choir", "veiled-hand", "storm-sworn", "gallows-court", "ash-reapers", "hollow-kin",
])
def test_faction_passive_none(build, faction):
    """§8 rows whose passive is «—» (Pyre Choir, Veiled Hand, Storm Sworn, Gallows Court,
    Ash Reapers, Hollow Kin): a 4 HP Hero, no return of a killed Minion, no carrier step."""
    state = (build(factions=("bone-wardens", faction)).hero(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "d5").minion(SKULL, "b3").carry(KEY, "b3").to_move(KEY).build())
    assert hp(state, "h8") == 4
    act(state, "Pilgrim:attack", "d4", "pass", "d5")  # Bone Wardens Hero: 1 damage kills it
    assert turn_passed_to(state, SKULL) and state.pool[SKULL] == 1
    act(state, "Litany:move", "b3", "b4")
    assert turn_passed_to(state, KEY)  # no Lantern step for the carrier
    assert state.carrier_of(KEY) is at(state, "b4")
