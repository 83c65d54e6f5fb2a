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
