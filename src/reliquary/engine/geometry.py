"""Board geometry: squares, names, distance, line of sight and push lines (G1–G6).

A square is an int ``rank * size + file``; rank 0 is Key's back row, file 0 is
file ``a``. Everything here depends only on the board side, so each
:class:`Geometry` is built once per size and shared by all states.

>>> g = Geometry.of(8)
>>> g.name(g.square(2, 3))
'c4'
>>> g.parse("h8") == 63
True
>>> g.distance(g.parse("a1"), g.parse("c2"))
2
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

# The eight directions, counter-clockwise from east.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
)
FILES = "abcdefghijklmnopqrstuvwxyz"


# straight_squares' memo for "not aligned" (None there means "not asked yet"); told apart
# by its value, not identity, as a pickled Geometry carries a copy.
_NOT_ALIGNED: Final[tuple[int, ...]] = (-1,)


def _squares_of(mask: int) -> tuple[int, ...]:
    """The squares of a bitmask, in increasing order."""
    return tuple(sq for sq in range(mask.bit_length()) if mask >> sq & 1)


def nearest_direction(dx: int, dy: int) -> tuple[int, int]:
    """The row, column or diagonal nearest in angle to (dx, dy) (G6).

    With integer offsets the angle is never exactly between two of them.

    >>> nearest_direction(1, 2)
    (1, 1)
    >>> nearest_direction(3, 1)
    (1, 0)
    """
    angle = math.atan2(dy, dx)
    return DIRECTIONS[round(angle / (math.pi / 4)) % 8]


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Geometry:
    """Precomputed facts about a board of one side length."""

    def __init__(self, size: int) -> None:
        if not 2 <= size <= len(FILES):
            raise ValueError(f"board side {size} is out of range")
        self.size = size
        self.area = size * size
        n = size
        #: neighbours[sq]: the adjacent squares on the board (G1).
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                (y + dy) * n + (x + dx)
                for dx, dy in DIRECTIONS
                if 0 <= x + dx < n and 0 <= y + dy < n
            )
            for y in range(n)
            for x in range(n)
        )
        #: dist[a * area + b]: the distance between squares a and b (see distance); a
        #: table, as the rules' loops ask it often (no division there). Bytes: compiled,
        #: reading one is a plain load, with no int object to count references of.
        self.dist = bytes(max(abs(a % n - b % n), abs(a // n - b // n))
                          for a in range(self.area) for b in range(self.area))
        self._between: dict[int, int] = {}
        self._straight: dict[int, int | None] = {}
        # The same squares as tuples, by a * area + b, filled as asked (see
        # between_squares): the rules test each square rather than the bits of a mask,
        # which exceed a machine word on most boards (compiled, a boxed integer).
        self._between_sq: list[tuple[int, ...] | None] = [None] * (self.area * self.area)
        self._straight_sq: list[tuple[int, ...] | None] = [None] * (self.area * self.area)

    @staticmethod
    @cache
    def of(size: int) -> Geometry:
        return Geometry(size)

    # -- coordinates -------------------------------------------------------------
    def square(self, file: int, rank: int) -> int:
        return rank * self.size + file

    def xy(self, sq: int) -> tuple[int, int]:
        return sq % self.size, sq // self.size

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def offset(self, sq: int, dx: int, dy: int) -> int:
        """The square at (dx, dy) from sq, or -1 off the board."""
        x, y = sq % self.size + dx, sq // self.size + dy
        if 0 <= x < self.size and 0 <= y < self.size:
            return y * self.size + x
        return -1

    def name(self, sq: int) -> str:
        return f"{FILES[sq % self.size]}{sq // self.size + 1}"

    def parse(self, text: str) -> int:
        """Parse a square name like ``c4``; raises ValueError if it is not on this board."""
        text = text.strip().lower()
        if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit():
            raise ValueError(f"{text!r} is not a square name (like 'c4')")
        x, y = FILES.index(text[0]), int(text[1:]) - 1
        if not self.on_board(x, y):
            raise ValueError(f"{text!r} is off a {self.size}×{self.size} board")
        return self.square(x, y)

    def distance(self, a: int, b: int) -> int:
        """Chebyshev distance: a diagonal counts 1 (G1)."""
        return self.dist[a * self.area + b]

    def mirror(self, sq: int) -> int:
        """The square opposite through the board's centre (S2)."""
        return self.area - 1 - sq

    # -- halves and rows (S1) ----------------------------------------------------
    def row_of(self, player: int, rank_from_back: int) -> range:
        """The squares of the given row counted from a player's back row (0 = back row)."""
        rank = rank_from_back if player == 0 else self.size - 1 - rank_from_back
        return range(rank * self.size, (rank + 1) * self.size)

    def rank_from_back(self, player: int, sq: int) -> int:
        """The row of sq counted from a player's back row (0 = back row; see row_of)."""
        rank = sq // self.size
        return rank if player == 0 else self.size - 1 - rank

    def half_of(self, sq: int) -> int:
        """0 for Key's half, 1 for Skull's, -1 for the central row of an odd board."""
        rank, n = sq // self.size, self.size
        if rank < n // 2:
            return 0
        if rank >= (n + 1) // 2:
            return 1
        return -1

    # -- line of sight (G5) -------------------------------------------------------
    def between(self, a: int, b: int) -> int:
        """Bitmask of the squares whose interior the segment between a and b's centres crosses.

        The end squares are not included; touching a corner is not crossing.
        """
        key = a * self.area + b
        mask = self._between.get(key)
        if mask is None:
            mask = self._compute_between(a, b)
            self._between[key] = mask
            self._between[b * self.area + a] = mask
        return mask

    def _compute_between(self, a: int, b: int) -> int:
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        # Work in doubled coordinates: centres are odd, square edges even. The segment is
        # P(t) = (x0 + t·dx, y0 + t·dy), 0 ≤ t ≤ 1; it crosses a square's interior when the
        # t-intervals inside the square on both axes overlap. Times are fractions n/d
        # with d > 0, compared by cross-multiplying (exact, and no Fraction objects).
        x0, y0, dx, dy = 2 * ax + 1, 2 * ay + 1, 2 * (bx - ax), 2 * (by - ay)
        mask = 0
        for x in range(min(ax, bx), max(ax, bx) + 1):
            for y in range(min(ay, by), max(ay, by) + 1):
                sq = self.square(x, y)
                if sq in (a, b):
                    continue
                enters: list[tuple[int, int]] = [(0, 1)]  # the segment's own ends
                leaves: list[tuple[int, int]] = [(1, 1)]
                inside = True
                for p0, d, edge in ((x0, dx, 2 * x), (y0, dy, 2 * y)):
                    if d == 0:  # parallel: inside only if strictly between the two edges
                        inside = edge < p0 < edge + 2
                        if not inside:
                            break
                    else:
                        n = edge - p0 if d > 0 else p0 - edge - 2
                        enters.append((n, abs(d)))
                        leaves.append((n + 2, abs(d)))
                if inside and all(en * ld < ln * ed for en, ed in enters for ln, ld in leaves):
                    mask |= 1 << sq
        return mask

    def between_squares(self, a: int, b: int) -> tuple[int, ...]:
        """The squares of :meth:`between`, in increasing order."""
        key = a * self.area + b
        squares = self._between_sq[key]
        if squares is None:
            squares = self._between_sq[key] = _squares_of(self.between(a, b))
        return squares

    def straight_squares(self, a: int, b: int) -> tuple[int, ...] | None:
        """The squares of :meth:`straight_between` in increasing order, or None if a and b
        are not aligned."""
        key = a * self.area + b
        squares = self._straight_sq[key]
        if squares is None:
            mask = self.straight_between(a, b)
            squares = self._straight_sq[key] = _NOT_ALIGNED if mask is None else _squares_of(mask)
        return None if squares and squares[0] < 0 else squares

    def straight_between(self, a: int, b: int) -> int | None:
        """For ``los=straight``: squares strictly between a and b on their row, column
        or diagonal, or None if a and b are not aligned."""
        key = a * self.area + b
        if key in self._straight:
            return self._straight[key]
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        dx, dy = bx - ax, by - ay
        result: int | None = None
        if dx == 0 or dy == 0 or abs(dx) == abs(dy):
            steps = max(abs(dx), abs(dy))
            sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
            result = 0
            for i in range(1, steps):
                result |= 1 << self.square(ax + i * sx, ay + i * sy)
        self._straight[key] = result
        return result

    def line(self, sq: int, direction: tuple[int, int]) -> list[int]:
        """The squares from sq (exclusive) to the board's edge along a direction."""
        out = []
        nxt = self.offset(sq, *direction)
        while nxt >= 0:
            out.append(nxt)
            nxt = self.offset(nxt, *direction)
        return out
