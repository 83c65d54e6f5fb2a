"""The decision path's write on SQLite goes through the DB-API connection itself
(issue 30: SQLAlchemy's machinery cost twice the write); it keeps the store's promises:
all or nothing, a stale writer refused, a busy file reported as SQLAlchemy reports it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from reliquary.web import db
from reliquary.web.db import StaleError, Store


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 50)
    made = Store(f"sqlite:///{tmp_path / 'w.db'}")
    made.create_game("g", "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    return made


def test_decisions_are_stored_at_their_revision(store: Store) -> None:
    assert store._direct is not None  # SQLite: the direct path is the one tested
    assert store.add_moves("g", 1, 1, [("b", 1), ("c", -1)], False) == 2
    assert store.add_moves("g", 2, 3, [("d", 0)], True) == 3
    row = store.get_game("g")
    assert row is not None and (row.rev, row.seq, row.finished) == (3, 4, True)
    assert store.moves_of("g") == [("a", 0), ("b", 1), ("c", -1), ("d", 0)]
    assert [idx for idx, _, _ in store.move_times("g", 1, 4)] == [1, 2, 3]


def test_a_stale_writer_stores_nothing(store: Store) -> None:
    with pytest.raises(StaleError, match="no longer at revision 7"):
        store.add_moves("g", 7, 1, [("b", 1)], False)
    with pytest.raises(StaleError):  # the right revision, another decision count
        store.add_moves("g", 1, 5, [("b", 1)], False)
    row = store.get_game("g")
    assert row is not None and (row.rev, row.seq) == (1, 1)
    assert store.moves_of("g") == [("a", 0)]


def test_a_taken_index_is_stale_and_rolls_the_revision_back(store: Store) -> None:
    with store.engine.begin() as conn:  # a decision index stored behind the row's back
        conn.execute(db.moves.insert().values(game_id="g", idx=1, token="z", player=0,
                                              created=0.0))
    with pytest.raises(StaleError, match="is taken"):
        store.add_moves("g", 1, 1, [("b", 1)], False)
    row = store.get_game("g")
    assert row is not None and (row.rev, row.seq) == (1, 1)  # the UPDATE was undone


def test_a_locked_file_is_sqlalchemy_s_operational_error(store: Store, tmp_path: Path
                                                         ) -> None:
    holder = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(OperationalError, match="locked"):
            store.add_moves("g", 1, 1, [("b", 1)], False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.add_moves("g", 1, 1, [("b", 1)], False) == 2  # the connection still works
