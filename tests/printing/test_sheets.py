"""Card sheets I–IV: page sizes, nine exact cards per page inside the margins, crop
marks outside the cards, every text from the content in the chosen language, fonts."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from reliquary.cardtext import attack_text, load_wording
from reliquary.content import load_help_cards
from reliquary.engine import Content

from .conftest import CARD_H, CARD_W, CROP_WIDTH, MM, Printed, squash

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def _printed(request: pytest.FixtureRequest, which: str) -> Printed:
    return request.getfixturevalue({"a4": "spanish_a4", "letter": "english_letter"}[which])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_pages_have_the_paper_size_and_nine_exact_cards(
        request: pytest.FixtureRequest, paper: str) -> None:
    printed = _printed(request, paper)
    card_pages = printed.card_pages()
    assert len(card_pages) == 4  # sheets I–IV: 9 + 9 + 9 + 9 cards
    width, height = PAPER_MM[paper]
    for page in card_pages:
        assert abs(page.width / MM - width) < 0.05 and abs(page.height / MM - height) < 0.05
        cards = printed.card_rects(page)
        assert len(cards) == 9
        for card in cards:
            assert abs(card["width"] - CARD_W) <= 0.1 * MM
            assert abs(card["height"] - CARD_H) <= 0.1 * MM
            assert card["x0"] >= 5 * MM and card["top"] >= 5 * MM
            assert page.width - card["x1"] >= 5 * MM and page.height - card["bottom"] >= 5 * MM
        # Nine distinct places: no two cards overlap.
        spots = {(round(c["x0"]), round(c["top"])) for c in cards}
        assert len(spots) == 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_lie_outside_the_cards_on_every_cut_line(
        request: pytest.FixtureRequest, paper: str) -> None:
    printed = _printed(request, paper)
    for page in printed.card_pages():
        cards = printed.card_rects(page)
        marks = [ln for ln in page.lines if abs(ln["linewidth"] - CROP_WIDTH) < 0.01]
        assert marks, "no crop marks"
        for mark in marks:
            for card in cards:  # no mark enters a card (touching its edge line is not entering)
                eps = 0.01
                inside_x = card["x0"] + eps < mark["x1"] and mark["x0"] < card["x1"] - eps
                inside_y = card["top"] + eps < mark["bottom"] and mark["top"] < card["bottom"] - eps
                assert not (inside_x and inside_y), (mark["x0"], mark["top"])
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        top_of_cards = min(c["top"] for c in cards)
        bottom_of_cards = max(c["bottom"] for c in cards)
        for card in cards:  # each card edge has a mark above and below the block of cards
            for x in (card["x0"], card["x1"]):
                here = [m for m in vertical if abs(m["x0"] - x) < 0.1 * MM]
                assert any(m["bottom"] <= top_of_cards for m in here)
                assert any(m["top"] >= bottom_of_cards for m in here)
            for y in (card["top"], card["bottom"]):
                assert len([m for m in horizontal if abs(m["top"] - y) < 0.1 * MM]) >= 2


def _card_text_in(texts: list[str], name: str, *parts: str) -> bool:
    return any(squash(name) in t and all(squash(p) in t for p in parts) for t in texts)


@pytest.mark.parametrize(("paper", "lang"), [("a4", "es"), ("letter", "en")])
def test_every_card_name_and_text_is_printed_in_the_language(
        request: pytest.FixtureRequest, content: Content, paper: str, lang: str) -> None:
    printed = _printed(request, paper)
    texts = printed.card_texts()
    helps = load_help_cards()

    def pick(text: object) -> str:
        return str(getattr(text, lang))

    assert len(texts) == 36
    faction_attack = helps.label("faction_attack", lang)
    for card in content.cards:
        if card.attack == "faction":
            assert _card_text_in(texts, card.id, faction_attack), card.id
        else:  # a roll table prints as a table: each part of it, in order
            made = attack_text(load_wording(), lang, card.attack, card.id)
            parts = [part for line in made.lines for part in (
                line.label, line.before, *(p for row in line.rows for p in row),
                line.after.strip(" .")) if part]
            assert made.prose() == pick(card.attack.text)
            assert _card_text_in(texts, card.id, *parts), card.id
    for faction in content.factions:
        assert _card_text_in(texts, faction.name, faction_attack, pick(faction.text)), faction.id
        track = "".join(str(i) for i in range(1, faction.hero_hp + 1))
        assert _card_text_in(texts, faction.name, track)
    for rite in content.rites:
        assert _card_text_in(texts, rite.id, pick(rite.text), helps.label("rite", lang))
    for help_card in helps.card:
        lines = [text.replace("**", "") for text in help_card.texts(lang)]
        assert _card_text_in(texts, pick(help_card.title), *lines), help_card.id
    vigil = next(t for t in texts if squash(helps.label("vigil_die_here", lang)) in t)
    assert "6543210" in vigil  # the Vigil die track


def test_escort_and_provisional_marks_follow_the_data(
        spanish_a4: Printed, content: Content) -> None:
    texts = spanish_a4.card_texts()
    helps = load_help_cards()
    escort = squash(helps.label("escort", "es") + helps.label("escort_text", "es"))
    provisional = squash(helps.label("provisional", "es"))
    for card in content.cards:
        text = next(t for t in texts if t.startswith(squash(card.id)))
        assert (escort in text) == card.escort, card.id
        assert (provisional in text) == card.provisional, card.id
        assert squash(helps.label(card.seal, "es")) in text, card.id


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_titles_are_like_the_seed(request: pytest.FixtureRequest, paper: str) -> None:
    printed = _printed(request, paper)
    # pypdf reads the title also where it runs up the side margin (Letter).
    reader = PdfReader(printed.path)
    text = squash(" ".join(reader.pages[i].extract_text() for i in range(4)))
    if paper == "a4":
        for title in ("HOJA I · LOS 9 MOVIMIENTOS GENÉRICOS", "HOJA II · LOS 9 MOVIMIENTOS ÚNICOS",
                      "HOJA III · LAS 9 FACCIONES · VERTICAL",
                      "HOJA IV · CARTAS DE MESA COMPARTIDAS · 5 AYUDAS, 3 RITOS, 1 CARTA DE "
                      "SELECCIÓN"):
            assert squash(title + " · CORTA POR LAS MARCAS · 63,5 × 88,9 MM") in text
    else:
        assert squash("SHEET I · THE 9 GENERIC MOVEMENT CARDS · CUT ALONG THE MARKS") in text


def test_fonts_are_embedded_and_cover_spanish(spanish_a4: Printed) -> None:
    reader = PdfReader(spanish_a4.path)
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"].get_object().get("/Font", {}).values():
            font = font.get_object()
            fonts[font["/BaseFont"]] = font
    assert fonts
    for name, font in fonts.items():
        descendants = font.get("/DescendantFonts")
        target = descendants[0].get_object() if descendants else font
        descriptor = target.get("/FontDescriptor")
        assert descriptor is not None, f"{name} has no font descriptor: not embedded"
        descriptor = descriptor.get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name
    text = "".join(page.extract_text() for page in spanish_a4.pages)
    for char in "áéñ«»·−×":
        assert char in text, char
