"""Several server processes on one PostgreSQL database.

Needs a PostgreSQL server: set RELIQUARY_TEST_PG to its SQLAlchemy URL, e.g.
``postgresql+psycopg://postgres@/reliquary?host=/tmp&port=5433``. scripts/test.sh
installs PostgreSQL, starts a throwaway server and sets it, so CI always runs this test;
in CI a missing server is a failure, elsewhere the test is skipped without it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Server, free_port, kill_server
from .test_server_process import killed_server_loses_nothing, undo_fork

PG_URL = os.environ.get("RELIQUARY_TEST_PG")
pytestmark = pytest.mark.skipif(
    not PG_URL and not os.environ.get("CI"),
    reason="RELIQUARY_TEST_PG is not set (scripts/test.sh sets it)")


@pytest.fixture
def two_servers() -> Iterator[list[str]]:
    assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
    ports = [free_port(), free_port()]
    procs = [subprocess.Popen([sys.executable, "-m", "reliquary.web", "--port", str(port),
                               "--db", str(PG_URL), "--ai-delay", "0"],
                              start_new_session=True) for port in ports]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for url in urls:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{url}/api/meta", timeout=1)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, "a server did not start"
                    time.sleep(0.1)
        yield urls
    finally:
        for proc in procs:
            kill_server(proc)


def test_a_game_moves_between_processes_and_races_resolve(two_servers: list[str]) -> None:
    urls = two_servers
    game = httpx.post(f"{urls[0]}/api/games", json={"mode": "online"}).json()
    code = game["links"]["invite"].split("?invite=")[1]
    claim = httpx.post(f"{urls[1]}/api/games/{game['id']}/claim", json={"invite": code}).json()
    tokens = {game["seat"]: game["token"], claim["seat"]: claim["token"]}
    rng = random.Random(1)
    for n in range(30):  # each decision through the other process
        url = urls[n % 2]
        view = httpx.get(f"{url}/api/games/{game['id']}").json()
        if view["result"]:
            break
        token = tokens[view["decision"]["side"]]
        mine = httpx.get(f"{url}/api/games/{game['id']}", params={"t": token}).json()
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def submit(url: str, option: str, token: str = token, rev: str = mine["rev"],
                   barrier: threading.Barrier = barrier, statuses: list[int] = statuses) -> None:
            barrier.wait()
            statuses.append(httpx.post(f"{url}/api/games/{game['id']}/decide", json={
                "token": token, "rev": rev, "option": option}).status_code)

        options = mine["decision"]["options"]
        threads = [threading.Thread(target=submit, args=(u, rng.choice(options)))
                   for u in urls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409]


def test_an_undo_on_one_process_never_forks_the_game_on_another(
        two_servers: list[str]) -> None:
    undo_fork(two_servers)


def test_a_killed_server_on_postgresql_loses_nothing(tmp_path: Path) -> None:
    assert PG_URL, "CI must provide a PostgreSQL server through RELIQUARY_TEST_PG"
    server = Server(tmp_path / "unused.db", free_port(), db_url=PG_URL)
    server.start()
    try:
        killed_server_loses_nothing(server)
    finally:
        server.kill()
