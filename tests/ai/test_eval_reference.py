"""The evaluation's board terms against their documented definitions, at every decision
of random games (issue 31: single faults in a term's number, sign or boundary kept
passing, one term at a time). docs/ai.md "The evaluation" and ``Weights``: Hero HP (a
point each, more lost on the last HP), Minions (each, and a rank advanced), threats to
a Hero (an enemy next to it, at 2; 1.6 times that at 2 HP or less), the enemy relic
carried (and the ranks its carrier has come towards its back row, less an enemy piece
at 2 or less), on the ground (the ranks it lies towards home, the nearest piece's
closeness, a piece on its own relic guarding it), pools (a killed Minion that can
come back, more when REGROUP can bring it back now), a rite in hand, and the carriers'
halves once the Vigil is 3 or lower. Each term is checked alone: the weights are all 0
but its own, which is 1, so the evaluation is exactly that term's difference."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import pytest

import reliquary
from reliquary.ai import sample_chance
from reliquary.ai.evaluation import Weights, evaluate
from reliquary.engine import KEY, SKULL, Piece, State

NONE = Weights(**{f.name: 0.0 for f in fields(Weights)})


def _chebyshev(state: State, a: int, b: int) -> int:  # G1
    n = state.geometry.size
    return max(abs(a % n - b % n), abs(a // n - b // n))


def _toward_home(state: State, player: int, sq: int) -> int:
    """Ranks from the far row towards ``player``'s back row (Key's is the first rank)."""
    top = state.geometry.size - 1
    y = sq // state.geometry.size
    return top - y if player == 0 else y


def _hero(state: State, player: int) -> Piece | None:
    return next((p for p in state.pieces.values() if p.hero and p.owner == player), None)


def _regroupable(state: State, player: int) -> int:  # T4, VAR1, VAR4
    settings = state.settings
    if settings.killed_minions == "removed":
        return 0
    if settings.regroup_limit is None:
        return state.pool[player]
    return min(state.pool[player], max(settings.regroup_limit - state.regroups[player], 0))


def hero_hp(s: State, q: int) -> float:
    hero = _hero(s, q)
    return float(hero.hp) if hero else 0.0


def hero_last_hp(s: State, q: int) -> float:
    hero = _hero(s, q)
    return -1.0 if hero and hero.hp == 1 else 0.0


def minion(s: State, q: int) -> float:
    return float(sum(1 for p in s.pieces.values() if p.owner == q and not p.hero))


def advance(s: State, q: int) -> float:
    """A rank advanced: from the player's own back row."""
    top = s.geometry.size - 1
    return float(sum(top - _toward_home(s, q, p.sq) for p in s.pieces.values()
                     if p.owner == q and not p.hero))


def _threats(s: State, q: int, near: Callable[[int], bool]) -> float:
    hero = _hero(s, q)
    if hero is None:
        return 0.0
    danger = 1.6 if hero.hp <= 2 else 1.0
    return -danger * sum(1 for p in s.pieces.values()
                         if p.owner != q and near(_chebyshev(s, p.sq, hero.sq)))


def threat_adjacent(s: State, q: int) -> float:
    return _threats(s, q, lambda d: d <= 1)


def threat_near(s: State, q: int) -> float:
    return _threats(s, q, lambda d: d == 2)


def _carrier(s: State, q: int) -> Piece | None:
    """``q``'s piece carrying the enemy relic."""
    carrier = s.relic_carrier[1 - q]
    return s.pieces[carrier] if carrier >= 0 else None


def carry(s: State, q: int) -> float:
    return 1.0 if _carrier(s, q) else 0.0


def carry_progress(s: State, q: int) -> float:
    c = _carrier(s, q)
    return float(_toward_home(s, q, c.sq)) if c else 0.0


def carrier_threat(s: State, q: int) -> float:
    c = _carrier(s, q)
    if c is None:
        return 0.0
    return -float(sum(1 for p in s.pieces.values()
                      if p.owner != q and _chebyshev(s, p.sq, c.sq) <= 2))


def _grounded(s: State, q: int) -> int:
    """The square of the enemy relic on the ground, or -1."""
    return s.relic_sq[1 - q] if _carrier(s, q) is None else -1


def ground_progress(s: State, q: int) -> float:
    sq = _grounded(s, q)
    return float(_toward_home(s, q, sq)) if sq >= 0 else 0.0


def reach(s: State, q: int) -> float:
    """The board's size less the nearest own piece's distance to the enemy relic."""
    sq = _grounded(s, q)
    if sq < 0:
        return 0.0
    n = s.geometry.size
    return float(n - min([n] + [_chebyshev(s, p.sq, sq) for p in s.pieces.values()
                               if p.owner == q]))


def guard(s: State, q: int) -> float:
    """A piece of ``q``'s on ``q``'s own relic lying on the ground (RL5)."""
    sq = s.relic_sq[q]
    if sq < 0 or s.relic_carrier[q] >= 0:
        return 0.0
    return 1.0 if any(p.sq == sq and p.owner == q for p in s.pieces.values()) else 0.0


def pool(s: State, q: int) -> float:
    return float(_regroupable(s, q))


def pool_ready(s: State, q: int) -> float:
    return 1.0 if _regroupable(s, q) and s.can_regroup(q) else 0.0


def rite(s: State, q: int) -> float:
    return 1.0 if s.rites[q] is not None else 0.0


def vigil(s: State, q: int) -> float:
    """V2's carrier score, once the Vigil is 3 or lower: a third of it at 3, all at 1."""
    if s.vigil > 3:
        return 0.0
    return (4 - s.vigil) / 3 * s.vigil_scores()[q]


def _line(s: State, card: str, piece: Piece) -> tuple[int, int]:
    """(reach, most damage) of a piece's attack with a card, as docs/ai.md reads it: the
    line's range, plus 1 for an adjacent strike's lunge (D8); Ordeal's best face;
    Gale's crush (a push of 2 that may crush for 1)."""
    line = s.line_for(card, piece)
    if line.effect == "strike":
        return line.range + (1 if line.adjacent else 0), line.damage
    if line.effect == "ordeal":
        return line.range, max(row.damage for row in line.table)
    if line.effect == "gale":
        return 2, 1
    return 0, 0


def _mover(s: State) -> int | None:
    """The player to move, when their attacks count: none at a roll, none on a first
    turn without damage (T8)."""
    mover = s.current_player
    if mover not in (0, 1):
        return None
    if s.settings.first_turn == "no_damage" and s.turns_taken[mover] == 0:
        return None
    return int(mover)


def _damage_at(s: State, mover: int, target: Piece) -> int:
    """The most damage one attack of ``mover`` could deal to ``target`` (distances)."""
    return max([damage for p in s.pieces.values() if p.owner == mover
                for card in s.hands[mover]
                for reach, damage in [_line(s, card, p)]
                if _chebyshev(s, p.sq, target.sq) <= reach], default=0)


def hero_exposed(s: State, q: int) -> float:
    """15 a point of damage the other side, to move, could deal ``q``'s Hero."""
    mover, hero = _mover(s), _hero(s, q)
    if mover != 1 - q or hero is None:
        return 0.0
    damage = _damage_at(s, mover, hero)
    return -float(damage) if damage < hero.hp else 0.0


def hero_en_prise(s: State, q: int) -> float:
    """250 when one attack of the other side, to move, could kill ``q``'s Hero."""
    mover, hero = _mover(s), _hero(s, q)
    if mover != 1 - q or hero is None:
        return 0.0
    return -1.0 if _damage_at(s, mover, hero) >= hero.hp else 0.0


def minion_en_prise(s: State, q: int) -> float:
    """12 when the other side, to move, could strike one of ``q``'s Minions."""
    mover = _mover(s)
    if mover != 1 - q:
        return 0.0
    return -1.0 if any(_damage_at(s, mover, p) > 0 for p in s.pieces.values()
                       if p.owner == q and not p.hero) else 0.0


def carries_home(s: State, player: int) -> bool:
    """``player`` can carry the enemy relic home this turn (docs/ai.md,
    ``home_threat``): a card's MOVE (its diagram, turned for Skull, D1) lands the
    carrier on a free square of its back row, or the carrier is one rank from it next to
    a free square there and an Escort card (with another piece to move) or the Lantern
    Bearers' passive gives the step; a veiled carrier cannot."""
    carrier_id = s.relic_carrier[1 - player]
    if carrier_id < 0 or s.pieces[carrier_id].veiled:
        return False
    n = s.geometry.size
    home = 0 if player == 0 else n - 1
    x, y = s.pieces[carrier_id].sq % n, s.pieces[carrier_id].sq // n

    def free(fx: int) -> bool:
        sq = home * n + fx
        return 0 <= fx < n and s.piece_at(sq) is None and not s.is_ruin(sq)

    sign = 1 if player == 0 else -1
    for card in s.hands[player]:
        for dx, dy in s.content.card(card).diagram:
            if y + sign * dy == home and free(x + sign * dx):
                return True
    if abs(y - home) == 1 and any(free(x + dx) for dx in (-1, 0, 1)):
        faction = s.faction(player)
        if faction is not None and faction.passive == "lantern_step":
            return True
        others = sum(1 for p in s.pieces.values() if p.owner == player) > 1
        if others and any(s.content.card(c).escort for c in s.hands[player]):
            return True
    return False


def relic_en_prise(s: State, q: int) -> float:
    """The other side, to move, can carry ``q``'s relic home this turn."""
    mover = s.current_player
    return -1.0 if mover == 1 - q and carries_home(s, mover) else 0.0


TERMS = (hero_hp, hero_last_hp, minion, advance, threat_adjacent, threat_near, carry,
         carry_progress, carrier_threat, ground_progress, reach, guard, pool, pool_ready,
         rite, vigil, hero_exposed, hero_en_prise, minion_en_prise,
         relic_en_prise)


def _positions(seed: int, **settings: Any) -> list[State]:
    """Every decision of a random game (past the secret faction choice)."""
    rng = random.Random(seed)
    state = reliquary.new_game(round_cap=40, **settings)
    found: list[State] = []
    while not state.is_terminal:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if state.pieces:
            found.append(state.clone())
        state.apply(rng.choice(state.legal_options()))
    return found


GAMES: list[tuple[int, dict[str, Any]]] = [
    (1, {}), (2, {}), (3, {"regroup_limit": 1}), (4, {"killed_minions": "removed"}),
    (5, {"vigil_start": 3, "size": 10})]


@pytest.fixture(scope="module")
def played() -> list[State]:
    found: list[State] = []
    for seed, settings in GAMES:
        found += _positions(seed, **settings)
    return found


@pytest.fixture
def positions(played: list[State], build: Any) -> list[State]:
    """The random games' decisions, and carriers in either half at a low Vigil (random
    games rarely carry a relic into the last rounds of a Vigil)."""
    low = [(build().hero(KEY, "a1").minion(KEY, "c6").carry(SKULL, "c6")
            .hero(SKULL, "h8").minion(SKULL, "f3").carry(KEY, "f3").set(vigil=v).build())
           for v in (1, 2, 3, 4)]
    low += [(build().hero(KEY, "a1").minion(KEY, "c3").carry(SKULL, "c3")
             .hero(SKULL, "h8").minion(SKULL, "f6").carry(KEY, "f6").set(vigil=v).build())
            for v in (1, 3)]
    return played + low + _carriers_near_home(build)


def _carriers_near_home(build: Any) -> list[State]:
    """A carrier a rank from home, by a card's MOVE or a step, or neither (random games
    seldom bring one there with the right cards)."""
    lantern = ("lantern-bearers", "pyre-choir")
    forward = ["Procession", "Ascension", "Sidewind"]  # Escorts, none moving back
    found = [
        build().hero(KEY, "e1").minion(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
        .hands(key=["Requiem"], skull=["Pilgrim"]).build(),          # MOVE to b1, d1
        build().hero(KEY, "e1").minion(KEY, "c2", veiled=True).carry(SKULL, "c2")
        .hero(SKULL, "h8").hands(key=["Requiem"], skull=["Pilgrim"]).build(),  # veiled
        build().hero(KEY, "c1").minion(KEY, "c2").minion(KEY, "b1").minion(KEY, "d1")
        .carry(SKULL, "c2").hero(SKULL, "h8").hands(key=["Requiem", "Pilgrim"], skull=[])
        .build(),                                                    # home row full
        build().hero(KEY, "e1").minion(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
        .hands(key=forward, skull=[]).build(),                       # an Escort's step
        build(factions=lantern).hero(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
        .hands(key=forward, skull=[]).build(),                       # the Lantern's step
        build().hero(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
        .hands(key=forward, skull=[]).build(),                       # no step: alone
        build().hero(KEY, "a1").minion(KEY, "a2").carry(SKULL, "a2").hero(SKULL, "h8")
        .hands(key=forward, skull=[]).build(),     # on file a: the step to b1 (a1 taken)
        build().hero(KEY, "h1").minion(KEY, "g1").minion(KEY, "h2").carry(SKULL, "h2")
        .hero(SKULL, "d8").hands(key=forward, skull=[]).build(),    # on file h: no step
        build().hero(SKULL, "h8").minion(SKULL, "f7").carry(KEY, "f7").hero(KEY, "a1")
        .hands(key=["Pilgrim"], skull=["Requiem"]).to_move(SKULL).build(),  # turned (D1)
        build().hero(SKULL, "h8").minion(SKULL, "f6").carry(KEY, "f6").hero(KEY, "a1")
        .hands(key=[], skull=["Vault"]).to_move(SKULL).build(),      # two ranks: Vault
    ]
    return found


def test_the_random_games_meet_every_term(positions: list[State]) -> None:
    """So that each term below is checked where it is not 0, for both sides."""
    for term in TERMS:
        met = {q for s in positions for q in (0, 1) if term(s, q) != 0.0}
        assert met == {0, 1}, term.__name__


@pytest.mark.parametrize("term", TERMS, ids=lambda t: t.__name__)
def test_each_board_term_alone_is_its_documented_value(positions: list[State],
                                                       term: Callable[[State, int], float]
                                                       ) -> None:
    weights = replace(NONE, **{term.__name__: 1.0})
    for s in positions:
        for player in (0, 1):
            expected = term(s, player) - term(s, 1 - player)
            assert evaluate(s, player, weights) == pytest.approx(expected, abs=1e-9), (
                term.__name__, player, s.turns_taken, s.vigil)


def test_the_default_weights_are_the_documented_ones() -> None:
    """docs/ai.md's amounts."""
    w = Weights()
    assert (w.hero_hp, w.hero_last_hp, w.minion, w.advance) == (40, 30, 25, 1.5)
    assert (w.pool, w.pool_ready, w.rite) == (8, 12, 10)
    assert (w.carry, w.carry_progress, w.carrier_threat) == (70, 22, 12)
    assert (w.reach, w.guard, w.threat_adjacent, w.threat_near) == (6, 12, 9, 4)
    assert (w.hero_en_prise, w.hero_exposed, w.relic_en_prise) == (250, 15, 0)
    assert (w.vigil, w.vigil_clock, w.minion_en_prise, w.contempt) == (60, 300, 12, 20)
    assert (w.draw_contempt, w.clock_regroupable) == (0, 0)
