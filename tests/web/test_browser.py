"""Browser tests: Debian's Chromium driven by Playwright, by clicking only.

One server for the module. Each test keeps screenshots under artifacts/screenshots/.
The play screen's own contract (one screen, keyboard, preview, lobby, clocks …) is in
test_play_screen.py.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, free_port, screenshot

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("browser") / "games.db", free_port())
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from .conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed: scripts/test.sh installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def click_next_option(page: Any) -> None:
    """Click the first option the page offers (a highlighted square or a button)."""
    page.locator(".opt").first.click()
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def wait_for_options(page: Any, timeout: float = 30_000) -> bool:
    """Wait until the page offers this seat options (True) or shows the result (False)."""
    page.wait_for_selector(".opt, #result", timeout=timeout)
    return page.query_selector("#result") is None


def turns(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.turns)"))


def test_full_game_against_the_ai_then_its_replay(server: Server, browser: Any,
                                                  tmp_path: Path) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server.url)
    page.click("#quick-ai")
    page.wait_for_selector("#board")
    clicks = 0
    while wait_for_options(page):
        click_next_option(page)
        clicks += 1
        assert clicks < 2000, "the game did not end"
    assert page.inner_text("#result h2") in ("You win!", "You lose.", "Draw.")
    reason = page.inner_text("#result-reason")
    assert reason.endswith(".") and len(reason) > 5
    assert page.locator("#log li").count() > 20
    screenshot(page, "ai-game-end")
    page.click("#replay-link")
    page.wait_for_selector("#rp-next")
    page.keyboard.press("Home")  # a replay opens at the first move: back to the empty board
    page.wait_for_function("() => document.getElementById('replay-at').textContent === '0'")
    page.click("#rp-next")
    page.wait_for_function("() => document.getElementById('replay-at').textContent === '1'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay-at').textContent === '2'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.getElementById('replay-at').textContent === '1'")
    page.click("#rp-last")
    page.wait_for_function("() => document.body.dataset.at !== '1'")
    final = page.inner_text("#final-result")
    assert any(word in final for word in ("wins", "Draw"))
    screenshot(page, "ai-game-replay-end")
    # Download the record, then load it from the home page to replay it again.
    with page.expect_download() as download:
        page.click(".result a[download]")
    record = tmp_path / "record.json"
    download.value.save_as(record)
    assert json.loads(record.read_text())["format"] == "reliquary-record"
    page.goto(server.url)
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#rp-last")
    page.click("#rp-last")
    page.wait_for_function("() => document.body.dataset.at !== '0'")
    assert page.inner_text("#final-result") == final
    assert not errors, errors


def test_two_turns_hot_seat_and_a_phone_screen(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
    page.goto(server.url)
    page.select_option("#mode", "hotseat")
    page.click("#start")
    page.wait_for_selector("#board")
    page.wait_for_selector(".opt")
    assert turns(page) == 0
    first_side = page.evaluate("document.body.dataset.side")
    # A card played, then taken back with the button (no die rolled yet).
    start_seq = page.evaluate("document.body.dataset.seq")
    click_next_option(page)
    page.click("#undo")
    page.wait_for_function(f"() => document.body.dataset.seq === '{start_seq}'")
    while turns(page) < 2:
        assert wait_for_options(page), "the game ended within two turns"
        click_next_option(page)
    assert page.evaluate("document.body.dataset.side") == first_side  # back to the first
    assert page.locator("#log li").count() > 0
    screenshot(page, "hotseat-two-turns")
    # Language switch: the log is told in Spanish.
    page.click("[data-lang='es']")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert "juega" in page.inner_text("#log")
    page.click("[data-lang='en']")
    # The same game on a phone-sized screen: the board fits the width.
    phone = browser.new_page(viewport=PHONE)
    phone.goto(page.url)
    phone.wait_for_selector("#board")
    box = phone.locator("#board").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and box["width"] > 300
    screenshot(phone, "hotseat-phone")


def test_an_invite_link_plays_in_a_second_browser(server: Server, browser: Any) -> None:
    host = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    host.goto(server.url)
    host.select_option("#mode", "online")
    host.click("#start")
    host.wait_for_selector("#board")
    host.click("#tab-info")
    invite = host.input_value("#invite-link")
    assert "?invite=" in invite
    guest = browser.new_context(viewport=DESKTOP).new_page()  # a second browser: no cookies
    guest.goto(invite)
    guest.wait_for_selector("#board")
    # the invite became the guest's own seat link, and the guest sits at the bottom
    guest.wait_for_function("() => location.search.startsWith('?t=')")
    assert guest.evaluate("document.body.dataset.bottom") == "skull"
    # If Key plays first, the host takes its turn; then the guest moves from its link.
    while host.evaluate("document.body.dataset.side") == "key":
        wait_for_options(host)
        click_next_option(host)
    guest.wait_for_function("() => document.body.dataset.mine === '1'", timeout=15_000)
    host.evaluate("window.Reliquary.dropSocket()")  # the host's connection drops
    before = turns(guest)
    while turns(guest) == before:
        wait_for_options(guest)
        click_next_option(guest)
    # The host's page reconnects and hears of the move over its WebSocket, with no reload.
    host.wait_for_function(f"() => Number(document.body.dataset.turns) > {before}",
                           timeout=15_000)
    screenshot(guest, "online-guest-after-move")
    screenshot(host, "online-host-sees-move")
    # A spectator's page offers nothing to click.
    host.click("#tab-info")
    watcher = browser.new_context(viewport=DESKTOP).new_page()
    watcher.goto(host.input_value("#watch-link"))
    watcher.wait_for_selector("#board")
    time.sleep(0.3)
    assert watcher.locator(".opt").count() == 0


def test_rules_pages_draw_every_card(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{server.url}/rules")
    page.wait_for_selector("#rulebook h1")
    assert "how to play" in page.inner_text("#rulebook h1").lower()
    assert page.locator("#all-cards .card").count() == 18
    assert page.locator("#all-cards .card svg.diagram").count() == 18
    assert page.locator("#all-factions .faction-card").count() == 9
    screenshot(page, "rules")
    page.click("[data-lang='es']")
    page.wait_for_function(
        "() => document.querySelector('#rulebook h1').textContent.includes('cómo se juega')")
    assert page.get_attribute("#pdf-a4", "href") == "/print.pdf?paper=a4&lang=es"
    page.click("#spec-link")  # the engineering specification stays one link away
    page.wait_for_selector("#rules-text h1")
    assert "specification" in page.inner_text("#rules-text h1")
    assert not errors, errors
