"""The new-game form's ruleset, modules and module options, and the game's details
(issue 26): every packaged ruleset offered with its description and changes, its
settings put in the form, its content patch played and named in the record; the
modules with their options; the details screen (key ``d``) naming both.

Expected values come from the ruleset files read here (``data/rulesets/*.toml``) and
the module registry, not from the form's own tables."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Label, OptionList, Select, SelectionList

from reliquary import default_content
from reliquary.engine import Game, Settings
from reliquary.engine.modules import registered
from reliquary.rulesets import load_ruleset
from reliquary.tui import GameSession, ReliquaryApp, ReplayApp, ReplaySession, Setup
from reliquary.tui.screens import HelpScreen, NewGameScreen

from .conftest import screen_text, settle, words

pytestmark = pytest.mark.anyio


def ruleset_files() -> dict[str, dict[str, Any]]:
    folder = resources.files("reliquary.data") / "rulesets"
    return {Path(f.name).stem: tomllib.loads(f.read_text(encoding="utf-8"))
            for f in folder.iterdir() if f.name.endswith(".toml")}


def label_text(form: NewGameScreen, name: str) -> str:
    return words(str(form.query_one(name, Label).render()))


async def test_the_form_offers_every_ruleset_with_its_description() -> None:
    files = ruleset_files()
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=2))
    async with app.run_test(size=(110, 50)) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        select = form.query_one("#ruleset", Select)
        overlay = select.query_one(OptionList)  # the drop-down's list of choices
        offered = [str(overlay.get_option_at_index(i).prompt)
                   for i in range(overlay.option_count)]
        assert sorted(offered) == sorted(files) and offered[0] == "classic"
        assert select.value == "classic"
        for name, raw in files.items():
            select.value = name
            await pilot.pause()
            about = label_text(form, "#ruleset_about")
            assert words(raw["description"]) in about
            for key, value in raw.get("settings", {}).items():
                assert f"setting {key}:" in about and repr(value) in about
                assert form.query_one(f"#{key}", Select).value == value  # put in the form


async def test_a_ruleset_chosen_is_played_and_recorded() -> None:
    files = ruleset_files()
    other = next(name for name, raw in files.items() if raw.get("patch"))
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=2))
    async with app.run_test(size=(110, 50)) as pilot:
        await pilot.pause()
        form = app.screen
        form.query_one("#ruleset", Select).value = other
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.game_screen
        assert screen is not None
        session = screen.session
        assert session.setup.ruleset == other
        ruleset = load_ruleset(other)
        assert session.content.fingerprint == ruleset.content().fingerprint
        assert session.content.fingerprint != default_content().fingerprint
        for key, value in files[other].get("settings", {}).items():
            assert session.game.settings.as_dict()[key] == value
        assert session.record()["meta"]["ruleset"] == other
        # The details name the ruleset, its description and its changes.
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        details = words(app.screen.markdown)
        assert f"Ruleset: {other}" in details
        assert words(files[other]["description"]) in details


async def test_modules_and_their_options_on_the_form_and_in_the_details() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="human", seed=2, quick=True))
    async with app.run_test(size=(110, 50)) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#modules", SelectionList).select("glory")
        await pilot.pause()
        glory = registered()["glory"]
        shown = label_text(form, "#module_help")
        for option, spec in glory.options.items():
            assert f"glory.{option} = {words(spec.describe())}" in shown
        form.query_one("#module_options", Input).value = "glory.phases=9"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "glory.phases" in label_text(form, "#error")  # refused, naming the option
        form.query_one("#module_options", Input).value = "glory.phases=2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        settings = screen.session.game.settings
        assert settings.modules == ("glory",) and settings.option("glory.phases") == 2
        assert screen.query("#module_panel")  # the modules' panel is up
        await pilot.press("d")
        await pilot.pause()
        details = words(app.screen.markdown)  # type: ignore[attr-defined]
        assert f"**{glory.title}** ({glory.rules})" in details
        assert "glory.phases = 2" in details and "Ruleset: classic" in details


async def test_the_details_in_spanish_and_a_base_game_has_no_modules() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="human", seed=2), quick=True,
                       lang="es")
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        await pilot.press("d")
        await pilot.pause()
        details = words(app.screen.markdown)  # type: ignore[attr-defined]
        assert "Detalles de la partida" in details and "Reglamento: classic" in details
        assert "Ninguno: el juego base." in details
        await pilot.press("escape")
        await pilot.pause()
        assert "Detalles" not in screen_text(app).splitlines()[0]


def test_a_record_opens_under_its_own_ruleset(tmp_path: Path) -> None:
    other = next(name for name, raw in ruleset_files().items() if raw.get("patch"))
    ruleset = load_ruleset(other)
    game = Game(ruleset.content(), ruleset.game_settings(), meta={"ruleset": other})
    while game.state.decision().kind == "ruin":
        game.apply(game.state.legal_options()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    session = GameSession.load(path, default_content(), Setup(opponent="human"))
    assert session.setup.ruleset == other
    assert session.content.fingerprint == ruleset.content().fingerprint
    assert session.game.settings == ruleset.game_settings()
    assert Settings() != session.game.settings


async def test_the_replay_details_name_the_records_ruleset() -> None:
    other = next(name for name, raw in ruleset_files().items() if raw.get("patch"))
    ruleset = load_ruleset(other)
    game = Game(ruleset.content(), ruleset.game_settings(),
                meta={"ruleset": other, "players": ["human", "easy"]})
    while game.state.decision().kind == "ruin":
        game.apply(game.state.legal_options()[0])
    replay = ReplaySession(game.record(), ruleset.content())
    app = ReplayApp(replay, "en")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        details = words(app.screen.markdown)
        assert f"Ruleset: {other}" in details and "Key: human" in details
        assert "Skull: easy" in details
