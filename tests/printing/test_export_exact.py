"""The exports by their documented values (docs/print.md, "PNG and Tabletop Simulator"):
each Tabletop Simulator slot holds its own card, in order, without bleed, the rest of
the grid blank; ``tts.json`` whole; the PNG cards' names, order and resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for, export_png, export_tts, pixel_size
from reliquary.printing.export import all_faces

DPI = 24  # small images: the same drawing, quickly


def same_image(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"),
                                                      b.convert("RGB")).getbbox() is None


@pytest.fixture(scope="module")
def tts(content: Content, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Tabletop Simulator export of a print set with 3 mm of bleed (TTS takes none)."""
    folder = tmp_path_factory.mktemp("tts")
    export_tts(context_for(PrintOptions(lang="en", bleed_mm=3.0), content), folder, dpi=DPI)
    return folder


@pytest.fixture(scope="module")
def cards(content: Content, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Each card alone, without bleed, at the same resolution (the PNG export)."""
    folder = tmp_path_factory.mktemp("png")
    return export_png(context_for(PrintOptions(lang="en", bleed_mm=0.0), content), folder,
                      dpi=DPI)


def test_tts_json_lists_every_deck_whole(tts: Path, content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    faces = all_faces(ctx)
    index = json.loads((tts / "tts.json").read_text(encoding="utf-8"))
    size = [pixel_size(63.5, DPI), pixel_size(88.9, DPI)]
    assert index == {"card_mm": [63.5, 88.9], "card_px": size, "decks": [
        {"name": deck, "face": f"deck-{deck}.png", "back": "back.png", "width": 10,
         "height": 7, "count": len(faces[deck]), "cards": [f.name for f in faces[deck]]}
        for deck in ("movement", "factions", "table")]}
    written = sorted(p.name for p in tts.iterdir())
    assert written == sorted(["back.png", "tts.json", "deck-movement.png",
                              "deck-factions.png", "deck-table.png"])


def test_each_tts_slot_holds_its_card_row_by_row_and_the_rest_is_blank(
        tts: Path, cards: list[Path]) -> None:
    w, h = pixel_size(63.5, DPI), pixel_size(88.9, DPI)
    images = [Image.open(p) for p in cards]  # in the decks' order, then the back
    index = json.loads((tts / "tts.json").read_text(encoding="utf-8"))
    start = 0
    for deck in index["decks"]:
        with Image.open(tts / deck["face"]) as sheet:
            assert sheet.size == (10 * w, 7 * h)
            for slot in range(70):
                box = ((slot % 10) * w, (slot // 10) * h, (slot % 10 + 1) * w,
                       (slot // 10 + 1) * h)
                cell = sheet.crop(box)
                if slot < deck["count"]:
                    assert same_image(cell, images[start + slot]), (deck["name"], slot)
                else:
                    assert cell.convert("RGB").getcolors() == [(w * h, (255, 255, 255))]
        start += deck["count"]
    with Image.open(tts / "back.png") as back:
        assert same_image(back, images[-1])
    assert start == len(images) - 1


def test_tts_sheets_are_150_dpi_by_default(content: Content, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from reliquary.printing import export

    faces = export.all_faces
    # one card a deck is enough to see the grid's size
    monkeypatch.setattr(export, "all_faces", lambda ctx: {"movement": faces(ctx)["movement"][:1]})
    export_tts(context_for(PrintOptions(lang="en"), content), tmp_path)
    index = json.loads((tmp_path / "tts.json").read_text(encoding="utf-8"))
    assert index["card_px"] == [375, 525]  # 63.5 × 88.9 mm at 150 dpi
    with Image.open(tmp_path / "deck-movement.png") as sheet:
        assert sheet.size == (3750, 3675)


def test_png_cards_are_numbered_in_deck_order_and_named_after_their_card(
        cards: list[Path], content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    faces = [f for deck in all_faces(ctx).values() for f in deck]
    names = [p.name for p in cards]
    assert len(names) == len(faces) + 1
    assert names[-1] == f"{len(faces) + 1:02d}-back.png"
    for number, (name, face) in enumerate(zip(names, faces, strict=False), start=1):
        assert name.startswith(f"{number:02d}-{face.kind}-"), name
        assert name.endswith(".png")
        slug = name[len(f"{number:02d}-{face.kind}-"):-4]
        assert slug and slug == slug.lower() and "--" not in slug
        assert all(ch.isalnum() or ch == "-" for ch in slug) and not slug.startswith("-")
    assert names[0] == "01-generic-pilgrim.png"  # docs/print.md's example


@pytest.mark.parametrize("dpi", [24, 72])
def test_png_cards_record_their_resolution(content: Content, tmp_path: Path, dpi: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from reliquary.printing import export

    faces = export.all_faces
    monkeypatch.setattr(export, "all_faces", lambda ctx: {"movement": faces(ctx)["movement"][:1]})
    paths = export_png(context_for(PrintOptions(lang="en", bleed_mm=1.0), content), tmp_path,
                       dpi=dpi)
    for path in paths:
        with Image.open(path) as image:
            assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.01)
            assert image.size == (pixel_size(65.5, dpi), pixel_size(90.9, dpi))
