"""Print behaviours that a fault in a number would change (issue 31): token counts for
the game's needs, bleed on Letter (margin and crop marks on the paper), the order of
the cards on a sheet, crop marks clear of the cards, PNG size rounding, and the
Tabletop Simulator deck's reserved last slot."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from PIL import Image

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for, export_png, export_tts, pixel_size
from reliquary.printing import export as export_module
from reliquary.printing.cards import movement_faces
from reliquary.printing.tokens import token_groups

from .conftest import CARD_H, CARD_W, CROP_WIDTH, MM, painted_alone, squash

MARGIN = 5 * MM  # nothing printed comes closer to the paper's edge (where it fits)
CROP_GAP, CROP_LEN = 1 * MM, 3.5 * MM  # a crop mark's gap from the cards, and its length
SHORT_GAP, SHORT_LEN = 0.5 * MM, 1.5 * MM  # a crop mark where the cards leave little room
PRINTABLE = 3 * MM  # no crop mark comes nearer the paper's edge than this
TITLE_ROOM = 3.4 * MM  # below the cards, the marks leave the sheet's title this room


def _title_under(page: Any, block: tuple[float, float, float, float]) -> bool:
    """Whether the sheet's title line is printed below the block of cards."""
    return any(ch["top"] > block[3] for ch in page.chars)


def _pdf(content: Content, **options: Any) -> Any:
    from reliquary.printing import render_pdf

    ctx = context_for(PrintOptions(**options), content)
    return pdfplumber.open(io.BytesIO(render_pdf(ctx)))


# ---------------------------------------------------------------------- tokens
def _drawn(painter: Any) -> bytes:
    """What a token painter draws, as the page content of a one-token PDF."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=0, invariant=1)
    painter(canvas, 50.0, 50.0, 40.0)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_token_counts_match_the_game_s_needs(content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    groups = {g.title: g for g in token_groups(ctx)}
    label = ctx.label
    max_hp = max(f.hero_hp for f in content.factions)
    max_minions = max(row.minions for row in content.board)
    # Damage for two of the toughest Heroes (both Heroes may be wounded at once), and spares.
    assert len(groups[label("token_damage")].painters) == 2 * max_hp + 2
    relics = groups[label("token_relics")].painters
    assert len(relics) == 2 and _drawn(relics[0]) != _drawn(relics[1])  # one for each side
    emblems = groups[label("token_emblems")].painters
    assert _drawn(emblems[0]) != _drawn(emblems[1])
    assert len(groups[label("token_emblems")].painters) == 2
    for side in ("key", "skull"):
        pieces = groups[label("token_pieces", side=ctx.side_name(side))].painters
        assert len(pieces) == 1 + max_minions + 2  # a Hero, the Minions, two for the rites
    assert len(groups[label("token_ruins")].painters) == max(r.ruins for r in content.board)
    assert len(groups[label("token_harrow", rite="Harrow")].painters) == 4
    assert len(groups[label("token_markers", veil="Veil", aegis="Aegis")].painters) == 4


def test_every_token_is_drawn_on_the_tokens_pages(content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    damage = next(g for g in token_groups(ctx) if g.title == ctx.label("token_damage"))
    with _pdf(content, sheets=("tokens",), lang="en") as pdf:
        outlines = [c for page in pdf.pages for c in page.curves
                    if abs((c["x1"] - c["x0"]) - damage.diameter) < 0.05 * MM
                    and abs((c["bottom"] - c["top"]) - damage.diameter) < 0.05 * MM]
        assert len(outlines) >= len(damage.painters)


# ---------------------------------------------------------------------- sheets
INK = (0x1F / 255, 0x1A / 255, 0x17 / 255)  # crop marks are drawn in ink, card lines muted


def _marks(page: Any) -> list[dict[str, Any]]:
    return [ln for ln in page.lines if abs(ln["linewidth"] - CROP_WIDTH) < 0.01
            and ln.get("stroking_color") is not None
            and all(abs(a - b) < 0.01 for a, b in zip(ln["stroking_color"], INK, strict=True))]


def _cards(page: Any) -> list[dict[str, Any]]:
    return [r for r in page.rects if abs(r["width"] - CARD_W) <= 0.1 * MM
            and abs(r["height"] - CARD_H) <= 0.1 * MM]


def _gap(mark: dict[str, Any], box: tuple[float, float, float, float]) -> float:
    """The distance between a (straight) crop mark and a box (x0, top, x1, bottom)."""
    dx = max(box[0] - mark["x1"], mark["x0"] - box[2], 0.0)
    dy = max(box[1] - mark["bottom"], mark["top"] - box[3], 0.0)
    return max(dx, dy)


@pytest.mark.parametrize(("paper", "bleed"), [
    ("letter", 0.0), ("letter", 1.0), ("letter", 2.0), ("letter", 3.0), ("letter", 5.0),
    ("a4", 0.0), ("a4", 1.0), ("a4", 3.0), ("a4", 4.0), ("a4", 5.0)])
def test_cards_margins_and_crop_marks_stay_on_the_paper_and_clear_of_the_cards(
        content: Content, paper: str, bleed: float) -> None:
    b = bleed * MM
    with _pdf(content, sheets=("cards",), paper=paper, lang="en", bleed_mm=bleed) as pdf:
        for page in pdf.pages:
            cards = _cards(page)
            marks = _marks(page)
            assert cards and marks
            boxes = [(c["x0"] - b, c["top"] - b, c["x1"] + b, c["bottom"] + b) for c in cards]
            for x0, top, x1, bottom in boxes:  # each card with its bleed, within the margin
                assert x0 >= MARGIN - 0.01 and top >= MARGIN - 0.01
                assert page.width - x1 >= MARGIN - 0.01 and page.height - bottom >= MARGIN - 0.01
            if page.page_number == 1:  # a full page: the block of cards is centred
                left, right = min(x[0] for x in boxes), page.width - max(x[2] for x in boxes)
                top, bottom = min(x[1] for x in boxes), page.height - max(x[3] for x in boxes)
                assert left == pytest.approx(right, abs=0.1 * MM)
                assert top == pytest.approx(bottom, abs=0.1 * MM)
            block = (min(x[0] for x in boxes), min(x[1] for x in boxes),
                     max(x[2] for x in boxes), max(x[3] for x in boxes))
            for mark in marks:
                where = (paper, bleed, round(mark["x0"] / MM, 2), round(mark["top"] / MM, 2))
                edge = min(mark["x0"], mark["top"], page.width - mark["x1"],
                           page.height - mark["bottom"])
                length = max(mark["x1"] - mark["x0"], mark["bottom"] - mark["top"])
                gap = _gap(mark, block)  # the marks lie beyond the block of cards
                assert all(_gap(mark, box) >= gap for box in boxes), where
                # A printer reaches it; it is easy to find; it stays clear of the cards.
                assert edge >= PRINTABLE - 0.01 and length >= SHORT_LEN - 0.01, where
                assert gap >= SHORT_GAP - 0.01, where
                if edge < MARGIN - 0.01:  # into the margin only where no mark fits outside it
                    assert length == pytest.approx(SHORT_LEN, abs=0.01), where
                    assert gap == pytest.approx(SHORT_GAP, abs=0.01), where
                elif length < CROP_LEN - 0.01 or gap < CROP_GAP - 0.01:  # made to fit
                    # ... the margin, or below the cards the margin and the sheet's title
                    if mark["top"] >= block[3] and _title_under(page, block):
                        shortest = (abs(length - SHORT_LEN) < 0.01 and abs(gap - SHORT_GAP) < 0.01)
                        assert shortest or page.height - mark["bottom"] == pytest.approx(
                            MARGIN + TITLE_ROOM, abs=0.01), where
                    else:
                        assert edge == pytest.approx(MARGIN, abs=0.01), where


def test_letter_without_bleed_keeps_crop_marks_above_and_below_the_cards_printable(
        content: Content) -> None:
    """The 3 × 3 cards leave 6.35 mm above and below: the marks there were 3.5 mm long
    1 mm off the cards, so they ran to 1.9 mm from the edge, where printers do not print."""
    with _pdf(content, sheets=("cards",), paper="letter", lang="en") as pdf:
        page = pdf.pages[0]
        cards = _cards(page)
        above = [m for m in _marks(page) if abs(m["x0"] - m["x1"]) < 0.01
                 and m["bottom"] <= min(c["top"] for c in cards)]
        assert len(above) == 4  # one on each of the four vertical cut lines
        for mark in above:
            assert mark["top"] == pytest.approx(6.35 * MM - SHORT_GAP - SHORT_LEN, abs=0.01)
            assert mark["bottom"] - mark["top"] == pytest.approx(SHORT_LEN, abs=0.01)


@pytest.mark.parametrize(("paper", "bleed", "count"), [
    ("a4", 3.0, 2), ("a4", 3.0, 5), ("letter", 0.0, 2), ("a4", 0.0, 7)])
def test_a_short_page_marks_only_the_cut_lines_of_its_cards(
        content: Content, paper: str, bleed: float, count: int) -> None:
    """A page with fewer cards than the grid (a sheet's last page): crop marks on the
    trim lines of the cards printed, none for the empty places, and the marks beside
    the cards as near them as on a full page."""
    from reportlab.pdfgen.canvas import Canvas

    from reliquary.printing.sheets import card_grid, draw_card_sheet

    ctx = context_for(PrintOptions(lang="en", paper=paper, bleed_mm=bleed), content)
    grid = card_grid(paper, bleed * MM)
    assert count < grid.per_page
    faces = (movement_faces(ctx, True) * 2)[:count]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=grid.page)
    draw_card_sheet(ctx, canvas, "short", faces)
    canvas.save()
    cols, rows = min(count, grid.cols), -(-count // grid.cols)
    xs = {round(grid.x0 + i * grid.pitch_x + d, 1) for i in range(cols) for d in (0, CARD_W)}
    ys = {round(grid.page[1] - (grid.y0 + (grid.rows - 1 - j) * grid.pitch_y + d), 1)
          for j in range(rows) for d in (0, CARD_H)}
    right = grid.x0 + (cols - 1) * grid.pitch_x + CARD_W + grid.bleed
    lowest = grid.page[1] - (grid.y0 + (grid.rows - rows) * grid.pitch_y - grid.bleed)
    with pdfplumber.open(buffer) as pdf:
        [page] = pdf.pages
        marks = _marks(page)
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        assert {round(m["x0"], 1) for m in vertical} == xs
        assert {round(m["top"], 1) for m in horizontal} == ys
        beside = [m for m in horizontal if m["x0"] > right]
        assert beside and all(m["x0"] - right <= CROP_GAP + 0.01 for m in beside)
        below = [m for m in vertical if m["top"] > lowest]
        assert below and all(m["top"] - lowest <= CROP_GAP + 0.01 for m in below)


def test_letter_with_bleed_turns_the_page_for_six_cards(content: Content) -> None:
    with _pdf(content, sheets=("cards",), paper="letter", lang="en", bleed_mm=3.0) as pdf:
        first = pdf.pages[0]
        assert first.width > first.height  # landscape: 3 × 2 with bleed, not 2 × 2
        assert len(_cards(first)) == 6


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_cards_fill_a_sheet_row_by_row_from_the_top_left(content: Content,
                                                         bleed: float) -> None:
    ctx = context_for(PrintOptions(lang="en", bleed_mm=bleed), content)
    names = [face.name for face in movement_faces(ctx, True) + movement_faces(ctx, False)]
    seen: list[str] = []
    with _pdf(content, sheets=("cards",), lang="en", bleed_mm=bleed) as pdf:
        for page in pdf.pages:
            cards = sorted(_cards(page), key=lambda c: (round(c["top"]), c["x0"]))
            for card in cards:
                text = squash(page.crop((card["x0"], card["top"], card["x1"],
                                         card["bottom"])).extract_text())
                seen.append(next(n for n in names if text.startswith(squash(n))
                                 or squash(n) in text[:40]))
    assert seen == names


# ---------------------------------------------------------------------- exports
def test_pixel_sizes_round_to_the_nearest_pixel() -> None:
    assert pixel_size(63.5, 300) == 750 and pixel_size(88.9, 300) == 1050
    assert pixel_size(1.0, 300) == 12          # 11.81 px
    assert pixel_size(67.5, 50) == 133         # 132.87 px
    assert pixel_size(92.9, 50) == 183         # 182.87 px
    assert pixel_size(10.0, 127) == 50         # exact


def test_png_cards_round_their_size_up_as_well_as_down(tmp_path: Path,
                                                       content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en", bleed_mm=2.0), content)
    paths = export_png(ctx, tmp_path, dpi=50)
    assert len(paths) > 10 and [p.name for p in paths] == sorted(p.name for p in paths)
    for path in paths:
        with Image.open(path) as image:
            assert image.size == (133, 183), path.name
            assert image.mode == "RGB", path.name  # opaque: no see-through corners


def test_tts_keeps_the_last_slot_of_each_sheet_free(tmp_path: Path, content: Content,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck of 70 cards needs two sheets: Tabletop Simulator keeps slot 70 for the
    hidden card, so a sheet holds 69."""
    real = export_module.all_faces

    def seventy(ctx: Any) -> dict[str, list[Any]]:
        faces = real(ctx)["movement"]
        return {"movement": (faces * 70)[:70]}

    monkeypatch.setattr(export_module, "all_faces", seventy)
    ctx = context_for(PrintOptions(lang="en"), content)
    export_tts(ctx, tmp_path, dpi=12)
    index = json.loads((tmp_path / "tts.json").read_text(encoding="utf-8"))
    assert [(d["name"], d["count"], len(d["cards"])) for d in index["decks"]] == [
        ("movement-1", 69, 69), ("movement-2", 1, 1)]
    w, h = index["card_px"]
    with Image.open(tmp_path / "deck-movement-1.png") as sheet:
        last = sheet.convert("RGB").crop((9 * w, 6 * h, 10 * w, 7 * h))
        assert last.getcolors() == [(w * h, (255, 255, 255))]  # the reserved slot is blank


# ---------------------------------------------------------------------- found by generated faults
def test_every_token_s_drawing_stays_within_the_token(content: Content) -> None:
    """What a painter draws (its disc or square, letters, icons) keeps inside the
    token's own diameter: nothing is cut off when the token is cut out."""
    for group, diameter, page in painted_alone(context_for(PrintOptions(lang="en"), content)):
        r = diameter / 2
        drawn = page.chars + page.lines + page.rects + page.curves
        assert drawn, group.title
        for o in drawn:
            assert 200 - r - 0.05 <= o["x0"] and o["x1"] <= 200 + r + 0.05, group.title
            assert 200 - r - 0.05 <= o["top"] and o["bottom"] <= 200 + r + 0.05, group.title


def test_each_token_is_drawn_within_its_cut_line_on_the_tokens_pages(content: Content) -> None:
    """On the printed pages every cut line (the thin outline) has its token's drawing
    centred under it, within the margin, and no two tokens overlap."""
    with _pdf(content, sheets=("tokens",), lang="en") as pdf:
        for page in pdf.pages:
            shapes = page.curves + page.rects
            outlines = [o for o in shapes if abs(o["linewidth"] - 0.4) < 0.01
                        and o["stroke"] and not o["fill"]]
            drawn = [o for o in [*shapes, *page.lines] if o not in outlines]
            assert outlines
            for o in outlines:  # the token's shapes inside it, centred on it
                inside = [f for f in drawn if o["x0"] <= (f["x0"] + f["x1"]) / 2 <= o["x1"]
                          and o["top"] <= (f["top"] + f["bottom"]) / 2 <= o["bottom"]]
                assert inside, (page.page_number, o["x0"], o["top"])
                left, right = min(f["x0"] for f in inside), max(f["x1"] for f in inside)
                top, bottom = min(f["top"] for f in inside), max(f["bottom"] for f in inside)
                assert (left + right) / 2 == pytest.approx((o["x0"] + o["x1"]) / 2, abs=0.3)
                assert (top + bottom) / 2 == pytest.approx((o["top"] + o["bottom"]) / 2, abs=0.3)
            boxes = sorted((o["x0"], o["top"], o["x1"], o["bottom"]) for o in outlines)
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    apart = (a[2] <= b[0] + 0.01 or b[2] <= a[0] + 0.01
                             or a[3] <= b[1] + 0.01 or b[3] <= a[1] + 0.01)
                    assert apart, (page.page_number, a, b)
                assert a[0] >= MARGIN and page.width - a[2] >= MARGIN
                assert a[1] >= MARGIN and page.height - a[3] >= MARGIN


@pytest.mark.parametrize("bleed", [0.0, 1.0, 2.0, 3.0])
def test_a_sheet_title_below_the_cards_keeps_clear_of_the_crop_marks(content: Content,
                                                                    bleed: float) -> None:
    """On A4 the title runs below the cards (with up to 3 mm of bleed): its letters
    at least 1 mm below the marks and the cards' bleed, within the margin without bleed,
    and never nearer the paper's edge than 3 mm."""
    with _pdf(content, sheets=("cards",), paper="a4", lang="en", bleed_mm=bleed) as pdf:
        page = pdf.pages[0]
        lowest_mark = max(m["bottom"] for m in _marks(page))
        lowest_card = max(c["bottom"] for c in _cards(page)) + bleed * MM
        title = [ch for ch in page.chars if ch["top"] > lowest_card - 3 * MM]
        assert title
        assert min(ch["top"] for ch in title) >= max(lowest_mark, lowest_card) + 1 * MM
        assert max(ch["bottom"] for ch in title) <= page.height - (
            MARGIN if bleed == 0 else PRINTABLE)


@pytest.mark.parametrize("modules", [(), ("conditions", "keepers")])
def test_a_token_group_s_title_is_on_the_page_of_its_first_tokens(
        content: Content, modules: tuple[str, ...]) -> None:
    """No group title is left alone at the foot of a tokens page: below the lowest title
    on each page there are tokens (the modules' tokens take the set over three pages)."""
    from reliquary.engine import Settings

    with _pdf(content, sheets=("tokens",), lang="en",
              settings=Settings(modules=modules)) as pdf:
        assert len(pdf.pages) >= (3 if modules else 1)
        for page in pdf.pages:
            outlines = [o for o in page.curves + page.rects if abs(o["linewidth"] - 0.4) < 0.01
                        and o["stroke"] and not o["fill"]]
            titles = [ch for ch in page.chars if not any(
                o["x0"] <= ch["x0"] <= o["x1"] and o["top"] <= ch["top"] <= o["bottom"]
                for o in outlines)]
            assert outlines and titles
            assert max(ch["top"] for ch in titles) < max(o["top"] for o in outlines), (
                page.page_number)


def test_run_on_sheet_pages_are_numbered_from_1(content: Content) -> None:
    """A4 with 3 mm bleed: the card sheets run on over five pages, titled 1/5 … 5/5."""
    with _pdf(content, sheets=("cards", "factions", "table"), lang="en", bleed_mm=3.0) as pdf:
        pages = [squash(page.extract_text()) for page in pdf.pages]
    count = len(pages)
    assert count > 1
    for number, text in enumerate(pages, start=1):
        assert f"·{number}/{count}" in text, (number, text[-80:])


def test_the_tokens_page_title_is_clear_of_the_first_group_s_title(content: Content) -> None:
    with _pdf(content, sheets=("tokens",), lang="en") as pdf:
        page = pdf.pages[0]
        lines: dict[float, list[Any]] = {}
        for ch in page.chars:
            lines.setdefault(round(ch["top"], 1), []).append(ch)
        first, second = sorted(lines)[:2]
        assert max(ch["bottom"] for ch in lines[first]) <= min(ch["top"] for ch in lines[second])
