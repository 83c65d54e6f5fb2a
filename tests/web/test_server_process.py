"""The real server process: killed in the middle of games and started again, and two
browsers submitting the same decision at the same moment."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

from .conftest import Server


def create(srv: Server, **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{srv.url}/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return dict(response.json())


def view_of(srv: Server, game_id: str, token: str | None) -> dict[str, Any]:
    params = {"t": token} if token else {}
    response = httpx.get(f"{srv.url}/api/games/{game_id}", params=params, timeout=10)
    assert response.status_code == 200, response.text
    return dict(response.json())


def tokens_of(game: dict[str, Any]) -> dict[str, str]:
    creator = game["links"]["play"].split("?t=")[1]
    invite = game["links"]["invite"].split("?t=")[1]
    return {game["seat"]: creator, ("skull" if game["seat"] == "key" else "key"): invite}


def play_some(srv: Server, game_id: str, tokens: dict[str, str], count: int,
              rng: random.Random) -> dict[str, Any]:
    view = view_of(srv, game_id, None)
    for _ in range(count):
        if view["result"]:
            break
        token = tokens[view["decision"]["side"]]
        mine = view_of(srv, game_id, token)
        response = httpx.post(f"{srv.url}/api/games/{game_id}/decide", timeout=10, json={
            "token": token, "seq": mine["seq"], "option": rng.choice(mine["decision"]["options"])})
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def test_a_killed_server_loses_nothing(server: Server) -> None:
    rng = random.Random(4)
    online = create(server, mode="online", seat="key", quick=False)
    tokens = tokens_of(online)
    play_some(server, online["id"], tokens, 40, rng)  # setup and the first turns
    ai = create(server, mode="ai", seat="key")
    ai_token = ai["links"]["play"].split("?t=")[1]
    before = {g: view_of(server, g, t) for g, t in
              ((online["id"], tokens["key"]), (ai["id"], ai_token))}
    server.kill()  # SIGKILL: no shutdown hook runs
    server.start()
    for game_id, token in ((online["id"], tokens["key"]), (ai["id"], ai_token)):
        after = view_of(server, game_id, token)
        old = before[game_id]
        if game_id == ai["id"] and not old["decision"]["mine"]:
            continue  # the AI was thinking: it goes on after the restart (below)
        assert after["seq"] == old["seq"]
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
    tokens = tokens_of(game)
    for _round in range(5):
        view = view_of(server, game["id"], None)
        if view["result"]:
            break
        token = tokens[view["decision"]["side"]]
        mine = view_of(server, game["id"], token)
        options = mine["decision"]["options"]
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def submit(option: str, token: str = token, seq: int = mine["seq"],
                   barrier: threading.Barrier = barrier, statuses: list[int] = statuses) -> None:
            barrier.wait()
            response = httpx.post(f"{server.url}/api/games/{game['id']}/decide", timeout=10,
                                  json={"token": token, "seq": seq, "option": option})
            statuses.append(response.status_code)

        threads = [threading.Thread(target=submit, args=(o,))
                   for o in (options[0], options[-1])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409]
        assert view_of(server, game["id"], None)["seq"] > mine["seq"]
