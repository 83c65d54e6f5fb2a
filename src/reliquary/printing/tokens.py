"""Tokens to cut out: damage, relics, Harrow marks, Veil and Aegis markers, emblems,
Heroes and Minions for both sides, and the Ruins for the largest board.

Quantities come from the content: damage tokens for two of the toughest Heroes,
Minions for the largest board (plus spares for the rites' new Minions), Ruins for
the board with the most.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from .common import (
    INK,
    MIN_MARGIN,
    MUTED,
    PAPERS,
    SIDE_COLORS,
    SIDE_TINTS,
    Context,
    Painter,
    draw_text,
    mm,
)
from .emblems import draw_harrow, draw_relic, draw_seal, draw_shield, draw_veil

SPARE_MINIONS = 2  # rites place new Minions (D17)
SPARE_DAMAGE = 2
GAP = 2.5 * mm
DAMAGE_RED = colors.HexColor("#9e2a2b")

# Fallen stones on a Ruin token: (x, y, width, height) as fractions of its side.
_STONES = ((-0.3, -0.25, 0.35, 0.18), (0.05, -0.25, 0.3, 0.18), (-0.15, -0.05, 0.35, 0.18),
           (-0.4, 0.15, 0.25, 0.16), (0.15, 0.1, 0.22, 0.14))



@dataclass(frozen=True)
class Group:
    """A row of identical-sized tokens under one heading."""

    title: str
    diameter: float
    painters: list[Painter]
    square: bool = False


def token_groups(ctx: Context) -> list[Group]:
    content = ctx.content
    max_hp = max(f.hero_hp for f in content.factions)
    max_minions = max(row.minions for row in content.board)
    max_ruins = max(row.ruins for row in content.board)
    groups = [
        Group(ctx.label("token_damage"), 8 * mm,
              [_damage] * (2 * max_hp + SPARE_DAMAGE)),
        Group(ctx.label("token_relics"), 16 * mm, [_relic("key"), _relic("skull")]),
        Group(ctx.label("token_emblems"), 30 * mm, [_emblem("key"), _emblem("skull")]),
    ]
    # Markers for the cards whose effects last into the next turn, and for the rite
    # that changes a Minion's side, named as the content names them.
    veil, aegis = _card_with_effect(ctx, "veil"), _card_with_effect(ctx, "aegis")
    if veil and aegis:
        groups.append(Group(ctx.label("token_markers", veil=veil, aegis=aegis), 12 * mm,
                            [_marker(draw_veil, veil)] * 2 + [_marker(draw_shield, aegis)] * 2))
    harrow = next((r.id for r in content.rites if r.effect == "harrow"), None)
    if harrow:
        groups.append(Group(ctx.label("token_harrow", rite=harrow), 10 * mm, [_harrow] * 4))
    for seat in ("key", "skull"):
        pieces = ([_piece(seat, ctx.label("hero_letter"), hero=True)]
                  + [_piece(seat, ctx.label("minion_letter"), hero=False)]
                  * (max_minions + SPARE_MINIONS))
        groups.append(Group(ctx.label("token_pieces", side=ctx.side_name(seat)), 21 * mm,
                            pieces))
    ruin = _ruin(ctx.label("ruin"))
    groups.append(Group(ctx.label("token_ruins"), ctx.options.square_mm * mm,
                        [ruin] * max_ruins, square=True))
    if "conditions" in ctx.options.rules.modules:  # Conditions (MODULES.md §4)
        from .conditions_print import conditions_groups

        groups.extend(Group(title, d, painters, square)
                      for title, d, painters, square in conditions_groups(ctx))
    if "glory" in ctx.options.rules.modules:  # Glory & Support (MODULES.md §5)
        from .glory_print import glory_groups

        groups.extend(Group(title, d, painters, square)
                      for title, d, painters, square in glory_groups(ctx))
    if "keepers" in ctx.options.rules.modules:  # Keepers' Relics (MODULES.md §6)
        from .keepers_print import keepers_groups

        groups.extend(Group(title, d, painters, square)
                      for title, d, painters, square in keepers_groups(ctx))
    return groups


def _card_with_effect(ctx: Context, effect: str) -> str | None:
    for card in ctx.content.cards:
        if card.attack != "faction" and any(
                line is not None and line.effect == effect
                for line in (card.attack.hero, card.attack.minion, card.attack.any)):
            return card.id
    return None


def draw_tokens(ctx: Context, c: Canvas) -> None:
    """Lay the token groups out in rows, as many pages as they need."""
    width, height = PAPERS[ctx.options.paper]
    margin = MIN_MARGIN + 3 * mm
    c.setPageSize((width, height))
    y = _page_top(ctx, c, width, height, margin)
    for group in token_groups(ctx):
        d = group.diameter
        per_row = max(1, int((width - 2 * margin + GAP) // (d + GAP)))
        rows = [group.painters[i:i + per_row] for i in range(0, len(group.painters), per_row)]
        if y - 6 * mm - d < margin:
            c.showPage()
            c.setPageSize((width, height))
            y = _page_top(ctx, c, width, height, margin)
        draw_text(c, group.title, margin, y - 3.5 * mm, 7, bold=True, color=MUTED)
        y -= 5.5 * mm
        for row in rows:
            if y - d < margin:
                c.showPage()
                c.setPageSize((width, height))
                y = _page_top(ctx, c, width, height, margin)
            for i, painter in enumerate(row):
                x = margin + i * (d + GAP)
                painter(c, x + d / 2, y - d / 2, d)
                c.setStrokeColor(INK)
                c.setLineWidth(0.4)
                if group.square:
                    c.rect(x, y - d, d, d, stroke=1, fill=0)
                else:
                    c.circle(x + d / 2, y - d / 2, d / 2, stroke=1, fill=0)
            y -= d + GAP
        y -= 2 * mm
    c.showPage()


def _page_top(ctx: Context, c: Canvas, width: float, height: float, margin: float) -> float:
    draw_text(c, ctx.label("tokens_title"), width / 2, height - margin, 8, bold=True,
              color=MUTED, align="center")
    return height - margin - 3 * mm


def _damage(c: Canvas, cx: float, cy: float, d: float) -> None:
    c.setFillColor(DAMAGE_RED)
    c.circle(cx, cy, d / 2, stroke=0, fill=1)
    draw_text(c, "1", cx, cy - d * 0.17, d / mm * 1.5, bold=True, color=colors.white,
              align="center")


def _relic(seat: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(SIDE_TINTS[seat])
        c.circle(cx, cy, d / 2, stroke=0, fill=1)
        draw_relic(c, cx, cy + d * 0.08, d * 0.62, SIDE_COLORS[seat], hole=SIDE_TINTS[seat])
        draw_seal(c, seat, cx, cy - d * 0.32, d * 0.26, INK, hole=SIDE_TINTS[seat])
    return paint


def _emblem(seat: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(SIDE_COLORS[seat])
        c.circle(cx, cy, d / 2, stroke=0, fill=1)
        draw_seal(c, seat, cx, cy, d * 0.7, colors.white, hole=SIDE_COLORS[seat])
    return paint


def _marker(icon: Callable[[Canvas, float, float, float, colors.Color], None],
            name: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(colors.HexColor("#ece6f2"))
        c.circle(cx, cy, d / 2, stroke=0, fill=1)
        icon(c, cx, cy + d * 0.1, d * 0.55, colors.HexColor("#5b3a73"))
        draw_text(c, name, cx, cy - d * 0.38, 4.5, bold=True, color=INK, align="center")
    return paint


def _harrow(c: Canvas, cx: float, cy: float, d: float) -> None:
    draw_harrow(c, cx, cy, d * 0.8, colors.HexColor("#5b3a73"))


def _piece(seat: str, letter: str, *, hero: bool) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(SIDE_COLORS[seat] if hero else SIDE_TINTS[seat])
        c.circle(cx, cy, d / 2, stroke=0, fill=1)
        fg = colors.white if hero else SIDE_COLORS[seat]
        bg = SIDE_COLORS[seat] if hero else SIDE_TINTS[seat]
        draw_seal(c, seat, cx, cy + d * 0.2, d * 0.36, fg, hole=bg)
        draw_text(c, letter, cx, cy - d * 0.34, d / mm * (1.3 if hero else 1.0), bold=True,
                  color=fg, align="center")
    return paint


def _ruin(word: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(colors.HexColor("#6e6259"))
        c.rect(cx - d / 2, cy - d / 2, d, d, stroke=0, fill=1)
        c.setFillColor(colors.HexColor("#9a8c80"))
        for dx, dy, w, h in _STONES:
            c.rect(cx + dx * d, cy + dy * d, w * d, h * d, stroke=0, fill=1)
        draw_text(c, word.upper(), cx, cy - d * 0.42, 5, bold=True,
                  color=colors.HexColor("#efe8dc"), align="center")
    return paint
