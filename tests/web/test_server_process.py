"""The real server process: killed in the middle of games and started again, two
browsers submitting the same decision at the same moment, and two processes on one
SQLite file (an undo on one never forks the game served by the other)."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server, free_port


def create(srv: Server, **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{srv.url}/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return dict(response.json())


def view_of(srv: Server, game_id: str, token: str | None) -> dict[str, Any]:
    params = {"t": token} if token else {}
    response = httpx.get(f"{srv.url}/api/games/{game_id}", params=params, timeout=10)
    assert response.status_code == 200, response.text
    return dict(response.json())


def tokens_of(srv: Server, game: dict[str, Any]) -> dict[str, str]:
    """Both seats' tokens of an online game: the creator's, and the guest's by claiming
    the invite."""
    code = game["links"]["invite"].split("?invite=")[1]
    claim = httpx.post(f"{srv.url}/api/games/{game['id']}/claim", json={"invite": code},
                       timeout=10)
    assert claim.status_code == 200, claim.text
    return {game["seat"]: game["token"], claim.json()["seat"]: claim.json()["token"]}


def play_some(srv: Server, game_id: str, tokens: dict[str, str], count: int,
              rng: random.Random) -> dict[str, Any]:
    view = view_of(srv, game_id, None)
    for _ in range(count):
        if view["result"]:
            break
        token = tokens[view["decision"]["side"]]
        mine = view_of(srv, game_id, token)
        response = httpx.post(f"{srv.url}/api/games/{game_id}/decide", timeout=10, json={
            "token": token, "rev": mine["rev"], "option": rng.choice(mine["decision"]["options"])})
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def test_a_killed_server_loses_nothing(server: Server) -> None:
    killed_server_loses_nothing(server)


def killed_server_loses_nothing(server: Server) -> None:
    """Games in progress survive SIGKILL: every stored decision is back after a start."""
    rng = random.Random(4)
    online = create(server, mode="online", seat="key", quick=False)
    tokens = tokens_of(server, online)
    play_some(server, online["id"], tokens, 40, rng)  # setup and the first turns
    ai = create(server, mode="ai", seat="key")
    ai_token = ai["token"]
    before = {g: view_of(server, g, t) for g, t in
              ((online["id"], tokens["key"]), (ai["id"], ai_token))}
    server.kill()  # SIGKILL: no shutdown hook runs
    server.start()
    for game_id, token in ((online["id"], tokens["key"]), (ai["id"], ai_token)):
        after = view_of(server, game_id, token)
        old = before[game_id]
        if game_id == ai["id"] and not old["decision"]["mine"]:
            continue  # the AI was thinking: it goes on after the restart (below)
        assert after["seq"] == old["seq"] and after["rev"] == old["rev"]
        assert after["position"] == old["position"]
        assert after["log"] == old["log"]
    # The game goes on where it was, and the AI takes up its turns again.
    view = play_some(server, online["id"], tokens, 10, rng)
    assert view["seq"] > before[online["id"]]["seq"] or view["result"]
    deadline = time.monotonic() + 20
    while not view_of(server, ai["id"], ai_token)["decision"]["mine"]:
        assert time.monotonic() < deadline, "the AI did not resume after the restart"
        time.sleep(0.05)


def test_two_browsers_submitting_at_once_one_is_accepted(server: Server) -> None:
    game = create(server, mode="online", seat="key")
    tokens = tokens_of(server, game)
    for _round in range(5):
        view = view_of(server, game["id"], None)
        if view["result"]:
            break
        token = tokens[view["decision"]["side"]]
        mine = view_of(server, game["id"], token)
        options = mine["decision"]["options"]
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def submit(option: str, token: str = token, rev: str = mine["rev"],
                   barrier: threading.Barrier = barrier, statuses: list[int] = statuses) -> None:
            barrier.wait()
            response = httpx.post(f"{server.url}/api/games/{game['id']}/decide", timeout=10,
                                  json={"token": token, "rev": rev, "option": option})
            statuses.append(response.status_code)

        threads = [threading.Thread(target=submit, args=(o,))
                   for o in (options[0], options[-1])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409]
        assert view_of(server, game["id"], None)["seq"] > mine["seq"]


def undo_fork(urls: list[str]) -> None:
    """Finding 1 of issue 7 as first written, on two server processes A and B sharing one
    database: A decides, B catches up, A undoes and decides differently; then B is sent
    a decision legal only in the position it had seen. It must be refused as stale, and
    the game must stay loadable, the same through both processes, with its record."""
    a, b = urls
    game = httpx.post(f"{a}/api/games", json={"mode": "hotseat"}, timeout=10).json()
    game_id, token = game["id"], game["token"]
    url = f"/api/games/{game_id}"

    def get(base: str) -> dict[str, Any]:
        response = httpx.get(f"{base}{url}", params={"t": token}, timeout=10)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def post(base: str, action: str, **body: Any) -> httpx.Response:
        return httpx.post(f"{base}{url}/{action}", json={"token": token, **body}, timeout=10)

    start = get(a)
    plays = start["decision"]["options"]
    first = post(a, "decide", rev=start["rev"], option=plays[0])
    assert first.status_code == 200, first.text
    seen_by_b = get(b)  # B catches up with A's decision
    assert seen_by_b["rev"] == first.json()["rev"]
    stale_option = seen_by_b["decision"]["options"][0]  # legal only after plays[0]
    undone = post(a, "undo", rev=first.json()["rev"])
    assert undone.status_code == 200, undone.text
    other = post(a, "decide", rev=undone.json()["rev"], option=plays[-1])
    assert other.status_code == 200, other.text
    forked = post(b, "decide", rev=seen_by_b["rev"], option=stale_option)
    assert forked.status_code == 409, forked.text
    assert forked.json()["code"] == "stale" and forked.json()["rev"] == other.json()["rev"]
    # B serves the stored game, not its stale copy; both stay loadable and agree.
    view_a, view_b = get(a), get(b)
    assert view_a["rev"] == view_b["rev"] == other.json()["rev"]
    assert view_a["position"] == view_b["position"] == other.json()["position"]
    for base in (a, b):
        assert httpx.get(f"{base}{url}/record", timeout=10).status_code == 200
    # The game goes on through B from the stored position.
    going_on = post(b, "decide", rev=view_b["rev"], option=view_b["decision"]["options"][0])
    assert going_on.status_code == 200, going_on.text
    assert get(a)["rev"] == going_on.json()["rev"]


def test_an_undo_on_one_process_never_forks_the_game_on_another(tmp_path: Path) -> None:
    servers = [Server(tmp_path / "shared.db", free_port()) for _ in range(2)]
    try:
        for srv in servers:
            srv.start()
        undo_fork([srv.url for srv in servers])
    finally:
        for srv in servers:
            srv.kill()


def test_one_thinker_per_ai_game_across_two_processes(tmp_path: Path) -> None:
    """Two processes on one SQLite file both serve an AI game (each is asked for it, so
    each starts its AI driver): the thinking lease lets only one of them search each AI
    decision, so the searches the two made add up to the AI's decisions, no more."""
    db = tmp_path / "games.db"
    servers = [Server(db, free_port()), Server(db, free_port())]
    for srv in servers:
        srv.start()
    try:
        a = servers[0]
        game = create(a, mode="ai", level="medium", seat="key")
        game_id, token = game["id"], game["token"]
        rng = random.Random(3)

        def human_to_move(turn: int) -> dict[str, Any]:
            """The view once the AI has played (or the game ended), from process
            ``turn % 2``; both processes are asked, so both drivers run."""
            deadline = time.monotonic() + 60
            while True:
                view = [view_of(srv, game_id, token) for srv in servers][turn % 2]
                if view["result"] or (view["decision"] and view["decision"]["mine"]):
                    return view
                assert time.monotonic() < deadline, "the AI did not answer"
                time.sleep(0.02)

        for turn in range(14):
            view = human_to_move(turn)
            if view["result"]:
                break
            response = httpx.post(f"{servers[turn % 2].url}/api/games/{game_id}/decide",
                                  timeout=10, json={"token": token, "rev": view["rev"],
                                                    "option": rng.choice(
                                                        view["decision"]["options"])})
            assert response.status_code in (200, 409), response.text
        # Let the AI finish the turn it owes before counting (it counts a decision as
        # soon as it has chosen it; under load the last one may still be on its way).
        human_to_move(0)
        events = httpx.get(f"{a.url}/api/games/{game_id}/events", timeout=10).json()
        setup = {"ruin", "faction", "rite", "deploy", "relic"}
        ai_decisions = sum(1 for e in events["entries"]
                           if e["player"] == "skull" and e["kind"] not in setup)
        thought = [httpx.get(f"{srv.url}/api/health", timeout=10).json()["ai"]["decisions"]
                   for srv in servers]
        assert ai_decisions > 5
        assert sum(thought) == ai_decisions, (thought, ai_decisions)
    finally:
        for srv in servers:
            srv.kill()
