"""Scenario tests for RULES.md §6, the Vigil and the end (V1–V3)."""

from __future__ import annotations

import pytest

from reliquary.engine import KEY, SKULL, State

from .scenario import act, at


# --------------------------------------------------------------------------- V1
def test_V1_a_quiet_round_counts_the_vigil_down_only_at_the_end_of_the_round(build):
    """V1: a round is the first player's turn followed by the second's; at its end, if
    nothing happened, the Vigil goes down by 1."""
    state = build().hero(KEY, "a1").hero(SKULL, "h8").build()
    assert state.first == KEY and state.vigil == 6
    act(state, "Pilgrim:move", "a1", "a2")
    assert state.vigil == 6  # Key's turn alone is not a round
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 5 and state.rounds == 1
    act(state, "Crossroads:move", "a2", "b2")
    act(state, "Litany:move", "h6", "h7")
    assert state.vigil == 4


def test_V1_the_round_ends_after_the_second_player_when_skull_goes_first(build):
    """V1: with Skull first, the round ends after Key's turn."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").set(first=SKULL).to_move(SKULL)
             .build())
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 6
    act(state, "Pilgrim:move", "a1", "a2")
    assert state.vigil == 5


def test_V1_hp_lost_resets_the_vigil_to_6(build):
    """V1: if HP was lost during the round, the Vigil is set to 6."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(vigil=3).build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert state.vigil == 3
    act(state, "Vault:move", "d6", "e7")
    assert state.vigil == 6


def test_V1_your_own_hp_lost_counts_too(build):
    """V1: any HP lost counts, your own too (Ordeal's 1)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(vigil=2)
             .hands(key=["Ordeal", "Pilgrim", "Sidewind"]).build())
    act(state, "Ordeal:attack", "d4", "d6")
    state.apply(1)
    assert state.hero(KEY).hp == 3 and state.hero(SKULL).hp == 4
    act(state, "Vault:move", "d6", "e7")
    assert state.vigil == 6


def test_V1_prevented_damage_is_no_hp_lost(build):
    """V1: damage prevented (Aegis) loses no HP, so the round stays quiet."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6", aegis=True).set(vigil=4).build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert state.hero(SKULL).hp == 4
    act(state, "Vault:move", "d6", "e7")
    assert state.vigil == 3


def test_V1_a_relic_picked_up_or_dropped_resets_the_vigil(build):
    """V1: a relic picked up or dropped during the round sets the Vigil to 6."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .relic(SKULL, "d5").set(vigil=2).build())
    act(state, "Pilgrim:move", "d4", "d5", "pass")
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 6
    state = (build(factions=("storm-sworn", "pyre-choir")).hero(KEY, "d4")
             .hero(SKULL, "h8").minion(SKULL, "d6", max_hp=2).carry(KEY, "d6")
             .set(vigil=2).to_move(SKULL).set(first=SKULL).build())
    act(state, "Vault:move", "h8", "h6")
    act(state, "Pilgrim:attack", "d4", "d6")  # the carrier is pushed and drops it
    assert state.relic_square(KEY) == state.geometry.parse("d6")
    assert state.vigil == 6


def test_V1_a_rite_resets_the_vigil(build):
    """V1/D7: a round in which a rite was played counts as eventful."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").rites(skull="Exhumation")
             .set(vigil=1).to_move(SKULL).build())
    act(state, "Vault:rite", "a8")
    assert not state.is_terminal and state.vigil == 6


def test_V1_regroup_alone_does_not_reset(build):
    """V1/D7: Regroup does not reset it: a round with only a Regroup ends the game at 0."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").pools(skull=1)
             .set(vigil=1).to_move(SKULL).build())
    act(state, "Vault:regroup", "a8")
    assert state.is_terminal and state.result.reason == "vigil"


# --------------------------------------------------------------------------- V2
def vigil_end(b) -> State:
    """Skull, second player, makes the round's last quiet move with the Vigil at 1."""
    state = b.set(vigil=1).to_move(SKULL).build()
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 0 and state.is_terminal and state.result.reason == "vigil"
    return state


def test_V2_a_carrier_in_the_enemy_half_scores_plus_one(build):
    """V2/D6: +1 for each of your carriers in the enemy half: Key wins 1–0."""
    state = vigil_end(build().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c6")
                      .carry(SKULL, "c6"))
    assert state.result.scores == (1, 0) and state.winner == KEY
    assert state.result.detail == "higher Vigil score"


def test_V2_a_carrier_in_its_own_half_scores_minus_one(build):
    """V2/D6: −1 for each carrier in your own half: Skull wins 0 to −1."""
    state = vigil_end(build().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c3")
                      .carry(SKULL, "c3"))
    assert state.result.scores == (-1, 0) and state.winner == SKULL


def test_V2_the_central_row_of_an_odd_board_scores_nothing(build):
    """V2/S1: a carrier on the central row of an odd board is in nobody's half."""
    state = vigil_end(build(size=9).hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c5")
                      .carry(SKULL, "c5").minion(SKULL, "b7").carry(KEY, "b7"))
    # Skull's carrier on b7 stands in Skull's own half: −1; Key's on c5 scores 0.
    assert state.result.scores == (0, -1) and state.winner == KEY


def test_V2_tied_scores_go_to_the_hero_with_less_damage(build):
    """V2: if tied, the player whose Hero has taken less damage wins (damage, not HP:
    a Bone Wardens Hero at 4/5 has taken 1, more than a Pyre Hero at 4/4)."""
    state = vigil_end(build().hero(KEY, "a1", hp=3).hero(SKULL, "h8").minion(KEY, "c6")
                      .carry(SKULL, "c6").minion(SKULL, "e3").carry(KEY, "e3"))
    assert state.result.scores == (1, 1) and state.winner == SKULL
    assert state.result.detail == "less damage to the Hero"
    state = vigil_end(build(factions=("bone-wardens", "pyre-choir"))
                      .hero(KEY, "a1", hp=4).hero(SKULL, "h8").minion(KEY, "b1")
                      .minion(KEY, "c1"))
    assert state.result.scores == (0, 0) and state.winner == SKULL
    assert state.result.detail == "less damage to the Hero"


def test_V2_then_more_minions_on_the_board(build):
    """V2: if still tied, the player with more Minions on the board wins."""
    state = vigil_end(build(factions=("bone-wardens", "pyre-choir"))
                      .hero(KEY, "a1", hp=4).hero(SKULL, "h8", hp=3)
                      .minion(SKULL, "c7").minion(SKULL, "d7").minion(KEY, "b1"))
    assert state.result.scores == (0, 0)
    assert state.winner == SKULL and state.result.detail == "more Minions"
    state = vigil_end(build().hero(KEY, "a1").hero(SKULL, "h8")
                      .minion(SKULL, "c7").minion(KEY, "b1").minion(KEY, "c1"))
    assert state.winner == KEY and state.result.detail == "more Minions"


def test_V2_otherwise_a_draw(build):
    """V2: otherwise the game is a draw."""
    state = vigil_end(build().hero(KEY, "a1", hp=2).hero(SKULL, "h8", hp=2)
                      .minion(SKULL, "c7").minion(KEY, "b1"))
    assert state.result.scores == (0, 0) and state.winner is None
    assert state.result.detail == "tied on every count"


def test_V2_the_verdict_asked_before_the_vigil_runs_out(build):
    """V2: vigil_leader(), vigil_verdict() and vigil_result() (what the AI reads) name,
    one move early, the winner and reason the Vigil's end then gives, on each of V2's
    counts."""
    positions = [
        build().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c6").carry(SKULL, "c6"),
        build().hero(KEY, "a1", hp=3).hero(SKULL, "h8"),
        build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c7").minion(KEY, "b1")
        .minion(KEY, "c1"),
        build().hero(KEY, "a1", hp=2).hero(SKULL, "h8", hp=2).minion(KEY, "b1")
        .minion(SKULL, "c7"),
    ]
    winners = []
    for b in positions:
        state = b.set(vigil=1).to_move(SKULL).build()
        leader, early = state.vigil_leader(), state.vigil_result()
        assert state.vigil_verdict() == (leader, early.detail)
        act(state, "Vault:move", "h8", "h6")
        assert state.result == early and leader == state.winner
        winners.append(leader)
    assert winners == [KEY, SKULL, KEY, None]


# --------------------------------------------------------------------------- V3
def test_V3_killing_the_enemy_hero_wins_at_once_mid_effect(build):
    """V3/D18: a player wins at once when the enemy Hero is killed, in the middle of an
    effect if need be (Ash Reapers' second target is never asked)."""
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4")
             .hero(SKULL, "d5", hp=1).minion(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert state.is_terminal and state.winner == KEY
    assert state.result.reason == "hero_killed" and state.legal_options() == []
    assert at(state, "e5") is not None


def test_V3_losing_your_own_hero_loses_at_once(build):
    """V3: the Hero killed by its own Ordeal roll gives the opponent the win."""
    state = (build().hero(KEY, "d4", hp=1).hero(SKULL, "d6")
             .hands(key=["Ordeal", "Pilgrim", "Sidewind"]).build())
    act(state, "Ordeal:attack", "d4", "d6")
    state.apply(1)
    assert state.winner == SKULL and state.result.reason == "hero_killed"


def test_V3_relic_home_wins_at_the_end_of_the_turn(build):
    """V3: a player wins at the end of their turn in which one of their pieces stands on
    their own back row carrying the enemy relic (after the Escort step is settled)."""
    state = (build().hero(KEY, "a1").minion(KEY, "d2").minion(KEY, "f3").hero(SKULL, "h8")
             .carry(SKULL, "d2").build())
    act(state, "Pilgrim:move", "d2", "d1")
    assert not state.is_terminal and state.decision().kind == "escort"
    act(state, "pass")
    assert state.winner == KEY and state.result.reason == "relic_home"


def test_V3_relic_home_counts_only_at_the_end_of_ones_own_turn(build):
    """V3: a carrier already home does not win on the opponent's turn, only at the end of
    its own side's next turn."""
    state = (build().hero(KEY, "a2").minion(KEY, "d1").hero(SKULL, "h8")
             .carry(SKULL, "d1").set(first=SKULL).to_move(SKULL).build())
    act(state, "Vault:move", "h8", "h6")
    assert not state.is_terminal
    act(state, "Crossroads:move", "a2", "a3")
    assert state.winner == KEY and state.result.reason == "relic_home"


def test_V3_skull_brings_the_key_relic_to_rank_8(build):
    """V3: the same for Skull, whose back row is the top rank."""
    state = (build().hero(KEY, "a1").hero(SKULL, "a8").minion(SKULL, "e7")
             .carry(KEY, "e7").to_move(SKULL).build())
    act(state, "Litany:move", "e7", "e8")
    assert state.winner == SKULL and state.result.reason == "relic_home"


def test_V3_relic_home_is_checked_after_the_end_of_turn_passive(build):
    """V3/D18: checked after end-of-turn passives: a Lantern step home wins."""
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1")
             .minion(KEY, "d2").hero(SKULL, "h8").carry(SKULL, "d2").build())
    act(state, "Crossroads:move", "a1", "a2")
    assert state.decision().kind == "lantern_step"
    act(state, "d1")
    assert state.winner == KEY and state.result.reason == "relic_home"


@pytest.mark.parametrize("cap", [1, 3])
def test_V_round_cap_ends_in_a_draw(build, cap):
    """D19 safeguard: a game still running after the round cap is a draw."""
    state = build(round_cap=cap).hero(KEY, "d4").hero(SKULL, "d6").set(rounds=cap - 1).build()
    act(state, "Pilgrim:attack", "d4", "d6")
    act(state, "Vault:attack", "d6", "d4")
    assert state.is_terminal and state.winner is None and state.result.reason == "round_cap"
