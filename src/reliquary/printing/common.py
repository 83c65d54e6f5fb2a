"""What every part of the print set shares: the print options, paper, colours and text."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm as _reportlab_mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from ..cardtext import WordingFile, load_wording
from ..content import HelpCards
from ..engine import Content, Settings
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
    settings: Settings | None = None  # the game's rule settings; None: the defaults

    @property
    def rules(self) -> Settings:
        """The rule settings the help cards describe (with the board's side)."""
        if self.settings is None:
            return Settings(size=self.size)
        return self.settings


@dataclass
class Context:
    """The options plus the content they print, handed to every drawing function."""

    options: PrintOptions
    content: Content
    help: HelpCards
    content_dir: str | Path | None = None
    page_count: int = 0  # set by render_pdf
    warnings: list[str] = field(default_factory=list)  # texts that could not be fitted
    styles: dict[tuple[str, float, str], ParagraphStyle] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.options.lang

    @property
    def bleed(self) -> float:
        return self.options.bleed_mm * mm

    @cached_property
    def wording(self) -> WordingFile:
        """The templates of the card texts (the content folder's, else the package's)."""
        return load_wording(self.content_dir)

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


#: The smallest body size fitted text may take (points): below it, a warning instead.
MIN_READABLE = 5.0
#: A block of a card's text: a paragraph's markup, or a roll table's (faces, outcome) rows.
Block = str | tuple[tuple[str, str], ...]


def _flowable(ctx: Context, block: Block, size: float, align: str, width: float) -> Flowable:
    style = ctx.style(size, align)
    if isinstance(block, str):
        return Paragraph(block, style)
    faces_w = min(0.3 * width, max(bold_width(faces, size) for faces, _ in block) + 2.5 * mm)
    rows = [[Paragraph(f"<b>{escape(faces)}</b>", style), Paragraph(escape(outcome), style)]
            for faces, outcome in block]
    table = Table(rows, colWidths=[faces_w, width - faces_w], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        # Not 0.3 pt wide: that width is the crop marks' (the tests tell them by it).
        ("LINEBELOW", (0, 0), (-1, -2), 0.4, MUTED),
        ("BOX", (0, 0), (-1, -1), 0.6, MUTED),
        ("LINEAFTER", (0, 0), (0, -1), 0.4, MUTED),
        ("FONTNAME", (0, 0), (-1, -1), REGULAR),  # the cells' default is Helvetica
        ("LEFTPADDING", (0, 0), (-1, -1), 1.2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1.2),
        ("TOPPADDING", (0, 0), (-1, -1), 0.8),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
    ]))
    return table


def bold_width(text: str, size: float) -> float:
    """The width of ``text`` in the bold face at ``size``."""
    return float(stringWidth(text, BOLD, size))


def fit_paragraphs(ctx: Context, c: Canvas, parts: Sequence[Block], x: float, top: float,
                   width: float, height: float, *, max_size: float = 7.5,
                   min_size: float = MIN_READABLE, align: str = "left", gap: float = 0.35,
                   name: str = "") -> float:
    """Draw paragraphs (and roll tables) from ``top`` down, at the largest size that fits.

    ``gap`` is the space between blocks, in lines. Returns the height used. Text that
    does not fit even at ``min_size`` is cut at the box (it never runs under the trim
    or over the next card) and a warning naming the card (``name``) is kept in
    ``ctx.warnings``.
    """
    size = max_size
    while True:
        flows = [_flowable(ctx, p, size, align, width) for p in parts]
        heights = [f.wrap(width, height)[1] for f in flows]
        total = sum(heights) + gap * size * (len(flows) - 1)
        if total <= height + 0.01 or size <= min_size:
            break
        size = max(min_size, size - 0.25)
    if total > height + 0.01:
        ctx.warnings.append(
            f"{name or 'a card'}: the text does not fit its card even at {min_size:g} pt; "
            f"{(total - height) / mm:.1f} mm of it is left out: shorten it")
    y, bottom = top, top - height
    for flow, h in zip(flows, heights, strict=True):
        if y - h < bottom - 0.01:  # the lines that fit, then nothing: never past the box
            fitting = flow.split(width, y - bottom)
            if fitting:
                fitted = fitting[0].wrap(width, y - bottom)[1]
                fitting[0].drawOn(c, x, y - fitted)
            break
        flow.drawOn(c, x, y - h)
        y -= h + gap * size
    return float(min(total, height))


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


#: Draws one token centred at (x, y) with diameter d on the canvas.
Painter = Callable[[Canvas, float, float, float], None]


def track_step(number: int) -> Painter:
    """One step of a points track (Glory, relic points): its number, centred."""
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        draw_text(c, str(number), cx, cy - d * 0.15, d / mm * 0.9, bold=True, color=INK,
                  align="center")
    return paint
