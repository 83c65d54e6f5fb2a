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
from typing import Any

from .engine.content import Content, ContentError

CONTENT_FILES = ("cards.toml", "factions.toml", "rites.toml", "board.toml")


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
