"""The ASGI app: a JSON HTTP API, a WebSocket per game, and the static front end.

The API is documented in docs/web.md and in the OpenAPI schema (``/openapi.json``):
every request body is a pydantic model (:mod:`reliquary.web.schemas`) and every route
lists the refusals it can answer. A refusal is ``{"error": message, "code": code}``
with a 4xx status (503 ``busy`` when the database is); nothing changes on a refusal.
:class:`reliquary.web.guard.Guard` applies the limits (body size, JSON depth, rate
limits, WebSocket caps), the JSON-only rule for state-changing requests and the
security headers before a request reaches a route.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..ai import LEVELS
from ..content import default_content
from ..engine import Content
from .ai_pool import AIPool
from .capacity import Capacity, serve_socket
from .capacity import install as install_capacity
from .clock import Clocks
from .db import Store
from .errors import WebError
from .fast import FastDecide
from .games import Session, new_session, settings_from, view_json
from .guard import CREATES, Guard, Limits, allowed_origins, client_key
from .live import LiveHub, revision_probe
from .manager import Manager
from .pages import router as pages_router
from .preview import router as preview_router
from .print_routes import router as print_router
from .schemas import Claim, Decide, Error, Join, NewGame, Record, Rematch, Resign, Undo
from .text import names_of

STATIC = Path(str(resources.files("reliquary.web") / "static"))
DEFAULT_DB = "sqlite:///reliquary.sqlite3"
log = logging.getLogger(__name__)
#: The ``t`` query parameter: a seat token (none: a spectator).
SeatToken = Annotated[str | None, Query(max_length=64, description="a seat token")]
At = Annotated[int | None, Query(ge=0, le=1_000_000, description="decisions to replay")]


def create_app(db_url: str | None = None, ai_delay: float | None = None,
               content: Content | None = None, limits: Limits | None = None) -> FastAPI:
    """The app on a database URL (SQLite file by default, or PostgreSQL).

    ``limits`` defaults to :meth:`Limits.from_env` (``RELIQUARY_*`` variables)."""
    url = db_url or os.environ.get("RELIQUARY_DB") or DEFAULT_DB
    delay = ai_delay if ai_delay is not None else float(os.environ.get("RELIQUARY_AI_DELAY",
                                                                      "0.25"))
    content = content or default_content()
    limits = limits or Limits.from_env()
    store = Store(url)
    pool = AIPool(content)
    hub = LiveHub(url, probe=revision_probe(store.engine))
    clocks = Clocks(store.engine)
    manager = Manager(store, content, ai_delay=delay,
                      expire_after=limits.expire_after_s or None,
                      lobby_per_client=limits.lobby_per_client,
                      ai=pool, live=hub, clocks=clocks)
    capacity = Capacity(manager, pool, hub, clocks, limits)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Resuming and expiring run beside serving: a slow or broken game never holds
        # up the start.
        background = [asyncio.create_task(manager.resume_all()),
                      asyncio.create_task(expire_regularly(manager, limits.expire_after_s))]
        async with capacity.running():  # AI pool, live updates, clocks; quick stop
            yield
        for task in [*background, *manager.driver.tasks.values()]:
            task.cancel()

    app = FastAPI(title="Reliquary", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.limits = limits
    app.state.capacity = capacity
    install_capacity(app, capacity)  # /api/health, the hint, 503 busy
    app.add_middleware(FastDecide, manager=manager)  # inside Guard: its checks first
    app.add_middleware(Guard, limits=limits, takes_post=posts_of(app),
                       origins=allowed_origins())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(preview_router)  # read-only looks ahead: preview, events
    app.include_router(pages_router)  # /spec, /api/rulebook
    app.include_router(print_router)  # /print.pdf, the print-and-play set

    @app.exception_handler(WebError)
    async def web_error(_request: Request, err: WebError) -> JSONResponse:
        wait = err.extra.get("retry_after")
        return JSONResponse(err.body(), status_code=err.status,
                            headers={"Retry-After": str(wait)} if wait else None)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": validation_message(err), "code": "bad_request"},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> Response:
        if err.status_code == 404 and not request.url.path.startswith("/api/"):
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        code = {404: "not_found", 405: "bad_request"}.get(err.status_code, "bad_request")
        message = ("no such API route" if err.status_code == 404
                   else f"{request.method} is not allowed here" if err.status_code == 405
                   else str(err.detail))
        return JSONResponse({"error": message, "code": code}, status_code=err.status_code,
                            headers=dict(err.headers or {}))

    # ------------------------------------------------------------------ pages
    for route in ("/", "/g/{game_id}", "/replay/{game_id}"):
        app.add_api_route(route, lambda: FileResponse(STATIC / "index.html"),
                          include_in_schema=False)

    @app.get("/rules", include_in_schema=False)
    def rules_page() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @app.get("/api/rules")
    def rules() -> dict[str, str]:
        return {"html": rules_html()}

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        return meta_of(content)

    # ------------------------------------------------------------------ games
    @app.post("/api/games", status_code=201, responses=refusals(400, 413, 415, 429))
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """A new game: against the AI, hot-seat, or online (with an invite link)."""
        try:
            settings = settings_from(body.settings(), content)
        except ValueError as err:
            raise WebError(400, str(err)) from None
        return await manager.acreate(body.mode, settings, level=body.level or next(iter(LEVELS)),
                              seat=body.seat, quick=body.quick, faction=body.faction,
                              public=body.public, host=client_key(request.scope),
                              clock=body.clock.model_dump() if body.clock else None)

    @app.get("/api/lobby")
    async def lobby() -> dict[str, Any]:
        """Public online games waiting for a second player."""
        return {"games": await manager.lobby()}

    @app.get("/api/games/{game_id}", responses=refusals(400, 403, 404, 410, 503))
    async def get_game(game_id: str, t: SeatToken = None) -> Response:
        """The game as the seat of token ``t`` sees it (no token: as a spectator)."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        manager.driver.kick(game_id)  # an AI turn left over (another process, a failure) goes on
        return answer(manager, session, seats, t)

    @app.post("/api/games/{game_id}/decide",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 422, 503))
    async def decide(game_id: str, body: Decide) -> Response:
        """One decision, answering the view at revision ``rev``."""
        session = await manager.decide(game_id, body.token, body.rev, body.option)
        return answer(manager, session, session.seats_of(body.token) or frozenset(), body.token)

    @app.post("/api/games/{game_id}/undo",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def undo(game_id: str, body: Undo) -> Response:
        """Take back the last turn (against the AI: with the AI's reply)."""
        session = await manager.undo(game_id, body.token, body.rev)
        return answer(manager, session, session.seats_of(body.token) or frozenset(), body.token)

    @app.post("/api/games/{game_id}/resign",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def resign(game_id: str, body: Resign) -> Response:
        """Resign: the game ends, lost by the token's seat (result reason ``resign``,
        recorded). 403 for a spectator's or a foreign token; 409 ``game_over`` for a
        finished game, ``stale`` for an old ``rev``."""
        session = await manager.resign(game_id, body.token, body.rev)
        return answer(manager, session, session.seats_of(body.token) or frozenset(), body.token)

    @app.post("/api/games/{game_id}/claim",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def claim(game_id: str, body: Claim) -> dict[str, Any]:
        """The guest's first visit: the invite becomes the guest's own seat token."""
        return await manager.claim(game_id, body.invite)

    @app.post("/api/games/{game_id}/join",
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def join(game_id: str, _body: Join) -> dict[str, Any]:
        """Take the open seat of a public game (from the lobby)."""
        return await manager.claim(game_id, None)

    @app.post("/api/games/{game_id}/rematch", status_code=201,
              responses=refusals(400, 403, 404, 409, 410, 413, 415, 429, 503))
    async def rematch(game_id: str, body: Rematch) -> dict[str, Any]:
        """A new game with the same settings after a finished one."""
        return await manager.rematch(game_id, body.token)

    @app.get("/api/games/{game_id}/record", responses=refusals(403, 404, 410, 503))
    async def record(game_id: str) -> Response:
        """The game record (the engine's format), as a download."""
        session = await manager.asession(game_id)
        if any(f is not None for f in session.state.secret_faction):
            raise WebError(403, "a faction is being chosen in secret: the record is "
                                "available once both are revealed")
        # A finished game's record is read-only: encoded off the event loop.
        body = await asyncio.to_thread(lambda: json.dumps(session.game.record(), indent=1))
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="reliquary-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay", responses=refusals(400, 403, 404, 410, 503))
    async def replay_at(game_id: str, at: At = None) -> dict[str, Any]:
        """A finished game after its first ``at`` decisions (all of them by default)."""
        session = await manager.asession(game_id)
        if session.row.mode != "replay" and not session.state.is_terminal:
            raise WebError(403, "a game can be replayed once it is over")
        tokens = [e.token for e in session.game.history]
        total = len(tokens)
        at = total if at is None else at
        if not 0 <= at <= total:
            raise WebError(400, f"'at' must be from 0 to {total}, not {at}")
        return await asyncio.to_thread(replay_view, manager, session, tokens, at)

    @app.post("/api/records", status_code=201, responses=refusals(400, 413, 415, 429))
    async def load_record(body: Record) -> dict[str, Any]:
        """A finished game's record to replay (checked decision by decision)."""
        return await manager.load_record(body.model_dump())

    # ------------------------------------------------------------------ live updates
    @app.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str) -> None:
        # Ends when the client goes away, idles, or the server stops (reliquary.web.live).
        await serve_socket(capacity, socket, game_id)

    document_refusals(app)
    return app


def replay_view(manager: Manager, session: Session, tokens: list[str], at: int
                ) -> dict[str, Any]:
    """A finished game's view after its first ``at`` decisions (``tokens``: all of
    them). Replaying takes milliseconds a hundred decisions, so it runs in a thread: the
    game is over, nothing changes it meanwhile."""
    past = new_session(session.row, manager.content, tokens[:at])
    out = manager.view(past, frozenset(), upto=at)
    out["total"] = len(tokens)
    out["at"] = at
    out["final_result_text"] = manager.view(session, frozenset())["result_text"]
    return out


def posts_of(app: FastAPI) -> Callable[[str], bool]:
    """Whether a path is one of the app's POST routes (read from its routes when first
    asked: the middleware is built after they are all added)."""
    patterns: list[re.Pattern[str]] = []

    def takes_post(path: str) -> bool:
        if not patterns:
            patterns.extend(route.path_regex for route in app.routes
                            if isinstance(route, APIRoute) and "POST" in (route.methods or ()))
        return any(pattern.match(path) for pattern in patterns)

    return takes_post


def answer(manager: Manager, session: Session, seats: frozenset[int], token: str | None
           ) -> Response:
    """A game's view as the answer, encoded here: FastAPI's response validation of a
    dict this size, and encoding the whole log again, were most of a decision's cost."""
    return Response(view_json(session, manager.view(session, seats, token=token)),
                    media_type="application/json")


#: What each refusal status means, for the OpenAPI schema.
REFUSALS = {
    400: "bad request: malformed JSON, a missing or wrong field, bad settings, JSON "
         "nested too deep (code bad_request)",
    403: "a token of no seat of this game, a spectator acting, a private game without "
         "its invite, a secret not yet revealed (code forbidden)",
    404: "no such game (code not_found)",
    409: "stale revision (code stale, with the current rev), not your turn "
         "(not_your_turn), the game is over (game_over: a decision, undo or resignation "
         "in a finished game), undo refused (undo_refused), "
         "invite already used (invite_used)",
    410: "the game expired or was quarantined because it does not load (code gone)",
    413: "the request body is too large (code too_large)",
    415: "the request is not application/json (code unsupported_media_type)",
    422: "an option that is not legal now (code illegal_option)",
    429: "too many new games from this client (code rate_limited; Retry-After)",
    503: "the database is busy: nothing was done, try again (code busy)",
}
NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · Reliquary</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main class="not-found"><h1>Page not found</h1>
<p>There is no page at this address. · No hay ninguna página en esta dirección.</p>
<p><a href="/">Reliquary: new game · partida nueva</a></p></main></body></html>
"""


def document_refusals(app: FastAPI) -> None:
    """Make the OpenAPI schema list, on every API operation, the refusals that shared
    code answers for it: 400 (a bad parameter or body: the validation handler),
    403/404/410/503 on a game's routes (its token, the store), 413/415 on POSTs and 429
    on creations (:class:`Guard`), all in the error format. FastAPI's default 422
    (never answered for validation here) is documented in the error format too."""
    build = app.openapi
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = \
            Error.model_json_schema(ref_template="#/components/schemas/{model}")
        for path, operations in schema.get("paths", {}).items():
            if not path.startswith("/api/"):
                continue
            for method, operation in operations.items():
                statuses = {400, 422}
                if "{game_id}" in path:
                    statuses |= {403, 404, 410, 503}
                if method == "post":
                    statuses |= {413, 415}
                if CREATES.match(path):
                    statuses.add(429)
                answers = operation.setdefault("responses", {})
                for status in sorted(statuses):
                    answer = answers.setdefault(str(status),
                                                {"description": REFUSALS[status]})
                    documented = json.dumps(answer.get("content", {}))
                    if "content" not in answer or "HTTPValidationError" in documented:
                        answer["content"] = error
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route: the refusals it can answer, in the error format."""
    return {status: {"model": Error, "description": REFUSALS[status]} for status in statuses}


def validation_message(err: RequestValidationError) -> str:
    """A refused body or parameter in words: which field, what is wrong (never the
    value sent, which may be huge)."""
    parts = []
    for problem in err.errors()[:3]:
        loc = [str(x) for x in problem.get("loc", ())]
        kind = problem.get("type", "")
        if kind == "json_invalid":
            parts.append("malformed JSON in the request body")
            continue
        if loc and loc[0] in ("body", "query", "path"):
            where = "request body" if len(loc) == 1 else \
                ("field " if loc[0] == "body" else f"{loc[0]} parameter ") + repr(".".join(loc[1:]))
        else:
            where = ".".join(loc) or "request"
        if loc == ["body"] and kind in ("model_attributes_type", "dict_type", "model_type"):
            parts.append("the request body must be a JSON object")
        elif kind == "missing":
            parts.append(f"missing {where}")
        elif kind == "extra_forbidden":
            parts.append(f"unknown {where}")
        else:
            parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    more = len(err.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


async def expire_regularly(manager: Manager, after_s: float) -> None:
    """Mark unfinished games untouched for ``after_s`` seconds expired, now and then."""
    if not after_s:
        return
    while True:
        try:
            count = await asyncio.to_thread(manager.store.expire, time.time() - after_s)
            if count:
                log.info("%d untouched unfinished games expired", count)
        except Exception:  # a busy database: next time
            log.warning("expiring untouched games failed", exc_info=True)
        await asyncio.sleep(min(max(after_s / 4, 1.0), 3600.0))


@cache
def rules_html() -> str:
    text = (resources.files("reliquary.data") / "RULES.md").read_text(encoding="utf-8")
    return str(MarkdownIt("commonmark").enable("table").render(text))


def meta_of(content: Content) -> dict[str, Any]:
    """The content a front end draws: cards, factions, rites, boards, AI levels."""
    cards = []
    for card in content.cards:
        attack = card.attack
        text = ({"en": "Faction attack", "es": "Ataque de facción"} if attack == "faction"
                else {"en": attack.text.en, "es": attack.text.es or attack.text.en})
        cards.append({"id": card.id, "seal": card.seal, "escort": card.escort,
                      "diagram": [list(d) for d in card.diagram], "generic": card.generic,
                      "attack": text, "provisional": card.provisional})
    names = names_of(content)  # each language's names: help_cards.toml's [names]
    return {
        "cards": cards,
        "factions": [{"id": f.id, "name": f.name, "names": names["factions"][f.id],
                      "hero_hp": f.hero_hp, "passive": f.passive,
                      "text": {"en": f.text.en, "es": f.text.es or f.text.en}}
                     for f in content.factions],
        "rites": [{"id": r.id, "names": names["rites"][r.id],
                   "text": {"en": r.text.en, "es": r.text.es or r.text.en}}
                  for r in content.rites],
        "sizes": list(content.sizes),
        "levels": list(LEVELS),
    }
