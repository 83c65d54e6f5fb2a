"""The main screens at 80 × 24 and 120 × 40, in English and Spanish, against SVG
snapshots (pytest-textual-snapshot; after a deliberate change of the look, accept the
new pictures with ``pytest tests/tui --snapshot-update`` and look at them).

Each test also asserts what must be on the screen, so a snapshot accepted by mistake
cannot hide a missing board, hand, option or log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from reliquary import default_content
from reliquary.engine import Game
from reliquary.tui import ReliquaryApp, ReplayApp, ReplaySession, Setup, screens
from reliquary.tui.i18n import prompt, side, t

from .conftest import screen_text, settle

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "es"]
Compare = Callable[..., bool]


def quick_app(lang: str) -> ReliquaryApp:
    return ReliquaryApp(default_content(), Setup(opponent="random", seed=3), quick=True,
                        lang=lang)


def until_ready(app: ReliquaryApp, then: list[str] | None = None
                ) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert app.game_screen is not None
        await settle(pilot, app.game_screen)
        if then:
            await pilot.press(*then)
            await pilot.pause()
    return run_before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_game_screen(snap_compare: Compare, lang: str, size: tuple[int, int]) -> None:
    app = quick_app(lang)
    seen: dict[str, Any] = {}

    async def look(pilot: Pilot[None]) -> None:
        await until_ready(app, ["tab"])(pilot)
        seen["text"] = screen_text(app)

    assert snap_compare(app, terminal_size=size, run_before=look)
    text = seen["text"]
    screen = app.game_screen
    assert screen is not None
    state = screen.session.state
    assert f"{side(lang, 0)} ({t(lang, 'your_move')})" in text
    assert prompt(lang, "play")[:25] in text
    assert f"{t(lang, 'vigil')} {state.vigil}" in text
    assert "┌────" in text and "└────" in text                       # the box-drawn board
    for card in state.hands[0] + state.hands[1] + [state.waiting or ""]:
        assert card[:5] in text                                    # both hands, waiting card
    assert state.decision().options[1].card in text                # type: ignore[union-attr]
    assert t(lang, "preview") in text
    assert t(lang, "k_undo") in text                               # the footer


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_new_game_screen(snap_compare: Compare, lang: str, size: tuple[int, int],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    # The picture is of the base game's form: modules other tests register stay off it.
    monkeypatch.setattr(screens, "registered", dict)
    app = ReliquaryApp(default_content(), Setup(opponent="easy", seed=1), lang=lang)
    seen: dict[str, str] = {}

    async def look(pilot: Pilot[None]) -> None:
        await pilot.pause()
        seen["text"] = screen_text(app)

    assert snap_compare(app, terminal_size=size, run_before=look)
    for key in ("new_title", "ruleset", "ruleset_as_written", "opponent", "seat", "setup",
                "size", "los", "first_turn", "vigil_reset", "killed_minions"):
        assert t(lang, key)[:12] in seen["text"], key


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_help_screen(snap_compare: Compare, lang: str, size: tuple[int, int]) -> None:
    app = quick_app(lang)
    seen: dict[str, str] = {}

    async def look(pilot: Pilot[None]) -> None:
        await until_ready(app, ["question_mark"])(pilot)
        seen["text"] = screen_text(app)

    assert snap_compare(app, terminal_size=size, run_before=look)
    assert prompt(lang, "play")[:25] in seen["text"]
    assert t(lang, "the_card") in seen["text"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_replay_screen(snap_compare: Compare, lang: str, size: tuple[int, int],
                       tmp_path: Path) -> None:
    import random

    game = Game(default_content())
    rng = random.Random(7)
    while not game.state.is_terminal:
        game.apply(rng.choice(game.state.legal_options()))
    replay = ReplaySession(game.record(), default_content())
    app = ReplayApp(replay, lang)
    seen: dict[str, str] = {}

    async def look(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("home", "down", "down", "right")
        await pilot.pause()
        seen["text"] = screen_text(app)

    assert snap_compare(app, terminal_size=size, run_before=look)
    assert t(lang, "decision_n", n=replay.index, total=replay.total) in seen["text"]
    assert replay.state.decision().kind  # mid-game, not the end
