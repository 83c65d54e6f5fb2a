"""What every part of the print set shares: the print options, paper, colours and text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm as _reportlab_mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from ..content import HelpCards
from ..engine import Content
from .fonts import BOLD, REGULAR

mm: float = float(_reportlab_mm)  # points per millimetre, typed
PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
LANGS = ("es", "en")
CARD_W = 63.5 * mm
CARD_H = 88.9 * mm
MIN_MARGIN = 5 * mm  # nothing meant to be printed comes closer to the paper's edge
SQUARE_RANGE_MM = (25.0, 30.0)

INK = colors.HexColor("#1f1a17")
MUTED = colors.HexColor("#6b625a")
PAPER = colors.HexColor("#f7f2e6")
KEY_COLOR = colors.HexColor("#b8862b")
SKULL_COLOR = colors.HexColor("#4a4f63")
SIDE_COLORS = {"key": KEY_COLOR, "skull": SKULL_COLOR}
KEY_TINT = colors.HexColor("#efe0b8")
SKULL_TINT = colors.HexColor("#d5d8e3")
SIDE_TINTS = {"key": KEY_TINT, "skull": SKULL_TINT}
# Card frame colours by kind: generic and unique movement, factions, table cards.
FRAMES = {
    "generic": colors.HexColor("#34495e"),
    "unique": colors.HexColor("#7a2632"),
    "faction": colors.HexColor("#2f5a3f"),
    "rite": colors.HexColor("#5b3a73"),
    "help": colors.HexColor("#7a6124"),
}


@dataclass(frozen=True)
class PrintOptions:
    """What to print and how: the command line's options, validated by :func:`check`."""

    sheets: tuple[str, ...] = ("cards", "factions", "table", "board", "tokens", "rules")
    paper: str = "a4"
    lang: str = "es"
    size: int = 8
    bleed_mm: float = 0.0
    square_mm: float = 27.0
    booklet: bool = False


@dataclass
class Context:
    """The options plus the content they print, handed to every drawing function."""

    options: PrintOptions
    content: Content
    help: HelpCards
    content_dir: str | Path | None = None
    page_count: int = 0  # set by render_pdf
    styles: dict[tuple[str, float, str], ParagraphStyle] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.options.lang

    @property
    def bleed(self) -> float:
        return self.options.bleed_mm * mm

    def label(self, key: str, **fields: object) -> str:
        return self.help.label(key, self.lang, **fields)

    def text(self, text: object) -> str:
        """A content text (engine ``Text`` or help ``TableText``) in the chosen language."""
        en, es = getattr(text, "en", ""), getattr(text, "es", "")
        return (es or en) if self.lang == "es" else en

    def side_name(self, side: str) -> str:
        return self.label(side).capitalize()

    def style(self, size: float, align: str = "left", color: str = "ink") -> ParagraphStyle:
        key = (align, size, color)
        if key not in self.styles:
            self.styles[key] = ParagraphStyle(
                f"s{len(self.styles)}", fontName=REGULAR, fontSize=size,
                leading=size * 1.22, alignment=TA_CENTER if align == "center" else TA_LEFT,
                textColor=INK if color == "ink" else MUTED, spaceAfter=0,
            )
        return self.styles[key]


def markup(text: str, bold_words: tuple[str, ...] = ()) -> str:
    """Paragraph markup for a plain text: XML-escaped, ``**x**`` and ``bold_words`` in bold."""
    out = escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    for word in bold_words:
        if word:
            out = out.replace(escape(word), f"<b>{escape(word)}</b>")
    return out


def fit_paragraphs(ctx: Context, c: Canvas, parts: list[str], x: float, top: float,
                   width: float, height: float, *, max_size: float = 7.5,
                   min_size: float = 4.5, align: str = "left", gap: float = 0.35) -> float:
    """Draw paragraphs from ``top`` down, at the largest size that fits the box.

    ``gap`` is the space between paragraphs, in lines. Returns the height used. The
    text is never cut: at the smallest size it may overflow, which the tests catch.
    """
    size = max_size
    while True:
        style = ctx.style(size, align)
        paras = [Paragraph(p, style) for p in parts]
        heights = [p.wrap(width, height)[1] for p in paras]
        total = sum(heights) + gap * size * (len(paras) - 1)
        if total <= height or size <= min_size:
            break
        size = max(min_size, size - 0.25)
    y = top
    for para, h in zip(paras, heights, strict=True):
        para.drawOn(c, x, y - h)
        y -= h + gap * size
    return float(total)


def paragraphs_height(ctx: Context, parts: list[str], width: float, size: float,
                      gap: float = 0.35) -> float:
    """The height ``parts`` take at ``size`` in a column ``width`` wide."""
    style = ctx.style(size)
    heights = [Paragraph(p, style).wrap(width, 1e6)[1] for p in parts]
    return float(sum(heights) + gap * size * (len(parts) - 1))


def draw_text(c: Canvas, text: str, x: float, y: float, size: float, *, bold: bool = False,
              color: colors.Color = INK, align: str = "left", max_width: float | None = None
              ) -> None:
    """One line of text, shrunk to ``max_width`` if it would be wider."""
    font = BOLD if bold else REGULAR
    if max_width is not None:
        width = c.stringWidth(text, font, size)
        if width > max_width:
            size *= max_width / width
    c.setFont(font, size)
    c.setFillColor(color)
    if align == "center":
        c.drawCentredString(x, y, text)
    elif align == "right":
        c.drawRightString(x, y, text)
    else:
        c.drawString(x, y, text)


ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
