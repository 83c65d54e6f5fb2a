"""The game-session model of the terminal app: no widgets, only the engine's public API.

A :class:`GameSession` is a :class:`~reliquary.engine.Game` plus who plays each seat,
the seeded chance draws, the plain-language log (the web's tables) and the undo policy
(the web's :func:`~reliquary.web.games.undo_count`). A :class:`ReplaySession` holds a
finished or unfinished record, stepped through decision by decision.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import Agent, get_agent, sample_chance
from ..ai.drafting import drafted
from ..ai.hint import analyse
from ..engine import (
    CHANCE,
    SETUP_KINDS,
    SIDES,
    Content,
    Decision,
    Entry,
    Game,
    NotationError,
    Option,
    Play,
    Settings,
    State,
    Step,
    format_option,
    position_from_dict,
    position_to_dict,
    replay,
)
from ..rulesets import (
    DEFAULT_RULESET,
    META_KEY,
    RulesetError,
    load_ruleset,
    ruleset_of_record,
)
from ..web.games import undo_count
from ..web.text import Line, LogContext, describe, note_before, result_text
from .i18n import t

HUMAN = "human"
#: Seconds a hint may think (as the web's default).
HINT_SECONDS = 1.0


@dataclass
class Setup:
    """How a new game starts: who plays, the rules, and whether the setup is dealt."""

    opponent: str = "easy"       # an AI level or agent name, or "human" (hot-seat)
    seat: int = 0                # the human's seat against the AI
    quick: bool = False          # a random legal setup, as the web's one-click game
    faction: str | None = None   # the human's faction in a quick setup (None: random)
    settings: Settings = field(default_factory=Settings)
    seed: int | None = None
    #: The ruleset played (:mod:`reliquary.rulesets`): its content patch is the game's
    #: content and its settings the form's defaults; records name it.
    ruleset: str = DEFAULT_RULESET


def in_setup(state: State) -> bool:
    """Before the first turn: setup choices and the deal (S1–S7)."""
    return not state.is_terminal and (state.first < 0 or state.decision().kind in SETUP_KINDS)


def option_squares(state: State, option: Option) -> tuple[int, ...]:
    """The squares an option names on the board (none for cards, factions, rites, pass)."""
    if isinstance(option, Step):
        return (option.frm, option.to)
    if isinstance(option, int) and not isinstance(option, bool) and not state.is_chance:
        return (option,)
    return ()


def turn_squares(state: State, history: list[Entry]) -> set[int]:
    """Squares touched by the last finished turn (the web's highlight of the last turn)."""
    starts: list[int] = []
    for index in range(len(history) - 1, -1, -1):
        if history[index].kind == "play":
            starts.append(index)
            if len(starts) == 2:
                break
    if not starts:
        return set()
    if state.is_terminal or state.decision().kind == "play":
        turn = history[starts[0]:]
    else:
        turn = history[starts[1]:starts[0]] if len(starts) > 1 else []
    return {sq for entry in turn for ev in entry.events for key in ("square", "to")
            if isinstance(sq := ev.data.get(key), int) and sq >= 0}


class GameSession:
    """One game in the terminal: the engine's game, the seats, chance, log and undo."""

    def __init__(self, content: Content, setup: Setup | None = None,
                 game: Game | None = None) -> None:
        self.content = content
        self.setup = setup or Setup()
        s = self.setup
        self.humans = frozenset({0, 1} if s.opponent == HUMAN else {s.seat})
        self.ai_seat: int | None = None if s.opponent == HUMAN else 1 - s.seat
        self.agent: Agent | None = (None if self.ai_seat is None
                                    else drafted(get_agent(s.opponent, seed=s.seed), s.seed))
        self.rng = random.Random(s.seed)
        players = ["human" if p in self.humans else s.opponent for p in (0, 1)]
        self.game = game or Game(content, s.settings, meta={"players": players, "app": "tui",
                                                            META_KEY: s.ruleset})
        #: False for a game continued from a position: it has no history to record.
        self.has_record = True
        self.log: list[Line] = []
        self.ctx = LogContext(content, self.state.geometry)
        if game is not None:
            self._rebuild(list(game.history))
        if s.quick:
            self._quick_setup()
        self.play_chance()

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        return self.game.state

    @property
    def history(self) -> list[Entry]:
        return self.game.history

    def decision(self) -> Decision | None:
        """The current decision, or None when the game is over."""
        return None if self.state.is_terminal else self.state.decision()

    def to_move(self) -> int:
        """The player to decide now (-1 when over, CHANCE for a draw of chance)."""
        return self.state.current_player

    def human_to_move(self) -> bool:
        return self.to_move() in self.humans

    def ai_to_move(self) -> bool:
        return self.ai_seat is not None and self.to_move() == self.ai_seat

    def tokens(self) -> list[str]:
        """The current decision's options in notation."""
        d = self.decision()
        return [] if d is None else [format_option(self.state, o) for o in d.options]

    def last_turn(self) -> set[int]:
        return turn_squares(self.state, self.history)

    def preview(self, option: Option) -> tuple[set[int], list[Line]]:
        """What an option would do, worked out on a clone: the squares it touches and
        its log lines (nothing is applied to the game)."""
        state = self.state.clone()
        d = state.decision()
        ctx = LogContext(self.content, self.ctx.geometry, dict(self.ctx.pieces),
                         list(self.ctx.factions), self.ctx.attacker, self.ctx.dealt)
        note_before(ctx, state, d.kind, option)
        token = format_option(state, option)
        state.events = []
        state.apply(option)
        events = tuple(state.events)
        squares = set(option_squares(self.state, option))
        squares |= {sq for ev in events for key in ("square", "to")
                    if isinstance(sq := ev.data.get(key), int) and sq >= 0}
        if isinstance(option, Play):  # where the card's pieces could go (or strike)
            squares |= _reach(state, d.player, depth=2)
        lines = describe(ctx, Entry(d.kind, d.player, option, token, events))
        if d.kind == "faction":  # S3: the choice stays secret, the preview says nothing of it
            lines = []
        return squares, lines

    def result_line(self, lang: str) -> str | None:
        r = self.state.result
        if r is None:
            return None
        line = result_text({"winner": None if r.winner is None else SIDES[r.winner],
                            "reason": r.reason, "scores": r.scores})
        if line is None:
            return None
        if r.reason == "vigil" and r.detail:  # how the Vigil's tie-break (V2) decided it
            return f"{line[lang]} ({t(lang, 'tiebreak')}: {r.detail})"
        return line[lang]

    # ------------------------------------------------------------------ playing
    def apply(self, option: Option) -> Entry:
        """Take an option of the current decision (the engine checks it) and log it."""
        note_before(self.ctx, self.state, self.state.decision().kind, option)
        entry = self.game.apply(option)
        self.log.extend(describe(self.ctx, entry))
        return entry

    def choose(self, option: Option) -> Entry:
        """A player's decision, then any chance that follows it."""
        entry = self.apply(option)
        self.play_chance()
        return entry

    def play_chance(self) -> None:
        """Draw every chance outcome now due (deals, die rolls) with the seeded draws."""
        while self.state.is_chance:
            self.apply(sample_chance(self.state, self.rng))

    def think(self) -> Option:
        """The AI's choice for the current decision (slow: run it in a worker).

        It reads a clone, so the game may be drawn while it thinks."""
        assert self.agent is not None and self.ai_to_move()
        return self.agent.choose(self.state.clone())

    def hint(self, seconds: float = HINT_SECONDS) -> dict[str, Any]:
        """The web's hint for the player to move (slow: run it in a worker)."""
        return analyse(self.state.clone(), agent="hard", seed=0, time=seconds)

    def _quick_setup(self) -> None:
        """A random legal setup, the human's faction as asked (the web's quick game)."""
        human = min(self.humans)
        while in_setup(self.state):
            d = self.state.decision()
            if d.is_chance:
                option: Option = sample_chance(self.state, self.rng)
            elif d.kind == "faction" and self.setup.faction and d.player == human:
                option = self.setup.faction
            else:
                option = self.rng.choice(d.options)
            self.apply(option)

    # ------------------------------------------------------------------ undo
    def undo_size(self) -> int:
        """How many decisions ``u`` takes back now: the web's policy (0: refused)."""
        if not self.has_record or self.state.is_terminal or not self.history:
            return 0
        return undo_count(self.history, self.humans, self.ai_seat)

    def undo(self) -> int:
        """Take back as the web does; the number of decisions taken back (0: refused)."""
        count = self.undo_size()
        if count:
            kept = list(self.history[:len(self.history) - count])
            self.game = Game(self.content, self.game.settings, meta=self.game.meta)
            self.ctx = LogContext(self.content, self.state.geometry)
            self.log = []
            self._rebuild(kept)
        return count

    def _rebuild(self, entries: list[Entry]) -> None:
        """Play ``entries`` again on a fresh game, the log with them."""
        if self.history:
            self.game = Game(self.content, self.game.settings, meta=self.game.meta)
            self.ctx = LogContext(self.content, self.state.geometry)
            self.log = []
        for entry in entries:
            self.apply(entry.option)

    # ------------------------------------------------------------------ keeping
    def record(self) -> dict[str, Any]:
        if not self.has_record:
            raise ValueError("a game continued from a position has no record")
        return self.game.record()

    def save_record(self, path: Path) -> None:
        path.write_text(json.dumps(self.record(), indent=1) + "\n", encoding="utf-8")

    def save_position(self, path: Path) -> None:
        path.write_text(json.dumps(position_to_dict(self.state), indent=1) + "\n",
                        encoding="utf-8")

    @classmethod
    def load(cls, path: Path, content: Content, setup: Setup) -> GameSession:
        """Continue a game from a record or a position file (clear errors naming it)."""
        data = read_game_file(path)
        if data.get("format") == "reliquary-record":
            played = ruleset_of_record(data)
            try:
                if played != setup.ruleset:  # the record's own ruleset, its content patch
                    content = load_ruleset(played).content()
                game = replay(data, content)
            except (NotationError, RulesetError) as err:
                raise ValueError(f"{path}: {err}") from None
            return cls(content, _with_settings(setup, game.settings, played), game)
        try:
            state = position_from_dict(data, content)
        except NotationError as err:
            raise ValueError(f"{path}: {err}") from None
        game = Game(content, state.settings, meta={"from_position": str(path)})
        session = cls(content, _with_settings(setup, state.settings), game)
        state.events = []
        session.game.state = state  # no history: this game continues from the position
        session.has_record = False
        session.log = []
        session.ctx = LogContext(content, state.geometry)
        session.play_chance()
        return session


def _reach(state: State, player: int, depth: int) -> set[int]:
    """The squares ``player``'s next decisions offer, ``depth`` decisions deep (the
    pieces a card moves, then where each may go), read from clones."""
    if depth == 0 or state.is_terminal or state.current_player != player:
        return set()
    found: set[int] = set()
    for option in state.legal_options():
        squares = option_squares(state, option)
        if not squares:
            continue
        found.update(squares)
        after = state.clone()
        after.apply(option)
        found |= _reach(after, player, depth - 1)
    return found


def _with_settings(setup: Setup, settings: Settings, ruleset: str | None = None) -> Setup:
    return Setup(setup.opponent, setup.seat, False, None, settings, setup.seed,
                 ruleset or setup.ruleset)


def read_game_file(path: Path) -> dict[str, Any]:
    """A record or position JSON file, or ValueError saying what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: "
                         f"{err.msg})") from None
    kind = data.get("format") if isinstance(data, dict) else None
    if kind not in ("reliquary-record", "reliquary-position"):
        raise ValueError(f"{path}: neither a game record ('reliquary-record') nor a position "
                         f"('reliquary-position'); its 'format' is {kind!r}")
    assert isinstance(data, dict)
    return data


class ReplaySession:
    """A record stepped through: the state and log after each decision."""

    def __init__(self, record: dict[str, Any], content: Content) -> None:
        full = replay(record, content)  # checks every token and the stated result
        self.entries = list(full.history)
        self.final_result = full.state.result
        game = Game(content, full.settings, meta=full.meta)
        ctx = LogContext(content, game.state.geometry)
        self.states: list[State] = [game.state.clone()]
        self.logs: list[int] = [0]
        self.log: list[Line] = []
        for entry in self.entries:
            note_before(ctx, game.state, entry.kind, entry.option)
            done = game.apply(entry.option)
            self.log.extend(describe(ctx, done))
            self.states.append(game.state.clone())
            self.logs.append(len(self.log))
        if full.state.is_terminal and not game.state.is_terminal:  # a resignation
            self.states[-1] = full.state.clone()
        self.game = game
        self.index = len(self.entries)

    @property
    def total(self) -> int:
        return len(self.entries)

    @property
    def state(self) -> State:
        return self.states[self.index]

    def lines(self) -> list[Line]:
        return self.log[:self.logs[self.index]]

    def last_turn(self) -> set[int]:
        return turn_squares(self.state, self.entries[:self.index])

    def go(self, index: int) -> None:
        self.index = max(0, min(self.total, index))

    def step(self, delta: int) -> None:
        self.go(self.index + delta)

    def turn(self, delta: int) -> None:
        """To the start of the next (or previous) turn: a ``play`` decision."""
        starts = [i for i, e in enumerate(self.entries) if e.kind == "play"]
        if delta > 0:
            later = [i for i in starts if i > self.index]
            self.go(later[0] if later else self.total)
        else:
            earlier = [i for i in starts if i < self.index]
            self.go(earlier[-1] if earlier else 0)


def describe_option(state: State, option: Option, modes: dict[str, str],
                    names: dict[str, dict[str, str]] | None = None) -> str:
    """An option as the options list shows it: its token, a card with its mode's name, a
    faction or rite with its name in the language (``names``: id -> name)."""
    if isinstance(option, Play):
        return f"{option.card} · {modes.get(option.mode, option.mode)}"
    token = format_option(state, option)
    named = (names or {}).get(state.decision().kind, {}).get(token)
    return f"{token} · {named}" if named and named != token else token


__all__ = ["CHANCE", "HUMAN", "GameSession", "ReplaySession", "Setup", "describe_option",
           "in_setup", "option_squares", "read_game_file", "turn_squares"]
