"""Print and play: card sheets, board, tokens and rulebook drawn from the content data.

>>> options = PrintOptions(sheets=("cards",), paper="letter", lang="en")
>>> render_pdf(make_context(options))[:5]
b'%PDF-'

Needs the ``print`` extra (ReportLab, PyMuPDF, Pillow, markdown-it-py).
"""

from .common import CARD_H, CARD_W, PrintOptions
from .document import SHEETS, PrintError, check, context_for, make_context, render_pdf
from .export import export_png, export_tts, pixel_size

__all__ = [
    "CARD_H",
    "CARD_W",
    "SHEETS",
    "PrintError",
    "PrintOptions",
    "check",
    "context_for",
    "export_png",
    "export_tts",
    "make_context",
    "pixel_size",
    "render_pdf",
]
