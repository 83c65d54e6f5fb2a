"""Every token's drawing scales with the token: painted at its group's size and at half
as large again, each shape sits at the same place relative to the token's size (the
Ruin tokens take the board's square size, `--square`, from 25 to 30 mm: a larger
square gets the same picture, larger); and a Ruin's stones lie apart over its square.
Issue 31, sample H: a Ruin's stones placed at `dy / d` instead of `dy * d` of the token
(all at its middle, the same at every size) passed every test, as stone faults of
samples D, F and G did."""

from __future__ import annotations

import io
from typing import Any

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for
from reliquary.printing.tokens import token_groups

CENTRE = 400.0


def drawn(painter: Any, d: float) -> tuple[list[tuple[float, ...]], int]:
    """The painter's shapes as (x0, x1, top, bottom) over the token's size from its
    centre, sorted, and how many letters it wrote."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(2 * CENTRE, 2 * CENTRE))
    painter(canvas, CENTRE, CENTRE, d)
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(buffer) as pdf:
        page = pdf.pages[0]
        boxes = [tuple((s[k] - CENTRE) / d for k in ("x0", "x1", "top", "bottom"))
                 for s in page.rects + page.curves + page.lines]
        return sorted(boxes), len(page.chars)


@pytest.mark.parametrize("square_mm", [25.0, 27.0, 30.0])
def test_every_token_s_drawing_scales_with_the_token(content: Content,
                                                     square_mm: float) -> None:
    ctx = context_for(PrintOptions(lang="en", square_mm=square_mm), content)
    kinds = 0
    for group in token_groups(ctx):
        for painter in dict.fromkeys(group.painters):  # each kind once
            small, letters = drawn(painter, group.diameter)
            large, letters_large = drawn(painter, group.diameter * 1.5)
            assert letters == letters_large, group.title
            assert len(small) == len(large), group.title
            for a, b in zip(small, large, strict=True):
                assert a == pytest.approx(b, abs=0.01), group.title
            # everything of the token is drawn within it
            assert all(abs(v) <= 0.5 + 0.01 for box in small for v in box), group.title
            kinds += 1
    assert kinds >= 12


def test_a_ruin_s_stones_lie_apart_over_the_token(content: Content) -> None:
    """The stones are fallen over the square, not piled at its middle: they reach into
    both halves of it, across and up and down."""
    ctx = context_for(PrintOptions(lang="en"), content)
    [ruins] = [g for g in token_groups(ctx) if g.square]
    boxes, _ = drawn(ruins.painters[0], ruins.diameter)
    stones = [b for b in boxes if b[1] - b[0] < 0.9]  # all but the square itself
    assert len(stones) >= 4
    centres = [((x0 + x1) / 2, (top + bottom) / 2) for x0, x1, top, bottom in stones]
    assert min(x for x, _ in centres) < -0.1 and max(x for x, _ in centres) > 0.1
    assert min(y for _, y in centres) < -0.1 and max(y for _, y in centres) > 0.1


def test_a_ruin_s_stones_are_blocks_a_tenth_of_the_square_or_more(content: Content) -> None:
    """Each stone is a block a player sees, at least a tenth of the square across and
    high, not a sliver (sample K: a stone's height `h / d` instead of `h * d`)."""
    ctx = context_for(PrintOptions(lang="en"), content)
    [ruins] = [g for g in token_groups(ctx) if g.square]
    boxes, _ = drawn(ruins.painters[0], ruins.diameter)
    stones = [b for b in boxes if b[1] - b[0] < 0.9]  # all but the square itself
    assert len(stones) >= 4
    for x0, x1, top, bottom in stones:
        assert x1 - x0 >= 0.1 and bottom - top >= 0.1
