"""``GET /print.pdf?paper=a4|letter&lang=es|en``: the print-and-play PDF, for the rules page.

Each variant is drawn once per process (ReportLab in a worker thread, never on the
event loop) and then served from memory.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ..content import default_content
from ..engine import Content
from .errors import clip

PAPERS = ("a4", "letter")
LANGS = ("es", "en")

router = APIRouter()
_cache: dict[tuple[str, str, str], bytes] = {}
_lock = threading.Lock()  # one drawing at a time: a second request for it waits, then reads


def print_pdf_bytes(content: Content, paper: str, lang: str) -> bytes:
    """The whole print set for one variant, drawn on first use and kept (blocking)."""
    key = (content.fingerprint, paper, lang)
    cached = _cache.get(key)
    if cached is not None:  # the usual case: no waiting behind another variant's drawing
        return cached
    with _lock:
        if key not in _cache:
            from ..printing import PrintOptions, context_for, render_pdf

            ctx = context_for(PrintOptions(paper=paper, lang=lang), content)
            _cache[key] = render_pdf(ctx)
        return _cache[key]


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": "bad_request" if status == 400
                         else "unavailable"}, status_code=status)


@router.get("/print.pdf", include_in_schema=False)
async def print_pdf(request: Request, paper: str = "a4", lang: str = "es") -> Any:
    """The print-and-play set (cards, board 8×8, tokens, rulebook) as a PDF download."""
    if paper not in PAPERS:
        return _error(f"paper must be one of {', '.join(PAPERS)}, not {clip(paper, 20)}")
    if lang not in LANGS:
        return _error(f"lang must be one of {', '.join(LANGS)}, not {clip(lang, 20)}")
    manager = getattr(request.app.state, "manager", None)
    content = getattr(manager, "content", None) or default_content()
    try:
        pdf = await run_in_threadpool(print_pdf_bytes, content, paper, lang)
    except ImportError as err:
        return _error(f"printing is not installed on this server (the 'print' extra): {err}",
                      503)
    return Response(pdf, media_type="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="reliquary-{lang}-{paper}.pdf"',
        "Cache-Control": "public, max-age=3600",
    })
