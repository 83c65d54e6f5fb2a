"""The app's AI worker, hints, replay keys, colours, and the command line around it."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from reliquary import default_content
from reliquary.cli.main import cli
from reliquary.engine import Game, Option, State, replay
from reliquary.tui import GameSession, ReliquaryApp, ReplayApp, ReplaySession, Setup
from reliquary.tui.i18n import default_lang, t
from reliquary.tui.screens import HelpScreen
from reliquary.tui.widgets import BoardScene, render_board

from .conftest import screen_text, settle

pytestmark = pytest.mark.anyio


class GatedAgent:
    """An AI that thinks until the test lets it answer."""

    name = "gated"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()

    def choose(self, state: State) -> Option:
        self.started.set()
        assert self.go.wait(20)
        return state.legal_options()[0]


async def test_the_ai_thinks_in_a_worker_and_the_screen_stays_live() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="random", seat=1, seed=2),
                       quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        gate = GatedAgent()
        screen.session.agent = gate  # type: ignore[assignment]
        # Play until the AI (Key) is to move with the gated agent.
        while not screen.thinking:
            await pilot.press("enter")
            await pilot.pause()
        assert gate.started.wait(5)
        first = screen_text(app)
        await pilot.pause(0.35)
        assert t("en", "thinking") in first and t("en", "thinking") in screen_text(app)
        assert first.splitlines()[0] != screen_text(app).splitlines()[0]  # the spinner turns
        await pilot.press("question_mark")  # the screen answers while the AI thinks
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        before = len(screen.session.history)
        gate.go.set()
        await settle(pilot, screen)
        assert len(screen.session.history) > before
        assert t("en", "thinking") not in screen_text(app)


async def test_a_hint_by_key_selects_the_best_option() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=5), quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        await pilot.press("h")  # h moves the cursor (vi); it asks for no hint
        assert screen.message == ""
        await pilot.press("H")  # or i
        for _ in range(200):
            await pilot.pause(0.05)
            if screen.message.startswith(t("en", "hint_for") + ":"):
                break
        best = screen.message.split(": ", 1)[1].split(" ")[0]
        assert screen.session.tokens()[screen.selected] == best


async def test_replay_keys_step_turn_and_end(tmp_path: Path) -> None:
    game = Game(default_content())
    rng = random.Random(3)
    while not game.state.is_terminal:
        game.apply(rng.choice(game.state.legal_options()))
    session = ReplaySession(game.record(), default_content())
    app = ReplayApp(session, "es")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert session.index == session.total
        assert t("es", "over") in screen_text(app)
        await pilot.press("home")
        assert session.index == 0
        await pilot.press("right", "l")
        assert session.index == 2
        await pilot.press("down")
        assert session.entries[session.index].kind == "play"
        at = session.index
        await pilot.press("down", "up")
        assert session.index == at
        await pilot.press("left")
        assert session.index == at - 1
        await pilot.pause()
        assert t("es", "decision_n", n=at - 1, total=session.total) in screen_text(app)
        await pilot.press("end")
        assert session.index == session.total


async def test_no_color_still_tells_pieces_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=3), quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        text = screen_text(app)
        assert " H4 " in text and " h4 " in text and " M1 " in text and " m1 " in text
        # Every colour of the screen (the SVG's text and background styles) is a grey.
        svg = app.export_screenshot()
        colours = re.findall(r"\.terminal-[\w-]+ \{ fill: #([0-9a-f]{6})", svg)
        colours += re.findall(r'<rect fill="#([0-9a-f]{6})"', svg)
        assert len(colours) > 5
        for hexa in colours:
            r, g, b = (int(hexa[i:i + 2], 16) for i in (0, 2, 4))
            assert max(r, g, b) - min(r, g, b) <= 3, hexa


def test_the_board_in_sixteen_colours_keeps_sides_apart() -> None:
    state = GameSession(default_content(), Setup(opponent="human", quick=True, seed=1)).state
    console = Console(color_system="standard", width=60, force_terminal=True,
                      record=True)
    console.print(render_board(BoardScene(state), 44, 12))
    ansi = console.export_text(styles=True)
    # Key's pieces in bright cyan (96), Skull's in bright red (91): standard codes only.
    assert "96m" in ansi and "91m" in ansi
    assert "38;2" not in ansi and "38;5" not in ansi


# ---------------------------------------------------------------------- command line
def test_play_falls_back_to_the_text_loop_without_a_terminal(tmp_path: Path) -> None:
    """Not a terminal (a script): the plain loop, and --record written on quit."""
    path = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["play", "--ai", "random", "--seed", "3", "--record",
                                      str(path)], input="b3\nquit\n")
    assert result.exit_code == 0, result.output
    assert "game left unfinished" in result.output and f"record written to {path}" in \
        result.output
    game = replay(json.loads(path.read_text(encoding="utf-8")), default_content())
    assert game.history[0].token == "b3" and not game.state.is_terminal


def test_play_plain_writes_the_record_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["play", "--plain", "--ai", "human", "--seed", "1",
                                      "--record", str(path)], input="\n".join(
        ["b3", "c3", "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["setup"][:2] == ["b3", "c3"]


def test_play_open_and_replay_tui_refuse_bad_files_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "reliquary-record", "version": 1}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", "--tui", str(bad)])
    assert result.exit_code == 1 and "bad.json" in result.output
    assert "content" in result.output  # names what is wrong: the content fingerprint


def test_help_names_the_new_options() -> None:
    out = CliRunner().invoke(cli, ["play", "--help"]).output
    for option in ("--plain", "--quick", "--record", "--open", "--lang"):
        assert option in out
    assert "--tui" in CliRunner().invoke(cli, ["replay", "--help"]).output


def test_the_locale_picks_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert default_lang() == "es"
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")
    assert default_lang() == "en"


async def test_the_new_game_screen_offers_the_rule_modules() -> None:
    """Registered modules (here the worked example, smoulder) and their options are on
    the form; a bad option value is refused on the form, naming the option."""
    from textual.widgets import Input, Label, SelectionList

    from ..modules import smoulder  # registers the worked example

    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=2))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        form = app.screen
        modules = form.query_one("#modules", SelectionList)
        assert smoulder.MODULE.name in [modules.get_option_at_index(i).value
                                        for i in range(modules.option_count)]
        modules.select(smoulder.MODULE.name)
        form.query_one("#module_options", Input).value = "smoulder.damage=9"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "smoulder.damage" in str(form.query_one("#error", Label).render())
        form.query_one("#module_options", Input).value = "smoulder.damage=2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.game_screen
        assert screen is not None
        settings = screen.session.game.settings
        assert settings.modules == ("smoulder",)
        assert dict(settings.module_options) == {"smoulder.damage": 2}
        assert screen.session.record()["settings"]["modules"] == ["smoulder"]
