"""The Vigil as a clock (V1, V2), repetitions with contempt, and the evaluation under the
rule variants (RULES.md §11)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reliquary.ai import get_agent
from reliquary.ai.evaluation import (
    Weights,
    can_reset,
    evaluate,
    regroupable,
    vigil_clock,
)
from reliquary.ai.hashing import at_turn_start, repetition_key
from reliquary.ai.search import SearchAgent
from reliquary.engine import KEY, SKULL, Play, State

#: The evaluation before the Vigil clock and the repetition check (the previous version).
PREVIOUS = Weights(vigil_clock=0.0, contempt=0.0, pool_ready=0.0)
BUDGET = {"nodes": 20_000, "max_depth": 2}


def _won_ending(build) -> State:
    # Key is ahead on the Vigil count (V2: no carriers; the Skull Hero has lost 2 HP, the
    # Key Hero none). The Vigil is at 2, Skull played first, so the round ends after
    # Key's turn (2 → 1) and the next one after Key's next turn (1 → 0: Key wins). Key's
    # Lantern Bearers Hero (1 damage, range 3) can kill the Skull Minion on d5 — a
    # Minion up, but the Vigil goes back to 6 — or play quietly: nothing of Skull's can
    # reach a Key piece, so Skull cannot reset the Vigil. Searching two turns (Key's,
    # Skull's reply), the V2 ending itself lies beyond the horizon.
    return (build(factions=("lantern-bearers", "pyre-choir"))
            .hero(KEY, "d2").hero(SKULL, "h8", hp=2).minion(SKULL, "d5")
            .relic(KEY, "a1").relic(SKULL, "h6")
            .set(first=SKULL, vigil=2).to_move(KEY).build())


def test_the_clock_names_who_wins_at_v2_and_the_rounds_left(build) -> None:
    state = _won_ending(build)
    assert vigil_clock(state) == (KEY, 2)
    assert not can_reset(state, SKULL)  # nothing of Skull's reaches a Key piece
    assert can_reset(state, KEY)  # the Hero's shot reaches d5


def test_the_previous_evaluation_trades_and_resets_the_vigil(build) -> None:
    """The control: without the clock, the Minion is worth more than the Vigil."""
    agent = SearchAgent(seed=1, weights=PREVIOUS, **BUDGET)
    assert agent.choose(_won_ending(build)) == Play("Pilgrim", "attack")


def test_the_search_lets_a_won_vigil_run_out_instead_of_trading(build) -> None:
    state = _won_ending(build)
    agents = {KEY: get_agent("search", seed=1, **BUDGET),
              SKULL: get_agent("search", seed=2, **BUDGET)}
    vigils = [state.vigil]
    while not state.is_terminal:
        assert not state.is_chance  # no die in this ending
        turns = state.turns_taken[:]
        option = agents[state.current_player].choose(state)
        state.apply(option)
        if state.turns_taken != turns:
            vigils.append(state.vigil)
    assert state.result is not None
    assert (state.winner, state.result.reason) == (KEY, "vigil")
    assert vigils == sorted(vigils, reverse=True)  # it never went back up
    assert state.rounds == 2  # the two rounds the Vigil had left


def _ahead(build, key_minions: int) -> State:
    # A quiet middle game: nobody can reach anybody this turn. ``key_minions`` Key
    # Minions on the back row against one Skull Minion: Key ahead or behind on material.
    b = (build().hero(KEY, "d1").hero(SKULL, "e8").minion(SKULL, "h8")
         .relic(KEY, "a2").relic(SKULL, "h6"))
    for sq in ("a1", "b1", "c1")[:key_minions]:
        b = b.minion(KEY, sq)
    if key_minions == 0:  # and the Key Hero hurt: well behind
        b = (build().hero(KEY, "d1", hp=1).hero(SKULL, "e8").minion(SKULL, "h8")
             .minion(SKULL, "g8").relic(KEY, "a2").relic(SKULL, "h6"))
    return b.build()


def _turn_end(state: State, line: list) -> State:
    s = state.clone()
    for option in line:
        s.apply(option)
    assert at_turn_start(s) and s.current_player != state.current_player
    return s


def test_the_side_ahead_avoids_repeating_a_position(build) -> None:
    state = _ahead(build, key_minions=3)
    assert evaluate(state, KEY) > Weights().contempt
    agent = SearchAgent(seed=1, nodes=5_000, max_depth=1)
    line, _, _, _ = agent.analyse(state, None, 5_000, seen={})
    repeated = repetition_key(_turn_end(state, line))
    # The same position, once seen earlier in the game, is a loop: another turn.
    line2, value, _, searcher = agent.analyse(state, None, 5_000, seen={repeated: 1})
    assert searcher.repetitions > 0
    assert repetition_key(_turn_end(state, line2)) != repeated
    assert value > -Weights().contempt


def test_the_side_well_behind_takes_the_repetition(build) -> None:
    """A draw is better than a lost position: contempt is for the side ahead."""
    state = _ahead(build, key_minions=0)
    agent = SearchAgent(seed=1, nodes=5_000, max_depth=1)
    _, best, _, _ = agent.analyse(state, None, 5_000, seen={})
    assert best < -2 * Weights().contempt
    # Of two lines, the one that repeats a position is now the best one.
    options = [o for o in state.legal_options() if isinstance(o, Play)]
    first, _, _, _ = agent.analyse(state, None, 5_000, seen={})
    other = next(o for o in options if o != first[0])
    s = state.clone()
    s.apply(other)
    line = [other, *agent.analyse(s, None, 5_000, seen={})[0]]
    repeated = repetition_key(_turn_end(state, line))
    line2, value, _, _ = agent.analyse(state, None, 5_000, seen={repeated: 1})
    assert value == -Weights().contempt
    assert repetition_key(_turn_end(state, line2)) == repeated


def test_the_agent_remembers_its_games_positions(build) -> None:
    state = _ahead(build, key_minions=3)
    agent = SearchAgent(seed=1, nodes=2_000, max_depth=1)
    s = state.clone()
    while s.current_player == KEY:
        s.apply(agent.choose(s))
    # the start of Key's turn, and the position handed to Skull
    assert set(agent.seen) == {repetition_key(state), repetition_key(s)}
    # a position with fewer turns taken is another game: the memory starts again
    fresh = _ahead(build, key_minions=2)
    fresh.turns_taken = [0, 0]
    agent.observe(fresh)
    assert set(agent.seen) == {repetition_key(fresh)}


def test_repetition_keys_ignore_counters_and_piece_ids(build) -> None:
    a = _ahead(build, key_minions=3)
    b = a.clone()
    b.rounds += 7
    b.turns_taken = [t + 7 for t in b.turns_taken]
    assert repetition_key(a) == repetition_key(b)
    b.vigil -= 1
    assert repetition_key(a) != repetition_key(b)


def test_a_reset_helps_the_side_behind_and_hurts_the_side_ahead(build) -> None:
    quiet = _won_ending(build)
    reset = quiet.clone()
    reset.eventful = True  # something happened this round: the Vigil goes back up
    assert vigil_clock(reset) == (KEY, 7)
    assert evaluate(quiet, KEY) - evaluate(reset, KEY) > 100
    low = quiet.clone()
    low.vigil = 1
    assert evaluate(low, KEY) > evaluate(quiet, KEY)  # the clock nearer its end


# -- the rule variants (RULES.md §11) ------------------------------------------------------

def _pools(build, **settings: object) -> tuple[State, State]:
    def make(pool: int) -> State:
        return (build(**settings).hero(KEY, "d1").minion(KEY, "a1").hero(SKULL, "e8")
                .minion(SKULL, "h8").relic(KEY, "a2").relic(SKULL, "h6")
                .pools(key=pool).build())
    return make(0), make(2)


def test_a_killed_minion_is_worth_its_regroup(build) -> None:
    empty, two = _pools(build)
    w = Weights()
    assert regroupable(two, KEY) == 2 and two.can_regroup(KEY)
    # Each pooled Minion, and one of them can come back at once (T4).
    assert evaluate(two, KEY) - evaluate(empty, KEY) == 2 * w.pool + w.pool_ready


def test_a_killed_minion_is_worth_less_while_the_back_row_is_full(build) -> None:
    def make(pool: int) -> State:
        b = build().hero(KEY, "d2").hero(SKULL, "e8").relic(KEY, "a3").relic(SKULL, "h6")
        for f in "abcdefgh":
            b.minion(KEY, f"{f}1")
        return b.pools(key=pool).build()
    empty, one = make(0), make(1)
    assert regroupable(one, KEY) == 1 and not one.can_regroup(KEY)
    assert evaluate(one, KEY) - evaluate(empty, KEY) == Weights().pool


def test_removed_minions_are_worth_nothing(build) -> None:
    empty, two = _pools(build, killed_minions="removed")  # VAR4
    assert regroupable(two, KEY) == 0
    assert evaluate(two, KEY) == evaluate(empty, KEY)


def test_pool_minions_count_only_up_to_the_regroups_left(build) -> None:
    empty, two = _pools(build, regroup_limit=2)  # VAR1
    two.regroups = [1, 0]
    assert regroupable(two, KEY) == 1
    assert evaluate(two, KEY) - evaluate(empty, KEY) == Weights().pool + Weights().pool_ready
    two.regroups = [2, 0]
    assert evaluate(two, KEY) == evaluate(empty, KEY)


def test_the_clock_reads_the_vigils_start(build) -> None:
    state = (build(vigil_start=3).hero(KEY, "d1").hero(SKULL, "e8", hp=3)  # VAR3
             .relic(KEY, "a2").relic(SKULL, "h6").set(vigil=3, eventful=True).build())
    assert vigil_clock(state) == (KEY, 4)  # back to 3 at the round's end, then 3 rounds


def test_minion_damage_does_not_reset_under_vigil_reset_hero(build) -> None:
    # The Skull Minion on d3 can strike the Key Minion on d2, not the Key Hero.
    def make(**settings: object) -> State:
        return (build(**settings).hero(KEY, "a1").minion(KEY, "d2").hero(SKULL, "h8")
                .minion(SKULL, "d3").relic(KEY, "b1").relic(SKULL, "h6").to_move(SKULL)
                .build())
    assert can_reset(make(), SKULL)
    assert not can_reset(make(vigil_reset="hero"), SKULL)  # VAR2


def test_agents_play_whole_games_under_the_variants() -> None:
    from reliquary.ai.match import MatchSpec, play_game

    variants = {"regroup_limit": 1, "vigil_reset": "hero", "vigil_start": 3,
                "killed_minions": "removed"}
    spec = MatchSpec("search", "greedy", 2, seed=4, nodes=300, round_cap=60,
                     variants=variants)
    for index in (0, 1):
        outcome = play_game(spec, index)
        assert outcome.reason in ("hero_killed", "relic_home", "vigil", "round_cap")
        assert 0 < outcome.rounds <= 60


def test_a_minion_the_player_to_move_can_strike_is_en_prise(build) -> None:
    # Skull to move; its Minion on d4 can strike the Key Minion on d3 (adjacent), or,
    # moved to b4, cannot reach it.
    def make(skull_minion: str) -> State:
        return (build().hero(KEY, "a1").minion(KEY, "d3").hero(SKULL, "h8")
                .minion(SKULL, skull_minion).relic(KEY, "b1").relic(SKULL, "h6")
                .to_move(SKULL).build())
    near, far = make("d4"), make("h5")
    with_term = evaluate(far, KEY) - evaluate(near, KEY)
    without = Weights(minion_en_prise=0.0)
    plain = evaluate(far, KEY, without) - evaluate(near, KEY, without)
    assert with_term - plain == Weights().minion_en_prise


# -- REGROUP and the clock (T4, V2) ----------------------------------------------------------

def _one_minion_up(build, skull_pool: int, skull_hero_hp: int = 4) -> State:
    # Key leads V2 on its last count only (no carriers, Heroes equally hurt): 2 Minions to 1.
    return (build().hero(KEY, "d1").minion(KEY, "a2").minion(KEY, "b2")
            .hero(SKULL, "e8", hp=skull_hero_hp).minion(SKULL, "h7")
            .relic(KEY, "a1").relic(SKULL, "h6").pools(skull=skull_pool)
            .set(vigil=4).to_move(KEY).build())


def test_a_lead_of_one_minion_that_regroup_undoes_earns_no_clock(build) -> None:
    state = _one_minion_up(build, skull_pool=1)
    leader, left = vigil_clock(state)
    assert leader == KEY and state.can_regroup(SKULL)
    full = state.settings.vigil_start + 1
    clock = Weights().vigil_clock * (full + 1 - left) / full
    v2_clock = Weights(clock_regroupable=1.0)
    assert evaluate(state, KEY, v2_clock) - evaluate(state, KEY) == pytest.approx(clock)


def test_a_lead_regroup_cannot_undo_keeps_its_clock(build) -> None:
    v2_clock = Weights(clock_regroupable=1.0)
    no_pool = _one_minion_up(build, skull_pool=0)  # nothing to regroup
    assert evaluate(no_pool, KEY, v2_clock) == evaluate(no_pool, KEY)
    hurt = _one_minion_up(build, skull_pool=1, skull_hero_hp=3)  # V2 reads Hero damage first
    assert hurt.vigil_leader() == KEY
    assert evaluate(hurt, KEY, v2_clock) == evaluate(hurt, KEY)


# -- draw contempt: a draw is below 0 for the searching side ------------------------------

def _tied_last_round(build, rite: str | None = None) -> State:
    # Tied on every V2 count (no carriers, no damage, no Minions), the Vigil at 1 and Skull
    # first: the round ends after Key's turn, and unless something happens in it the
    # game ends in a draw. Nothing of either side reaches the other.
    return (build().hero(KEY, "a1").hero(SKULL, "h8").relic(KEY, "b3").relic(SKULL, "g6")
            .rites(key=rite, skull=rite).set(first=SKULL, vigil=1).to_move(KEY).build())


def test_draw_contempt_scores_a_draw_below_zero_for_either_side(build) -> None:
    state = _tied_last_round(build)
    assert vigil_clock(state) == (None, 1)
    contempt = Weights(draw_contempt=20.0)
    for player in (KEY, SKULL):
        # A tied Vigil running out costs the evaluating side, whichever it is ...
        gap = evaluate(state, player) - evaluate(state, player, contempt)
        assert gap == pytest.approx(20.0 * (7 + 1 - 1) / 7)
    ahead = _won_ending(build)  # ... and only when tied: a lead's clock is unchanged
    assert evaluate(ahead, KEY, contempt) == evaluate(ahead, KEY)
    # Every Key turn here ends the game in a draw: the search sees it at once.
    for weights, draw in ((Weights(), 0.0), (contempt, -20.0)):
        agent = SearchAgent(seed=1, nodes=5_000, max_depth=2, weights=weights)
        _, value, _, _ = agent.analyse(state)
        assert value == draw


def test_draw_contempt_plays_for_a_result(build) -> None:
    """A rite resets the Vigil (V1). Both sides hold one, weighted above the Minion it
    brings (and the clock off, which would value that Minion's lead): Key's played, the
    position is worse for Key than the draw, so Key keeps it and the game is drawn; with
    draw contempt the draw is worse still, so Key plays it and the game goes on."""
    state = _tied_last_round(build, rite="Exhumation")
    keep = Weights(rite=40.0, vigil_clock=0.0)
    for weights, plays_rite in ((keep, False), (replace(keep, draw_contempt=20.0), True)):
        s = state.clone()
        agent = SearchAgent(seed=1, nodes=20_000, max_depth=2, weights=weights)
        turns = s.turns_taken[:]
        while s.turns_taken == turns:
            s.apply(agent.choose(s))
        assert s.is_terminal is not plays_rite
        assert (s.rites[KEY] is None) is plays_rite
        if plays_rite:
            assert s.vigil == s.settings.vigil_start  # reset: the game goes on
