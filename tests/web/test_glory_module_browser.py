"""Glory & Support in the browser (issue 25, Debian Chromium through Playwright): the
new-game form turns the module on; the board shows the objective markers, the status the
Glory, the rounds to the End phase and both objective hands as cards; the game goes on
(through the API, with a greedy agent) to an End phase, whose steps are played with clicks
(pass on the discard, then the upgrade step or the draws); the log tells it in English and
Spanish; a phone shows it all."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, PHONE, Server, api, screenshot, start_module_game
from .glory_driver import at_end_phase, play_until


def test_an_end_phase_with_clicks_in_both_languages_and_on_a_phone(
        server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    for _attempt in range(3):  # the server deals at random: a game may end early
        gid, token = start_module_game(page, server, "glory")

        def get(gid: str = gid, token: str = token) -> dict[str, Any]:
            return api(server, "GET", f"/api/games/{gid}?t={token}")

        def post(option: str, rev: str, gid: str = gid, token: str = token) -> dict[str, Any]:
            return api(server, "POST", f"/api/games/{gid}/decide",
                        {"token": token, "rev": rev, "option": option})

        view = play_until(get, post, at_end_phase)
        if view.get("result"):
            continue
        page.reload()
        page.wait_for_selector("#board")
        assert page.locator(".glory-marker").count() == 3
        assert page.locator("#glory-status").count() == 1
        assert page.locator(".objective-card").count() >= 1
        status = page.inner_text("#glory-status")
        assert "End phase in" in status and "Glory" in status
        kind = page.evaluate("document.body.dataset.kind")
        assert kind in ("discard_objective", "upgrade", "upgrade_piece"), kind
        prompt = page.inner_text("body")
        assert "End phase:" in prompt
        banner = page.inner_text("#end-phase-banner")  # the End phase as its own step
        assert banner.startswith("End phase 1") and "2 discard" in banner
        assert page.locator("#glory-status").is_visible()
        screenshot(page, "glory-end-phase")
        if kind in ("discard_objective", "upgrade"):
            seq = page.evaluate("document.body.dataset.seq")
            page.locator("button[data-opt='pass']").click()
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some(li => "
            "li.textContent.includes('End phase 1'))")
        page.click("[data-lang='es']")
        page.wait_for_function("() => document.documentElement.lang === 'es'")
        assert "Fase final en" in page.inner_text("#glory-status")
        if page.locator("#end-phase-banner").count():
            assert page.inner_text("#end-phase-banner").startswith("Fase final")
        assert "Fase final 1" in page.inner_text("#log")
        page.click("[data-lang='en']")
        phone = browser.new_page(viewport=PHONE)
        phone.goto(page.url)
        phone.wait_for_selector("#board")
        box = phone.locator("#board").bounding_box()
        assert box is not None and 300 < box["width"] <= PHONE["width"]
        assert phone.locator(".glory-marker").count() == 3
        cards = phone.locator(".objective-card")
        assert cards.count() >= 1
        card = cards.first.bounding_box()
        assert card is not None and card["x"] + card["width"] <= PHONE["width"] + 1
        screenshot(phone, "glory-phone")
        return
    raise AssertionError("three games ended before an End phase")
