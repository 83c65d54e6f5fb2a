"""The app's dialogs and side screens: new game, help, rules, save, open."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    Markdown,
    MarkdownViewer,
    Select,
    SelectionList,
)

from ..ai import AGENTS, LEVELS
from ..engine import DECISION_KINDS, Content, Play, Settings, State
from ..engine.modules import registered
from ..rulesets import RulesetError, differences, load_ruleset, ruleset_names
from ..web.text import names_of
from .i18n import prompt, side, t
from .modules import module_help
from .session import HUMAN, Setup

S = TypeVar("S", bound=Screen[Any])


@cache
def localised(screen: type[S], lang: str) -> type[S]:
    """The screen with its footer's words in ``lang`` (bindings are class data, made by
    the screen's ``bindings(lang)``)."""
    if lang == "en":
        return screen
    make: Callable[[str], list[BindingType]] = getattr(screen, "bindings")  # noqa: B009
    return type(screen.__name__, (screen,), {"BINDINGS": make(lang)})


# ---------------------------------------------------------------------- new game
class NewGameScreen(ModalScreen[Setup | None]):
    """Every setup option, setting and variant; Start gives a :class:`Setup`."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    #form { width: 76; max-width: 100%; height: auto; max-height: 100%;
            border: round $accent; padding: 0 1; }
    #form Horizontal { height: auto; }
    #form Label { width: 24; padding: 0 1 0 0; }
    #form Select, #form Input, #form SelectionList { width: 1fr; }
    #form SelectionList { height: auto; max-height: 6; }
    #form #ruleset_about, #form #module_help { color: $text-muted; width: 1fr;
                                               padding: 0 0 0 24; }
    #error { color: $error; width: 1fr; padding: 0; }
    #buttons { height: auto; align: right middle; }
    """
    @staticmethod
    def bindings(lang: str) -> list[BindingType]:
        return [Binding("ctrl+s", "start", t(lang, "start"), priority=True),
                Binding("escape", "cancel", t(lang, "cancel"))]

    BINDINGS: ClassVar[list[BindingType]] = bindings("en")

    def __init__(self, content: Content, lang: str, setup: Setup) -> None:
        super().__init__()
        self.content = content
        self.lang = lang
        self.start = setup

    def compose(self) -> ComposeResult:
        lang, s = self.lang, self.start
        names = names_of(self.content)
        opponents: list[tuple[str, str]] = [(t(lang, "human"), HUMAN)]
        opponents += [(f"{t(lang, 'ai')}: {level}", level) for level in LEVELS]
        opponents += [(f"{t(lang, 'ai')}: {name}", name) for name in AGENTS]
        factions = [(t(lang, "random"), "")] + [
            (names["factions"][f.id][lang], f.id) for f in self.content.factions]
        st = s.settings

        def row(label: str, widget: Any) -> Horizontal:
            return Horizontal(Label(label), widget)

        rulesets = ruleset_names_for(s.ruleset)
        with VerticalScroll(id="form"):
            yield Label(f"[b]{t(lang, 'new_title')}[/b]")
            yield row(t(lang, "ruleset"), Select(
                [(name, name) for name, _ in rulesets],
                value=s.ruleset, allow_blank=False, compact=True, id="ruleset"))
            yield Label(ruleset_details(s.ruleset, lang), id="ruleset_about", markup=False)
            yield row(t(lang, "opponent"), Select(opponents, value=s.opponent,
                                                  allow_blank=False, compact=True, id="opponent"))
            yield row(t(lang, "seat"), Select([(side(lang, p), p) for p in (0, 1)],
                                              value=s.seat, allow_blank=False,
                                                  compact=True, id="seat"))
            yield row(t(lang, "setup"), Select(
                [(t(lang, "quick_setup"), True), (t(lang, "full_setup"), False)],
                value=s.quick, allow_blank=False, compact=True, id="quick"))
            yield row(t(lang, "faction"), Select(factions, value=s.faction or "",
                                                 allow_blank=False, compact=True, id="faction"))
            yield row(t(lang, "size"), Select([(str(n), n) for n in self.content.sizes],
                                              value=st.size, allow_blank=False,
                                                  compact=True, id="size"))
            yield row(t(lang, "los"), Select(
                [(t(lang, "geometric"), "geometric"), (t(lang, "straight"), "straight")],
                value=st.los, allow_blank=False, compact=True, id="los"))
            yield row(t(lang, "first_turn"), Select(
                [(t(lang, "no_damage"), "no_damage"), (t(lang, "no_attack"), "no_attack")],
                value=st.first_turn, allow_blank=False, compact=True, id="first_turn"))
            yield row(t(lang, "round_cap"), Input(str(st.round_cap), compact=True, id="round_cap"))
            yield Label(f"[b]{t(lang, 'variants')}[/b]")
            yield row(t(lang, "regroup_limit"), Input(
                "" if st.regroup_limit is None else str(st.regroup_limit),
                    compact=True, id="regroup_limit"))
            yield row(t(lang, "vigil_reset"), Select(
                [(t(lang, "any_hp"), "any"), (t(lang, "hero_hp"), "hero")],
                value=st.vigil_reset, allow_blank=False, compact=True, id="vigil_reset"))
            yield row(t(lang, "vigil_start"), Select([(str(v), v) for v in range(6, 0, -1)],
                                                     value=st.vigil_start, allow_blank=False,
                                                     compact=True, id="vigil_start"))
            yield row(t(lang, "killed_minions"), Select(
                [(t(lang, "pool"), "pool"), (t(lang, "removed"), "removed")],
                value=st.killed_minions, allow_blank=False, compact=True, id="killed_minions"))
            modules = registered()
            if modules:
                yield row(t(lang, "modules"), SelectionList[str](
                    *[(f"{m.title} ({m.rules})", name, name in st.modules)
                      for name, m in modules.items()], id="modules"))
                yield row(t(lang, "module_options"), Input(
                    "; ".join(f"{k}={_written(v)}" for k, v in st.module_options),
                    compact=True, id="module_options"))
                yield Label(module_options_help(st.modules), id="module_help", markup=False)
            else:
                yield row(t(lang, "modules"), Label(t(lang, "no_modules"), id="modules"))
            yield row(t(lang, "seed"), Input("" if s.seed is None else str(s.seed),
                compact=True, id="seed"))
            yield Label("", id="error")
            with Horizontal(id="buttons"):
                yield Button(t(lang, "cancel"), id="cancel")
                yield Button(f"{t(lang, 'start')} (ctrl+s)", variant="primary", id="start")
        yield Footer()

    def _number(self, field: str, label: str, empty_ok: bool) -> int | None:
        text = self.query_one(f"#{field}", Input).value.strip()
        if not text and empty_ok:
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(t(self.lang, "bad_number", field=label, value=text)) from None

    def read(self) -> Setup:
        """The form as a :class:`Setup` (ValueError saying which field is wrong)."""
        def value(name: str) -> Any:
            return self.query_one(f"#{name}", Select).value

        lang = self.lang
        round_cap = self._number("round_cap", t(lang, "round_cap"), False)
        data: dict[str, Any] = {
            "size": value("size"), "los": value("los"), "first_turn": value("first_turn"),
            "round_cap": round_cap if round_cap is not None else 200,
            "regroup_limit": self._number("regroup_limit", t(lang, "regroup_limit"), True),
            "vigil_reset": value("vigil_reset"), "vigil_start": value("vigil_start"),
            "killed_minions": value("killed_minions")}
        if registered():
            data["modules"] = list(self.query_one("#modules", SelectionList).selected)
            data.update(module_options(self.query_one("#module_options", Input).value))
        settings = Settings.from_dict(data)  # ValueError naming the setting or option
        return Setup(opponent=value("opponent"), seat=value("seat"), quick=value("quick"),
                     faction=value("faction") or None, settings=settings,
                     seed=self._number("seed", t(lang, "seed"), True),
                     ruleset=value("ruleset"))

    @on(Select.Changed, "#ruleset")
    def _ruleset_changed(self, event: Select.Changed) -> None:
        """A ruleset chosen: its description and changes shown, its settings set in the
        form (each can still be changed before Start)."""
        name = str(event.value)
        self.query_one("#ruleset_about", Label).update(ruleset_details(name, self.lang))
        try:
            settings = load_ruleset(name).game_settings().as_dict()
        except (RulesetError, ValueError):
            return  # a ruleset given on the command line by its file: the form as it is
        for key, value in settings.items():
            found = self.query(f"#{key}")
            if not found:
                continue
            widget = found.first()
            if isinstance(widget, Select):
                widget.value = value
            elif isinstance(widget, Input):
                widget.value = "" if value is None else str(value)
        if registered():
            chosen = self.query_one("#modules", SelectionList)
            chosen.deselect_all()
            for module in settings.get("modules", ()):
                chosen.select(module)
            self.query_one("#module_options", Input).value = "; ".join(
                f"{k}={_written(v)}" for k, v in settings.get("module_options", {}).items())

    @on(SelectionList.SelectedChanged, "#modules")
    def _modules_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        self.query_one("#module_help", Label).update(
            module_options_help(tuple(event.selection_list.selected)))

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            setup = self.read()
        except ValueError as err:
            self.query_one("#error", Label).update(str(err))
            return
        self.dismiss(setup)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def ruleset_names_for(current: str) -> list[tuple[str, str]]:
    """The packaged rulesets (``classic`` first), and ``current`` if it is none of them
    (a file given with ``--ruleset``), each with its description."""
    out = [(name, load_ruleset(name).description) for name in ruleset_names()]
    if current not in {name for name, _ in out}:
        out.append((current, ""))
    return out


def ruleset_details(name: str, lang: str) -> str:
    """A ruleset's description and what it changes from classic, one line each."""
    try:
        ruleset = load_ruleset(name)
    except (RulesetError, ValueError):
        return t(lang, "ruleset_given")
    changes = differences(ruleset)
    lines = [ruleset.description]
    lines += [f"• {line}" for line in changes] if changes else [t(lang, "ruleset_as_written")]
    return "\n".join(lines)


def module_options_help(modules: tuple[str, ...] | list[str]) -> str:
    """Each chosen module's options, the values they take and what they do (from the
    module registry)."""
    found = registered()
    lines = []
    for name in modules:
        module = found.get(name)
        if module is None:
            continue
        for option, spec in module.options.items():
            lines.append(f"{module.option_key(option)} = {spec.describe()}"
                         + (f": {spec.help}" if spec.help else ""))
    return "\n".join(lines)


def _written(value: Any) -> str:
    return ",".join(value) if isinstance(value, (list, tuple)) else str(value)


def module_options(text: str) -> dict[str, Any]:
    """``a.b=1; c.d=x,y`` as settings keys and values (numbers, lists, names), as
    ``--module-option`` reads them; a ValueError saying which part is not one."""
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or "." not in key:
            raise ValueError(f"{part!r}: write a module option as MODULE.OPTION=VALUE")
        value = value.strip()
        out[key.strip()] = (int(value) if value.lstrip("-").isdigit() else
                            [v.strip() for v in value.split(",") if v.strip()]
                            if "," in value else value)
    return out


# ---------------------------------------------------------------------- help
@dataclass
class HelpTopic:
    """What the help of a decision speaks of: its kind, the card, the selected option."""

    kind: str | None
    card: str | None
    option: Any
    rite: str | None
    faction: str | None


def help_markdown(content: Content, lang: str, topic: HelpTopic,
                  state: State | None = None) -> str:
    """The help of a decision, from the content data and the web's texts; with rule
    modules on (``state``'s), each module's help and the board's marks for them."""
    names = names_of(content)
    parts: list[str] = []
    if topic.kind:
        parts.append(f"## {prompt(lang, topic.kind)}")
        if lang == "en":
            parts.append(f"*{t(lang, 'rule')}: {DECISION_KINDS.get(topic.kind, topic.kind)}*")
        else:
            parts.append(f"*{t(lang, 'rule')}: {topic.kind}*")
    else:
        parts.append(f"## {t(lang, 'over')}")
    card_id = topic.option.card if isinstance(topic.option, Play) else topic.card
    if card_id:
        card = content.card(card_id)
        attack = (t(lang, "faction_attack") if card.attack == "faction"
                  else (card.attack.text.es or card.attack.text.en) if lang == "es"
                  else card.attack.text.en)
        seal = t(lang, f"{card.seal}_seal")
        escort = f" · {t(lang, 'escort')}" if card.escort else ""
        parts.append(f"### {t(lang, 'the_card')}: {card.id}\n\n{seal}{escort}. "
                     f"{t(lang, 'attack')}: {attack}")
    if isinstance(topic.option, Play):
        key = "help_pass" if topic.option.mode == "pass" else f"help_{topic.option.mode}"
        parts.append(f"### {t(lang, 'the_mode')}: {topic.option.mode}\n\n{t(lang, key)}")
    if topic.rite:
        rite = content.rite(topic.rite)
        text = (rite.text.es or rite.text.en) if lang == "es" else rite.text.en
        parts.append(f"### {t(lang, 'the_rite')}: {names['rites'][rite.id][lang]}\n\n{text}")
    if topic.faction:
        faction = content.faction(topic.faction)
        text = (faction.text.es or faction.text.en) if lang == "es" else faction.text.en
        parts.append(f"### {t(lang, 'the_faction')}: {names['factions'][faction.id][lang]}"
                     f"\n\n{t(lang, 'hero')} {faction.hero_hp} {t(lang, 'hp')}. {text}")
    if not isinstance(topic.option, Play) and topic.kind == "play":
        parts.extend(t(lang, f"help_{m}") for m in ("move", "attack", "regroup", "rite", "pass"))
    parts.append(f"*{t(lang, 'help_goal')}*")
    if state is not None and state.settings.modules:
        parts.append(f"### {t(lang, 'modules_title')}")
        parts.extend(module_help(state, lang))
    parts.append(f"### {t(lang, 'help_keys')}\n\n{t(lang, 'keys_text')}")
    parts.append(t(lang, "legend"))
    if state is not None and state.settings.modules:
        parts.append(t(lang, "legend_modules"))
    return "\n\n".join(parts)


def details_markdown(state: State, ruleset: str, players: list[str], seed: int | None,
                     lang: str) -> str:
    """A game's details: its ruleset (description and changes), its rule settings, its
    rule modules with their options' values, the players and the seed — all read from
    the game's settings and the registries."""
    parts = [f"## {t(lang, 'details_title')}", f"### {t(lang, 'ruleset')}: {ruleset}",
             ruleset_details(ruleset, lang).replace("\n", "\n\n"),
             f"### {t(lang, 'settings')}"]
    settings = state.settings
    parts.append("\n".join(f"- {key} = {_written(value) if value is not None else '—'}"
                           for key, value in settings.as_dict().items()
                           if key not in ("modules", "module_options")))
    parts.append(f"### {t(lang, 'modules_title')}")
    found = registered()
    if not settings.modules:
        parts.append(t(lang, "no_modules_on"))
    for name in settings.modules:
        module = found.get(name)
        if module is None:
            parts.append(f"- {name}")
            continue
        keys = [module.option_key(o) for o in module.options]
        options = ", ".join(f"{key} = {_written(settings.option(key))}" for key in keys)
        parts.append(f"- **{module.title}** ({module.rules}): {module.summary}"
                     + (f"\n  {options}" if options else ""))
    parts.append(f"### {t(lang, 'players')}")
    parts.append("\n".join(f"- {side(lang, p)}: {who}" for p, who in enumerate(players)))
    parts.append(f"{t(lang, 'seed')}: {'—' if seed is None else seed} · "
                 f"{t(lang, 'fingerprint')}: {state.content.fingerprint}")
    return "\n\n".join(parts)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent;
                                  padding: 0 1; background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(self.markdown, id="help")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(Screen[None]):
    """The rulebook (``data/rulebook/<lang>.md``) with its table of contents."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        text = (resources.files("reliquary.data") / "rulebook" / f"{self.lang}.md").read_text(
            encoding="utf-8")
        yield MarkdownViewer(text, show_table_of_contents=True)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- files
class FileScreen(ModalScreen[tuple[str, Path] | None]):
    """Ask for a file name: to save (record or position) or to open."""

    DEFAULT_CSS = """
    FileScreen { align: center middle; }
    FileScreen > Vertical { width: 70; height: auto; border: round $accent; padding: 0 1;
                            background: $surface; }
    FileScreen Horizontal { height: auto; align: right middle; }
    #file_error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, lang: str, saving: bool, default: str) -> None:
        super().__init__()
        self.lang = lang
        self.saving = saving
        self.default = default

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical():
            yield Label(f"[b]{t(lang, 'save_title' if self.saving else 'open_title')}[/b]")
            yield Input(self.default, placeholder=t(lang, "file"), id="path")
            yield Label("", id="file_error")
            with Horizontal():
                yield Button(t(lang, "cancel"), id="cancel")
                if self.saving:
                    yield Button(t(lang, "save_position"), id="position")
                    yield Button(t(lang, "save_record"), variant="primary", id="record")
                else:
                    yield Button(t(lang, "k_open"), variant="primary", id="open")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self.query_one("#file_error", Label).update(t(self.lang, "file") + "?")
            return
        self.dismiss((event.button.id or "open", Path(text).expanduser()))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if text:
            self.dismiss(("record" if self.saving else "open", Path(text).expanduser()))

    def action_cancel(self) -> None:
        self.dismiss(None)
