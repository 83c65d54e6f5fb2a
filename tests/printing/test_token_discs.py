"""A token's painted disc or square is filled without an outline of its own: the one
outline of a token is its thin cut line, drawn once around it on the page (docs/print.md:
"Cut along the outlines"), so that a second, darker ring never doubles the cut line.
Issue 31, sample F: an emblem's disc drawn with an outline passed every test."""

from __future__ import annotations

import io

import pdfplumber
from reportlab.pdfgen.canvas import Canvas

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for
from reliquary.printing.tokens import token_groups


def test_every_token_s_painted_disc_is_filled_and_not_outlined(content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    discs = 0
    for group in token_groups(ctx):
        for painter in dict.fromkeys(group.painters):  # each kind once
            buffer = io.BytesIO()
            canvas = Canvas(buffer, pagesize=(400, 400))
            painter(canvas, 200.0, 200.0, group.diameter)
            canvas.showPage()
            canvas.save()
            with pdfplumber.open(buffer) as pdf:
                page = pdf.pages[0]
                for shape in page.curves + page.rects:
                    if abs(shape["x1"] - shape["x0"] - group.diameter) < 0.5:  # token-sized
                        assert shape["fill"] and not shape["stroke"], group.title
                        discs += 1
    assert discs >= 10  # the relics, emblems, markers, pieces and Ruins have one each
