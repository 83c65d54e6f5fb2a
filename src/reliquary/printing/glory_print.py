"""Glory & Support (MODULES.md §5) to print, drawn from ``glory.toml``: the twelve
objective cards and the five upgrade cards at the 63.5 × 88.9 mm card size (on the
table sheet), and on the tokens pages the objective markers (the Shrine among them)
and a Glory track, when the printed game has the module on."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..content import HelpCard, HelpLine, TableText
from ..engine.modules.glory import DATA
from .common import INK, Context, Painter, draw_text, mm, track_step

LABELS = {
    "en": {"objective": "Objective", "end_phase": "End phase", "surge": "Surge",
           "upgrade": "Upgrade", "cost": "Cost", "glory": "Glory",
           "markers": "Objective markers (the starred one is the Shrine, with glory.shrine)",
           "track": "Glory track (spent Glory still counts)", "shrine": "SHRINE",
           "surge_rule": "Scored at the end of your own turn, about that turn; draw a "
                         "replacement, which cannot score at once.",
           "end_rule": "Scored at step 1 of an End phase, after each phase of rounds.",
           "upgrade_rule": "Buy at step 3 of an End phase with unspent Glory; one per "
                           "piece, each once per player; lost with the piece."},
    "es": {"objective": "Objetivo", "end_phase": "Fase final", "surge": "Oleada",
           "upgrade": "Mejora", "cost": "Coste", "glory": "Gloria",
           "markers": "Marcadores de objetivo (el de la estrella es el Santuario, con "
                      "glory.shrine)",
           "track": "Marcador de Gloria (la Gloria gastada sigue contando)",
           "shrine": "SANTUARIO",
           "surge_rule": "Se puntúa al final de tu propio turno, sobre ese turno; roba otra, "
                         "que no puede puntuar en ese momento.",
           "end_rule": "Se puntúa en el paso 1 de una fase final, tras cada fase de rondas.",
           "upgrade_rule": "Cómprala en el paso 3 de una fase final con Gloria sin gastar; una "
                           "por pieza, cada una una vez por jugador; se pierde con la pieza."},
}
EN, ES = LABELS["en"], LABELS["es"]


def _esc(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")  # help lines are templates


def _line(en: str, es: str) -> HelpLine:
    return HelpLine(en=_esc(en), es=_esc(es))


def glory_cards(ctx: Context) -> list[HelpCard]:
    """One card per objective and per upgrade, in the data's order."""
    if "glory" not in ctx.options.rules.modules:
        return []
    cards: list[HelpCard] = []
    for o in DATA.objective:
        timing_en, timing_es = EN[o.timing], ES[o.timing]
        rule_en = EN["surge_rule" if o.timing == "surge" else "end_rule"]
        rule_es = ES["surge_rule" if o.timing == "surge" else "end_rule"]
        cards.append(HelpCard(
            id=f"glory-objective-{o.id.lower()}", title=TableText(en=o.name.en, es=o.name.es),
            mode=TableText(en=f"{EN['objective']} · {timing_en} · {o.glory} {EN['glory']}",
                           es=f"{ES['objective']} · {timing_es} · {o.glory} {ES['glory']}"),
            lines=(_line(f"**{o.en}**", f"**{o.es}**"), _line(rule_en, rule_es))))
    for u in DATA.upgrade:
        cards.append(HelpCard(
            id=f"glory-upgrade-{u.id.lower()}", title=TableText(en=u.name.en, es=u.name.es),
            mode=TableText(en=f"{EN['upgrade']} · {EN['cost']} {u.cost} {EN['glory']}",
                           es=f"{ES['upgrade']} · {ES['cost']} {u.cost} {ES['glory']}"),
            lines=(_line(f"**{u.en}**", f"**{u.es}**"),
                   _line(EN["upgrade_rule"], ES["upgrade_rule"]))))
    return cards


def _marker(shrine: bool, word: str) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(colors.HexColor("#ffd166" if shrine else "#f4e3b2"))
        c.setStrokeColor(colors.HexColor("#6b4f12"))
        c.setLineWidth(1)
        c.circle(cx, cy, d * 0.46, stroke=1, fill=1)
        c.setFillColor(colors.HexColor("#6b4f12"))
        if shrine:
            draw_text(c, "★", cx, cy - d * 0.12, d / mm * 1.1, color=INK, align="center")
            draw_text(c, word, cx, cy - d * 0.36, 4, bold=True, color=INK, align="center")
        else:
            c.circle(cx, cy, d * 0.14, stroke=0, fill=1)
    return paint


def glory_groups(ctx: Context) -> list[tuple[str, float, list[Painter], bool]]:
    """(title, diameter, painters, square) of each row of the module's tokens: the most
    markers any board takes, a Shrine, and a Glory track from 0 to 20."""
    words = LABELS["es" if ctx.lang == "es" else "en"]
    most = max(row.markers for row in DATA.table)
    return [
        (words["markers"], 16 * mm,
         [_marker(False, "")] * most + [_marker(True, words["shrine"])], False),
        (words["track"], 10 * mm, [track_step(n) for n in range(21)], True),
    ]
