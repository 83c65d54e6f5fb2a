"""Card faces: movement cards, factions, rites, help cards, and the common back.

Every face is drawn from the content model at 63.5 × 88.9 mm with its lower-left
trim corner at the origin; a bleed, when asked for, extends the frame colour
beyond the trim on every side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..cardtext import CardText, TextLine, attack_text, faction_text
from ..content import HelpCard, HelpLine, TableText
from ..engine import Card, Faction, Rite
from .common import (
    CARD_H,
    CARD_W,
    FRAMES,
    INK,
    MUTED,
    PAPER,
    SIDE_COLORS,
    SIDE_TINTS,
    Block,
    Context,
    draw_text,
    fit_paragraphs,
    markup,
    mm,
    paragraphs_height,
)
from .emblems import draw_escort, draw_key, draw_relic, draw_seal, draw_skull

FRAME = 2.2 * mm  # the coloured border inside the trim
PAD = FRAME + 2.8 * mm  # text inset from the trim
DIAGRAM_CELL = 5.4 * mm
DIAGRAM_TOP = CARD_H - 15 * mm
MIDLINE = 37 * mm  # the movement half above, the attack half below
HP_BOX = 9 * mm


@dataclass(frozen=True)
class Face:
    """One card face to print: its kind (a key of ``FRAMES``), name and content item."""

    kind: str
    name: str
    item: Card | Faction | Rite | HelpCard | None = None

    @property
    def key(self) -> str:
        """The content id (for file names): a card's, faction's, rite's or help card's."""
        return str(getattr(self.item, "id", self.name))


def movement_faces(ctx: Context, generic: bool) -> list[Face]:
    return [Face("generic" if generic else "unique", card.id, card)
            for card in ctx.content.cards if card.generic == generic]


def faction_faces(ctx: Context) -> list[Face]:
    return [Face("faction", f.name, f) for f in ctx.content.factions]


def table_faces(ctx: Context) -> list[Face]:
    """Sheet IV: the help cards (with the modules card when rule modules are on), the
    rites, then the cards printed after the rites."""
    helps = [h for h in ctx.help.card if not h.after_rites]
    later = [h for h in ctx.help.card if h.after_rites]
    modules = modules_card(ctx)
    if modules is not None:
        helps.append(modules)
    if "conditions" in ctx.options.rules.modules:  # Conditions (MODULES.md §4)
        from .conditions_print import conditions_cards

        helps.extend(conditions_cards(ctx))
    if "glory" in ctx.options.rules.modules:  # Glory & Support (MODULES.md §5)
        from .glory_print import glory_cards

        helps.extend(glory_cards(ctx))
    return ([Face("help", ctx.text(h.title), h) for h in helps]
            + [Face("rite", r.id, r) for r in ctx.content.rites]
            + [Face("help", ctx.text(h.title), h) for h in later])


def modules_card(ctx: Context) -> HelpCard | None:
    """A help card naming the rule modules the game is set up with (M-MOD-1) and the
    options set (M-MOD-2), from the modules' own titles and summaries; ``None`` when
    no module is on."""
    settings = ctx.options.rules
    if not settings.modules:
        return None
    from ..engine.modules import get

    def line(text: str) -> HelpLine:
        escaped = text.replace("{", "{{").replace("}", "}}")  # help lines are templates
        return HelpLine(en=escaped, es=escaped)

    lines = [line(f"**{get(name).title}** ({get(name).rules}): {get(name).summary.rstrip('.')}.")
             for name in settings.modules]
    lines += [line(f"{key} = {value}") for key, value in settings.module_options]
    title = ctx.label("modules_title")
    return HelpCard(id="modules", title=TableText(en=title, es=title), lines=tuple(lines))


def role_labels(ctx: Context) -> tuple[str, ...]:
    return tuple(ctx.label(k) for k in ("hero", "minion", "any", "passive"))


def split_roles(text: str, labels: tuple[str, ...]) -> list[str]:
    """Split a rules text before each role label («Héroe:», «Esbirro:», «Pasiva:» …)."""
    pattern = "|".join(re.escape(label) for label in labels if label)
    parts = re.split(f"(?=(?:{pattern}))", text) if pattern else [text]
    return [p.strip() for p in parts if p.strip()]


def text_blocks(ctx: Context, given: object, made: CardText) -> list[Block]:
    """A card's text as printed blocks: one paragraph per line, roll tables as tables.

    The text made from the numbers is laid out from its parts; a designer's own text
    (which names the same numbers, the loader checks) is split at its role labels.
    """
    labels = role_labels(ctx)
    if ctx.text(given) != made.prose():
        return [markup(p, labels) for p in split_roles(ctx.text(given), labels)]
    blocks: list[Block] = []
    for line in made.lines:
        blocks += _line_blocks(line)
    return blocks


def _line_blocks(line: TextLine) -> list[Block]:
    head = f"<b>{markup(line.label)}</b>"
    if not line.rows:
        return [f"{head} {markup(line.prose().removeprefix(line.label).strip())}"]
    blocks: list[Block] = [f"{head} {markup(line.before)}", line.rows]
    after = line.after.strip().lstrip(".").strip()
    if after:
        blocks.append(markup(after if after.endswith(".") else after + "."))
    return blocks


def card_made_text(ctx: Context, card: Card) -> CardText:
    assert card.attack != "faction"
    return attack_text(ctx.wording, ctx.lang, card.attack, card.id)


def faction_made_text(ctx: Context, faction: Faction) -> CardText:
    return faction_text(ctx.wording, ctx.lang, faction.hero, faction.minion, faction.hero_hp,
                        faction.passive, faction.name)


# -- drawing --------------------------------------------------------------------------
def draw_face(ctx: Context, c: Canvas, face: Face, x: float, y: float) -> None:
    """Draw ``face`` with its trim's lower-left corner at (x, y)."""
    c.saveState()
    c.translate(x, y)
    _frame(ctx, c, FRAMES[face.kind])
    item = face.item
    if isinstance(item, Card):
        _movement(ctx, c, face, item)
    elif isinstance(item, Faction):
        _faction(ctx, c, item)
    elif isinstance(item, Rite):
        _rite(ctx, c, item)
    elif isinstance(item, HelpCard):
        _help(ctx, c, item)
    c.restoreState()


def draw_back(ctx: Context, c: Canvas, x: float, y: float) -> None:
    """The common card back: both emblems and the game's name."""
    c.saveState()
    c.translate(x, y)
    _frame(ctx, c, INK, panel=colors.HexColor("#2b2522"))
    draw_text(c, "RELIQUARY", CARD_W / 2, CARD_H / 2 - 2 * mm, 13, bold=True,
              color=colors.HexColor("#e9dfc6"), align="center")
    draw_key(c, CARD_W / 2, CARD_H / 2 + 14 * mm, 16 * mm, colors.HexColor("#d2a94f"),
             hole=colors.HexColor("#2b2522"))
    draw_skull(c, CARD_W / 2, CARD_H / 2 - 16 * mm, 16 * mm, colors.HexColor("#c9cbd6"),
               hole=colors.HexColor("#2b2522"))
    c.restoreState()


def _frame(ctx: Context, c: Canvas, frame: colors.Color, panel: colors.Color = PAPER) -> None:
    bleed = ctx.bleed
    c.setFillColor(frame)
    if bleed:
        c.rect(-bleed, -bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
    c.rect(0, 0, CARD_W, CARD_H, stroke=0, fill=1)  # the trim: exactly one card
    c.setFillColor(panel)
    c.roundRect(FRAME, FRAME, CARD_W - 2 * FRAME, CARD_H - 2 * FRAME, 2 * mm, stroke=0, fill=1)


def _title(c: Canvas, name: str, max_width: float) -> None:
    draw_text(c, name, PAD, CARD_H - PAD - 4.2 * mm, 11, bold=True, max_width=max_width)


def _mode(c: Canvas, text: str, y: float, color: colors.Color, *, size: float = 7,
          align: str = "left") -> None:
    x = CARD_W / 2 if align == "center" else PAD
    draw_text(c, text, x, y, size, bold=True, color=color, align=align,
              max_width=CARD_W - 2 * PAD)


def _seal(ctx: Context, c: Canvas, seal: str) -> None:
    cx, cy = CARD_W - PAD - 3.6 * mm, CARD_H - PAD - 3 * mm
    c.setStrokeColor(SIDE_COLORS[seal])
    c.setLineWidth(0.8)
    c.setFillColor(colors.white)
    c.circle(cx, cy, 4.6 * mm, stroke=1, fill=1)
    draw_seal(c, seal, cx, cy, 7.6 * mm, SIDE_COLORS[seal], hole=colors.white)
    draw_text(c, ctx.label(seal), cx, cy - 7.2 * mm, 4.6, bold=True, color=SIDE_COLORS[seal],
              align="center")


def _movement(ctx: Context, c: Canvas, face: Face, card: Card) -> None:
    frame = FRAMES[face.kind]
    _title(c, card.id, CARD_W - 2 * PAD - 11 * mm)
    _seal(ctx, c, card.seal)
    # The 5 × 5 diagram: the top points at the opponent (D1), the piece in the centre.
    size = 5 * DIAGRAM_CELL
    gx, gy = (CARD_W - size) / 2, DIAGRAM_TOP - size
    draw_text(c, "▲ " + ctx.label("towards_opponent"), CARD_W / 2, DIAGRAM_TOP + 1.1 * mm, 5,
              color=MUTED, align="center")
    targets = set(card.diagram)
    c.setLineWidth(0.5)
    c.setStrokeColor(colors.HexColor("#9c948a"))
    for row in range(5):
        for col in range(5):
            offset = (col - 2, 2 - row)
            c.setFillColor(frame if offset in targets else colors.white)
            c.rect(gx + col * DIAGRAM_CELL, gy + (4 - row) * DIAGRAM_CELL, DIAGRAM_CELL,
                   DIAGRAM_CELL, stroke=1, fill=1)
    c.setFillColor(INK)
    c.circle(gx + size / 2, gy + size / 2, 1.7 * mm, stroke=0, fill=1)
    if card.provisional:  # discreet: the designer has not confirmed diagram and seal (D1, D2)
        draw_text(c, ctx.label("provisional"), CARD_W - PAD, MIDLINE + 1.1 * mm, 4.2,
                  color=MUTED, align="right")
    if card.escort:
        y = gy - 4 * mm
        draw_escort(c, PAD + 2.2 * mm, y + 0.9 * mm, 4.6 * mm, frame)
        text = f"<b>{ctx.label('escort')}</b> {ctx.label('escort_text')}"
        fit_paragraphs(ctx, c, [text], PAD + 5.4 * mm, y + 2.6 * mm,
                       CARD_W - 2 * PAD - 5.4 * mm, 5 * mm, max_size=5.6, min_size=4.2)
    c.setStrokeColor(frame)
    c.setLineWidth(0.6)
    c.line(PAD, MIDLINE, CARD_W - PAD, MIDLINE)
    if card.attack == "faction":
        draw_seal(c, card.seal, CARD_W / 2, PAD + 10 * mm, 20 * mm, SIDE_TINTS[card.seal])
        _mode(c, ctx.label("faction_attack"), MIDLINE - 10 * mm, frame, size=9,
              align="center")
        return
    lines = [line for line in (card.attack.hero, card.attack.minion, card.attack.any) if line]
    chance = any(line.table for line in lines)
    _mode(c, ctx.label("chance_attack" if chance else "attack"), MIDLINE - 4.6 * mm, frame)
    parts = text_blocks(ctx, card.attack.text, card_made_text(ctx, card))
    if "conditions" in ctx.options.rules.modules:  # the card's riders (M-COND-31)
        from .conditions_print import rider_reminder

        reminder = rider_reminder(ctx, card.id)
        if reminder is not None:
            parts.append(reminder)
    top = MIDLINE - 6.4 * mm
    fit_paragraphs(ctx, c, parts, PAD, top, CARD_W - 2 * PAD, top - PAD + 1 * mm,
                   max_size=8.6, name=f"card {card.id}")


def _faction(ctx: Context, c: Canvas, faction: Faction) -> None:
    frame = FRAMES["faction"]
    _title(c, faction.name, CARD_W - 2 * PAD)
    _mode(c, ctx.label("faction_attack"), CARD_H - PAD - 9.4 * mm, frame)
    parts = text_blocks(ctx, faction.text, faction_made_text(ctx, faction))
    passive_label = markup(ctx.label("passive"))
    attack = [p for p in parts if not _starts(p, passive_label)]
    passive = [p for p in parts if _starts(p, passive_label)]
    # HP track at the bottom: one box per point, big enough for a damage token.
    hp_bottom = PAD + 3.4 * mm
    total = faction.hero_hp * HP_BOX + (faction.hero_hp - 1) * 1 * mm
    x0 = (CARD_W - total) / 2
    c.setLineWidth(0.8)
    for i in range(faction.hero_hp):
        bx = x0 + i * (HP_BOX + 1 * mm)
        c.setStrokeColor(frame)
        c.setFillColor(colors.white)
        c.roundRect(bx, hp_bottom, HP_BOX, HP_BOX, 1 * mm, stroke=1, fill=1)
        draw_text(c, str(i + 1), bx + HP_BOX / 2, hp_bottom + HP_BOX / 2 - 2.2 * mm, 9,
                  bold=True, color=frame, align="center")
    draw_text(c, ctx.label("hp_caption"), CARD_W / 2, PAD - 0.6 * mm, 4.4, color=MUTED,
              align="center", max_width=CARD_W - 2 * PAD)
    text_bottom = hp_bottom + HP_BOX + 2.5 * mm
    if passive:
        text = [p for p in passive if isinstance(p, str)]
        box_h = min(paragraphs_height(ctx, text, CARD_W - 2 * PAD, 7.4) + 2.6 * mm, 26 * mm)
        c.setFillColor(colors.HexColor("#e6efe6"))
        c.roundRect(PAD - 1 * mm, text_bottom, CARD_W - 2 * PAD + 2 * mm, box_h, 1.5 * mm,
                    stroke=0, fill=1)
        fit_paragraphs(ctx, c, passive, PAD, text_bottom + box_h - 1.2 * mm,
                       CARD_W - 2 * PAD, box_h - 2.2 * mm, max_size=7.4,
                       name=f"faction {faction.name}")
        text_bottom += box_h + 1.5 * mm
    top = CARD_H - PAD - 12 * mm
    fit_paragraphs(ctx, c, attack, PAD, top, CARD_W - 2 * PAD, top - text_bottom,
                   max_size=9, gap=0.6, name=f"faction {faction.name}")


def _starts(block: Block, markup_label: str) -> bool:
    return isinstance(block, str) and block.removeprefix("<b>").startswith(markup_label)


def _rite(ctx: Context, c: Canvas, rite: Rite) -> None:
    frame = FRAMES["rite"]
    _title(c, rite.id, CARD_W - 2 * PAD)
    _mode(c, ctx.label("rite"), CARD_H - PAD - 9.4 * mm, frame)
    draw_relic(c, CARD_W / 2, 17 * mm, 20 * mm, colors.HexColor("#e4dcea"))
    top = CARD_H - PAD - 12 * mm
    parts = [f'<font color="#6b625a">{markup(ctx.label("rite_preamble"))}</font>',
             markup(f"{ctx.text(rite.text)} "
                    f"{ctx.label('rite_vigil', vigil=ctx.options.rules.vigil_start)}")]
    fit_paragraphs(ctx, c, parts, PAD, top, CARD_W - 2 * PAD, top - 30 * mm, max_size=9,
                   gap=0.8, name=f"rite {rite.id}")


def _help(ctx: Context, c: Canvas, card: HelpCard) -> None:
    frame = FRAMES["help"]
    _title(c, ctx.text(card.title), CARD_W - 2 * PAD)
    top = CARD_H - PAD - 7.5 * mm
    if card.mode is not None:
        _mode(c, ctx.text(card.mode), CARD_H - PAD - 9.4 * mm, frame)
        top -= 4.5 * mm
    bottom = PAD
    if card.figure == "board_table":
        bottom = _board_table(ctx, c, frame) + 2 * mm
    elif card.figure == "vigil_track":
        bottom = _vigil_track(ctx, c, frame) + 2 * mm
    texts = card.texts(ctx.lang, ctx.options.rules, ctx.content)
    parts: list[Block] = [markup(text) for text in texts]
    fit_paragraphs(ctx, c, parts, PAD, top, CARD_W - 2 * PAD, top - bottom, max_size=8.4,
                   gap=0.45, name=f"help card {card.id}")


def _board_table(ctx: Context, c: Canvas, frame: colors.Color) -> float:
    """The board table (C1) from the content, at the foot of the card; returns its top."""
    rows = ctx.content.board
    row_h = 3.6 * mm
    width = CARD_W - 2 * PAD
    cols = (0.22, 0.26, 0.2, 0.32)
    heads = [ctx.label(k) for k in ("table_board", "table_minions", "table_ruins",
                                    "table_deploy")]
    top = PAD + row_h * (len(rows) + 1)
    xs = [PAD]
    for frac in cols:
        xs.append(xs[-1] + frac * width)
    c.setFillColor(frame)
    c.rect(PAD, top - row_h, width, row_h, stroke=0, fill=1)
    for i, head in enumerate(heads):
        draw_text(c, head, (xs[i] + xs[i + 1]) / 2, top - row_h + 1.1 * mm, 4.6, bold=True,
                  color=colors.white, align="center", max_width=xs[i + 1] - xs[i] - 0.8 * mm)
    for r, row in enumerate(rows):
        y = top - (r + 2) * row_h
        lo, hi = row.sides
        cells = [str(lo) if lo == hi else f"{lo}–{hi}", str(row.minions), str(row.ruins),
                 str(row.deploy_rows)]
        for i, cell in enumerate(cells):
            draw_text(c, cell, (xs[i] + xs[i + 1]) / 2, y + 1.1 * mm, 6, align="center")
        c.setStrokeColor(colors.HexColor("#c9bfa8"))
        c.setLineWidth(0.4)
        c.line(PAD, y, PAD + width, y)
    return top


def _vigil_track(ctx: Context, c: Canvas, frame: colors.Color) -> float:
    """The Vigil die track (6 down to 0) and a place for the die; returns its top."""
    die = 14 * mm
    draw_text(c, ctx.label("vigil_die_here"), CARD_W / 2, PAD - 1 * mm, 4.8, color=MUTED,
              align="center")
    dx = (CARD_W - die) / 2
    dy = PAD + 1.8 * mm
    c.setDash(2, 1.5)
    c.setStrokeColor(frame)
    c.setLineWidth(0.7)
    c.roundRect(dx, dy, die, die, 1.5 * mm, stroke=1, fill=0)
    c.setDash()
    cell = 6.8 * mm
    start = ctx.options.rules.vigil_start  # where the Vigil starts (V1, VAR3)
    x0 = (CARD_W - (start + 1) * cell) / 2
    ty = dy + die + 1.8 * mm
    for i, value in enumerate(range(start, -1, -1)):
        c.setFillColor(frame if value == start else colors.white)
        c.setStrokeColor(frame)
        c.rect(x0 + i * cell, ty, cell, cell, stroke=1, fill=1)
        draw_text(c, str(value), x0 + (i + 0.5) * cell, ty + 2 * mm, 9, bold=True,
                  color=colors.white if value == start else frame, align="center")
    return ty + cell
