"""The card sheets' contract, value by value (issue 31, by class: the sheet module's
grid, crop marks and titles were read from the printed PDF in part, with tolerances).
From docs/print.md ("Card sheets", "For print shops") and the module's docstrings:

- **The grid** (``card_grid``): the most cards that fit the paper with a 5 mm margin,
  a card fitting exactly too; without bleed the cards touch, with bleed each keeps its
  own; the page turns to landscape only when *more* cards fit that way; the block of
  cards (with its bleed) centred; A4 3 × 3 up to 1 mm of bleed, 4 × 2 landscape at
  2–3 mm; Letter 3 × 3 without bleed, 4 × 2 landscape at 1 mm, 3 × 2 from 2 mm; a
  bleed with which no card fits is refused. Cards fill the grid row by row from the top
  left.
- **Crop marks** (``_crop_marks``, ``_mark_span``): on every trim line of the cards
  printed, outside the block of cards, in ink at 0.3 pt; 3.5 mm long and 1 mm off the
  block where the 5 mm margin leaves room; else nearer (down to 0.5 mm off), then
  shorter (down to 1.5 mm), then entering the margin at that shortest; below the cards
  they leave the sheet's title 3.4 mm within the margin when the title goes there.
- **The title line** (``_sheet_title``, ``_title_below``): below the cards when the
  room under them holds a whole crop mark, 1.2 mm of clearance and the 3.5 mm line
  (9.2 mm), else up the side margin beyond the marks; bold 6.5 pt, muted, centred,
  shrunk to fit between the 5 mm margins.
- **The pages** (``draw_card_sheets``): a page per sheet when every sheet fits one
  page, else the cards run on, evenly filled (9 cards on 8 places: 5 + 4); each page's
  title names its sheets, then the cut-marks and card-size words, numbered ``k/N``
  when there are more pages than sheets; a sheet without cards prints nothing.
"""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from reliquary.content import default_content
from reliquary.printing import PrintOptions, context_for, sheets
from reliquary.printing.common import INK, MUTED, mm
from reliquary.printing.sheets import CardGrid, card_grid

MM = 72 / 25.4
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
MARGIN = 5 * MM
PAPERS = {"a4": A4, "letter": LETTER}

Op = tuple[Any, ...]


def close(a: Any, b: Any, tol: float = 1e-6) -> bool:
    if isinstance(b, float) or isinstance(a, float):
        return isinstance(a, (int, float)) and abs(a - b) <= tol
    if isinstance(b, (tuple, list)):
        return (isinstance(a, (tuple, list)) and len(a) == len(b)
                and all(close(x, y, tol) for x, y in zip(a, b, strict=True)))
    return bool(a == b)


def test_constants() -> None:
    assert pytest.approx(1 * MM) == sheets.CROP_GAP
    assert pytest.approx(3.5 * MM) == sheets.CROP_LEN
    assert pytest.approx(0.5 * MM) == sheets.CROP_MIN_GAP
    assert pytest.approx(1.5 * MM) == sheets.CROP_MIN_LEN
    assert sheets.CROP_WIDTH == 0.3
    assert pytest.approx(3.4 * MM) == sheets.TITLE_ROOM


# ---------------------------------------------------------------------- the grid
def expected_grid(paper: str, bleed_mm: float) -> tuple[tuple[float, float], int, int]:
    """(page, cols, rows) by the documented rule, in millimetres (exact fits count)."""
    width, height = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[paper]
    best: tuple[tuple[float, float], int, int] | None = None
    for w, h in ((width, height), (height, width)):
        cols = math.floor(round((w - 10) / (63.5 + 2 * bleed_mm), 9))
        rows = math.floor(round((h - 10) / (88.9 + 2 * bleed_mm), 9))
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best[1] * best[2]):
            best = ((w * MM, h * MM), cols, rows)
    assert best is not None
    return best


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed_mm", [0.0, 0.45, 0.5, 1.0, 1.5, 1.58, 1.6, 1.925, 2.0, 2.5,
                                      2.56, 2.6, 3.0, 3.38, 3.4, 4.0, 4.125, 4.2, 5.0, 6.0])
def test_the_grid_is_the_most_cards_that_fit_centred(paper: str, bleed_mm: float) -> None:
    b = bleed_mm * MM
    grid = card_grid(paper, b)
    page, cols, rows = expected_grid(paper, bleed_mm)
    assert (grid.cols, grid.rows) == (cols, rows)
    assert grid.page == pytest.approx(page)
    assert grid.per_page == cols * rows
    assert grid.pitch_x == pytest.approx(CARD_W + 2 * b)
    assert grid.pitch_y == pytest.approx(CARD_H + 2 * b)
    assert grid.bleed == pytest.approx(b)
    # the block of cards with their bleed, centred on the page
    assert grid.x0 - b == pytest.approx(page[0] - (grid.x0 - b + cols * grid.pitch_x))
    assert grid.y0 - b == pytest.approx(page[1] - (grid.y0 - b + rows * grid.pitch_y))
    assert grid.x0 - b >= MARGIN - 1e-6 and grid.y0 - b >= MARGIN - 1e-6


@pytest.mark.parametrize(("paper", "bleed_mm", "landscape", "cols", "rows"), [
    ("a4", 0.0, False, 3, 3), ("a4", 1.0, False, 3, 3), ("a4", 2.0, True, 4, 2),
    ("a4", 3.0, True, 4, 2), ("letter", 0.0, False, 3, 3), ("letter", 1.0, True, 4, 2),
    ("letter", 2.0, False, 3, 2), ("letter", 3.0, True, 3, 2), ("letter", 5.0, True, 3, 2),
    # exact fits: Letter's three rows at 0.45 mm, four columns across at 1.925 mm;
    # A4's four columns across at 4.125 mm
    ("letter", 0.45, False, 3, 3), ("letter", 1.925, True, 4, 2), ("a4", 4.125, True, 4, 2),
    # a tie (3 × 2 either way) keeps the page upright
    ("letter", 2.3, False, 3, 2)])
def test_the_documented_grids(paper: str, bleed_mm: float, landscape: bool, cols: int,
                              rows: int) -> None:
    grid = card_grid(paper, bleed_mm * MM)
    width, height = PAPERS[paper]
    assert grid.page == ((height, width) if landscape else (width, height))
    assert (grid.cols, grid.rows) == (cols, rows)


def test_a_bleed_no_card_fits_with_is_refused() -> None:
    # 80 mm: upright one row but no column fits, across one column but no row
    with pytest.raises(ValueError, match=r"^a card with 80 mm bleed does not fit on a4 paper$"):
        card_grid("a4", 80 * MM)
    with pytest.raises(ValueError, match=r"^a card with 120\.5 mm bleed does not fit on letter"):
        card_grid("letter", 120.5 * MM)
    assert card_grid("a4", 55 * MM).per_page == 1  # one still fits


@pytest.mark.parametrize(("paper", "bleed_mm"), [("a4", 0.0), ("a4", 3.0), ("letter", 2.0)])
def test_cards_fill_the_grid_row_by_row_from_the_top_left(paper: str, bleed_mm: float) -> None:
    grid = card_grid(paper, bleed_mm * MM)
    places = [grid.trim(i) for i in range(grid.per_page)]
    for i, (x, y) in enumerate(places):
        col, row = i % grid.cols, i // grid.cols
        assert x == pytest.approx(grid.x0 + col * grid.pitch_x)
        assert y == pytest.approx(grid.y0 + (grid.rows - 1 - row) * grid.pitch_y)
    assert places[0][1] == max(y for _, y in places)  # the first card at the top
    assert places[-1] == pytest.approx((max(x for x, _ in places), grid.y0))


# ---------------------------------------------------------------------- crop marks
@pytest.mark.parametrize(("room_mm", "gap_mm", "length_mm"), [
    (20.0, 1.0, 3.5), (4.5, 1.0, 3.5),  # room for the whole mark
    (4.3, 0.8, 3.5), (4.0, 0.5, 3.5),  # nearer the cards
    (3.0, 0.5, 2.5), (2.0, 0.5, 1.5),  # then shorter
    (1.35, 0.5, 1.5), (0.0, 0.5, 1.5), (-2.0, 0.5, 1.5)])  # the shortest, into the margin
def test_a_crop_mark_s_gap_and_length_for_its_room(room_mm: float, gap_mm: float,
                                                   length_mm: float) -> None:
    gap, length = sheets._mark_span(room_mm * MM)
    assert gap == pytest.approx(gap_mm * MM)
    assert length == pytest.approx(length_mm * MM)


class Drawn(Canvas):
    """A canvas recording lines, the stroke's colour and width, saved states, text
    placement and pages."""

    def __init__(self, size: tuple[float, float] = A4) -> None:
        super().__init__(io.BytesIO(), pagesize=size)
        self.ops: list[Op] = []

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.ops.append(("line", x1, y1, x2, y2))
        super().line(x1, y1, x2, y2)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        self.ops.append(("stroke", aColor.hexval()))
        super().setStrokeColor(aColor, alpha)

    def setLineWidth(self, width: float) -> None:
        self.ops.append(("width", width))
        super().setLineWidth(width)

    def saveState(self) -> None:
        self.ops.append(("save",))
        super().saveState()

    def restoreState(self) -> None:
        self.ops.append(("restore",))
        super().restoreState()

    def translate(self, dx: float, dy: float) -> None:
        self.ops.append(("translate", dx, dy))
        super().translate(dx, dy)

    def rotate(self, theta: float) -> None:
        self.ops.append(("rotate", theta))
        super().rotate(theta)

    def setPageSize(self, size: tuple[float, float]) -> None:
        self.ops.append(("size", size[0], size[1]))
        super().setPageSize(size)

    def showPage(self) -> None:
        self.ops.append(("page",))
        super().showPage()


def span(room: float) -> tuple[float, float]:
    """The documented (gap, length) of a mark with ``room`` before the margin."""
    if room >= 4.5 * MM:
        return 1 * MM, 3.5 * MM
    if room >= 4 * MM:
        return room - 3.5 * MM, 3.5 * MM
    return 0.5 * MM, max(1.5 * MM, room - 0.5 * MM)


def expected_marks(grid: CardGrid, count: int, title_room: float) -> list[Op]:
    width, height = grid.page
    b = grid.bleed
    cols, rows = min(count, grid.cols), -(-count // grid.cols)
    # the trim lines of the cards printed (two cards that touch share one)
    xs = sorted({round(grid.x0 + i * grid.pitch_x + d, 3) for i in range(cols)
                 for d in (0, CARD_W)})
    ys = sorted({round(grid.y0 + (grid.rows - 1 - j) * grid.pitch_y + d, 3) for j in range(rows)
                 for d in (0, CARD_H)})
    # the block of those cards with their bleed
    left, right = grid.x0 - b, grid.x0 + (cols - 1) * grid.pitch_x + CARD_W + b
    top = grid.y0 + grid.rows * grid.pitch_y - b
    bottom = grid.y0 + (grid.rows - rows) * grid.pitch_y - b
    below = span(bottom - MARGIN - title_room)
    above = span(height - MARGIN - top)
    before, after = span(left - MARGIN), span(width - MARGIN - right)
    ops: list[Op] = [("save",), ("stroke", INK.hexval()), ("width", 0.3)]
    for x in xs:
        ops.append(("line", x, bottom - below[0], x, bottom - below[0] - below[1]))
        ops.append(("line", x, top + above[0], x, top + above[0] + above[1]))
    for y in ys:
        ops.append(("line", left - before[0], y, left - before[0] - before[1], y))
        ops.append(("line", right + after[0], y, right + after[0] + after[1], y))
    return [*ops, ("restore",)]


CASES = [(paper, bleed) for paper in ("a4", "letter") for bleed in (0.0, 1.0, 2.0, 3.0, 5.0)]


@pytest.mark.parametrize(("paper", "bleed_mm"), CASES)
def test_every_crop_mark_of_every_page_shape(paper: str, bleed_mm: float) -> None:
    grid = card_grid(paper, bleed_mm * MM)
    for count in range(1, grid.per_page + 1):
        for title_room in (0.0, 3.4 * MM):
            canvas = Drawn(grid.page)
            sheets._crop_marks(canvas, grid, count, title_room)
            want = expected_marks(grid, count, title_room)
            assert close(canvas.ops, want, 1e-3), (paper, bleed_mm, count, title_room)
        plain = Drawn(grid.page)  # no title room asked: none left
        sheets._crop_marks(plain, grid, count)
        assert close(plain.ops, expected_marks(grid, count, 0.0), 1e-3)


@pytest.mark.parametrize(("paper", "bleed_mm"), CASES)
def test_the_marks_keep_3_mm_from_the_edge_and_the_title_its_room(paper: str,
                                                                  bleed_mm: float) -> None:
    """Never nearer the paper's edge than 3 mm; below the cards, where the title goes,
    they end at least 3.4 mm inside the margin or are the shortest (1.5 mm, 0.5 mm off)."""
    grid = card_grid(paper, bleed_mm * MM)
    width, height = grid.page
    room = sheets.TITLE_ROOM if sheets._title_below(grid) else 0.0
    canvas = Drawn(grid.page)
    sheets._crop_marks(canvas, grid, grid.per_page, room)
    lines = [op for op in canvas.ops if op[0] == "line"]
    # two marks on each trim line: cards without bleed share theirs
    trims = (grid.cols + 1 + grid.rows + 1) if bleed_mm == 0 else 2 * (grid.cols + grid.rows)
    assert len(lines) == 2 * trims
    bottom = grid.y0 - grid.bleed
    for _, x1, y1, x2, y2 in lines:
        for x, y in ((x1, y1), (x2, y2)):
            assert 3 * MM - 1e-6 <= x <= width - 3 * MM + 1e-6
            assert 3 * MM - 1e-6 <= y <= height - 3 * MM + 1e-6
        if x1 == x2 and y1 < bottom:  # below the cards
            length, gap = y1 - y2, bottom - y1
            shortest = abs(length - 1.5 * MM) < 1e-6 and abs(gap - 0.5 * MM) < 1e-6
            assert shortest or y2 >= MARGIN + room - 1e-6


# ---------------------------------------------------------------------- the title line
def test_the_title_goes_below_when_9_2_mm_are_free_under_the_cards() -> None:
    for bleed in (0.0, 2 * MM):
        for free, below in ((9.2 * MM + 1e-4, True), (9.2 * MM - 1e-4, False),
                            (20 * MM, True), (5 * MM, False)):
            grid = CardGrid(A4, 3, 2, 20 * MM, free + bleed, CARD_W + 2 * bleed,
                            CARD_H + 2 * bleed, bleed)
            assert sheets._title_below(grid) is below, (bleed, free)
    # exactly the room (as the module adds it up) is enough
    exact = sheets.CROP_GAP + sheets.CROP_LEN + 1.2 * mm + 3.5 * mm
    assert exact == pytest.approx(9.2 * MM)
    assert sheets._title_below(CardGrid(A4, 3, 2, 20 * MM, exact, CARD_W, CARD_H, 0.0))
    assert sheets._title_below(card_grid("a4", 0.0))
    assert sheets._title_below(card_grid("a4", 3 * MM))
    assert not sheets._title_below(card_grid("a4", 4 * MM))
    assert not sheets._title_below(card_grid("letter", 0.0))


@pytest.fixture
def texts(monkeypatch: pytest.MonkeyPatch) -> list[Op]:
    """The sheet module's text lines, recorded by their arguments (on the canvas's ops
    as well, among its translations)."""
    seen: list[Op] = []

    def text(c: Any, text: str, x: float, y: float, size: float, *, bold: bool = False,
             color: Any = INK, align: str = "left", max_width: float | None = None) -> None:
        op = ("text", text, x, y, size, bold, color.hexval(), align, max_width)
        seen.append(op)
        if isinstance(c, Drawn):
            c.ops.append(op)

    monkeypatch.setattr(sheets, "draw_text", text)
    return seen


@pytest.mark.parametrize(("paper", "bleed_mm"), CASES)
def test_the_title_line_below_the_marks_or_up_the_side(texts: list[Op], paper: str,
                                                       bleed_mm: float) -> None:
    grid = card_grid(paper, bleed_mm * MM)
    width, height = grid.page
    b = grid.bleed
    canvas = Drawn(grid.page)
    sheets._sheet_title(canvas, grid, "SHEET")
    under = grid.y0 - b
    if under >= 9.2 * MM:  # below: under the marks (made to leave it room), 1.2 mm clear
        gap, length = span(under - MARGIN - 3.4 * MM)
        baseline = under - gap - length - 1.2 * MM - 2.2 * MM
        want: list[Op] = [("text", "SHEET", width / 2, baseline, 6.5, True, MUTED.hexval(),
                           "center", width - 2 * MARGIN)]
        assert baseline >= 3 * MM  # its letters stay on the printable paper
    else:  # up the side margin, beyond the marks there (1 + 3.5 mm and 1.2 mm clear)
        right = grid.x0 + (grid.cols - 1) * grid.pitch_x + CARD_W + b
        want = [("save",), ("translate", right + 1 * MM + 3.5 * MM + 1.2 * MM + 2.2 * MM,
                            height / 2),
                ("rotate", 90), ("text", "SHEET", 0, 0, 6.5, True, MUTED.hexval(), "center",
                                 height - 2 * MARGIN), ("restore",)]
        assert right + 7.9 * MM <= width - 3 * MM
    assert close(canvas.ops, want), canvas.ops
    # up the side only on Letter without bleed (6.35 mm above and below) and where a
    # large bleed leaves as little
    side = {("letter", 0.0), ("letter", 5.0), ("a4", 5.0)}
    assert ((paper, bleed_mm) in side) == (under < 9.2 * MM)


# ---------------------------------------------------------------------- the pages
def _pages(monkeypatch: pytest.MonkeyPatch, texts: list[Op], paper: str, bleed_mm: float,
           sizes: list[int]) -> tuple[Drawn, str, CardGrid]:
    """draw_card_sheets over sheets of ``sizes`` cards (named I, II, ...), with each
    card face, the crop marks and the title line recorded, not drawn."""
    ctx = context_for(PrintOptions(lang="en", paper=paper, bleed_mm=bleed_mm),
                      default_content())
    grid = card_grid(paper, bleed_mm * MM)
    canvas = Drawn(grid.page)

    def face(c: Drawn, _ctx: Any, face: str, x: float, y: float) -> None:
        c.ops.append(("face", face, x, y))

    def marks(c: Drawn, g: CardGrid, count: int, title_room: float = 0.0) -> None:
        c.ops.append(("marks", g, count, title_room))

    def title(c: Drawn, g: CardGrid, line: str) -> None:
        c.ops.append(("title", g, line))

    monkeypatch.setattr(sheets, "draw_face", lambda ctx, c, f, x, y: face(c, ctx, f, x, y))
    monkeypatch.setattr(sheets, "_crop_marks", marks)
    monkeypatch.setattr(sheets, "_sheet_title", title)
    names = ["I", "II", "III", "IV", "V"]
    given = [(names[i], [f"{names[i]}-{k}" for k in range(1, n + 1)])
             for i, n in enumerate(sizes)]
    sheets.draw_card_sheets(ctx, canvas, given)  # type: ignore[arg-type]
    return canvas, f" · {ctx.label('cut_marks')} · {ctx.label('card_size')}", grid


def expected_pages(grid: CardGrid, words: str, pages: list[list[str]], numbered: bool,
                   title_room: float) -> list[Op]:
    ops: list[Op] = []
    for number, page in enumerate(pages, start=1):
        ops.append(("size", *grid.page))
        for index, card in enumerate(page):
            ops.append(("face", card, *grid.trim(index)))
        ops.append(("marks", grid, len(page), title_room))
        sheets_on = list(dict.fromkeys(card.split("-")[0] for card in page))
        suffix = f" · {number}/{len(pages)}" if numbered else ""
        ops.append(("title", grid, " + ".join(sheets_on) + words + suffix))
        ops.append(("page",))
    return ops


def _cards(sizes: list[int]) -> list[str]:
    names = ["I", "II", "III", "IV", "V"]
    return [f"{names[i]}-{k}" for i, n in enumerate(sizes) for k in range(1, n + 1)]


@pytest.mark.parametrize(("paper", "bleed_mm", "sizes", "split", "numbered"), [
    # every sheet fits a page: a page each (the empty one prints nothing)
    ("a4", 0.0, [9, 9, 0, 3], [9, 9, 3], False),
    ("a4", 0.0, [9, 3], [9, 3], False),
    ("letter", 0.0, [1], [1], False),
    # bleed on A4 holds 8: the 36 cards run on, 8, 8, 8, 8 and 4 (docs/print.md)
    ("a4", 3.0, [9, 9, 9, 9], [8, 8, 8, 8, 4], True),
    ("a4", 3.0, [9], [5, 4], True),  # evenly: no lone ninth card
    ("a4", 3.0, [9, 1], [5, 5], False),  # as many pages as sheets: not numbered
    ("letter", 2.0, [9, 9, 0], [6, 6, 6], True),
    ("a4", 3.0, [8, 8], [8, 8], False)])
def test_the_pages_of_a_set_of_sheets(monkeypatch: pytest.MonkeyPatch, texts: list[Op],
                                      paper: str, bleed_mm: float, sizes: list[int],
                                      split: list[int], numbered: bool) -> None:
    canvas, words, grid = _pages(monkeypatch, texts, paper, bleed_mm, sizes)
    cards = _cards(sizes)
    assert sum(split) == len(cards)
    pages, start = [], 0
    for n in split:
        pages.append(cards[start:start + n])
        start += n
    room = 3.4 * MM if sheets._title_below(grid) else 0.0
    want = expected_pages(grid, words, pages, numbered, room)
    assert close(canvas.ops, want), [op for op in canvas.ops if op[0] == "title"]


def test_the_title_words_and_numbering(monkeypatch: pytest.MonkeyPatch,
                                       texts: list[Op]) -> None:
    canvas, words, _ = _pages(monkeypatch, texts, "a4", 3.0, [9, 9, 9, 9])
    assert words == " · CUT ALONG THE MARKS · 63.5 × 88.9 MM"
    titles = [op[2] for op in canvas.ops if op[0] == "title"]
    assert titles == [f"I{words} · 1/5", f"I + II{words} · 2/5", f"II + III{words} · 3/5",
                      f"III + IV{words} · 4/5", f"IV{words} · 5/5"]
