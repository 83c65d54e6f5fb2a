"""The rule modules in the terminal app (issue 25): Glory's markers, Glory, hands, clock,
End phase and upgrades; Keepers' tokens, carriers, Wayshrines and points; conditions —
on the board, in the modules' panel, in the status line, the options and the help.

Expected words come from the modules' data files read here (``data/*.toml``) and the
engine's state, not from the app's own tables."""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from typing import Any

import pytest
from textual.widgets import OptionList, Static

from reliquary import default_content
from reliquary.engine import Builder, Content, Game, Settings, State
from reliquary.engine.modules import glory as g
from reliquary.engine.modules.keepers import DATA as KEEPERS
from reliquary.engine.modules.keepers import Token, kstate
from reliquary.tui import GameSession, ReliquaryApp, ReplayApp, ReplaySession, Setup
from reliquary.tui.modules import board_marks, end_phase_banner, module_panel
from reliquary.tui.screens import HelpScreen
from reliquary.tui.widgets import cell_text

from .conftest import screen_text, settle, words

pytestmark = pytest.mark.anyio


def data(name: str) -> dict[str, Any]:
    text = (resources.files("reliquary.data") / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


GLORY = data("glory")
OBJECTIVES = {o["id"]: o for o in GLORY["objective"]}
UPGRADES = {u["id"]: u for u in GLORY["upgrade"]}


def glory_position(content: Content, **options: Any) -> State:
    s = (Builder(content, 8, modules=("glory",), module_options=tuple(options.items()))
         .hero(0, "d1").hero(1, "e8").minion(0, "c4").minion(1, "f5").build())
    gs = g.glory_state(s)
    geo = s.geometry
    gs.markers = [geo.parse("c4"), geo.parse("f3"), geo.parse("d6")]
    gs.glory = [3, 1]
    gs.spent = [1, 0]
    gs.hands = [["ForwardBanner", "HoldTheLine"], ["FirstBlood"]]
    return s


def test_glory_markers_and_upgrades_on_the_board(content: Content) -> None:
    s = glory_position(content, **{"glory.shrine": "on"})
    geo = s.geometry
    marks = board_marks(s)
    assert [m for m, _ in marks[geo.parse("c4")]] == ["O"]  # the first marker: the Shrine
    assert cell_text(s, geo.parse("f3"), 5)[0].strip() == "o"
    assert cell_text(s, geo.parse("c4"), 5)[0].strip() == "M1O"  # the piece on the Shrine
    minion = s.piece_at(geo.parse("c4"))
    assert minion is not None
    s.add_condition(minion, UPGRADES["HonedEdge"]["condition"])
    assert cell_text(s, minion.sq, 5)[0].strip() == "M1^O"


def test_the_glory_panel_shows_both_hands_with_their_conditions(content: Content) -> None:
    s = glory_position(content)
    for lang in ("en", "es"):
        text = words(module_panel(s, lang).plain)
        for oid in ("ForwardBanner", "HoldTheLine", "FirstBlood"):
            o = OBJECTIVES[oid]
            assert f"{o['name'][lang]} ({o['glory']}★) {words(o[lang])}" in text
        # Key holds c4, in its own half: ForwardBanner (a marker in the enemy half) is
        # not met; nobody holds two. Glory, unspent and markers held per side.
        assert "✓" not in text
    text = words(module_panel(s, "en").plain)
    assert "Key 3 Glory (2 unspent) · markers held 1" in text
    assert "Skull 1 Glory (1 unspent) · markers held 0" in text
    rules = g.rules_of(s)
    left = rules.phase_rounds - s.rounds % rules.phase_rounds
    assert f"End phase in {left} rounds · phase 1 of {rules.phases}" in text
    assert f"Objectives: {len(OBJECTIVES) - 3} left in the deck" in text


def test_an_objective_met_now_is_marked(content: Content) -> None:
    s = (Builder(content, 8, modules=("glory",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "d6").build())
    gs = g.glory_state(s)
    gs.markers = [s.geometry.parse("d6")]  # in Skull's half, held by Key's Minion
    gs.hands = [["ForwardBanner", "HoldTheLine"], []]
    text = words(module_panel(s, "en").plain)
    banner, line = OBJECTIVES["ForwardBanner"], OBJECTIVES["HoldTheLine"]
    assert f"✓ {banner['name']['en']} ({banner['glory']}★)" in text
    assert f"· {line['name']['en']} ({line['glory']}★)" in text  # needs two


def test_upgrades_in_the_panel_name_the_piece_and_the_text(content: Content) -> None:
    s = glory_position(content)
    minion = s.piece_at(s.geometry.parse("c4"))
    assert minion is not None
    s.add_condition(minion, UPGRADES["Fleet"]["condition"])
    for lang in ("en", "es"):
        fleet = UPGRADES["Fleet"]
        assert f"^ {fleet['name'][lang]} c4: {words(fleet[lang])}" in words(
            module_panel(s, lang).plain)


def keepers_position(content: Content) -> State:
    s = (Builder(content, 8, modules=("keepers",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").minion(0, "e3").minion(1, "f6").ruins("d4", "e5").build())
    st = kstate(s)
    geo = s.geometry
    icon, scroll = KEEPERS.type_index("icon"), KEEPERS.type_index("scroll")
    st.tokens.append(Token(icon, 0, geo.parse("d4")))            # face down on a Ruin
    st.tokens.append(Token(scroll, 3, geo.parse("e5")))          # face up on a Ruin
    carrier = s.piece_at(geo.parse("c3"))
    assert carrier is not None
    st.tokens.append(Token(scroll, 2, -1, carrier.id))           # carried by c3
    st.box[icon] -= 1
    st.box[scroll] -= 2
    st.points = [2, 0]
    return s


def test_tokens_on_the_board_face_down_face_up_and_carried(content: Content) -> None:
    s = keepers_position(content)
    geo = s.geometry
    assert cell_text(s, geo.parse("d4"), 5)[0] == "░░i?░"
    assert cell_text(s, geo.parse("e5"), 5)[0] == "░░s3░"
    assert cell_text(s, geo.parse("c3"), 7)[0].strip() == "M1*s2"


def test_the_keepers_panel_shows_points_tokens_and_the_box(content: Content) -> None:
    s = keepers_position(content)
    target = content.board_row(8).ruins + 1  # keepers.target's default: the Ruins + 1
    names = {t["id"]: t["name"] for t in data("keepers")["relic_type"]}
    text = words(module_panel(s, "en").plain)
    assert f"Key 2 / {target} (target) · sets 0" in text
    assert f"d4 {names['icon']['en']} (face down)" in text
    assert f"e5 {names['scroll']['en']} 3" in text
    assert f"c3 carried (Key): {names['scroll']['en']} 2" in text
    box = kstate(s).box
    assert (f"In the box (unseen): {names['icon']['en']} {box[0]}, "
            f"{names['scroll']['en']} {box[1]}") in text
    es = words(module_panel(s, "es").plain)
    assert f"d4 {names['icon']['es']} (boca abajo)" in es
    assert f"c3 llevada (Llave): {names['scroll']['es']} 2" in es


def test_a_wayshrine_is_drawn_as_w_with_its_type(content: Content) -> None:
    s = keepers_position(content)
    st = kstate(s)
    minion = s.piece_at(s.geometry.parse("e3"))
    assert minion is not None
    s.add_condition(minion, "wayshrine")
    st.shrine[0], st.shrine_type[0] = minion.id, KEEPERS.type_index("chalice")
    assert cell_text(s, minion.sq, 6)[0].strip() == "W1@c"
    assert "Wayshrine Key e3: Chalice" in words(module_panel(s, "en").plain)


def test_conditions_with_values_in_the_panel(content: Content) -> None:
    s = Builder(content, 8, modules=("conditions",)).hero(0, "d4").hero(1, "e8").build()
    hero = s.piece_at(s.geometry.parse("d4"))
    assert hero is not None
    s.add_condition(hero, "burning", 2)
    names = {c["id"]: c["name"] for c in data("conditions")["condition"]}
    assert f"d4 Key: {names['burning']['en']} 2" in words(module_panel(s, "en").plain)
    assert f"d4 Llave: {names['burning']['es']} 2" in words(module_panel(s, "es").plain)


# ---------------------------------------------------------------------- the app
def session_at(kind: str, modules: tuple[str, ...], seed: int = 3) -> GameSession:
    """A hot-seat game played at random until a decision of ``kind``."""
    setup = Setup(opponent="human", quick=True, seed=seed,
                  settings=Settings(size=8, modules=modules))
    session = GameSession(default_content(), setup)
    rng = random.Random(seed)
    while session.decision() is not None and session.decision().kind != kind:  # type: ignore[union-attr]
        session.choose(rng.choice(session.decision().options))  # type: ignore[union-attr]
    assert session.decision() is not None, f"the game ended before a {kind} decision"
    return session


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_end_phase_is_its_own_step_with_its_prompts(lang: str) -> None:
    session = session_at("discard_objective", ("glory",))
    state = session.state
    d = state.decision()
    gs = g.glory_state(state)
    app = ReliquaryApp(default_content(), session.setup, lang=lang, session=session)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        top = screen_text(app).splitlines()[0]
        step = {"en": ("End phase", "2 discard"), "es": ("Fase final", "2 descartar")}[lang]
        assert f"{step[0]} {gs.phase} ·" in top and f"[{step[1]}]" in top
        # The options are the held objectives with their Glory and conditions, then pass.
        shown = screen.query_one("#options", OptionList)
        prompts = [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]
        held = sorted(gs.hands[d.player])
        assert prompts[:-1] == [f"{o} · {OBJECTIVES[o]['name'][lang]} {OBJECTIVES[o]['glory']}★: "
                                f"{OBJECTIVES[o][lang]}"
                                for o in held]
        assert prompts[-1] == "pass"
        await pilot.press(*["tab"] * len(held))  # the last option: pass
        await pilot.press("enter")
        await settle(pilot, screen)
        after = screen.session.state
        top = screen_text(app).splitlines()[0]
        kind = None if after.is_terminal else after.decision().kind
        if kind in ("upgrade", "upgrade_piece"):  # the same player's step 3
            assert "[" + {"en": "3 upgrade", "es": "3 mejorar"}[lang] + "]" in top
        elif kind == "discard_objective":  # the other player's End phase
            assert after.decision().player != d.player
            assert f"[{step[1]}]" in top
        else:  # the End phase is over: no step shown
            assert end_phase_banner(after, lang) == "" and f"[{step[1]}]" not in top


async def test_glory_and_relic_points_in_the_status_and_panel() -> None:
    session = session_at("play", ("glory", "keepers"))
    app = ReliquaryApp(default_content(), session.setup, lang="en", session=session)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        state = screen.session.state
        gs, st = g.glory_state(state), kstate(state)
        rules = g.rules_of(state)
        text = screen_text(app)
        left = rules.phase_rounds - state.rounds % rules.phase_rounds
        assert f"Glory {gs.glory[0]}–{gs.glory[1]} (End phase in {left})" in text
        # With Glory on, relic points are Glory: no threshold (M-KEEP-9).
        assert f"Relic points {st.points[0]}–{st.points[1]} " in text + " "
        assert f"Relic points {st.points[0]}–{st.points[1]} /" not in text
        panel = app.screen.query_one("#module_text", Static)
        assert str(panel.content) == module_panel(state, "en").plain
        for oid in gs.hands[0] + gs.hands[1]:
            assert OBJECTIVES[oid]["name"]["en"] in str(panel.content)


async def test_the_panel_is_hidden_without_modules() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="human", seed=1), quick=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        assert not screen.query("#module_panel")
        assert "Rule modules" not in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_help_explains_the_modules_on(lang: str) -> None:
    session = session_at("play", ("glory", "keepers"))
    app = ReliquaryApp(default_content(), session.setup, lang=lang, session=session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.markdown
        title = {"en": "Glory & Support:", "es": "Gloria y Apoyo:"}[lang]
        keepers = {"en": "Keepers' Relics:", "es": "Reliquias de los Guardianes:"}[lang]
        assert title in markdown and keepers in markdown
        assert {"en": "o objective marker", "es": "o marcador de objetivo"}[lang] in markdown
        assert "Conditions:" not in markdown and "Condiciones:" not in markdown


async def test_the_replay_shows_the_modules_panel() -> None:
    game = Game(default_content(), Settings(size=8, modules=("keepers",)))
    rng = random.Random(2)
    while not game.state.is_terminal and game.state.rounds < 4:
        if game.state.is_chance:
            from reliquary.ai import sample_chance
            game.apply(sample_chance(game.state, rng))
        else:
            game.apply(rng.choice(game.state.legal_options()))
    replay = ReplaySession(game.record(), default_content())
    app = ReplayApp(replay, "en")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#module_panel").display
        st = kstate(replay.state)
        assert f"Relic points {st.points[0]}–{st.points[1]}" in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_module_game_screen_snapshot(snap_compare: Any, lang: str) -> None:
    """Glory and Keepers' Relics at 120 × 40: markers, tokens and a Wayshrine on the
    board, the modules' panel, the End phase step (a seeded hot-seat game)."""
    session = session_at("discard_objective", ("glory", "keepers"), seed=3)
    app = ReliquaryApp(default_content(), session.setup, lang=lang, session=session)
    seen: dict[str, str] = {}

    async def look(pilot: Any) -> None:
        await pilot.pause()
        assert app.game_screen is not None
        await settle(pilot, app.game_screen)
        seen["text"] = screen_text(app)

    assert snap_compare(app, terminal_size=(120, 40), run_before=look)
    top = seen["text"].splitlines()[0]
    assert {"en": "[2 discard]", "es": "[2 descartar]"}[lang] in top
    assert {"en": "Relic points", "es": "Puntos de reliquia"}[lang] in seen["text"]
