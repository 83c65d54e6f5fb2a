"""A game under a ruleset keeps the ruleset's content patch as it was when the game
began (``web.games.RULESET_PATCH_KEY``): the designer editing the ruleset's file and the
server restarting change the games begun after it, not the games in progress (which
would otherwise replay into another game, or fail to replay); the AI's workers get the
kept patch with the position."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary import rulesets
from reliquary.engine import Game, Settings
from reliquary.web import ai_pool, create_app

from .conftest import seed_server


def minions(view: dict[str, Any]) -> int:
    return sum(p["kind"] == "minion" for p in view["position"]["pieces"])


def edit_tournament(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row: str) -> None:
    """The packaged rulesets, with ``row`` (a [patch.board.8] table) added to tournament."""
    folder = tmp_path / "rulesets"
    shutil.copytree(rulesets.rulesets_folder(), folder)
    file = folder / "tournament.toml"
    file.write_text(file.read_text(encoding="utf-8") + f"\n[patch.board.8]\n{row}\n",
                    encoding="utf-8")
    monkeypatch.setattr(rulesets, "rulesets_folder", lambda: folder)


def test_a_game_in_progress_keeps_its_ruleset_through_an_edit_and_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite:///{tmp_path / 'kept.db'}"
    with TestClient(create_app(db, ai_delay=0)) as client:
        seed_server(client.app, 7)
        made = client.post("/api/games", json={"mode": "hotseat", "size": 8,
                                               "ruleset": "tournament"}).json()
        url, token = f"/api/games/{made['id']}", made["token"]
        assert minions(client.get(url, params={"t": token}).json()) == 6  # three a side
        rng = random.Random(7)
        for _ in range(6):  # a few turns into the game
            view = client.get(url, params={"t": token}).json()
            option = rng.choice(view["decision"]["options"])
            answer = client.post(f"{url}/decide", json={"token": token, "rev": view["rev"],
                                                         "option": option})
            assert answer.status_code == 200, answer.text
        before = client.get(url, params={"t": token}).json()

    edit_tournament(tmp_path, monkeypatch, "minions = 2")
    with TestClient(create_app(db, ai_delay=0)) as client:
        after = client.get(url, params={"t": token}).json()
        assert after["position"] == before["position"]
        assert after["decision"] == before["decision"]
        assert after["ruleset"] == "tournament"
        made = client.post("/api/games", json={"mode": "online", "public": True,
                                               "size": 8, "ruleset": "tournament"}).json()
        [listed] = client.get("/api/lobby").json()["games"]  # the name, not the patch
        assert listed["settings"]["ruleset"] == "tournament"
        assert "ruleset_patch" not in listed["settings"]
        new = client.get(f"/api/games/{made['id']}", params={"t": made["token"]}).json()
    assert minions(new) == 4  # the edit reaches the games begun after it
    assert new["position"]["content"] != before["position"]["content"]


def test_a_worker_rebuilds_a_kept_ruleset_no_file_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    patch = {"board": {"8": {"minions": 2}}, "factions": {"pyre-choir": {"hero_hp": 6}}}
    content = rulesets.stored_content("tournament", patch)
    state = Game(content, Settings(size=8)).state
    position = ai_pool._position(state)
    assert position[ai_pool.PATCH_KEY] == patch
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", rulesets.load_ruleset().content())
    rebuilt = ai_pool._state_of(position)
    assert rebuilt.content.fingerprint == content.fingerprint != ai_pool._WORKER_CONTENT.fingerprint
    assert ai_pool._position(rebuilt) == position
