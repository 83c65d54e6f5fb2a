"""Fixtures of the web tests: a real server process on a free port, and Chromium."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def seed_server(app: Any, seed: int) -> None:
    """Deal the setups and draw the chance of ``app``'s games from ``random.Random(seed)``
    instead of the system's randomness, so a test's games replay the same every run."""
    manager = app.state.manager
    manager.rng = manager.decisions.rng = random.Random(seed)


def kill_server(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL a server started with ``start_new_session=True`` and its process group
    (its AI workers): killed alone, it would leave them running, orphaned."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@dataclass
class Server:
    """A ``reliquary serve`` process on a database file."""

    db: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    db_url: str | None = None  # another database (PostgreSQL) instead of the file

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, ai_delay: float = 0.0) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "reliquary.web", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", self.db_url or f"sqlite:///{self.db}",
             "--ai-delay", str(ai_delay)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)  # its own process group: kill() takes its AI workers too
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                out = self.process.stdout.read().decode() if self.process.stdout else ""
                raise RuntimeError(f"the server exited at start:\n{out}")
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 30 s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash or a service manager would: the
        process and its AI workers, so nothing gets a chance to be saved and no orphaned
        worker outlives the test."""
        if self.process is not None:
            kill_server(self.process)
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.db", free_port())
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is not installed: scripts/test.sh installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def api(server: Server, method: str, path: str, body: dict[str, Any] | None = None
        ) -> dict[str, Any]:
    """One JSON request to the test server, its answer decoded."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:  # the test server
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def start_module_game(page: Any, server: Server, module: str) -> tuple[str, str]:
    """Start a hot-seat game with ``module`` on from the new-game form; (id, token)."""
    page.goto(server.url)
    page.select_option("#mode", "hotseat")
    page.click("#variants summary")  # the modules sit with the variants
    page.check(f"input[name=module][value={module}]")
    page.click("#start")
    page.wait_for_selector("#board")
    page.wait_for_function("() => location.search.startsWith('?t=')")
    gid = page.evaluate("location.pathname.split('/').pop()")
    token = page.evaluate("new URLSearchParams(location.search).get('t')")
    return gid, token


def screenshot(page: object, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path
