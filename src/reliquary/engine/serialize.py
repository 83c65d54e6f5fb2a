"""Positions as versioned JSON-ready dicts, and back, exactly.

The form (``"format": "reliquary-position"``, ``"version": 1``) holds everything a
state is made of: settings, board and Ruins, pieces with HP and pending effects
(Veil, Aegis), relics, hands and waiting card, rites, pools, the Vigil, counters,
the stack of pending decisions, and the result. Squares are written as names
(``"c4"``), players as ``"key"`` / ``"skull"``. See ``docs/formats.md``.

>>> from reliquary import new_game
>>> state = new_game()
>>> again = position_from_dict(position_to_dict(state), state.content)
>>> position_to_dict(again) == position_to_dict(state)
True
"""

from __future__ import annotations

from typing import Any

from .content import Content
from .effects import PASSIVES
from .hooks import BASE_CONDITIONS
from .state import EMPTY, RUIN, Piece, State
from .types import RESULT_REASONS, SIDES, NotationError, Result, Settings

POSITION_FORMAT = "reliquary-position"
POSITION_VERSION = 1


def _side(p: int) -> str | None:
    return SIDES[p] if p in (0, 1) else None


def _player(value: Any, where: str) -> int:
    if value not in SIDES:
        raise NotationError(f"{where}: expected 'key' or 'skull', got {value!r}")
    return SIDES.index(value)


def position_to_dict(state: State) -> dict[str, Any]:
    """The position as a JSON-ready dict, all of it (what a player may see of it:
    :func:`reliquary.engine.visibility.position_for`)."""
    name = state.geometry.name
    secret = state.secret_faction
    relics: dict[str, Any] = {}
    for p in (0, 1):
        if state.relic_carrier[p] >= 0:
            relics[SIDES[p]] = {"carrier": state.relic_carrier[p]}
        elif state.relic_sq[p] >= 0:
            relics[SIDES[p]] = {"square": name(state.relic_sq[p])}
        else:
            relics[SIDES[p]] = None
    result = None
    if state.result is not None:
        r = state.result
        result = {"winner": _side(r.winner) if r.winner is not None else None,
                  "reason": r.reason, "scores": list(r.scores) if r.scores else None,
                  "detail": r.detail}
    data = {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "content": state.content.fingerprint,
        "settings": state.settings.as_dict(),
        "ruins": [name(sq) for sq in range(state.geometry.area) if state.board[sq] == RUIN],
        "pieces": [_piece_out(state, p) for p in sorted(state.pieces.values(),
                                                       key=lambda p: p.id)],
        "next_id": state.next_id,
        "relics": relics,
        "factions": dict(zip(SIDES, state.factions, strict=True)),
        "secret_factions": dict(zip(SIDES, secret, strict=True)),
        "hands": {SIDES[p]: list(state.hands[p]) for p in (0, 1)},
        "waiting": state.waiting,
        "dealt": state.dealt,
        "first": _side(state.first),
        "rites": dict(zip(SIDES, state.rites, strict=True)),
        "rite_draft": list(state.rite_draft),
        "pools": dict(zip(SIDES, state.pool, strict=True)),
        "regroups": dict(zip(SIDES, state.regroups, strict=True)),
        "grave_used": {SIDES[p]: state.is_spent(p, "grave_return") for p in (0, 1)},
        "placed": dict(zip(SIDES, state.placed, strict=True)),
        "vigil": state.vigil,
        "eventful": state.eventful,
        "rounds": state.rounds,
        "turns_taken": dict(zip(SIDES, state.turns_taken, strict=True)),
        "current": SIDES[state.current],
        "played": state.played,
        "stack": [_frame_out(f) for f in state.stack],
        "result": result,
    }
    if state.module_state:  # M-MOD: each module's own state, by name
        data["modules"] = {name: m.to_json() for name, m in state.module_state.items()}
    return data


def _piece_out(state: State, p: Piece) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.id, "owner": SIDES[p.owner], "kind": "hero" if p.hero else "minion",
        "square": state.geometry.name(p.sq), "hp": p.hp, "max_hp": p.max_hp,
        "harrowed": p.harrowed, "veiled": p.veiled, "aegis": p.aegis, "stepped": p.stepped}
    # The base game's two conditions are the booleans above; a module's are listed.
    extra = [{"name": c[0], "value": c[1], "gained": c[2]} for c in p.conds
             if c[0] not in BASE_CONDITIONS]
    if extra:
        out["conditions"] = extra
    return out


def _frame_out(frame: tuple[Any, ...]) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in frame]


def _frame_in(frame: Any) -> tuple[Any, ...]:
    if not isinstance(frame, list) or not frame or not isinstance(frame[0], str):
        raise NotationError(f"stack: malformed frame {frame!r}")
    return tuple(tuple(x) if isinstance(x, list) else x for x in frame)


def position_from_dict(data: dict[str, Any], content: Content) -> State:
    """Rebuild a state from :func:`position_to_dict`'s form.

    Raises :class:`NotationError` naming the field for malformed data, and refuses a
    position made with other content (a different fingerprint).
    """
    if not isinstance(data, dict) or data.get("format") != POSITION_FORMAT:
        raise NotationError(f"not a Reliquary position (expected format {POSITION_FORMAT!r})")
    if data.get("version") != POSITION_VERSION:
        raise NotationError(
            f"position version {data.get('version')!r} is not supported "
            f"(this engine reads version {POSITION_VERSION})")
    if data.get("content") != content.fingerprint:
        raise NotationError(
            f"position made with content {data.get('content')!r}; the loaded content is "
            f"{content.fingerprint!r}")
    try:
        return _build(data, content)
    except NotationError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise NotationError(f"malformed position: {type(err).__name__}: {err}") from None


def _build(data: dict[str, Any], content: Content) -> State:
    settings = Settings.from_dict(data["settings"])
    state = State(content, settings)
    geo = state.geometry
    state.board = [EMPTY] * geo.area
    state.ruins = 0
    for sq_name in data["ruins"]:
        sq = geo.parse(sq_name)
        state.board[sq] = RUIN
        state.ruins |= 1 << sq
    state.pieces = {}
    for i, pd in enumerate(data["pieces"]):
        sq = geo.parse(pd["square"])
        if state.board[sq] != EMPTY:
            raise NotationError(f"pieces[{i}]: square {pd['square']} is not empty")
        piece = Piece(int(pd["id"]), _player(pd["owner"], f"pieces[{i}].owner"),
                      pd["kind"] == "hero", int(pd["hp"]), sq, bool(pd["harrowed"]))
        piece.max_hp = int(pd["max_hp"])
        piece.veiled, piece.aegis, piece.stepped = (
            bool(pd["veiled"]), bool(pd["aegis"]), bool(pd["stepped"]))
        for j, cd in enumerate(pd.get("conditions") or []):
            cond = state._rules.conditions.get(cd["name"])
            if cond is None or cd["name"] in BASE_CONDITIONS:
                raise NotationError(f"pieces[{i}].conditions[{j}]: no condition "
                                    f"{cd['name']!r} in these rules (modules: "
                                    f"{', '.join(settings.modules) or 'none'})")
            piece.set_condition(cond, True, int(cd["value"]), int(cd["gained"]))
        if pd["kind"] not in ("hero", "minion"):
            raise NotationError(f"pieces[{i}].kind: expected 'hero' or 'minion'")
        state.pieces[piece.id] = piece
        state.board[sq] = piece.id
    state._index_pieces()
    state.next_id = int(data["next_id"])
    for p, side in enumerate(SIDES):
        relic = data["relics"][side]
        state.relic_sq[p] = state.relic_carrier[p] = -1
        if relic is None:
            continue
        if "carrier" in relic:
            carrier = int(relic["carrier"])
            if carrier not in state.pieces or state.pieces[carrier].owner == p:
                raise NotationError(f"relics.{side}.carrier: no enemy piece with id {carrier}")
            state.relic_carrier[p] = carrier
        else:
            state.relic_sq[p] = geo.parse(relic["square"])
    state.factions = [data["factions"][s] for s in SIDES]
    for f in state.factions:
        if f is not None:
            content.faction(f)
    state.secret_faction = [data["secret_factions"][s] for s in SIDES]
    state.hands = [list(data["hands"][s]) for s in SIDES]
    for card in [*state.hands[0], *state.hands[1], data["waiting"]]:
        if card is not None:
            content.card(card)
    state.waiting = data["waiting"]
    state.dealt = int(data["dealt"])
    state.first = -1 if data["first"] is None else _player(data["first"], "first")
    state.rites = [data["rites"][s] for s in SIDES]
    state.rite_draft = list(data["rite_draft"])
    state.pool = [int(data["pools"][s]) for s in SIDES]
    regroups = data.get("regroups") or {}  # absent in positions written before VAR1
    state.regroups = [int(regroups.get(s, 0)) for s in SIDES]
    grave = PASSIVES["grave_return"].mark
    state.spent = [grave if data["grave_used"][s] else 0 for s in SIDES]
    state.placed = [int(data["placed"][s]) for s in SIDES]
    state.vigil = int(data["vigil"])
    state.eventful = bool(data["eventful"])
    state.rounds = int(data["rounds"])
    state.turns_taken = [int(data["turns_taken"][s]) for s in SIDES]
    state.current = _player(data["current"], "current")
    state.played = data["played"]
    state.stack = [_frame_in(f) for f in data["stack"]]
    modules = data.get("modules") or {}  # absent without modules (and before them)
    if set(modules) != set(state.module_state):
        raise NotationError(f"modules: the position has state for "
                            f"{sorted(modules) or 'no module'}, its settings turn on "
                            f"{sorted(state.module_state) or 'none'}")
    for module_name, module_data in modules.items():
        try:
            state.module_state[module_name].load(module_data)
        except ValueError as err:
            raise NotationError(f"modules.{module_name}: {err}") from None
    r = data["result"]
    state.result = None
    if r is not None:
        winner = None if r["winner"] is None else _player(r["winner"], "result.winner")
        scores = tuple(r["scores"]) if r["scores"] else None
        if r["reason"] not in RESULT_REASONS:
            raise NotationError(f"result.reason: {r['reason']!r} is not one of "
                                f"{', '.join(RESULT_REASONS)}")
        state.result = Result(winner, r["reason"], scores, r.get("detail", ""))
    state._options = None
    if state.result is None:
        if not state.stack:
            raise NotationError("stack: a game in progress needs a pending decision")
        try:
            state.legal_options()
        except (KeyError, IndexError, TypeError, AttributeError) as err:
            raise NotationError(f"stack: the pending decision does not fit the position "
                                f"({type(err).__name__}: {err})") from None
    return state
