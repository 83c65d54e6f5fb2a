"""Loading game content from TOML files: the package's own, or a user's folder.

>>> content = load_content()
>>> len(content.cards), len(content.factions), len(content.rites)
(18, 9, 3)
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .cardtext import WordingFile, load_wording
from .content_errors import did_you_mean, entry_problems, fill_texts, plain_errors
from .engine import Settings
from .engine.content import Content, ContentError

CONTENT_FILES = ("cards.toml", "factions.toml", "rites.toml", "board.toml")
HELP_CARDS_FILE = "help_cards.toml"


def load_content(folder: str | Path | None = None) -> Content:
    """Load and validate content; ``None`` gives the content shipped in the package.

    A user's folder holds the same four files (``cards.toml``, ``factions.toml``,
    ``rites.toml``, ``board.toml``); a file missing there is taken from the package.
    Card and faction texts are put together from their numbers
    (:mod:`reliquary.cardtext`, with the folder's ``card_text.toml`` if it has one).
    Errors name the file, the entry, the field and what was expected, all at once.
    """
    if folder is None:
        return default_content()
    folder = Path(folder)
    if not folder.is_dir():
        raise ContentError(f"{folder}: not a folder of content files")
    sources: dict[str, dict[str, Any]] = {}
    unreadable: list[str] = []  # every file that is not TOML, not only the first
    for name in CONTENT_FILES:
        path = folder / name
        if not path.exists():
            sources[name] = _packaged(name)
            continue
        try:
            sources[str(path)] = _parse(str(path), path.read_text(encoding="utf-8"))
        except ContentError as err:
            unreadable.append(str(err))
    if unreadable:
        raise ContentError("\n".join(unreadable))
    return build_content(sources, load_wording(folder))


@cache
def default_content() -> Content:
    """The content shipped with the package (loaded once)."""
    return build_content({name: _packaged(name) for name in CONTENT_FILES}, load_wording())


def build_content(sources: dict[str, dict[str, Any]], wording: WordingFile | None = None
                  ) -> Content:
    """Validate parsed content files (keyed by file name), texts made from the numbers.

    Every problem of every file is reported at once, in plain words.
    """
    sources = copy.deepcopy(sources)
    problems: list[str] = []
    for name, table in sources.items():
        problems += fill_texts(name, table, wording or load_wording())
        problems += entry_problems(name, table)
    if problems:
        raise ContentError("\n".join(problems))
    return Content.from_data(sources)


def _packaged(name: str) -> dict[str, Any]:
    text = resources.files("reliquary.data").joinpath(name).read_text(encoding="utf-8")
    return _parse(name, text)


def _parse(name: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ContentError(f"{name}: not valid TOML: {err}") from None


# -- table texts: help cards and printed labels (not rules: the engine never reads them) --
class TableText(BaseModel):
    """A printed text in both languages (help cards are printed in either)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    en: str = Field(min_length=1)
    es: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.es if lang == "es" else self.en


#: The numbers a help text may name by placeholder, from the content and the settings.
HELP_FIELDS = ("vigil", "hand", "deal", "regroup_limit")


def help_fields(content: Content | None = None, settings: Settings | None = None
                ) -> dict[str, object]:
    """The values of :data:`HELP_FIELDS` for a game set up with ``settings``."""
    settings = settings or Settings()
    hand = (content or default_content()).hand_size
    return {"vigil": settings.vigil_start, "hand": hand, "deal": 2 * hand + 1,
            "regroup_limit": settings.regroup_limit}


class HelpLine(TableText):
    """A help card's paragraph; ``when`` keeps it to games with those rule settings
    (``when = { los = "straight" }``; ``"*"``: any value but none); ``{vigil}``,
    ``{hand}``, ``{deal}`` and ``{regroup_limit}`` name the game's numbers."""

    when: dict[str, str | int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> HelpLine:
        known = {f.name for f in fields(Settings)}
        for key in self.when:
            if key not in known:
                raise ValueError(f"'when' names no rule setting {key!r}"
                                 + did_you_mean(key, sorted(known))
                                 + f"; the settings are {', '.join(sorted(known))}")
        dummy = dict.fromkeys(HELP_FIELDS, 0)
        for text in (self.en, self.es):
            try:
                text.format(**dummy)
            except (KeyError, IndexError, ValueError) as err:
                raise ValueError(f"unknown placeholder {err} in {text!r}; the placeholders "
                                 f"are {', '.join('{' + f + '}' for f in HELP_FIELDS)}"
                                 ) from None
        return self

    def applies(self, settings: Settings) -> bool:
        """Whether the line is for a game with ``settings`` (``"*"``: any value but none)."""
        return all(getattr(settings, key) is not None if value == "*"
                   else str(getattr(settings, key)).lower() == str(value).lower()
                   for key, value in self.when.items())


class HelpCard(BaseModel):
    """A shared table card that is not a rite: a help card or the rite selection card."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    title: TableText
    mode: TableText | None = None
    lines: tuple[HelpLine, ...] = Field(min_length=1)
    figure: Literal["none", "board_table", "vigil_track"] = "none"
    after_rites: bool = False

    def texts(self, lang: str, settings: Settings | None = None,
              content: Content | None = None) -> list[str]:
        """The card's paragraphs in ``lang`` for a game set up with ``settings``.

        >>> turn = load_help_cards().card[1]
        >>> turn.texts("en", Settings(first_turn="no_attack"))[-1]
        'If anything is legal, you must play it. No ATTACK on your own first turn.'
        """
        settings = settings or Settings()
        values = help_fields(content, settings)
        return [line.get(lang).format(**values) for line in self.lines
                if line.applies(settings)]


NameId = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]*$", max_length=40)]


class GameNames(BaseModel):
    """The names of factions and rites in each language, for front ends and logs
    (``[names]`` of ``help_cards.toml``). Not rules: the content's own ``name`` (factions)
    and ``id`` (rites) are the designer's English names, which the printed cards keep."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    factions: dict[NameId, TableText] = Field(default_factory=dict)
    rites: dict[NameId, TableText] = Field(default_factory=dict)


class HelpCards(BaseModel):
    """The help cards and the labels printed on cards and sheets (``help_cards.toml``),
    and the names of factions and rites in each language (``[names]``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    content: Literal["help_cards"]
    labels: dict[str, TableText]
    card: tuple[HelpCard, ...] = Field(min_length=1)
    names: GameNames = Field(default_factory=GameNames)

    def label(self, key: str, lang: str, **fields: object) -> str:
        """A label in a language, with ``{field}`` placeholders filled in."""
        try:
            text = self.labels[key].get(lang)
        except KeyError:
            raise ContentError(f"{HELP_CARDS_FILE}: label '{key}' is missing"
                               + did_you_mean(key, tuple(self.labels))) from None
        return text.format(**fields) if fields else text


def load_help_cards(folder: str | Path | None = None) -> HelpCards:
    """Load the help cards: ``help_cards.toml`` from ``folder`` if it has one, else the package's.

    >>> [card.id for card in load_help_cards().card][:2]
    ['setup', 'turn']
    """
    path = Path(folder) / HELP_CARDS_FILE if folder is not None else None
    if path is not None and path.exists():
        name, table = str(path), _parse(str(path), path.read_text(encoding="utf-8"))
    else:
        name, table = HELP_CARDS_FILE, _packaged(HELP_CARDS_FILE)
    try:
        return HelpCards.model_validate(table)
    except ValidationError as err:
        problems = [f"{name}: {_where(field)}{what}" for field, what in plain_errors(err)]
        raise ContentError("\n".join(problems)) from None


def _where(field: str) -> str:
    return f"field '{field}': " if field else ""


def game_names(content: Content, helps: HelpCards | None = None, *, strict: bool = False
               ) -> dict[str, dict[str, dict[str, str]]]:
    """Every faction's and rite's name in English and Spanish: ``{"factions": {id:
    {"en", "es"}}, "rites": {...}}``, from the ``[names]`` of the help cards (the
    package's by default). One not named there keeps its English name in both.

    >>> game_names(default_content())["factions"]["grave-tide"]["es"]
    'Marea Sepulcral'

    ``strict``: raise :class:`ContentError` for a name of a faction or rite the content
    lacks, or an English name that differs from the content's (the file, section and
    entry said); otherwise such a name is left out (a user's content folder may have
    other factions than the package's names).
    """
    names = (helps or load_help_cards()).names
    english = {"factions": {f.id: f.name for f in content.factions},
               "rites": {r.id: r.id for r in content.rites}}
    out: dict[str, dict[str, dict[str, str]]] = {}
    for section, given in (("factions", names.factions), ("rites", names.rites)):
        known = english[section]
        for key, text in given.items():
            where = f"{HELP_CARDS_FILE}: names.{section}.{key}"
            if key not in known:
                problem = (f"{where}: the content has no such {section[:-1]}"
                           f"{did_you_mean(key, tuple(known))} (it has {', '.join(known)})")
            elif text.en != known[key]:
                problem = (f"{where}: the English name {text.en!r} differs from the "
                           f"content's {known[key]!r}")
            else:
                continue
            if strict:
                raise ContentError(problem)
        out[section] = {key: ({"en": given[key].en, "es": given[key].es}
                              if key in given and given[key].en == name
                              else {"en": name, "es": name}) for key, name in known.items()}
    return out
