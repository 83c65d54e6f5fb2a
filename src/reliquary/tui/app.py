"""The Textual app: a game screen over a :class:`GameSession`, and a replay viewer.

Keys: arrows or ``h j k l`` move the board cursor; Tab / Shift+Tab cycle the options;
Enter or Space chooses; ``u`` undoes (the web's policy); ``i`` (or ``H``) asks for a
hint (``h`` is taken by the cursor, as in vi); ``?`` helps; ``r`` opens the rules;
``n`` a new game; ``w`` saves; ``o`` opens; ``q`` quits (writing ``--record`` first).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option as ListOption
from textual.worker import get_current_worker

from ..engine import MODES, Content, Option, Play, State
from ..engine.types import INTERACT
from ..engine.visibility import hint_allowed, viewer_for
from ..rulesets import load_ruleset, ruleset_of_record
from ..web.text import Line, names_of
from .i18n import prompt, side, t
from .modules import module_panel, option_names
from .screens import (
    FileScreen,
    HelpScreen,
    HelpTopic,
    NewGameScreen,
    RulesScreen,
    details_markdown,
    help_markdown,
    localised,
)
from .session import GameSession, ReplaySession, Setup, describe_option, option_squares
from .widgets import (
    BoardScene,
    BoardView,
    CardsScene,
    CardsView,
    status_text,
)

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

LAYOUT_CSS = """
#status { height: 3; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#main { height: 1fr; }
#left { width: 3fr; min-width: 44; }
#right { width: 2fr; min-width: 26; }
#module_panel { height: auto; max-height: 45%; border: round $primary; padding: 0 1; }
#options { height: 1fr; min-height: 4; border: round $primary; padding: 0; }
#options:focus { border: round $accent; }
#preview { height: auto; max-height: 4; padding: 0 1; }
#log { height: 1fr; min-height: 4; border: round $primary; padding: 0; }
"""


def draw_module_panel(screen: Screen[None], state: State, lang: str, before: str) -> None:
    """The rule modules' panel (Glory, Keepers' Relics, Conditions) at the top of the
    right column, above ``before``: mounted only while the game has a module, so the
    base game's screen stays as it was."""
    found = screen.query("#module_panel")
    shown = module_panel(state, lang) if state.settings.modules else None
    if not shown:  # no module, or none the panel speaks of
        found.remove()
        return
    if found:
        text = found.first().query_one("#module_text", Static)
    else:
        text = Static(id="module_text")
        panel = VerticalScroll(text, id="module_panel")
        panel.border_title = t(lang, "modules_title")
        screen.query_one("#right").mount(panel, before=before)
    text.update(shown)


class GameScreen(Screen[None]):
    """A game in play: board, cards, status, options, preview and log."""

    DEFAULT_CSS = LAYOUT_CSS
    @staticmethod
    def bindings(lang: str) -> list[BindingType]:
        """The keys, their footer words in ``lang`` (``h`` moves left, so hints are on
        ``i`` and ``H``)."""
        return [
            Binding("left,h", "cursor(-1,0)", "←", show=False, priority=True),
            Binding("right,l", "cursor(1,0)", "→", show=False, priority=True),
            Binding("up,k", "cursor(0,1)", "↑", show=False, priority=True),
            Binding("down,j", "cursor(0,-1)", "↓", show=False, priority=True),
            Binding("enter,space", "choose", t(lang, "k_choose"), priority=True),
            Binding("tab", "cycle(1)", t(lang, "k_next"), priority=True),
            Binding("shift+tab", "cycle(-1)", t(lang, "k_next"), show=False, priority=True),
            Binding("u", "undo", t(lang, "k_undo")),
            Binding("i,H", "hint", t(lang, "k_hint")),
            Binding("question_mark", "help", t(lang, "k_help")),
            Binding("r", "rules", t(lang, "k_rules")),
            Binding("d", "details", t(lang, "k_details"), show=False),
            Binding("w", "save", t(lang, "k_save")),
            Binding("n", "new_game", t(lang, "k_new"), show=False),
            Binding("o", "open", t(lang, "k_open"), show=False),
            Binding("q", "quit_game", t(lang, "k_quit")),
        ]

    BINDINGS: ClassVar[list[BindingType]] = bindings("en")

    def __init__(self, session: GameSession, lang: str, record_path: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.record_path = record_path
        self.selected = 0
        self.cursor = -1
        self.version = 0          # bumped by undo/new game: stale AI answers are dropped
        self.thinking = False
        self.spin = 0
        self.message = ""
        self.logged = 0
        self.record_written = False
        self._preview: tuple[tuple[int, int, int], tuple[set[int], list[Line]]] | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardView(self.board_scene(), id="board")
                yield CardsView(self.cards_scene(), self.lang, id="cards")
            with Vertical(id="right"):
                yield OptionList(id="options")
                yield Static(id="preview")
                yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
        self.fit_board()
        self.query_one("#options", OptionList).can_focus = False
        self.query_one("#options", OptionList).border_title = t(self.lang, "options")
        self.query_one("#log", RichLog).border_title = t(self.lang, "log")
        self.set_interval(0.1, self._tick)
        self.refresh_game(new_decision=True)
        self.advance()

    @property
    def flip(self) -> bool:
        s = self.session
        return s.ai_seat == 0 or (len(s.humans) == 2 and s.to_move() == 1)

    def fit_board(self) -> None:
        """Room on the left for the whole board, whatever its side."""
        n = self.session.state.geometry.size
        self.query_one("#left").styles.min_width = max(44, BoardView.min_width(n))

    def board_scene(self) -> BoardScene:
        s = self.session
        d = s.decision()
        options: set[int] = set()
        preview: set[int] = set()
        subject = -1
        if d is not None and s.human_to_move():
            for o in d.options:
                options.update(option_squares(s.state, o))
            subject = d.piece
            option = self.selected_option()
            if option is not None:
                preview = self.preview_of(option)[0]
        return BoardScene(s.state, self.cursor, options, preview, s.last_turn(), subject,
                          self.flip)

    def cards_scene(self) -> CardsScene:
        option = self.selected_option()
        card = option.card if isinstance(option, Play) else None
        return CardsScene(self.session.state, card, self.flip)

    def selected_option(self) -> Option | None:
        d = self.session.decision()
        if d is None or not self.session.human_to_move() or not d.options:
            return None
        return d.options[self.selected % len(d.options)]

    # ------------------------------------------------------------------ drawing
    def who_text(self) -> str:
        s = self.session
        lang = self.lang
        if s.state.is_terminal:
            return f"{t(lang, 'over')}: {s.result_line(lang)}"
        p = s.to_move()
        name = side(lang, p)
        if self.thinking:
            return f"{name} ({t(lang, 'ai')}) {SPINNER[self.spin % len(SPINNER)]} " \
                   f"{t(lang, 'thinking')}…"
        mine = f" ({t(lang, 'your_move')})" if s.human_to_move() else ""
        return f"{name}{mine}"

    def refresh_game(self, new_decision: bool = False) -> None:
        """Draw everything from the session (after a decision, an undo, a load)."""
        s = self.session
        d = s.decision()
        if new_decision:
            self.selected = 0
            if d is not None and s.human_to_move():
                ends = [option_squares(s.state, o)[-1:] for o in d.options]
                if (self.cursor,) in ends:  # the cursor stays and names its option
                    self.selected = ends.index((self.cursor,))
                elif ends[0]:
                    self.cursor = ends[0][0]
                elif self.cursor < 0:
                    self.cursor = s.state.geometry.size // 2
        self._draw_status()
        options = self.query_one("#options", OptionList)
        if new_decision:
            options.clear_options()
            if d is not None and s.human_to_move():
                modes: dict[str, str] = {m: t(self.lang, m) for m in (*MODES, INTERACT)}
                found = names_of(s.content)
                names = {kind: {key: name[self.lang] for key, name in found[kind + "s"].items()}
                         for kind in ("faction", "rite")}
                names.update(option_names(s.state, self.lang))  # the modules' options
                options.add_options([ListOption(describe_option(s.state, o, modes, names))
                                     for o in d.options])
                options.highlighted = 0
        self._draw_selection()
        log = self.query_one("#log", RichLog)
        if self.logged < 0 or self.logged > len(s.log):  # an undo or a new game
            log.clear()
            self.logged = 0
        for line in s.log[self.logged:]:
            log.write(Text(line[self.lang]))
        self.logged = len(s.log)

    def _draw_status(self) -> None:
        s = self.session
        draw_module_panel(self, s.state, self.lang, "#options")
        d = s.decision()
        text = status_text(s.state, self.lang, who=self.who_text(),
                           prompt=prompt(self.lang, d.kind) if d else "",
                           viewer=viewer_for(s.humans))
        self.query_one("#status", Static).update(text)

    def _draw_selection(self) -> None:
        self.query_one("#board", BoardView).show(self.board_scene())
        self.query_one("#cards", CardsView).show(self.cards_scene())
        option = self.selected_option()
        text = Text()
        if self.message:  # what the last key did (refused, saved, a hint…)
            text.append(self.message + "\n", "bold")
        if option is not None:
            lines = self.preview_of(option)[1]
            if lines:
                text.append(f"{t(self.lang, 'preview')}: " +
                            " ".join(line[self.lang] for line in lines[:2]), "italic")
        self.query_one("#preview", Static).update(text)
        options = self.query_one("#options", OptionList)
        if options.option_count and option is not None:
            options.highlighted = self.selected % options.option_count

    def preview_of(self, option: Option) -> tuple[set[int], list[Line]]:
        """The session's preview of an option, worked out once per decision and option."""
        key = (len(self.session.history), self.version, self.selected)
        if self._preview is None or self._preview[0] != key:
            self._preview = (key, self.session.preview(option))
        return self._preview[1]

    def say(self, message: str, error: bool = False) -> None:
        """A line under the options; an error also pops up whole (a path may be long)."""
        self.message = message
        if error:
            self.app.notify(message, severity="error", timeout=8)
        self._draw_selection()

    def _tick(self) -> None:
        if self.thinking:
            self.spin += 1
            self._draw_status()

    # ------------------------------------------------------------------ flow
    def advance(self) -> None:
        """After any change: write the record at the end, or let the AI think."""
        s = self.session
        if s.state.is_terminal:
            self.write_record()
            return
        if s.ai_to_move() and not self.thinking:
            self.thinking = True
            self._draw_status()
            self.think(self.version)

    @work(thread=True, exclusive=True, group="ai")
    def think(self, version: int) -> None:
        option = self.session.think()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._ai_chose, option, version)

    def _ai_chose(self, option: Option, version: int) -> None:
        self.thinking = False
        if version != self.version or not self.session.ai_to_move():
            self.advance()
            return
        self.session.choose(option)
        self.refresh_game(new_decision=True)
        self.advance()

    def take(self, option: Option) -> None:
        """The human's decision."""
        s = self.session
        if not s.human_to_move():
            self.say(t(self.lang, "not_yours"))
            return
        s.choose(option)
        self.message = ""
        self.refresh_game(new_decision=True)
        self.advance()

    def write_record(self) -> None:
        if self.record_path is not None and self.session.has_record:
            self.session.save_record(self.record_path)
            self.record_written = True

    # ------------------------------------------------------------------ actions
    def _select(self, index: int) -> None:
        self.selected = index
        option = self.selected_option()
        if option is not None:
            squares = option_squares(self.session.state, option)
            if squares:
                self.cursor = squares[-1]
        self._draw_selection()

    def action_cycle(self, delta: int) -> None:
        d = self.session.decision()
        if d is None or not d.options or not self.session.human_to_move():
            return
        self._select((self.selected + delta) % len(d.options))

    def action_cursor(self, dx: int, dy: int) -> None:
        s = self.session
        n = s.state.geometry.size
        if self.cursor < 0:
            self.cursor = 0
        if self.flip:
            dx, dy = -dx, -dy
        f, r = self.cursor % n + dx, self.cursor // n + dy
        if 0 <= f < n and 0 <= r < n:
            self.cursor = r * n + f
        self._follow_cursor()

    def _follow_cursor(self) -> None:
        """Select the option on the cursor's square (its destination first)."""
        d = self.session.decision()
        if d is not None and self.session.human_to_move():
            squares = [option_squares(self.session.state, o) for o in d.options]
            current = squares[self.selected % len(squares)] if squares else ()
            if self.cursor not in current:
                ends = [i for i, sq in enumerate(squares) if sq and sq[-1] == self.cursor]
                starts = [i for i, sq in enumerate(squares) if self.cursor in sq]
                if ends or starts:
                    self.selected = (ends or starts)[0]
        self._draw_selection()

    def action_choose(self) -> None:
        option = self.selected_option()
        if option is not None:
            self.take(option)

    @on(BoardView.Clicked)
    def _clicked(self, event: BoardView.Clicked) -> None:
        option = self.selected_option()
        if (option is not None and event.square == self.cursor
                and event.square in option_squares(self.session.state, option)):
            self.take(option)
            return
        self.cursor = event.square
        self._follow_cursor()

    @on(OptionList.OptionSelected)
    def _option_clicked(self, event: OptionList.OptionSelected) -> None:
        self._select(event.option_index)
        self.action_choose()

    def action_undo(self) -> None:
        count = self.session.undo()
        if not count:
            self.say(t(self.lang, "undo_refused"))
            return
        self.version += 1
        self.thinking = False
        self.logged = -1  # the log is written again from the start
        self.message = t(self.lang, "undone", n=count)
        self.refresh_game(new_decision=True)
        self.advance()

    def action_hint(self) -> None:
        s = self.session
        if s.state.is_terminal or not s.human_to_move():
            self.say(t(self.lang, "not_yours"))
            return
        if not hint_allowed(s.state, s.to_move()):  # a secret choice: no advice on it
            self.say(t(self.lang, "no_hint_secret"))
            return
        self.say(t(self.lang, "hint_busy"))
        self.find_hint(self.version, len(s.history))

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, version: int, at: int) -> None:
        found = self.session.hint()
        self.app.call_from_thread(self._hint_found, found, version, at)

    def _hint_found(self, found: dict[str, Any], version: int, at: int) -> None:
        s = self.session
        if version != self.version or at != len(s.history):
            return
        tokens = s.tokens()
        if found["best"] in tokens:
            self._select(tokens.index(found["best"]))
        pv = " ".join(found["pv"][:4])
        self.say(f"{t(self.lang, 'hint_for')}: {found['best']} ({pv})")

    def help_topic(self) -> HelpTopic:
        s = self.session
        d = s.decision()
        option = self.selected_option()
        state = s.state
        p = d.player if d is not None and d.player in (0, 1) else 0
        rite = None
        if d is not None and d.kind == "rite" and isinstance(option, str):
            rite = option
        elif (isinstance(option, Play) and option.mode == "rite") or (
                d is not None and d.kind == "rite_effect"):
            rite = state.rites[p]
        faction = option if d is not None and d.kind == "faction" and isinstance(
            option, str) else state.factions[p]
        return HelpTopic(d.kind if d else None, d.card if d else None, option, rite, faction)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(help_markdown(self.session.content, self.lang,
                                                      self.help_topic(), self.session.state)))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.lang))

    def action_details(self) -> None:
        s = self.session
        self.app.push_screen(HelpScreen(details_markdown(
            s.state, s.setup.ruleset, list(s.game.meta.get("players", ["?", "?"])),
            s.setup.seed, self.lang)))

    def action_new_game(self) -> None:
        def start(setup: Setup | None) -> None:
            if setup is not None:
                self.write_record()
                app = self.app
                content = (app.content_for(setup) if isinstance(app, ReliquaryApp)
                           else self.session.content)
                self.new_session(GameSession(content, setup))

        self.app.push_screen(localised(NewGameScreen, self.lang)(
            self.session.content, self.lang, self.session.setup), start)

    def new_session(self, session: GameSession) -> None:
        self.session = session
        self.fit_board()
        self.version += 1
        self.thinking = False
        self.logged = -1
        self.cursor = -1
        self.message = ""
        self.refresh_game(new_decision=True)
        self.advance()

    def action_save(self) -> None:
        def save(answer: tuple[str, Path] | None) -> None:
            if answer is None:
                return
            what, path = answer
            try:
                if what == "position":
                    self.session.save_position(path)
                else:
                    self.session.save_record(path)
            except (OSError, ValueError) as err:
                self.say(str(err) if isinstance(err, ValueError) else
                         f"{path}: {err.strerror}", error=True)
                return
            self.say(t(self.lang, "saved", path=path))

        default = str(self.record_path or "reliquary-game.json")
        self.app.push_screen(FileScreen(self.lang, True, default), save)

    def action_open(self) -> None:
        def load(answer: tuple[str, Path] | None) -> None:
            if answer is None:
                return
            path = answer[1]
            try:
                session = GameSession.load(path, self.session.content, self.session.setup)
            except ValueError as err:
                self.say(str(err), error=True)
                return
            self.new_session(session)
            self.say(t(self.lang, "loaded", path=path))

        self.app.push_screen(FileScreen(self.lang, False, ""), load)

    def action_quit_game(self) -> None:
        self.write_record()
        self.app.exit()


class ReplayScreen(Screen[None]):
    """A record stepped through: ←/→ one decision, ↑/↓ one turn, Home/End."""

    DEFAULT_CSS = LAYOUT_CSS
    @staticmethod
    def bindings(lang: str) -> list[BindingType]:
        return [
            Binding("left,h", "step(-1)", t(lang, "prev"), priority=True),
            Binding("right,l,space", "step(1)", t(lang, "k_step"), priority=True),
            Binding("up,k,p", "turn(-1)", t(lang, "prev_turn"), priority=True),
            Binding("down,j,n", "turn(1)", t(lang, "k_turn"), priority=True),
            Binding("home,g", "go(0)", t(lang, "k_start"), priority=True),
            Binding("end,G", "end", t(lang, "k_end"), priority=True),
            Binding("r", "rules", t(lang, "k_rules")),
            Binding("d", "details", t(lang, "k_details"), show=False),
            Binding("q,escape", "quit_replay", t(lang, "k_quit")),
        ]

    BINDINGS: ClassVar[list[BindingType]] = bindings("en")

    def __init__(self, replay: ReplaySession, lang: str) -> None:
        super().__init__()
        self.replay = replay
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardView(BoardScene(self.replay.state), id="board")
                yield CardsView(CardsScene(self.replay.state), self.lang, id="cards")
            with Vertical(id="right"):
                yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
        n = self.replay.state.geometry.size
        self.query_one("#left").styles.min_width = max(44, BoardView.min_width(n))
        self.query_one("#log", RichLog).border_title = t(self.lang, "log")
        self.draw()

    def draw(self) -> None:
        r = self.replay
        state = r.state
        lang = self.lang
        if state.is_terminal:
            res = state.result
            assert res is not None
            who = t(lang, "over")
        else:
            d = state.decision()
            who = side(lang, d.player) if d.player in (0, 1) else "—"
        kind = "" if state.is_terminal else prompt(lang, state.decision().kind)
        head = f"{t(lang, 'replay_title')} · {t(lang, 'decision_n', n=r.index, total=r.total)}"
        self.query_one("#status", Static).update(status_text(
            state, lang, who=f"{head} · {who}", prompt=kind))
        draw_module_panel(self, state, lang, "#log")
        self.query_one("#board", BoardView).show(BoardScene(state, last_turn=r.last_turn()))
        self.query_one("#cards", CardsView).show(CardsScene(state))
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in r.lines()[-200:]:
            log.write(Text(line[lang]))

    def action_step(self, delta: int) -> None:
        self.replay.step(delta)
        self.draw()

    def action_turn(self, delta: int) -> None:
        self.replay.turn(delta)
        self.draw()

    def action_go(self, index: int) -> None:
        self.replay.go(index)
        self.draw()

    def action_end(self) -> None:
        self.replay.go(self.replay.total)
        self.draw()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.lang))

    def action_details(self) -> None:
        meta = self.replay.game.meta
        self.app.push_screen(HelpScreen(details_markdown(
            self.replay.state, ruleset_of_record({"meta": meta}),
            list(meta.get("players", ["?", "?"])), None, self.lang)))

    def action_quit_replay(self) -> None:
        self.app.exit()


class ReliquaryApp(App[None]):
    """``reliquary play``: a new-game form (or ``--quick``: the board at once)."""

    TITLE = "Reliquary"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, content: Content, setup: Setup | None = None, *, lang: str = "en",
                 quick: bool = False, record_path: Path | None = None,
                 session: GameSession | None = None) -> None:
        super().__init__()
        self.content = content
        self.setup = setup or Setup()
        self.lang = lang
        self.quick = quick
        self.record_path = record_path
        self.session = session  # a game to continue (opened from a file)
        self.game_screen: GameScreen | None = None

    def on_mount(self) -> None:
        if self.session is not None:
            self.start(self.session)
        elif self.quick:
            self.setup.quick = True
            self.start(GameSession(self.content, self.setup))
        else:
            def chosen(setup: Setup | None) -> None:
                if setup is None:
                    self.exit()
                else:
                    self.start(GameSession(self.content_for(setup), setup))

            form = localised(NewGameScreen, self.lang)(self.content, self.lang, self.setup)
            self.push_screen(form, chosen)

    def content_for(self, setup: Setup) -> Content:
        """The content of a new game: the app's own (``--content``, ``--ruleset``) for
        the ruleset it started with, else the chosen ruleset's patch on the package's
        content."""
        if setup.ruleset == self.setup.ruleset:
            return self.content
        return load_ruleset(setup.ruleset).content()

    async def action_quit(self) -> None:
        """Ctrl+Q quits as ``q`` does: the record written first (``--record``)."""
        if self.game_screen is not None:
            self.game_screen.write_record()
        self.exit()

    def start(self, session: GameSession) -> None:
        self.game_screen = localised(GameScreen, self.lang)(session, self.lang, self.record_path)
        self.push_screen(self.game_screen)


class ReplayApp(App[None]):
    """``reliquary replay --tui FILE``."""

    TITLE = "Reliquary replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: ReplaySession, lang: str = "en") -> None:
        super().__init__()
        self.replay = replay
        self.lang = lang

    def on_mount(self) -> None:
        self.push_screen(localised(ReplayScreen, self.lang)(self.replay, self.lang))



