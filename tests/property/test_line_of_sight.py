"""Property-based tests of line of sight (G5, RL4) and push lines (G6) on random boards."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reliquary.engine import Builder, Content
from reliquary.engine.geometry import DIRECTIONS, Geometry, nearest_direction


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, set[int], int, int]:
    """A board side, a set of Ruin squares and two distinct free squares a, b."""
    size = draw(st.integers(min_value=8, max_value=12))
    area = size * size
    a = draw(st.integers(min_value=0, max_value=area - 1))
    b = draw(st.integers(min_value=0, max_value=area - 1).filter(lambda sq: sq != a))
    ruins = draw(st.sets(st.integers(min_value=0, max_value=area - 1), max_size=12))
    return size, ruins - {a, b}, a, b


def position(content: Content, size: int, ruins: set[int], a: int, b: int,
             los: str, carrier: bool = False):
    geo = Geometry.of(size)
    builder = Builder(content, size, los=los)
    if ruins:
        builder.ruins(*(geo.name(sq) for sq in ruins))
    builder.hero(0, geo.name(a)).hero(1, geo.name(b))
    if carrier:
        builder.carry(0, geo.name(b))
    return builder.build()


@settings(max_examples=150, deadline=None)
@given(boards())
def test_G5_los_is_symmetric_and_adjacent_squares_always_see_each_other(content, board):
    """G5: LoS between two squares does not depend on the direction it is drawn; adjacent
    squares always see each other (no square lies between them)."""
    size, ruins, a, b = board
    for los in ("geometric", "straight"):
        state = position(content, size, ruins, a, b, los)
        assert state.has_los(a, b) == state.has_los(b, a)
        if state.geometry.distance(a, b) == 1:
            assert state.has_los(a, b)


@settings(max_examples=150, deadline=None)
@given(boards())
def test_G5_on_a_line_without_pieces_both_rules_agree(content, board):
    """G5: along a row, column or diagonal with no piece between, the geometric segment
    crosses exactly the squares strictly between (corners do not count), so the two
    settings agree; off every line, ``straight`` never sees."""
    size, ruins, a, b = board
    geometric = position(content, size, ruins, a, b, "geometric")
    straight = position(content, size, ruins, a, b, "straight")
    geo = geometric.geometry
    (ax, ay), (bx, by) = geo.xy(a), geo.xy(b)
    aligned = ax == bx or ay == by or abs(ax - bx) == abs(ay - by)
    if aligned:
        assert straight.has_los(a, b) == geometric.has_los(a, b)
        assert geo.between(a, b) == geo.straight_between(a, b)
    else:
        assert not straight.has_los(a, b)


@settings(max_examples=100, deadline=None)
@given(boards())
def test_RL4_a_carrier_is_always_seen_geometrically_but_not_through_hook(content, board):
    """RL4: against a carrier LoS is ignored (geometric); the strict check (Hook) is the
    plain rule; with ``straight`` only Ruins stop mattering, and only on a line."""
    size, ruins, a, b = board
    plain = position(content, size, ruins, a, b, "geometric")
    carried = position(content, size, ruins, a, b, "geometric", carrier=True)
    assert carried.has_los(a, b)
    assert carried.has_los(a, b, strict=True) == plain.has_los(a, b)
    straight = position(content, size, ruins, a, b, "straight", carrier=True)
    assert straight.has_los(a, b) == (straight.geometry.straight_between(a, b) is not None)


@given(st.integers(min_value=-11, max_value=11), st.integers(min_value=-11, max_value=11))
def test_G6_the_push_line_is_the_nearest_in_angle(dx, dy):
    """G6: the push or pull line is the row, column or diagonal nearest in angle to the
    line between the centres: no other direction is closer (by the cosine)."""
    assume((dx, dy) != (0, 0))
    chosen = nearest_direction(dx, dy)

    def cosine(d: tuple[int, int]) -> float:
        return (d[0] * dx + d[1] * dy) / ((d[0] ** 2 + d[1] ** 2) ** 0.5)

    assert all(cosine(chosen) >= cosine(d) - 1e-9 for d in DIRECTIONS)


def crossed_by_sampling(geo: Geometry, a: int, b: int, samples: int = 2400) -> int:
    """An independent G5 reference: the squares whose open interior contains some point of
    the segment, found by sampling it finely in exact integer arithmetic. (A segment that
    crosses an open square does so along a piece whose length, on boards up to 12, is far
    above the sampling step.)"""
    (ax, ay), (bx, by) = geo.xy(a), geo.xy(b)
    # doubled coordinates: centres odd, edges even; scaled by the number of samples
    x0, y0 = (2 * ax + 1) * samples, (2 * ay + 1) * samples
    dx, dy = 2 * (bx - ax), 2 * (by - ay)
    cell = 2 * samples
    mask = 0
    for k in range(samples + 1):
        x, y = x0 + dx * k, y0 + dy * k
        if x % cell and y % cell:  # strictly inside a square, not on an edge
            sq = geo.square(x // cell, y // cell)
            if sq not in (a, b):
                mask |= 1 << sq
    return mask


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=8, max_value=12), st.data())
def test_G5_crossed_squares_match_an_independent_reference(size, data):
    """G5: the squares a segment crosses (Ruins there block) are exactly those whose
    interior it passes through; touching a corner or running along an edge is not
    crossing."""
    geo = Geometry.of(size)
    a = data.draw(st.integers(min_value=0, max_value=geo.area - 1))
    b = data.draw(st.integers(min_value=0, max_value=geo.area - 1).filter(lambda s: s != a))
    assert geo.between(a, b) == crossed_by_sampling(geo, a, b)
