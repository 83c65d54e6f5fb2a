"""A decision's cost (issue 30): on SQLite and PostgreSQL its write goes through the
DB-API connection itself (SQLAlchemy's machinery cost twice the write) and keeps the
store's promises (all or nothing, a stale writer refused, a busy file or a lost server
reported as SQLAlchemy reports them); the option a view listed is looked up, not read
from its token again."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from reliquary.engine import parse_option
from reliquary.web import db
from reliquary.web.db import StaleError, Store

PG_URL = os.environ.get("RELIQUARY_TEST_PG")


@pytest.fixture(params=["sqlite", "postgresql"])
def written(request: pytest.FixtureRequest, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> tuple[Store, str]:
    """A store with a game of one decision stored: ``(store, its id)``."""
    if request.param == "postgresql":
        if not PG_URL and not os.environ.get("CI"):
            pytest.skip("RELIQUARY_TEST_PG is not set (scripts/test.sh sets it)")
        assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
        made = Store(PG_URL)
    else:
        monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 50)
        made = Store(f"sqlite:///{tmp_path / 'w.db'}")
    game_id = uuid.uuid4().hex  # a database server's tables outlive the test
    made.create_game(game_id, "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    return made, game_id


def test_decisions_are_stored_at_their_revision(written: tuple[Store, str]) -> None:
    store, g = written
    assert store._direct is not None  # the direct path is the one tested
    assert store.add_moves(g, 1, 1, [("b", 1), ("c", -1)], False) == 2
    assert store.add_moves(g, 2, 3, [("d", 0)], True) == 3
    row = store.get_game(g)
    assert row is not None and (row.rev, row.seq, row.finished) == (3, 4, True)
    assert store.moves_of(g) == [("a", 0), ("b", 1), ("c", -1), ("d", 0)]
    assert [idx for idx, _, _ in store.move_times(g, 1, 4)] == [1, 2, 3]


def test_any_token_text_is_stored_as_it_was(written: tuple[Store, str]) -> None:
    """PostgreSQL gets a decision's arrays as literals it parses: quotes, backslashes,
    commas, braces, spaces, the word NULL and other alphabets come back unchanged."""
    store, g = written
    odd = [('say "hi"', 0), ("back\\slash\\", 1), ("a,b", -1), ("{x}", 0), (" sp ", 1),
           ("NULL", 0), ("", 1), ("ñ→☂", 0)]
    assert store.add_moves(g, 1, 1, odd, False) == 2
    assert store.moves_of(g) == [("a", 0), *odd]


def test_a_stale_writer_stores_nothing(written: tuple[Store, str]) -> None:
    store, g = written
    with pytest.raises(StaleError, match="no longer at revision 7"):
        store.add_moves(g, 7, 1, [("b", 1)], False)
    with pytest.raises(StaleError):  # the right revision, another decision count
        store.add_moves(g, 1, 5, [("b", 1)], False)
    row = store.get_game(g)
    assert row is not None and (row.rev, row.seq) == (1, 1)
    assert store.moves_of(g) == [("a", 0)]


def test_a_taken_index_is_stale_and_rolls_the_revision_back(written: tuple[Store, str]
                                                            ) -> None:
    store, g = written
    with store.engine.begin() as conn:  # a decision index stored behind the row's back
        conn.execute(db.moves.insert().values(game_id=g, idx=1, token="z", player=0,
                                              created=0.0))
    with pytest.raises(StaleError, match="is taken"):
        store.add_moves(g, 1, 1, [("b", 1)], False)
    row = store.get_game(g)
    assert row is not None and (row.rev, row.seq) == (1, 1)  # the UPDATE was undone


def test_a_locked_file_is_sqlalchemy_s_operational_error(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 50)
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    store.create_game("g", "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    holder = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(OperationalError, match="locked"):
            store.add_moves("g", 1, 1, [("b", 1)], False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.add_moves("g", 1, 1, [("b", 1)], False) == 2  # the connection still works


@pytest.fixture(params=["sqlite", "postgresql"])
def store_of(request: pytest.FixtureRequest, tmp_path: Path,
             monkeypatch: pytest.MonkeyPatch) -> Store:
    """An empty store on each database, with one decision writer."""
    monkeypatch.setattr(db, "DECISION_WRITERS", 1)
    if request.param == "postgresql":
        if not PG_URL and not os.environ.get("CI"):
            pytest.skip("RELIQUARY_TEST_PG is not set (scripts/test.sh sets it)")
        assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
        return Store(PG_URL)
    return Store(f"sqlite:///{tmp_path / 'w.db'}")


def test_decisions_that_queue_together_share_one_commit(
        store_of: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions that wait for the decision writer meanwhile are stored in one
    transaction (SQLite: one sync of the log; PostgreSQL: one statement): a stale one
    is refused alone, and the others are stored and answered. One whose index is taken
    fails the group, which is then made one by one: it alone is refused."""
    import asyncio
    import time

    store = store_of
    a, b, c, d = ids = [uuid.uuid4().hex for _ in range(4)]
    for g in ids:
        store.create_game(g, "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    assert store._direct is not None
    groups: list[int] = []
    together = store._direct.add_moves_together

    def counted(calls: list[Any], told: Any = None) -> list[Any]:
        groups.append(len(calls))
        return together(calls, told)

    monkeypatch.setattr(store._direct, "add_moves_together", counted)
    slow_done: list[int] = []

    def slow_write() -> None:
        time.sleep(0.2)
        slow_done.append(1)

    writer = store._decision_writer or store._writer
    assert writer is not None

    async def main(*writes: tuple[Any, ...]) -> list[Any]:
        # A slow write first: the decisions queue behind it.
        slow = writer.run(slow_write)
        made = [store.store_decision(*args) for args in writes]
        return list(await asyncio.gather(slow, *made, return_exceptions=True))[1:]

    answers = asyncio.run(main((a, 1, 1, [("b", 1), ("c", -1)], False),
                               (b, 7, 1, [("b", 1)], False),  # stale
                               (c, 1, 1, [("b", 0)], True)))
    assert groups == [3] and slow_done == [1]
    assert answers[0] == 2 and answers[2] == 2
    assert isinstance(answers[1], StaleError) and "revision 7" in str(answers[1])
    assert store.moves_of(a) == [("a", 0), ("b", 1), ("c", -1)]
    assert store.moves_of(b) == [("a", 0)] and store.moves_of(c) == [("a", 0), ("b", 0)]
    rows = [store.get_game(g) for g in (a, b, c)]
    assert [(r.rev, r.seq, r.finished) for r in rows if r] == [
        (2, 3, False), (1, 1, False), (2, 2, True)]

    with store.engine.begin() as conn:  # game d's index 1 stored behind the row's back
        conn.execute(db.moves.insert().values(game_id=d, idx=1, token="z", player=0,
                                              created=0.0))
    answers = asyncio.run(main((a, 2, 3, [("d", 0)], False),
                               (d, 1, 1, [("b", 1)], False),  # taken
                               (b, 1, 1, [("e", 1)], False)))
    assert groups == [3, 3]
    assert answers[0] == 3 and answers[2] == 2
    assert isinstance(answers[1], StaleError) and "is taken" in str(answers[1])
    assert store.moves_of(a) == [("a", 0), ("b", 1), ("c", -1), ("d", 0)]
    assert store.moves_of(b) == [("a", 0), ("e", 1)]
    assert store.moves_of(d) == [("a", 0), ("z", 0)]
    row = store.get_game(d)
    assert row is not None and (row.rev, row.seq) == (1, 1)


@contextlib.contextmanager
def _listened_pg_store(games: int) -> Iterator[tuple[Store, Any, list[str]]]:
    """A PostgreSQL store with the live updates' notice set, ``games`` new games, and a
    connection listening on its channel (the notices of other processes)."""
    if not PG_URL and not os.environ.get("CI"):
        pytest.skip("RELIQUARY_TEST_PG is not set (scripts/test.sh sets it)")
    assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
    import psycopg
    from sqlalchemy.engine import make_url

    store = Store(PG_URL)
    channel = f"test_{uuid.uuid4().hex[:12]}"
    store.notice = (channel, "origin")
    ids = [uuid.uuid4().hex for _ in range(games)]
    for g in ids:
        store.create_game(g, "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    conninfo = make_url(PG_URL).set(drivername="postgresql").render_as_string(
        hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as listener:
        listener.execute(f"LISTEN {channel}")
        yield store, listener, ids


def test_decisions_stored_together_on_postgresql_tell_each_game() -> None:
    """With the live updates' notice set, a group's one statement sends each stored
    game's NOTIFY (at its commit), and none for a stale one."""
    with _listened_pg_store(3) as (store, listener, (a, b, c)):
        answers = store._add_moves_together([(a, 1, 1, [("b", 1)], False),
                                             (b, 5, 1, [("b", 1)], False),  # stale
                                             (c, 1, 1, [("b", 1), ("c", -1)], True)])
        heard = sorted(n.payload for n in listener.notifies(timeout=2.0))
    assert answers[0] == (True, 2) and answers[2] == (True, 2)
    assert answers[1][0] is False and isinstance(answers[1][1], StaleError)
    assert heard == sorted([f"origin:{a}", f"origin:{c}"])
    assert store.moves_of(c) == [("a", 0), ("b", 1), ("c", -1)]


def test_a_group_of_writes_that_fails_as_a_whole_is_made_one_by_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure of the shared transaction (here: its commit) stores none of it; each
    write is then made on its own, with its own answer."""
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    for g in "ab":
        store.create_game(g, "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    assert store._direct is not None

    def broken(calls: list[Any], told: Any = None) -> list[Any]:
        raise OperationalError("COMMIT", None, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(store._direct, "add_moves_together", broken)
    answers = store._add_moves_together([("a", 1, 1, [("b", 1)], False),
                                         ("b", 3, 1, [("b", 1)], False)])
    assert answers[0] == (True, 2)
    assert answers[1][0] is False and isinstance(answers[1][1], StaleError)
    assert store.moves_of("a") == [("a", 0), ("b", 1)] and store.moves_of("b") == [("a", 0)]


def test_a_lost_database_server_is_sqlalchemy_s_operational_error() -> None:
    """PostgreSQL: a write on a connection the server dropped is SQLAlchemy's
    OperationalError (503 busy on the decide path), and the next write takes a fresh
    connection from the pool."""
    if not PG_URL and not os.environ.get("CI"):
        pytest.skip("RELIQUARY_TEST_PG is not set (scripts/test.sh sets it)")
    assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
    store = Store(PG_URL)
    g = uuid.uuid4().hex
    store.create_game(g, "hotseat", {}, {}, {"both": "x"}, [("a", 0)])
    assert store.add_moves(g, 1, 1, [("b", 1)], False) == 2
    assert store._direct is not None  # the connection this thread's writes keep
    pid = store._direct._local.raw.dbapi_connection.info.backend_pid
    other = create_engine(PG_URL)
    with other.connect() as conn:  # the server ends that session (as on a restart)
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}
                            ).scalar_one()
    other.dispose()
    with pytest.raises(OperationalError):
        store.add_moves(g, 2, 2, [("c", 0)], False)
    assert store.add_moves(g, 2, 2, [("c", 0)], False) == 3
    assert store.moves_of(g) == [("a", 0), ("b", 1), ("c", 0)]


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


def test_a_decision_s_write_on_postgresql_sends_its_notify_itself() -> None:
    """With the live updates' notice set, a decision's one statement tells the other
    processes (pg_notify, at its commit); a stale write tells nobody."""
    with _listened_pg_store(1) as (store, listener, (g,)):
        assert store.tells
        with pytest.raises(StaleError):
            store.add_moves(g, 9, 1, [("b", 1)], False)
        assert store.add_moves(g, 1, 1, [("b", 1), ("c", -1)], False) == 2
        heard = [n.payload for n in listener.notifies(timeout=2.0)]
    assert heard == [f"origin:{g}"]


def test_fastapi_s_telemetry_is_decided_once_not_at_every_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without OpenTelemetry set up, FastAPI does not look for its providers at each
    request (it did, about 18 µs of a decision's CPU); with ``OTEL_*`` settings it is
    left as FastAPI sets it."""
    from fastapi.testclient import TestClient
    from opentelemetry import trace

    from reliquary.web import create_app
    from reliquary.web.app import telemetry

    for name in [n for n in os.environ if n.startswith(("OTEL_", "FASTAPI_OTEL_"))]:
        monkeypatch.delenv(name)
    looked: list[int] = []
    provider = trace.get_tracer_provider

    def counted() -> Any:
        looked.append(1)
        return provider()

    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", ai_delay=0)) as client:
        monkeypatch.setattr(trace, "get_tracer_provider", counted)
        for _ in range(3):
            assert client.get("/api/meta").status_code == 200
    assert looked == []
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")
    assert telemetry() == {}
