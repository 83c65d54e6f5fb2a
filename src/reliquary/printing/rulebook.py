"""The player-facing rulebook (``data/rulebook/<lang>.md``) laid out for print.

Plain pages: the chosen paper in two columns. Booklet: A5 pages imposed two to a
landscape sheet for saddle stitching — print double-sided (flip on the short edge),
fold the stack in the middle, staple on the fold.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    Frame,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from .common import INK, MUTED, PAPERS, Context, draw_text, mm
from .fonts import BOLD, REGULAR

MARGIN = 13 * mm
GUTTER = 7 * mm


def rulebook_text(lang: str, content_dir: str | Path | None = None) -> str:
    """The rulebook's Markdown: the content folder's ``rulebook/<lang>.md``, else the package's."""
    if content_dir is not None:
        path = Path(content_dir) / "rulebook" / f"{lang}.md"
        if path.exists():
            return path.read_text(encoding="utf-8")
    return (resources.files("reliquary.data") / "rulebook" / f"{lang}.md").read_text(
        encoding="utf-8")


_MODULE_MARK = re.compile(r"^<!--\s*module:\s*([\w-]+)\s*-->\s*$")


def module_sections(text: str, modules: tuple[str, ...] | None = None) -> str:
    """The rulebook without the sections of the rule modules that are off: a section
    marked ``<!-- module: NAME -->`` runs to the next ``## `` heading after its own.
    ``modules`` None keeps every section (a reference of them all); the marks go."""
    out: list[str] = []
    skipping = False
    heading_seen = False
    for line in text.splitlines(keepends=True):
        mark = _MODULE_MARK.match(line)
        if mark:
            skipping = modules is not None and mark.group(1) not in modules
            heading_seen = False
            continue
        if line.startswith("## "):
            if heading_seen or not skipping:
                skipping = False
            heading_seen = True
        if not skipping:
            out.append(line)
    return "".join(out)


def _styles(base: float) -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("body", fontName=REGULAR, fontSize=base, leading=base * 1.3,
                          textColor=INK, alignment=TA_LEFT, spaceAfter=base * 0.5)
    return {
        "body": body,
        "h1": ParagraphStyle("h1", parent=body, fontName=BOLD, fontSize=base * 1.9,
                             leading=base * 2.3, spaceAfter=base * 0.8),
        "h2": ParagraphStyle("h2", parent=body, fontName=BOLD, fontSize=base * 1.3,
                             leading=base * 1.6, spaceBefore=base * 0.9, spaceAfter=base * 0.4,
                             textColor=colors.HexColor("#7a2632")),
        "item": ParagraphStyle("item", parent=body, leftIndent=base * 1.3,
                               bulletFontName=REGULAR, bulletFontSize=base,
                               bulletIndent=base * 0.2, spaceAfter=base * 0.3),
        "cell": ParagraphStyle("cell", parent=body, fontSize=base * 0.9,
                               leading=base * 1.1, spaceAfter=0),
        "head": ParagraphStyle("head", parent=body, fontName=BOLD, fontSize=base * 0.9,
                               leading=base * 1.1, spaceAfter=0),
    }


def _inline(token: Any) -> str:
    """Paragraph markup for an inline token: bold, code, text; no italic face exists."""
    out = []
    for child in token.children or []:
        if child.type == "text":
            out.append(escape(child.content))
        elif child.type == "strong_open":
            out.append("<b>")
        elif child.type == "strong_close":
            out.append("</b>")
        elif child.type == "code_inline":
            out.append(f'<font color="#5b3a73">{escape(child.content)}</font>')
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


def build_story(markdown: str, base: float) -> list[Flowable]:
    """Flowables for the rulebook: headings, paragraphs, lists and tables."""
    styles = _styles(base)
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    story: list[Flowable] = []
    headings: set[int] = set()  # the story's indices of headings
    lists: list[list[int]] = []  # a counter per open list; [-1] for a bullet list
    table: list[list[Paragraph]] | None = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            headings.add(len(story))
            story.append(Paragraph(_inline(tokens[i + 1]), styles[
                "h1" if tok.tag == "h1" else "h2"]))
            i += 2
        elif tok.type in ("bullet_list_open", "ordered_list_open"):
            lists.append([-1] if tok.type == "bullet_list_open"
                         else [int(tok.attrs.get("start", 1) or 1)])
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif tok.type == "inline" and table is not None:
            head = tokens[i - 1].type == "th_open"
            table[-1].append(Paragraph(_inline(tok), styles["head" if head else "cell"]))
        elif tok.type == "inline":
            if lists:
                counter = lists[-1]
                bullet = "•" if counter[0] < 0 else f"{counter[0]}."
                if counter[0] >= 0:
                    counter[0] += 1
                story.append(Paragraph(_inline(tok), styles["item"], bulletText=bullet))
            else:
                story.append(Paragraph(_inline(tok), styles["body"]))
        elif tok.type == "table_open":
            table = []
        elif tok.type == "tr_open" and table is not None:
            table.append([])
        elif tok.type == "table_close" and table is not None:
            grid = Table(table, hAlign="LEFT")
            grid.setStyle(TableStyle([
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, MUTED),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("FONTNAME", (0, 0), (-1, -1), REGULAR),  # the cells' default is Helvetica
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ]))
            story += [grid, Spacer(1, base * 0.6)]
            table = None
        i += 1
    return _keep_headings(story, headings)


def _keep_headings(story: list[Flowable], headings: set[int]) -> list[Flowable]:
    """Bind each heading (and a heading right under it) to what follows, so that no
    heading is left alone at the foot of a column."""
    out: list[Flowable] = []
    group: list[Flowable] = []
    for index, flowable in enumerate(story):
        group.append(flowable)
        if index in headings and index + 1 < len(story):
            continue
        out.append(_Together(group) if len(group) > 1 else flowable)
        group = []
    return out


class _Together(Flowable):  # type: ignore[misc]  # reportlab has no type hints
    """Flowables placed as one: the frame moves them on to the next column together."""

    def __init__(self, parts: list[Flowable]) -> None:
        super().__init__()
        self.parts = parts
        self.placed: list[tuple[float, float]] = []  # each part's (top gap, height)

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.placed = []
        for index, part in enumerate(self.parts):
            gap = 0.0 if index == 0 else max(self.parts[index - 1].getSpaceAfter(),
                                             part.getSpaceBefore())
            self.placed.append((gap, part.wrap(aw, ah)[1]))
        self.width, self.height = aw, sum(g + h for g, h in self.placed)
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return float(self.parts[0].getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.parts[-1].getSpaceAfter())

    def draw(self) -> None:
        y = self.height
        for part, (gap, height) in zip(self.parts, self.placed, strict=True):
            y -= gap + height
            part.drawOn(self.canv, 0, y)


def draw_rulebook(ctx: Context, c: Canvas, content_dir: str | Path | None = None) -> None:
    """Lay the rulebook out: plain two-column pages, or an A5 booklet."""
    booklet = ctx.options.booklet
    text = module_sections(rulebook_text(ctx.lang, content_dir), ctx.options.rules.modules)
    story = build_story(text, 8.2 if booklet else 8.6)
    if booklet:
        _booklet(ctx, c, story)
        return
    width, height = PAPERS[ctx.options.paper]
    number = 0
    while story:
        c.setPageSize((width, height))
        number += 1
        _page(ctx, c, story, width, height, MARGIN, columns=2, number=number)
        c.showPage()


def _page(ctx: Context, c: Canvas, story: list[Flowable], width: float, height: float,
          margin: float, columns: int, number: int) -> None:
    """Fill one page's columns from the front of ``story``, then its footer."""
    before = len(story)
    col_w = (width - 2 * margin - (columns - 1) * GUTTER) / columns
    for col in range(columns):
        frame = Frame(margin + col * (col_w + GUTTER), margin, col_w, height - 2 * margin,
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        frame.addFromList(story, c)
    if story and len(story) == before:
        raise ValueError("a rulebook element is too large for a page")
    draw_text(c, f"Reliquary · {ctx.label('rules_title')} · {ctx.label('page', page=number)}",
              width / 2, margin / 2 - 1 * mm, 6.5, color=MUTED, align="center")


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Saddle-stitch imposition: (left, right) page numbers for each side of each sheet.

    Pages are padded with blanks (``None``) to a multiple of four; printed double-sided
    (flip on the short edge), the stack folds in the middle into pages 1, 2, 3 …

    >>> booklet_order(5)
    [(None, 1), (2, None), (None, 3), (4, 5)]
    """
    total = -(-pages // 4) * 4
    number: list[int | None] = [n if n <= pages else None for n in range(1, total + 1)]
    sides = []
    for sheet in range(total // 4):
        sides.append((number[total - 1 - 2 * sheet], number[2 * sheet]))
        sides.append((number[2 * sheet + 1], number[total - 2 - 2 * sheet]))
    return sides


def _booklet(ctx: Context, c: Canvas, story: list[Flowable]) -> None:
    """A5 pages drawn once as forms, then placed two to a landscape sheet in booklet order."""
    width, height = PAPERS[ctx.options.paper]
    sheet = (max(width, height), min(width, height))
    page_w, page_h = min(A5[0], sheet[0] / 2), min(A5[1], sheet[1])
    forms: list[str] = []
    while story:
        name = f"RulebookPage{len(forms) + 1}"
        c.beginForm(name, 0, 0, page_w, page_h)
        _page(ctx, c, story, page_w, page_h, MARGIN * 0.8, columns=1, number=len(forms) + 1)
        c.endForm()
        forms.append(name)
    for left, right in booklet_order(len(forms)):
        c.setPageSize(sheet)
        for half, number in enumerate((left, right)):
            if number is not None:
                c.saveState()
                c.translate(half * sheet[0] / 2 + (sheet[0] / 2 - page_w) / 2,
                            (sheet[1] - page_h) / 2)
                c.doForm(forms[number - 1])
                c.restoreState()
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.3)
        c.setDash(2, 3)
        c.line(sheet[0] / 2, 4 * mm, sheet[0] / 2, 9 * mm)  # the fold, marked at the edges
        c.line(sheet[0] / 2, sheet[1] - 9 * mm, sheet[0] / 2, sheet[1] - 4 * mm)
        c.setDash()
        c.showPage()
