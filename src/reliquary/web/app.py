"""The ASGI app: a JSON HTTP API, a WebSocket per game, and the static front end.

API (all JSON; errors are ``{"error": message}`` with a 4xx status):

- ``GET  /api/meta`` — cards, factions, rites, board sizes, AI levels.
- ``POST /api/games`` — ``{mode: ai|hotseat|online, size, los, first_turn, level, seat,
  quick, faction}`` → ``{id, token, seat, links}``.
- ``GET  /api/games/{id}?t=TOKEN`` — the game as that seat (or a spectator) sees it.
- ``POST /api/games/{id}/decide`` — ``{token, seq, option}``: one decision.
- ``POST /api/games/{id}/undo`` — ``{token}``: take back your last turn.
- ``GET  /api/games/{id}/record`` — the game record (the engine's format).
- ``GET  /api/games/{id}/replay?at=N`` — the game after its first N decisions.
- ``POST /api/records`` — a game record to replay → ``{id, links}``.
- ``WS   /api/games/{id}/ws`` — sends ``{"seq": N}`` whenever the game changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt

from ..ai import LEVELS
from ..content import default_content
from ..engine import Content, Settings
from .db import Store
from .games import Manager, WebError, new_session, view

STATIC = Path(str(resources.files("reliquary.web") / "static"))
DEFAULT_DB = "sqlite:///reliquary.sqlite3"


def create_app(db_url: str | None = None, ai_delay: float | None = None,
               content: Content | None = None) -> FastAPI:
    """The app on a database URL (SQLite file by default, or PostgreSQL)."""
    url = db_url or os.environ.get("RELIQUARY_DB") or DEFAULT_DB
    delay = ai_delay if ai_delay is not None else float(os.environ.get("RELIQUARY_AI_DELAY",
                                                                      "0.25"))
    content = content or default_content()
    store = Store(url)
    manager = Manager(store, content, ai_delay=delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.resume_all()
        yield
        for task in manager.drivers.values():
            task.cancel()

    app = FastAPI(title="Reliquary", lifespan=lifespan)
    app.state.manager = manager
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(WebError)
    async def web_error(_request: Request, err: WebError) -> JSONResponse:
        return JSONResponse({"error": err.message}, status_code=err.status)

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        try:
            data = json.loads(raw or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise WebError(400, f"malformed JSON in the request body: {err}") from None
        if not isinstance(data, dict):
            raise WebError(400, "the request body must be a JSON object")
        return data

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
    @app.post("/api/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        data = await body_of(request)
        try:
            settings = Settings(size=data.get("size", 8), los=data.get("los", "geometric"),
                                first_turn=data.get("first_turn", "no_damage"))
            if settings.size not in content.sizes:
                raise ValueError(f"board size must be {min(content.sizes)} to "
                                 f"{max(content.sizes)}, not {settings.size}")
        except ValueError as err:
            raise WebError(400, str(err)) from None
        level = data.get("level") or next(iter(LEVELS))
        return manager.create(str(data.get("mode", "ai")), settings, level=str(level),
                              seat=str(data.get("seat", "key")),
                              quick=bool(data.get("quick", True)),
                              faction=data.get("faction") or None)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, t: str | None = None) -> dict[str, Any]:
        session = manager.session(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        manager.kick(game_id)  # an AI turn left over (another process, a failure) goes on
        return view(session, seats)

    @app.post("/api/games/{game_id}/decide")
    async def decide(game_id: str, request: Request) -> dict[str, Any]:
        manager.session(game_id)  # 404 before looking at the body
        data = await body_of(request)
        for key in ("token", "seq", "option"):
            if key not in data:
                raise WebError(400, f"missing field {key!r}: send token, seq and option")
        session = await manager.decide(game_id, data["token"], data["seq"], data["option"])
        return view(session, session.seats_of(data["token"]) or frozenset())

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> dict[str, Any]:
        manager.session(game_id)
        data = await body_of(request)
        session = await manager.undo(game_id, data.get("token"))
        return view(session, session.seats_of(data.get("token")) or frozenset())

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str) -> Response:
        session = manager.session(game_id)
        if any(f is not None for f in session.state.secret_faction):
            raise WebError(409, "a faction is being chosen in secret: the record is "
                                "available once both are revealed")
        body = json.dumps(session.game.record(), indent=1)
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="reliquary-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    def replay_at(game_id: str, at: int | None = None) -> dict[str, Any]:
        session = manager.session(game_id)
        if session.row.mode != "replay" and not session.state.is_terminal:
            raise WebError(409, "a game can be replayed once it is over")
        tokens = [e.token for e in session.game.history]
        total = len(tokens)
        at = total if at is None else at
        if not 0 <= at <= total:
            raise WebError(400, f"'at' must be from 0 to {total}, not {at}")
        past = new_session(session.row, content, tokens[:at])
        out = view(past, frozenset(), upto=at)
        out["total"] = total
        out["at"] = at
        out["final_result_text"] = view(session, frozenset())["result_text"]
        return out

    @app.post("/api/records", status_code=201)
    async def load_record(request: Request) -> dict[str, Any]:
        data = await body_of(request)
        return manager.load_record(data)

    # ------------------------------------------------------------------ live updates
    @app.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str) -> None:
        await socket.accept()
        try:
            session = manager.session(game_id)
        except WebError as err:
            await socket.send_json({"error": err.message})
            await socket.close(code=4404)
            return
        sent = -1
        try:
            while True:
                waiter = manager.waiter(game_id)
                session = manager.session(game_id)  # also sees other processes' moves
                if session.seq != sent:
                    sent = session.seq
                    await socket.send_json({"seq": sent, "over": session.state.is_terminal})
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(waiter.wait(), timeout=2.0)
        except (WebSocketDisconnect, RuntimeError):
            return

    return app


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
    return {
        "cards": cards,
        "factions": [{"id": f.id, "name": f.name, "hero_hp": f.hero_hp, "passive": f.passive,
                      "text": {"en": f.text.en, "es": f.text.es or f.text.en}}
                     for f in content.factions],
        "rites": [{"id": r.id, "text": {"en": r.text.en, "es": r.text.es or r.text.en}}
                  for r in content.rites],
        "sizes": list(content.sizes),
        "levels": list(LEVELS),
    }
