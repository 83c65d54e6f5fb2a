"""Exports for print shops and virtual tables: one PNG per card, Tabletop Simulator decks.

Both rasterise card faces drawn by :mod:`reliquary.printing.cards` with PyMuPDF, so
the pixels are the same drawing as the PDF's.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pymupdf
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from .cards import Face, draw_back, draw_face, faction_faces, movement_faces, table_faces
from .common import CARD_H, CARD_W, Context
from .fonts import REGULAR

TTS_COLUMNS, TTS_ROWS = 10, 7  # Tabletop Simulator's deck grid; the last slot stays empty


def all_faces(ctx: Context) -> dict[str, list[Face]]:
    """Every card face by deck: movement cards, factions, shared table cards."""
    return {
        "movement": movement_faces(ctx, True) + movement_faces(ctx, False),
        "factions": faction_faces(ctx),
        "table": table_faces(ctx),
    }


def pixel_size(length_mm: float, dpi: int) -> int:
    """A length in millimetres as whole pixels at ``dpi``."""
    return round(length_mm / 25.4 * dpi)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def _faces_pdf(ctx: Context, faces: list[Face | None]) -> bytes:
    """One page per face (``None``: the card back), each the card plus its bleed."""
    bleed = ctx.bleed
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(CARD_W + 2 * bleed, CARD_H + 2 * bleed), initialFontName=REGULAR)
    for face in faces:
        if face is None:
            draw_back(ctx, c, bleed, bleed)
        else:
            draw_face(ctx, c, face, bleed, bleed)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _rasterise(pdf: bytes, width_px: int, height_px: int) -> list[Image.Image]:
    """Each page of ``pdf`` as an RGB image of exactly ``width_px`` × ``height_px``."""
    images = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:  # type: ignore[no-untyped-call]
        for page in doc:
            matrix = pymupdf.Matrix(  # type: ignore[no-untyped-call]
                width_px / page.rect.width, height_px / page.rect.height)
            pix = page.get_pixmap(matrix=matrix, alpha=False)
            image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
            if image.size != (width_px, height_px):  # rounding at the page edge
                image = image.crop((0, 0, width_px, height_px))
            images.append(image)
    return images


def export_png(ctx: Context, folder: str | Path, dpi: int) -> list[Path]:
    """One PNG per card with its bleed, ``(63.5 + 2 × bleed) mm`` wide at ``dpi``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    b = ctx.options.bleed_mm
    size = (pixel_size(63.5 + 2 * b, dpi), pixel_size(88.9 + 2 * b, dpi))
    faces = [face for deck in all_faces(ctx).values() for face in deck]
    images = _rasterise(_faces_pdf(ctx, [*faces, None]), *size)
    paths = []
    for number, (face, image) in enumerate(zip([*faces, None], images, strict=True), 1):
        name = f"{number:02d}-{face.kind}-{_slug(face.key)}" if face else f"{number:02d}-back"
        path = out / f"{name}.png"
        image.save(path, dpi=(dpi, dpi))
        paths.append(path)
    return paths


def export_tts(ctx: Context, folder: str | Path, dpi: int = 150) -> list[Path]:
    """Tabletop Simulator deck sheets: 10 × 7 face grids per deck, a back, and ``tts.json``.

    In Tabletop Simulator: Objects → Components → Custom → Deck; face = a
    ``deck-*.png``, back = ``back.png``, width 10, height 7, number = the deck's count
    from ``tts.json``.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    size = (pixel_size(63.5, dpi), pixel_size(88.9, dpi))
    plain = Context(replace(ctx.options, bleed_mm=0.0), ctx.content, ctx.help, ctx.content_dir)
    per_sheet = TTS_COLUMNS * TTS_ROWS - 1
    paths: list[Path] = []
    decks = []
    back = _rasterise(_faces_pdf(plain, [None]), *size)[0]
    back_path = out / "back.png"
    back.save(back_path)
    paths.append(back_path)
    for deck, faces in all_faces(plain).items():
        images = _rasterise(_faces_pdf(plain, list(faces)), *size)
        for part, start in enumerate(range(0, len(faces), per_sheet), start=1):
            chunk = images[start:start + per_sheet]
            sheet = Image.new("RGB", (TTS_COLUMNS * size[0], TTS_ROWS * size[1]), "white")
            for i, image in enumerate(chunk):
                sheet.paste(image, ((i % TTS_COLUMNS) * size[0], (i // TTS_COLUMNS) * size[1]))
            suffix = f"-{part}" if len(faces) > per_sheet else ""
            path = out / f"deck-{deck}{suffix}.png"
            sheet.save(path)
            paths.append(path)
            decks.append({"name": f"{deck}{suffix}", "face": path.name, "back": back_path.name,
                          "width": TTS_COLUMNS, "height": TTS_ROWS, "count": len(chunk),
                          "cards": [f.name for f in faces[start:start + per_sheet]]})
    index = out / "tts.json"
    index.write_text(json.dumps({"card_mm": [63.5, 88.9], "card_px": list(size),
                                 "decks": decks}, ensure_ascii=False, indent=2),
                     encoding="utf-8")
    paths.append(index)
    return paths


__all__ = ["all_faces", "export_png", "export_tts", "pixel_size"]
