"""The print set as one PDF: the sheets asked for, in the order of the options."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..content import HelpCards, load_content, load_help_cards
from ..engine import Content
from .cards import Face, faction_faces, movement_faces, table_faces
from .common import LANGS, PAPERS, ROMAN, SQUARE_RANGE_MM, Context, PrintOptions
from .fonts import REGULAR, register_fonts
from .sheets import draw_card_sheets

SHEETS = ("cards", "factions", "table", "board", "tokens", "rules")


class PrintError(ValueError):
    """Bad print options; the message names the option and what is allowed."""


def check(options: PrintOptions, content: Content) -> None:
    """Reject options the print set cannot honour, naming the option at fault."""
    unknown = [s for s in options.sheets if s not in SHEETS]
    if unknown:
        raise PrintError(f"--sheets: unknown sheet {unknown[0]!r}; choose from {', '.join(SHEETS)}")
    if not options.sheets:
        raise PrintError(f"--sheets: no sheet to print; choose from {', '.join(SHEETS)}")
    if options.paper not in PAPERS:
        raise PrintError(f"--paper: unknown paper {options.paper!r}; choose a4 or letter")
    if options.lang not in LANGS:
        raise PrintError(f"--lang: unknown language {options.lang!r}; choose es or en")
    sizes = content.sizes
    if options.size not in sizes:
        raise PrintError(f"--size: board side {options.size} is outside {min(sizes)}–{max(sizes)} "
                         f"(the sides in the content's board table)")
    if not 0 <= options.bleed_mm <= 5:
        raise PrintError(f"--bleed: {options.bleed_mm:g} mm is outside 0–5 mm")
    lo, hi = SQUARE_RANGE_MM
    if not lo <= options.square_mm <= hi:
        raise PrintError(f"--square: {options.square_mm:g} mm is outside {lo:g}–{hi:g} mm")


def make_context(options: PrintOptions, content_dir: str | Path | None = None) -> Context:
    """Load the content (the package's, or a folder's) and check the options against it."""
    content = load_content(content_dir)
    helps: HelpCards = load_help_cards(content_dir)
    return context_for(options, content, helps, content_dir)


def context_for(options: PrintOptions, content: Content, helps: HelpCards | None = None,
                content_dir: str | Path | None = None) -> Context:
    """A context for content already loaded (the web app's); help cards default to the package's."""
    check(options, content)
    register_fonts()
    return Context(options, content, helps or load_help_cards(), content_dir=content_dir)


def render_pdf(ctx: Context) -> bytes:
    """The whole print set for ``ctx`` as PDF bytes."""
    buffer = io.BytesIO()
    # The initial font would otherwise be Helvetica, a font the PDF would not embed.
    c = Canvas(buffer, pagesize=PAPERS[ctx.options.paper], pageCompression=1,
               initialFontName=REGULAR)
    c.setTitle("Reliquary — print and play")
    c.setAuthor("Reliquary")
    c.setSubject(f"{ctx.options.paper} · {ctx.lang}")
    cards: list[tuple[str, list[Face]]] = []  # card sheets in a row share their pages
    for sheet in ctx.options.sheets:
        if sheet in _CARD_SHEETS:
            cards += _CARD_SHEETS[sheet](ctx)
            continue
        if cards:
            draw_card_sheets(ctx, c, cards)
            cards = []
        _PARTS[sheet](ctx, c)
    if cards:
        draw_card_sheets(ctx, c, cards)
    ctx.page_count = c.getPageNumber() - 1
    c.save()
    return buffer.getvalue()


def _cards(ctx: Context) -> list[tuple[str, list[Face]]]:
    sheets = []
    for number, generic in ((1, True), (2, False)):
        faces = movement_faces(ctx, generic)
        key = "sheet_generic" if generic else "sheet_unique"
        sheets.append((ctx.label(key, sheet=ROMAN[number - 1], count=len(faces)), faces))
    return sheets


def _factions(ctx: Context) -> list[tuple[str, list[Face]]]:
    faces = faction_faces(ctx)
    return [(ctx.label("sheet_factions", sheet=ROMAN[2], count=len(faces)), faces)]


def _table(ctx: Context) -> list[tuple[str, list[Face]]]:
    faces = table_faces(ctx)
    helps = sum(1 for f in faces if f.kind == "help")
    selection = sum(1 for h in ctx.help.card if h.after_rites)
    title = ctx.label("sheet_table", sheet=ROMAN[3], help=helps - selection,
                      rites=len(ctx.content.rites), selection=selection)
    return [(title, faces)]


def _board(ctx: Context, c: Canvas) -> None:
    from .board import draw_board
    draw_board(ctx, c)


def _tokens(ctx: Context, c: Canvas) -> None:
    from .tokens import draw_tokens
    draw_tokens(ctx, c)


def _rules(ctx: Context, c: Canvas) -> None:
    from .rulebook import draw_rulebook
    draw_rulebook(ctx, c, ctx.content_dir)


_CARD_SHEETS: dict[str, Callable[[Context], list[tuple[str, list[Face]]]]] = {
    "cards": _cards, "factions": _factions, "table": _table,
}
_PARTS: dict[str, Callable[[Context, Canvas], None]] = {
    "board": _board, "tokens": _tokens, "rules": _rules,
}
