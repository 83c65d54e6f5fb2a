"""The game store: SQLAlchemy Core tables for games and every decision taken.

SQLite in a file by default; any SQLAlchemy URL works, PostgreSQL included
(``postgresql+psycopg://user:pass@host/db``). Each decision is one row keyed by
(game, index): the primary key makes a second writer of the same index fail, which
is what keeps two simultaneous submissions (even from two server processes) from
both being accepted.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("mode", String(16), nullable=False),        # ai, hotseat, online, replay
    Column("settings", Text, nullable=False),          # JSON: size, los, first_turn, round_cap
    Column("options", Text, nullable=False),           # JSON: ai level/seat, setup, seed…
    Column("tokens", Text, nullable=False),            # JSON: role -> secret token
    Column("finished", Integer, nullable=False, default=0),
)

moves = Table(
    "moves", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("token", String(64), nullable=False),
    Column("player", Integer, nullable=False),         # 0, 1, or -1 for chance
    Column("created", Float, nullable=False),
)


class DuplicateMoveError(Exception):
    """Another writer already stored a decision at this index (a stale submission)."""


@dataclass
class GameRow:
    id: str
    mode: str
    settings: dict[str, Any]
    options: dict[str, Any]
    tokens: dict[str, str]
    finished: bool


class Store:
    """Games and their decisions in one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Several processes starting at once: one creates the tables, the rest wait.
                conn.execute(text("SELECT pg_advisory_xact_lock(72201)"))
            metadata.create_all(conn)

    def create_game(self, game_id: str, mode: str, settings: dict[str, Any],
                    options: dict[str, Any], tokens: dict[str, str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=game_id, created=time.time(), mode=mode, settings=json.dumps(settings),
                options=json.dumps(options), tokens=json.dumps(tokens), finished=0))

    def get_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
        if row is None:
            return None
        return GameRow(row.id, row.mode, json.loads(row.settings), json.loads(row.options),
                       json.loads(row.tokens), bool(row.finished))

    def moves_of(self, game_id: str, start: int = 0) -> list[tuple[str, int]]:
        """The stored decisions of a game from index ``start``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(moves.c.token, moves.c.player)
                .where(moves.c.game_id == game_id, moves.c.idx >= start)
                .order_by(moves.c.idx)).all()
        return [(r.token, r.player) for r in rows]

    def count_moves(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(moves)
                                    .where(moves.c.game_id == game_id)).scalar_one())

    def add_moves(self, game_id: str, start: int, entries: list[tuple[str, int]],
                  finished: bool) -> None:
        """Store decisions at indexes ``start``…, all or none.

        Raises :class:`DuplicateMoveError` if one of those indexes is already taken.
        """
        now = time.time()
        try:
            with self.engine.begin() as conn:
                if entries:
                    conn.execute(insert(moves), [
                        {"game_id": game_id, "idx": start + i, "token": token,
                         "player": player, "created": now}
                        for i, (token, player) in enumerate(entries)])
                if finished:
                    conn.execute(update(games).where(games.c.id == game_id)
                                 .values(finished=1))
        except IntegrityError:
            raise DuplicateMoveError(f"decision {start} of game {game_id} is taken") from None

    def truncate(self, game_id: str, keep: int) -> None:
        """Delete the decisions from index ``keep`` on (undo)."""
        with self.engine.begin() as conn:
            conn.execute(moves.delete().where(moves.c.game_id == game_id,
                                              moves.c.idx >= keep))
            conn.execute(update(games).where(games.c.id == game_id).values(finished=0))

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.finished == 0,
                                                         games.c.mode == "ai")).all()
        return [r.id for r in rows]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
