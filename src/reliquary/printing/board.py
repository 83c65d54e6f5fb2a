"""The board for one side (8–12), at a playable square size, tiled across pages.

The board is drawn once in board coordinates (millimetres from the lower-left
corner of its label band; rank 1, Key's back row, at the bottom) and each page
shows one window of it. Neighbouring windows overlap by :data:`OVERLAP`: cut the
later part along its dashed line and lay it on the earlier one, crosses on crosses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..engine import Geometry
from .common import INK, MUTED, PAPERS, SIDE_COLORS, Context, draw_text, mm
from .emblems import draw_seal

OVERLAP = 10 * mm
BAND = 9 * mm  # the label band around the squares
PAGE_MARGIN = 8 * mm
_CHECKER = {  # (light, dark) square colours by zone
    "key_back": ("#ecd9a6", "#e0c98c"), "key_deploy": ("#f5ecd3", "#ebdfbd"),
    "skull_back": ("#d3d7e3", "#c4c9d8"), "skull_deploy": ("#e9ebf1", "#dcdfe8"),
    "neutral": ("#f6f0e3", "#e8ddc6"),
}


@dataclass(frozen=True)
class TilePlan:
    """How the board splits into pages: page size, tile grid, window size and step."""

    page: tuple[float, float]
    cols: int
    rows: int
    window: tuple[float, float]
    step: tuple[float, float]
    board: float  # the board's side with its label band

    @property
    def pages(self) -> int:
        return self.cols * self.rows


def plan_tiles(size: int, square: float, paper: str) -> TilePlan:
    """The fewest pages (portrait or landscape) that show the whole board with overlap.

    The board is shared out evenly: each page along an axis shows the same share of it
    (the side-8 board on A4 is two halves, never seven columns and one alone), so no
    page shows paper beyond the board.

    >>> plan = plan_tiles(8, 27 * mm, "a4")
    >>> plan.pages, round(plan.window[0] / mm), round(plan.window[1] / mm)
    (2, 122, 234)
    """
    board = size * square + 2 * BAND
    width, height = PAPERS[paper]
    best: TilePlan | None = None
    for page in ((width, height), (height, width)):
        avail = (page[0] - 2 * PAGE_MARGIN, page[1] - 2 * PAGE_MARGIN)
        counts = [1 if board <= a else math.ceil((board - OVERLAP) / (a - OVERLAP))
                  for a in avail]
        # n windows with n - 1 overlaps cover the board exactly.
        window = tuple((board + (n - 1) * OVERLAP) / n for n in counts)
        step = (window[0] - OVERLAP, window[1] - OVERLAP)
        plan = TilePlan(page, counts[0], counts[1], (window[0], window[1]), step, board)
        if best is None or plan.pages < best.pages:
            best = plan
    assert best is not None
    return best


def draw_board(ctx: Context, c: Canvas) -> None:
    """The board's pages: one window of the whole board each."""
    size, square = ctx.options.size, ctx.options.square_mm * mm
    plan = plan_tiles(size, square, ctx.options.paper)
    index = 0
    for row in range(plan.rows):
        for col in range(plan.cols):
            index += 1
            c.setPageSize(plan.page)
            ox = (plan.page[0] - plan.window[0]) / 2
            oy = (plan.page[1] - plan.window[1]) / 2
            # The window's lower-left corner in board coordinates (row 0 is the top).
            wx = col * plan.step[0]
            wy = plan.board - plan.window[1] - row * plan.step[1]
            window = (wx, wy, wx + plan.window[0], wy + plan.window[1])
            c.saveState()
            path = c.beginPath()
            path.rect(ox, oy, *plan.window)
            c.clipPath(path, stroke=0, fill=0)
            c.translate(ox - wx, oy - wy)
            _draw_whole(ctx, c, size, square, window)
            _joins(c, plan, col, row, window)
            c.restoreState()
            c.setStrokeColor(MUTED)
            c.setLineWidth(0.4)
            c.rect(ox, oy, *plan.window, stroke=1, fill=0)  # the window's frame
            title = ctx.label("board_title", size=size)
            if plan.pages > 1:
                title += " · " + ctx.label("board_tile", index=index, count=plan.pages,
                                           row=row + 1, column=col + 1,
                                           overlap=f"{OVERLAP / mm:g}")
            draw_text(c, title, plan.page[0] / 2, plan.page[1] - PAGE_MARGIN + 2.2 * mm, 6.5,
                      bold=True, color=MUTED, align="center",
                      max_width=plan.page[0] - 2 * PAGE_MARGIN)
            c.showPage()


def _zone(y: int, size: int, deploy: int) -> str:
    if y == 0:
        return "key_back"
    if y == size - 1:
        return "skull_back"
    if y < deploy:
        return "key_deploy"
    if y >= size - deploy:
        return "skull_deploy"
    return "neutral"


def _visible(box: tuple[float, float, float, float],
             window: tuple[float, float, float, float]) -> bool:
    return box[0] < window[2] and box[2] > window[0] and box[1] < window[3] and box[3] > window[1]


def _draw_whole(ctx: Context, c: Canvas, size: int, square: float,
                window: tuple[float, float, float, float]) -> None:
    """The whole board in board coordinates; only what the window shows is drawn."""
    geometry = Geometry.of(size)
    deploy = ctx.content.board_row(size).deploy_rows
    side = size * square
    c.setFillColor(colors.white)
    c.rect(0, 0, side + 2 * BAND, side + 2 * BAND, stroke=0, fill=1)
    for y in range(size):
        for x in range(size):
            box = (BAND + x * square, BAND + y * square,
                   BAND + (x + 1) * square, BAND + (y + 1) * square)
            if not _visible(box, window):
                continue
            light, dark = _CHECKER[_zone(y, size, deploy)]
            c.setFillColor(colors.HexColor(dark if (x + y) % 2 == 0 else light))
            c.setStrokeColor(colors.HexColor("#8f8473"))
            c.setLineWidth(0.5)
            c.rect(box[0], box[1], square, square, stroke=1, fill=1)
            draw_text(c, geometry.name(geometry.square(x, y)), box[0] + 1.2 * mm,
                      box[3] - 3 * mm, 5, color=MUTED)
    # Halves: a heavy line through the centre, or around the central row on odd sides.
    c.setStrokeColor(INK)
    c.setLineWidth(1.6)
    middles = [size / 2] if size % 2 == 0 else [size // 2, size // 2 + 1]
    for m in middles:
        c.line(BAND - 2 * mm, BAND + m * square, BAND + side + 2 * mm, BAND + m * square)
    if size % 2:
        c.saveState()
        c.setStrokeColor(colors.HexColor("#b9ad98"))
        c.setLineWidth(0.5)
        y0, y1 = BAND + (size // 2) * square, BAND + (size // 2 + 1) * square
        path = c.beginPath()
        path.rect(BAND, y0, side, square)
        c.clipPath(path, stroke=0, fill=0)
        step = 3 * mm
        for k in range(int((side + square) / step) + 1):
            c.line(BAND + k * step - square, y0, BAND + k * step, y1)
        c.restoreState()
    # Deployment boundaries: a dashed line in each side's colour.
    c.setLineWidth(1.2)
    c.setDash(4, 2)
    for seat, y_line in (("key", deploy), ("skull", size - deploy)):
        c.setStrokeColor(SIDE_COLORS[seat])
        c.line(BAND, BAND + y_line * square, BAND + side, BAND + y_line * square)
    c.setDash()
    _labels(ctx, c, size, square, deploy)


def _labels(ctx: Context, c: Canvas, size: int, square: float, deploy: int) -> None:
    side = size * square
    far = side + 2 * BAND
    for x in range(size):
        cx = BAND + (x + 0.5) * square
        letter = Geometry.of(size).name(x)[0]
        draw_text(c, letter, cx, BAND - 4.2 * mm, 9, bold=True, align="center")
        draw_text(c, letter, cx, far - BAND + 1.6 * mm, 9, bold=True, align="center")
    for y in range(size):
        cy = BAND + (y + 0.5) * square - 1.1 * mm
        draw_text(c, str(y + 1), BAND - 2.2 * mm, cy, 9, bold=True, align="right")
        draw_text(c, str(y + 1), far - BAND + 2.2 * mm, cy, 9, bold=True)
    names = {seat: ctx.side_name(seat) for seat in ("key", "skull")}
    # Back rows in the bottom and top bands; halves on the left; deployment on the right.
    draw_text(c, ctx.label("back_row", side=names["key"]), BAND + side / 2, 1.4 * mm, 6,
              color=SIDE_COLORS["key"], align="center", bold=True)
    draw_text(c, ctx.label("back_row", side=names["skull"]), BAND + side / 2,
              far - 3.4 * mm, 6, color=SIDE_COLORS["skull"], align="center", bold=True)
    half = (size // 2) * square
    _vertical(c, ctx.label("half", side=names["key"]), 2.8 * mm, BAND + half / 2,
              SIDE_COLORS["key"])
    _vertical(c, ctx.label("half", side=names["skull"]), 2.8 * mm, BAND + side - half / 2,
              SIDE_COLORS["skull"])
    if size % 2:
        _vertical(c, ctx.label("centre_row"), 2.8 * mm, BAND + side / 2, MUTED, size=4.2)
    _vertical(c, ctx.label("deploy_rows", side=names["key"]), far - 1.2 * mm,
              BAND + deploy * square / 2, SIDE_COLORS["key"])
    _vertical(c, ctx.label("deploy_rows", side=names["skull"]), far - 1.2 * mm,
              BAND + side - deploy * square / 2, SIDE_COLORS["skull"])
    for seat, corner_y in (("key", BAND / 2), ("skull", far - BAND / 2)):
        for corner_x in (BAND / 2, far - BAND / 2):
            draw_seal(c, seat, corner_x, corner_y, 6 * mm, SIDE_COLORS[seat],
                      hole=colors.white)


def _vertical(c: Canvas, text: str, x: float, y: float, color: colors.Color,
              size: float = 5.5) -> None:
    c.saveState()
    c.translate(x, y)
    c.rotate(90)
    draw_text(c, text, 0, 0, size, bold=True, color=color, align="center")
    c.restoreState()


def _joins(c: Canvas, plan: TilePlan, col: int, row: int,
           window: tuple[float, float, float, float]) -> None:
    """Cut lines, glue strips and alignment crosses where this window meets its neighbours."""
    half = OVERLAP / 2
    wx0, wy0, wx1, wy1 = window
    c.saveState()
    c.setLineWidth(0.5)
    # Vertical seams: with the right neighbour at x = wx1 - half, the left one at wx0 + half.
    seams_x = ([wx1 - half] if col < plan.cols - 1 else []) + ([wx0 + half] if col else [])
    seams_y = ([wy0 + half] if row < plan.rows - 1 else []) + ([wy1 - half] if row else [])
    c.setFillColor(colors.HexColor("#808080"))
    c.setFillAlpha(0.22)
    if col < plan.cols - 1:  # glue strip under the right neighbour
        c.rect(wx1 - half, wy0, half, wy1 - wy0, stroke=0, fill=1)
    if row < plan.rows - 1:  # glue strip under the neighbour below
        c.rect(wx0, wy0, wx1 - wx0, half, stroke=0, fill=1)
    c.setFillAlpha(1)
    c.setStrokeColor(INK)
    c.setDash(3, 2)
    if col:
        c.line(wx0 + half, wy0, wx0 + half, wy1)
    if row:
        c.line(wx0, wy1 - half, wx1, wy1 - half)
    c.setDash()
    arm = 2.5 * mm
    for x in seams_x:
        y = wy0 + 15 * mm
        while y < wy1 - 10 * mm:
            c.line(x - arm, y, x + arm, y)
            c.line(x, y - arm, x, y + arm)
            y += 40 * mm
    for y in seams_y:
        x = wx0 + 15 * mm
        while x < wx1 - 10 * mm:
            c.line(x - arm, y, x + arm, y)
            c.line(x, y - arm, x, y + arm)
            x += 40 * mm
    c.restoreState()
