"""Everything printed stays on the paper on every page but the board's tiles (which a
player trims and joins), on both papers, with bleed, and with the rule modules' sheets
(issue 31: a tokens title drawn off the page passed every print test). docs/print.md:
drawings keep the 5 mm margin that printers reach; text keeps at least 3 mm, the
nearest that anything printed comes to the edge (Letter's sheet title runs up the side
margin); the tokens pages' title is centred."""

from __future__ import annotations

import io
from typing import Any

import pdfplumber
import pytest

from reliquary.engine import Content, Settings
from reliquary.printing import PrintOptions, context_for, render_pdf

from .conftest import CROP_WIDTH, MM

MARGIN = 5 * MM
PRINTABLE = 3 * MM
NOT_THE_BOARD = ("cards", "factions", "table", "tokens", "rules")


@pytest.mark.parametrize("options", [
    {"paper": "a4", "lang": "en"},
    {"paper": "letter", "lang": "es"},
    {"paper": "a4", "lang": "en", "bleed_mm": 3.0},
    {"paper": "letter", "lang": "en", "settings": Settings(modules=("conditions", "keepers",
                                                                     "glory"))},
], ids=["a4", "letter", "a4-bleed", "letter-modules"])
def test_everything_printed_stays_within_the_margin(content: Content,
                                                    options: dict[str, Any]) -> None:
    ctx = context_for(PrintOptions(sheets=NOT_THE_BOARD, **options), content)
    with pdfplumber.open(io.BytesIO(render_pdf(ctx))) as pdf:
        assert len(pdf.pages) >= 5
        for page in pdf.pages:
            width, height = page.width, page.height
            drawn = [*page.rects, *page.curves,
                     *(line for line in page.lines if abs(line["linewidth"] - CROP_WIDTH) > 0.01)]
            for things, room in ((page.chars, PRINTABLE), (drawn, MARGIN - 0.01)):
                for o in things:
                    assert min(o["x0"], o["top"]) >= room, (page.page_number, o.get("text"), o)
                    assert width - o["x1"] >= room, (page.page_number, o.get("text"), o["x1"])
                    assert height - o["bottom"] >= room, (page.page_number, o.get("text"))
            if "TOKENS" in (page.extract_text() or ""):
                top = min(ch["top"] for ch in page.chars)
                title = [ch for ch in page.chars if abs(ch["top"] - top) < 1]
                middle = (min(ch["x0"] for ch in title) + max(ch["x1"] for ch in title)) / 2
                assert middle == pytest.approx(width / 2, abs=1 * MM), page.page_number
