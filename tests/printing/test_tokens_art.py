"""The token sheet drawn call by call (issue 31, by class: the token painters' numbers,
colours and flags, the sheet's headings and the groups a content gives, which the
outline and scale tests read only in part).

- **Each token's art**, as the tokens page shows it (docs/images/print-tokens.png):
  every part a painter draws, its place and size in units of the token's diameter
  ``d`` about the token's centre, its colour, and whether it is filled or outlined.
  Only the cut line that ``draw_tokens`` draws around a token is outlined
  (docs/print.md: "Cut along the outlines"); a painter fills. The Key and Skull seals
  and the relic, Veil, Aegis and Harrow drawings come from ``emblems.py`` and are
  recorded by their arguments here, not drawn.
- **The sheet**: the title at the top of each page (bold 8 pt, muted, centred 8 mm
  below the paper's top edge), each group's heading (bold 7 pt, muted, at the left
  margin, 3.5 mm below the group's top), each token painted at the centre of its cut
  line and the line (0.4 pt, ink) drawn after it, a page turned where a heading and a
  token, or a row, no longer fit above the 8 mm margin.
- **The groups a content gives**: the Veil and Aegis markers only where the content
  has a card with each effect (on any of its lines), named after the first such card;
  the Harrow marks only where a rite has that effect, named after the first; the
  quantities from the content's largest numbers; the rule modules' tokens after the
  base game's, Conditions, then Glory, then Keepers.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from reliquary.content import default_content
from reliquary.engine import Content, Settings
from reliquary.printing import PrintOptions, context_for, tokens
from reliquary.printing.common import (
    INK,
    KEY_COLOR,
    KEY_TINT,
    MUTED,
    PAPERS,
    SKULL_COLOR,
    SKULL_TINT,
)
from reliquary.printing.tokens import Group, draw_tokens, token_groups

MM = 72 / 25.4
CX, CY = 123.4, 234.5  # an off-origin centre: a sign slip in a place shows
WHITE = colors.white.hexval()
COLOR = {"key": KEY_COLOR.hexval(), "skull": SKULL_COLOR.hexval()}
TINT = {"key": KEY_TINT.hexval(), "skull": SKULL_TINT.hexval()}
DAMAGE_RED = "0x9e2a2b"
MARKER_DISC, MARKER_ICON = "0xece6f2", "0x5b3a73"
RUIN_GROUND, RUIN_STONE, RUIN_WORD = "0x6e6259", "0x9a8c80", "0xefe8dc"
#: A Ruin's fallen stones: (x, y, width, height) of each as fractions of its side.
STONES = ((-0.3, -0.25, 0.35, 0.18), (0.05, -0.25, 0.3, 0.18), (-0.15, -0.05, 0.35, 0.18),
          (-0.4, 0.15, 0.25, 0.16), (0.15, 0.1, 0.22, 0.14))

Op = tuple[Any, ...]


def _hex(color: Any) -> str:
    return str(color.hexval())


class Art(Canvas):
    """A canvas that records what is drawn on it, in order."""

    def __init__(self, size: tuple[float, float] = A4) -> None:
        super().__init__(io.BytesIO(), pagesize=size)
        self.ops: list[Op] = []

    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:
        self.ops.append(("fill", _hex(aColor)))
        super().setFillColor(aColor, alpha)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        self.ops.append(("stroke", _hex(aColor)))
        super().setStrokeColor(aColor, alpha)

    def setLineWidth(self, width: float) -> None:
        self.ops.append(("width", width))
        super().setLineWidth(width)

    def circle(self, x_cen: float, y_cen: float, r: float, stroke: int = 1,
               fill: int = 0) -> Any:
        self.ops.append(("circle", x_cen, y_cen, r, stroke, fill))
        return super().circle(x_cen, y_cen, r, stroke=stroke, fill=fill)

    def rect(self, x: float, y: float, width: float, height: float, stroke: int = 1,
             fill: int = 0) -> Any:
        self.ops.append(("rect", x, y, width, height, stroke, fill))
        return super().rect(x, y, width, height, stroke=stroke, fill=fill)

    def showPage(self) -> None:
        self.ops.append(("page",))
        super().showPage()

    def setPageSize(self, size: tuple[float, float]) -> None:
        self.ops.append(("size", size[0], size[1]))
        super().setPageSize(size)


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The token module's text and emblem drawing recorded by their arguments."""

    def text(c: Art, text: str, x: float, y: float, size: float, *, bold: bool = False,
             color: Any = INK, align: str = "left", max_width: float | None = None) -> None:
        # (common.draw_text's defaults: regular, ink, left, not shrunk)
        c.ops.append(("text", text, x, y, size, bold, _hex(color), align, max_width))

    def seal(c: Art, seal: str, cx: float, cy: float, size: float, color: Any,
             hole: Any = None) -> None:
        c.ops.append(("seal", seal, cx, cy, size, _hex(color), hole and _hex(hole)))

    def relic(c: Art, cx: float, cy: float, size: float, color: Any, hole: Any = None) -> None:
        c.ops.append(("relic", cx, cy, size, _hex(color), hole and _hex(hole)))

    def icon(name: str) -> Callable[..., None]:
        def draw(c: Art, cx: float, cy: float, size: float, color: Any) -> None:
            c.ops.append((name, cx, cy, size, _hex(color)))
        return draw

    monkeypatch.setattr(tokens, "draw_text", text)
    monkeypatch.setattr(tokens, "draw_seal", seal)
    monkeypatch.setattr(tokens, "draw_relic", relic)
    monkeypatch.setattr(tokens, "draw_veil", icon("veil"))
    monkeypatch.setattr(tokens, "draw_shield", icon("shield"))
    monkeypatch.setattr(tokens, "draw_harrow", icon("harrow"))


def same(got: list[Op], want: list[Op]) -> bool:
    """The same calls in the same order, numbers equal to 1e-6."""
    if len(got) != len(want):
        return False
    for a, b in zip(got, want, strict=True):
        if len(a) != len(b):
            return False
        for x, y in zip(a, b, strict=True):
            if isinstance(y, float) and not isinstance(x, bool) and isinstance(x, (int, float)):
                if abs(x - y) > 1e-6:
                    return False
            elif x != y or (type(x) is not type(y) and not (
                    isinstance(x, (int, float)) and isinstance(y, (int, float)))):
                return False
    return True


# ---------------------------------------------------------------------- each token's art
def disc(d: float) -> Op:
    """A token's painted ground: a disc of its diameter, filled, not outlined."""
    return ("circle", CX, CY, d / 2, 0, 1)


def damage_art(d: float) -> list[Op]:
    return [("fill", DAMAGE_RED), disc(d),
            ("text", "1", CX, CY - 0.17 * d, d / MM * 1.5, True, WHITE, "center", None)]


def relic_art(seat: str, d: float) -> list[Op]:
    return [("fill", TINT[seat]), disc(d),
            ("relic", CX, CY + 0.08 * d, 0.62 * d, COLOR[seat], TINT[seat]),
            ("seal", seat, CX, CY - 0.32 * d, 0.26 * d, _hex(INK), TINT[seat])]


def emblem_art(seat: str, d: float) -> list[Op]:
    return [("fill", COLOR[seat]), disc(d),
            ("seal", seat, CX, CY, 0.7 * d, WHITE, COLOR[seat])]


def marker_art(icon: str, name: str, d: float) -> list[Op]:
    return [("fill", MARKER_DISC), disc(d),
            (icon, CX, CY + 0.1 * d, 0.55 * d, MARKER_ICON),
            ("text", name, CX, CY - 0.38 * d, 4.5, True, _hex(INK), "center", None)]


def harrow_art(d: float) -> list[Op]:
    return [("harrow", CX, CY, 0.8 * d, MARKER_ICON)]


def piece_art(seat: str, letter: str, hero: bool, d: float) -> list[Op]:
    ground = COLOR[seat] if hero else TINT[seat]
    figure = WHITE if hero else COLOR[seat]  # a Hero light on dark, a Minion dark on light
    return [("fill", ground), disc(d),
            ("seal", seat, CX, CY + 0.2 * d, 0.36 * d, figure, ground),
            ("text", letter, CX, CY - 0.34 * d, d / MM * (1.3 if hero else 1.0), True, figure,
             "center", None)]


def ruin_art(word: str, d: float) -> list[Op]:
    return [("fill", RUIN_GROUND), ("rect", CX - d / 2, CY - d / 2, d, d, 0, 1),
            ("fill", RUIN_STONE),
            *(("rect", CX + x * d, CY + y * d, w * d, h * d, 0, 1) for x, y, w, h in STONES),
            ("text", word.upper(), CX, CY - 0.42 * d, 5, True, RUIN_WORD, "center", None)]


def drawn(painter: Any, d: float) -> list[Op]:
    canvas = Art()
    painter(canvas, CX, CY, d)
    return canvas.ops


@pytest.mark.usefixtures("spied")
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_every_token_s_art_part_by_part(content: Content, lang: str, scale: float) -> None:
    ctx = context_for(PrintOptions(lang=lang), content)
    groups = {g.title: g for g in token_groups(ctx)}
    label = ctx.label
    want: dict[str, list[Callable[..., list[Op]]]] = {
        label("token_damage"): [damage_art] * 12,
        label("token_relics"): [lambda d: relic_art("key", d), lambda d: relic_art("skull", d)],
        label("token_emblems"): [lambda d: emblem_art("key", d),
                                 lambda d: emblem_art("skull", d)],
        label("token_markers", veil="Veil", aegis="Aegis"):
            [lambda d: marker_art("veil", "Veil", d)] * 2
            + [lambda d: marker_art("shield", "Aegis", d)] * 2,
        label("token_harrow", rite="Harrow"): [harrow_art] * 4,
        label("token_ruins"): [lambda d: ruin_art(label("ruin"), d)] * 8,
    }
    for seat in ("key", "skull"):
        hero, minion = label("hero_letter"), label("minion_letter")
        want[label("token_pieces", side=ctx.side_name(seat))] = (
            [lambda d, s=seat, h=hero: piece_art(s, h, True, d)]
            + [lambda d, s=seat, m=minion: piece_art(s, m, False, d)] * 7)
    assert sorted(groups) == sorted(want)
    for title, arts in want.items():
        group = groups[title]
        assert len(group.painters) == len(arts), title
        d = group.diameter * scale
        for index, (painter, art) in enumerate(zip(group.painters, arts, strict=True)):
            got = drawn(painter, d)
            assert same(got, art(d)), (title, index, got, art(d))


# ---------------------------------------------------------------------- the sheet
def stub(c: Art, cx: float, cy: float, d: float) -> None:
    c.ops.append(("token", cx, cy, d))


def sheet(paper: tuple[float, float], groups: list[Group], title: str) -> list[Op]:
    """The documented layout as calls: 8 mm margins, a 3 mm band for the page title,
    each group a 5.5 mm heading then rows 2.5 mm apart, 2 mm between groups; a group
    starts a page when its heading and one token do not fit (6 mm and ``d``), a row
    when the row does not fit."""
    width, height = paper
    margin, gap = 8 * MM, 2.5 * MM
    ops: list[Op] = [("size", width, height)]

    def top() -> float:
        ops.append(("text", title, width / 2, height - margin, 8, True, _hex(MUTED),
                    "center", None))
        return height - margin - 3 * MM

    def turn() -> float:
        ops.extend([("page",), ("size", width, height)])
        return top()

    y = top()
    for group in groups:
        d = group.diameter
        per_row = max(1, int((width - 2 * margin + gap) // (d + gap)))
        if y - 6 * MM - d < margin:
            y = turn()
        ops.append(("text", group.title, margin, y - 3.5 * MM, 7, True, _hex(MUTED), "left",
                    None))
        y -= 5.5 * MM
        count = len(group.painters)
        for start in range(0, count, per_row):
            if y - d < margin:
                y = turn()
            for i in range(min(per_row, count - start)):
                x = margin + i * (d + gap)
                ops.append(("token", x + d / 2, y - d / 2, d))
                ops.extend([("stroke", _hex(INK)), ("width", 0.4)])
                ops.append(("rect", x, y - d, d, d, 1, 0) if group.square
                           else ("circle", x + d / 2, y - d / 2, d / 2, 1, 0))
            y -= d + gap
        y -= 2 * MM
    ops.append(("page",))
    return ops


def stubbed(ctx: Any) -> list[Group]:
    return [Group(g.title, g.diameter, [stub] * len(g.painters), g.square)
            for g in token_groups(ctx)]


@pytest.mark.usefixtures("spied")
@pytest.mark.parametrize(("paper", "size"), [
    ("a4", A4), ("letter", LETTER), ("tiny", (100 * MM, 120 * MM)),
    # 24 mm between the margins: one 21 mm piece a row, and a 30 mm emblem or a 27 mm
    # Ruin, wider than that, still a row of its own
    ("tiny", (40 * MM, 200 * MM))])
@pytest.mark.parametrize("modules", [(), ("conditions", "glory", "keepers")])
def test_the_sheet_call_by_call(monkeypatch: pytest.MonkeyPatch, paper: str,
                                size: tuple[float, float], modules: tuple[str, ...]) -> None:
    ctx = context_for(PrintOptions(lang="en", settings=Settings(modules=modules)),
                      default_content())
    groups = stubbed(ctx)
    monkeypatch.setitem(PAPERS, "tiny", size)
    object.__setattr__(ctx.options, "paper", paper)
    monkeypatch.setattr(tokens, "token_groups", lambda _: groups)
    canvas = Art(size)
    draw_tokens(ctx, canvas)
    want = sheet(size, groups, ctx.label("tokens_title"))
    got = canvas.ops
    assert same(got, want), next(
        (i, g, w) for i, (g, w) in enumerate(zip(got, want, strict=False)) if not same([g], [w]))
    pages = sum(op == ("page",) for op in got)
    assert pages >= (2 if modules or paper == "tiny" else 1)
    if size[0] == 40 * MM:  # tokens over 12 mm one a row, at the left margin
        wide = [op for op in got if op[0] == "token" and op[3] > 12.5 * MM]
        assert len(wide) >= 2 + 2 + 16 + 8
        assert all(abs(op[1] - (8 * MM + op[3] / 2)) < 1e-6 for op in wide)


@pytest.mark.usefixtures("spied")
@pytest.mark.parametrize(("rows", "extra", "turned"), [
    (1, 0.001, 0), (1, -0.01, 1),  # a heading and a row: 6 mm + d above the margin
    (2, 0.001, 0), (2, -0.01, 1)])  # a second row: d above the margin
def test_a_group_that_just_fits_stays_on_its_page(monkeypatch: pytest.MonkeyPatch, rows: int,
                                                  extra: float, turned: int) -> None:
    """A 10 mm group on a page 100 mm wide (six tokens a row) whose height leaves
    exactly its room above the 8 mm margin, give or take a hair: the page turns only
    where it falls short (the group's check wants 6 mm for its heading and one token's
    d; a row's check its d)."""
    ctx = context_for(PrintOptions(lang="en"), default_content())
    d = 10 * MM
    if rows == 1:  # title band, heading room, one token
        height = 8 * MM + 3 * MM + 6 * MM + d + 8 * MM
    else:  # title band, heading, a row and its gap, a second row
        height = 8 * MM + 3 * MM + 5.5 * MM + d + 2.5 * MM + d + 8 * MM
    size = (100 * MM, height + extra * MM)
    monkeypatch.setitem(PAPERS, "tiny", size)
    object.__setattr__(ctx.options, "paper", "tiny")
    group = Group("G", d, [stub] * (1 if rows == 1 else 7), False)
    monkeypatch.setattr(tokens, "token_groups", lambda _: [group])
    canvas = Art(size)
    draw_tokens(ctx, canvas)
    assert same(canvas.ops, sheet(size, [group], ctx.label("tokens_title")))
    assert canvas.ops.count(("page",)) - 1 == turned
    xs = [op[1] for op in canvas.ops if op[0] == "token"]
    # six a row from the 8 mm margin, 2.5 mm apart, then the seventh starts a row
    assert xs == pytest.approx([8 * MM + i * 12.5 * MM + d / 2 for i in range(6)][:len(xs)]
                               + ([8 * MM + d / 2] if len(xs) == 7 else []))


# ---------------------------------------------------------------------- the groups
def _with(content: Content, cards: Any = None, rites: Any = None) -> Content:
    update = {}
    if cards is not None:
        update["cards"] = tuple(cards)
    if rites is not None:
        update["rites"] = tuple(rites)
    return content.model_copy(update=update)


def _effect(card: Any, line: str, effect: str) -> Any:
    """The card with its attack's ``line`` given ``effect`` (the others kept)."""
    attack: Any = card.attack
    new = getattr(attack, line) or attack.any or attack.hero
    return card.model_copy(update={"attack": attack.model_copy(update={
        line: new.model_copy(update={"effect": effect})})})


def _titles(content: Content) -> list[str]:
    return [g.title for g in token_groups(context_for(PrintOptions(lang="en"), content))]


def _markers(content: Content) -> Iterator[str]:
    return (t for t in _titles(content) if "marker" in t)


def test_markers_need_a_veil_card_and_an_aegis_card(content: Content) -> None:
    assert list(_markers(content)) == ["Veil and Aegis markers"]
    no_veil = _with(content, cards=[c for c in content.cards if c.id != "Veil"])
    no_aegis = _with(content, cards=[c for c in content.cards if c.id != "Aegis"])
    neither = _with(content, cards=[c for c in content.cards if c.id not in ("Veil", "Aegis")])
    for changed in (no_veil, no_aegis, neither):
        assert list(_markers(changed)) == []
        assert len(_titles(changed)) == len(_titles(content)) - 1


@pytest.mark.parametrize("line", ["hero", "minion", "any"])
def test_markers_are_named_after_the_first_card_with_the_effect_on_any_line(
        content: Content, line: str) -> None:
    by_id = {c.id: c for c in content.cards}
    holder = "Bolt" if line != "any" else "Hook"  # Bolt has Hero and Minion lines
    cards = [_effect(c, line, "veil") if c.id == holder else c
             for c in content.cards if c.id != "Veil"]
    assert by_id[holder].attack.any is (None if line != "any" else by_id[holder].attack.any)
    assert list(_markers(_with(content, cards=cards))) == [f"{holder} and Aegis markers"]
    # with the Veil card kept as well, the first in the content's order names them
    first = next(c.id for c in content.cards if c.id in (holder, "Veil"))
    both = [_effect(c, line, "veil") if c.id == holder else c for c in content.cards]
    assert list(_markers(_with(content, cards=both))) == [f"{first} and Aegis markers"]


def test_harrow_marks_need_a_harrow_rite_named_after_the_first(content: Content) -> None:
    harrows = [t for t in _titles(content) if "Harrow" in t]
    assert len(harrows) == 1
    others = [r for r in content.rites if r.effect != "harrow"]
    assert len(others) >= 2
    without = _with(content, rites=others)
    assert not [t for t in _titles(without) if "Harrow" in t or "marks" in t]
    assert len(_titles(without)) == len(_titles(content)) - 1
    renamed = [r.model_copy(update={"effect": "harrow"}) if r is others[0] else r
               for r in content.rites]
    titles = _titles(_with(content, rites=renamed))
    assert [t for t in titles if others[0].id in t] and not [t for t in titles
                                                             if "Harrow marks" in t]


def test_quantities_follow_the_content_s_largest_numbers(content: Content) -> None:
    factions = [f.model_copy(update={"hero_hp": 7}) if i == 1 else f
                for i, f in enumerate(content.factions)]
    board = [r.model_copy(update={"minions": 9, "ruins": 11}) if i == 0 else r
             for i, r in enumerate(content.board)]
    changed = content.model_copy(update={"factions": tuple(factions), "board": tuple(board)})
    ctx = context_for(PrintOptions(lang="en"), changed)
    counts = {g.title: len(g.painters) for g in token_groups(ctx)}
    assert counts["Damage tokens"] == 2 * 7 + 2
    assert counts["Key: Hero and Minions (spares for rites)"] == 1 + 9 + 2
    assert counts["Skull: Hero and Minions (spares for rites)"] == 1 + 9 + 2
    assert counts["Ruins for the largest board"] == 11


@pytest.mark.parametrize("modules", [("conditions",), ("glory",), ("keepers",),
                                     ("glory", "conditions"), ("keepers", "glory"),
                                     ("conditions", "glory", "keepers")])
def test_the_modules_tokens_follow_the_base_game_s(content: Content,
                                                   modules: tuple[str, ...]) -> None:
    from reliquary.printing.conditions_print import conditions_groups
    from reliquary.printing.glory_print import glory_groups
    from reliquary.printing.keepers_print import keepers_groups

    base = token_groups(context_for(PrintOptions(lang="en"), content))
    ctx = context_for(PrintOptions(lang="en", settings=Settings(modules=modules)), content)
    groups = token_groups(ctx)
    want = [(g.title, g.diameter, len(g.painters), g.square) for g in base]
    for name, made in (("conditions", conditions_groups), ("glory", glory_groups),
                       ("keepers", keepers_groups)):
        if name in modules:
            want += [(t, d, len(p), s) for t, d, p, s in made(ctx)]
    assert [(g.title, g.diameter, len(g.painters), g.square) for g in groups] == want
    assert len(groups) > len(base)
