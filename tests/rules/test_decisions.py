"""Scenario tests for the decisions D1–D19 of RULES.md §10 (gaps and conflicts in the
sources), each set up with the Builder (or played from a new game for setup rules) and
driven through ``state.apply``."""

from __future__ import annotations

import pytest

import reliquary
from reliquary.engine import KEY, SKULL, State

from .scenario import act, at, hp, kind, turn_passed_to
from .scenario import sorted_options as options

CARDS = ("Pilgrim", "Crossroads", "Sidewind", "Vault", "Litany", "Procession", "Requiem",
         "Serpent", "Ascension", "Bolt", "Smite", "Hook", "Gale", "Veil", "Passage", "Aegis",
         "Ordeal", "Rapture")

# D1, copied from RULES.md: offsets (x, y) in the player's own frame.
DIAGRAMS: dict[str, list[tuple[int, int]]] = {
    "Pilgrim": [(0, 1), (0, -1)],
    "Crossroads": [(0, 1), (1, 0), (-1, 0), (0, -1)],
    "Sidewind": [(-2, 0), (2, 0)],
    "Vault": [(0, 2), (-1, -1), (1, -1)],
    "Litany": [(-1, 1), (1, 1), (0, -1)],
    "Procession": [(-1, 1), (1, 1)],
    "Requiem": [(-1, -1), (1, -1), (0, 1)],
    "Serpent": [(-1, 1), (1, 0), (-1, -1)],
    "Ascension": [(0, 1), (0, 2)],
    "Bolt": [(0, 2), (0, -1)],
    "Smite": [(0, 1), (-1, -1), (1, -1)],
    "Hook": [(-1, 2), (1, 0)],
    "Gale": [(-2, 0), (2, 0), (0, 1)],
    "Veil": [(-1, 0), (1, 0), (0, -2)],
    "Passage": [(-1, 1), (1, -1)],
    "Aegis": [(-1, 0), (1, 0), (0, -1)],
    "Ordeal": [(1, 1), (-1, 0), (1, -1)],
    "Rapture": [(-2, 1), (2, 1)],
}
ESCORT = {"Pilgrim", "Sidewind", "Procession", "Ascension"}
# D2, copied from RULES.md.
KEY_SEALS = {"Pilgrim", "Sidewind", "Litany", "Requiem", "Ascension", "Smite", "Gale",
             "Passage", "Ordeal"}


def name_at(x: int, y: int) -> str:
    return f"{'abcdefgh'[x]}{y + 1}"


def new_game_to_deal(content, factions=("pyre-choir", "bone-wardens")) -> State:
    """A new 8×8 game played through the Ruins and factions, at the first deal."""
    state = reliquary.new_game(content=content)
    while kind(state) == "ruin":
        state.apply(state.legal_options()[0])
    act(state, *factions)
    assert kind(state) == "deal"
    return state


def others(card: str, n: int = 2) -> list[str]:
    return [c for c in CARDS if c != card][:n]


# ---------------------------------------------------------------------- D1
@pytest.mark.parametrize("card", CARDS)
def test_D1_diagram_for_key_seat(build, card):
    state = (build().hero(KEY, "d4").minion(KEY, "a1").hero(SKULL, "h8")
             .hands(key=[card, *others(card)]).build())
    act(state, f"{card}:move", "d4")
    assert kind(state) == "destination"
    expected = sorted(name_at(3 + dx, 3 + dy) for dx, dy in DIAGRAMS[card])
    assert options(state) == expected
    act(state, expected[0])
    assert at(state, expected[0]).hero
    if card in ESCORT:  # T2: then another friendly piece may take 1 step
        assert kind(state) == "escort"
        assert options(state) == ["a1-a2", "a1-b1", "a1-b2", "pass"]
        act(state, "a1-b2")
        assert at(state, "b2") is not None
    assert turn_passed_to(state, SKULL)


@pytest.mark.parametrize("card", CARDS)
def test_D1_diagram_for_skull_seat_turned_180(build, card):
    state = (build().hero(KEY, "a1").hero(SKULL, "e5").to_move(SKULL)
             .hands(skull=[card, *others(card)]).build())
    act(state, f"{card}:move", "e5")
    expected = sorted(name_at(4 - dx, 4 - dy) for dx, dy in DIAGRAMS[card])
    assert options(state) == expected


def test_D1_move_jumps_pieces_and_ruins_but_never_ends_on_them_T2(build):
    state = (build().hero(KEY, "d4").minion(SKULL, "d5").minion(SKULL, "d3").ruins("c3")
             .hero(SKULL, "h8").hands(key=["Bolt", "Vault", "Hook"]).build())
    act(state, "Bolt:move", "d4")
    assert options(state) == ["d6"]  # over d5; d3 is occupied
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").ruins("d5", "c3")
             .hands(key=["Vault", "Bolt", "Hook"]).build())
    act(state, "Vault:move", "d4")
    assert options(state) == ["d6", "e3"]  # c3 is a Ruin


# ---------------------------------------------------------------------- D2
@pytest.mark.parametrize("card", CARDS)
def test_D2_waiting_cards_seal_names_the_first_player(content, card):
    state = new_game_to_deal(content)
    dealt = others(card, 6)
    for c in [*dealt, card]:
        act(state, c)
    first = KEY if card in KEY_SEALS else SKULL
    assert state.first == first
    assert state.hands == [dealt[:3], dealt[3:]]
    assert state.waiting == card and state.vigil == 6
    decision = state.decision()
    assert decision.kind == "rite" and decision.player == 1 - first  # S5: second picks first


def test_D2_nine_seals_each(content):
    seals = {card.id: card.seal for card in content.cards}
    assert sorted(seals) == sorted(CARDS)
    assert {c for c, s in seals.items() if s == "key"} == KEY_SEALS
    assert sum(1 for s in seals.values() if s == "skull") == 9


def test_D2_deal_is_a_chance_decision_over_the_unseen_cards(content):
    state = new_game_to_deal(content)
    decision = state.decision()
    assert decision.player == reliquary.CHANCE and len(decision.options) == 18
    assert decision.probabilities == pytest.approx((1 / 18,) * 18)
    act(state, "Bolt")
    assert "Bolt" not in state.legal_options() and len(state.legal_options()) == 17


# ---------------------------------------------------------------------- D3
def test_D3_geometric_los_ruin_crossed_blocks_corner_touch_does_not(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "c3").ruins("a2", "b1").build())
    act(state, "Pilgrim:attack", "a1")
    assert options(state) == ["c3"]  # a1→c3 only touches a2 and b1 at a corner
    state = (build().hero(KEY, "a1").hero(SKULL, "c3").ruins("b2").build())
    assert "Pilgrim:attack" not in options(state)


def test_D3_geometric_los_pieces_never_block_and_any_angle_counts(build):
    state = (build().hero(KEY, "d4").minion(KEY, "d5").hero(SKULL, "d6").minion(SKULL, "e6")
             .build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["d6", "e6"]


def test_D3_straight_los_option_lines_only_pieces_block(build):
    state = (build().hero(KEY, "d4").minion(KEY, "d5").hero(SKULL, "d6").minion(SKULL, "e6")
             .minion(SKULL, "f6").options(los="straight").build())
    act(state, "Pilgrim:attack", "d4")
    # d6 is behind the piece on d5; e6 is off every line; f6 is on the diagonal.
    assert options(state) == ["f6"]


def test_D3_straight_los_carrier_exception_ruins_only_RL4(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "f6").carry(KEY, "f6")
             .ruins("e5").options(los="straight").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["f6"]  # the Ruin does not block against a carrier
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e5").minion(SKULL, "f6")
             .carry(KEY, "f6").options(los="straight").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["e5"]  # a piece still blocks


# ---------------------------------------------------------------------- D4
def test_D4_first_turn_no_damage_default_attack_legal_damage_prevented(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").set(turns_taken=[0, 0])
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    assert "Smite:attack" in options(state)
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert hp(state, "d6") == 4  # pushed, but no damage
    assert state.eventful is False


def test_D4_first_turn_crush_and_self_damage_prevented_T8(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").ruins("d6").set(turns_taken=[0, 0])
             .hands(key=["Smite", "Ordeal", "Hook"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert hp(state, "d5") == 4
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").set(turns_taken=[0, 0])
             .hands(key=["Smite", "Ordeal", "Hook"]).build())
    act(state, "Ordeal:attack", "d4", "d5", "1")
    assert hp(state, "d4") == 4


def test_D4_turn_one_is_each_players_own_first_turn(build):
    # Key has played its first turn; Skull's first turn still deals no damage.
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(turns_taken=[1, 0]).to_move(SKULL)
             .build())
    act(state, "Vault:attack", "d6", "d4")
    assert hp(state, "d4") == 4
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(turns_taken=[0, 1]).to_move(SKULL)
             .build())
    act(state, "Vault:attack", "d6", "d4")
    assert hp(state, "d4") == 2


def test_D4_first_turn_no_attack_option(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(turns_taken=[0, 1])
             .options(first_turn="no_attack").build())
    assert not any(option.endswith(":attack") for option in options(state))
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").set(turns_taken=[1, 0])
             .options(first_turn="no_attack").build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert hp(state, "d6") == 2  # with this option damage is dealt from turn 1 on


# ---------------------------------------------------------------------- D5
def test_D5_rite_draft_second_player_first_then_first_player_rest_out(content):
    state = new_game_to_deal(content)
    for card in ("Bolt", "Smite", "Hook", "Veil", "Aegis", "Rapture", "Gale"):
        act(state, card)  # Gale: Key seal, Key goes first
    assert state.first == KEY
    decision = state.decision()
    assert decision.kind == "rite" and decision.player == SKULL
    assert options(state) == ["Desecration", "Exhumation", "Harrow"]
    act(state, "Harrow")
    decision = state.decision()
    assert decision.kind == "rite" and decision.player == KEY
    assert options(state) == ["Desecration", "Exhumation"]
    act(state, "Exhumation")
    assert state.rites == ["Exhumation", "Harrow"] and state.rite_draft == []
    assert kind(state) == "deploy" and state.current_player == KEY


# ---------------------------------------------------------------------- D6 / V2
def quiet_round(state: State) -> None:
    """Key then Skull each move their Hero one square sideways."""
    act(state, "Crossroads:move", "a1", "b1")
    act(state, "Litany:move", "h8", "g7")


def test_D6_vigil_scores_own_carriers_by_half(build):
    state = (build().hero(KEY, "a1").minion(KEY, "c6").carry(SKULL, "c6").hero(SKULL, "h8")
             .minion(SKULL, "f7").carry(KEY, "f7").set(vigil=1).build())
    assert state.vigil_scores() == (1, -1)
    quiet_round(state)
    assert state.is_terminal and state.vigil == 0
    assert state.result.winner == KEY and state.result.reason == "vigil"
    assert state.result.scores == (1, -1)


def test_D6_carrier_on_the_central_row_of_an_odd_board_scores_nothing(build):
    state = (build(size=9).hero(KEY, "a1").minion(KEY, "e5").carry(SKULL, "e5")
             .hero(SKULL, "i9").minion(SKULL, "c6").carry(KEY, "c6").build())
    assert state.vigil_scores() == (0, -1)


def test_D6_vigil_counts_down_in_quiet_rounds(build):
    state = build().hero(KEY, "a1").hero(SKULL, "h8").build()
    quiet_round(state)
    assert state.vigil == 5 and not state.is_terminal


@pytest.mark.parametrize(("key_hp", "skull_hp", "key_minions", "winner", "detail"), [
    (3, 4, 1, SKULL, "less damage to the Hero"),
    (4, 4, 2, KEY, "more Minions"),
    (4, 4, 1, None, "tied on every count"),
])
def test_D6_vigil_tie_breaks(build, key_hp, skull_hp, key_minions, winner, detail):
    builder = (build().hero(KEY, "a1", hp=key_hp).hero(SKULL, "h8", hp=skull_hp)
               .minion(SKULL, "h5").set(vigil=1))
    for file in "cdefg"[:key_minions]:
        builder.minion(KEY, f"{file}2")
    state = builder.build()
    quiet_round(state)
    assert state.result.reason == "vigil" and state.result.scores == (0, 0)
    assert state.result.winner == winner and state.result.detail == detail


# ---------------------------------------------------------------------- D7
def test_D7_rite_round_keeps_vigil_at_6_regroup_does_not(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").rites(key="Exhumation")
             .set(vigil=2).build())
    act(state, "Pilgrim:rite", "a1")
    act(state, "Litany:move", "h8", "g7")
    assert state.vigil == 6 and not state.is_terminal
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").pools(key=1).set(vigil=3).build())
    act(state, "Pilgrim:regroup")
    assert options(state) == [name_at(x, 0) for x in range(8)]
    act(state, "a1")
    act(state, "Litany:move", "h8", "g7")
    assert state.vigil == 2 and at(state, "a1") is not None and state.pool[KEY] == 0


def test_D7_vigil_at_zero_ends_the_game_right_at_round_end(build):
    state = build().hero(KEY, "a1").hero(SKULL, "h8").set(vigil=1).build()
    act(state, "Crossroads:move", "a1", "b1")
    assert not state.is_terminal  # Key's turn alone is not a round
    act(state, "Litany:move", "h8", "g7")
    assert state.is_terminal and state.result.reason == "vigil"


def test_D7_any_hp_lost_resets_the_vigil_even_your_own(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "e6").set(vigil=2)
             .hands(key=["Ordeal", "Bolt", "Smite"]).build())
    act(state, "Ordeal:attack", "d4", "e6", "1")
    assert hp(state, "d4") == 3 and hp(state, "e6") == 4
    act(state, "Litany:move", "e6", "e7")
    assert state.vigil == 6


# ---------------------------------------------------------------------- D8
def test_D8_lunge_makes_an_attack_legal_from_two_squares_away(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d6")
             .hands(key=["Smite", "Bolt", "Hook"]).build())
    act(state, "Smite:attack", "d4")
    assert kind(state) == "lunge"
    assert options(state) == ["c5", "d5", "e5"]  # no pass: nothing adjacent now
    act(state, "c5")
    assert options(state) == ["d6"]  # checked from the new square
    act(state, "d6")
    assert at(state, "c5") is not None and hp(state, "e7") == 1  # pushed away from c5


def test_D8_no_lunge_for_a_veiled_piece_nor_for_ranged_lines(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4", veiled=True).hero(SKULL, "h8")
             .minion(SKULL, "d6").hands(key=["Smite", "Bolt", "Hook"]).build())
    assert "Smite:attack" not in options(state)
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Bolt", "Smite", "Hook"])
             .build())
    act(state, "Bolt:attack", "d4")
    assert kind(state) == "target"


def test_D8_lunge_then_attack_from_the_new_square_only(build):
    # From e5 the Hero sees f6 but no longer c3.
    state = (build(factions=("veiled-hand", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "c3")
             .minion(SKULL, "f6").build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["c4", "d3", "e5", "pass"]
    act(state, "e5")
    assert options(state) == ["f6"]


# ---------------------------------------------------------------------- D9
def test_D9_attacks_target_enemies_only_unless_friendly(build):
    state = (build().hero(KEY, "d4").minion(KEY, "d6").minion(KEY, "d5").hero(SKULL, "f6")
             .hands(key=["Bolt", "Passage", "Smite"]).build())
    clone = state.clone()
    act(state, "Bolt:attack", "d4")
    assert options(state) == ["f6"]
    act(clone, "Passage:attack", "d4")
    assert options(clone) == ["d5", "d6"]


# ---------------------------------------------------------------------- D10
def test_D10_harrowed_minion_killed_is_removed_and_never_triggers_grave_tide(build):
    state = (build(factions=("pyre-choir", "grave-tide")).hero(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "d6", harrowed=True).build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert at(state, "d6") is None
    assert state.pool == [0, 0] and state.spent == [0, 0]
    assert turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- D11
def test_D11_grave_tide_mandatory_and_waits_for_an_empty_back_row(build):
    builder = (build(factions=("pyre-choir", "grave-tide")).hero(KEY, "d4").hero(SKULL, "a8")
               .minion(SKULL, "d6").minion(SKULL, "e6"))
    for file in "bcdefgh":
        builder.minion(SKULL, f"{file}8")
    state = builder.hands(key=["Bolt", "Pilgrim", "Smite"]).build()
    act(state, "Bolt:attack", "d4", "d6")
    # Back row full: no return; the passive is still unused.
    assert state.pool[SKULL] == 1 and state.spent == [0, 0]
    assert turn_passed_to(state, SKULL)
    act(state, "Vault:move", "g8", "g6")
    act(state, "Pilgrim:attack", "d4", "e6")
    decision = state.decision()
    assert decision.kind == "grave_return" and decision.player == SKULL
    assert options(state) == ["g8"]  # mandatory: no pass
    act(state, "g8")
    assert at(state, "g8").owner == SKULL and state.pool[SKULL] == 1
    assert state.is_spent(SKULL, "grave_return")


def test_D11_grave_tide_returns_a_minion_crushed_by_gale(build):
    # The lone Gale push is resolved without a decision; the return is still asked.
    state = (build(factions=("pyre-choir", "grave-tide")).hero(KEY, "g6").hero(SKULL, "a8")
             .minion(SKULL, "h8").hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack", "g6", "g7")
    decision = state.decision()
    assert decision.kind == "grave_return" and decision.player == SKULL
    assert options(state) == [name_at(x, 7) for x in range(1, 8)]
    act(state, "c8")
    assert at(state, "c8").owner == SKULL
    assert state.pool[SKULL] == 0 and state.is_spent(SKULL, "grave_return")
    assert turn_passed_to(state, SKULL)


def test_D11_grave_return_comes_before_the_next_gale_push_D14(build):
    # Gale: c6 is crushed against the Ruin b6 and returns at once; Skull puts it on f8,
    # so the last push (e7 towards f8) is now blocked and crushes too.
    builder = (build(factions=("pyre-choir", "grave-tide")).hero(KEY, "d6").hero(SKULL, "a8")
               .minion(SKULL, "c6").minion(SKULL, "e7").ruins("b6")
               .hands(key=["Gale", "Bolt", "Smite"]))
    for square in ("c5", "d5", "e5", "e6", "c7", "d7"):
        builder.minion(KEY, square)
    state = builder.build()
    act(state, "Gale:attack", "d6")
    assert options(state) == ["c6", "e7"]
    act(state, "c6")
    decision = state.decision()
    assert decision.kind == "grave_return" and decision.player == SKULL
    assert options(state) == [name_at(x, 7) for x in range(1, 8)]
    act(state, "f8")
    assert at(state, "f8").owner == SKULL
    assert at(state, "e7") is None and state.pool[SKULL] == 1
    assert turn_passed_to(state, SKULL)


def test_D11_grave_return_comes_before_the_rest_of_the_attack_D14(build):
    # Ash Reapers' first hit kills a Grave Tide Minion: Skull places it, then Key
    # chooses the second target.
    state = (build(factions=("ash-reapers", "grave-tide")).hero(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "d5").minion(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert state.decision().player == SKULL and kind(state) == "grave_return"
    act(state, "a8")
    assert state.decision().player == KEY and kind(state) == "second_target"
    assert options(state) == ["e5", "pass"]
    act(state, "e5")
    assert state.pool[SKULL] == 1
    assert turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- D12
def test_D12_veiled_piece_takes_no_gale_step(build):
    state = (build().hero(KEY, "d4", veiled=True).hero(SKULL, "d5")
             .hands(key=["Gale", "Bolt", "Crossroads"]).build())
    assert "Crossroads:move" not in options(state)
    act(state, "Gale:attack", "d4")
    assert hp(state, "d7") == 4  # pushed from d4 without the step


def test_D12_veiled_piece_cannot_be_moved(build):
    state = (build().hero(KEY, "d4", veiled=True).minion(KEY, "a1").hero(SKULL, "h8")
             .hands(key=["Crossroads", "Bolt", "Smite"]).build())
    act(state, "Crossroads:move")
    assert options(state) == ["a1"]


def test_D12_veiled_piece_takes_no_rapture_step(build):
    state = (build().hero(KEY, "d4", veiled=True).hero(SKULL, "h8")
             .hands(key=["Rapture", "Bolt", "Smite"]).build())
    act(state, "Rapture:attack", "d4", "5")
    assert at(state, "d4").hero and turn_passed_to(state, SKULL)


def test_D12_veiled_piece_takes_no_after_step_kill_step_or_lantern_step(build):
    state = (build(factions=("veiled-hand", "pyre-choir")).hero(KEY, "d4", veiled=True)
             .hero(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "d5")
    assert at(state, "d4").hero and turn_passed_to(state, SKULL)
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "a1")
             .minion(KEY, "d4", veiled=True).hero(SKULL, "h8").minion(SKULL, "d5").build())
    act(state, "Pilgrim:attack", "d4", "d5")
    assert at(state, "d5") is None and turn_passed_to(state, SKULL)
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1")
             .minion(KEY, "c4", veiled=True).carry(SKULL, "c4").hero(SKULL, "h8").build())
    act(state, "Crossroads:move", "a1", "b1")
    assert turn_passed_to(state, SKULL)


def test_D12_veiled_piece_takes_no_escort_step(build):
    state = (build().hero(KEY, "d4").minion(KEY, "a1", veiled=True).minion(KEY, "h1")
             .hero(SKULL, "h8").build())
    act(state, "Pilgrim:move", "d4", "d5")
    assert options(state) == ["h1-g1", "h1-g2", "h1-h2", "pass"]


# ---------------------------------------------------------------------- D13
def test_D13_aegis_prevents_crush_and_pull(build):
    state = (build().hero(KEY, "d2", aegis=True).hero(SKULL, "d3").to_move(SKULL)
             .hands(skull=["Hook", "Smite", "Vault"]).build())
    act(state, "Hook:attack", "d3", "d2")
    assert hp(state, "d2") == 4  # the adjacent pull would crush: nothing happens
    state = (build().hero(KEY, "d2", aegis=True).hero(SKULL, "d5").to_move(SKULL)
             .hands(skull=["Hook", "Smite", "Vault"]).build())
    act(state, "Hook:attack", "d5", "d2")
    assert hp(state, "d2") == 4 and at(state, "d2").hero


def test_D13_aegis_prevents_push_and_its_crush_in_gale(build):
    state = (build().hero(KEY, "h8", aegis=True).hero(SKULL, "g6").to_move(SKULL)
             .hands(skull=["Gale", "Smite", "Vault"]).build())
    act(state, "Gale:attack", "g6", "g7")
    assert hp(state, "h8") == 4


def test_D13_aegis_piece_can_still_be_swapped(build):
    state = (build().hero(KEY, "d4", aegis=True).minion(KEY, "d6").hero(SKULL, "h8")
             .hands(key=["Passage", "Bolt", "Smite"]).build())
    act(state, "Passage:attack", "d6", "d4")
    assert at(state, "d6").hero and at(state, "d6").aegis


# ---------------------------------------------------------------------- D14
def test_D14_gale_pushes_one_at_a_time_in_the_chosen_order(build):
    builder = build().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Gale", "Bolt", "Smite"])
    for square in ("c3", "d3", "e3", "c4", "e4"):
        builder.minion(KEY, square)
    state = builder.minion(SKULL, "c5").minion(SKULL, "d5").minion(SKULL, "e5").build()
    state.events = []
    act(state, "Gale:attack", "d4")
    assert kind(state) == "gale_push"  # no step possible: none is asked
    assert options(state) == ["c5", "d5", "e5"]
    act(state, "d5")
    assert options(state) == ["c5", "e5"]
    act(state, "e5")  # the last one is pushed without asking
    pushes = [state.geometry.name(e.data["to"]) for e in state.events if e.kind == "push"]
    assert pushes == ["d7", "g7", "a7"]
    assert all(at(state, name) is not None for name in ("d7", "g7", "a7"))
    assert turn_passed_to(state, SKULL)


def test_D14_ash_reapers_each_target_is_its_own_hit(build):
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "d5")
             .minion(SKULL, "e5").build())
    state.events = []
    act(state, "Pilgrim:attack", "d4", "pass", "d5", "e5")
    hits = [(state.geometry.name(e.data["square"]), e.data["amount"])
            for e in state.events if e.kind == "damage"]
    assert hits == [("d5", 1), ("e5", 1)]
    assert hp(state, "d5") == 3 and at(state, "e5") is None


# ---------------------------------------------------------------------- D15
def test_D15_pull_moves_up_to_its_number_along_the_nearest_line(build):
    # Gallows Court Hero: d2→g4 (dx 3, dy 2) is nearest the diagonal: g4 → f3 → e2.
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "d2").hero(SKULL, "g4")
             .build())
    act(state, "Pilgrim:attack", "d2", "g4")
    assert hp(state, "e2") == 3 and at(state, "f3") is None


def test_D15_pull_stops_when_adjacent_or_blocked(build):
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "c2").hero(SKULL, "c5")
             .build())
    act(state, "Pilgrim:attack", "c2", "c5")
    assert hp(state, "c3") == 3
    state = (build(factions=("gallows-court", "pyre-choir")).hero(KEY, "c2").minion(KEY, "c3")
             .hero(SKULL, "c5").build())
    act(state, "Pilgrim:attack", "c2", "c5")
    assert hp(state, "c4") == 3  # one square, then blocked: no crush


# ---------------------------------------------------------------------- D16
def test_D16_rapture_steps_one_at_a_time(build):
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .hands(key=["Rapture", "Bolt", "Smite"]).build())
    act(state, "Rapture:attack", "a1", "6")
    assert options(state) == ["a2", "b1", "b2", "pass"]
    act(state, "b2")
    assert options(state) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3", "pass"]
    act(state, "c3", "pass")
    assert at(state, "c3").hero and turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- D17
def test_D17_rite_minions_come_from_an_unlimited_supply(build):
    builder = build().hero(KEY, "a2").hero(SKULL, "h8").rites(key="Exhumation")
    for square in ("c4", "d4", "e4", "f4", "g4", "h4"):
        builder.minion(KEY, square)
    state = builder.build()
    act(state, "Pilgrim:rite", "a1")
    assert sum(1 for p in state.pieces.values() if p.owner == KEY and not p.hero) == 7


# ---------------------------------------------------------------------- D18
def test_D18_hero_kill_mid_effect_ends_the_game_at_once(build):
    # Gale pushes the Skull Hero first; it is crushed to death and d6 is never pushed.
    state = (build().hero(KEY, "c7").hero(SKULL, "c8", hp=1).minion(SKULL, "d6")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack", "c7")
    assert options(state) == ["b7", "b8", "c6", "d7", "d8"]
    act(state, "d7")
    assert options(state) == ["c8", "d6"]
    act(state, "c8")
    assert state.is_terminal and state.winner == KEY
    assert state.result.reason == "hero_killed"
    assert at(state, "d6") is not None


def test_D18_ash_reapers_hero_kill_leaves_no_second_target(build):
    state = (build(factions=("ash-reapers", "pyre-choir")).hero(KEY, "d4")
             .hero(SKULL, "d5", hp=1).minion(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "pass", "d5")
    assert state.is_terminal and state.winner == KEY and hp(state, "e5") == 1


def test_D18_relic_victory_after_the_lantern_step(build):
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a4")
             .minion(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8").build())
    act(state, "Crossroads:move", "a4", "a5")
    assert kind(state) == "lantern_step" and not state.is_terminal
    act(state, "c1")
    assert state.is_terminal and state.winner == KEY
    assert state.result.reason == "relic_home"


def test_D18_lantern_step_off_the_back_row_forgoes_the_relic_victory(build):
    # The carrier MOVEs onto the back row, then its Lantern step takes it off again:
    # V3 is checked only after the step.
    state = (build(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a4")
             .minion(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
             .hands(key=["Crossroads", "Bolt", "Smite"]).build())
    act(state, "Crossroads:move", "c2", "c1")
    assert kind(state) == "lantern_step"
    act(state, "d2")
    assert not state.is_terminal and turn_passed_to(state, SKULL)
    assert state.carrier_of(SKULL) is at(state, "d2")


def test_D18_relic_victory_only_at_the_end_of_the_turn(build):
    state = (build().hero(KEY, "a4").minion(KEY, "c2").carry(SKULL, "c2").minion(KEY, "f4")
             .hero(SKULL, "h8").build())
    act(state, "Pilgrim:move", "c2", "c1")
    assert kind(state) == "escort" and not state.is_terminal
    act(state, "pass")
    assert state.winner == KEY and state.result.reason == "relic_home"


def test_D18_relic_on_the_back_row_wins_only_for_its_carriers_side(build):
    # Skull's carrier standing on Key's back row does nothing at the end of Key's turn.
    state = (build().hero(KEY, "a4").hero(SKULL, "h8").minion(SKULL, "c1").carry(KEY, "c1")
             .build())
    act(state, "Crossroads:move", "a4", "a5")
    assert not state.is_terminal


# ---------------------------------------------------------------------- D19
def test_D19_round_cap_ends_in_a_draw(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").options(round_cap=3).set(rounds=2)
             .build())
    act(state, "Pilgrim:attack", "d4", "d6")  # an eventful round: the Vigil stays up
    assert not state.is_terminal
    act(state, "Litany:move", "d6", "d7")
    assert state.is_terminal and state.winner is None
    assert state.result.reason == "round_cap" and state.rounds == 3


def test_D19_default_cap_is_200_rounds(content):
    assert reliquary.new_game(content=content).settings.round_cap == 200
