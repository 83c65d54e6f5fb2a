"""The token sheet's contract, value by value (issue 31, by class: sample K missed four
printing faults, and the token module's numbers were read only in part). Pins the
module's constants, every group's size, count and shape as docs/printing.md and the
module's docstring give them (damage for two of the toughest Heroes plus 2 spares,
Minions for the largest board plus 2 for the rites, Ruins for the board with the most),
and the layout of ``draw_tokens``: each token's cutting outline at its place in rows
from the top left, 8 mm from the paper's edge (the 5 mm printable margin and 3 mm),
2.5 mm apart, under a 5.5 mm heading, 2 mm between groups, on A4 and on Letter."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from reliquary.content import default_content
from reliquary.printing import PrintOptions, context_for, tokens
from reliquary.printing.tokens import draw_tokens, token_groups

MM = 72 / 25.4


class Recording(Canvas):
    """A canvas that records every cutting outline (stroked, not filled) it draws."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())
        self.outlines: list[tuple[Any, ...]] = []

    def circle(self, x_cen: float, y_cen: float, r: float, stroke: int = 1,
               fill: int = 0) -> Any:
        if stroke and not fill:
            self.outlines.append(("circle", self._pageNumber, round(x_cen, 2),
                                  round(y_cen, 2), round(r, 2)))
        return super().circle(x_cen, y_cen, r, stroke=stroke, fill=fill)

    def rect(self, x: float, y: float, width: float, height: float, stroke: int = 1,
             fill: int = 0) -> Any:
        if stroke and not fill:
            self.outlines.append(("square", self._pageNumber, round(x + width / 2, 2),
                                  round(y + height / 2, 2), round(width / 2, 2)))
        return super().rect(x, y, width, height, stroke=stroke, fill=fill)


def test_constants() -> None:
    assert tokens.SPARE_MINIONS == 2
    assert tokens.SPARE_DAMAGE == 2
    assert pytest.approx(2.5 * MM) == tokens.GAP
    assert tokens.DAMAGE_RED.hexval() == colors.HexColor("#9e2a2b").hexval()
    assert tokens._STONES == ((-0.3, -0.25, 0.35, 0.18), (0.05, -0.25, 0.3, 0.18),
                              (-0.15, -0.05, 0.35, 0.18), (-0.4, 0.15, 0.25, 0.16),
                              (0.15, 0.1, 0.22, 0.14))


@pytest.mark.parametrize("square_mm", [25.0, 27.0, 30.0])
def test_each_group_s_size_count_and_shape(square_mm: float) -> None:
    content = default_content()
    ctx = context_for(PrintOptions(lang="en", square_mm=square_mm), content)
    max_hp = max(f.hero_hp for f in content.factions)
    max_minions = max(row.minions for row in content.board)
    max_ruins = max(row.ruins for row in content.board)
    assert (max_hp, max_minions, max_ruins) == (5, 5, 8)  # the content the sizes below read
    groups = [(g.title, round(g.diameter / MM, 3), len(g.painters), g.square)
              for g in token_groups(ctx)]
    assert groups == [
        ("Damage tokens", 8.0, 2 * 5 + 2, False),
        ("Relics", 16.0, 2, False),
        ("Emblems", 30.0, 2, False),
        ("Veil and Aegis markers", 12.0, 4, False),
        ("Harrow marks", 10.0, 4, False),
        ("Key: Hero and Minions (spares for rites)", 21.0, 1 + 5 + 2, False),
        ("Skull: Hero and Minions (spares for rites)", 21.0, 1 + 5 + 2, False),
        ("Ruins for the largest board", square_mm, 8, True),
    ]
    by_title = {g.title: g for g in token_groups(ctx)}
    damage = by_title["Damage tokens"].painters
    assert len(set(damage)) == 1  # all alike
    markers = by_title["Veil and Aegis markers"].painters
    assert markers[0] is markers[1] and markers[2] is markers[3] and markers[0] is not markers[2]
    for side in ("Key", "Skull"):
        pieces = by_title[f"{side}: Hero and Minions (spares for rites)"].painters
        assert len(set(pieces[1:])) == 1 and pieces[0] is not pieces[1]  # one Hero first


def _expected(paper: tuple[float, float], groups: list[Any]) -> list[tuple[Any, ...]]:
    """The documented layout, from its numbers alone."""
    width, height = paper
    margin, gap = 8 * MM, 2.5 * MM
    page = 1
    y = height - margin - 3 * MM
    out: list[tuple[Any, ...]] = []
    for group in groups:
        d = group.diameter
        per_row = max(1, int((width - 2 * margin + gap) // (d + gap)))
        if y - 6 * MM - d < margin:
            page, y = page + 1, height - margin - 3 * MM
        y -= 5.5 * MM
        for start in range(0, len(group.painters), per_row):
            if y - d < margin:
                page, y = page + 1, height - margin - 3 * MM
            for i in range(min(per_row, len(group.painters) - start)):
                out.append(("square" if group.square else "circle", page,
                            round(margin + i * (d + gap) + d / 2, 2), round(y - d / 2, 2),
                            round(d / 2, 2)))
            y -= d + gap
        y -= 2 * MM
    return out


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_every_token_s_outline_at_its_place(paper: str, size: tuple[float, float]) -> None:
    ctx = context_for(PrintOptions(lang="en", paper=paper), default_content())
    groups = token_groups(ctx)
    canvas = Recording()
    draw_tokens(ctx, canvas)
    radii = {round(g.diameter / 2, 2) for g in groups}
    outlines = [o for o in canvas.outlines if o[4] in radii]
    expected = _expected(size, groups)
    assert len(expected) == 12 + 2 + 2 + 4 + 4 + 8 + 8 + 8
    # (a painter's own stroked circles of another group's size would show up here too)
    assert outlines == expected
    # the damage row: 18 tokens of 8 mm fit across A4 or Letter, so one row of 12
    first = expected[0]
    assert first[2] == round(8 * MM + 4 * MM, 2)
    assert first[3] == round(size[1] - 8 * MM - 3 * MM - 5.5 * MM - 4 * MM, 2)
    assert canvas._pageNumber == 2  # one page, shown


def test_small_paper_breaks_pages_and_rows() -> None:
    """On a narrow, short page a row holds fewer tokens and the groups go on over
    several pages, each token still in its row from the top."""
    ctx = context_for(PrintOptions(lang="en"), default_content())
    small = (100 * MM, 120 * MM)
    tokens.PAPERS["tiny"] = small  # type: ignore[index]
    try:
        object.__setattr__(ctx.options, "paper", "tiny")
        canvas = Recording()
        draw_tokens(ctx, canvas)
    finally:
        del tokens.PAPERS["tiny"]  # type: ignore[arg-type]
    groups = token_groups(ctx)
    radii = {round(g.diameter / 2, 2) for g in groups}
    outlines = [o for o in canvas.outlines if o[4] in radii]
    assert outlines == _expected(small, groups)
    assert canvas._pageNumber - 1 == outlines[-1][1] > 3
    # 84 mm across: eight 8 mm damage tokens a row, two 30 mm emblems, three 21 mm pieces
    damage_rows = {o[3] for o in outlines[:12]}
    assert len(damage_rows) == 2
