"""Loading game content from TOML files: the package's own, or a user's folder.

>>> content = load_content()
>>> len(content.cards), len(content.factions), len(content.rites)
(18, 9, 3)
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .engine.content import Content, ContentError

CONTENT_FILES = ("cards.toml", "factions.toml", "rites.toml", "board.toml")
HELP_CARDS_FILE = "help_cards.toml"


def load_content(folder: str | Path | None = None) -> Content:
    """Load and validate content; ``None`` gives the content shipped in the package.

    A user's folder holds the same four files (``cards.toml``, ``factions.toml``,
    ``rites.toml``, ``board.toml``); a file missing there is taken from the package.
    Errors name the file, the entry and the field.
    """
    if folder is None:
        return default_content()
    folder = Path(folder)
    if not folder.is_dir():
        raise ContentError(f"{folder}: not a folder of content files")
    sources: dict[str, dict[str, Any]] = {}
    for name in CONTENT_FILES:
        path = folder / name
        if path.exists():
            sources[str(path)] = _parse(str(path), path.read_text(encoding="utf-8"))
        else:
            sources[name] = _packaged(name)
    return Content.from_data(sources)


@cache
def default_content() -> Content:
    """The content shipped with the package (loaded once)."""
    return Content.from_data({name: _packaged(name) for name in CONTENT_FILES})


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


class HelpCard(BaseModel):
    """A shared table card that is not a rite: a help card or the rite selection card."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    title: TableText
    mode: TableText | None = None
    lines: tuple[TableText, ...] = Field(min_length=1)
    figure: Literal["none", "board_table", "vigil_track"] = "none"
    after_rites: bool = False


class HelpCards(BaseModel):
    """The help cards and the labels printed on cards and sheets (``help_cards.toml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    content: Literal["help_cards"]
    labels: dict[str, TableText]
    card: tuple[HelpCard, ...] = Field(min_length=1)

    def label(self, key: str, lang: str, **fields: object) -> str:
        """A label in a language, with ``{field}`` placeholders filled in."""
        try:
            text = self.labels[key].get(lang)
        except KeyError:
            raise ContentError(f"{HELP_CARDS_FILE}: label '{key}' is missing") from None
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
        problems = []
        for e in err.errors():
            where = ".".join(str(p) for p in e["loc"]) or "(file)"
            problems.append(f"{name}: field '{where}': {e['msg']}")
        raise ContentError("\n".join(problems)) from None
