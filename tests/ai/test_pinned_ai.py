"""Behaviours of the evaluation and the search that a fault in a number would change
(issue 31): sooner wins score higher and later losses higher, the search sees a
repetition on its own line, the danger threshold of a wounded Hero, and T8 in
``can_reset``."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from reliquary.ai.evaluation import WIN, WIN_THRESHOLD, Weights, can_reset, evaluate, terminal_value
from reliquary.ai.hashing import at_turn_start, repetition_key
from reliquary.ai.search import SearchAgent, Searcher
from reliquary.engine import KEY, SKULL, State


def _key_wins(build: Any) -> State:
    """A finished game that Key won (its Minion carries the Skull relic home, V3)."""
    state = (build().hero(KEY, "f3").minion(KEY, "c2").carry(SKULL, "c2")
             .hero(SKULL, "f8").hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    agent = SearchAgent(seed=1, nodes=5_000, max_depth=1)
    while not state.is_terminal:
        assert state.current_player == KEY and not state.is_chance
        state.apply(agent.choose(state))
    assert state.winner == KEY
    return state


def test_sooner_wins_score_higher_and_later_losses_higher(build: Any) -> None:
    won = _key_wins(build)
    assert terminal_value(won, KEY) == WIN
    assert terminal_value(won, KEY, ply=2) > terminal_value(won, KEY, ply=5) > WIN_THRESHOLD
    assert terminal_value(won, SKULL, ply=5) > terminal_value(won, SKULL, ply=2)
    assert terminal_value(won, SKULL, ply=5) < -WIN_THRESHOLD
    assert terminal_value(won, KEY, ply=3) == -terminal_value(won, SKULL, ply=3)
    assert evaluate(won, KEY) == WIN and evaluate(won, SKULL) == -WIN


def test_the_search_values_a_win_by_its_distance(build: Any) -> None:
    """The searcher's value of a won position found one ply down is WIN less that ply."""
    state = (build().hero(KEY, "f3").minion(KEY, "c2").carry(SKULL, "c2")
             .hero(SKULL, "f8").hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    _, value, _, _ = SearchAgent(seed=1, nodes=5_000, max_depth=1).analyse(state, None, 5_000)
    assert WIN_THRESHOLD < value < WIN  # a win, a few plies away, not "now"


def _quiet(build: Any) -> State:
    """Two Heroes far apart and nothing else: every turn is a quiet shuffle."""
    return (build().hero(KEY, "a1").hero(SKULL, "h8").relic(KEY, "b1").relic(SKULL, "g8")
            .build())


def _after_a_turn(state: State) -> State:
    s = state.clone()
    player = s.current_player
    while s.current_player == player:
        s.apply(s.legal_options()[0])
    assert at_turn_start(s)
    return s


def test_the_search_sees_a_repetition_on_its_own_line(build: Any) -> None:
    """A turn start that the current line already passed through (``path``) is a loop,
    scored as a draw with contempt, even with no game history at all (``seen`` empty).

    (A real loop takes three rounds of cards and an eventful round each time, beyond
    a test's search, so the line's earlier turn start is put on the path by hand.)"""
    state = _after_a_turn(_quiet(build))
    end = sum(state.turns_taken) + 2
    looped = Searcher(KEY, seen={})
    looped.path[repetition_key(state)] = 1
    assert looped.value(state.clone(), end, -math.inf, math.inf, 1) == -Weights().contempt
    assert looped.repetitions == 1
    fresh = Searcher(KEY, seen={})
    value = fresh.value(state.clone(), end, -math.inf, math.inf, 1)
    assert fresh.repetitions == 0 and value != -Weights().contempt
    assert fresh.path == {}  # the line's turn starts come off the path on the way back
    root = Searcher(KEY, seen={})  # the root itself (ply 0) is never a repetition
    root.path[repetition_key(state)] = 1
    root.value(state.clone(), end, -math.inf, math.inf, 0)
    assert root.repetitions == 0


# ---------------------------------------------------------------------- the danger threshold
def _threat(build: Any, hp: int, near: bool) -> float:
    """Key's evaluation with its Hero at ``hp``, a Skull Minion adjacent to it or far."""
    b = build().hero(KEY, "d4", hp=hp).hero(SKULL, "h8")
    b = b.minion(SKULL, "d5") if near else b.minion(SKULL, "a8")
    return evaluate(b.build(), KEY)


@pytest.mark.parametrize(("safe", "wounded"), [(3, 2), (4, 1)])
def test_a_hero_at_two_hp_or_less_counts_a_threat_more(build: Any, safe: int,
                                                       wounded: int) -> None:
    """The difference the adjacent enemy makes grows by 60 % once the Hero is at 2 HP
    or less; from 3 HP up it is the plain threat."""
    w = Weights()
    plain = _threat(build, safe, True) - _threat(build, safe, False)
    danger = _threat(build, wounded, True) - _threat(build, wounded, False)
    assert danger - plain == pytest.approx(-0.6 * w.threat_adjacent)
    assert _threat(build, 4, True) - _threat(build, 4, False) == pytest.approx(plain)


# ---------------------------------------------------------------------- T8 in can_reset
def test_t8_no_damage_on_the_first_turn_means_no_reset_by_attack(build: Any) -> None:
    def position(first_turn: str, turns: list[int], rite: str | None = None) -> State:
        return (build(first_turn=first_turn).hero(KEY, "d4").hero(SKULL, "h8")
                .minion(SKULL, "d5").rites(key=rite).set(turns_taken=turns).build())

    assert can_reset(position("no_damage", [1, 1]), KEY)     # past the first turn
    assert not can_reset(position("no_damage", [0, 1]), KEY)  # T8: no damage yet
    assert can_reset(position("no_damage", [1, 0]), KEY)     # Skull's first turn: not Key's
    assert can_reset(position("no_damage", [0, 1], rite="Exhumation"), KEY)  # a rite resets
    # first_turn=no_attack: no ATTACK mode on the first turn, so no reset by attack either
    assert can_reset(position("no_attack", [1, 1]), KEY)
    assert not can_reset(position("no_attack", [0, 1]), KEY)


# ---------------------------------------------------------------------- the Hero's HP
def test_only_a_hero_at_one_hp_is_at_its_last(build: Any) -> None:
    """Each HP is worth ``hero_hp``; the last one also ``hero_last_hp`` (nothing near the
    Hero, so no threat term changes with its HP; wounded, it leaves Skull ahead on V2's
    count throughout)."""
    w = Weights()

    def key_with(hp: int) -> float:
        return evaluate(build().hero(KEY, "a1", hp=hp).hero(SKULL, "h8").build(), KEY)

    assert key_with(3) - key_with(2) == pytest.approx(w.hero_hp)
    assert key_with(2) - key_with(1) == pytest.approx(w.hero_hp + w.hero_last_hp)


def test_a_hero_the_mover_can_kill_exactly_is_en_prise(build: Any) -> None:
    """The Pyre Choir Hero on d3 strikes 2 at range 2: a Skull Hero on d5 with 2 HP is
    en prise (the evaluation moves with ``hero_en_prise``), with 3 HP it is not."""
    more = replace(Weights(), hero_en_prise=Weights().hero_en_prise + 100.0)

    def en_prise_share(hp: int) -> float:
        state = (build().hero(KEY, "d3").hero(SKULL, "d5", hp=hp).relic(KEY, "b2")
                 .relic(SKULL, "g7").hands(key=["Pilgrim", "Crossroads", "Sidewind"])
                 .build())
        return evaluate(state, KEY, more) - evaluate(state, KEY)

    assert en_prise_share(2) == pytest.approx(100.0)
    assert en_prise_share(3) == pytest.approx(0.0)


@pytest.mark.parametrize(("square", "threat"), [("d6", 1.0), ("d7", 0.0), ("g4", 0.0)])
def test_an_enemy_two_squares_from_the_hero_is_a_near_threat_three_is_none(
        build: Any, square: str, threat: float) -> None:
    more = replace(Weights(), threat_near=Weights().threat_near + 100.0)
    state = build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, square).build()
    assert evaluate(state, KEY, more) - evaluate(state, KEY) == pytest.approx(-100.0 * threat)


@pytest.mark.parametrize(("vigil", "counts"), [(3, True), (4, False)])
def test_the_carriers_halves_count_from_a_vigil_of_three(build: Any, vigil: int,
                                                         counts: bool) -> None:
    more = replace(Weights(), vigil=Weights().vigil + 100.0)
    state = (build().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "d6").carry(SKULL, "d6")
             .relic(KEY, "b1").set(vigil=vigil).build())
    assert any(state.vigil_scores())  # the carrier counts toward V2
    moved = evaluate(state, KEY, more) - evaluate(state, KEY)
    assert (moved != pytest.approx(0.0)) is counts


# ---------------------------------------------------------------------- found by generated faults
def test_the_reach_term_counts_each_side_s_nearest_piece_to_the_enemy_relic(
        build: Any) -> None:
    """Relics on the ground: Key's Minion on f7 is 1 square from the Skull relic on g8,
    Skull's nearest piece (its Hero on h8) 7 from the Key relic on b1: the reach term is
    ``reach`` × (7 − 1) for Key."""
    more = replace(Weights(), reach=Weights().reach + 100.0)
    state = (build().hero(KEY, "a1").minion(KEY, "f7").hero(SKULL, "h8").relic(KEY, "b1")
             .relic(SKULL, "g8").hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    assert evaluate(state, KEY, more) - evaluate(state, KEY) == pytest.approx(100.0 * (7 - 1))
    assert evaluate(state, SKULL, more) - evaluate(state, SKULL) == pytest.approx(-600.0)


def test_gale_s_push_reaches_two_squares_and_crushes_for_one(build: Any) -> None:
    """D22: Gale pushes (reach 2) and a crush deals 1, so the AI counts 1 damage."""
    from reliquary.ai.evaluation import _line_reach

    state = (build().hero(KEY, "d4").hero(SKULL, "d6")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    hero = state.hero(KEY)
    assert hero is not None
    assert _line_reach(state, "Gale", hero, {}) == (2, 1)


def test_the_search_sees_a_threat_of_either_side(build: Any) -> None:
    """A Key Hero that can kill the Skull Hero next turn is a threat the search notices,
    whichever side it searches for."""
    from reliquary.ai.evaluation import hero_threat

    state = (build().hero(KEY, "d3").hero(SKULL, "d5", hp=2).relic(KEY, "b2")
             .relic(SKULL, "g7").hands(key=["Pilgrim", "Crossroads", "Sidewind"])
             .set(turns_taken=[1, 1]).build())
    assert hero_threat(state, KEY) and not hero_threat(state, SKULL)
    for me in (KEY, SKULL):
        assert Searcher(me)._threatened(state, repetition_key(state))


def test_a_relic_on_the_ground_with_its_own_side_s_piece_on_it_is_guarded(
        build: Any) -> None:
    more = replace(Weights(), guard=Weights().guard + 100.0)

    def guard_share(minion: str) -> float:
        state = (build().hero(KEY, "a1").minion(KEY, minion).hero(SKULL, "h8")
                 .relic(KEY, "b1").relic(SKULL, "g8")
                 .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
        return evaluate(state, KEY, more) - evaluate(state, KEY)

    assert guard_share("b1") == pytest.approx(100.0)  # the Minion stands on its relic
    assert guard_share("c2") == pytest.approx(0.0)


def test_a_search_reports_the_seconds_it_took(build: Any) -> None:
    """The web adds these up over the AI's turn to keep its budget."""
    import time

    state = (build().hero(KEY, "d3").hero(SKULL, "d5").relic(KEY, "b2").relic(SKULL, "g7")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    agent = SearchAgent(seed=1, nodes=300, max_depth=2)
    before = time.perf_counter()
    agent.analyse(state, nodes=300)
    elapsed = time.perf_counter() - before
    assert 0.0 < agent.stats["seconds"] <= elapsed


def test_an_agent_with_repetition_on_searches_against_the_game_s_seen_positions(
        build: Any) -> None:
    state = (build().hero(KEY, "d3").hero(SKULL, "d5").relic(KEY, "b2").relic(SKULL, "g7")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    agent = SearchAgent(seed=1, nodes=200, max_depth=1)
    agent.seen[repetition_key(state)] = 1
    *_, searcher = agent.analyse(state, nodes=200)
    assert agent.repetition and searcher.seen is agent.seen


def test_the_position_key_tells_apart_each_side_s_regroups(build: Any) -> None:
    """VAR1: regroups played decide whether a REGROUP is still allowed, so positions that
    differ only there must not share a key (nor an entry of the search's table)."""
    from reliquary.ai.hashing import position_key

    def key(regroups: list[int]) -> Any:
        return position_key(build(regroup_limit=2).hero(KEY, "d3").hero(SKULL, "d5")
                            .set(regroups=regroups).build())

    keys = {key(r) for r in ([0, 0], [1, 0], [0, 1], [1, 1])}
    assert len(keys) == 4
