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
import functools
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..content import default_content
from ..engine import Content
from .ai_pool import AIPool
from .capacity import Capacity
from .capacity import routes as capacity_routes
from .clock import Clocks
from .db import Store
from .errors import WebError
from .fast import FastDecide
from .guard import CREATES, Guard, Limits, allowed_origins
from .live import CHANNEL, LiveHub, revision_probe
from .manager import Manager
from .pages import router as pages_router
from .peek import router as peek_router
from .preview import router as preview_router
from .print_routes import router as print_router
from .routes import REFUSALS, STATIC, game_routes, site_routes
from .schemas import Error
from .social import Social
from .social import router as social_router

DEFAULT_DB = "sqlite:///reliquary.sqlite3"
log = logging.getLogger(__name__)


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
    if hub.postgres:  # a decision's write sends its NOTIFY itself
        store.notice = (CHANNEL, hub.origin)
    clocks = Clocks(store.engine)
    manager = Manager(store, content, ai_delay=delay,
                      expire_after=limits.expire_after_s or None,
                      lobby_per_client=limits.lobby_per_client,
                      ai_games_per_client=limits.ai_games_per_client,
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

    app = FastAPI(title="Reliquary", lifespan=lifespan, docs_url=None, redoc_url=None,
                  **telemetry())
    app.state.manager = manager
    app.state.limits = limits
    app.state.capacity = capacity
    app.add_middleware(FastDecide, manager=manager)  # inside Guard: its checks first
    app.add_middleware(Guard, limits=limits, takes_post=posts_of(app),
                       origins=allowed_origins())
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in (site_routes(content),       # the page, the rules, the content
                   game_routes(manager),       # the games: create, view, decide, undo …
                   capacity_routes(capacity),  # the hint, health, the live WebSocket
                   preview_router,             # read-only looks ahead: preview, events
                   pages_router,               # /spec, /api/rulebook
                   print_router,               # /print.pdf, the print-and-play set
                   social_router(Social(manager)),  # presence, offers, messages, QR
                   peek_router(manager)):      # a past turn in play, setup hints
        app.include_router(router)
    document_refusals(app)
    return app


def telemetry() -> dict[str, Any]:
    """FastAPI's OpenTelemetry settings, decided once as the app is made: FastAPI (from
    0.165) otherwise looks at every request for providers set up since (about 18 µs, a
    few per cent of a decision's CPU). Left on, as FastAPI's defaults, when the process
    asks for OpenTelemetry: a tracer, meter or logger provider set before the app
    (``opentelemetry-instrument``, an SDK set up by the embedding program) or ``OTEL_*``
    or ``FASTAPI_OTEL_*`` settings in the environment; off otherwise."""
    import inspect

    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}  # an older FastAPI: no telemetry of its own
    if any(name.startswith(("OTEL_", "FASTAPI_OTEL_")) for name in os.environ):
        return {}
    from opentelemetry import _logs, metrics, trace

    providers = (trace.get_tracer_provider(), metrics.get_meter_provider(),
                 _logs.get_logger_provider())
    # Until one is set, OpenTelemetry's API hands out proxies that wait for it.
    if not all(type(p).__name__.lstrip("_").startswith("Proxy") for p in providers):
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal in the API's error format: a :class:`WebError`, a body or parameter
    the models refuse (400), a route or method that does not exist (404, 405), a busy
    database (503, nothing done)."""

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

    async def database_busy(_request: Request, err: Exception) -> JSONResponse:
        # A locked SQLite file past its busy timeout, a lost PostgreSQL connection:
        # the request did nothing; say so and let the client retry.
        log.warning("database error: %s", err)
        return JSONResponse({"error": "the database is busy; try again in a moment",
                             "code": "busy"}, status_code=503, headers={"Retry-After": "1"})

    app.add_exception_handler(OperationalError, database_busy)
    app.add_exception_handler(PoolTimeout, database_busy)


def posts_of(app: FastAPI) -> Callable[[str], bool]:
    """Whether one of the app's routes takes a POST at a path (asked as the router
    would match it, so included routers count). Remembered for the paths asked most
    (a game's decide path is asked at every decision; matching every route cost a
    tenth of a decision's CPU)."""

    @functools.lru_cache(maxsize=4096)
    def takes_post(path: str) -> bool:
        scope = {"type": "http", "path": path, "method": "POST", "root_path": ""}
        return any(route.matches(scope)[0] == Match.FULL for route in app.routes)

    return takes_post


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
