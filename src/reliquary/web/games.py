"""A game as the web server sees it: a :class:`Session` (the engine's
:class:`~reliquary.engine.Game`, its log and the stored row it matches), the view each
viewer gets (:func:`view`: secrets kept, the AI's status and the clocks from the
collaborators passed in) and the undo policy (:func:`undo_count`).

Pure: no database, no event loop. :mod:`reliquary.web.manager` keeps the sessions of
a server process in step with the store.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import (
    CHANCE,
    SETUP_KINDS,
    SIDES,
    Content,
    Entry,
    Game,
    Option,
    Settings,
    State,
    format_option,
    parse_option,
    read_option,
)
from ..engine.visibility import position_for, viewer_for
from ..rulesets import DEFAULT_RULESET, META_KEY, load_ruleset, stored_content
from .ai_pool import ai_evaluation, ai_status
from .clock import Clocks, clock_view
from .db import GameRow
from .errors import encode_json

if TYPE_CHECKING:
    from .ai_pool import AIPool
from .conditions_text import PROMPTS as CONDITIONS_PROMPTS
from .glory_text import PROMPTS as GLORY_PROMPTS
from .keepers_text import PROMPTS as KEEPERS_PROMPTS
from .module_preview import NOTE_KINDS, decision_notes
from .text import Line, LogContext, describe, note_before, result_text

log = logging.getLogger(__name__)

MODES = ("ai", "hotseat", "online", "replay")

PROMPTS: dict[str, tuple[str, str]] = {
    "ruin": ("Mark a pair of Ruins: click a square (its mirror comes with it).",
             "Marca un par de Ruinas: pulsa una casilla (su simétrica va con ella)."),
    "faction": ("Choose your faction in secret.", "Elige tu facción en secreto."),
    "rite": ("Draft a rite.", "Elige un rito."),
    "deploy": ("Deploy your next piece in your deployment rows (Minions first, Hero last).",
               "Despliega tu siguiente pieza en tus filas de despliegue (Esbirros, luego Héroe)."),
    "relic": ("Place your relic in your half (not the back row).",
              "Coloca tu Reliquia en tu mitad (no en la fila trasera)."),
    "play": ("Play a card: choose a card and a mode.", "Juega una carta: elige carta y modo."),
    "mover": ("Choose the piece to move.", "Elige la pieza que mueve."),
    "destination": ("Choose where it moves.", "Elige adónde mueve."),
    "escort": ("Escort: another piece may take 1 step (click it, then its square), or pass.",
               "Escolta: otra pieza puede dar 1 paso (púlsala y luego la casilla), o pasa."),
    "attacker": ("Choose the attacking piece.", "Elige la pieza que ataca."),
    "lunge": ("Lunge: step first, or pass to stay.", "Acometida: da un paso antes, o pasa."),
    "target": ("Choose the target.", "Elige el objetivo."),
    "second_target": ("Choose a second target, or pass.", "Elige un segundo objetivo, o pasa."),
    "gale_step": ("Gale: choose the step.", "Vendaval: elige el paso."),
    "gale_push": ("Gale: choose the next enemy to push.",
                  "Vendaval: elige el siguiente enemigo a empujar."),
    "rapture_step": ("Rapture: choose a step, or pass to stop.",
                     "Éxtasis: elige un paso, o pasa para parar."),
    "after_step": ("Take the step after the attack.", "Da el paso tras el ataque."),
    "kill_step": ("Step into the freed square, or pass.", "Entra en la casilla liberada, o pasa."),
    "swap": ("Swap with a friendly Minion, or pass.",
             "Intercámbiate con un Esbirro amigo, o pasa."),
    "grave_return": ("Grave Tide: return your Minion to your back row.",
                     "Marea Sepulcral: devuelve tu Esbirro a tu fila trasera."),
    "regroup": ("Regroup: choose the back-row square.", "Reagrupa: elige la casilla trasera."),
    "rite_effect": ("Rite: choose where it acts.", "Rito: elige dónde actúa."),
    "lantern_step": ("Lantern: your carrier may take 1 step, or pass.",
                     "Farol: tu portador puede dar 1 paso, o pasa."),
    **KEEPERS_PROMPTS,
    **GLORY_PROMPTS,
    **CONDITIONS_PROMPTS,
}


@dataclass
class Session:
    """One game in memory: the engine's Game, its log and the stored row it matches."""

    row: GameRow
    game: Game
    ctx: LogContext
    log: list[Line] = field(default_factory=list)
    #: Each log line already in JSON: a view's answer is the log's bulk, and it only grows.
    log_json: list[str] = field(default_factory=list)
    #: The current decision's options by token, as its last view listed them, and the
    #: decision count they are for: a decision answering that view is a lookup.
    choices: tuple[int, dict[str, Option]] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def seq(self) -> int:
        return len(self.game.history)

    @property
    def rev(self) -> str:
        """The stored revision this game is at, as the API shows it."""
        return str(self.row.rev)

    def apply(self, option: Any, kind: str | None = None) -> Entry:
        """Take ``option`` (of the current decision, whose ``kind`` the caller may know)."""
        state = self.game.state
        note_before(self.ctx, state, kind or state.decision().kind, option)
        entry = self.game.apply(option)
        lines = describe(self.ctx, entry)
        self.log.extend(lines)
        self.log_json.extend(encode_json(line) for line in lines)
        return entry

    def apply_token(self, token: str) -> Entry:
        state = self.game.state
        kind = state.decision().kind
        return self.apply(read_option(state, kind, token), kind)

    def option_of(self, token: str) -> Option:
        """The legal option ``token`` names now: looked up among the options the last
        view listed, if it is of this moment; otherwise read and checked
        (:func:`~reliquary.engine.parse_option`: NotationError, IllegalOptionError)."""
        if self.choices is not None and self.choices[0] == self.seq:
            found = self.choices[1].get(token)
            if found is not None:
                return found
        return parse_option(self.state, token)

    def seats_of(self, token: Any) -> frozenset[int] | None:
        """The seats a token decides for; empty for spectators; None for a wrong token."""
        if not token:
            return frozenset()
        if not isinstance(token, str):
            return None
        tokens = self.row.tokens

        def same(role: str) -> bool:
            secret = tokens.get(role)
            return secret is not None and secrets.compare_digest(token.encode(), secret.encode())

        if same("both"):
            return frozenset({0, 1})
        for p, side in enumerate(SIDES):
            if same(side):
                return frozenset({p})
        if same("spectator"):
            return frozenset()
        return None

    def ai_seat(self) -> int:
        return int(self.row.options["ai_seat"]) if self.row.mode == "ai" else -2


def view_json(session: Session, view_dict: dict[str, Any]) -> bytes:
    """The JSON body of ``view_dict`` (a :func:`view` of ``session`` now), its log from
    the lines encoded as they were written rather than encoded again."""
    assert view_dict["log"] is session.log, "a view of another moment than the session's"
    rest = {k: v for k, v in view_dict.items() if k != "log"}
    head = encode_json(rest)
    return (f'{head[:-1]},"log":[{",".join(session.log_json)}]}}' if rest
            else f'{{"log":[{",".join(session.log_json)}]}}').encode()


def settings_from(data: dict[str, Any], content: Content) -> Settings:
    """The engine's Settings from a dict, checked (board size included); ValueError says
    which field is wrong. The game's ruleset and its patch, kept beside them, are not
    settings."""
    data = {k: v for k, v in data.items() if k not in (RULESET_KEY, RULESET_PATCH_KEY)}
    try:
        settings = Settings.from_dict(data)
    except TypeError as err:  # a value of the wrong kind
        raise ValueError(str(err)) from None
    if settings.size not in content.sizes:
        raise ValueError(f"board size must be {min(content.sizes)} to "
                         f"{max(content.sizes)}, not {settings.size}")
    return settings


#: Where a game's row keeps its ruleset (beside its settings; none: classic), and the
#: ruleset's content patch as it was when the game began: a later edit of the ruleset's
#: file must not change a game in progress (it would replay into another game, or not
#: at all).
RULESET_KEY = "ruleset"
RULESET_PATCH_KEY = "ruleset_patch"


def ruleset_fields(name: str | None) -> dict[str, Any]:
    """What a new game's row keeps of its ruleset ``name`` beside its settings (nothing
    for classic)."""
    if not name or name == DEFAULT_RULESET:
        return {}
    patch = load_ruleset(name).patch
    return {RULESET_KEY: name, **({RULESET_PATCH_KEY: patch} if patch else {})}


def ruleset_of(row: GameRow) -> str:
    """The game's ruleset (``classic`` when its row names none)."""
    return str(row.settings.get(RULESET_KEY) or DEFAULT_RULESET)


def content_of(row: GameRow, content: Content) -> Content:
    """The content a game plays with: the server's, or the package's patched by the
    game's ruleset as its row kept it (rows from before the patch was kept: by name)."""
    name = ruleset_of(row)
    if name == DEFAULT_RULESET:
        return content
    patch = row.settings.get(RULESET_PATCH_KEY)
    return stored_content(name, patch) if patch else load_ruleset(name).content()


def new_session(row: GameRow, content: Content, tokens: Iterable[str]) -> Session:
    content = content_of(row, content)
    settings = settings_from(dict(row.settings), content)
    game = Game(content, settings, meta={"mode": row.mode, META_KEY: ruleset_of(row)})
    ctx = LogContext(content, game.state.geometry)
    session = Session(row, game, ctx)
    for token in tokens:
        session.apply_token(token)
    apply_concession(session)
    return session


def apply_concession(session: Session) -> None:
    """End the game as its row says it was conceded (on time, by resignation, a draw by
    agreement), once its decisions are replayed: the one way a stored concession comes
    back."""
    conceded = session.row.conceded
    if conceded and not session.state.is_terminal:
        if conceded["reason"] == "agreed":  # a draw offer accepted (web.social)
            session.game.agree_draw()
        else:
            session.game.concede(int(conceded["loser"]), conceded["reason"])


def _turn_blocks(history: list[Entry]) -> list[tuple[int, int]]:
    """The history cut into the units an undo takes back: ``(start, player)``.

    A turn runs from its ``play`` decision to the next one (chance and any decision of
    the opponent inside it included); before the first turn each setup decision, and
    each card dealt, is a unit of its own.
    """
    blocks: list[tuple[int, int]] = []
    for i, entry in enumerate(history):
        if entry.kind == "play" or not blocks or history[blocks[-1][0]].kind != "play":
            blocks.append((i, entry.player))
    return blocks


def undo_count(history: list[Entry], seats: frozenset[int], ai_seat: int | None = None) -> int:
    """How many decisions an undo takes back; 0 when it is refused.

    Hot-seat: the last turn (or setup decision). Against the AI (``ai_seat``): the
    human's last turn and the AI's reply after it. Never past a chance outcome (a die
    roll, or a card dealt: taking it back would let a player draw again), and never
    from the turns back into the setup.
    """
    # Only the last three turns can matter (the AI's reply, the human's turn before it,
    # and the turn that bounds it): look at them, not the whole game, each view.
    plays, begin = 0, 0
    for index in range(len(history) - 1, -1, -1):
        if history[index].kind == "play":
            plays += 1
            if plays == 3:
                begin = index
                break
    history = history[begin:]
    blocks = _turn_blocks(history)
    if not blocks:
        return 0
    # In the turns once both relics are placed (S7, the setup's last step): from the
    # first turn on, before any move too, an undo never goes back into the setup.
    in_turns = (history[blocks[-1][0]].kind == "play"
                or sum(entry.kind == "relic" for entry in history) >= 2)
    while ai_seat is not None and blocks and blocks[-1][1] == ai_seat:
        blocks.pop()  # the AI's reply (or its turn in progress)
    if not blocks or blocks[-1][1] not in seats:
        return 0
    start = blocks[-1][0]
    if in_turns and history[start].kind != "play":
        return 0
    if any(e.player == CHANCE for e in history[start:]):
        return 0
    # S3: factions are chosen in secret, key first. An undo that would stop between the
    # two choices keeps the first one, which the asker may know (after "both chose the
    # same faction", or on one screen): it goes back before it, and both choose again.
    chosen = [i for i in range(start) if history[i].kind == "faction"]
    if len(chosen) % 2:
        start = chosen[-1]
    return len(history) - start
# ---------------------------------------------------------------------- the view
def view(session: Session, seats: frozenset[int], *, ai: AIPool | None,
         clocks: Clocks | None, upto: int | None = None, token: str | None = None
         ) -> dict[str, Any]:
    """What a viewer sees: position, decision with options (if theirs), log, result;
    the AI's status and evaluation from ``ai``, the clocks from ``clocks``.

    Secrets stay with their owner: the other seat's faction chosen in secret shows as
    ``"hidden"`` (to both on one screen), and the only seat token in a view is the
    viewer's own ``token`` (the host's invite link shows until the guest claims it)."""
    game = session.game
    state = game.state
    pos = position_for(state, viewer_for(seats))  # S3: secrets as engine.visibility says
    decision = None
    kind = None
    if not state.is_terminal:
        d = state.decision()
        kind = d.kind
        mine = d.player in seats and upto is None
        en, es = PROMPTS.get(d.kind, (d.kind, d.kind))
        tokens = [format_option(state, o) for o in d.options] if mine else []
        if mine:  # the decision that answers this view looks its option up
            session.choices = (session.seq, dict(zip(tokens, d.options, strict=True)))
        decision = {
            "kind": d.kind,
            "player": d.player,
            "side": SIDES[d.player] if d.player in (0, 1) else "chance",
            "mine": mine,
            "options": tokens,
            "piece": state.geometry.name(d.piece) if d.piece >= 0 else None,
            "card": d.card,
            "prompt": {"en": en, "es": es},
        }
        if mine and d.kind in NOTE_KINDS:  # a module's choice: what each option would do
            decision["notes"] = decision_notes(state, d.player)
    result = pos["result"]
    if result is not None:  # how it was decided: the Vigil's tie-break (V2) when it came to it
        result = {**result, "tiebreak": (result.get("detail") or None)
                  if result.get("reason") == "vigil" else None}
    last_roll = None
    for entry in reversed(game.history):
        if entry.kind in ("roll", "dread"):  # a table's die, or a Dread test's (M-COND-51)
            last_roll = {"face": entry.token, "kind": entry.kind,
                         "card": next((e.data.get("card") for e in entry.events
                                       if e.kind == entry.kind), None)}
            break
    row = session.row
    out: dict[str, Any] = {
        "id": session.id,
        "mode": row.mode,
        "ruleset": ruleset_of(row),
        "seq": session.seq,
        "seats": sorted(SIDES[p] for p in seats),
        "position": pos,
        "decision": decision,
        "result": result,
        "result_text": result_text(result),
        "log": session.log,
        "last_turn": last_turn_squares(session, kind),
        "last_roll": last_roll,
        "rev": session.rev,
        "undo": row.mode in ("ai", "hotseat") and bool(seats) and not state.is_terminal
        and undo_count(game.history, seats, session.ai_seat() if row.mode == "ai" else None)
        > 0 and upto is None,
        "ai": ({"level": row.options.get("level"), "seat": SIDES[session.ai_seat()],
                **ai_status(ai, session.id, row.options.get("level"), upto is None
                            and not state.is_terminal
                            and state.current_player == session.ai_seat())}
               if row.mode == "ai" else None),
        "evaluation": (ai_evaluation(ai, session.id, state, 1 - session.ai_seat())
                       if row.mode == "ai" and upto is None else None),
        "clock": (clock_view(clocks, session.id, row.options, row.mode, state, game.history)
                  if upto is None else None),
        "deploy_rows": state.content.board_row(state.settings.size).deploy_rows,
        "phase": "over" if kind is None else ("setup" if in_setup(state, kind) else "play"),
    }
    links = {"spectate": f"/g/{session.id}"}
    if seats and token:
        links["self"] = f"/g/{session.id}?t={token}"
    creator = row.options.get("creator")
    if row.open_seat is not None and len(seats) == 1 and SIDES[min(seats)] == creator:
        links["invite"] = f"/g/{session.id}?invite={row.tokens['invite']}"
    out["links"] = links
    out["public"] = row.public
    out["open_seat"] = row.open_seat
    out["rematch"] = rematch_view(row.rematch, seats)
    return out


def rematch_view(stored: str | None, seats: frozenset[int]) -> dict[str, str] | None:
    """The rematch of a finished game as one viewer sees it: a link with their own new
    token, the invite to it for the opponent who did not ask, a watch link otherwise."""
    if stored is None:
        return None
    link = json.loads(stored)
    new_id = link["id"]
    answer = next((link["seats"][SIDES[p]] for p in sorted(seats)
                   if SIDES[p] in link.get("seats", {})), None)
    if answer is not None:
        return {"id": new_id, "link": answer["links"]["self"]}
    invite = link.get("invite") or {}
    if len(seats) == 1 and invite.get("side") == SIDES[min(seats)]:
        return {"id": new_id, "link": f"/g/{new_id}?invite={invite['code']}"}
    return {"id": new_id, "link": f"/g/{new_id}"}


def in_setup(state: State, kind: str | None = None) -> bool:
    """Before the first turn: setup choices and the deal (S1–S7); ``kind``: the current
    decision's, when the caller has it."""
    return not state.is_terminal and (state.first < 0 or (kind or state.decision().kind)
                                      in SETUP_KINDS or ("begin_game",) in state.stack)
    # ("begin_game",) waits under the rule modules' setup steps (M-KEEP-2's token types)


def last_turn_squares(session: Session, kind: str | None = None) -> list[str]:
    """Squares touched by the last finished turn (for the highlight); ``kind``: the
    current decision's, when the caller has it."""
    game = session.game
    history = game.history
    # The last two turn starts, looked for from the end (not the whole game each view).
    starts: list[int] = []
    for index in range(len(history) - 1, -1, -1):
        if history[index].kind == "play":
            starts.append(index)
            if len(starts) == 2:
                break
    if not starts:
        return []
    state = game.state
    at_turn_start = state.is_terminal or (kind or state.decision().kind) == "play"
    if at_turn_start:
        turn = history[starts[0]:]
    else:
        turn = history[starts[1]:starts[0]] if len(starts) > 1 else []
    name = state.geometry.name
    squares: list[str] = []
    for entry in turn:
        for ev in entry.events:
            for key in ("square", "to"):
                sq = ev.data.get(key)
                if isinstance(sq, int) and sq >= 0 and name(sq) not in squares:
                    squares.append(name(sq))
    return squares
