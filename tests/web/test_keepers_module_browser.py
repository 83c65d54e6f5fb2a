"""Keepers' Relics in the browser (issue 24, Debian Chromium through Playwright): the
new-game form turns the module on; the board shows the face-down tokens and the relic
points; a DELVE is played with clicks (card, INTERACT, Delve, the delver) and its reveal
shows the token's value; the game goes on (through the API, with a module-aware agent)
to a recovery; the log tells it in English and Spanish; a phone shows it all."""

from __future__ import annotations

from typing import Any

from .conftest import DESKTOP, PHONE, Server, api, screenshot, start_module_game
from .keepers_driver import can_delve, play_until


def _delve_with_clicks(page: Any) -> None:
    """Play the selected card's INTERACT mode, then Delve, then the delver (and Ruin)."""
    page.reload()
    page.wait_for_selector("#board")
    page.locator(".card.playable").first.click()
    page.locator("button[data-mode='interact']").click()
    page.wait_for_selector("button[data-opt='delve']")
    page.locator("button[data-opt='delve']").click()
    page.wait_for_function("() => document.body.dataset.kind === 'delver'")
    page.locator(".opt-sq").first.click()
    page.wait_for_function("() => document.body.dataset.kind !== 'delver'")
    if page.evaluate("document.body.dataset.kind") == "delve_ruin":
        page.locator(".opt-sq").first.click()


def test_a_delve_with_a_reveal_and_a_recovery_in_both_languages_and_on_a_phone(
        server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    for _attempt in range(4):  # the server deals and draws at random: retry a short game
        gid, token = start_module_game(page, server, "keepers")
        assert page.locator(".token.face-down").count() == 4  # one on each Ruin, type only
        assert page.locator("#keepers-points").count() == 1

        def get(gid: str = gid, token: str = token) -> dict[str, Any]:
            return api(server, "GET", f"/api/games/{gid}?t={token}")

        def post(option: str, rev: str, gid: str = gid, token: str = token) -> dict[str, Any]:
            return api(server, "POST", f"/api/games/{gid}/decide",
                        {"token": token, "rev": rev, "option": option})

        view = play_until(get, post, can_delve, limit=400)
        if view.get("result"):
            continue
        # the page shows the position the API play reached before the tokens are counted
        page.wait_for_function("r => document.body.dataset.rev === r", arg=str(view["rev"]))
        delves = "() => [...document.querySelectorAll('#log li')]" \
                 ".filter(li => li.textContent.includes('delves the Ruin')).length"
        delves_before = page.evaluate(delves)
        _delve_with_clicks(page)
        # this delve's own log line (earlier delves may be in the log already), then the
        # board drawn for it: the revealed token shows its value
        page.wait_for_function(f"n => ({delves})() > n", arg=delves_before)
        # the delve revealed its token (M-KEEP-4: face up, lifted or not), and the page
        # draws every face-up token the server's position has: at least that one, unless
        # the delver lifted it where it stood to recover it at the turn's end (M-KEEP-7)
        after = get()
        tokens = after["position"]["modules"]["keepers"]["tokens"]
        up = sum(t.get("face") == "up" and ("square" in t or "carrier" in t) for t in tokens)
        lines = [line["en"] for line in after["log"]]
        since_delve = lines[max(i for i, line in enumerate(lines) if "delves the Ruin" in line):]
        assert any("Revealed on" in line for line in lines), lines[-10:]
        assert up >= 1 or any(" recovers " in line for line in since_delve), since_delve
        page.wait_for_function(
            "n => document.querySelectorAll('.token.face-up').length === n", arg=up)
        screenshot(page, "keepers-delve")
        view = play_until(get, post, lambda v: any(" recovers " in line["en"]
                                                   for line in v["log"]), limit=1500)
        if not any(" recovers " in line["en"] for line in view["log"]):
            continue
        page.reload()
        page.wait_for_selector("#board")
        log = page.inner_text("#log")
        assert "Revealed on" in log and " recovers " in log
        points = page.inner_text("#keepers-points")
        assert "Relic points" in points
        page.click("[data-lang='es']")
        page.wait_for_function("() => document.documentElement.lang === 'es'")
        log_es = page.inner_text("#log")
        assert "Revelado en" in log_es and " recupera " in log_es
        assert "Puntos de reliquia" in page.inner_text("#keepers-points")
        page.click("[data-lang='en']")
        phone = browser.new_page(viewport=PHONE)
        phone.goto(page.url)
        phone.wait_for_selector("#board")
        box = phone.locator("#board").bounding_box()
        assert box is not None and 300 < box["width"] <= PHONE["width"]
        assert phone.locator(".keepers").count() == 1
        screenshot(phone, "keepers-phone")
        return
    raise AssertionError("four games ended before a delve and a recovery")
