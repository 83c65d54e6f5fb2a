"""The fonts the print set embeds: DejaVu Sans, shipped in this package.

DejaVu Sans covers everything the Spanish and English texts need (á é ñ « » · − ×).
ReportLab embeds a subset of each TrueType font it uses, so the PDF depends on no
font installed on the reader's machine. License: ``fonts/LICENSE_DEJAVU``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "ReliquarySans"
BOLD = "ReliquarySans-Bold"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


@cache
def register_fonts() -> None:
    """Register the embedded fonts with ReportLab (once per process)."""
    folder = resources.files("reliquary.printing") / "fonts"
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / filename)))
    # Paragraph markup: <b> switches to the bold face; there is no italic face, so
    # <i> stays upright rather than falling back to a non-embedded standard font.
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
