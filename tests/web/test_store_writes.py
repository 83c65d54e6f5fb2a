"""A decision's cost (issue 30): on SQLite its write goes through the DB-API connection
itself (SQLAlchemy's machinery cost twice the write) and keeps the store's promises
(all or nothing, a stale writer refused, a busy file reported as SQLAlchemy reports
it); the option a view listed is looked up, not read from its token again."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from reliquary.engine import parse_option
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


def test_a_decision_answering_its_view_is_looked_up_not_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30's wasted work: the option a view listed goes back to the engine as the
    option it was (no token read again); a token of no view is still read and checked."""
    from fastapi.testclient import TestClient

    from reliquary.web import create_app, games

    parsed: list[str] = []

    def counting(state: Any, token: str) -> Any:
        parsed.append(token)
        return parse_option(state, token)

    monkeypatch.setattr(games, "parse_option", counting)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}", ai_delay=0)) as client:
        game = client.post("/api/games", json={"mode": "hotseat"}).json()
        gid, token = game["id"], game["token"]
        view = client.get(f"/api/games/{gid}", params={"t": token}).json()
        for _ in range(3):
            answer = client.post(f"/api/games/{gid}/decide", json={
                "token": token, "rev": view["rev"], "option": view["decision"]["options"][-1]})
            assert answer.status_code == 200, answer.text
            view = answer.json()
        assert parsed == []
        wrong = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": view["rev"], "option": "nowhere"})
        assert wrong.status_code == 422 and wrong.json()["code"] == "illegal_option"
        assert parsed == ["nowhere"]
        # A token with spaces is no view's, but the engine reads it: still taken.
        spaced = " " + view["decision"]["options"][0] + " "
        taken = client.post(f"/api/games/{gid}/decide", json={
            "token": token, "rev": view["rev"], "option": spaced})
        assert taken.status_code == 200, taken.text
        assert parsed == ["nowhere", spaced]
