"""The app's routes, as routers made from the parts they use: :func:`site_routes`
(the page, the rules, the content a front end draws) and :func:`game_routes` (the
games' API), with the helpers they share. Each route's refusals are listed for the
OpenAPI schema (:func:`refusals`)."""

from __future__ import annotations

import asyncio
import json
import logging
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from markdown_it import MarkdownIt

from ..ai import LEVELS
from ..engine import Content
from ..engine.modules import registered
from ..engine.visibility import SPECTATOR, record_visible
from ..rulesets import DEFAULT_RULESET, RulesetError, differences, load_ruleset, ruleset_names
from .errors import WebError
from .fast import decision
from .games import Session, new_session, settings_from, view_json
from .guard import client_key
from .manager import Manager
from .schemas import Claim, Decide, Error, Join, NewGame, Record, Rematch, Resign, Undo
from .seats import Seats
from .text import names_of

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("reliquary.web") / "static"))
#: The ``t`` query parameter: a seat token (none: a spectator).
SeatToken = Annotated[str | None, Query(max_length=64, description="a seat token")]
At = Annotated[int | None, Query(ge=0, le=1_000_000, description="decisions to replay")]


def site_routes(content: Content) -> APIRouter:
    """The page (one for every game), the rules, and the content (``/api/meta``)."""
    router = APIRouter()
    for route in ("/", "/g/{game_id}", "/replay/{game_id}"):
        router.add_api_route(route, lambda: FileResponse(STATIC / "index.html"),
                          include_in_schema=False)

    @router.get("/rules", include_in_schema=False)
    def rules_page() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @router.get("/api/rules")
    def rules() -> dict[str, str]:
        return {"html": rules_html()}

    @router.get("/api/meta")
    def meta() -> dict[str, Any]:
        return meta_of(content)

    return router


def game_routes(manager: Manager) -> APIRouter:
    """The games' API: create, list, view, decide, undo, resign, seats, rematch,
    record, replay (every one through ``manager``)."""
    router = APIRouter()
    content = manager.content
    seats = Seats(manager)

    @router.post("/api/games", status_code=201, responses=refusals(400, 413, 415, 429))
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """A new game: against the AI, hot-seat, or online (with an invite link)."""
        try:
            ruleset = load_ruleset(body.ruleset or DEFAULT_RULESET) if (
                body.ruleset is None or body.ruleset in ruleset_names()) else None
        except RulesetError as err:
            raise WebError(400, f"ruleset: {err}") from None
        if ruleset is None:
            raise WebError(400, f"unknown ruleset {body.ruleset!r}; rulesets: "
                                f"{', '.join(ruleset_names())}")
        # the ruleset's settings, then what the body sets itself on top
        given = {k: v for k, v in body.settings().items()
                 if k in body.model_fields_set or k not in ruleset.settings}
        try:
            settings = settings_from({**ruleset.settings, **given},
                                     content if ruleset.is_classic else ruleset.content())
        except ValueError as err:
            raise WebError(400, str(err)) from None
        return await manager.acreate(body.mode, settings, level=body.level or next(iter(LEVELS)),
                              seat=body.seat, quick=body.quick, faction=body.faction,
                              public=body.public, host=client_key(request.scope),
                              clock=body.clock.model_dump() if body.clock else None,
                              ruleset=ruleset.name)

    @router.get("/api/lobby")
    async def lobby() -> dict[str, Any]:
        """Public online games waiting for a second player."""
        return {"games": await seats.lobby()}

    @router.get("/api/games/{game_id}", responses=refusals(400, 403, 404, 410, 503))
    async def get_game(game_id: str, t: SeatToken = None) -> Response:
        """The game as the seat of token ``t`` sees it (no token: as a spectator)."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        manager.driver.kick(game_id)  # an AI turn left over (another process, a failure) goes on
        return answer(manager, session, seats, t)

    @router.post("/api/games/{game_id}/decide",
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 422, 503))
    async def decide(game_id: str, body: Decide) -> Response:
        """One decision, answering the view at revision ``rev`` (taken by
        :func:`reliquary.web.fast.decision`, as :class:`~reliquary.web.fast.FastDecide`
        takes a well-formed one before it gets here)."""
        status, payload, headers = await decision(manager, game_id, body)
        return Response(payload, status_code=status, headers=dict(
            (k.decode(), v.decode()) for k, v in headers))

    @router.post("/api/games/{game_id}/undo",
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def undo(game_id: str, body: Undo) -> Response:
        """Take back the last turn (against the AI: with the AI's reply)."""
        session = await manager.undo(game_id, body.token, body.rev)
        return answer(manager, session, session.seats_of(body.token) or frozenset(), body.token)

    @router.post("/api/games/{game_id}/resign",
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def resign(game_id: str, body: Resign) -> Response:
        """Resign: the game ends, lost by the token's seat (result reason ``resign``,
        recorded). 403 for a spectator's or a foreign token; 409 ``game_over`` for a
        finished game, ``stale`` for an old ``rev``."""
        session = await manager.resign(game_id, body.token, body.rev)
        return answer(manager, session, session.seats_of(body.token) or frozenset(), body.token)

    @router.post("/api/games/{game_id}/claim",
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def claim(game_id: str, body: Claim) -> dict[str, Any]:
        """The guest's first visit: the invite becomes the guest's own seat token."""
        return await seats.claim(game_id, body.invite)

    @router.post("/api/games/{game_id}/join",
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 503))
    async def join(game_id: str, _body: Join) -> dict[str, Any]:
        """Take the open seat of a public game (from the lobby)."""
        return await seats.claim(game_id, None)

    @router.post("/api/games/{game_id}/rematch", status_code=201,
                 responses=refusals(400, 403, 404, 409, 410, 413, 415, 429, 503))
    async def rematch(game_id: str, body: Rematch) -> dict[str, Any]:
        """A new game with the same settings after a finished one."""
        return await seats.rematch(game_id, body.token)

    @router.get("/api/games/{game_id}/record", responses=refusals(403, 404, 410, 503))
    async def record(game_id: str) -> Response:
        """The game record (the engine's format), as a download."""
        session = await manager.asession(game_id)
        if not record_visible(session.state, SPECTATOR):  # engine.visibility (S3)
            raise WebError(403, "a faction is being chosen in secret: the record is "
                                "available once both are revealed")
        # Taken here (the game may move on), encoded off the event loop.
        body = await asyncio.to_thread(json.dumps, session.game.record(), indent=1)
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="reliquary-{game_id}.json"'})

    @router.get("/api/games/{game_id}/replay", responses=refusals(400, 403, 404, 410, 503))
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

    @router.post("/api/records", status_code=201, responses=refusals(400, 413, 415, 429))
    async def load_record(body: Record) -> dict[str, Any]:
        """A finished game's record to replay (checked decision by decision)."""
        return await manager.load_record(body.model_dump())

    return router


def answer(manager: Manager, session: Session, seats: frozenset[int], token: str | None
           ) -> Response:
    """A game's view as the answer, encoded here: FastAPI's response validation of a
    dict this size, and encoding the whole log again, were most of a decision's cost."""
    return Response(view_json(session, manager.view(session, seats, token=token)),
                    media_type="application/json")


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


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route: the refusals it can answer, in the error format."""
    return {status: {"model": Error, "description": REFUSALS[status]} for status in statuses}


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
        "modules": modules_meta(),
        "rulesets": rulesets_meta(),
        "glory": glory_meta(),
    }


def glory_meta() -> dict[str, Any]:
    """Glory & Support's cards for the page (MODULES.md §5.4): each objective and upgrade
    with its texts, and the phase table, from the module's data."""
    from ..engine.modules.glory import DATA

    return {"objectives": [{"id": o.id, "name": o.name.model_dump(), "timing": o.timing,
                            "glory": o.glory, "text": {"en": o.en, "es": o.es}}
                           for o in DATA.objective],
            "upgrades": [{"id": u.id, "name": u.name.model_dump(), "cost": u.cost,
                          "condition": u.condition, "text": {"en": u.en, "es": u.es}}
                         for u in DATA.upgrade],
            "table": [{"sides": list(r.sides), "phase_rounds": r.phase_rounds,
                       "markers": r.markers} for r in DATA.table]}


def rulesets_meta() -> list[dict[str, Any]]:
    """The rulesets a new game may use: name, one-line description, what they change."""
    out = []
    for name in ruleset_names():
        try:
            ruleset = load_ruleset(name)
        except RulesetError:
            log.warning("the ruleset %r does not load; not offered", name, exc_info=True)
            continue
        out.append({"name": ruleset.name, "description": ruleset.description,
                    "settings": ruleset.settings, "changes": differences(ruleset)})
    return out


def modules_meta() -> list[dict[str, Any]]:
    """The rule modules a new game may turn on (M-MOD-1) and their options (M-MOD-2), for
    the new-game form: from the engine's registry, as every face reads them."""
    return [{"name": m.name, "title": m.title, "rules": m.rules, "summary": m.summary,
             "options": [{"key": f"{m.name}.{k}", "default": list(o.default)
                          if isinstance(o.default, tuple) else o.default,
                          "choices": list(o.choices or o.subset), "subset": bool(o.subset),
                          "min": o.lo, "max": o.hi, "help": o.help, "values": o.describe()}
                         for k, o in m.options.items()]}
            for m in registered().values()]
