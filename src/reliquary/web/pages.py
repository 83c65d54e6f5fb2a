"""The page routes of the play screen beyond the game itself.

- ``GET /spec`` — the engineering rules specification (``RULES.md``, with rule ids),
  kept apart from the player's rules page at ``/rules``.
- ``GET /api/rulebook?lang=en|es`` — the player's rulebook (content data in
  ``reliquary/data/rulebook/{lang}.md``) rendered to HTML for ``/rules``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, JSONResponse
from markdown_it import MarkdownIt

from .schemas import Error

STATIC = Path(str(resources.files("reliquary.web") / "static"))
LANGS = ("en", "es")

router = APIRouter()


@router.get("/spec", include_in_schema=False)
def spec_page() -> FileResponse:
    """The engineering specification page (renders ``/api/rules``)."""
    return FileResponse(STATIC / "spec.html")


@cache
def rulebook_html(lang: str) -> str:
    """The player's rulebook in one language, as HTML."""
    path = resources.files("reliquary.data") / "rulebook" / f"{lang}.md"
    text = path.read_text(encoding="utf-8")
    return str(MarkdownIt("commonmark").enable("table").render(text))


@router.get("/api/rulebook", responses={400: {"model": Error, "description": "unknown lang"}})
def rulebook(lang: Annotated[str, Query(max_length=8)] = "en") -> JSONResponse:
    """The player's rulebook in English or Spanish."""
    if lang not in LANGS:
        return JSONResponse({"error": f"lang must be one of {', '.join(LANGS)}, not {lang!r}",
                             "code": "bad_request"}, status_code=400)
    return JSONResponse({"lang": lang, "html": rulebook_html(lang)})
