"""The clocks' record of stored decision times (web/clock.py: the game keeper asks which
times are missing, reads them and hands them over): each read adds only what follows
what is held, a read for an older length or with a gap (another writer mid-way) adds
nothing past it, an undo starts the game's record over, and ``forget`` drops it.
Issue 31: the clocks are computed from these times, and a slip in the bookkeeping (a
stale read appended twice, a gap skipped) would give a side another's time."""

from __future__ import annotations

from reliquary.web.clock import Clocks


def _rows(start: int, stop: int) -> list[tuple[int, int, float]]:
    return [(i, i % 2, 1000.0 + i) for i in range(start, stop)]


def test_a_new_game_wants_every_time_and_then_none() -> None:
    clocks = Clocks(None)
    assert clocks.wanted("g", 3) == (0, 3)
    clocks.add("g", 0, _rows(0, 3))
    assert clocks.wanted("g", 3) is None
    assert clocks.wanted("g", 5) == (3, 5)  # only what follows


def test_a_read_for_an_older_length_adds_nothing() -> None:
    clocks = Clocks(None)
    clocks.add("g", 0, _rows(0, 3))
    clocks.add("g", 1, _rows(1, 4))  # read before the first landed: stale
    assert clocks.wanted("g", 4) == (3, 4)
    clocks.add("g", 3, _rows(3, 4))
    assert clocks.wanted("g", 4) is None


def test_a_gap_in_a_read_stops_it_where_the_gap_starts() -> None:
    clocks = Clocks(None)
    clocks.add("g", 0, _rows(0, 2) + _rows(3, 5))
    assert clocks.wanted("g", 5) == (2, 5)
    clocks.add("g", 2, _rows(2, 5))
    assert clocks.wanted("g", 5) is None


def test_a_game_that_went_back_starts_over() -> None:
    clocks = Clocks(None)
    clocks.add("g", 0, _rows(0, 5))
    assert clocks.wanted("g", 5) is None
    assert clocks.wanted("g", 3) == (0, 3)  # an undo: fewer decisions than held
    clocks.add("g", 0, _rows(0, 3))
    assert clocks.wanted("g", 3) is None


def test_forget_drops_one_game_s_times() -> None:
    clocks = Clocks(None)
    clocks.add("g", 0, _rows(0, 3))
    clocks.add("h", 0, _rows(0, 3))
    clocks.forget("g")
    assert clocks.wanted("g", 3) == (0, 3)
    assert clocks.wanted("h", 3) is None  # the other game keeps its own


def test_a_game_without_a_clock_has_no_clock_view() -> None:
    """``Clocks.view``: "the view's ``clock`` object, or None for a game without"."""
    import reliquary

    assert Clocks(None).view("g", None, reliquary.new_game(), []) is None
