"""Games with their history, and game records that replay exactly.

A :class:`Game` is a :class:`State` plus the list of every decision taken, chance
outcomes included. Its :meth:`Game.record` is a JSON-ready dict (``"format":
"reliquary-record"``) holding the settings, the content fingerprint, the setup
tokens, one list of tokens per turn, and the result. :func:`replay` rebuilds the
game from a record and refuses records made with other content.

>>> import random
>>> from reliquary import default_content
>>> game = Game(default_content())
>>> rng = random.Random(7)
>>> while not game.state.is_terminal:
...     _ = game.apply(rng.choice(game.state.legal_options()))
>>> again = replay(game.record(), default_content())
>>> again.state.result == game.state.result
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from .content import Content
from .notation import format_option, read_option
from .state import State
from .types import (
    CONCESSIONS,
    SIDES,
    Event,
    IllegalOptionError,
    NotationError,
    Option,
    Reason,
    Settings,
)

RECORD_FORMAT = "reliquary-record"
RECORD_VERSION = 1


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Entry:
    """One decision taken: its kind, who took it (-1 for chance), the option and its token."""

    kind: str
    player: int
    option: Option
    token: str
    events: tuple[Event, ...] = ()


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Game:
    """A state and its history: what a front end or a runner plays on."""

    def __init__(self, content: Content, settings: Settings | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        self.content = content
        self.settings = settings or Settings()
        self.state = self._new_state()
        self.history: list[Entry] = []
        self.meta: dict[str, Any] = dict(meta or {})

    def _new_state(self) -> State:
        state = State(self.content, self.settings)
        state.events = []
        return state

    def apply(self, option: Option) -> Entry:
        """Apply an option to the state and record it (the state is unchanged on error)."""
        state = self.state
        kind = state.stack[-1][0] if state.stack else "over"
        player = state.current_player
        token = format_option(state, option) if not state.is_terminal else str(option)
        if state.events is None:
            state.events = []
        start = len(state.events)
        state.apply(option)
        entry = Entry(kind, player, option, token, tuple(state.events[start:]))
        self.history.append(entry)
        return entry

    def apply_token(self, text: str) -> Entry:
        """Apply an option written in notation."""
        decision = self.state.decision()
        option = read_option(self.state, decision.kind, text)
        if option not in decision.options:
            raise IllegalOptionError(
                f"{text!r} is not legal for the {decision.kind!r} decision now")
        return self.apply(option)

    def concede(self, loser: int, reason: Reason = "resign") -> None:
        """End the game with a loss on time or by resignation (:meth:`State.concede`);
        the record states it and :func:`replay` reproduces it."""
        self.state.concede(loser, reason)

    def agree_draw(self) -> None:
        """End the game drawn by both players' agreement (:meth:`State.agree_draw`); the
        record states it and :func:`replay` reproduces it."""
        self.state.agree_draw()

    def turns(self) -> Iterator[list[Entry]]:
        """The history cut into turns: each starts with a ``play`` decision."""
        turn: list[Entry] = []
        for entry in self.history:
            if entry.kind == "play" and turn:
                yield turn
                turn = []
            if entry.kind == "play" or turn:
                turn.append(entry)
        if turn:
            yield turn

    def setup(self) -> list[Entry]:
        out = []
        for entry in self.history:
            if entry.kind == "play":
                break
            out.append(entry)
        return out

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` decisions (replays the rest from the start)."""
        if count > len(self.history):
            raise ValueError(f"cannot take back {count} decisions: only {len(self.history)}")
        kept = self.history[:len(self.history) - count]
        self.state = self._new_state()
        self.history = []
        for entry in kept:
            self.apply(entry.option)

    def _content_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"fingerprint": self.content.fingerprint,
                                "provisional": any(c.provisional for c in self.content.cards)}
        if self.settings.modules:  # each module's data, apart from the base content's
            from .modules import get

            info["modules"] = {name: get(name).fingerprint for name in self.settings.modules}
        return info

    def record(self) -> dict[str, Any]:
        """The game record, ready for ``json.dumps``."""
        result = self.state.result
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "content": self._content_info(),
            "settings": self.settings.as_dict(),
            "meta": self.meta,
            "setup": [e.token for e in self.setup()],
            "turns": [[e.token for e in turn] for turn in self.turns()],
            "result": None if result is None else {
                "winner": None if result.winner is None else SIDES[result.winner],
                "reason": result.reason,
                "scores": list(result.scores) if result.scores else None,
                "detail": result.detail,
            },
        }


def replay(record: dict[str, Any], content: Content, upto: int | None = None) -> Game:
    """Rebuild a game from a record, checking every token and the stated result.

    ``upto`` stops after that many decisions. Raises :class:`NotationError` for a
    malformed record, a record of other content, an illegal token (naming its place)
    or a result that does not match.
    """
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise NotationError(f"not a Reliquary game record (expected format {RECORD_FORMAT!r})")
    if record.get("version") != RECORD_VERSION:
        raise NotationError(f"record version {record.get('version')!r} is not supported "
                            f"(this engine reads version {RECORD_VERSION})")
    fingerprint = (record.get("content") or {}).get("fingerprint")
    if fingerprint != content.fingerprint:
        raise NotationError(
            f"the record was made with content {fingerprint!r}, but the loaded content is "
            f"{content.fingerprint!r}: it would not replay faithfully, so it is refused")
    try:
        settings = Settings.from_dict(record["settings"])
        tokens: list[tuple[str, str]] = [(f"setup[{i}]", t)
                                         for i, t in enumerate(record["setup"])]
        for n, turn in enumerate(record["turns"]):
            tokens.extend((f"turns[{n}][{i}]", t) for i, t in enumerate(turn))
    except (KeyError, TypeError, ValueError) as err:
        raise NotationError(f"malformed record: {type(err).__name__}: {err}") from None
    if settings.modules:  # each module's data must be the one the game was played with
        from .modules import get

        stated = (record.get("content") or {}).get("modules") or {}
        for name in settings.modules:
            if stated.get(name) != get(name).fingerprint:
                raise NotationError(
                    f"the record was made with module {name!r} data {stated.get(name)!r}, but "
                    f"the loaded data is {get(name).fingerprint!r}: it would not replay "
                    f"faithfully, so it is refused")
    game = Game(content, settings, meta=record.get("meta") or {})
    for index, (where, token) in enumerate(tokens):
        if upto is not None and index >= upto:
            return game
        if game.state.is_terminal:
            raise NotationError(f"{where}: {token!r} comes after the end of the game")
        if not isinstance(token, str):
            raise NotationError(f"{where}: a token must be a string, got {token!r}")
        try:
            game.apply_token(token)
        except (NotationError, IllegalOptionError) as err:
            raise NotationError(f"{where}: {err}") from None
    stated = record.get("result")
    if upto is None and isinstance(stated, dict) and stated.get("reason") in CONCESSIONS \
            and not game.state.is_terminal:
        winner = stated.get("winner")
        if winner not in SIDES:
            raise NotationError(f"result.winner: a {stated['reason']} needs a winner "
                                f"({' or '.join(SIDES)}), not {winner!r}")
        game.concede(1 - SIDES.index(winner), stated["reason"])
    if upto is None and isinstance(stated, dict) and stated.get("reason") == "agreed" \
            and not game.state.is_terminal:
        game.agree_draw()
    if upto is None and stated is not None:
        actual = game.record()["result"]
        if actual != stated:
            raise NotationError(f"the record states the result {stated}, "
                                f"but replaying it gives {actual}")
    return game
