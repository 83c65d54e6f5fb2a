"""Conditions in the browser (issue 23, Debian Chromium through Playwright): the new-game
form turns the module on; a turn is played with INTERACT by clicks (card, INTERACT, GUARD
with its note, the piece); the piece's Defensive marker shows its value and a tooltip
that says what it does and when it ends, in English and Spanish; a phone shows it too."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, PHONE, Server, api, screenshot
from .keepers_driver import play_until


def test_guard_by_clicks_shows_the_marker_and_its_tooltip_in_both_languages(
        server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    page.goto(server.url)
    page.select_option("#mode", "hotseat")
    page.click("#variants summary")
    page.check("input[name=module][value=conditions]")
    page.click("#start")
    page.wait_for_selector("#board")
    page.wait_for_function("() => location.search.startsWith('?t=')")
    gid = page.evaluate("location.pathname.split('/').pop()")
    token = page.evaluate("new URLSearchParams(location.search).get('t')")

    def get() -> dict[str, Any]:
        return api(server, "GET", f"/api/games/{gid}?t={token}")

    def post(option: str, rev: str) -> dict[str, Any]:
        return api(server, "POST", f"/api/games/{gid}/decide",
                    {"token": token, "rev": rev, "option": option})

    view = play_until(get, post, lambda v: bool(v.get("decision"))
                      and v["decision"]["kind"] == "play")
    assert view["position"]["settings"]["modules"] == ["conditions"]
    page.reload()
    page.wait_for_selector("#board")
    page.locator(".card.playable").first.click()
    page.locator("button[data-mode='interact']").click()
    page.wait_for_selector("button[data-opt='guard']")
    guard = page.inner_text("button[data-opt='guard']")
    assert "GUARD" in guard and "Defensive 1" in guard  # the action's note says what it does
    page.locator("button[data-opt='guard']").click()
    page.wait_for_function("() => document.body.dataset.kind === 'cond_actor'")
    page.locator(".opt-sq").first.click()
    page.wait_for_selector(".cond-mark.cond-defensive")
    mark = page.locator(".cond-mark.cond-defensive").first
    assert mark.get_attribute("data-value") == "1"
    title = mark.locator("title").text_content() or ""
    assert "Defensive 1" in title and "every hit" in title and "ends when" in title
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some(li => "
        "li.textContent.includes('gains Defensive 1'))")
    screenshot(page, "conditions-guard")
    page.click("[data-lang='es']")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.cond-mark title')].some(t => "
        "t.textContent.includes('Defensiva 1'))")
    title_es = page.locator(".cond-mark.cond-defensive title").first.text_content() or ""
    assert "Defensiva 1" in title_es and "acaba al empezar" in title_es
    assert "gana Defensiva 1" in page.inner_text("#log")
    page.click("[data-lang='en']")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(page.url)
    phone.wait_for_selector("#board")
    box = phone.locator("#board").bounding_box()
    assert box is not None and 300 < box["width"] <= PHONE["width"]
    assert phone.locator(".cond-mark.cond-defensive").count() == 1
    screenshot(phone, "conditions-phone")
