"""Browser tests of online play beyond the moves and the looks of issue 28 (Debian's
Chromium driven by Playwright): the host waiting for the guest with the invite's QR
code and a notification, presence when the guest's tab closes, a draw offer accepted
and a take-back request across two browser contexts, preset messages in English and
Spanish, no take-back into the setup (bug 1), a past turn of a game in progress, the
Ruin pair's mirror and the deployment's "of N"."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port
from .test_play_screen import Pages, chromium, decide_randomly, game_view, wait_mine

pytestmark = pytest.mark.browser
__all__ = ["chromium"]  # the module's browser: test_play_screen's fixture

LIMITS = {"RELIQUARY_CREATE_BURST": "1000", "RELIQUARY_CREATE_PER_MINUTE": "1000",
          "RELIQUARY_SOCKETS_BURST": "1000", "RELIQUARY_SOCKETS_PER_MINUTE": "1000",
          "RELIQUARY_AI_GAMES_PER_CLIENT": "1000"}
#: Records each browser notification the page shows (Chromium headless shows none).
NOTIFICATIONS = """(() => {
  window.__notes = [];
  class Recorded { constructor(title, opts) { window.__notes.push([title, opts && opts.body]); } }
  Recorded.permission = "default";
  Recorded.requestPermission = async () => { Recorded.permission = "granted"; return "granted"; };
  window.Notification = Recorded;
})();"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("social") / "games.db", free_port())
    saved = {name: os.environ.get(name) for name in LIMITS}
    os.environ.update(LIMITS)  # many games and sockets from one address
    try:
        srv.start()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    yield srv
    srv.kill()


@pytest.fixture
def pages(chromium: Any) -> Iterator[Pages]:
    opened = Pages(chromium)
    yield opened
    opened.close()
    assert not opened.errors, opened.errors


def api(live: Server, method: str, path: str, body: Any = None) -> Any:
    res = httpx.request(method, live.url + path, json=body, timeout=30)
    assert res.status_code < 300, (path, res.status_code, res.text)
    return res.json()


def page_in(pages: Pages, live: Server, link: str, lang: str = "en",
            size: tuple[int, int] = (1280, 800), notes: bool = False) -> Any:
    page = pages.new(*size)
    page.add_init_script(f"localStorage.setItem('lang', '{lang}');")
    if notes:
        page.add_init_script(NOTIFICATIONS)
    page.goto(live.url + link)
    page.wait_for_selector("#board")
    return page


def online_pair(pages: Pages, live: Server, lang: str = "en",
                size: tuple[int, int] = (1280, 800)) -> tuple[dict[str, Any], Any, Any]:
    """An online game with the host's and the guest's pages open (each its own context)."""
    game = api(live, "POST", "/api/games", {"mode": "online", "seat": "key"})
    host = page_in(pages, live, game["links"]["self"], lang, size)
    guest = page_in(pages, live, game["links"]["invite"], lang, size)
    guest.wait_for_function("() => location.search.startsWith('?t=')")
    game["guest"] = guest.evaluate("new URLSearchParams(location.search).get('t')")
    host.wait_for_selector("#presence-skull[data-state='here']")
    return game, host, guest


# ---------------------------------------------------------------------- waiting, presence
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_host_waits_with_a_qr_code_and_hears_the_guest_arrive(live: Server, pages: Pages,
                                                                 lang: str) -> None:
    game = api(live, "POST", "/api/games", {"mode": "online", "seat": "key"})
    host = page_in(pages, live, game["links"]["self"], lang, notes=True)
    host.wait_for_selector("#waiting-guest")
    host.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")
    assert host.input_value("#invite-link-qr") == live.url + game["links"]["invite"]
    words = {"en": "Waiting for your opponent", "es": "Esperando a que llegue tu rival"}[lang]
    assert words in host.inner_text("#prompt")
    assert host.locator("#buttons .opt, .opt-sq, .card.playable").count() == 0
    host.wait_for_selector("#presence-skull[data-state='absent']")
    assert {"en": "has not joined", "es": "aún no ha llegado"}[lang] in \
        host.inner_text("#presence-skull")
    host.click("#notify-me")
    host.wait_for_selector("#notify-me[disabled]")  # asked once: the page says so
    guest = page_in(pages, live, game["links"]["invite"], lang)
    host.wait_for_function("() => document.body.dataset.guestJoined === '1'")
    notes = host.evaluate("window.__notes")
    joined = {"en": "Your opponent has joined", "es": "Tu rival ha llegado"}[lang]
    assert notes and joined in notes[-1][1], notes
    assert host.locator("#waiting-guest").count() == 0
    host.wait_for_selector("#presence-skull[data-state='here']")
    guest.wait_for_selector("#presence-key[data-state='here']")
    assert {"en": "connected", "es": "conectado"}[lang] in host.inner_text("#presence-skull")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_presence_shows_when_the_guest_tab_closes(live: Server, pages: Pages, lang: str) -> None:
    _game, host, guest = online_pair(pages, live, lang)
    guest.close()
    host.wait_for_selector("#presence-skull[data-state='away']", timeout=10_000)
    text = host.inner_text("#presence-skull")
    assert {"en": "away for", "es": "ausente desde hace"}[lang] in text and " s" in text


# ---------------------------------------------------------------------- offers
@pytest.mark.parametrize("lang,size", [("en", (1280, 800)), ("es", (390, 844)),
                                       ("en", (1920, 1080))])
def test_a_draw_offer_accepted_across_two_browsers(live: Server, pages: Pages, lang: str,
                                                   size: tuple[int, int]) -> None:
    game, host, guest = online_pair(pages, live, lang, size)
    watcher = page_in(pages, live, game["links"]["spectate"], lang, size)
    host.wait_for_selector("#offer-draw:not([disabled])")
    host.click("#offer-draw")
    host.wait_for_selector("#offer-box.mine")
    guest.wait_for_selector("#offer-box.theirs")
    watcher.wait_for_selector("#offer-box.watching")  # told, with nothing to answer
    assert watcher.locator("#offer-box button, #offer-draw, #preset-select").count() == 0
    assert {"en": "offers a draw", "es": "ofrece tablas"}[lang] in guest.inner_text("#offer-box")
    box = guest.locator("#offer-box").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0]  # on the screen
    guest.click("#offer-accept")
    for page in (host, guest):
        page.wait_for_selector("#result")
        assert {"en": "Draw.", "es": "Tablas."}[lang] in page.inner_text("#result h2")
        assert {"en": "agreed to a draw", "es": "acordaron tablas"}[lang] in \
            page.inner_text("#result-reason")


def test_a_take_back_request_accepted_goes_back(live: Server, pages: Pages) -> None:
    for _ in range(10):  # a first turn with no die rolled (a roll is never taken back)
        game, host, guest = online_pair(pages, live)
        view = game_view(live, game)
        first, other = (host, guest) if view["decision"]["side"] == "key" else (guest, host)
        start = view["seq"]
        assert first.locator("#offer-takeback[disabled]").count() == 1  # nothing played yet
        wait_mine(first)
        turns = int(first.evaluate("document.body.dataset.turns"))
        while int(first.evaluate("document.body.dataset.turns")) == turns:
            first.locator(".opt").last.click()
            first.wait_for_function("() => !document.body.classList.contains('busy')")
        after = game_view(live, game)
        if after["last_roll"] is None and after["result"] is None:
            break
        host.context.close()
        guest.context.close()
    first.wait_for_selector("#offer-takeback:not([disabled])")
    first.click("#offer-takeback")
    other.wait_for_selector("#offer-box.theirs[data-kind='takeback']")
    other.click("#offer-accept")
    first.wait_for_function(f"() => document.body.dataset.seq === '{start}'")
    other.wait_for_function(f"() => document.body.dataset.seq === '{start}'")
    wait_mine(first)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_preset_messages_only(live: Server, pages: Pages, lang: str) -> None:
    _game, host, guest = online_pair(pages, live, lang)
    options = guest.eval_on_selector_all("#preset-select option", "els => els.map(e => e.value)")
    assert "good_luck" in options and "" in options
    assert guest.locator("#social-tools input, #social-tools textarea").count() == 0  # no free text
    guest.select_option("#preset-select", "good_luck")
    host.wait_for_selector("#bubble")
    said = {"en": "Good luck!", "es": "¡Suerte!"}[lang]
    assert said in host.inner_text("#bubble")
    host.click("#tab-info")
    assert said in host.inner_text("#messages")


# ---------------------------------------------------------------------- bug 1
def test_no_take_back_at_the_very_start(live: Server, pages: Pages) -> None:
    for _ in range(30):  # a game against the AI where Key, the human, moves first
        game = api(live, "POST", "/api/games", {"mode": "ai", "level": "easy", "seat": "key"})
        view = game_view(live, game)
        if view["decision"]["side"] == "key":
            break
    assert view["decision"]["side"] == "key" and view["undo"] is False
    page = page_in(pages, live, game["links"]["self"])
    wait_mine(page)
    assert page.locator("#undo").count() == 0
    assert page.evaluate("document.body.dataset.kind") == "play"


# ---------------------------------------------------------------------- looks
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_turn_of_a_game_in_progress_shows_its_position(live: Server, pages: Pages,
                                                         lang: str) -> None:
    game = api(live, "POST", "/api/games", {"mode": "hotseat"})
    rng = random.Random(8)
    decide_randomly(live, game, rng, until=lambda v: sum(v["position"]["turns_taken"].values())
                    >= 2 and v["decision"]["kind"] == "play")
    page = page_in(pages, live, game["links"]["self"], lang)
    wait_mine(page)
    page.click("#tab-log")
    first = page.locator(".log-turn-look").first
    at = int(first.get_attribute("data-look") or "-1")
    first.click()
    page.wait_for_selector("#look-back")
    assert page.evaluate("document.body.dataset.past") == str(at)
    past = api(live, "GET", f"/api/games/{game['id']}/at?at={at}&t={game['token']}")
    drawn = sorted(page.eval_on_selector_all("#board .piece", "els => els.map(e => e.dataset.sq)"))
    assert drawn == sorted(p["square"] for p in past["position"]["pieces"])
    assert {"en": "Turn 1 as it began", "es": "Turno 1 al empezar"}[lang] in \
        page.inner_text("#look-back")
    page.click("#look-back-close")
    page.wait_for_function("() => document.body.dataset.past === undefined")
    now = game_view(live, game)
    drawn = sorted(page.eval_on_selector_all("#board .piece", "els => els.map(e => e.dataset.sq)"))
    assert drawn == sorted(p["square"] for p in now["position"]["pieces"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_ruin_pairs_show_their_mirror_and_deployment_counts_of_n(live: Server, pages: Pages,
                                                                 lang: str) -> None:
    game = api(live, "POST", "/api/games", {"mode": "hotseat", "quick": False})
    page = page_in(pages, live, game["links"]["self"], lang)
    wait_mine(page)
    hints = api(live, "GET", f"/api/games/{game['id']}/setup?t={game['token']}")
    square, pair = next((sq, p) for sq, p in hints["mirrors"].items() if len(p) == 2)
    mirror = next(sq for sq in pair if sq != square)
    page.wait_for_selector("[data-opt-sq][data-mirrored]")
    page.hover(f"#opt-{square}")
    page.wait_for_selector(f"#opt-{mirror}.mirror-preview")
    assert "ruin-preview" in (page.get_attribute(f"#opt-{square}", "class") or "")
    page.mouse.move(1, 1)
    page.wait_for_selector(f"#opt-{mirror}:not(.mirror-preview)")
    decide_randomly(live, game, random.Random(9),
                    until=lambda v: v["decision"]["kind"] == "deploy")
    page.reload()
    wait_mine(page)
    total = api(live, "GET", f"/api/games/{game['id']}/setup?t={game['token']}")["deploy"]["total"]
    words = {"en": f"Piece 1 of {total}", "es": f"Pieza 1 de {total}"}[lang]
    page.wait_for_function(f"() => (document.getElementById('deploy-count') || {{}}).textContent"
                           f"?.startsWith({words!r})")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_the_first_tap_shows_the_ruin_pair_and_the_second_places_it(
        live: Server, pages: Pages, chromium: Any, lang: str) -> None:
    game = api(live, "POST", "/api/games", {"mode": "hotseat", "quick": False})
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                   is_mobile=True, reduced_motion="reduce")
    pages.contexts.append(context)  # closed with the test's pages
    page = context.new_page()
    page.on("pageerror", lambda err: pages.errors.append(f"pageerror: {err}"))
    page.add_init_script(f"localStorage.setItem('lang', '{lang}');")
    page.goto(live.url + game["links"]["self"])
    wait_mine(page)
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    hints = api(live, "GET", f"/api/games/{game['id']}/setup?t={game['token']}")
    square, pair = next((sq, p) for sq, p in hints["mirrors"].items() if len(p) == 2)
    mirror = next(sq for sq in pair if sq != square)
    page.wait_for_selector("[data-opt-sq][data-mirrored]")
    seq = page.evaluate("document.body.dataset.seq")
    page.tap(f"#opt-{square}")
    page.wait_for_selector(f"#opt-{mirror}.mirror-preview")
    assert {"en": "tap the square again", "es": "pulsa otra vez"}[lang] in page.inner_text("#flash")
    assert page.evaluate("document.body.dataset.seq") == seq  # nothing placed yet
    page.tap(f"#opt-{square}")
    page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'")
    assert set(pair) <= set(game_view(live, game)["position"]["ruins"])


def test_the_waiting_host_on_a_phone_sees_the_code_and_the_tools_on_one_line(
        live: Server, pages: Pages) -> None:
    game = api(live, "POST", "/api/games", {"mode": "online", "seat": "key"})
    host = page_in(pages, live, game["links"]["self"], size=(390, 844))
    host.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")
    qr = host.locator("#invite-qr").bounding_box()
    board = host.locator("#board-box").bounding_box()
    assert qr["x"] >= board["x"] and qr["x"] + qr["width"] <= board["x"] + board["width"]
    assert qr["width"] >= 120  # big enough to scan
    tops = host.eval_on_selector_all(
        ".tools button, .tools select",
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops  # the offer buttons keep only their signs
    assert host.evaluate("document.scrollingElement.scrollHeight") <= 844


def test_the_room_comes_back_after_a_server_restart(pages: Pages, tmp_path: Any) -> None:
    srv = Server(tmp_path / "games.db", free_port())
    srv.start()
    try:
        _game, host, guest = online_pair(pages, srv)
        for n, preset in enumerate(("hello", "good_luck", "thanks")):
            # the room's count goes past what the new process will start from
            guest.select_option("#preset-select", preset)
            host.wait_for_function("n => document.querySelectorAll('#messages li.message')"
                                   ".length === n", arg=n + 1)
            guest.wait_for_timeout(1100)  # one message a second
        srv.kill()
        srv.start()  # the same port and database: the pages reconnect by themselves
        host.wait_for_function("() => document.querySelectorAll('#messages li.message')"
                               ".length === 0", timeout=20_000)  # a new room
        host.wait_for_selector("#presence-skull[data-state='here']", timeout=20_000)
        guest.wait_for_selector("#preset-select option[value='bye']", state="attached")
        guest.select_option("#preset-select", "bye")
        host.wait_for_function("() => (document.getElementById('bubble') || {}).textContent"
                               "?.includes('Bye!')", timeout=15_000)
    finally:
        srv.kill()
    # the pages' tries while the server was down were refused, and a request in flight
    # when it was killed was reset: those, and only those, are expected
    pages.errors[:] = [e for e in pages.errors
                       if "ERR_CONNECTION_REFUSED" not in e and "ERR_CONNECTION_RESET" not in e]
