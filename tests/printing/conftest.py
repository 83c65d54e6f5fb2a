"""Fixtures of the print tests: print sets made once per session through the CLI, and
helpers that read card rectangles, crop marks and text back with pdfplumber."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from click.testing import CliRunner

from reliquary.cli.main import cli

MM = 72 / 25.4  # points per millimetre
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
CROP_WIDTH = 0.3  # the crop marks' line width (reliquary.printing.sheets.CROP_WIDTH)


def run_print(*args: str) -> Any:
    """``reliquary print ARGS`` in-process; returns click's result."""
    return CliRunner().invoke(cli, ["print", *args], catch_exceptions=False)


def painted_alone(ctx: Any) -> Iterator[tuple[Any, float, Any]]:
    """Each kind of token painted alone, centred at (200, 200) on a page of its own:
    (its group, its diameter, the page read back by pdfplumber)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from reliquary.printing.tokens import token_groups

    for group in token_groups(ctx):
        for painter in dict.fromkeys(group.painters):  # each kind once
            buffer = io.BytesIO()
            canvas = Canvas(buffer, pagesize=(400, 400))
            painter(canvas, 200.0, 200.0, group.diameter)
            canvas.showPage()
            canvas.save()
            with pdfplumber.open(buffer) as pdf:
                yield group, group.diameter, pdf.pages[0]


def squash(text: str) -> str:
    """Text without any whitespace: line wrapping and word spacing no longer matter."""
    return re.sub(r"\s+", "", text)


@dataclass
class Printed:
    """A printed PDF, opened once, with its pages' card rectangles found."""

    path: Path
    pdf: Any

    @property
    def pages(self) -> list[Any]:
        return list(self.pdf.pages)

    def card_rects(self, page: Any) -> list[dict[str, Any]]:
        """Rectangles the size of a card (either way within 0.1 mm)."""
        return [r for r in page.rects
                if abs(r["width"] - CARD_W) <= 0.1 * MM and abs(r["height"] - CARD_H) <= 0.1 * MM]

    def card_pages(self) -> list[Any]:
        return [p for p in self.pages if self.card_rects(p)]

    def card_texts(self) -> list[str]:
        """The squashed text inside each card rectangle, page by page, card by card."""
        texts = []
        for page in self.card_pages():
            for rect in self.card_rects(page):
                box = (rect["x0"], rect["top"], rect["x1"], rect["bottom"])
                texts.append(squash(page.crop(box).extract_text()))
        return texts


def open_printed(path: Path) -> Printed:
    return Printed(path, pdfplumber.open(path))


@pytest.fixture(scope="session")
def print_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("print")


@pytest.fixture(scope="session")
def spanish_a4(print_dir: Path) -> Iterator[Printed]:
    """The whole print set, A4, Spanish, board 8 (the defaults)."""
    out = print_dir / "es-a4.pdf"
    result = run_print("-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    yield printed
    printed.pdf.close()


@pytest.fixture(scope="session")
def english_letter(print_dir: Path) -> Iterator[Printed]:
    """Cards, factions, table cards and the rulebook, Letter, English."""
    out = print_dir / "en-letter.pdf"
    result = run_print("--paper", "letter", "--lang", "en", "--sheets",
                       "cards,factions,table,rules", "-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    yield printed
    printed.pdf.close()
