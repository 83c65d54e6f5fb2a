"""A position hash for transposition tables, computed from the state's public fields.

Two states with the same key have the same pieces (HP and flags included), relics,
hands, waiting card, Vigil, rites, pools, counters and stack of pending decisions,
so they have the same legal options and the same future.
"""

from __future__ import annotations

from ..engine import State


def position_key(state: State) -> int:
    """A hash of everything that decides the future of ``state``."""
    s = state
    pieces = tuple(
        (p.id, p.owner, p.hero, p.hp, p.max_hp, p.sq, p.harrowed, p.veiled, p.aegis, p.stepped)
        for p in s.pieces.values()
    )
    return hash((
        s.ruins, pieces,
        s.relic_sq[0], s.relic_sq[1], s.relic_carrier[0], s.relic_carrier[1],
        tuple(sorted(s.hands[0])), tuple(sorted(s.hands[1])), s.waiting,
        s.vigil, s.eventful, s.rounds, s.turns_taken[0], s.turns_taken[1],
        s.current, s.played, s.first,
        s.rites[0], s.rites[1], tuple(s.rite_draft), s.pool[0], s.pool[1],
        s.grave_used[0], s.grave_used[1], s.factions[0], s.factions[1],
        s.secret_faction[0], s.secret_faction[1], s.placed[0], s.placed[1], s.dealt,
        tuple(s.stack), s.result,
    ))


def repetition_key(state: State) -> int:
    """A hash of a position as a player sees it at the start of a turn, without the
    counters that only grow (rounds, turns taken, piece ids): the same key twice in a
    game is a repeated position, the loop that would run to the round cap (D19).

    A regrouped Minion is a new piece with a new id, so pieces are described by what
    they are and where they stand, and carriers by their squares. The regroups played
    count only where VAR1 limits them, and the turns taken only as T8's first turn.
    """
    s = state
    pieces = frozenset(  # one piece a square: a set, in no order
        (p.sq, p.owner, p.hero, p.hp, p.max_hp, p.harrowed, p.veiled, p.aegis, p.stepped)
        for p in s.pieces.values()
    )
    carriers = tuple(s.pieces[c].sq if c >= 0 and c in s.pieces else -1
                     for c in s.relic_carrier)
    regroups = tuple(s.regroups) if s.settings.regroup_limit is not None else ()
    return hash((
        s.ruins, pieces, s.relic_sq[0], s.relic_sq[1], carriers,
        tuple(sorted(s.hands[0])), tuple(sorted(s.hands[1])), s.waiting,
        s.vigil, s.eventful, min(s.turns_taken[0], 1), min(s.turns_taken[1], 1),
        s.current, s.played, s.first, s.rites[0], s.rites[1], s.pool[0], s.pool[1],
        s.grave_used[0], s.grave_used[1], s.factions[0], s.factions[1], regroups,
        tuple(s.stack), s.result,
    ))


def at_turn_start(state: State) -> bool:
    """Whether ``state`` waits for a player's first decision of a turn (the ``play``)."""
    return (state.result is None and not state.is_chance and bool(state.stack)
            and state.stack[-1][0] == "play")
