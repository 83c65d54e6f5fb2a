"""Web behaviours that no test pinned before issue 31: the hot-seat secret, the evaluation
bar turned to the human, the AI's thinking time added up over its turn, the socket cap
per client, the body limit at exactly its size, client messages as activity, and live
updates on SQLite for every later move of another process.

Waits are for outcomes with generous deadlines, never bounds on elapsed time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from reliquary.ai import evaluate
from reliquary.ai.hint import squash
from reliquary.content import default_content
from reliquary.engine import (
    KEY,
    SKULL,
    Builder,
    Game,
    State,
    format_option,
    position_from_dict,
)
from reliquary.web import create_app
from reliquary.web.ai_pool import AIPool, ai_evaluation, level_budget
from reliquary.web.guard import Limits, RateLimiter, json_depth

from .conftest import free_port, kill_server

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[MakeClient]:
    """Test clients on one database file, with chosen limits."""
    opened: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        client = TestClient(create_app(f"sqlite:///{tmp_path / 'pinned.db'}", ai_delay=0,
                                       limits=Limits(**limits)))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def view_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"t": token} if token else {})
    assert response.status_code == 200, response.text
    return dict(response.json())


def decide(client: TestClient, game_id: str, token: str, view: dict[str, Any],
           option: str | None = None) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/decide", json={
        "token": token, "rev": view["rev"], "option": option or view["decision"]["options"][0]})
    assert response.status_code == 200, response.text
    return dict(response.json())


# ---------------------------------------------------------------------- the hot-seat secret
def test_a_hot_seat_view_hides_each_secret_faction_choice(make_client: MakeClient) -> None:
    """S3 on one screen: the player who has not chosen yet must not see the other's
    choice, so a hot-seat view shows every secret choice as hidden until both are made."""
    client = make_client()
    game = new_game(client, mode="hotseat", quick=False)
    token = game["token"]
    view = view_of(client, game["id"], token)
    assert view["seats"] == ["key", "skull"]
    while view["decision"]["kind"] != "faction":
        view = decide(client, game["id"], token, view)
    first = view["decision"]["side"]
    view = decide(client, game["id"], token, view, "lantern-bearers")
    assert view["decision"]["kind"] == "faction" and view["decision"]["side"] != first
    for seen in (view, view_of(client, game["id"], token), view_of(client, game["id"])):
        assert seen["position"]["secret_factions"][first] == "hidden"
        seen = {**seen, "decision": None}  # the options list every faction
        assert "lantern-bearers" not in json.dumps(seen)
    other = next(o for o in view["decision"]["options"] if o != "lantern-bearers")
    view = decide(client, game["id"], token, view, other)
    factions = view["position"]["factions"]
    assert factions[first] == "lantern-bearers" and other in factions.values()


# ---------------------------------------------------------------------- the evaluation bar
def _key_ahead() -> State:
    """Key's Hero whole with three Minions, Skull's Hero at 1 HP alone: Key far ahead."""
    return (Builder(default_content()).hero(KEY, "d1").minion(KEY, "c2").minion(KEY, "d2")
            .minion(KEY, "e2").hero(SKULL, "e8", hp=1).build())


def test_the_evaluation_bar_is_turned_to_the_human() -> None:
    state = _key_ahead()
    assert evaluate(state, KEY) > 100
    key_human = ai_evaluation(None, "pinned-static", state, KEY)
    skull_human = ai_evaluation(None, "pinned-static", state, SKULL)
    assert key_human == round(squash(evaluate(state, KEY)), 3) and key_human > 0.5
    assert skull_human == round(squash(evaluate(state, SKULL)), 3) and skull_human < -0.5


def test_the_evaluation_bar_of_a_finished_game() -> None:
    game = Game(default_content())
    game.concede(SKULL, "resign")
    assert game.state.winner == KEY
    assert ai_evaluation(None, "pinned-over", game.state, KEY) == 1.0
    assert ai_evaluation(None, "pinned-over", game.state, SKULL) == -1.0


class InProcess(AIPool):
    """The pool with a think that takes 0.3 s of thinking and values the position 0.4
    for the AI, run here: the line is the first legal option."""

    def __init__(self, *args: Any, think_s: float = 0.3, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budgets: list[float | None] = []
        self.think_s = think_s

    async def run(self, game_id: str, budget: float | None, fn: Any, *args: Any,
                  sticky: bool = False, owner: str | None = None) -> Any:
        self.budgets.append(budget)
        state = position_from_dict(args[0], self.content)
        return {"line": [format_option(state, state.legal_options()[0])], "value": 0.4,
                "seconds": self.think_s, "nodes": 1, "remembered": 0, "warm": 0,
                "warm_turn": -1}


def test_the_ai_adds_up_its_thinking_over_the_turn_and_the_bar_turns_its_value() -> None:
    content = default_content()
    pool = InProcess(content, max_thinking=1)
    state = (Builder(content).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
             .hero(SKULL, "h8").build())
    budget = level_budget("hard")
    assert budget is not None
    thinks = 0
    while thinks < 3:
        assert state.current_player == KEY and not state.is_chance
        if len(state.legal_options()) > 1:
            thinks += 1
        state.apply(asyncio.run(pool.choose("pinned-ai", state, "hard", 1)))
    assert pool.budgets == pytest.approx([budget * 0.85, budget - 0.3, budget - 0.6])
    brain = pool.brain("pinned-ai")
    assert brain is not None and brain.spent == pytest.approx(0.9)
    # The AI's value (0.4 for the AI) is the human's −0.4 on the bar.
    assert ai_evaluation(pool, "pinned-ai", state, SKULL) == -0.4
    pool.forget("pinned-ai")


def test_an_ai_over_its_budget_still_thinks_a_twentieth_of_it() -> None:
    content = default_content()
    pool = InProcess(content, max_thinking=1, think_s=1.0)  # two thinks overspend its 1.5 s
    state = (Builder(content).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
             .hero(SKULL, "h8").build())
    budget = level_budget("hard")
    assert budget is not None
    while len(pool.budgets) < 3:
        state.apply(asyncio.run(pool.choose("pinned-floor", state, "hard", 1)))
        assert state.current_player == KEY and not state.is_chance
    assert pool.budgets == pytest.approx([budget * 0.85, budget - 1.0, budget * 0.05])
    pool.forget("pinned-floor")


def test_undo_is_offered_off_line_only_and_new_games_keep_the_rules_round_cap(
        make_client: MakeClient) -> None:
    client = make_client()
    hotseat = new_game(client, mode="hotseat")
    view = view_of(client, hotseat["id"], hotseat["token"])
    assert view["position"]["settings"]["round_cap"] == 200  # D19's default
    view = decide(client, hotseat["id"], hotseat["token"], view)
    assert view["undo"] is True
    online = new_game(client, mode="online")
    host = online["token"]
    invite = online["links"]["invite"].split("invite=")[1]
    guest = client.post(f"/api/games/{online['id']}/claim", json={"invite": invite}).json()
    tokens = {online["seat"]: host, guest["seat"]: guest["token"]}
    view = view_of(client, online["id"])
    side = view["decision"]["side"]
    view = decide(client, online["id"], tokens[side], view_of(client, online["id"], tokens[side]))
    for token in (*tokens.values(), None):
        assert view_of(client, online["id"], token)["undo"] is False


def test_an_ai_game_s_bar_is_the_human_s_view(make_client: MakeClient) -> None:
    client = make_client()
    pool = client.app.state.capacity.pool  # type: ignore[attr-defined]
    for _ in range(5):  # a dealt position the two sides value differently (most are)
        game = new_game(client, mode="ai", level="easy", seat="skull")
        view = view_of(client, game["id"], game["token"])
        state = position_from_dict(view["position"], default_content())
        if (ai_evaluation(pool, game["id"], state, SKULL)
                != ai_evaluation(pool, game["id"], state, KEY)):
            break
    assert view["evaluation"] == ai_evaluation(pool, game["id"], state, SKULL)
    assert view["evaluation"] != ai_evaluation(pool, game["id"], state, KEY)


def test_an_ai_game_s_view_says_the_ai_is_idle_on_the_human_s_turn(
        make_client: MakeClient) -> None:
    client = make_client()
    for _ in range(12):  # who decides first in the setup varies from game to game
        game = new_game(client, mode="ai", level="easy", seat="skull")
        view = view_of(client, game["id"], game["token"])
        state = position_from_dict(view["position"], default_content())
        if not state.is_terminal and not state.is_chance and state.current_player == SKULL:
            assert view["ai"]["state"] == "idle"
            # and the prompt of the human's decision, in both languages of the screens
            assert view["decision"]["prompt"]["en"] and view["decision"]["prompt"]["es"]
            return
    pytest.fail("no new AI game began with the human to move")


# ---------------------------------------------------------------------- limits
def refusal(client: TestClient, path: str) -> tuple[str, int]:
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(path) as socket:
        message = socket.receive_json()
        socket.receive_json()
    return message["code"], closed.value.code


def test_the_socket_cap_per_client_counts_sockets_over_all_games(
        make_client: MakeClient) -> None:
    client = make_client(sockets_per_client=2, sockets_per_game=64, sockets_burst=100,
                         sockets_per_minute=600)
    ids = [new_game(client, mode="hotseat")["id"] for _ in range(3)]
    with client.websocket_connect(f"/api/games/{ids[0]}/ws") as first:
        assert first.receive_json()["type"] == "update"
        with client.websocket_connect(f"/api/games/{ids[1]}/ws") as second:
            assert second.receive_json()["type"] == "update"
            assert refusal(client, f"/api/games/{ids[2]}/ws") == ("busy", 1013)
        with client.websocket_connect(f"/api/games/{ids[2]}/ws") as third:  # a slot freed
            assert third.receive_json()["type"] == "update"


def _body_of(size: int) -> bytes:
    """A JSON new-game body of exactly ``size`` bytes (padded inside a string)."""
    head, tail = b'{"mode": "hotseat", "level": "', b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("streamed", [False, True])
def test_a_body_of_exactly_the_limit_passes_and_one_byte_more_is_413(
        make_client: MakeClient, streamed: bool) -> None:
    limit = 1000
    client = make_client(max_body_bytes=limit)

    def post(body: bytes) -> httpx.Response:
        headers = {"content-type": "application/json"}
        if streamed:  # no Content-Length: the guard counts the chunks as they come
            half = len(body) // 2
            return client.post("/api/games", content=iter([body[:half], body[half:]]),
                               headers=headers)
        return client.post("/api/games", content=body, headers=headers)

    at_limit = post(_body_of(limit))
    assert at_limit.status_code != 413, at_limit.text
    over = post(_body_of(limit + 1))
    assert over.status_code == 413 and over.json()["code"] == "too_large"


def test_client_messages_keep_a_socket_alive(make_client: MakeClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With a 2 s idle limit and a ping every 0.25 s, a client that answers each ping
    stays connected for two idle periods (pings alone are not activity); once it stops
    answering, the socket is closed as idle."""
    monkeypatch.setenv("RELIQUARY_WS_IDLE", "2")
    monkeypatch.setenv("RELIQUARY_WS_PING", "0.25")
    client = make_client()
    game = new_game(client, mode="hotseat")
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "update"
        for _ in range(16):  # 4 s of pings: two idle periods
            message = socket.receive_json()
            assert message["type"] == "ping", message
            socket.send_text("still here")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):  # no more answers: pings, then the idle close
                message = socket.receive_json()
                if message["type"] != "ping":
                    assert message["code"] == "idle"
    assert closed.value.code == 4408


# ---------------------------------------------------------------------- live updates on SQLite
@pytest.fixture
def watched_server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A server process on a SQLite file that polls for other processes' changes, with
    pings off the path; yields (its WebSocket base URL, the database URL)."""
    db = f"sqlite:///{tmp_path / 'live.db'}"
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "reliquary.web", "--port", str(port), "--db", db,
         "--ai-delay", "0"],
        env={**os.environ, "PYTHONUNBUFFERED": "1", "RELIQUARY_LIVE_POLL": "0.2",
             "RELIQUARY_WS_PING": "600"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server exited at start"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).is_success:
                    break
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.1)
        yield f"ws://127.0.0.1:{port}", db
    finally:
        kill_server(process)


def test_sqlite_watchers_hear_of_every_later_move_by_another_process(
        watched_server: tuple[str, str]) -> None:
    ws_url, db = watched_server
    with TestClient(create_app(db, ai_delay=0)) as other:  # the other process's writes
        game = new_game(other, mode="hotseat")
        with connect(f"{ws_url}/api/games/{game['id']}/ws", open_timeout=20) as socket:
            first = json.loads(socket.recv(timeout=20))
            assert first["type"] == "update"
            view = view_of(other, game["id"], game["token"])
            for _ in range(4):
                view = decide(other, game["id"], game["token"], view)
                update = json.loads(socket.recv(timeout=20))
                assert (update["type"], update["rev"]) == ("update", view["rev"])


# ---------------------------------------------------------------------- found by generated faults
def test_a_rate_limit_refills_at_exactly_its_rate_per_minute() -> None:
    """6 a minute with a burst of 1: the second request waits exactly 10 s (not 5)."""
    now = [100.0]
    limiter = RateLimiter(per_minute=6, burst=1, clock=lambda: now[0])
    assert limiter.take("a") == 0.0
    assert limiter.take("a") == pytest.approx(10.0)
    now[0] += 9.9
    assert limiter.take("a") == pytest.approx(0.1)
    now[0] += 0.1
    assert limiter.take("a") == 0.0
    assert limiter.take("b") == 0.0  # each client has a bucket of its own


def test_the_json_depth_counts_brackets_only() -> None:
    """A stray byte (0xFF: never in UTF-8 JSON) is no step of nesting: such a body is
    refused as invalid JSON, not as nested too deep."""
    assert json_depth(b"[\xff]") == 1
    assert json_depth(bytes(range(256)).replace(b"[", b"").replace(b"{", b"")
                      .replace(b'"', b"")) == 0


def _documented_defaults() -> dict[str, str]:
    """The settings table of docs/web.md: ``RELIQUARY_X`` → its default, as written."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(RELIQUARY_[A-Z_]+)`[^|]*\| ([^|]+?) \|", text, re.MULTILINE)
    return dict(rows)


def test_the_servers_settings_default_to_what_the_docs_say(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from reliquary.web import ai_driver, db, serving
    from reliquary.web.ai_pool import warm_games
    from reliquary.web.live import LiveHub

    documented = _documented_defaults()
    actual: dict[str, Callable[[], float]] = {
        "RELIQUARY_AI_WARM_GAMES": warm_games,
        "RELIQUARY_AI_NICE": lambda: AIPool(default_content(), max_thinking=3).nice,
        "RELIQUARY_HINT_SECONDS": lambda: AIPool(default_content(), max_thinking=3).hint_seconds,
        "RELIQUARY_WS_PING": lambda: LiveHub("sqlite://").ping_s,
        "RELIQUARY_WS_IDLE": lambda: LiveHub("sqlite://").idle_s,
        "RELIQUARY_LIVE_POLL": lambda: LiveHub("sqlite://").poll_s,
        "RELIQUARY_DB_BUSY_MS": db._busy_timeout_ms,
        "RELIQUARY_HEADER_TIMEOUT_S": serving.header_timeout,
        "RELIQUARY_AI_LEASE": ai_driver._lease_seconds,
        "RELIQUARY_AI_ABSENT_S": ai_driver._absent_seconds,
        "RELIQUARY_AI_LEFT_S": ai_driver._left_seconds,
    }
    for name, value in actual.items():
        monkeypatch.delenv(name, raising=False)
        assert float(documented[name]) == value(), name
    monkeypatch.delenv("RELIQUARY_AI_QUEUE", raising=False)
    assert documented["RELIQUARY_AI_QUEUE"] == "8 × workers + 8"
    for workers in (1, 3):
        assert AIPool(default_content(), max_thinking=workers).max_queued == 8 * workers + 8


def test_the_sqlite_poll_wakes_a_game_s_watchers_when_it_changes_and_only_then() -> None:
    """The poll (a faked probe, no clock bound): a game's first look wakes its watchers
    (it may have changed since their snapshot), then each change, never a look at an
    unchanged game (a watcher woken late hears of a move a poll period after it)."""
    from reliquary.web.live import LiveHub

    script = ["a", "a", "b", "b", "b", "c"]
    looks: list[str] = []

    def probe(ids: list[str]) -> dict[str, str]:
        looks.append(script[min(len(looks), len(script) - 1)])
        return dict.fromkeys(ids, looks[-1])

    hub = LiveHub("sqlite:///unused.db", probe=probe, poll_s=0.001)
    woken: list[int] = []
    hub.wake = lambda game_id: woken.append(len(looks))  # type: ignore[method-assign]
    hub._watchers["g"] = 1

    async def poll_a_while() -> None:
        await hub.start()
        while len(looks) < len(script) + 3:
            await asyncio.sleep(0.001)
        await hub.stop()

    asyncio.run(poll_a_while())
    assert woken == [1, 3, 6]
