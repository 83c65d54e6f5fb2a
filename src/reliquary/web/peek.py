"""Read-only looks a player of a game in progress asks for (issue 28), each worked out
by the engine on a copy of the game, never by the page:

- ``GET /api/games/{id}/at?t=TOKEN&at=N``: the game after its first ``N`` decisions, as
  the token's seat sees it (a turn of the log clicked while the game goes on; the
  replay route serves finished games only). Secrets stay as at that moment for that
  viewer (:func:`reliquary.engine.visibility.position_for`).
- ``GET /api/games/{id}/setup?t=TOKEN``: for the viewer's own setup decision, what each
  option brings with it: at a Ruin pair, each square's mirrored square; at deployment,
  the pieces placed and the pieces to place in all.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..engine import State, format_option
from .errors import WebError
from .games import Session, new_session
from .manager import Manager
from .routes import refusals

SeatToken = Annotated[str | None, Query(max_length=64, description="a seat token")]
At = Annotated[int, Query(ge=0, le=1_000_000, description="decisions to replay")]


def past_view(manager: Manager, session: Session, seats: frozenset[int], at: int
              ) -> dict[str, Any]:
    """The game after its first ``at`` decisions, as ``seats`` see it (no concession:
    the game's end, if any, comes later)."""
    tokens = [e.token for e in session.game.history[:at]]
    past = new_session(replace(session.row, conceded=None), manager.content, tokens)
    out = manager.view(past, seats, upto=at)
    out["total"] = session.seq
    out["at"] = at
    return out


def ruin_mirrors(state: State) -> dict[str, list[str]]:
    """For each option of a Ruin decision, the squares it marks (the square and its
    mirror), found by applying it to a copy of the state."""
    name = state.geometry.name
    before = state.ruins
    out: dict[str, list[str]] = {}
    for option in state.decision().options:
        copy = state.clone()
        copy.events = None
        copy.apply(option)
        added = copy.ruins & ~before
        out[format_option(state, option)] = [name(sq) for sq in range(state.geometry.area)
                                             if added >> sq & 1]
    return out


def deploy_count(state: State) -> dict[str, int]:
    """The pieces the deciding side has deployed and will have deployed in all, found
    by playing the rest of the deployment on a copy (the first square each time)."""
    player = state.decision().player
    copy = state.clone()
    copy.events = None
    placed = copy.placed[player]
    while not copy.is_terminal and copy.decision().kind == "deploy":
        copy.apply(copy.decision().options[0])
    return {"placed": placed, "total": copy.placed[player]}


def router(manager: Manager) -> APIRouter:
    api = APIRouter()

    @api.get("/api/games/{game_id}/at", responses=refusals(400, 403, 404, 410, 503))
    async def position_at(game_id: str, at: At, t: SeatToken = None) -> dict[str, Any]:
        """The game after its first ``at`` decisions, as the token's seat sees it
        (no token: as a spectator): a past turn of a game in progress."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        if not 0 <= at <= session.seq:
            raise WebError(400, f"'at' must be from 0 to {session.seq}, not {at}")
        return await asyncio.to_thread(past_view, manager, session, seats, at)

    @api.get("/api/games/{game_id}/setup", responses=refusals(400, 403, 404, 410, 503))
    async def setup_hints(game_id: str, t: SeatToken = None) -> dict[str, Any]:
        """What the viewer's own setup decision's options bring: ``mirrors`` (a Ruin
        pair: each option's squares) or ``deploy`` (pieces placed, pieces in all);
        both null when the decision is not such a setup decision of the viewer's."""
        session = await manager.asession(game_id)
        seats = session.seats_of(t)
        if seats is None:
            raise WebError(403, "this token does not belong to this game")
        state = session.state
        out: dict[str, Any] = {"seq": session.seq, "rev": session.rev, "kind": None,
                               "mirrors": None, "deploy": None}
        if state.is_terminal or state.is_chance or state.current_player not in seats:
            return out
        kind = state.decision().kind
        out["kind"] = kind
        if kind == "ruin":
            out["mirrors"] = ruin_mirrors(state)
        elif kind == "deploy":
            out["deploy"] = deploy_count(state)
        return out

    return api
