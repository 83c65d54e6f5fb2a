"""The whole evaluation with all its weights at once, and the helpers the search reads,
against docs/ai.md at every decision of random games (issue 31: a fresh sample's
faults kept landing beside the terms that `test_eval_reference.py` checks one at a
time — the Vigil clock and its share, can_reset, the draw's contempt, the weights'
defaults, the threats the search extends at).

The expected evaluation is each documented term times its weight, for the player less
for the other, plus the Vigil as a clock for the side V2 favours —
``vigil_clock · (R + 1 − r) / R``, r the round ends left (the Vigil if nothing has
happened this round, else its start + 1; the start + 1 as well when the side behind is
to move and can reset it), R the start + 1, only ``clock_regroupable`` of it when the
lead is one Minion on V2's last count that the other side can REGROUP back — less, for
a tied Vigil, ``draw_contempt · (R + 1 − r) / R``; a finished game is ±100 000 (a draw
``−draw_contempt``)."""

from __future__ import annotations

import random
from dataclasses import asdict, fields, replace
from typing import Any

import pytest

import reliquary
from reliquary.ai import evaluation, sample_chance
from reliquary.ai.evaluation import (
    DEFAULT_WEIGHTS,
    WIN,
    WIN_THRESHOLD,
    Weights,
    can_reset,
    evaluate,
    hero_threat,
    home_threat,
    regroupable,
    terminal_value,
    vigil_clock,
)
from reliquary.engine import KEY, SKULL, State
from reliquary.engine.state import BY_MINIONS

from .test_eval_reference import (
    TERMS,
    _carriers_near_home,
    _chebyshev,
    _damage_at,
    _hero,
    _line,
    _regroupable,
    carries_home,
)
from .test_vigil import _one_minion_up


def _reaches(s: State, player: int, heroes_only: bool) -> bool:
    """An attack of ``player`` reaches an enemy piece (the Hero only if asked): a line's
    reach, damage or not (docs/ai.md, ``can_reset``)."""
    for p in s.pieces.values():
        if p.owner != player:
            continue
        reach = max([_line(s, card, p)[0] for card in s.hands[player]], default=0)
        if reach and any(_chebyshev(s, p.sq, t.sq) <= reach for t in s.pieces.values()
                         if t.owner != player and (t.hero or not heroes_only)):
            return True
    return False


def ref_can_reset(s: State, player: int) -> bool:
    """A rite in hand, the enemy relic on the ground within a step of a piece of
    ``player``'s, or (after their first turn, T8) an attack that reaches an enemy piece
    — only the Hero under ``vigil_reset="hero"``."""
    if s.rites[player] is not None:
        return True
    relic = s.relic_sq[1 - player]
    if relic >= 0 and s.relic_carrier[1 - player] < 0 and any(
            _chebyshev(s, p.sq, relic) <= 1 for p in s.pieces.values() if p.owner == player):
        return True
    if s.turns_taken[player] == 0:
        return False
    return _reaches(s, player, heroes_only=s.settings.vigil_reset == "hero")


def ref_vigil_clock(s: State) -> tuple[int | None, int]:
    """The engine's V2 verdict, and the round ends left: the Vigil (at least 1), or its
    start + 1 once something has happened this round (V1, VAR3)."""
    return s.vigil_leader(), (s.settings.vigil_start + 1 if s.eventful else max(s.vigil, 1))


def ref_regroup_undoes_lead(s: State, leader: int) -> bool:
    other = 1 - leader
    if not (_regroupable(s, other) and s.can_regroup(other)):
        return False
    if s.vigil_verdict()[1] != BY_MINIONS:
        return False
    mine = sum(1 for p in s.pieces.values() if p.owner == leader and not p.hero)
    theirs = sum(1 for p in s.pieces.values() if p.owner == other and not p.hero)
    return mine - theirs == 1


def ref_evaluate(s: State, player: int, w: Weights) -> float:
    if s.result is not None:
        if s.winner is None:
            return -w.draw_contempt
        return WIN if s.winner == player else -WIN
    value = sum(getattr(w, term.__name__) * (term(s, player) - term(s, 1 - player))
                for term in TERMS)
    leader, left = ref_vigil_clock(s)
    full = s.settings.vigil_start + 1
    mover = s.current_player
    if leader is not None and w.vigil_clock:
        if mover == 1 - leader and ref_can_reset(s, mover):
            left = full
        share = w.clock_regroupable if ref_regroup_undoes_lead(s, leader) else 1.0
        clock = share * w.vigil_clock * (full + 1 - left) / full
        value += clock if leader == player else -clock
    elif leader is None:
        value -= w.draw_contempt * (full + 1 - left) / full
    return value


def ref_hero_threat(s: State, player: int) -> bool:
    """After their first turn (T8), one attack of ``player`` could kill the enemy Hero."""
    hero = _hero(s, 1 - player)
    return (s.turns_taken[player] > 0 and hero is not None
            and _damage_at(s, player, hero) >= hero.hp)


def _decisions(seed: int, **settings: Any) -> list[State]:
    rng = random.Random(seed)
    state = reliquary.new_game(**{"round_cap": 40, **settings})
    found: list[State] = []
    while True:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if state.pieces or state.is_terminal:
            found.append(state.clone())
        if state.is_terminal:
            return found
        state.apply(rng.choice(state.legal_options()))


GAMES: list[tuple[int, dict[str, Any]]] = [
    (40, {}), (41, {"vigil_reset": "hero"}), (42, {"first_turn": "no_attack"}),
    (43, {"regroup_limit": 1, "vigil_start": 2}), (44, {"killed_minions": "removed"}),
    (45, {"vigil_start": 4, "size": 10}), (46, {"round_cap": 6}),
]


@pytest.fixture(scope="module")
def played() -> list[State]:
    found: list[State] = []
    for seed, settings in GAMES:
        found += _decisions(seed, **settings)
    return found


def _carriers_on_the_edge_files(build: Any) -> list[State]:
    """Carriers of either side one rank from home on the a and h files, their one step
    home free or taken (an Escort card in hand, another piece to move): the squares past
    the board's edge are no steps (the last square of the rank before is not one)."""
    escorts = ["Procession", "Ascension", "Sidewind"]
    found: list[State] = []
    for side, carrier, home, taken, hero, enemy_hero in (
            (KEY, "a2", ["a1", "b1"], "h3", "e1", "d8"),
            (KEY, "h2", ["g1", "h1"], "a3", "d1", "e8"),
            (SKULL, "a7", ["a8", "b8"], "h6", "e8", "d1"),
            (SKULL, "h7", ["g8", "h8"], "a6", "d8", "e1")):
        other = SKULL if side == KEY else KEY
        for free in (None, *home):
            b = build().hero(side, hero).minion(side, carrier).carry(other, carrier)
            b = b.hero(other, enemy_hero)
            for sq in home:
                if sq != free:
                    b = b.minion(other, sq)
            b = b.minion(side, taken)  # off the carrier's rank: only the wrap-around sq
            hands = {"key": escorts, "skull": []} if side == KEY else {
                "key": [], "skull": escorts}
            found.append(b.hands(**hands).to_move(side).set(turns_taken=[1, 1]).build())
    return found


def _corner_relics_and_lone_heroes(build: Any) -> list[State]:
    """A relic lying on a corner square (0 or the last) a step from an enemy piece,
    before that side's first turn (only the relic can reset the Vigil then); and
    positions with one side's Hero off the board (made, not played: no threat to it)."""
    found: list[State] = []
    hand = ["Pilgrim", "Crossroads", "Sidewind"]
    for mover in (KEY, SKULL):
        for turns in ([0, 0], [1, 1]):
            found.append(build().hero(KEY, "d1").minion(KEY, "h7").hero(SKULL, "e8")
                         .minion(SKULL, "b2").relic(KEY, "a1").relic(SKULL, "h8")
                         .hands(key=hand, skull=["Bolt", "Smite", "Ordeal"]).to_move(mover)
                         .set(turns_taken=turns).build())
            found.append(build().hero(KEY, "d3").minion(KEY, "c4").minion(SKULL, "d5")
                         .minion(SKULL, "e4").hands(key=hand, skull=["Bolt", "Smite", "Ordeal"])
                         .to_move(mover).set(turns_taken=turns).build())
            found.append(build().hero(SKULL, "d5").minion(SKULL, "c4").minion(KEY, "d3")
                         .minion(KEY, "e4").hands(key=hand, skull=["Bolt", "Smite", "Ordeal"])
                         .to_move(mover).set(turns_taken=turns).build())
    return found


@pytest.fixture
def decisions(played: list[State], build: Any) -> list[State]:
    """The random games' decisions, and prepared ones random play seldom reaches: a Hero
    one attack from death or not (its HP, its distance, either side to move, before and
    after the mover's first turn), carriers near home, a one-Minion lead REGROUP undoes."""
    prepared: list[State] = []
    hand = ["Pilgrim", "Crossroads", "Sidewind"]
    for target in ("d4", "d5", "d6", "d7"):
        for hp in (1, 2, 3):
            for mover in (KEY, SKULL):
                for turns in ([1, 1], [0, 0], [1, 0], [0, 1]):
                    prepared.append(
                        build().hero(KEY, "d3", hp=hp).hero(SKULL, target, hp=hp)
                        .minion(SKULL, "a7").relic(KEY, "b2").relic(SKULL, "g7")
                        .hands(key=hand, skull=["Bolt", "Smite", "Ordeal"]).to_move(mover)
                        .set(turns_taken=turns).build())
    prepared += _carriers_near_home(build)
    prepared += _carriers_on_the_edge_files(build)
    prepared += _corner_relics_and_lone_heroes(build)
    prepared += [_one_minion_up(build, skull_pool=1), _one_minion_up(build, skull_pool=0)]
    return played + prepared


#: Every weight different and none 0 or 1, so that a term read with another's weight,
#: or a weight dropped, shows; ``clock_regroupable`` strictly between 0 and 1.
ODD = Weights(**{f.name: 3.0 + 0.37 * i for i, f in enumerate(fields(Weights))})
ODD = replace(ODD, clock_regroupable=0.45, module_terms=0.0)


@pytest.mark.parametrize("weights", [DEFAULT_WEIGHTS, ODD,
                                     replace(DEFAULT_WEIGHTS, draw_contempt=9.0,
                                             clock_regroupable=0.3)],
                         ids=["default", "odd", "contempt"])
def test_the_whole_evaluation_is_its_weighted_terms_and_the_clock(
        decisions: list[State], weights: Weights) -> None:
    for s in decisions:
        for player in (KEY, SKULL):
            want = ref_evaluate(s, player, weights)
            assert evaluate(s, player, weights) == pytest.approx(want, abs=1e-6), (
                player, s.turns_taken, s.vigil, s.eventful, s.settings)


def test_the_games_meet_each_branch_of_the_clock(decisions: list[State]) -> None:
    """So that the comparison above is made where each part of the clock counts."""
    leaders = [(s, ref_vigil_clock(s)) for s in decisions if s.result is None]
    assert any(leader is None for _, (leader, _) in leaders)
    assert any(leader is not None and s.eventful for s, (leader, _) in leaders)
    assert any(leader is not None and not s.eventful and left < s.settings.vigil_start + 1
               for s, (leader, left) in leaders)
    assert any(leader is not None and s.current_player == 1 - leader
               and ref_can_reset(s, s.current_player) for s, (leader, _) in leaders)
    assert any(leader is not None and s.current_player == 1 - leader
               and not ref_can_reset(s, s.current_player) for s, (leader, _) in leaders)
    assert any(leader is not None and ref_regroup_undoes_lead(s, leader)
               for s, (leader, _) in leaders)
    assert any(s.result is not None and s.winner is None for s in decisions)
    assert any(s.result is not None and s.winner is not None for s in decisions)


def test_the_helpers_at_every_decision(decisions: list[State]) -> None:
    """``can_reset``, ``vigil_clock``, ``regroupable``, ``hero_threat`` and
    ``home_threat`` (the search's threat check) for both players, whoever is to move."""
    met: dict[str, set[bool]] = {"reset": set(), "hero": set(), "home": set()}
    for s in decisions:
        if s.result is not None:
            continue
        assert vigil_clock(s) == ref_vigil_clock(s)
        for q in (KEY, SKULL):
            assert regroupable(s, q) == _regroupable(s, q)
            resets = ref_can_reset(s, q)
            assert can_reset(s, q) == resets, (q, s.turns_taken)
            assert hero_threat(s, q) == ref_hero_threat(s, q), (q, s.turns_taken)
            assert home_threat(s, q) == carries_home(s, q), (q, s.turns_taken)
            met["reset"].add(resets)
            met["hero"].add(ref_hero_threat(s, q))
            met["home"].add(carries_home(s, q))
    assert met["reset"] == met["hero"] == met["home"] == {True, False}, met


def test_a_finished_game_scores_a_win_of_100_000_and_a_draw_its_contempt(
        decisions: list[State]) -> None:
    """docs/ai.md: terminal positions are ±100 000, less the plies it takes (none by
    default); a draw is 0, or ``draw_contempt`` below 0 for whoever searches."""
    assert WIN == 100_000.0
    assert WIN - 1_000 > WIN_THRESHOLD > 10 * DEFAULT_WEIGHTS.hero_en_prise
    ends = [s for s in decisions if s.result is not None]
    for s in ends:
        for player in (KEY, SKULL):
            if s.winner is None:
                assert terminal_value(s, player) == 0.0
                assert terminal_value(s, player, 7, -3.0) == -3.0
                assert evaluate(s, player) == 0.0
                assert evaluate(s, player, replace(DEFAULT_WEIGHTS, draw_contempt=5)) == -5.0
            else:
                sign = 1.0 if s.winner == player else -1.0
                assert terminal_value(s, player) == sign * WIN
                assert terminal_value(s, player, 7) == sign * (WIN - 7)
                assert evaluate(s, player, replace(DEFAULT_WEIGHTS, draw_contempt=5)) == \
                    sign * WIN


def test_every_default_weight_is_the_documented_one() -> None:
    """docs/ai.md's amounts, and the comments of ``Weights`` for the two it leaves to
    them: a rank a dropped enemy relic lies towards home (4) and the modules' own terms
    (1: module-aware)."""
    w = Weights()
    assert w == DEFAULT_WEIGHTS
    assert asdict(w) == {
        "hero_hp": 40.0, "hero_last_hp": 30.0, "minion": 25.0, "advance": 1.5,
        "threat_adjacent": 9.0, "threat_near": 4.0, "carry": 70.0, "carry_progress": 22.0,
        "carrier_threat": 12.0, "reach": 6.0, "ground_progress": 4.0, "guard": 12.0,
        "pool": 8.0, "rite": 10.0, "vigil": 60.0, "hero_en_prise": 250.0,
        "hero_exposed": 15.0, "relic_en_prise": 0.0, "vigil_clock": 300.0,
        "minion_en_prise": 12.0, "contempt": 20.0, "pool_ready": 12.0,
        "draw_contempt": 0.0, "clock_regroupable": 0.0, "module_terms": 1.0}


def test_a_diagram_memo_left_by_another_content_is_not_used(build: Any) -> None:
    """``home_threat`` keeps each card's MOVE offsets by the content's id(), which a
    freed content passes on (``lab tune``): another content's entry is made again."""
    state = _carriers_near_home(build)[0]  # Requiem's MOVE lands Key's carrier home
    assert home_threat(state, KEY)
    key = (id(state.content), "Requiem", KEY)
    evaluation._DIAGRAM[key] = (state.content, ())  # this content's own: it is read
    try:
        assert not home_threat(state, KEY)
        evaluation._DIAGRAM[key] = (default_content_copy(), ())  # another's: made again
        assert home_threat(state, KEY)
    finally:
        evaluation._DIAGRAM.pop(key, None)


def default_content_copy() -> Any:
    """A content equal to the package's but another object."""
    from reliquary.rulesets import patched_content

    return patched_content({}, "same.toml")


@pytest.mark.parametrize("modules", [("glory",), ("keepers",), ("conditions",)])
def test_the_modules_own_terms_count_by_their_weight(modules: tuple[str, ...]) -> None:
    """``Weights.module_terms``: the rule modules' own terms (ai/module_terms.py) for the
    player, times the weight (1 module-aware, 0 module-blind); nothing without modules."""
    from reliquary.ai.module_terms import module_terms

    positions = _decisions(50, modules=modules, round_cap=12)
    met = 0
    for s in positions:
        if s.result is not None:
            continue
        for player in (KEY, SKULL):
            blind = evaluate(s, player, replace(DEFAULT_WEIGHTS, module_terms=0.0))
            terms = module_terms(s, player)
            for weight in (1.0, 2.5):
                got = evaluate(s, player, replace(DEFAULT_WEIGHTS, module_terms=weight))
                assert got == pytest.approx(blind + weight * terms, abs=1e-6)
            met += terms != 0.0
    assert met > 0
    base = _decisions(51, round_cap=8)[-2]
    assert evaluate(base, KEY, replace(DEFAULT_WEIGHTS, module_terms=3.0)) == evaluate(
        base, KEY, replace(DEFAULT_WEIGHTS, module_terms=0.0))


def test_each_card_s_reach_and_damage_for_every_faction_s_pieces(build: Any) -> None:
    """docs/ai.md: each card's line for each piece — its range (plus 1 for an adjacent
    strike's lunge), its damage; Ordeal's best face; Gale's crush (2, 1); a line that
    neither strikes nor rolls nor pushes reaches nothing — asked with the piece's memo
    or without it."""
    content = reliquary.default_content()
    for faction in content.factions:
        state = (build(factions=(faction.id, faction.id)).hero(KEY, "d1").minion(KEY, "c2")
                 .hero(SKULL, "e8").build())
        for piece in (p for p in state.pieces.values() if p.owner == KEY):
            table = evaluation._reach_table(state, piece)
            for card in content.cards:
                want = _line(state, card.id, piece)
                assert evaluation._line_reach(state, card.id, piece) == want
                assert evaluation._line_reach(state, card.id, piece, table) == want
