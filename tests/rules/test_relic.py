"""Scenario tests for RULES.md §3, the relic (RL1–RL5)."""

from __future__ import annotations

from reliquary.engine import KEY, SKULL, State

from .scenario import act, at, options


def relic_at(state: State, relic_owner: int) -> str:
    return state.geometry.name(state.relic_square(relic_owner))


# --------------------------------------------------------------------------- RL1
def test_RL1_ending_a_move_on_the_enemy_relic_picks_it_up(build):
    """RL1: a piece that ends a move on the enemy relic's square picks the relic up and
    carries it wherever it ends."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .relic(SKULL, "d5").hands(key=["Pilgrim", "Ascension", "Sidewind"]).build())
    act(state, "Pilgrim:move", "d4", "d5")
    mover = at(state, "d5")
    assert state.carrier_of(SKULL) is mover and state.relic_sq[SKULL] == -1
    act(state, "pass")  # no Escort step
    assert state.eventful  # a pickup makes the round eventful (V1)


def test_RL1_jumping_over_the_relic_does_not_pick_it_up(build):
    """RL1: only *ending* on the square counts: Ascension jumps d4→d6 over a relic on d5."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .relic(SKULL, "d5").hands(key=["Ascension", "Pilgrim", "Sidewind"]).build())
    act(state, "Ascension:move", "d4", "d6")
    assert state.carrier_of(SKULL) is None and relic_at(state, SKULL) == "d5"


def test_RL1_an_enemy_push_onto_the_relic_makes_the_pushed_piece_pick_it_up(build):
    """RL1: also when an enemy push put it there (Skull's Minion pushed onto Key's relic)."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d6")
             .minion(SKULL, "f4", max_hp=2).relic(KEY, "h4").build())
    act(state, "Pilgrim:attack", "d4", "f4")
    carrier = at(state, "h4")
    assert carrier is not None and carrier.owner == SKULL and carrier.hp == 1
    assert state.carrier_of(KEY) is carrier


def test_RL1_a_push_through_the_relic_square_does_not_pick_it_up(build):
    """RL1/G2: a relic never blocks, and only the square where the push ends counts."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "a8").minion(SKULL, "f4", max_hp=2)
             .relic(KEY, "g4").build())
    act(state, "Pilgrim:attack", "d4", "f4")
    assert at(state, "h4") is not None and state.carrier_of(KEY) is None
    assert relic_at(state, KEY) == "g4"


def test_RL1_a_step_onto_a_dropped_relic_picks_it_up(build):
    """RL1: the same applies to an enemy relic lying where it was dropped (Escort step)."""
    state = (build().hero(KEY, "a1").minion(KEY, "c3").minion(KEY, "f2").hero(SKULL, "h8")
             .relic(SKULL, "c4").hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    act(state, "Pilgrim:move", "f2", "f3", "c3-c4")
    assert state.carrier_of(SKULL) is at(state, "c4")


# --------------------------------------------------------------------------- RL2
def test_RL2_a_carrier_keeps_the_relic_through_its_own_sides_moves_steps_and_swaps(build):
    """RL2: a carrier keeps the relic through everything its own side does (moves, steps,
    swaps by Passage)."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").minion(KEY, "d2").hero(SKULL, "h8")
             .carry(SKULL, "d4").hands(key=["Pilgrim", "Passage", "Sidewind"]).build())
    carrier = at(state, "d4")
    act(state, "Pilgrim:move", "d4", "d5", "d2-d3")
    assert state.carrier_of(SKULL) is carrier and carrier.sq == state.geometry.parse("d5")
    # Skull plays a quiet move, then Key swaps the carrier with the Hero by Passage.
    act(state, "Vault:move", "h8", "h6")
    act(state, "Passage:attack", "d5")
    assert sorted(options(state)) == ["d3"]  # a1 is at distance 4
    act(state, "d3")
    assert state.carrier_of(SKULL) is carrier and relic_at(state, SKULL) == "d3"


def test_RL2_a_piece_never_picks_up_its_own_sides_relic(build):
    """RL2: a piece never picks up or carries its own side's relic."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .relic(KEY, "d5").hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    act(state, "Pilgrim:move", "d4", "d5")
    assert state.carrier_of(KEY) is None and relic_at(state, KEY) == "d5"
    assert not state.eventful


def test_RL2_a_carrier_attacks_normally(build):
    """RL2: a carrier attacks normally (the carrier Hero's Pyre attack from d4)."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d6").carry(SKULL, "d4").build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert at(state, "d6").hp == 2 and state.carrier_of(SKULL) is at(state, "d4")


# --------------------------------------------------------------------------- RL3
def test_RL3_a_pushed_carrier_drops_the_relic_on_the_square_it_leaves(build):
    """RL3: a carrier drops the relic on the square it leaves if the other side pushes it."""
    state = (build(factions=("storm-sworn", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d6", max_hp=2)
             .carry(KEY, "d6").build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert state.carrier_of(KEY) is None and relic_at(state, KEY) == "d6"
    assert at(state, "d8").hp == 1


def test_RL3_a_pulled_carrier_drops_the_relic(build):
    """RL3: the same for a pull (Gallows Court Hero pulls d7 to d5; the relic stays on d7)."""
    state = (build(factions=("gallows-court", "pyre-choir"))
             .hero(KEY, "d4").hero(SKULL, "d7").carry(KEY, "d7").build())
    act(state, "Pilgrim:attack", "d4", "d7")
    assert relic_at(state, KEY) == "d7" and state.carrier_of(KEY) is None
    assert at(state, "d5").hero and at(state, "d5").hp == 3


def test_RL3_a_crushed_carrier_keeps_the_relic(build):
    """RL3: if it is only crushed it keeps the relic."""
    state = (build().hero(KEY, "d4").hero(SKULL, "d5").ruins("d6").carry(KEY, "d5")
             .hands(key=["Smite", "Pilgrim", "Sidewind"]).build())
    act(state, "Smite:attack", "d4", "pass", "d5")
    assert at(state, "d5").hp == 2
    assert state.carrier_of(KEY) is at(state, "d5")


def test_RL3_a_killed_carrier_drops_the_relic_where_it_dies(build):
    """RL3: a killed carrier drops it on the square where it dies."""
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "e6")
             .carry(KEY, "e6").build())
    act(state, "Pilgrim:attack", "d4", "e6")
    assert at(state, "e6") is None
    assert state.carrier_of(KEY) is None and relic_at(state, KEY) == "e6"


# --------------------------------------------------------------------------- RL4
def test_RL4_geometric_los_is_ignored_against_a_carrier(build):
    """RL4: an attack that needs LoS ignores LoS against a carrier (geometric LoS)."""
    def targets(carrying: bool) -> list[str]:
        b = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3")
             .minion(SKULL, "a3").ruins("b2", "a2"))
        if carrying:
            b.carry(KEY, "c3")
        state = b.build()
        if "Pilgrim:attack" not in options(state):
            return []
        act(state, "Pilgrim:attack", "a1")
        return options(state)

    assert targets(carrying=False) == []
    assert targets(carrying=True) == ["c3"]  # a3 behind a2 stays hidden


def test_RL4_hook_always_needs_a_clear_line(build):
    """RL4: unless the card says otherwise (Hook: always a clear line, carrier or not)."""
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "c3", max_hp=2)
             .minion(SKULL, "d1", max_hp=2).ruins("b2").carry(KEY, "c3")
             .hands(key=["Hook", "Pilgrim", "Sidewind"]).build())
    act(state, "Hook:attack", "a1")
    assert options(state) == ["d1"]  # the carrier behind the Ruin is out of Hook's reach
    act(state, "d1")
    assert at(state, "b1") is not None and at(state, "b1").hp == 2  # pulled, no damage


def test_RL4_straight_ruins_do_not_block_against_a_carrier_but_pieces_do(build):
    """RL4 with los=straight: against a carrier, Ruins don't block LoS; pieces still do;
    and a carrier off every line is still out of sight."""
    def targets(blocker: str, carrying: bool, target: str = "c3") -> list[str]:
        b = (build(los="straight").hero(KEY, "a1").hero(SKULL, "h8")
             .minion(SKULL, target))
        if blocker == "ruin":
            b.ruins("b2")
        elif blocker == "piece":
            b.minion(KEY, "b2")
        if carrying:
            b.carry(KEY, target)
        state = b.build()
        if "Pilgrim:attack" not in options(state):
            return []
        act(state, "Pilgrim:attack")
        if "a1" not in options(state):
            return []
        act(state, "a1")
        return options(state)

    assert targets("ruin", carrying=False) == []
    assert targets("ruin", carrying=True) == ["c3"]
    assert targets("piece", carrying=True) == []
    assert targets("none", carrying=True, target="c2") == []  # not on a line


# --------------------------------------------------------------------------- RL5
def test_RL5_a_guard_on_its_own_relic_keeps_enemies_off_it(build):
    """RL5: a piece may stand on its own relic; the relic is then unreachable (G10)."""
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8")
             .minion(SKULL, "d5").relic(SKULL, "d5")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    act(state, "Pilgrim:move", "d4")
    assert options(state) == ["d3"]  # d5 is held by its guard
    assert state.carrier_of(SKULL) is None and relic_at(state, SKULL) == "d5"


def test_RL5_a_placed_piece_picks_nothing_up(build):
    """RL5: a placed piece (Regroup) picks nothing up, even on the enemy relic's square."""
    state = (build().hero(KEY, "a2").hero(SKULL, "h8").relic(SKULL, "b1")
             .pools(key=1).build())
    act(state, "Pilgrim:regroup")
    assert options(state) == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    act(state, "b1")
    placed = at(state, "b1")
    assert placed is not None and placed.owner == KEY
    assert state.carrier_of(SKULL) is None and relic_at(state, SKULL) == "b1"
    assert state.pool == [0, 0]
