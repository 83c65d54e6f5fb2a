"""A PNG card with bleed is the card without bleed with a border around it: cut at the
trim line (the bleed's pixels off each side), it is the same picture as the card
exported without bleed (docs/print.md: "one PNG per card with its bleed"). Issue 31,
sample I: the drawing page made the bleed narrower than the card instead of wider (the
picture then squeezed into the PNG's size) passed every test, which checked only the
PNGs' sizes, names and corner colour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from reliquary.engine import Content
from reliquary.printing import PrintOptions, context_for
from reliquary.printing.export import export_png

# 100 dpi and 2.54 mm of bleed: the bleed is 10 pixels and the card 250 × 350, exactly.
DPI, BLEED_MM, BLEED_PX = 100, 2.54, 10


def pngs(content: Content, folder: Path, bleed_mm: float,
         monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray]:
    from reliquary.printing import export

    faces = export.all_faces
    # a few cards of each deck (and the back) keep the test short
    monkeypatch.setattr(export, "all_faces",
                        lambda ctx: {deck: cards[:2] for deck, cards in faces(ctx).items()})
    paths = export_png(context_for(PrintOptions(lang="en", bleed_mm=bleed_mm), content),
                       folder, dpi=DPI)
    out = []
    for path in paths:
        with Image.open(path) as image:
            out.append(np.asarray(image.convert("RGB"), dtype=np.int16))
    return out


def test_a_png_card_cut_at_its_trim_line_is_the_card_without_bleed(
        content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bled = pngs(content, tmp_path / "bled", BLEED_MM, monkeypatch)
    plain = pngs(content, tmp_path / "plain", 0.0, monkeypatch)
    assert len(bled) == len(plain) >= 5
    for with_bleed, without in zip(bled, plain, strict=True):
        assert with_bleed.shape == (350 + 2 * BLEED_PX, 250 + 2 * BLEED_PX, 3)
        assert without.shape == (350, 250, 3)
        trimmed = with_bleed[BLEED_PX:-BLEED_PX, BLEED_PX:-BLEED_PX]
        difference = np.abs(trimmed - without)
        # the same drawing on the same pixel grid: only anti-aliasing may differ
        assert difference.mean() < 2.0
        assert (difference.max(axis=2) > 64).mean() < 0.005
