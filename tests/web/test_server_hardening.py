"""The server attacked again (issue 30), as a real ``reliquary serve`` process: one
request holding up another, forged forwarded headers, half-open connections, stop
signals with work in flight, and AI workers outliving a killed server."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port

POLL_S = 0.05


def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> Server:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    server = Server(tmp_path / f"g{free_port()}.db", free_port())
    server.start()
    return server


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.kill()


def children_of(pid: int) -> set[int]:
    """Every living descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# ---------------------------------------------------------------------- 1. one request
def test_quote_bodies_at_the_limit_answer_fast_while_others_are_served(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    """The attack's bodies took 8 s (64 KB) and about two minutes (256 KB), and froze
    every other request meanwhile. The bound is far from both and loose for a shared
    machine, where one took 1.05 s beside the browser tests (the figures:
    benchmarks/web_attack.py)."""
    bound = 5.0
    server = start(tmp_path, monkeypatch)
    servers.append(server)
    meta_times: list[float] = []
    stop = threading.Event()

    def read_meta() -> None:
        with httpx.Client(base_url=server.url, timeout=30) as other:
            while not stop.is_set():
                began = time.perf_counter()
                assert other.get("/api/meta").status_code == 200
                meta_times.append(time.perf_counter() - began)

    reader = threading.Thread(target=read_meta)
    reader.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            for size in (64 * 1024, 256 * 1024 - 1):
                body = b'"' + b'\\"' * ((size - 1) // 2)
                began = time.perf_counter()
                response = client.post("/api/games", content=body,
                                       headers={"Content-Type": "application/json"})
                took = time.perf_counter() - began
                assert response.status_code == 400, response.text
                assert took < bound, f"{size} bytes took {took:.2f} s"
    finally:
        stop.set()
        reader.join()
    assert meta_times and max(meta_times) < bound, max(meta_times)


# ---------------------------------------------------------------------- 3. forwarded
def test_a_forged_x_forwarded_for_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    server = start(tmp_path, monkeypatch, RELIQUARY_CREATE_BURST="2",
                   RELIQUARY_CREATE_PER_MINUTE="1")
    servers.append(server)
    statuses = []
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for n in range(4):
            response = client.post("/api/games", json={"mode": "hotseat"},
                                   headers={"X-Forwarded-For": f"203.0.113.{n}"})
            statuses.append(response.status_code)
    assert statuses == [201, 201, 429, 429]  # one client, whatever it says it is


def test_forwarded_headers_are_believed_from_a_configured_proxy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    server = start(tmp_path, monkeypatch, RELIQUARY_CREATE_BURST="1",
                   RELIQUARY_CREATE_PER_MINUTE="1", RELIQUARY_TRUSTED_PROXIES="127.0.0.1")
    servers.append(server)
    with httpx.Client(base_url=server.url, timeout=10) as client:
        statuses = [client.post("/api/games", json={"mode": "hotseat"},
                                headers={"X-Forwarded-For": address}).status_code
                    for address in ("203.0.113.1", "203.0.113.2", "203.0.113.1")]
    assert statuses == [201, 201, 429]  # each client as the proxy names it


# ---------------------------------------------------------------------- 6. timeouts
def test_half_open_connections_are_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    server = start(tmp_path, monkeypatch, RELIQUARY_HEADER_TIMEOUT_S="1")
    servers.append(server)
    idle = socket.create_connection(("127.0.0.1", server.port))
    half = socket.create_connection(("127.0.0.1", server.port))
    half.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n")  # and never the end
    try:
        for sock in (idle, half):
            sock.settimeout(10)
            began = time.monotonic()
            assert sock.recv(1024) == b""  # closed by the server
            assert time.monotonic() - began < 5
        assert httpx.get(f"{server.url}/api/meta", timeout=5).status_code == 200
    finally:
        idle.close()
        half.close()


# ---------------------------------------------------------------------- 9. SIGTERM
def ai_game_on_the_human_s_turn(client: httpx.Client) -> dict[str, Any]:
    game = client.post("/api/games", json={"mode": "ai", "level": "easy"}).json()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
        if view["decision"] and view["decision"]["mine"]:
            return dict(game)
        time.sleep(POLL_S)
    raise AssertionError("the AI did not answer within 30 s")


@pytest.mark.parametrize("run", range(2))
def test_sigterm_stops_within_two_seconds_with_watchers_and_thinks_in_flight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server],
        run: int) -> None:
    from websockets.sync.client import connect

    server = start(tmp_path, monkeypatch, RELIQUARY_HINT_SECONDS="30")
    servers.append(server)
    assert server.process is not None
    with httpx.Client(base_url=server.url, timeout=60) as client:
        game = ai_game_on_the_human_s_turn(client)
        watchers = [connect(f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/ws")
                    for _ in range(3)]
        for watcher in watchers:
            watcher.recv(timeout=10)
        hints = [threading.Thread(target=lambda: httpx.get(
            f"{server.url}/api/games/{game['id']}/hint", params={"t": game["token"]},
            timeout=60)) for _ in range(2)]
        for hint in hints:
            hint.start()
        deadline = time.monotonic() + 10  # a hint is thinking
        while client.get("/api/health").json()["ai"]["thinking"] == 0:
            assert time.monotonic() < deadline, "no hint started"
            time.sleep(POLL_S)
        began = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=30)
        took = time.monotonic() - began
    for hint in hints:
        hint.join()
    for watcher in watchers:
        watcher.close()
    assert took < 2.0, f"the server took {took:.2f} s to stop"


# ---------------------------------------------------------------------- 10. orphans
def test_ai_workers_exit_when_the_server_is_killed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    server = start(tmp_path, monkeypatch, RELIQUARY_AI_WORKERS="2")
    servers.append(server)
    assert server.process is not None
    deadline = time.monotonic() + 30
    while not httpx.get(f"{server.url}/api/health", timeout=5).json()["ai"]["warmed"]:
        assert time.monotonic() < deadline, "the AI workers did not start"
        time.sleep(POLL_S)
    workers = children_of(server.process.pid)
    assert len(workers) >= 2  # the two workers (and multiprocessing's resource tracker)
    os.kill(server.process.pid, signal.SIGKILL)  # the server alone, as the OOM killer
    server.process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(POLL_S)
    assert not [pid for pid in workers if alive(pid)]


# ---------------------------------------------------------------------- 2. hint flood
def human_turn(client: httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    """Play the human's whole turn (first options); the view after it."""
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    while view["decision"] and view["decision"]["mine"]:
        view = client.post(f"/api/games/{game['id']}/decide", json={
            "token": game["token"], "rev": view["rev"],
            "option": view["decision"]["options"][0]}).json()
    return dict(view)


def ai_turn_seconds(client: httpx.Client, game: dict[str, Any]) -> float:
    """How long the AI takes to answer the human's turn, played now."""
    began = time.monotonic()
    view = human_turn(client, game)
    while not view["result"] and not (view["decision"] and view["decision"]["mine"]):
        time.sleep(POLL_S)
        view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    return time.monotonic() - began


def test_a_hint_flood_does_not_hold_up_another_game_s_ai(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]) -> None:
    """40 hints, each abandoned after a second, on the attacker's own game: another
    player's ``hard`` turn (1.5 s) took 42 s instead of 2.1 s. Now a turn during the
    flood takes at most a hint's second more than the same game's turn before it
    (with a second's slack: the flood's 40 client threads share this machine's CPUs)."""
    server = start(tmp_path, monkeypatch, RELIQUARY_AI_WORKERS="1")
    servers.append(server)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        attacker = ai_game_on_the_human_s_turn(client)
        victim = client.post("/api/games", json={"mode": "ai", "level": "hard"}
                             ).json()
        deadline = time.monotonic() + 60
        while True:  # the victim's turn
            view = client.get(f"/api/games/{victim['id']}", params={"t": victim["token"]}
                              ).json()
            if view["decision"] and view["decision"]["mine"]:
                break
            assert time.monotonic() < deadline
            time.sleep(POLL_S)
        calm = ai_turn_seconds(client, victim)

        def flood() -> None:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"{server.url}/api/games/{attacker['id']}/hint",
                          params={"t": attacker["token"]}, timeout=1.0)

        flooders = [threading.Thread(target=flood) for _ in range(40)]
        for thread in flooders:
            thread.start()
        flooded = ai_turn_seconds(client, victim)
        for thread in flooders:
            thread.join()
    assert flooded < max(calm, 1.5) + 1.0 + 1.0, (calm, flooded)
