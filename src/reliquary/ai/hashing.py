"""A position hash for transposition tables, computed from the state's public fields.

Two states with the same key have the same pieces (HP and flags included), relics,
hands, waiting card, Vigil, rites, pools, counters and stack of pending decisions,
so they have the same legal options and the same future.
"""

from __future__ import annotations

from ..engine import State

# The position key is the engine's own (State.key: every field of the position); the
# AI adds the key of a position as a player sees it at a turn's start, for repetitions.

def shared_fields(state: State) -> tuple[object, ...]:
    """What both :func:`position_key` and :func:`repetition_key` read of ``state``:
    worked out once where both keys are needed (the search's turn starts)."""
    return state.shared_key()


def position_key(state: State, shared: tuple[object, ...] | None = None) -> int:
    """A hash of everything that decides the future of ``state`` (:meth:`State.key`).
    ``shared``: its :func:`shared_fields`, if the caller has them."""
    return state.key(shared)


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
        shared if shared is not None else s.shared_key(),
        _carrier_sq(s, 0), _carrier_sq(s, 1),
        min(s.turns_taken[0], 1), min(s.turns_taken[1], 1), regroups,
    ]
    codes: list[int] = []  # the square first: sorted, they are in the squares' order
    odd: list[tuple[int, int, int, int]] = []  # the pieces that do not pack
    conds: list[tuple[int, tuple[object, ...]]] = []  # pieces with conditions, by square
    for p in s.pieces.values():
        if p.packs():
            codes.append(((p.sq << 8 | p.hp) << 8 | p.max_hp) << 12 | p.flags())
        else:
            odd.append((p.sq, p.hp, p.max_hp, p.flags()))
        if p.conds:
            conds.append((p.sq, p.conds))
    codes.sort()
    key.extend(codes)
    key.append(tuple(sorted(odd)) if odd else ())
    key.append(tuple(sorted(conds)) if conds else ())
    return hash(tuple(key))


def _carrier_sq(s: State, relic: int) -> int:
    """The square of the piece carrying ``relic``, or -1."""
    carrier = s.pieces.get(s.relic_carrier[relic]) if s.relic_carrier[relic] >= 0 else None
    return carrier.sq if carrier is not None else -1


def at_turn_start(state: State) -> bool:
    """Whether ``state`` waits for a player's first decision of a turn (the ``play``)."""
    return (state.result is None and not state.is_chance and bool(state.stack)
            and state.stack[-1][0] == "play")
