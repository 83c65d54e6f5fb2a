"""PNG cards for print shops and Tabletop Simulator deck sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from reliquary.engine import Content

from .conftest import run_print


def test_png_cards_have_the_size_of_card_plus_bleed(tmp_path: Path, content: Content,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    dpi, bleed = 120, 3.0
    monkeypatch.chdir(tmp_path)
    result = run_print("--png", "png", "--dpi", str(dpi), "--bleed", str(bleed))
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "png").glob("*.png"))
    cards = len(content.cards) + len(content.factions) + len(content.rites) + 6
    assert len(files) == cards + 1  # and the back
    width = round((63.5 + 2 * bleed) / 25.4 * dpi)
    height = round((88.9 + 2 * bleed) / 25.4 * dpi)
    for path in files:
        with Image.open(path) as image:
            assert image.size == (width, height), path.name
    assert not (tmp_path / "reliquary-print.pdf").exists()  # no PDF unless -o is given
    # The bleed carries the card's frame colour: the corner pixel is not white paper.
    with Image.open(files[0]) as image:
        assert image.convert("RGB").getpixel((1, 1)) != (255, 255, 255)


def test_tts_writes_ten_by_seven_deck_sheets_and_a_back(tmp_path: Path,
                                                         content: Content) -> None:
    result = run_print("--tts", str(tmp_path))
    assert result.exit_code == 0, result.output
    index = json.loads((tmp_path / "tts.json").read_text(encoding="utf-8"))
    card_w, card_h = index["card_px"]
    counts = {deck["name"]: deck["count"] for deck in index["decks"]}
    assert counts == {"movement": len(content.cards), "factions": len(content.factions),
                      "table": len(content.rites) + 6}
    for deck in index["decks"]:
        assert (deck["width"], deck["height"]) == (10, 7)
        with Image.open(tmp_path / deck["face"]) as sheet:
            assert sheet.size == (10 * card_w, 7 * card_h)
    with Image.open(tmp_path / "back.png") as back:
        assert back.size == (card_w, card_h)
    movement = next(d for d in index["decks"] if d["name"] == "movement")
    assert movement["cards"] == [c.id for c in content.cards if c.generic] + [
        c.id for c in content.cards if not c.generic]
