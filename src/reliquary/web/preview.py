"""Read-only looks ahead for the page: card previews and the events of past decisions.

- ``GET /api/games/{id}/preview?t=TOKEN&option=CARD:MODE`` — for the seat to decide a
  ``play``: where each of its pieces could move, step and attack if it played that card
  in that mode. Worked out on a clone of the game with the engine's public API (the
  decisions after the play, their legal options); the game itself never changes.
- ``GET /api/games/{id}/events?since=N&until=M`` — the board events (moves, steps,
  pushes, damage, kills, relic pick-ups, rolls …) of decisions ``N`` to ``M``, for the
  page's animations, last-turn arrows and the replay's turn list.

Both answer errors like the rest of the API: ``{"error": message, "code": code}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..engine import (
    CHANCE,
    SIDES,
    IllegalOptionError,
    NotationError,
    Play,
    State,
    format_option,
    parse_option,
)
from .module_preview import action_outcomes
from .schemas import MAX_TOKEN, Error

router = APIRouter()


def _documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route can answer, in the API's error format (for OpenAPI)."""
    return {status: {"model": Error, "description": "refused (see the error's code)"}
            for status in statuses}

#: Decisions in which a chosen piece says where it ends or whom it hits.
MOVE_KINDS = frozenset({"destination"})
ATTACK_KINDS = frozenset({"target", "second_target", "gale_push"})
STEP_KINDS = frozenset({"lunge", "gale_step", "rapture_step", "after_step", "kill_step",
                        "swap"})
#: How many positions one preview may look at (a card has a handful of pieces).
NODE_BUDGET = 3000
#: Event kinds a viewer may see (all of them are public board happenings).
PUBLIC_EVENTS = frozenset({"place", "move", "step", "swap", "push", "damage", "kill",
                           "pickup", "drop", "veil", "aegis", "roll", "play",
                           "ruin_removed", "vigil", "first", "result", "factions",
                           "dread", "condition", "condition_end", "condition_tick",
                           "upkeep"})


class PreviewError(Exception):
    """A refused look-ahead: HTTP status, stable code, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _refuse(err: PreviewError) -> JSONResponse:
    return JSONResponse({"error": err.message, "code": err.code}, status_code=err.status)


def _squares(state: State, options: list[Any]) -> list[str]:
    """The options that are squares, as names."""
    out = []
    for option in options:
        if isinstance(option, int) and not isinstance(option, bool):
            out.append(format_option(state, option))
    return out


def _explore(state: State, player: int, found: dict[str, set[str]], budget: list[int],
             depth: int = 0) -> None:
    """Walk the player's own decisions after a piece is chosen, collecting squares."""
    if budget[0] <= 0 or depth > 6 or state.is_terminal or state.is_chance:
        return
    decision = state.decision()
    if decision.player != player or decision.kind == "play":
        return  # the turn is over (or goes to the opponent)
    budget[0] -= 1
    options = list(decision.options)
    squares = _squares(state, options)
    if decision.kind in MOVE_KINDS:
        found["move"].update(squares)
        return  # after the move come Escort steps of other pieces: not this piece's
    if decision.kind in ATTACK_KINDS:
        found["attack"].update(squares)
    elif decision.kind in STEP_KINDS:
        found["step"].update(squares)
    else:
        return  # Escort, Lantern, Grave Tide…: other pieces' business
    for option in options:
        child = state.clone()
        child.apply(option)
        _explore(child, player, found, budget, depth + 1)


def preview_of(state: State, seats: frozenset[int], token: str) -> dict[str, Any]:
    """What playing ``token`` (``CARD:MODE``) would let each of the seat's pieces do."""
    if state.is_terminal:
        raise PreviewError(409, "game_over", "the game is over: nothing to preview")
    decision = state.decision()
    if decision.player not in seats:
        raise PreviewError(409, "not_your_turn", "a preview is for the player to decide")
    if decision.kind != "play":
        raise PreviewError(409, "bad_request",
                           f"a preview is for the 'play' decision, not {decision.kind!r}")
    try:
        chosen = parse_option(state, token)
    except (NotationError, IllegalOptionError) as err:
        raise PreviewError(422, "illegal_option", f"illegal option: {err}") from None
    assert isinstance(chosen, Play)
    player = decision.player
    after = state.clone()
    after.apply(chosen)
    out: dict[str, Any] = {"option": format_option(state, chosen), "mode": chosen.mode,
                           "pieces": {}, "squares": []}
    if after.is_terminal or after.is_chance:
        return out
    first = after.decision()
    if first.player != player:
        return out
    budget = [NODE_BUDGET]
    if first.kind in ("mover", "attacker"):
        for option in first.options:
            child = after.clone()
            child.apply(option)
            found: dict[str, set[str]] = {"move": set(), "attack": set(), "step": set()}
            _explore(child, player, found, budget)
            out["pieces"][format_option(after, option)] = {
                key: sorted(value) for key, value in found.items()}
        if "glory" in state.settings.modules and chosen.mode == "attack":
            out["support"] = _support_preview(state, player, chosen.card, out["pieces"])
    elif first.kind == "interact":  # M-MOD-3: each module action, who can take it, on what
        out["actions"] = {str(action): {**_action_preview(after, player, action),
                                        **action_outcomes(after, action)}
                          for action in first.options}
    else:  # REGROUP or RITE: squares of the board, no piece of its own
        out["squares"] = sorted(_squares(after, list(first.options)))
    return out


def _support_preview(state: State, player: int, card: str,
                     pieces: dict[str, dict[str, list[str]]]) -> dict[str, Any]:
    """M-GLORY-11 for the attack preview: for each attacker's square and each enemy it may
    hit, the Support's ±1 from where it stands and why (A: its other pieces next to the
    target; D: the target's next to it), where a hit would deal line damage."""
    from ..engine.modules.glory import rules_of

    rules = rules_of(state)
    geo = state.geometry
    out: dict[str, Any] = {}
    for frm, marks in pieces.items():
        attacker = state.piece_at(geo.parse(frm))
        if attacker is None:
            continue
        line = state.line_for(card, attacker)
        if not (line.effect == "ordeal" or (line.effect == "strike" and line.damage >= 1)):
            continue
        for to in marks.get("attack", []):
            target = state.piece_at(geo.parse(to))
            if target is None or target.owner == player:
                continue
            bonus, a, d = rules.support(state, attacker, target)
            if bonus:
                out.setdefault(frm, {})[to] = {"bonus": bonus, "attackers": a, "defenders": d}
    return out


def _action_preview(state: State, player: int, action: Any) -> dict[str, Any]:
    """An INTERACT action's preview: the squares of the pieces that can take it
    (``actors``) and, where the action then asks for a square (TEND's Burning piece), those
    squares for each actor (``targets``)."""
    child = state.clone()
    child.apply(action)
    found: dict[str, Any] = {"actors": [], "targets": {}}
    if child.is_terminal or child.is_chance or child.decision().player != player:
        return found
    decision = child.decision()
    if decision.kind == "play":
        return found
    found["actors"] = sorted(_squares(child, list(decision.options)))
    for option in decision.options:
        after = child.clone()
        after.apply(option)
        if after.is_terminal or after.is_chance:
            continue
        then = after.decision()
        if then.player == player and then.kind != "play" and then.kind in {
                k for k in after._rules.decisions if not after._rules.decisions[k].chance}:
            found["targets"][format_option(child, option)] = sorted(
                _squares(after, list(then.options)))
    return found


def _event_json(state: State, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """An engine event with its squares named and its players as sides."""
    name = state.geometry.name
    out: dict[str, Any] = {"kind": kind}
    for key, value in data.items():
        if key in ("square", "to") and isinstance(value, int):
            out[key] = name(value) if value >= 0 else None
        elif key in ("owner", "player", "relic", "winner") and isinstance(value, int) \
                and not isinstance(value, bool):
            out[key] = SIDES[value] if value in (0, 1) else None
        elif isinstance(value, (str, int, float, bool)) or value is None:
            out[key] = value
        elif isinstance(value, (list, tuple)):
            out[key] = [v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
                        for v in value]
    return out


@router.get("/api/games/{game_id}/preview", responses=_documented(400, 403, 404, 409, 410,
                                                                  422, 503))
async def preview(game_id: str, request: Request,
                  option: Annotated[str, Query(max_length=MAX_TOKEN)] = "",
                  t: Annotated[str | None, Query(max_length=MAX_TOKEN)] = None) -> Any:
    """Where each piece could go or hit with one card in one mode (see module doc)."""
    # on the event loop (with the other requests), the database read off it
    session = await request.app.state.manager.asession(game_id)
    seats = session.seats_of(t)
    try:
        if seats is None:
            raise PreviewError(403, "forbidden", "this token does not belong to this game")
        if not seats:
            raise PreviewError(403, "forbidden", "spectators can only watch: no preview")
        if not option:
            raise PreviewError(400, "bad_request", "missing 'option': send CARD:MODE")
        return preview_of(session.state, seats, option)
    except PreviewError as err:
        return _refuse(err)


@router.get("/api/games/{game_id}/events", responses=_documented(400, 404, 410, 503))
async def events(game_id: str, request: Request,
                 since: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                 until: Annotated[int | None, Query(ge=0, le=1_000_000)] = None) -> Any:
    """The public board events of decisions ``since`` to ``until`` (see module doc)."""
    # on the event loop (with the other requests), the database read off it
    session = await request.app.state.manager.asession(game_id)
    history = session.game.history
    total = len(history)
    end = total if until is None else until
    if not 0 <= since <= end <= total:
        return _refuse(PreviewError(400, "bad_request",
                                    f"'since' and 'until' must satisfy 0 <= since <= until "
                                    f"<= {total}, not since={since}, until={until}"))
    state = session.state
    entries = []
    for seq in range(since, end):
        entry = history[seq]
        entries.append({
            "seq": seq,
            "kind": entry.kind,
            "player": SIDES[entry.player] if entry.player != CHANCE else "chance",
            "events": [_event_json(state, ev.kind, ev.data) for ev in entry.events
                       if ev.kind in PUBLIC_EVENTS],
        })
    return {"total": total, "entries": entries}
