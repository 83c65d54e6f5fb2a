"""Scenario tests for the unique cards' attacks (RULES.md §7: K-Bolt … K-Rapture).

Each test sets up a position with the Builder, drives the decisions through
``state.apply`` (by notation token) and checks the exact outcome.
"""

from __future__ import annotations

import pytest

from reliquary.engine import CHANCE, KEY, SKULL

from .scenario import act, at, hp, kind, sq, turn_passed_to
from .scenario import sorted_options as options


# ---------------------------------------------------------------------- K-Bolt
def test_K_Bolt_hero_two_damage_range_two_with_los(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").minion(SKULL, "f6")
             .minion(SKULL, "d7").ruins("e5").hands(key=["Bolt", "Smite", "Hook"]).build())
    act(state, "Bolt:attack")
    assert kind(state) == "attacker" and options(state) == ["d4"]
    act(state, "d4")
    # f6 is behind the Ruin e5; d7 is at 3. A ranged line has no lunge.
    assert kind(state) == "target" and options(state) == ["d6"]
    act(state, "d6")
    assert hp(state, "d6") == 2
    assert hp(state, "f6") == 1
    assert turn_passed_to(state, SKULL)


def test_K_Bolt_hero_ignores_los_against_a_carrier_RL4(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "f6")
             .carry(KEY, "f6").ruins("e5").hands(key=["Bolt", "Smite", "Hook"]).build())
    act(state, "Bolt:attack", "d4")
    assert options(state) == ["f6"]
    act(state, "f6")
    assert at(state, "f6") is None
    assert state.relic_sq[KEY] == sq(state, "f6")  # RL3: dropped where it died
    assert state.pool[SKULL] == 1


def test_K_Bolt_minion_one_damage_adjacent_with_lunge(build):
    state = (build().hero(KEY, "a1").minion(KEY, "c3").hero(SKULL, "h8").minion(SKULL, "c4")
             .hands(key=["Bolt", "Smite", "Hook"]).build())
    act(state, "Bolt:attack")
    assert options(state) == ["c3"]  # the Hero has nothing at 2 or less
    act(state, "c3")
    assert kind(state) == "lunge"
    assert options(state) == ["b3", "b4", "d3", "d4", "pass"]
    act(state, "pass")
    assert options(state) == ["c4"]
    act(state, "c4")
    assert at(state, "c4") is None
    assert state.pool[SKULL] == 1


def test_K_Bolt_hero_kills_hero_wins_at_once(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "e6", hp=2)
             .hands(key=["Bolt", "Smite", "Hook"]).build())
    act(state, "Bolt:attack", "d4", "e6")
    assert state.is_terminal
    assert state.winner == KEY and state.result is not None
    assert state.result.reason == "hero_killed"


# ---------------------------------------------------------------------- K-Smite
def test_K_Smite_hero_one_damage_and_push_one(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d5")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4")
    assert kind(state) == "lunge"
    act(state, "pass", "d5")
    assert at(state, "d5") is None
    assert hp(state, "d6") == 3


def test_K_Smite_hero_push_blocked_crushes_for_two_G7_G8(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").ruins("d6")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 2  # 1 damage + 1 crush in the same hit
    assert state.hero(SKULL) is not None and state.hero(SKULL).sq == sq(state, "d5")


def test_K_Smite_hero_kill_means_no_push_G8(build):
    # The killed carrier drops the relic where it dies, not one square further.
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5").carry(KEY, "d5")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert at(state, "d5") is None and at(state, "d6") is None
    assert state.relic_sq[KEY] == sq(state, "d5")


def test_K_Smite_minion_push_one_diagonal_no_damage(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e5")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "e5")
    assert at(state, "e5") is None
    assert hp(state, "f6") == 1


def test_K_Smite_minion_crush_against_the_edge_kills_a_minion(build):
    state = (build().hero(KEY, "a1").minion(KEY, "g5").hero(SKULL, "a8").minion(SKULL, "h5")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "g5", "pass", "h5")
    assert at(state, "h5") is None
    assert state.pool[SKULL] == 1


def test_K_Smite_pushed_carrier_drops_relic_RL3(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5")
             .carry(KEY, "d5").hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert at(state, "d6") is not None
    assert state.relic_carrier[KEY] == -1
    assert state.relic_sq[KEY] == sq(state, "d5")


def test_K_Smite_crushed_carrier_keeps_relic_RL3(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d7").hero(SKULL, "d8").carry(KEY, "d8")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d7", "pass", "d8")
    assert hp(state, "d8") == 3  # crush only
    assert state.carrier_of(KEY) is at(state, "d8")


# ---------------------------------------------------------------------- K-Hook
def test_K_Hook_pulls_along_the_column_next_to_the_attacker(build):
    state = (build().hero(KEY, "d2").hero(SKULL, "d5")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2")
    assert kind(state) == "target"  # a ranged line: no lunge
    act(state, "d5")
    assert at(state, "d5") is None
    assert hp(state, "d3") == 4  # Hook deals no damage of its own


def test_K_Hook_pulls_along_the_nearest_line_D15(build):
    # d2→f5 is nearest the diagonal: the pull goes f5, e4, d3 and stops adjacent.
    state = (build().hero(KEY, "d2").hero(SKULL, "f5")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2", "f5")
    assert at(state, "f5") is None and at(state, "e4") is None
    assert hp(state, "d3") == 4


def test_K_Hook_stops_before_a_blocked_square_D15(build):
    state = (build().hero(KEY, "d2").minion(KEY, "d3").hero(SKULL, "d5")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2", "d5")
    assert hp(state, "d4") == 4  # moved 1: no crush


def test_K_Hook_on_an_adjacent_target_crushes_G7(build):
    state = (build().hero(KEY, "d2").hero(SKULL, "d3")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2", "d3")
    assert hp(state, "d3") == 3


def test_K_Hook_needs_a_clear_line_even_against_a_carrier_RL4(build):
    # Bolt's Hero line ignores LoS against the carrier (RL4); Hook does not.
    base = (build().hero(KEY, "d2").hero(SKULL, "h8").minion(SKULL, "d4").carry(KEY, "d4")
            .ruins("d3").hands(key=["Hook", "Bolt", "Smite"]))
    state = base.build()
    assert "Hook:attack" not in options(state)
    act(state, "Bolt:attack", "d2")
    assert options(state) == ["d4"]


def test_K_Hook_pulled_carrier_drops_relic_and_pull_picks_up_RL1(build):
    # The carrier drops Key's relic at d5; a second Skull minion pulled onto
    # Key's relic lying at d3 picks it up ("also when an enemy pull put it there").
    state = (build().hero(KEY, "d2").hero(SKULL, "h8").minion(SKULL, "d5").carry(KEY, "d5")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2", "d5")
    assert state.relic_carrier[KEY] == -1
    assert state.relic_sq[KEY] == sq(state, "d5")

    state = (build().hero(KEY, "d2").hero(SKULL, "h8").minion(SKULL, "d5").relic(KEY, "d3")
             .hands(key=["Hook", "Bolt", "Smite"]).build())
    act(state, "Hook:attack", "d2", "d5")
    assert state.carrier_of(KEY) is at(state, "d3")
    assert state.relic_sq[KEY] == -1


# ---------------------------------------------------------------------- K-Gale
def test_K_Gale_step_options_then_pushes_in_chosen_order(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "c6").minion(SKULL, "e6")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    state.events = []
    act(state, "Gale:attack", "d4")
    # Gale has its own step and no lunge; mandatory (no pass), only next to an enemy.
    assert kind(state) == "gale_step"
    assert options(state) == ["c5", "d5", "e5"]
    act(state, "d5")
    assert kind(state) == "gale_push"
    assert options(state) == ["c6", "e6"]
    act(state, "e6")  # the last one is pushed without asking
    assert at(state, "g8") is not None and not at(state, "g8").hero  # e6 → f7 → g8
    assert hp(state, "a8") == 4  # c6 → b7 → a8
    pushes = [e.data["to"] for e in state.events if e.kind == "push"]
    assert pushes == [sq(state, "g8"), sq(state, "a8")]
    assert turn_passed_to(state, SKULL)


def test_K_Gale_push_blocked_by_the_edge_crushes(build):
    state = (build().hero(KEY, "g7").hero(SKULL, "h8")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack", "g7")
    assert options(state) == ["g8", "h7"]
    act(state, "h7")
    assert hp(state, "h8") == 3


def test_K_Gale_push_stops_before_a_blocked_square(build):
    state = (build().hero(KEY, "d2").hero(SKULL, "d4").ruins("d6")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack", "d2")
    assert options(state) == ["c3", "d3", "e3"]
    act(state, "d3")
    assert hp(state, "d5") == 4  # one square, then the Ruin: no crush


def test_K_Gale_without_a_possible_step_pushes_from_where_it_stands(build):
    state = (build().hero(KEY, "a1").minion(KEY, "a2").minion(KEY, "b1").hero(SKULL, "h8")
             .minion(SKULL, "b2").hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack")
    assert options(state) == ["a1", "a2", "b1"]
    act(state, "a1")
    assert at(state, "b2") is None
    assert at(state, "d4") is not None  # b2 → c3 → d4


def test_K_Gale_illegal_without_an_enemy_in_reach_T6(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    assert "Gale:attack" not in options(state)
    assert "Gale:move" in options(state)


# ---------------------------------------------------------------------- K-Veil
def test_K_Veil_blocks_move_and_steps_on_the_owners_next_turn_only(build):
    state = (build().hero(KEY, "d4").minion(KEY, "d5").hero(SKULL, "h8").minion(SKULL, "d6")
             .hands(key=["Veil", "Bolt", "Smite"], skull=["Vault", "Procession", "Crossroads"])
             .build())
    act(state, "Veil:attack", "d4")
    assert options(state) == ["d6"]  # enemies at 2 or less with LoS
    act(state, "d6")
    assert at(state, "d6").veiled
    assert turn_passed_to(state, SKULL)
    # Skull's turn: d6 cannot be chosen to MOVE.
    moving = state.clone()
    act(moving, "Vault:move")
    assert options(moving) == ["h8"]
    act(moving, "h8", "h6")
    assert turn_passed_to(moving, KEY)
    # It can still attack; with no step allowed it has no lunge either.
    attacking = state.clone()
    act(attacking, "Crossroads:attack")
    assert options(attacking) == ["d6"]
    act(attacking, "d6")
    assert kind(attacking) == "target"
    act(attacking, "d5")
    assert at(attacking, "d5") is None
    # Procession (Escort): the only other piece is veiled, so no Escort step is asked.
    state4 = state.clone()
    act(state4, "Procession:move", "h8", "g7")
    assert turn_passed_to(state4, KEY)
    assert not at(state4, "d6").veiled  # the veil lasted Skull's one turn


def test_K_Veil_target_can_still_be_pushed(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", veiled=True)
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert at(state, "d5") is None  # 1 damage kills the Minion
    state = (build().hero(KEY, "d4").hero(SKULL, "d5", veiled=True)
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert hp(state, "d6") == 3


# ---------------------------------------------------------------------- K-Passage
def test_K_Passage_swaps_with_a_friendly_piece_each_keeps_its_relic(build):
    state = (build().hero(KEY, "d4").minion(KEY, "d7").minion(KEY, "b2").minion(KEY, "g7")
             .hero(SKULL, "h1").minion(SKULL, "e4").carry(SKULL, "d7").ruins("f6")
             .hands(key=["Passage", "Bolt", "Smite"]).build())
    act(state, "Passage:attack", "d4")
    # Friendly pieces at 3 or less with LoS (g7 is behind the Ruin f6), never enemies.
    assert options(state) == ["b2", "d7"]
    carrier = at(state, "d7")
    hero = at(state, "d4")
    act(state, "d7")
    assert at(state, "d7") is hero and at(state, "d4") is carrier
    assert state.carrier_of(SKULL) is carrier  # RL2: the carrier keeps the relic


def test_K_Passage_needs_los_to_a_friendly_carrier_D20(build):
    # D20: RL4's exception is for enemy carriers; a friendly target always needs LoS.
    state = (build().hero(KEY, "d4").minion(KEY, "g7").hero(SKULL, "h1").carry(SKULL, "g7")
             .ruins("f6").hands(key=["Passage", "Bolt", "Smite"]).build())
    assert "Passage:attack" not in options(state)
    clear = (build().hero(KEY, "d4").minion(KEY, "g7").hero(SKULL, "h1").carry(SKULL, "g7")
             .hands(key=["Passage", "Bolt", "Smite"]).build())
    act(clear, "Passage:attack", "d4")
    assert options(clear) == ["g7"]


# ---------------------------------------------------------------------- K-Aegis
def test_K_Aegis_no_damage_no_push_until_the_start_of_the_next_turn(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d5")
             .hands(key=["Aegis", "Bolt", "Crossroads"], skull=["Smite", "Hook", "Vault"])
             .build())
    act(state, "Aegis:attack")
    assert options(state) == ["d4"]
    act(state, "d4")
    assert at(state, "d4").aegis
    assert turn_passed_to(state, SKULL)
    act(state, "Smite:attack", "d5", "pass", "d4")
    assert hp(state, "d4") == 4 and at(state, "d4").hero  # no damage, no push, no crush
    assert turn_passed_to(state, KEY)
    assert not at(state, "d4").aegis  # ended at the start of Key's turn


def test_K_Aegis_is_always_legal(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .hands(key=["Aegis", "Bolt", "Crossroads"]).build())
    assert "Aegis:attack" in options(state)
    assert "Bolt:attack" not in options(state)


# ---------------------------------------------------------------------- K-Ordeal
@pytest.mark.parametrize(("face", "target_hp", "attacker_hp"), [
    (1, 4, 3), (2, 3, 4), (3, 3, 4), (4, 3, 4), (5, 2, 4), (6, 2, 4),
])
def test_K_Ordeal_each_face(build, face, target_hp, attacker_hp):
    state = (build().hero(KEY, "d4").hero(SKULL, "e6").minion(SKULL, "d7")
             .hands(key=["Ordeal", "Bolt", "Smite"]).build())
    act(state, "Ordeal:attack", "d4")
    assert options(state) == ["e6"]  # d7 is at 3
    act(state, "e6")
    decision = state.decision()
    assert decision.kind == "roll" and decision.player == CHANCE and state.is_chance
    assert decision.options == (1, 2, 3, 4, 5, 6)
    assert decision.probabilities == pytest.approx((1 / 6,) * 6)
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
    act(state, str(face))
    assert hp(state, "e6") == target_hp
    assert hp(state, "d4") == attacker_hp
    assert turn_passed_to(state, SKULL)


def test_K_Ordeal_one_can_kill_the_attacking_hero(build):
    state = (build().hero(KEY, "d4", hp=1).hero(SKULL, "e6")
             .hands(key=["Ordeal", "Bolt", "Smite"]).build())
    act(state, "Ordeal:attack", "d4", "e6", "1")
    assert state.is_terminal and state.winner == SKULL
    assert state.result.reason == "hero_killed"


# ---------------------------------------------------------------------- K-Rapture
def test_K_Rapture_low_roll_one_mandatory_step(build):
    for face in ("1", "2", "3"):
        state = (build().hero(KEY, "d4").hero(SKULL, "h8").ruins("e5")
                 .hands(key=["Rapture", "Bolt", "Smite"]).build())
        act(state, "Rapture:attack", "d4")
        assert state.decision().kind == "roll"
        assert state.decision().probabilities == pytest.approx((1 / 6,) * 6)
        act(state, face)
        assert kind(state) == "rapture_step"
        assert options(state) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4"]  # no pass
        act(state, "c5")
        assert at(state, "c5").hero
        assert turn_passed_to(state, SKULL)


def test_K_Rapture_high_roll_up_to_three_steps_D16(build):
    for face in ("4", "5", "6"):
        state = (build().hero(KEY, "d4").hero(SKULL, "h8")
                 .hands(key=["Rapture", "Bolt", "Smite"]).build())
        act(state, "Rapture:attack", "d4", face)
        assert options(state) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5", "pass"]
        act(state, "d5")
        assert kind(state) == "rapture_step"
        assert options(state) == ["c4", "c5", "c6", "d4", "d6", "e4", "e5", "e6", "pass"]
        act(state, "d6", "d7")
        assert at(state, "d7").hero
        assert turn_passed_to(state, SKULL)  # three steps at most


def test_K_Rapture_may_stop_early_D16(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8")
             .hands(key=["Rapture", "Bolt", "Smite"]).build())
    act(state, "Rapture:attack", "d4", "4", "e5", "pass")
    assert at(state, "e5").hero
    assert turn_passed_to(state, SKULL)


def test_K_Rapture_with_no_step_possible_takes_none(build):
    state = (build().hero(KEY, "a1").minion(KEY, "a2").minion(KEY, "b1").minion(KEY, "b2")
             .hero(SKULL, "h8").hands(key=["Rapture", "Bolt", "Smite"]).build())
    assert "Rapture:attack" in options(state)  # legal even so (T6)
    act(state, "Rapture:attack", "a1", "6")
    assert at(state, "a1").hero
    assert turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- RL4 with Veil, Ordeal
@pytest.mark.parametrize("card", ["Veil", "Ordeal"])
def test_K_Veil_and_K_Ordeal_ignore_los_only_against_a_carrier_RL4(build, card):
    plain = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "f6").ruins("e5")
             .hands(key=[card, "Hook", "Smite"]).build())
    assert f"{card}:attack" not in options(plain)  # f6 is behind the Ruin e5
    carrier = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "f6").carry(KEY, "f6")
               .ruins("e5").hands(key=[card, "Hook", "Smite"]).build())
    act(carrier, f"{card}:attack", "d4")
    assert options(carrier) == ["f6"]
