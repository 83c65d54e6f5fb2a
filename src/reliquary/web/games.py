"""Games in play on the server: sessions rebuilt from the store, decisions, AI and chance.

A :class:`Session` is a :class:`~reliquary.engine.Game` plus its log. Every decision is
validated by the engine (``parse_option``), stored, and only then kept; chance is
sampled here with :func:`reliquary.ai.sample_chance` and stored like a decision. A
restarted server rebuilds each game by replaying its stored tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..ai import LEVELS, get_agent, sample_chance
from ..engine import (
    CHANCE,
    SETUP_KINDS,
    SIDES,
    Content,
    Entry,
    Game,
    GameOverError,
    IllegalOptionError,
    NotationError,
    Settings,
    State,
    format_option,
    parse_option,
    position_to_dict,
    read_option,
)
from .db import DuplicateMoveError, GameRow, Store
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
}


class WebError(Exception):
    """A request the server refuses: an HTTP status and a clear message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Session:
    """One game in memory: the engine's Game, its log and who may decide."""

    row: GameRow
    game: Game
    ctx: LogContext
    log: list[Line] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def seq(self) -> int:
        return len(self.game.history)

    def apply(self, option: Any) -> Entry:
        note_before(self.ctx, self.game.state, self.game.state.decision().kind, option)
        entry = self.game.apply(option)
        self.log.extend(describe(self.ctx, entry))
        return entry

    def apply_token(self, token: str) -> Entry:
        state = self.game.state
        return self.apply(read_option(state, state.decision().kind, token))

    def seats_of(self, token: str | None) -> frozenset[int] | None:
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


def new_session(row: GameRow, content: Content, tokens: Iterable[str]) -> Session:
    settings = Settings(**row.settings)
    game = Game(content, settings, meta={"mode": row.mode})
    ctx = LogContext(content, game.state.geometry)
    session = Session(row, game, ctx)
    for token in tokens:
        session.apply_token(token)
    return session


class Manager:
    """All games of this server process, backed by the store."""

    def __init__(self, store: Store, content: Content, ai_delay: float = 0.2,
                 max_sessions: int = 1000) -> None:
        self.store = store
        self.content = content
        self.ai_delay = ai_delay
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.max_sessions = max_sessions
        self.changed: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.rng = random.SystemRandom()

    # ------------------------------------------------------------------ loading
    def _load(self, game_id: str) -> Session:
        row = self.store.get_game(game_id)
        if row is None:
            raise WebError(404, f"no game with id {game_id!r}")
        session = new_session(row, self.content,
                               (t for t, _ in self.store.moves_of(game_id)))
        self._keep(session)
        return session

    def _keep(self, session: Session) -> None:
        """Cache a game; the least recently used idle ones leave (the store has them)."""
        self.sessions[session.id] = session
        self.sessions.move_to_end(session.id)
        for game_id in list(self.sessions)[:max(0, len(self.sessions) - self.max_sessions)]:
            old = self.sessions[game_id]
            driver = self.drivers.get(game_id)
            if not old.lock.locked() and (driver is None or driver.done()):
                del self.sessions[game_id]
                self.drivers.pop(game_id, None)

    def session(self, game_id: str) -> Session:
        """The game, caught up with decisions other server processes stored."""
        session = self.sessions.get(game_id)
        if session is None:
            return self._load(game_id)
        self.sessions.move_to_end(game_id)
        stored = self.store.count_moves(game_id)
        if stored != session.seq:
            if stored > session.seq:
                try:
                    for token, _ in self.store.moves_of(game_id, session.seq):
                        session.apply_token(token)
                except (NotationError, IllegalOptionError, GameOverError):
                    return self._load(game_id)
            else:  # an undo elsewhere: rebuild
                fresh = self._load(game_id)
                fresh.lock = session.lock
                return fresh
        return session

    # ------------------------------------------------------------------ creation
    def create(self, mode: str, settings: Settings, *, level: str = "easy",
               seat: str = "key", quick: bool = True, faction: str | None = None) -> dict[str, Any]:
        if mode not in ("ai", "hotseat", "online"):
            raise WebError(400, f"mode must be 'ai', 'hotseat' or 'online', not {mode!r}")
        if seat == "random":
            seat = self.rng.choice(SIDES)
        if seat not in SIDES:
            raise WebError(400, f"seat must be 'key', 'skull' or 'random', not {seat!r}")
        if mode == "ai" and level not in LEVELS:
            raise WebError(400, f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
        if faction is not None and faction not in {f.id for f in self.content.factions}:
            known = ", ".join(f.id for f in self.content.factions)
            raise WebError(400, f"unknown faction {faction!r}; factions: {known}")
        human = SIDES.index(seat)
        tokens: dict[str, str] = {"spectator": secrets.token_urlsafe(12)}
        if mode == "hotseat":
            tokens["both"] = secrets.token_urlsafe(18)
        elif mode == "ai":
            tokens[seat] = secrets.token_urlsafe(18)
        else:
            tokens["key"] = secrets.token_urlsafe(18)
            tokens["skull"] = secrets.token_urlsafe(18)
        options = {"level": level, "ai_seat": 1 - human, "human": human, "quick": quick,
                   "creator": seat}
        game_id = secrets.token_hex(8)
        row = GameRow(game_id, mode, settings.as_dict(), options, tokens, False)
        session = new_session(row, self.content, ())
        if quick:  # a random legal setup, with the chosen faction for the creator
            while in_setup(session.state):
                decision = session.state.decision()
                if decision.is_chance:
                    option = sample_chance(session.state, self.rng)
                elif (decision.kind == "faction" and faction is not None
                      and decision.player == human):
                    option = faction
                else:
                    option = self.rng.choice(decision.options)
                session.apply(option)
        else:
            self._settle(session)
        self.store.create_game(game_id, mode, row.settings, options, tokens)
        self.store.add_moves(game_id, 0, [(e.token, e.player) for e in session.game.history],
                             session.state.is_terminal)
        self._keep(session)
        self.kick(game_id)
        creator = tokens.get("both") or tokens[seat]
        links = {"play": f"/g/{game_id}?t={creator}", "watch": f"/g/{game_id}"}
        if mode == "online":
            links["invite"] = f"/g/{game_id}?t={tokens[SIDES[1 - human]]}"
        return {"id": game_id, "token": creator, "seat": seat, "links": links}

    def load_record(self, record: Any) -> dict[str, Any]:
        """Store a game record (the engine's format) as a finished game to replay."""
        from ..engine import replay
        try:
            game = replay(record, self.content)
        except NotationError as err:
            raise WebError(400, f"this record cannot be loaded: {err}") from None
        game_id = secrets.token_hex(8)
        settings = record["settings"]
        tokens = {"spectator": secrets.token_urlsafe(12)}
        self.store.create_game(game_id, "replay", dict(settings), {"ai_seat": -2}, tokens)
        self.store.add_moves(game_id, 0, [(e.token, e.player) for e in game.history], True)
        return {"id": game_id, "links": {"replay": f"/replay/{game_id}"}}

    # ------------------------------------------------------------------ decisions
    def _settle(self, session: Session) -> None:
        """Sample every chance decision now due (the server rolls the dice)."""
        while not session.state.is_terminal and session.state.is_chance:
            session.apply(sample_chance(session.state, self.rng))

    def _commit(self, session: Session, start: int) -> None:
        """Store the decisions taken since ``start``; on a clash, drop them (stale)."""
        entries = [(e.token, e.player) for e in session.game.history[start:]]
        try:
            self.store.add_moves(session.id, start, entries, session.state.is_terminal)
        except DuplicateMoveError:
            fresh = self._load(session.id)
            fresh.lock = session.lock
            raise WebError(409, "stale decision: another decision was taken first; "
                                "reload the game") from None
        self._notify(session.id)

    async def decide(self, game_id: str, token: str | None, seq: Any, option: Any) -> Session:
        session = self.session(game_id)
        async with session.lock:
            session = self.session(game_id)
            seats = session.seats_of(token)
            if seats is None:
                raise WebError(403, "this token does not belong to this game")
            if not seats:
                raise WebError(403, "spectators can only watch: this link cannot decide")
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise WebError(400, "'seq' must be the decision number (an integer) "
                                    "the choice answers")
            if not isinstance(option, str):
                raise WebError(400, "'option' must be an option token (a string)")
            state = session.state
            if state.is_terminal:
                raise WebError(409, "the game is over: no decision to take")
            if seq != session.seq:
                raise WebError(409, f"stale decision: it answers decision {seq}, but the game "
                                    f"is at decision {session.seq}; reload the game")
            decision = state.decision()
            if decision.player not in seats:
                who = "chance" if decision.player == CHANCE else SIDES[decision.player]
                raise WebError(409, f"not your decision: it is {who}'s {decision.kind!r} "
                                    "decision now")
            try:
                chosen = parse_option(state, option)
            except (NotationError, IllegalOptionError) as err:
                raise WebError(422, f"illegal option: {err}") from None
            start = session.seq
            session.apply(chosen)
            self._settle(session)
            self._commit(session, start)
        self.kick(game_id)
        return session

    async def undo(self, game_id: str, token: str | None) -> Session:
        session = self.session(game_id)
        async with session.lock:
            session = self.session(game_id)
            seats = session.seats_of(token)
            if seats is None:
                raise WebError(403, "this token does not belong to this game")
            if not seats:
                raise WebError(403, "spectators can only watch: this link cannot undo")
            if session.row.mode not in ("ai", "hotseat"):
                raise WebError(409, "undo is only for games on one screen or against the AI")
            count = undo_count(session.game.history, seats)
            if count == 0:
                raise WebError(409, "nothing to take back: the opponent has acted, a die was "
                                    "rolled, or you have not decided yet")
            keep = session.seq - count
            self.store.truncate(game_id, keep)
            fresh = self._load(game_id)
            fresh.lock = session.lock
            self._notify(game_id)
            return fresh

    # ------------------------------------------------------------------ the AI
    def kick(self, game_id: str) -> None:
        """Start the AI driver of a game if the AI is to decide and none runs."""
        session = self.sessions.get(game_id)
        if session is None or session.row.mode != "ai" or session.state.is_terminal:
            return
        if session.state.current_player != session.ai_seat():
            return
        task = self.drivers.get(game_id)
        if task is not None and not task.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop (tests without one)
            task = asyncio.get_running_loop().create_task(self._drive(game_id))
            task.add_done_callback(_report_failure)
            self.drivers[game_id] = task

    async def _drive(self, game_id: str) -> None:
        seed = self.rng.randrange(2**32)
        while True:
            session = self.session(game_id)
            if session.state.is_terminal or session.state.current_player != session.ai_seat():
                return
            seq = session.seq
            snapshot = session.state.clone()
            level = session.row.options.get("level", "easy")
            agent = get_agent(level, seed=seed + seq)
            # The search runs in a worker thread: other games go on meanwhile.
            option = await asyncio.to_thread(agent.choose, snapshot)
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            async with session.lock:
                session = self.session(game_id)
                if session.seq != seq:
                    continue  # an undo or another process moved on: think again
                start = session.seq
                session.apply(option)
                self._settle(session)
                try:
                    self._commit(session, start)
                except WebError:
                    continue

    def resume_all(self) -> None:
        """After a restart: let the AI take the decisions that are its turn."""
        for game_id in self.store.unfinished_ids():
            try:
                self.session(game_id)
            except (WebError, NotationError, IllegalOptionError):
                continue
            self.kick(game_id)

    # ------------------------------------------------------------------ live updates
    def _notify(self, game_id: str) -> None:
        event = self.changed.pop(game_id, None)
        if event is not None:
            event.set()

    def waiter(self, game_id: str) -> asyncio.Event:
        event = self.changed.get(game_id)
        if event is None:
            event = self.changed[game_id] = asyncio.Event()
        return event


def _report_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the AI driver failed", exc_info=task.exception())


def undo_count(history: list[Entry], seats: frozenset[int]) -> int:
    """How many decisions an undo takes back: the player's own last turn (or setup
    decisions), stopping at the opponent's last decision; 0 if a die was rolled in it."""
    if not history:
        return 0
    last = next((e for e in reversed(history) if e.player != CHANCE), None)
    if last is None or history[-1].player == CHANCE or last.player not in seats:
        return 0
    player = last.player
    count = 0
    for entry in reversed(history):
        if entry.player != player:
            if entry.player == CHANCE and entry.kind == "roll":
                return 0  # T: a die rolled in this turn cannot be taken back
            break
        count += 1
        if entry.kind == "play":
            break
    return count


# ---------------------------------------------------------------------- the view
def view(session: Session, seats: frozenset[int], upto: int | None = None,
         content: Content | None = None) -> dict[str, Any]:
    """What a viewer sees: position, decision with options (if theirs), log, result."""
    game = session.game
    state = game.state
    pos = position_to_dict(state)
    for p, side in enumerate(SIDES):  # S3: a secret choice stays secret
        chosen = pos["secret_factions"][side]
        if chosen is not None and (p not in seats or len(seats) == 2):
            pos["secret_factions"][side] = "hidden"
    decision = None
    if not state.is_terminal:
        d = state.decision()
        mine = d.player in seats and upto is None
        en, es = PROMPTS.get(d.kind, (d.kind, d.kind))
        decision = {
            "kind": d.kind,
            "player": d.player,
            "side": SIDES[d.player] if d.player in (0, 1) else "chance",
            "mine": mine,
            "options": [format_option(state, o) for o in d.options] if mine else [],
            "piece": state.geometry.name(d.piece) if d.piece >= 0 else None,
            "card": d.card,
            "prompt": {"en": en, "es": es},
        }
    result = pos["result"]
    last_roll = None
    for entry in reversed(game.history):
        if entry.kind == "roll":
            last_roll = {"face": entry.token,
                         "card": next((e.data.get("card") for e in entry.events
                                       if e.kind == "roll"), None)}
            break
    row = session.row
    out: dict[str, Any] = {
        "id": session.id,
        "mode": row.mode,
        "seq": session.seq,
        "seats": sorted(SIDES[p] for p in seats),
        "position": pos,
        "decision": decision,
        "result": result,
        "result_text": result_text(result),
        "log": session.log,
        "last_turn": last_turn_squares(session),
        "last_roll": last_roll,
        "undo": row.mode in ("ai", "hotseat") and bool(seats)
        and undo_count(game.history, seats) > 0 and upto is None,
        "ai": ({"level": row.options.get("level"), "seat": SIDES[session.ai_seat()]}
               if row.mode == "ai" else None),
        "deploy_rows": state.content.board_row(state.settings.size).deploy_rows,
        "phase": "over" if state.is_terminal else ("setup" if in_setup(state) else "play"),
    }
    if row.mode == "online" and len(seats) == 1:
        (seat,) = seats
        if SIDES[seat] == row.options.get("creator"):
            other = SIDES[1 - seat]
            out["invite"] = f"/g/{session.id}?t={row.tokens[other]}"
    return out


def in_setup(state: State) -> bool:
    """Before the first turn: setup choices and the deal (S1–S7)."""
    return not state.is_terminal and (state.first < 0 or state.decision().kind in SETUP_KINDS)


def last_turn_squares(session: Session) -> list[str]:
    """Squares touched by the last finished turn (for the highlight)."""
    game = session.game
    turns = list(game.turns())
    if not turns:
        return []
    state = game.state
    at_turn_start = state.is_terminal or state.decision().kind == "play"
    turn = turns[-1] if at_turn_start else (turns[-2] if len(turns) > 1 else [])
    name = state.geometry.name
    squares: list[str] = []
    for entry in turn:
        for ev in entry.events:
            for key in ("square", "to"):
                sq = ev.data.get(key)
                if isinstance(sq, int) and sq >= 0 and name(sq) not in squares:
                    squares.append(name(sq))
    return squares
