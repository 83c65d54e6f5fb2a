"""Scenario tests for RULES.md §1, components (C1–C4)."""

from __future__ import annotations

import pytest

import reliquary
from reliquary.engine import KEY, SKULL

from .scenario import act

# side -> (minions per player, ruins in all, deployment rows), as printed in C1
TABLE = {8: (3, 4, 2), 9: (4, 6, 2), 10: (4, 6, 2), 11: (5, 8, 3), 12: (5, 8, 3)}


@pytest.mark.parametrize("size", sorted(TABLE))
def test_C1_board_table_minions_ruins_and_deployment_rows(content, size):
    """C1: per side N, minions per player, ruins in all and deployment rows:
    8 → 3/4/2, 9–10 → 4/6/2, 11–12 → 5/8/3."""
    minions, ruins, rows = TABLE[size]
    state = reliquary.new_game(size=size, content=content)
    assert len(state.board) == size * size
    pairs = 0
    while state.decision().kind == "ruin":
        state.apply(state.legal_options()[-1])
        pairs += 1
    assert pairs * 2 == ruins
    assert sum(state.is_ruin(sq) for sq in range(size * size)) == ruins
    act(state, "pyre-choir", "storm-sworn")
    for card in ("Pilgrim", "Crossroads", "Sidewind", "Vault", "Litany", "Procession",
                 "Gale"):
        act(state, card)
    act(state, "Harrow", "Exhumation")  # Gale: Key first; Skull drafts first
    first = state.legal_options()
    ranks = {sq // size for sq in first}
    assert ranks == set(range(rows))  # Key's deployment rows from its back row
    deployed = {KEY: 0, SKULL: 0}
    while state.decision().kind == "deploy":
        player = state.current_player
        if player == SKULL:
            assert {sq // size for sq in state.legal_options()} == set(
                range(size - rows, size))
        state.apply(state.legal_options()[0])
        deployed[player] += 1
    assert deployed == {KEY: minions + 1, SKULL: minions + 1}
    for player in (KEY, SKULL):
        own = [p for p in state.pieces.values() if p.owner == player]
        assert sum(not p.hero for p in own) == minions


def test_C1_board_sides_outside_8_to_12_are_refused(content):
    """C1: the side is from 8 to 12."""
    for size in (7, 13):
        with pytest.raises(ValueError, match="board side"):
            reliquary.new_game(size=size, content=content)


def test_C2_each_player_has_one_hero_minions_relic_faction_and_rite(content):
    """C2: each player has an emblem, one Hero (4 HP; Bone Wardens 5), the table's number
    of 1-HP Minions, one Relic, one Faction card and, after the draft, one Rite card."""
    state = reliquary.new_game(size=8, content=content)
    while state.decision().kind == "ruin":
        state.apply(state.legal_options()[0])
    act(state, "bone-wardens", "veiled-hand")
    for card in ("Pilgrim", "Crossroads", "Sidewind", "Vault", "Litany", "Procession",
                 "Bolt"):
        act(state, card)
    act(state, "Exhumation", "Harrow")
    while state.decision().kind != "play":
        state.apply(state.legal_options()[0])
    assert state.factions == ["bone-wardens", "veiled-hand"]
    assert state.rites == ["Exhumation", "Harrow"]  # Bolt: Skull first, Key drafts first
    for player, hero_hp in ((KEY, 5), (SKULL, 4)):
        own = [p for p in state.pieces.values() if p.owner == player]
        heroes = [p for p in own if p.hero]
        assert len(heroes) == 1 and heroes[0].hp == heroes[0].max_hp == hero_hp
        assert [p.hp for p in own if not p.hero] == [1, 1, 1]
        assert state.relic_sq[player] >= 0 and state.relic_carrier[player] == -1


def test_C3_the_deck_has_18_cards_nine_generic_nine_unique(content):
    """C3: 18 movement cards; nine generic with the faction attack (four with Escort),
    nine unique with their own attack (Ordeal and Rapture by chance); each has a seal."""
    generic = ["Pilgrim", "Crossroads", "Sidewind", "Vault", "Litany", "Procession",
               "Requiem", "Serpent", "Ascension"]
    unique = ["Bolt", "Smite", "Hook", "Gale", "Veil", "Passage", "Aegis", "Ordeal", "Rapture"]
    assert [c.id for c in content.cards] == generic + unique
    assert [c.id for c in content.cards if c.generic] == generic
    assert sorted(c.id for c in content.cards if c.escort) == sorted(
        ["Pilgrim", "Sidewind", "Procession", "Ascension"])
    chance = [c.id for c in content.cards if not c.generic and c.attack.any is not None
              and c.attack.any.effect in ("ordeal", "rapture")]
    assert chance == ["Ordeal", "Rapture"]
    seals = [c.seal for c in content.cards]
    assert seals.count("key") == 9 and seals.count("skull") == 9  # D2


def test_C3_generic_cards_use_the_faction_attack(build):
    """C3: a generic card's attack is «ATAQUE DE FACCIÓN»: with Storm Sworn it pushes."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "d6").build())
    act(state, "Crossroads:attack", "d4", "d6")
    hero = state.hero(SKULL)
    assert hero is not None and state.geometry.name(hero.sq) == "d8" and hero.hp == 3


def test_C4_the_chance_die_has_six_equally_likely_faces(build):
    """C4: a six-sided chance die (rolled for Ordeal and Rapture)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8")
             .hands(key=["Rapture", "Pilgrim", "Sidewind"]).build())
    act(state, "Rapture:attack", "d4")
    decision = state.decision()
    assert decision.kind == "roll" and decision.player == -1
    assert decision.options == (1, 2, 3, 4, 5, 6)
    assert decision.probabilities == tuple([1 / 6] * 6)


def test_C4_the_vigil_die_counts_from_6_down_to_0(build):
    """C4: the Vigil die, a counter from 6 down to 0: it starts at 6 and a quiet round
    takes it down by one; at 0 the game is over."""
    state = reliquary.new_game()
    assert state.vigil == 6
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").set(vigil=1).to_move(SKULL).build())
    act(state, "Vault:move", "h8", "h6")
    assert state.vigil == 0 and state.is_terminal and state.result.reason == "vigil"
