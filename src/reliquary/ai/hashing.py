"""A position hash for transposition tables, computed from the state's public fields.

Two states with the same key have the same pieces (HP and flags included), relics,
hands, waiting card, Vigil, rites, pools, counters and stack of pending decisions,
so they have the same legal options and the same future.
"""

from __future__ import annotations

from ..engine import Piece, State


def _flags(p: Piece) -> int:
    """A piece's owner and flags as one small number (each is 0 or 1)."""
    return (p.owner | p.hero << 1 | p.harrowed << 2 | p.veiled << 3 | p.aegis << 4
            | p.stepped << 5)


def _packs(p: Piece) -> bool:
    """Whether a piece's square and HP fit the bits :func:`position_key` gives them
    (always in play; a built or loaded position may set any HP)."""
    return 0 <= p.sq < 1024 and 0 <= p.hp < 256 and 0 <= p.max_hp < 256


# Each key hashes one flat tuple: the fields both keys read (:func:`shared_fields`,
# one nested tuple), the key's own fields, then one number a piece (the piece's fields
# packed into bits, or a tuple of them when they do not fit: never equal to a number).
# It tells positions apart exactly as a tuple of per-piece tuples would, at a fraction
# of the cost: hashing runs at every node of the search.

def shared_fields(state: State) -> tuple[object, ...]:
    """What both :func:`position_key` and :func:`repetition_key` read of ``state``:
    worked out once where both keys are needed (the search's turn starts)."""
    s = state
    return (
        s.ruins, s.relic_sq[0], s.relic_sq[1],
        tuple(sorted(s.hands[0])), tuple(sorted(s.hands[1])), s.waiting,
        s.vigil, s.eventful, s.current, s.played, s.first, s.rites[0], s.rites[1],
        s.pool[0], s.pool[1], s.grave_used[0], s.grave_used[1], s.factions[0],
        s.factions[1], tuple(s.stack), s.result,
    )


def position_key(state: State, shared: tuple[object, ...] | None = None) -> int:
    """A hash of everything that decides the future of ``state``. ``shared``: its
    :func:`shared_fields`, if the caller has them."""
    s = state
    key: list[object] = [
        shared if shared is not None else shared_fields(s),
        s.relic_carrier[0], s.relic_carrier[1], s.rounds, s.turns_taken[0],
        s.turns_taken[1], tuple(s.rite_draft), s.secret_faction[0], s.secret_faction[1],
        s.placed[0], s.placed[1], s.dealt,
    ]
    for p in s.pieces.values():
        if _packs(p):
            key.append((((p.id << 10 | p.sq) << 8 | p.hp) << 8 | p.max_hp) << 6 | _flags(p))
        else:
            key.append((p.id, p.sq, p.hp, p.max_hp, _flags(p)))
    return hash(tuple(key))


def repetition_key(state: State, shared: tuple[object, ...] | None = None) -> int:
    """A hash of a position as a player sees it at the start of a turn, without the
    counters that only grow (rounds, turns taken, piece ids): the same key twice in a
    game is a repeated position, the loop that would run to the round cap (D19).
    ``shared``: its :func:`shared_fields`, if the caller has them.

    A regrouped Minion is a new piece with a new id, so pieces are described by what
    they are and where they stand (in the order of their squares: one piece a square),
    and carriers by their squares. The regroups played count only where VAR1 limits
    them, and the turns taken only as T8's first turn.
    """
    s = state
    regroups = tuple(s.regroups) if s.settings.regroup_limit is not None else ()
    key: list[object] = [
        shared if shared is not None else shared_fields(s),
        _carrier_sq(s, 0), _carrier_sq(s, 1),
        min(s.turns_taken[0], 1), min(s.turns_taken[1], 1), regroups,
    ]
    codes: list[int] = []  # the square first: sorted, they are in the squares' order
    odd: list[tuple[int, int, int, int]] = []  # the pieces that do not pack
    for p in s.pieces.values():
        if _packs(p):
            codes.append(((p.sq << 8 | p.hp) << 8 | p.max_hp) << 6 | _flags(p))
        else:
            odd.append((p.sq, p.hp, p.max_hp, _flags(p)))
    codes.sort()
    key.extend(codes)
    key.append(tuple(sorted(odd)) if odd else ())
    return hash(tuple(key))


def _carrier_sq(s: State, relic: int) -> int:
    """The square of the piece carrying ``relic``, or -1."""
    carrier = s.pieces.get(s.relic_carrier[relic]) if s.relic_carrier[relic] >= 0 else None
    return carrier.sq if carrier is not None else -1


def at_turn_start(state: State) -> bool:
    """Whether ``state`` waits for a player's first decision of a turn (the ``play``)."""
    return (state.result is None and not state.is_chance and bool(state.stack)
            and state.stack[-1][0] == "play")
