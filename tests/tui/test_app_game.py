"""The terminal app driven by keys with Textual's pilot: whole games, undo, help, files.

Every check reads what the widgets show and compares it with the engine's state and
the web's log tables, worked out here independently of the app.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, RichLog

from reliquary import default_content
from reliquary.content import game_names
from reliquary.engine import Entry, Game, Play, Settings, State, format_option, replay
from reliquary.tui import GameScreen, GameSession, ReliquaryApp, Setup
from reliquary.tui.i18n import t
from reliquary.tui.widgets import BoardView, board_layout
from reliquary.web.games import undo_count
from reliquary.web.text import Line, LogContext, describe, note_before

from .conftest import screen_text, settle, words

pytestmark = pytest.mark.anyio
ROW = re.compile(r"^\s*(\d+) │(.*)│\s*$")


def board_cells(screen: GameScreen) -> dict[str, str]:
    """The board widget's text, cell by cell, keyed by square name (``a1``…)."""
    board = screen.query_one("#board", BoardView)
    text = board.render().plain
    n = screen.session.state.geometry.size
    files = "abcdefghijkl"[:n]
    if board.scene.flip:
        files = files[::-1]
    cells = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            for f, cell in zip(files, m.group(2).split("│"), strict=True):
                cells[f"{f}{m.group(1)}"] = cell
    assert len(cells) == n * n, text
    return cells


def check_board(screen: GameScreen) -> None:
    """Each square shows what the engine has there: piece letter and HP, Ruin, relic."""
    state = screen.session.state
    cells = board_cells(screen)
    geo = state.geometry
    for sq in range(geo.area):
        cell = cells[geo.name(sq)].strip()
        piece = state.piece_at(sq)
        ground = [p for p in (0, 1) if state.relic_carrier[p] < 0 and state.relic_sq[p] == sq]
        if piece is not None:
            letter = ("H" if piece.hero else "M")
            letter = letter if piece.owner == 0 else letter.lower()
            assert cell.startswith(f"{letter}{piece.hp}"), (geo.name(sq), cell)
            carried = state.carried_relic(piece) >= 0
            assert ("+" in cell) == carried, (geo.name(sq), cell)
        elif state.is_ruin(sq):
            assert set(cell) == {"░"}, (geo.name(sq), cell)
        elif ground:
            assert cell == "(" + "".join("KS"[p] for p in ground) + ")", (geo.name(sq), cell)
        else:
            assert cell in ("", "·"), (geo.name(sq), cell)


def check_options(screen: GameScreen, lang: str) -> None:
    """The options list is the engine's legal options, in order, named as tokens."""
    state = screen.session.state
    shown = screen.query_one("#options", OptionList)
    prompts = [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]
    if state.is_terminal or not screen.session.human_to_move():
        assert prompts == []
        return
    expected = []
    d = state.decision()
    names = game_names(state.content)
    for option in d.options:
        if isinstance(option, Play):
            expected.append(f"{option.card} · {t(lang, option.mode)}")
        elif d.kind in ("faction", "rite"):  # the id, then its name in the language
            name = names[d.kind + "s"][str(option)][lang]
            expected.append(f"{option} · {name}" if name != option else str(option))
        else:
            expected.append(format_option(state, option))
    assert prompts == expected


class LogMirror:
    """The game's log through the web's tables, built alongside from the history."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.game: Game | None = None
        self.lines: list[Line] = []

    def update(self, game: Game) -> list[Line]:
        if self.game is None or self.entries != game.history[:len(self.entries)]:
            self.game = Game(game.content, game.settings)
            self.ctx = LogContext(game.content, self.game.state.geometry)
            self.entries, self.lines = [], []
        for entry in game.history[len(self.entries):]:
            note_before(self.ctx, self.game.state, entry.kind, entry.option)
            self.lines.extend(describe(self.ctx, self.game.apply(entry.option)))
            self.entries.append(entry)
        return self.lines


def check_log(screen: GameScreen, lang: str, mirror: LogMirror) -> None:
    log = screen.query_one("#log", RichLog)
    shown = words(" ".join(strip.text for strip in log.lines))
    expected = mirror.update(screen.session.game)
    assert shown == words(" ".join(line[lang] for line in expected))


def check_all(screen: GameScreen, lang: str, mirror: LogMirror | None = None) -> None:
    check_board(screen)
    check_options(screen, lang)
    check_log(screen, lang, mirror or LogMirror())


def keys_to(screen: GameScreen, target: int, rng: random.Random) -> list[str]:
    """Cursor keys (arrows or h j k l, at random) from the cursor to ``target``."""
    n = screen.session.state.geometry.size
    cf, cr = screen.cursor % n, screen.cursor // n
    tf, tr = target % n, target // n
    sign = -1 if screen.flip else 1
    keys = []
    dx, dy = (tf - cf) * sign, (tr - cr) * sign
    keys += [rng.choice(["right", "l"]) if dx > 0 else rng.choice(["left", "h"])] * abs(dx)
    keys += [rng.choice(["up", "k"]) if dy > 0 else rng.choice(["down", "j"])] * abs(dy)
    return keys


async def play_by_keys(app: ReliquaryApp, pilot: Pilot[None], lang: str, seed: int,
                       limit: int = 600, stop: int | None = None) -> int:
    """Play the human's decisions by keys until the game ends (or ``stop`` decisions);
    checks after each."""
    rng = random.Random(seed)
    screen = app.game_screen
    assert screen is not None
    decisions = 0
    mirror = LogMirror()
    await settle(pilot, screen)
    check_all(screen, lang, mirror)
    while not screen.session.state.is_terminal and decisions != stop:
        assert decisions < limit, "the game did not end"
        state = screen.session.state
        options = state.decision().options
        index = rng.randrange(len(options))
        option = options[index]
        if isinstance(option, int) and not isinstance(option, bool) and rng.random() < 0.6:
            await pilot.press(*keys_to(screen, option, rng))
        else:
            ahead = (index - screen.selected) % len(options)
            back = len(options) - ahead
            await pilot.press(*(["tab"] * ahead if ahead <= back else ["shift+tab"] * back))
        assert screen.selected_option() == option
        assert screen.query_one("#options", OptionList).highlighted == index
        before = len(screen.session.history)
        await pilot.press(rng.choice(["enter", "space"]))
        await settle(pilot, screen)
        assert screen.session.history[before].option == option
        decisions += 1
        check_all(screen, lang, mirror)
    return decisions


@pytest.mark.slow
async def test_a_whole_game_by_keys_against_the_random_ai() -> None:
    """Setup in full and every turn to the end; board, options and log checked after
    each decision; the result in the status line is the web's result text."""
    lang = "en"
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=11), lang=lang)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        # The new-game screen: full setup (the default), Start.
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.game_screen
        assert screen is not None
        assert screen.session.state.decision().kind == "ruin"
        decisions = await play_by_keys(app, pilot, lang, seed=5)
        assert decisions > 10
        state = screen.session.state
        assert state.is_terminal
        result = screen.session.result_line(lang)
        assert result and words(result)[:30] in words(screen_text(app))
        again = replay(screen.session.record(), default_content())
        assert again.state.result == state.result


async def test_quick_start_in_spanish_as_skull_turns_the_board() -> None:
    """--quick: on the board at once, the setup dealt; as Skull the board is turned;
    twenty decisions by keys in Spanish, checked as the whole game is."""
    setup = Setup(opponent="random", seat=1, seed=3, settings=Settings(size=8))
    app = ReliquaryApp(default_content(), setup, quick=True, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        assert screen.flip
        assert screen.session.state.first >= 0
        assert screen.session.state.decision().kind == "play"
        text = board_cells(screen)
        assert len(text) == 64
        lines = screen.query_one("#board", BoardView).render().plain.splitlines()
        assert lines[1].lstrip().startswith("1 ")  # rank 1 at the top when turned
        assert await play_by_keys(app, pilot, "es", seed=2, stop=20) == 20


@pytest.mark.parametrize("quit_key", ["q", "ctrl+q"])
async def test_quit_mid_game_writes_a_record_that_replays(tmp_path: Path,
                                                          quit_key: str) -> None:
    path = tmp_path / "game.json"
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=4), quick=True,
                       record_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        for _ in range(6):
            await settle(pilot, screen)
            await pilot.press("enter")
        await settle(pilot, screen)
        history = [e.token for e in screen.session.history]
        await pilot.press(quit_key)
        await pilot.pause()
    record = json.loads(path.read_text(encoding="utf-8"))
    game = replay(record, default_content())
    assert [e.token for e in game.history] == history
    assert not game.state.is_terminal and record["result"] is None


async def test_undo_by_key_follows_the_web_policy() -> None:
    """u takes back the human's turn and the AI's reply (the web's undo_count), and
    is refused, with a message, when that would go past a chance outcome."""
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=8), quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        s = screen.session
        for _ in range(40):
            await settle(pilot, screen)
            count = undo_count(s.history, s.humans, s.ai_seat)
            tokens = [e.token for e in s.history]
            await pilot.press("u")
            await settle(pilot, screen)
            if count:
                assert [e.token for e in s.history] == tokens[:len(tokens) - count]
                assert t("en", "undone", n=count) in screen_text(app)
                check_all(screen, "en")
                return
            assert [e.token for e in s.history] == tokens
            assert t("en", "undo_refused")[:20] in screen_text(app)
            await pilot.press("enter")
        pytest.fail("no undo was offered in 40 decisions")


async def test_a_click_on_a_square_twice_chooses_it() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="human", seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.game_screen
        assert screen is not None
        state: State = screen.session.state
        target = state.decision().options[-1]
        assert isinstance(target, int)
        board = screen.query_one("#board", BoardView)
        n = state.geometry.size
        lines = board.render().plain.splitlines()
        rank, file = target // n + 1, target % n
        y = next(i for i, line in enumerate(lines) if ROW.match(line)
                 and int(ROW.match(line).group(1)) == rank)  # type: ignore[union-attr]
        cell, _ = board_layout(n, board.size.width, board.size.height)
        x = 4 + file * (cell + 1) + 1
        await pilot.click("#board", offset=(x, y))
        assert screen.cursor == target and screen.selected_option() == target
        assert len(screen.session.history) == 0
        await pilot.click("#board", offset=(x, y))
        await pilot.pause()
        assert screen.session.history[0].option == target
        assert screen.session.history[0].kind == "ruin"


async def test_help_speaks_of_the_decision_and_the_selected_card() -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=3), quick=True,
                       lang="es")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        option = screen.selected_option()
        assert isinstance(option, Play)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "Juega una carta" in text          # the web's prompt, in Spanish
        assert option.card in text                # the selected option's card
        assert t("es", f"help_{option.mode}")[:30] in words(text)
        await pilot.press("escape")
        await pilot.press("r")
        await pilot.pause()
        assert "Reliquary — cómo se juega" in screen_text(app)  # the rulebook in Spanish
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_save_and_open_a_position_and_a_record(tmp_path: Path) -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=6), quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        await pilot.press("enter")
        await settle(pilot, screen)
        tokens = [e.token for e in screen.session.history]
        for button, name in (("#record", "r.json"), ("#position", "p.json")):
            await pilot.press("w")
            await pilot.pause()
            app.screen.query_one("#path").value = str(tmp_path / name)  # type: ignore[attr-defined]
            await pilot.click(button)
            await pilot.pause()
        record = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
        assert [e.token for e in replay(record, default_content()).history] == tokens
        position = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
        assert position["format"] == "reliquary-position"
        # Open the position: the same board, no record (undo refused, says so on save).
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#path").value = str(tmp_path / "p.json")  # type: ignore[attr-defined]
        await pilot.click("#open")
        await settle(pilot, screen)
        assert not screen.session.has_record
        check_board(screen)
        assert screen.query_one("#log", RichLog).lines == []
        # Open the record: the game again, its whole log written anew.
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#path").value = str(tmp_path / "r.json")  # type: ignore[attr-defined]
        await pilot.click("#open")
        await settle(pilot, screen)
        assert [e.token for e in screen.session.history] == tokens
        check_all(screen, "en")
        # A file that is not a game: a clear message, the game goes on.
        (tmp_path / "bad.json").write_text("{\"format\": \"nope\"}", encoding="utf-8")
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#path").value = str(tmp_path / "bad.json")  # type: ignore[attr-defined]
        await pilot.click("#open")
        await pilot.pause()
        assert "neither a game record" in screen.message
        assert screen.message[:20] in screen_text(app)
        assert app.screen is screen


def test_sessions_from_records_continue_where_they_stopped(tmp_path: Path) -> None:
    session = GameSession(default_content(), Setup(opponent="random", quick=True, seed=2))
    for _ in range(5):
        session.choose(session.state.decision().options[0])
        while session.ai_to_move():
            session.choose(session.think())
    path = tmp_path / "g.json"
    session.save_record(path)
    again = GameSession.load(path, default_content(), Setup(opponent="random"))
    assert [e.token for e in again.history] == [e.token for e in session.history]
    assert again.log == session.log


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_largest_board_fits_the_screen(size: tuple[int, int]) -> None:
    """Side 12: every square drawn and right, at 80 × 24 too (narrower cells)."""
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=3, quick=True,
                                                settings=Settings(size=12)), quick=True)
    async with app.run_test(size=size) as pilot:
        screen = app.game_screen
        assert screen is not None
        await settle(pilot, screen)
        check_board(screen)
        text = screen_text(app)
        assert "12 │" in text and " a " in text and " l" in text and "└───" in text
