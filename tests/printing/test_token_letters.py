"""Every letter printed on a token lies within the token's own shape: inside the circle
of a round token (not only its bounding square: a corner of a wide word near a disc's
rim falls outside the cut line) and inside a Ruin's square, in both languages. Issue 31,
sample I: a Veil or Aegis marker's name at twice its size (its corners past the disc's
rim) passed every test."""

from __future__ import annotations

import math

import pytest

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for

from .conftest import painted_alone

CENTRE = 200.0  # painted_alone paints each token centred here


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_letter_of_a_token_lies_within_its_shape(content: Content, lang: str) -> None:
    lettered = 0
    for group, diameter, page in painted_alone(context_for(PrintOptions(lang=lang), content)):
        r = diameter / 2
        for ch in page.chars:
            corners = [(x - CENTRE, y - CENTRE) for x in (ch["x0"], ch["x1"])
                       for y in (ch["top"], ch["bottom"])]
            for dx, dy in corners:
                if group.square:
                    assert max(abs(dx), abs(dy)) <= r, (group.title, ch["text"])
                else:
                    assert math.hypot(dx, dy) <= r, (group.title, ch["text"], dx, dy)
        lettered += bool(page.chars)
    assert lettered >= 6  # damage, both markers, Heroes and Minions, Ruins
