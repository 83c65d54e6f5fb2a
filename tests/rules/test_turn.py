"""Scenario tests for RULES.md §5, the turn (T1–T8)."""

from __future__ import annotations

from reliquary.engine import KEY, SKULL, Piece, Play, State

from .scenario import act, at, options


def name(state: State, piece: Piece | None) -> str:
    assert piece is not None
    return state.geometry.name(piece.sq)


# --------------------------------------------------------------------------- T1
def test_T1_the_played_card_waits_and_the_old_waiting_card_joins_the_hand(build):
    """T1: the played card becomes the new waiting card and you take the previous waiting
    card; the opponent receives your card only after their next play."""
    state = build().hero(KEY, "a1").minion(KEY, "d2").hero(SKULL, "h8").build()
    assert state.hands == [["Pilgrim", "Crossroads", "Sidewind"],
                           ["Vault", "Litany", "Procession"]] and state.waiting == "Requiem"
    act(state, "Crossroads:move", "d2", "d3")
    assert state.hands[KEY] == ["Pilgrim", "Sidewind", "Requiem"]
    assert state.waiting == "Crossroads" and state.current_player == SKULL
    assert "Crossroads:move" not in options(state)  # not in Skull's hand yet
    act(state, "Vault:move", "h8", "h6")
    assert state.hands[SKULL] == ["Litany", "Procession", "Crossroads"]
    assert state.waiting == "Vault"


def test_T1_one_card_in_exactly_one_mode(build):
    """T1: the options of a play are (card, mode) pairs from the hand only."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6")
             .hands(key=["Bolt", "Aegis", "Veil"]).build())
    assert state.decision().kind == "play"
    assert {o.card for o in state.legal_options()} == {"Bolt", "Aegis", "Veil"}
    assert all(isinstance(o, Play) for o in state.legal_options())
    assert options(state) == ["Bolt:move", "Bolt:attack", "Aegis:move", "Aegis:attack",
                              "Veil:move", "Veil:attack"]


# --------------------------------------------------------------------------- T2
def test_T2_the_diagram_turns_with_the_player(build):
    """T2/D1: the diagram's top points at the opponent; for Skull it turns 180°
    (Litany: (-1,1) (1,1) (0,-1))."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e5")
             .hands(key=["Litany", "Pilgrim", "Sidewind"]).build())
    act(state, "Litany:move", "d4")
    assert options(state) == ["d3", "c5"]  # e5 is taken by the Skull Minion
    state = (build().hero(KEY, "a1").minion(KEY, "c5").hero(SKULL, "h8").minion(SKULL, "e5")
             .hands(skull=["Litany", "Vault", "Bolt"]).to_move(SKULL).build())
    act(state, "Litany:move", "e5")
    assert options(state) == ["d4", "f4", "e6"]


def test_T2_a_move_jumps_over_pieces_and_ruins(build):
    """T2: the piece jumps over pieces and Ruins but never ends on a blocked square."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").minion(SKULL, "d5").ruins("c5")
             .minion(KEY, "c4").hero(SKULL, "h8")
             .hands(key=["Ascension", "Vault", "Crossroads"], skull=["Bolt", "Litany", "Hook"])
             .build())
    act(state, "Ascension:move", "d4")
    assert options(state) == ["d6"]  # (0,1) is taken, (0,2) lies beyond the piece
    act(state, "d6", "pass")
    assert at(state, "d6") is not None and at(state, "d4") is None
    act(state, "Bolt:move", "h8", "h6")
    act(state, "Vault:move", "c4")
    assert options(state) == ["b3", "d3", "c6"]  # (0,2) lies over the Ruin on c5


def test_T2_escort_step_is_optional_and_may_be_the_hero(build):
    """T2: with the Escort mark, afterwards another friendly piece (Hero included) may take
    1 step; 'pass' declines it."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").minion(KEY, "h1")
             .hero(SKULL, "h8").ruins("a2", "b1").build())
    act(state, "Sidewind:move", "d4", "f4")
    assert state.decision().kind == "escort"
    assert sorted(options(state)) == ["a1-b2", "h1-g1", "h1-g2", "h1-h2", "pass"]
    sub = state.clone()
    act(sub, "a1-b2")
    assert sub.hero(KEY).sq == sub.geometry.parse("b2")
    act(state, "pass")
    assert state.current_player == SKULL and state.hero(KEY).sq == 0


# --------------------------------------------------------------------------- T3
def test_T3_hero_and_minion_lines_of_a_unique_card(build):
    """T3: «Héroe:» line for the Hero, «Esbirro:» line for a Minion (Bolt: Hero 2 damage
    range 2 LoS; Minion 1 damage adjacent)."""
    state = (build().hero(KEY, "d4").minion(KEY, "f4").hero(SKULL, "e6")
             .hands(key=["Bolt", "Pilgrim", "Sidewind"]).build())
    sub = state.clone()
    act(sub, "Bolt:attack", "d4", "e6")
    assert sub.hero(SKULL).hp == 2
    act(state, "Bolt:attack", "f4")
    assert state.decision().kind == "lunge"  # the Minion must lunge next to e6
    assert sorted(options(state)) == ["e5", "f5"]
    act(state, "f5", "e6")
    assert state.hero(SKULL).hp == 3 and at(state, "f5") is not None


def test_T3_lunge_is_optional_when_the_attack_is_legal_from_where_it_stands(build):
    """T3/D8: in an adjacent attack the attacker may first take 1 step; the attack is then
    checked from the new square ('pass' stays)."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "d5").minion(SKULL, "f5").build())
    act(state, "Pilgrim:attack", "d4")
    assert state.decision().kind == "lunge"
    assert sorted(options(state)) == ["c4", "c5", "e4", "e5", "pass"]
    sub = state.clone()
    act(sub, "pass")
    assert options(sub) == ["d5"]
    act(state, "e4")
    assert sorted(options(state)) == ["d5", "f5"]


def test_T3_a_move_is_not_allowed_in_an_attack_turn(build):
    """T3: no MOVE this turn: after the attack the turn ends (Skull to play)."""
    state = build().hero(KEY, "d4").hero(SKULL, "d6").build()
    act(state, "Pilgrim:attack", "d4", "d6")
    assert state.current_player == SKULL and state.decision().kind == "play"
    assert state.hero(KEY).sq == state.geometry.parse("d4")


# --------------------------------------------------------------------------- T4
def test_T4_regroup_returns_a_killed_minion_to_the_back_row(build):
    """T4: return one of your killed Minions to an empty square of your back row."""
    state = (build().hero(KEY, "b1").minion(KEY, "c1").hero(SKULL, "h8").pools(key=2)
             .ruins().build())
    act(state, "Pilgrim:regroup")
    assert options(state) == ["a1", "d1", "e1", "f1", "g1", "h1"]
    act(state, "e1")
    placed = at(state, "e1")
    assert placed is not None and placed.owner == KEY and not placed.hero and placed.hp == 1
    assert state.pool == [1, 0]


def test_T4_regroup_never_resets_the_vigil(build):
    """T4/V1/D7: Regroup never resets the Vigil: a round with only a Regroup counts down."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").pools(key=1).set(vigil=3).build())
    act(state, "Pilgrim:regroup", "a1")
    assert state.vigil == 3 and not state.eventful
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 2


def test_T4_regroup_needs_a_killed_minion_and_an_empty_back_row_square(build):
    """T4/T6: Regroup is legal only if it can be completed."""
    state = build().hero(KEY, "d4").hero(SKULL, "h8").build()
    assert not any(o.mode == "regroup" for o in state.legal_options())
    assert not state.can_regroup(KEY)
    b = build().hero(KEY, "d4").hero(SKULL, "h8").pools(key=1)
    for f in "abcdefgh":
        b.minion(KEY, f"{f}1")
    state = b.build()
    assert not any(o.mode == "regroup" for o in state.legal_options())
    assert not state.can_regroup(KEY)
    state = build().hero(KEY, "d4").hero(SKULL, "h8").pools(key=1).build()
    assert state.can_regroup(KEY) and "Pilgrim:regroup" in options(state)
    assert not state.can_regroup(SKULL)  # (its pool is empty)


# --------------------------------------------------------------------------- T5
def test_T5_a_rite_sets_the_vigil_to_6_and_leaves_the_game(build):
    """T5: once per game, with any card: do what the rite says, then remove it; the played
    card still becomes the waiting card; every rite sets the Vigil to 6."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").rites(key="Exhumation")
             .set(vigil=2).build())
    assert [o for o in options(state) if o.endswith(":rite")] == [
        "Pilgrim:rite", "Crossroads:rite", "Sidewind:rite"]
    act(state, "Sidewind:rite")
    assert state.vigil == 6
    assert options(state) == [f"{f}1" for f in "abcdefgh"]
    act(state, "c1")
    assert at(state, "c1").owner == KEY and state.rites[KEY] is None
    assert state.waiting == "Sidewind" and "Requiem" in state.hands[KEY]
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 6  # the round was eventful
    assert not any(o.mode == "rite" for o in state.legal_options())


def test_T5_desecration_and_harrow_need_what_they_name(build):
    """T5/T6: Desecration needs a Ruin in your half; Harrow a killed enemy Minion."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").ruins("c6")
             .rites(key="Desecration", skull="Harrow").build())
    assert not any(o.mode == "rite" for o in state.legal_options())  # c6 is Skull's half
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").ruins("c3", "f6")
             .rites(key="Desecration").build())
    act(state, "Pilgrim:rite")
    assert options(state) == ["c3"]
    act(state, "c3")
    assert not state.is_ruin(state.geometry.parse("c3")) and at(state, "c3").owner == KEY
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").rites(key="Harrow")
             .pools(skull=1).build())
    act(state, "Pilgrim:rite", "h1")
    harrowed = at(state, "h1")
    assert harrowed.owner == KEY and harrowed.harrowed and state.pool == [0, 0]


# --------------------------------------------------------------------------- T6
def test_T6_forced_play_offers_only_the_legal_options(build):
    """T6: if any card offers a legal MOVE, ATTACK, REGROUP or RITE you must play one of
    them: no 'pass' is offered then."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").ruins("a2", "b1", "b2")
             .build())
    assert options(state) == ["Sidewind:move"]  # only c1 is reachable; nothing to attack


def test_T6_no_legal_play_swaps_any_card_and_nothing_else_happens(build):
    """T6: if nothing is legal, put any one of your cards as the new waiting card and take
    the previous one; nothing else happens."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").ruins("a2", "b1", "b2", "c1")
             .set(vigil=4).build())
    assert options(state) == ["Pilgrim:pass", "Crossroads:pass", "Sidewind:pass"]
    board_before = state.board[:]
    act(state, "Crossroads:pass")
    assert state.board == board_before
    assert state.hands[KEY] == ["Pilgrim", "Sidewind", "Requiem"]
    assert state.waiting == "Crossroads"
    assert state.current_player == SKULL and state.vigil == 4


def test_T6_a_card_swap_takes_no_lantern_step(build):
    """T6: «no pasa nada más» — after a turn with no legal play, not even the Lantern
    Bearers' end-of-turn carrier step happens."""
    state = (build(factions=("lantern-bearers", "pyre-choir"))
             .hero(KEY, "a1").minion(KEY, "h8").hero(SKULL, "e5")
             .ruins("a2", "a3", "b1", "b2", "c1", "f8", "g7").carry(SKULL, "h8")
             .hands(key=["Sidewind", "Ascension", "Vault"], waiting="Bolt").build())
    assert options(state) == ["Sidewind:pass", "Ascension:pass", "Vault:pass"]
    act(state, "Vault:pass")
    assert state.current_player == SKULL and state.decision().kind == "play"
    assert at(state, "h8").owner == KEY and state.carrier_of(SKULL) is at(state, "h8")


def test_T6_attack_needs_the_named_target_but_aegis_and_rapture_always_complete(build):
    """T6: an attack that needs «un enemigo a 2 o menos, LdV» needs such an enemy; Aegis
    and Rapture name no target and are always legal."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .hands(key=["Veil", "Aegis", "Rapture"]).build())
    assert options(state) == ["Veil:move", "Aegis:move", "Aegis:attack", "Rapture:move",
                              "Rapture:attack"]


# --------------------------------------------------------------------------- T7
def test_T7_a_restriction_forbids_only_what_it_names(build):
    """T7: a veiled piece (Veil forbids MOVE and steps) can still attack, but not lunge."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4", veiled=True).hero(SKULL, "h8")
             .minion(SKULL, "e5").minion(SKULL, "d6").build())
    act(state, "Pilgrim:move")
    assert options(state) == ["a1"]  # the veiled Minion cannot be chosen to MOVE
    state = (build().hero(KEY, "a1").minion(KEY, "d4", veiled=True).hero(SKULL, "h8")
             .minion(SKULL, "e5").minion(SKULL, "d6").build())
    act(state, "Pilgrim:attack", "d4")
    assert state.decision().kind == "target"  # no lunge is offered
    assert options(state) == ["e5"]


def test_T7_card_text_overrides_the_rules(build):
    """T7: card text overrides these rules: Hook ignores RL4's carrier exception."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3")
             .ruins("b2").carry(KEY, "c3").hands(key=["Hook", "Bolt", "Sidewind"]).build())
    assert "Bolt:attack" in options(state) and "Hook:attack" not in options(state)


# --------------------------------------------------------------------------- T8
def test_T8_no_damage_on_ones_own_first_turn_crush_and_self_damage_included(build):
    """T8 (default first_turn=no_damage): no player deals damage on their own first turn,
    crush and self-damage included; attacks are still legal."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").minion(SKULL, "e5").ruins("f6")
             .hands(key=["Ordeal", "Smite", "Bolt"]).set(turns_taken=[0, 0]).build())
    for tokens, roll in ((["Ordeal:attack", "d4", "d6"], 1), (["Ordeal:attack", "d4", "d6"], 6),
                         (["Smite:attack", "d4", "pass", "e5"], None),
                         (["Bolt:attack", "d4", "d6"], None)):
        sub = state.clone()
        act(sub, *tokens)
        if roll is not None:
            sub.apply(roll)
        assert sub.hero(KEY).hp == 4 and sub.hero(SKULL).hp == 4
        assert at(sub, "e5") is not None or at(sub, "f6") is not None
        assert sub.current_player == SKULL and not sub.eventful


def test_T8_no_damage_is_per_player_the_second_turn_deals_damage(build):
    """T8/D4: "turn 1" is each player's own first turn: Skull's first reply is also
    harmless, Key's second turn hurts."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6")
             .hands(skull=["Bolt", "Vault", "Litany"]).set(turns_taken=[0, 0]).build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert state.hero(SKULL).hp == 4
    act(state, "Bolt:attack", "d6", "d4")
    assert state.hero(KEY).hp == 4
    act(state, "Crossroads:attack", "d4", "d6")
    assert state.hero(SKULL).hp == 2


def test_T8_no_attack_option_forbids_attack_mode_on_the_first_turn(build):
    """T8 (first_turn=no_attack): no ATTACK mode on a player's first turn; damage is dealt
    normally from the next turn."""
    state = (build(first_turn="no_attack").hero(KEY, "d4").hero(SKULL, "d6")
             .set(turns_taken=[0, 0]).build())
    assert not any(o.mode == "attack" for o in state.legal_options())
    act(state, "Pilgrim:move", "d4", "d3")
    assert not any(o.mode == "attack" for o in state.legal_options())
    act(state, "Vault:move", "d6", "d4")
    attacks = [o for o in options(state) if o.endswith(":attack")]
    assert attacks == ["Crossroads:attack", "Sidewind:attack", "Requiem:attack"]
    act(state, "Crossroads:attack", "d3", "d4")
    assert state.hero(SKULL).hp == 2


def test_T8_both_settings_through_a_new_game(content):
    """T8/D4: through a real setup, the two settings differ exactly by the first turn's
    ATTACK options."""
    import reliquary

    states = {}
    for rule in ("no_damage", "no_attack"):
        state = reliquary.new_game(first_turn=rule, content=content)
        act(state, "c3", "d4", "pyre-choir", "storm-sworn")
        for card in ("Bolt", "Aegis", "Pilgrim", "Vault", "Smite", "Litany", "Gale"):
            act(state, card)
        act(state, "Harrow", "Exhumation")  # Gale: Key first, Skull drafts first
        for square in ("d2", "d7", "e2", "e7", "c1", "c8", "d1", "d8"):
            act(state, square)
        act(state, "e3", "e6")
        assert state.turns_taken == [0, 0] and state.current_player == KEY
        states[rule] = state.legal_options()
    assert any(o.mode == "attack" for o in states["no_damage"])
    assert states["no_attack"] == [o for o in states["no_damage"] if o.mode != "attack"]
