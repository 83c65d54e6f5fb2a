"""Scenario tests for RULES.md §2, geometry and combat (G1–G11).

Positions are set up with the Builder; Key (player 0) plays from rank 1 upwards.
"""

from __future__ import annotations

import pytest

from reliquary.engine import KEY, SKULL

from .scenario import act, at, options
from .scenario import hp as hp_at


# --------------------------------------------------------------------------- G1
def test_G1_adjacent_means_the_eight_surrounding_squares(build):
    """G1: Adjacent = the 8 surrounding squares."""
    b = build().hero(KEY, "h1").minion(KEY, "d4").hero(SKULL, "h8")
    around = ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]
    for square in around:
        b.minion(SKULL, square)
    b.minion(SKULL, "f4")  # two files away: not adjacent
    state = b.build()
    act(state, "Pilgrim:attack")
    assert options(state) == ["d4"]  # the Hero at h1 has nothing in range 2
    act(state, "d4")  # no lunge is possible: every neighbour is taken
    assert state.decision().kind == "target"
    assert sorted(options(state)) == sorted(around)


def test_G1_range_is_chebyshev_distance_a_diagonal_counts_one(build):
    """G1: «alcance N» = Chebyshev distance ≤ N (a diagonal counts 1), ignoring blocks."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "f6")   # two diagonal steps: distance 2
             .minion(SKULL, "f5")   # distance 2
             .minion(SKULL, "b2")   # distance 2
             .minion(SKULL, "g4")   # distance 3
             .minion(SKULL, "d7")   # distance 3
             .minion(KEY, "e5")     # a piece on the way does not lengthen the range
             .build())
    act(state, "Pilgrim:attack", "d4")
    assert options(state) == ["b2", "f5", "f6"]


# --------------------------------------------------------------------------- G2
def test_G2_ruin_piece_and_board_edge_block_but_a_relic_does_not(build):
    """G2: blocked = off the board, a Ruin, or a piece; a square with only a relic is empty."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .minion(KEY, "c8")          # Pilgrim: (0,1) is off the board
             .minion(KEY, "e4").ruins("e5")   # (0,1) is a Ruin
             .minion(KEY, "g4").minion(KEY, "g3")  # (0,-1) is a piece
             .minion(KEY, "b4").relic(SKULL, "b5")  # (0,1) holds only the enemy relic
             .build())
    act(state, "Pilgrim:move")
    assert sorted(options(state)) == ["a1", "b4", "c8", "e4", "g3", "g4"]
    sub = state.clone()
    act(sub, "c8")
    assert options(sub) == ["c7"]
    sub = state.clone()
    act(sub, "e4")
    assert options(sub) == ["e3"]
    sub = state.clone()
    act(sub, "g4")
    assert options(sub) == ["g5"]
    act(state, "b4")
    assert options(state) == ["b3", "b5"]


# --------------------------------------------------------------------------- G3
def test_G3_a_step_goes_to_an_adjacent_unblocked_square_and_never_jumps(build):
    """G3: a step moves a piece to an adjacent unblocked square; a step never jumps."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .minion(KEY, "e2").ruins("a2").minion(SKULL, "b1")
             .hands(key=["Pilgrim", "Smite", "Hook"])
             .build())
    # Pilgrim moves the Minion e2 -> e3; the Escort step is then offered to the Hero:
    act(state, "Pilgrim:move", "e2", "e3")
    assert state.decision().kind == "escort"
    assert options(state) == ["a1-b2", "pass"]  # a2 Ruin, b1 piece; nothing further away
    act(state, "a1-b2")
    assert at(state, "b2") is not None and at(state, "b2").hero


# --------------------------------------------------------------------------- G4
def test_G4_swap_exchanges_two_pieces(build):
    """G4: a swap: two pieces exchange squares (Passage)."""
    state = (build().hero(KEY, "c3", hp=2).minion(KEY, "e5").hero(SKULL, "h8")
             .hands(key=["Passage", "Pilgrim", "Sidewind"]).build())
    hero_id, minion_id = at(state, "c3").id, at(state, "e5").id
    act(state, "Passage:attack", "c3")
    assert options(state) == ["e5"]
    act(state, "e5")
    assert at(state, "e5").id == hero_id and at(state, "e5").hp == 2
    assert at(state, "c3").id == minion_id


# --------------------------------------------------------------------------- G5
def test_G5_geometric_ruin_blocks_when_the_segment_crosses_its_interior(build):
    """G5: a Ruin blocks LoS if the segment between centres crosses its square's interior.

    From a1 to c2 the segment crosses the interiors of b1 and b2 (it passes the edge
    between them at b's centre line), so a Ruin on either blocks; from a1 to c3 it
    crosses only b2.
    """
    for ruin, expected in (("b1", ["c3"]), ("a2", ["c2", "c3"]), ("c1", ["c2", "c3"]),
                           ("d2", ["c2", "c3"])):
        state = (build().hero(KEY, "a1").hero(SKULL, "h8")
                 .minion(SKULL, "c2").minion(SKULL, "c3").ruins(ruin).build())
        act(state, "Pilgrim:attack", "a1")
        assert options(state) == expected, ruin


def test_G5_geometric_ruin_on_b2_hides_both_targets(build):
    """G5: the segments a1→c2 and a1→c3 both cross b2's interior: no LoS, no attack."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8")
             .minion(SKULL, "c2").minion(SKULL, "c3").ruins("b2").build())
    assert not any(o.endswith(":attack") for o in options(state))
    geo = state.geometry
    assert not state.has_los(geo.parse("a1"), geo.parse("c2"))
    assert not state.has_los(geo.parse("a1"), geo.parse("c3"))


def test_G5_geometric_segment_through_a_four_square_corner_is_not_blocked(build):
    """G5: a segment passing exactly through a corner where four squares meet is not
    blocked there. a1→d2 passes the corner of b1, c1, b2, c2 and crosses b1 and c2."""
    def lantern_targets(*ruins: str) -> list[str]:
        b = (build(factions=("lantern-bearers", "pyre-choir"))
             .hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "d2"))
        if ruins:
            b.ruins(*ruins)
        state = b.build()
        if "Pilgrim:attack" not in options(state):
            return []
        act(state, "Pilgrim:attack", "a1")
        return options(state)

    assert lantern_targets() == ["d2"]
    assert lantern_targets("b2", "c1") == ["d2"]  # only touched at the corner
    assert lantern_targets("b1") == []            # crossed
    assert lantern_targets("c2") == []            # crossed


def test_G5_geometric_diagonal_passes_the_corners_it_touches(build):
    """G5: a1→c3 runs through b2's centre and touches the corners of a2, b1, c2 and b3:
    Ruins on those four do not block; a Ruin on b2 does."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3")
             .ruins("a2", "b1", "c2", "b3").build())
    act(state, "Pilgrim:attack", "a1")
    assert options(state) == ["c3"]
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3").ruins("b2")
             .build())
    assert not any(o.endswith(":attack") for o in options(state))


def test_G5_geometric_pieces_never_block(build):
    """G5: pieces never block LoS (default rule)."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3")
             .minion(KEY, "b2").build())
    act(state, "Pilgrim:attack", "a1")
    assert options(state) == ["c3"]


def test_G5_straight_los_only_on_lines_and_pieces_block(build):
    """G5 option los=straight: LoS only along a row, column or diagonal; Ruins and
    pieces strictly between block it."""
    def targets(*extra: tuple[str, str]) -> list[str]:
        b = (build(los="straight").hero(KEY, "a1").hero(SKULL, "h8")
             .minion(SKULL, "c2").minion(SKULL, "c3").minion(SKULL, "a3"))
        for kind, square in extra:
            if kind == "ruin":
                b.ruins(square)
            else:
                b.minion(KEY, square)
        state = b.build()
        act(state, "Pilgrim:attack", "a1")
        return options(state)

    assert targets() == ["a3", "c3"]                 # c2 is off every line
    assert targets(("piece", "b2")) == ["a3"]        # a friendly piece blocks the diagonal
    assert targets(("ruin", "a2")) == ["c3"]         # a Ruin blocks the column
    assert targets(("ruin", "b1")) == ["a3", "c3"]   # off the lines: no effect


# --------------------------------------------------------------------------- G6
@pytest.mark.parametrize(("target", "landing"), [
    ("e6", "g8"),   # (1,2): nearest line is the diagonal
    ("f5", "h7"),   # (2,1): the diagonal again
    ("f4", "h4"),   # (2,0): the row
    ("d6", "d8"),   # (0,2): the column
    ("c5", "a7"),   # (-1,1): the other diagonal
])
def test_G6_push_follows_the_nearest_line_away_from_the_attacker(build, target, landing):
    """G6: push moves the target away along the row, column or diagonal nearest in angle
    to the line between the centres (Storm Sworn Hero: 1 damage + push 2)."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "a8").minion(SKULL, target, max_hp=3).build())
    act(state, "Pilgrim:attack", "d4", target)
    assert at(state, target) is None
    assert hp_at(state, landing) == 2


def test_G6_push_stops_before_the_first_blocked_square(build):
    """G6: it moves as many squares as it can, stopping before the first blocked square."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "f6").minion(SKULL, "h8").build())
    act(state, "Pilgrim:attack", "d4", "f6")
    assert hp_at(state, "g7") == 3 and at(state, "h8") is not None


def test_G6_pull_moves_towards_the_attacker_up_to_its_number(build):
    """G6/D15: pull moves the target towards the attacker along the fixed line, up to its
    number of squares and never past the square next to the attacker (Gallows Hero pull 2)."""
    cases = [("g7", "e5"), ("d7", "d5"), ("d6", "d5"), ("g5", "e5")]
    for target, landing in cases:
        state = (build(factions=("gallows-court", "pyre-choir"))
                 .hero(KEY, "d4").hero(SKULL, "a8").minion(SKULL, target, max_hp=4).build())
        act(state, "Pilgrim:attack", "d4", target)
        assert hp_at(state, landing) == 3, (target, landing)
        if target != landing:
            assert at(state, target) is None


# --------------------------------------------------------------------------- G7
def test_G7_push_into_ruin_crushes(build):
    """G7: a push that moves 0 squares crushes: 1 normal damage instead of the movement
    (Smite Hero: 1 damage + push 1 into a Ruin = 2 damage, target stays)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").ruins("d6")
             .hands(key=["Smite", "Pilgrim", "Sidewind"]).build())
    act(state, "Smite:attack", "d4")
    assert state.decision().kind == "lunge"
    act(state, "pass", "d5")
    assert hp_at(state, "d5") == 2


def test_G7_push_against_the_board_edge_or_a_piece_crushes(build):
    """G7: off the board and a piece block as well; a Minion's pure push of 1 crushes."""
    state = (build().hero(KEY, "a1").minion(KEY, "d7").hero(SKULL, "d8", hp=3)
             .minion(KEY, "b6").minion(SKULL, "b7").minion(KEY, "b8")
             .hands(key=["Smite", "Pilgrim", "Sidewind"]).build())
    sub = state.clone()
    act(sub, "Smite:attack", "d7", "pass", "d8")  # Minion line: push 1 only
    assert hp_at(sub, "d8") == 2
    act(state, "Smite:attack", "b6", "pass", "b7")  # pushed into the Key Minion at b8
    assert at(state, "b7") is None  # the 1-HP Minion is crushed to death
    assert state.pool == [0, 1]


def test_G7_pull_on_an_adjacent_target_crushes(build):
    """G7: a pull on a target already adjacent moves 0 squares: it crushes."""
    state = (build(factions=("gallows-court", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "e5").build())
    act(state, "Pilgrim:attack", "d4", "e5")
    assert hp_at(state, "e5") == 2  # 1 damage + 1 crush


def test_G7_crush_is_prevented_by_what_prevents_damage(build):
    """G7: effects that prevent damage prevent the crush too (T8 on the first turn)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").ruins("d6")
             .hands(key=["Smite", "Pilgrim", "Sidewind"]).set(turns_taken=[0, 0]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert hp_at(state, "d5") == 4


# --------------------------------------------------------------------------- G8
def test_G8_damage_first_then_push_and_a_kill_stops_the_push(build):
    """G8: resolve damage first, then the push; if the attack kills, there is no push."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "a8").minion(SKULL, "d6").build())
    state.events = []
    act(state, "Pilgrim:attack", "d4", "d6")
    kinds = [e.kind for e in state.events]
    assert "kill" in kinds and "push" not in kinds
    assert at(state, "d6") is None and at(state, "d8") is None


def test_G8_crush_damage_joins_the_hit_and_can_kill(build):
    """G8: crush damage joins the same hit: 1 damage + crush = 2, enough to kill a 2-HP Hero."""
    state = (build().hero(KEY, "d4").hero(SKULL, "e4", hp=2).ruins("f4")
             .hands(key=["Smite", "Pilgrim", "Sidewind"]).build())
    state.events = []
    act(state, "Smite:attack", "d4", "pass", "e4")
    damage = [(e.data["amount"], e.data["crush"]) for e in state.events if e.kind == "damage"]
    assert damage == [(1, False), (1, True)]
    assert state.is_terminal and state.winner == KEY and state.result.reason == "hero_killed"


# --------------------------------------------------------------------------- G9
def test_G9_attacks_target_only_enemies_and_gale_pushes_only_enemies(build):
    """G9: damage only ever falls on enemies: friendly neighbours are never targets,
    and Gale pushes only the adjacent enemies."""
    state = (build().hero(KEY, "d4").minion(KEY, "e4").minion(SKULL, "c4")
             .hero(SKULL, "h8").hands(key=["Gale", "Pilgrim", "Sidewind"]).build())
    act(state, "Gale:attack", "d4")
    # the Hero is veiled-free: Gale's step is mandatory, to a square next to an enemy
    assert state.decision().kind == "gale_step"
    assert sorted(options(state)) == ["c3", "c5", "d3", "d5"]
    act(state, "d3")
    # the enemy at c4 is pushed 2 along the diagonal away from d3; the friend at e4 stays
    assert at(state, "c4") is None and at(state, "a6") is not None
    assert at(state, "e4") is not None and at(state, "e4").owner == KEY


def test_G9_ordeal_is_the_exception_it_damages_the_attacker_on_a_1(build):
    """G9: unless a card says otherwise (Ordeal's 1: the attacker takes 1 damage)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6")
             .hands(key=["Ordeal", "Pilgrim", "Sidewind"]).build())
    act(state, "Ordeal:attack", "d4", "d6")
    assert state.is_chance
    state.apply(1)
    assert hp_at(state, "d4") == 3 and hp_at(state, "d6") == 4


# --------------------------------------------------------------------------- G10
def test_G10_move_lists_only_empty_destinations(build):
    """G10: a move whose every destination is occupied is not offered for that piece."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").minion(SKULL, "d6")
             .minion(KEY, "d5").minion(KEY, "d3").hero(SKULL, "h8")
             .hands(key=["Ascension", "Pilgrim", "Sidewind"]).build())
    act(state, "Ascension:move")
    assert "d4" not in options(state)  # d5 and d6 are both taken
    act(state, "d5")
    assert options(state) == ["d7"]   # d6 is taken; d7 over it is free


# --------------------------------------------------------------------------- G11
def test_G11_killed_minion_waits_in_the_pool_and_heroes_have_their_hp(build, content):
    """G11 (and C2): Minions 1 HP, Heroes 4 (Bone Wardens 5); a piece at 0 HP is removed;
    killed Minions wait in their owner's pool."""
    state = (build(factions=("pyre-choir", "bone-wardens"))
             .hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e6").build())
    assert at(state, "d4").hp == 4 and at(state, "h8").hp == 5 and at(state, "e6").hp == 1
    act(state, "Pilgrim:attack", "d4", "e6")
    assert at(state, "e6") is None
    assert state.pool == [0, 1]
    assert sum(1 for p in state.pieces.values() if p.owner == SKULL) == 1


def test_G11_hero_at_zero_hp_is_killed(build):
    """G11: a Hero at 0 HP is killed and removed (and V3 ends the game)."""
    state = build().hero(KEY, "d4").hero(SKULL, "e6", hp=2).build()
    act(state, "Pilgrim:attack", "d4", "e6")
    assert at(state, "e6") is None
    assert state.result.winner == KEY and state.result.reason == "hero_killed"
