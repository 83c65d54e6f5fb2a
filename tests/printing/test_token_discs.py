"""A token's painted disc or square is filled without an outline of its own: the one
outline of a token is its thin cut line, drawn once around it on the page (docs/print.md:
"Cut along the outlines"), so that a second, darker ring never doubles the cut line.
Issue 31, sample F: an emblem's disc drawn with an outline passed every test."""

from __future__ import annotations

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for

from .conftest import painted_alone


def test_every_token_s_painted_disc_is_filled_and_not_outlined(content: Content) -> None:
    discs = 0
    for group, diameter, page in painted_alone(context_for(PrintOptions(lang="en"), content)):
        for shape in page.curves + page.rects:
            if abs(shape["x1"] - shape["x0"] - diameter) < 0.5:  # token-sized
                assert shape["fill"] and not shape["stroke"], group.title
                discs += 1
    assert discs >= 10  # the relics, emblems, markers, pieces and Ruins have one each
