"""The view's `last_turn`: the squares of the last *finished* turn, which the play
screen shades (docs/web.md: "The last finished turn is shaded yellow") — at the start
of the next turn and all through it, until that turn ends in its turn (issue 31: a
fault emptying it once the next turn had begun passed every test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'last.db'}", ai_delay=0)) as client:
        yield client


def _decide(client: TestClient, game: dict[str, Any], view: dict[str, Any],
            option: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game['id']}/decide",
                         json={"token": game["token"], "rev": view["rev"], "option": option})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_the_last_finished_turn_stays_shaded_through_the_next_turn(
        client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "hotseat"}).json()
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    assert view["decision"]["kind"] == "play"  # a quick game starts at the first turn
    first = view["decision"]["side"]
    move = next(o for o in view["decision"]["options"] if o.endswith(":move"))
    view = _decide(client, game, view, move)
    while view["decision"]["side"] == first:  # the rest of the first turn: a move
        view = _decide(client, game, view, view["decision"]["options"][0])
    assert view["decision"]["kind"] == "play"
    finished = view["last_turn"]
    assert finished  # a move touches squares: where it went from and to
    seen = [finished]
    while view["decision"]["side"] != first and not view["result"]:
        view = _decide(client, game, view, view["decision"]["options"][0])
        seen.append(view["last_turn"])
    # Through the second turn (each of its decisions) the first turn stays shaded; at
    # the third turn's start the second turn is the last finished one.
    assert all(squares == finished for squares in seen[:-1]), seen
    assert len(seen) > 2  # the second turn took more than one decision
