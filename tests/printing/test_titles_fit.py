"""The print set's title lines as drawn: a card sheet's title is shrunk to fit between
the 5 mm margins however long it is (below the cards, and up the side), and the token
pages' title is in the bold face at 8 pt, centred 8 mm below the paper's top edge.
Issue 31, sample L: the sheet title drawn below the cards without its width limit (a
long title past the margins) and the tokens title in the regular face both passed every
test, whose titles were short."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas

from reliquary.content import default_content
from reliquary.printing import PrintOptions, context_for
from reliquary.printing.common import BOLD, MIN_MARGIN, PAPERS, mm
from reliquary.printing.sheets import _sheet_title, _title_below, card_grid
from reliquary.printing.tokens import draw_tokens


class Lines(Canvas):
    """A canvas recording each centred line: (text, x, y, font, size, its width)."""

    def __init__(self, size: tuple[float, float]) -> None:
        super().__init__(io.BytesIO(), pagesize=size)
        self.lines: list[tuple[str, float, float, str, float, float]] = []

    def drawCentredString(self, x: float, y: float, text: str, *args: Any,
                          **kwargs: Any) -> Any:
        font, size = self._fontname, self._fontsize
        self.lines.append((text, x, y, font, size, self.stringWidth(text, font, size)))
        return super().drawCentredString(x, y, text, *args, **kwargs)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a_long_sheet_title_fits_between_the_margins(paper: str, bleed: float) -> None:
    context_for(PrintOptions(paper=paper), default_content())  # registers the fonts
    grid = card_grid(paper, bleed * mm)
    width, height = grid.page
    canvas = Lines(grid.page)
    long = "Reliquary — " + "a very long sheet title " * 12
    short = "Cards 1-9"
    _sheet_title(canvas, grid, long)
    _sheet_title(canvas, grid, short)
    (text, x, _, font, size, drawn), (_, _, _, _, short_size, _) = canvas.lines
    room = (width if _title_below(grid) else height) - 2 * MIN_MARGIN
    assert text == long and font == BOLD
    assert drawn == pytest.approx(room, rel=1e-6)  # shrunk to the room exactly
    assert size < 6.5 and short_size == 6.5  # a short one keeps its 6.5 pt
    if _title_below(grid):
        assert x == pytest.approx(width / 2)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_tokens_title_is_bold_8pt_at_the_top(paper: str) -> None:
    ctx = context_for(PrintOptions(lang="en", paper=paper), default_content())
    width, height = PAPERS[paper]
    canvas = Lines((width, height))
    draw_tokens(ctx, canvas)
    title = ctx.label("tokens_title")
    mine = [line for line in canvas.lines if line[0] == title]
    assert mine
    for _, x, y, font, size, _ in mine:
        assert (font, size) == (BOLD, 8)
        assert x == pytest.approx(width / 2)
        assert y == pytest.approx(height - MIN_MARGIN - 3 * mm)
