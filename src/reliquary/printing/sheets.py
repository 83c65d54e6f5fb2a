"""Card sheets I–IV: cards on a grid, crop marks outside the cards, a sheet title."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from .cards import Face, draw_face
from .common import CARD_H, CARD_W, INK, MIN_MARGIN, MUTED, PAPERS, Context, draw_text, mm

CROP_GAP = 1.0 * mm  # from the card (or its bleed) to the start of a crop mark
CROP_LEN = 3.5 * mm
CROP_MIN_GAP = 0.5 * mm  # where the cards leave little room: the least gap a mark keeps
CROP_MIN_LEN = 1.5 * mm  # and the shortest mark (still easy to find)
CROP_WIDTH = 0.3  # points; the tests tell crop marks by this width
#: Below the cards, the sheet's title line (6.5 pt) and its clearance from the marks:
#: the marks there end this far short of the margin, so the title stays within it.
TITLE_ROOM = 3.4 * mm


@dataclass(frozen=True)
class CardGrid:
    """Where the cards go on a page: ``cols`` × ``rows`` trims, lower-left first at (x0, y0)."""

    page: tuple[float, float]
    cols: int
    rows: int
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    bleed: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim(self, index: int) -> tuple[float, float]:
        """The lower-left trim corner of the ``index``-th card, filled row by row from the top."""
        col, row = index % self.cols, index // self.cols
        return (self.x0 + col * self.pitch_x,
                self.y0 + (self.rows - 1 - row) * self.pitch_y)


def card_grid(paper: str, bleed: float) -> CardGrid:
    """The largest grid of cards that fits the paper with a ≥ 5 mm margin (3 × 3 without bleed).

    Without bleed the cards touch, so one cut serves two cards; with bleed each card
    keeps its own bleed, and the page turns to landscape when more cards fit that way.
    """
    pitch_x, pitch_y = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    width, height = PAPERS[paper]
    best: CardGrid | None = None
    for page in ((width, height), (height, width)):
        cols = math.floor((page[0] - 2 * MIN_MARGIN + 1e-6) / pitch_x)
        rows = math.floor((page[1] - 2 * MIN_MARGIN + 1e-6) / pitch_y)
        if cols < 1 or rows < 1:
            continue
        x0 = (page[0] - cols * pitch_x) / 2 + bleed
        y0 = (page[1] - rows * pitch_y) / 2 + bleed
        grid = CardGrid(page, cols, rows, x0, y0, pitch_x, pitch_y, bleed)
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        raise ValueError(f"a card with {bleed / mm:g} mm bleed does not fit on {paper} paper")
    return best


def draw_card_sheet(ctx: Context, c: Canvas, title: str, faces: list[Face]) -> None:
    """Draw the pages of one sheet (as many as its cards need), each with its title line."""
    draw_card_sheets(ctx, c, [(title, faces)])


def draw_card_sheets(ctx: Context, c: Canvas, sheets: list[tuple[str, list[Face]]]) -> None:
    """Draw card sheets: a page each where a sheet fits one page, else one flow.

    When the grid holds fewer cards than a sheet (bleed on A4 holds 8, a sheet 9), the
    sheets run on from page to page, evenly filled, so that no page carries a lone card;
    each page's title names the sheets whose cards it holds.
    """
    grid = card_grid(ctx.options.paper, ctx.bleed)
    sheets = [(title, faces) for title, faces in sheets if faces]
    if all(len(faces) <= grid.per_page for _, faces in sheets):
        pages = [[(title, face) for face in faces] for title, faces in sheets]
    else:
        cards = [(title, face) for title, faces in sheets for face in faces]
        count = math.ceil(len(cards) / grid.per_page)
        per_page = math.ceil(len(cards) / count)  # evenly: 9 cards on 8 places → 5 + 4
        pages = [cards[i:i + per_page] for i in range(0, len(cards), per_page)]
    for number, page in enumerate(pages, start=1):
        c.setPageSize(grid.page)
        for index, (_, face) in enumerate(page):
            draw_face(ctx, c, face, *grid.trim(index))
        _crop_marks(c, grid, len(page), TITLE_ROOM if _title_below(grid) else 0.0)
        titles = " + ".join(dict.fromkeys(title for title, _ in page))
        suffix = f" · {number}/{len(pages)}" if len(pages) > len(sheets) else ""
        line = f"{titles} · {ctx.label('cut_marks')} · {ctx.label('card_size')}{suffix}"
        _sheet_title(c, grid, line)
        c.showPage()


def _crop_marks(c: Canvas, grid: CardGrid, count: int, title_room: float = 0.0) -> None:
    """Marks on every trim line, outside the block of cards, so cuts run edge to edge;
    kept off the paper's edge, which a printer may not reach (:func:`_mark_span`), and
    ``title_room`` short of the margin below the cards, where the sheet's title goes."""
    rows_used = math.ceil(count / grid.cols)
    cols_used = min(count, grid.cols)
    b = grid.bleed
    width, height = grid.page
    left, right = grid.x0 - b, grid.x0 + (cols_used - 1) * grid.pitch_x + CARD_W + b
    top = grid.y0 + (grid.rows - 1) * grid.pitch_y + CARD_H + b
    bottom = grid.y0 + (grid.rows - rows_used) * grid.pitch_y - b
    xs = sorted({round(grid.x0 + i * grid.pitch_x + d, 3)
                 for i in range(cols_used) for d in (0, CARD_W)})
    ys = sorted({round(grid.y0 + (grid.rows - 1 - j) * grid.pitch_y + d, 3)
                 for j in range(rows_used) for d in (0, CARD_H)})
    below = _mark_span(bottom - MIN_MARGIN - title_room)
    above = _mark_span(height - MIN_MARGIN - top)
    before, after = _mark_span(left - MIN_MARGIN), _mark_span(width - MIN_MARGIN - right)
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(CROP_WIDTH)
    for x in xs:
        c.line(x, bottom - below[0], x, bottom - below[0] - below[1])
        c.line(x, top + above[0], x, top + above[0] + above[1])
    for y in ys:
        c.line(left - before[0], y, left - before[0] - before[1], y)
        c.line(right + after[0], y, right + after[0] + after[1], y)
    c.restoreState()


def _mark_span(room: float) -> tuple[float, float]:
    """(gap, length) of the crop marks on a side with ``room`` between the cards and the
    5 mm margin: the whole mark where it fits; else a closer, shorter one that keeps
    within the margin, or enters it by at most 2 mm where even the shortest does not
    fit (Letter's 3 × 3 leaves 1.35 mm above and below), so never nearer the paper's
    edge than 3 mm, which printers reach."""
    gap = min(CROP_GAP, max(CROP_MIN_GAP, room - CROP_LEN))
    return gap, max(CROP_MIN_LEN, min(CROP_LEN, room - gap))


def _title_below(grid: CardGrid) -> bool:
    """Whether the sheet's title goes below the cards (else up the side margin)."""
    return grid.y0 - grid.bleed >= CROP_GAP + CROP_LEN + 1.2 * mm + 3.5 * mm


def _sheet_title(c: Canvas, grid: CardGrid, line: str) -> None:
    """The title in the widest free margin beyond the crop marks: below (under the
    marks, which shorten to leave it room within the margin), else beside."""
    width, height = grid.page
    b = grid.bleed
    below = grid.y0 - b
    side = width - (grid.x0 + (grid.cols - 1) * grid.pitch_x + CARD_W + b)
    clear = CROP_GAP + CROP_LEN + 1.2 * mm
    if _title_below(grid):
        gap, length = _mark_span(below - MIN_MARGIN - TITLE_ROOM)
        draw_text(c, line, width / 2, below - gap - length - 1.2 * mm - 2.2 * mm, 6.5,
                  bold=True, color=MUTED, align="center", max_width=width - 2 * MIN_MARGIN)
        return
    c.saveState()
    c.translate(width - side + clear + 2.2 * mm, height / 2)
    c.rotate(90)
    draw_text(c, line, 0, 0, 6.5, bold=True, color=MUTED, align="center",
              max_width=height - 2 * MIN_MARGIN)
    c.restoreState()
