"""The rule modules' previews in the browser (issues 23–25, Debian Chromium through
Playwright): INTERACT previewed on a card (FOCUS/GUARD's marks on the board and their
words, as the server's preview says), a DELVE's odds, the choices' notes on a phone, and
a Glory upgrade's tooltip read from glory.toml's data — in English and Spanish."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from .conftest import DESKTOP, PHONE, Server, api, screenshot
from .keepers_driver import can_delve, play_until


def _new_game(server: Server, module: str) -> tuple[str, str]:
    game = api(server, "POST", "/api/games", {"mode": "hotseat", "modules": [module]})
    return game["id"], game["token"]


def _driver(server: Server, gid: str, token: str) -> tuple[Any, Any]:
    def get() -> dict[str, Any]:
        return api(server, "GET", f"/api/games/{gid}?t={token}")

    def post(option: str, rev: str) -> dict[str, Any]:
        return api(server, "POST", f"/api/games/{gid}/decide",
                   {"token": token, "rev": rev, "option": option})

    return get, post


def _preview_interact(page: Any, server: Server, gid: str, token: str) -> dict[str, Any]:
    """Choose the first card, point at its INTERACT mode: the preview the page drew, as
    the server sends it."""
    page.wait_for_selector("#board")
    page.locator(".card.playable").first.click()
    page.locator("button[data-mode='interact']").hover()
    page.wait_for_selector("#interact-preview .ia-chip")
    card = page.evaluate("document.querySelector('.card.playable.selected').dataset.card")
    return api(server, "GET", f"/api/games/{gid}/preview?t={token}&option={card}:interact")


def _tooltip(page: Any, condition: str) -> str:
    """A piece's marker tooltip for ``condition``, as the page's own code draws it."""
    return str(page.evaluate(
        "async name => { const m = await import('/static/js/conditions.js');"
        " const svg = m.conditionMarks({conditions: [{name}]}, 20);"
        " const box = document.createElement('div'); box.innerHTML = `<svg>${svg}</svg>`;"
        " return box.querySelector('title').textContent; }", condition))


def test_interact_preview_and_a_glory_upgrade_tooltip_in_both_languages_and_on_a_phone(
        server: Server, browser: Any) -> None:
    gid, token = _new_game(server, "conditions")
    get, post = _driver(server, gid, token)
    play_until(get, post, lambda v: bool(v.get("decision")) and v["decision"]["kind"] == "play")
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    page.goto(f"{server.url}/g/{gid}?t={token}")
    pv = _preview_interact(page, server, gid, token)
    # The first action is shown: its actors ringed on the board, its ways told.
    first = next(iter(pv["actions"]))
    outcomes = pv["actions"][first]["outcomes"]
    assert page.get_attribute("#interact-preview", "data-action") == first
    for o in outcomes:
        assert page.locator(f".pv-actor[data-to='{o['choices'][0]}']").count() == 1
    items = page.locator("#interact-preview li").all_inner_texts()
    assert [i.split(" ", 1)[1] for i in items] == [o["text"]["en"] for o in outcomes]
    # GUARD, pointed at: which piece gains what, and when it ends.
    page.locator("[data-ia-action='guard']").hover()
    page.wait_for_selector("#interact-preview[data-action='guard']")
    side = "Key" if page.evaluate("document.body.dataset.side") != "skull" else "Skull"
    guard = page.inner_text("#interact-preview")
    assert f"gains Defensive 1, until {side}'s next turn starts." in guard
    screenshot(page, "interact-preview")
    # Glory's upgrades: the marker's tooltip is glory.toml's name and text, in both
    # languages.
    toml = resources.files("reliquary.data") / "glory.toml"  # what a designer edits
    data = tomllib.loads(toml.read_text(encoding="utf-8"))
    honed = next(u for u in data["upgrade"] if u["id"] == "HonedEdge")
    assert _tooltip(page, honed["condition"]) == f"Upgrade {honed['name']['en']}: {honed['en']}"
    page.click("[data-lang='es']")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    page.wait_for_selector("#interact-preview[data-action='guard']")
    assert "gana Defensiva 1, hasta que empiece el siguiente turno de" in page.inner_text(
        "#interact-preview")
    assert _tooltip(page, honed["condition"]) == f"Mejora {honed['name']['es']}: {honed['es']}"
    # A designer's edit of the data is what the page shows (the words are not in the JS);
    # an upgrade without a name is shown by its id.
    page.evaluate("async () => (await import('/static/js/glory.js')).useGloryData({glory: "
                  "{upgrades: [{id: 'HonedEdge', condition: 'honed', "
                  "text: {en: 'Edited.', es: 'Editado.'}}]}})")
    assert _tooltip(page, "honed") == "Mejora HonedEdge: Editado."
    page.click("[data-lang='en']")
    page.locator("button[data-mode='interact']").click()  # on a desktop: the button's note
    page.wait_for_selector("button[data-opt='guard'] small")
    assert "gains Defensive 1, until" in page.inner_text("button[data-opt='guard']")
    assert not page.locator("#option-notes").is_visible()  # no square choice: no list
    # On a phone: GUARD's note says what it does, the actor's choice lists
    # each piece's outcome; tapping one outlines its square.
    phone = browser.new_page(viewport=PHONE, reduced_motion="reduce", has_touch=True)
    phone.goto(f"{server.url}/g/{gid}?t={token}")
    phone.wait_for_selector("button[data-opt='guard']")  # the INTERACT played above
    # a phone hides the buttons' small notes: the list under the prompt says it instead
    assert "gains Defensive 1, until" in phone.inner_text(
        "#option-notes li[data-note-opt='guard']")
    phone.locator("button[data-opt='guard']").tap()
    phone.wait_for_function("() => document.body.dataset.kind === 'cond_actor'")
    squares = phone.locator(".opt-sq").count()
    assert phone.locator("#option-notes li").count() == squares > 0
    item = phone.locator("#option-notes li").first
    sq = item.get_attribute("data-note-opt")
    assert "gains Defensive 1" in item.inner_text()
    item.tap()
    assert phone.locator(f"#board .sq.note-hl[data-square='{sq}']").count() == 1
    box = phone.locator("#option-notes").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    screenshot(phone, "interact-notes-phone")
    phone.click("[data-lang='es']")
    phone.wait_for_function("() => document.documentElement.lang === 'es'")
    assert "gana Defensiva 1, hasta que empiece" in phone.inner_text("#option-notes")


def test_a_delve_preview_with_its_odds_in_both_languages_and_on_a_phone(
        server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    for _attempt in range(4):  # the server deals at random: a game may end before a DELVE
        gid, token = _new_game(server, "keepers")
        get, post = _driver(server, gid, token)
        view = play_until(get, post, can_delve, limit=400)
        if view.get("result"):
            continue
        page.goto(f"{server.url}/g/{gid}?t={token}")
        pv = _preview_interact(page, server, gid, token)
        delve = pv["actions"]["delve"]
        with_odds = [o for o in delve["outcomes"] if "odds" in o]
        if not with_odds:  # only face-up tokens within reach: a sure lift, no odds
            continue
        page.locator("[data-ia-action='delve']").hover()
        page.wait_for_selector("#interact-preview[data-action='delve']")
        o = with_odds[0]
        ruin = o["squares"][-1]
        badge = page.locator(f".pv-odds[data-to='{ruin}']")
        assert badge.count() == 1 and float(badge.get_attribute("data-lift") or -1) == o["lift"]
        assert badge.locator("text").text_content() == f"{round(o['lift'] * 100)}%"
        text = page.inner_text("#interact-preview")
        assert o["text"]["en"] in text and "Reveal: " in text
        assert f"Chance to lift: {round(o['lift'] * 100)}%." in text
        page.click("[data-lang='es']")
        page.wait_for_function("() => document.documentElement.lang === 'es'")
        page.wait_for_selector("#interact-preview[data-action='delve']")
        assert o["text"]["es"] in page.inner_text("#interact-preview")
        page.click("[data-lang='en']")
        # On a phone: INTERACT → Delve, then the delver's choice with each piece's odds.
        phone = browser.new_page(viewport=PHONE, reduced_motion="reduce", has_touch=True)
        phone.goto(f"{server.url}/g/{gid}?t={token}")
        phone.wait_for_selector("#board")
        phone.locator(".card.playable").first.tap()
        phone.locator("button[data-mode='interact']").tap()
        phone.wait_for_selector("button[data-opt='delve']")
        assert "Chance to lift" in phone.inner_text("#option-notes li[data-note-opt='delve']")
        phone.locator("button[data-opt='delve']").tap()
        phone.wait_for_function("() => document.body.dataset.kind === 'delver'")
        notes = phone.inner_text("#option-notes")
        assert "delves the Ruin" in notes and "Chance to lift" in notes
        screenshot(phone, "delve-notes-phone")
        page.reload()  # the delver's choice on a desktop: a note per square, on the board too
        page.wait_for_selector("#option-notes li")
        squares = page.locator(".opt-sq").count()
        assert page.locator("#option-notes li").count() == squares > 0
        first = page.locator(".opt-sq").first
        assert "delves the Ruin" in (first.locator("title").text_content() or "")
        first.hover()
        sq = first.get_attribute("data-opt-sq")
        assert page.locator(f"#option-notes li.current[data-note-opt='{sq}']").count() == 1
        screenshot(page, "delve-notes-desktop")
        return
    raise AssertionError("four games ended before a DELVE on a face-down token")
