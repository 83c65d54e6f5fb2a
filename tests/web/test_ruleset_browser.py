"""The new-game form's ruleset field (issue 26): its one-line description, the
variants it sets, and a game started under it showing it in its details and record."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from reliquary.rulesets import load_ruleset

from .conftest import Server

pytestmark = pytest.mark.browser


def test_the_form_offers_the_rulesets_and_the_game_shows_its_own(server: Server,
                                                                   browser: Any) -> None:
    tournament = load_ruleset("tournament")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server.url)
    page.wait_for_selector("#ruleset option", state="attached")  # drawn once /api/meta answers
    options = page.eval_on_selector_all("#ruleset option", "els => els.map(e => e.value)")
    assert options[0] == "classic" and "tournament" in options
    page.select_option("#ruleset", "tournament")
    assert page.inner_text("#ruleset-description") == tournament.description
    for name, value in tournament.settings.items():   # the ruleset fills the variants
        assert page.eval_on_selector(f"[name={name}]", "e => e.value") == str(value)
    page.select_option("#ruleset", "classic")
    assert page.eval_on_selector("[name=killed_minions]", "e => e.value") == "pool"
    page.select_option("#ruleset", "tournament")
    page.select_option("#mode", "hotseat")
    page.click("#start")
    page.wait_for_selector("#board")
    page.click("[data-tab=info]")
    assert "tournament" in page.inner_text("#game-rules")
    game_id = page.url.split("/g/", 1)[1].split("?", 1)[0]
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).json()
    assert record["meta"]["ruleset"] == "tournament"
    assert record["settings"]["killed_minions"] == tournament.settings["killed_minions"]
    assert not errors, errors
