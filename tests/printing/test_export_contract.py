"""The exports' contract, value by value (issue 31, by class: the PNG and Tabletop
Simulator exports were read by their images, and their smaller pieces in part). From
docs/print.md ("For print shops and virtual tables") and the module's docstrings:

- the decks in order: the movement cards (generic, then unique), the factions, the
  table cards; each card face drawn on a page of its own, the card plus its bleed, the
  face (or the back) placed at the bleed; every font the drawing uses embedded, none
  referenced (docs/print.md: "no standard (non-embedded) font is referenced");
- a folder that does not exist yet is made, parents and all, and one that exists is
  written into: for the PNGs and for the decks;
- a PNG's name: its number (two digits), the card's kind and its name in lowercase
  letters and digits joined by single dashes (``card`` when nothing is left);
- the decks: 69 cards a sheet (the 70th slot is Tabletop Simulator's), a deck of more
  split into numbered sheets (``-1``, ``-2`` ...), only then; the paths written in
  order (the back, each deck's sheets, ``tts.json``); ``tts.json`` readable (indented,
  the names as written, in UTF-8).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for, export
from reliquary.printing.cards import faction_faces, movement_faces, table_faces
from reliquary.printing.export import _faces_pdf, _slug, all_faces, export_png, export_tts

MM = 72 / 25.4
DPI = 12  # tiny images: these tests read names, folders and indexes


def test_the_decks_in_order(content: Content) -> None:
    ctx = context_for(PrintOptions(lang="en"), content)
    decks = all_faces(ctx)
    assert list(decks) == ["movement", "factions", "table"]
    names = [f.name for f in decks["movement"]]
    assert names == [f.name for f in movement_faces(ctx, True) + movement_faces(ctx, False)]
    assert names == [c.id for c in content.cards if c.generic] + [
        c.id for c in content.cards if not c.generic]
    assert [f.name for f in decks["factions"]] == [f.name for f in faction_faces(ctx)]
    assert [f.name for f in decks["table"]] == [f.name for f in table_faces(ctx)]
    assert [len(d) for d in decks.values()] == [18, 9, 9]


@pytest.mark.parametrize(("name", "slug"), [
    ("Pilgrim", "pilgrim"), ("Pyre Choir", "pyre-choir"), ("bone-wardens", "bone-wardens"),
    ("  Gallows -- Court!  ", "gallows-court"), ("Preparación y escala", "preparaci-n-y-escala"),
    ("Ritos 2", "ritos-2"), ("¡¿?!", "card"), ("", "card"), ("--", "card")])
def test_a_png_s_name_from_its_card(name: str, slug: str) -> None:
    assert _slug(name) == slug


@pytest.mark.parametrize("bleed_mm", [0.0, 2.0])
def test_each_face_on_a_page_of_its_own_at_the_bleed(content: Content,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     bleed_mm: float) -> None:
    ctx = context_for(PrintOptions(lang="en", bleed_mm=bleed_mm), content)
    faces = all_faces(ctx)["factions"][:2]
    placed: list[tuple[Any, ...]] = []
    real_face, real_back = export.draw_face, export.draw_back

    def face(ctx: Any, c: Any, f: Any, x: float, y: float) -> None:
        placed.append((f.name, x, y, c.getPageNumber()))
        real_face(ctx, c, f, x, y)

    def back(ctx: Any, c: Any, x: float, y: float) -> None:
        placed.append(("back", x, y, c.getPageNumber()))
        real_back(ctx, c, x, y)

    monkeypatch.setattr(export, "draw_face", face)
    monkeypatch.setattr(export, "draw_back", back)
    pdf = _faces_pdf(ctx, [faces[0], None, faces[1]])
    b = bleed_mm * MM
    assert placed == [(faces[0].name, pytest.approx(b), pytest.approx(b), 1),
                      ("back", pytest.approx(b), pytest.approx(b), 2),
                      (faces[1].name, pytest.approx(b), pytest.approx(b), 3)]
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 3
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx((63.5 + 2 * bleed_mm) * MM, abs=1e-3)
        assert float(box.height) == pytest.approx((88.9 + 2 * bleed_mm) * MM, abs=1e-3)
    raw = pdf.decode("latin-1")
    assert "Helvetica" not in raw and "Times" not in raw and "Courier" not in raw
    assert "DejaVu" in raw


def _one_card(monkeypatch: pytest.MonkeyPatch, count: int = 1) -> None:
    faces = export.all_faces
    monkeypatch.setattr(export, "all_faces",
                        lambda ctx: {"movement": (faces(ctx)["movement"] * 10)[:count]})


def test_the_pngs_go_into_a_new_folder_and_an_existing_one(
        content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _one_card(monkeypatch)
    ctx = context_for(PrintOptions(lang="en"), content)
    folder = tmp_path / "new" / "deeper" / "png"
    first = export_png(ctx, folder, DPI)
    assert [p.name for p in first] == ["01-generic-pilgrim.png", "02-back.png"]
    assert all(p.parent == folder and p.is_file() for p in first)
    again = export_png(ctx, str(folder), DPI)  # written again into the folder made
    assert again == first


def test_the_decks_go_into_a_new_folder_and_an_existing_one(
        content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _one_card(monkeypatch)
    ctx = context_for(PrintOptions(lang="en"), content)
    folder = tmp_path / "new" / "deeper" / "tts"
    first = export_tts(ctx, folder, DPI)
    assert [p.name for p in first] == ["back.png", "deck-movement.png", "tts.json"]
    assert all(p.parent == folder and p.is_file() for p in first)
    assert export_tts(ctx, str(folder), DPI) == first


@pytest.mark.parametrize(("count", "sheets"), [
    (69, [69]), (70, [69, 1]), (138, [69, 69]), (139, [69, 69, 1])])
def test_a_deck_takes_69_cards_a_sheet(content: Content, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch, count: int,
                                       sheets: list[int]) -> None:
    _one_card(monkeypatch, count)
    ctx = context_for(PrintOptions(lang="en"), content)
    paths = export_tts(ctx, tmp_path, 2)
    names = [f"deck-movement-{k}.png" for k in range(1, len(sheets) + 1)] if len(sheets) > 1 \
        else ["deck-movement.png"]
    assert [p.name for p in paths] == ["back.png", *names, "tts.json"]
    index = json.loads((tmp_path / "tts.json").read_text(encoding="utf-8"))
    decks = index["decks"]
    assert [d["count"] for d in decks] == sheets
    assert [d["face"] for d in decks] == names
    assert [d["name"] for d in decks] == [n[len("deck-"):-len(".png")] for n in names]
    cards = [f.name for f in export.all_faces(ctx)["movement"]]  # the deck given
    assert len(cards) == count
    start = 0
    for deck, n in zip(decks, sheets, strict=True):
        assert deck["cards"] == cards[start:start + n]
        start += n


def test_tts_json_is_readable_utf_8(content: Content, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    faces = export.all_faces
    monkeypatch.setattr(export, "all_faces", lambda ctx: {"table": faces(ctx)["table"][:2]})
    export_tts(context_for(PrintOptions(lang="es"), content), tmp_path, DPI)
    raw = (tmp_path / "tts.json").read_bytes()
    text = raw.decode("utf-8")
    assert "Preparación y escala" in text  # as written, not \\u00f3
    index = json.loads(text)
    assert index["decks"][0]["cards"][0] == "Preparación y escala"
    assert text == json.dumps(index, ensure_ascii=False, indent=2)
