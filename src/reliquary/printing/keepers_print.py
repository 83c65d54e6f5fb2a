"""Keepers' Relics (MODULES.md §6) to print: the twelve double-sided relic tokens (the
type on the back, the value on the face), the two Wayshrines and a relic points track,
added to the tokens pages when the printed game has the module on."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..engine.modules.keepers import DATA
from .common import INK, SIDE_COLORS, SIDE_TINTS, Context, Painter, draw_text, mm, track_step

#: Each type's colour (the web's too) and the mark drawn on its back.
TYPE_COLORS = {"icon": colors.HexColor("#e9c46a"), "scroll": colors.HexColor("#a8dadc"),
               "chalice": colors.HexColor("#cdb4db")}
LABELS = {
    "en": {"backs": "Relic tokens, backs: the type (Keepers' Relics)",
           "faces": "Relic tokens, faces: the value. Glue each on a back of its type, or "
                    "print this page double-sided",
           "shrines": "Wayshrines (one per side; a type marker shows the type chosen)",
           "markers": "Wayshrine type markers", "track": "Relic points track",
           "wayshrine": "WAYSHRINE"},
    "es": {"backs": "Fichas de reliquia, dorsos: el tipo (Reliquias de los Guardianes)",
           "faces": "Fichas de reliquia, caras: el valor. Pega cada una en un dorso de su "
                    "tipo, o imprime esta página a doble cara",
           "shrines": "Ermitas (una por bando; un marcador de tipo muestra el elegido)",
           "markers": "Marcadores de tipo de la Ermita", "track": "Marcador de puntos de reliquia",
           "wayshrine": "ERMITA"},
}


def _type_name(ctx: Context, kind: int) -> str:
    return DATA.relic_type[kind].name.get(ctx.lang)


def _hexagon(c: Canvas, cx: float, cy: float, r: float, fill: colors.Color) -> None:
    import math

    path = c.beginPath()
    for k in range(6):
        angle = math.pi / 3 * k + math.pi / 6
        x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
        if k == 0:
            path.moveTo(x, y)
        else:
            path.lineTo(x, y)
    path.close()
    c.setFillColor(fill)
    c.setStrokeColor(INK)
    c.setLineWidth(0.6)
    c.drawPath(path, stroke=1, fill=1)


def _back(ctx: Context, kind: int) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        _hexagon(c, cx, cy, d * 0.44, TYPE_COLORS.get(DATA.relic_type[kind].id, colors.grey))
        draw_text(c, _type_name(ctx, kind).upper(), cx, cy - d * 0.05, d / mm * 0.55, bold=True,
                  color=INK, align="center", max_width=d * 0.7)
    return paint


def _face(ctx: Context, kind: int, value: int) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        _hexagon(c, cx, cy, d * 0.44, colors.white)
        draw_text(c, str(value), cx, cy - d * 0.12, d / mm * 1.6, bold=True, color=INK,
                  align="center")
        draw_text(c, _type_name(ctx, kind), cx, cy - d * 0.34, d / mm * 0.45, color=INK,
                  align="center", max_width=d * 0.6)
    return paint


def _shrine(ctx: Context, seat: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(SIDE_TINTS[seat])
        c.circle(cx, cy, d / 2, stroke=0, fill=1)
        c.setFillColor(SIDE_COLORS[seat])
        roof = c.beginPath()
        roof.moveTo(cx - d * 0.3, cy + d * 0.02)
        roof.lineTo(cx, cy + d * 0.3)
        roof.lineTo(cx + d * 0.3, cy + d * 0.02)
        roof.close()
        c.drawPath(roof, stroke=0, fill=1)
        c.rect(cx - d * 0.22, cy - d * 0.22, d * 0.44, d * 0.24, stroke=0, fill=1)
        draw_text(c, LABELS[ctx.lang if ctx.lang in LABELS else "en"]["wayshrine"], cx,
                  cy - d * 0.38, 4.5, bold=True, color=INK, align="center")
    return paint


def _marker(ctx: Context, kind: int) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        _hexagon(c, cx, cy, d * 0.44, TYPE_COLORS.get(DATA.relic_type[kind].id, colors.grey))
        draw_text(c, _type_name(ctx, kind)[:3].upper(), cx, cy - d * 0.1, d / mm * 0.6,
                  bold=True, color=INK, align="center")
    return paint


def keepers_groups(ctx: Context) -> list[tuple[str, float, list[Painter], bool]]:
    """(title, diameter, painters, square) of each row of the module's tokens."""
    words = LABELS["es" if ctx.lang == "es" else "en"]
    tokens = [(k, v) for k, t in enumerate(DATA.relic_type) for v in t.values]
    target = ctx.options.rules.option("keepers.target") if "keepers" in \
        ctx.options.rules.modules else "ruins+1"
    top = max(DATA.most_points if target == -1 else
              max(r.ruins for r in ctx.content.board) + 1 if target == "ruins+1"
              else int(target), 10)
    return [
        (words["backs"], 18 * mm, [_back(ctx, k) for k, _ in tokens], False),
        (words["faces"], 18 * mm, [_face(ctx, k, v) for k, v in tokens], False),
        (words["shrines"], 21 * mm, [_shrine(ctx, "key"), _shrine(ctx, "skull")], False),
        (words["markers"], 10 * mm, [_marker(ctx, k) for k in range(len(DATA.relic_type))] * 2,
         False),
        (words["track"], 10 * mm, [track_step(n) for n in range(min(top, 30) + 1)], True),
    ]
