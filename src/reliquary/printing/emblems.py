"""Vector emblems: the Key and Skull seals, the relic, the Escort mark, markers.

Each function draws centred on (cx, cy) inside a box of side ``size`` (points).
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from .common import PAPER


def draw_key(c: Canvas, cx: float, cy: float, size: float, color: colors.Color,
             hole: colors.Color = PAPER) -> None:
    """A key lying left to right: ring bow, shaft and two teeth."""
    s = size / 10
    c.saveState()
    c.setFillColor(color)
    c.setStrokeColor(color)
    c.circle(cx - 2.6 * s, cy, 2.2 * s, stroke=0, fill=1)
    c.rect(cx - 1.0 * s, cy - 0.55 * s, 5.8 * s, 1.1 * s, stroke=0, fill=1)
    c.rect(cx + 3.4 * s, cy - 2.3 * s, 0.9 * s, 1.9 * s, stroke=0, fill=1)
    c.rect(cx + 1.9 * s, cy - 1.8 * s, 0.9 * s, 1.4 * s, stroke=0, fill=1)
    c.setFillColor(hole)
    c.circle(cx - 2.6 * s, cy, 1.0 * s, stroke=0, fill=1)
    c.restoreState()


def draw_skull(c: Canvas, cx: float, cy: float, size: float, color: colors.Color,
               hole: colors.Color = PAPER) -> None:
    """A skull from the front: cranium, jaw, eye sockets and nose."""
    s = size / 10
    c.saveState()
    c.setFillColor(color)
    c.circle(cx, cy + 0.8 * s, 3.6 * s, stroke=0, fill=1)
    c.roundRect(cx - 2.3 * s, cy - 3.9 * s, 4.6 * s, 3.4 * s, 0.8 * s, stroke=0, fill=1)
    c.setFillColor(hole)
    c.circle(cx - 1.45 * s, cy + 0.4 * s, 1.05 * s, stroke=0, fill=1)
    c.circle(cx + 1.45 * s, cy + 0.4 * s, 1.05 * s, stroke=0, fill=1)
    path = c.beginPath()
    path.moveTo(cx, cy - 0.6 * s)
    path.lineTo(cx - 0.55 * s, cy - 1.6 * s)
    path.lineTo(cx + 0.55 * s, cy - 1.6 * s)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    for dx in (-1.2, 0.0, 1.2):
        c.rect(cx + (dx - 0.2) * s, cy - 3.9 * s, 0.4 * s, 1.3 * s, stroke=0, fill=1)
    c.restoreState()


def draw_seal(c: Canvas, seal: str, cx: float, cy: float, size: float,
              color: colors.Color, hole: colors.Color = PAPER) -> None:
    """The emblem of a seal or side: ``"key"`` or ``"skull"``."""
    (draw_key if seal == "key" else draw_skull)(c, cx, cy, size, color, hole)


def draw_relic(c: Canvas, cx: float, cy: float, size: float, color: colors.Color,
               hole: colors.Color = PAPER) -> None:
    """A reliquary: a small shrine with a pitched roof and a round window."""
    s = size / 10
    c.saveState()
    c.setFillColor(color)
    c.rect(cx - 3 * s, cy - 3.8 * s, 6 * s, 5 * s, stroke=0, fill=1)
    path = c.beginPath()
    path.moveTo(cx - 3.8 * s, cy + 1.2 * s)
    path.lineTo(cx, cy + 4.2 * s)
    path.lineTo(cx + 3.8 * s, cy + 1.2 * s)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.setFillColor(hole)
    c.circle(cx, cy - 0.9 * s, 1.4 * s, stroke=0, fill=1)
    c.restoreState()


def draw_escort(c: Canvas, cx: float, cy: float, size: float, color: colors.Color) -> None:
    """The Escort mark: a piece, and a second piece taking one step beside it."""
    s = size / 10
    c.saveState()
    c.setFillColor(color)
    c.setStrokeColor(color)
    c.circle(cx - 2.6 * s, cy, 2.2 * s, stroke=0, fill=1)
    c.setLineWidth(0.9 * s)
    c.circle(cx + 2.9 * s, cy, 1.7 * s, stroke=1, fill=0)
    path = c.beginPath()
    path.moveTo(cx - 0.1 * s, cy + 2.6 * s)
    path.curveTo(cx + 0.8 * s, cy + 3.8 * s, cx + 2.2 * s, cy + 3.8 * s, cx + 2.9 * s, cy + 2.4 * s)
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def draw_shield(c: Canvas, cx: float, cy: float, size: float, color: colors.Color) -> None:
    """The Aegis marker's shield."""
    s = size / 10
    path = c.beginPath()
    path.moveTo(cx - 3.5 * s, cy + 3.5 * s)
    path.lineTo(cx + 3.5 * s, cy + 3.5 * s)
    path.curveTo(cx + 3.5 * s, cy - 1 * s, cx + 2 * s, cy - 3 * s, cx, cy - 4.2 * s)
    path.curveTo(cx - 2 * s, cy - 3 * s, cx - 3.5 * s, cy - 1 * s, cx - 3.5 * s, cy + 3.5 * s)
    path.close()
    c.saveState()
    c.setFillColor(color)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


def draw_veil(c: Canvas, cx: float, cy: float, size: float, color: colors.Color) -> None:
    """The Veil marker: an eye crossed out."""
    s = size / 10
    c.saveState()
    c.setStrokeColor(color)
    c.setFillColor(color)
    c.setLineWidth(0.8 * s)
    path = c.beginPath()
    path.moveTo(cx - 4 * s, cy)
    path.curveTo(cx - 2 * s, cy + 3 * s, cx + 2 * s, cy + 3 * s, cx + 4 * s, cy)
    path.curveTo(cx + 2 * s, cy - 3 * s, cx - 2 * s, cy - 3 * s, cx - 4 * s, cy)
    c.drawPath(path, stroke=1, fill=0)
    c.circle(cx, cy, 1.2 * s, stroke=0, fill=1)
    c.line(cx - 3.5 * s, cy - 3.5 * s, cx + 3.5 * s, cy + 3.5 * s)
    c.restoreState()


def draw_harrow(c: Canvas, cx: float, cy: float, size: float, color: colors.Color) -> None:
    """The Harrow mark: a ring with a cross, for a Minion fighting under a new emblem."""
    s = size / 10
    c.saveState()
    c.setStrokeColor(color)
    c.setLineWidth(0.9 * s)
    c.circle(cx, cy, 3.6 * s, stroke=1, fill=0)
    c.line(cx - 2.3 * s, cy - 2.3 * s, cx + 2.3 * s, cy + 2.3 * s)
    c.line(cx - 2.3 * s, cy + 2.3 * s, cx + 2.3 * s, cy - 2.3 * s)
    c.restoreState()
