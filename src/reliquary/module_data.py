"""Reading a rule module's data file (the engine reads no files: modules load their
TOML here, once, when they register).

A module's data is one TOML file whose ``content`` key names the module, validated by
the module's pydantic model; an error names the file, the entry and the field.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .engine.content import ContentError

M = TypeVar("M", bound=BaseModel)


def load_module_data(path: str | Path, name: str, model: type[M]) -> M:
    """The data of module ``name`` in the TOML file at ``path``, checked by ``model``."""
    path = Path(path)
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ContentError(f"{path}: cannot read the module's data ({err.strerror})") from None
    except tomllib.TOMLDecodeError as err:
        raise ContentError(f"{path}: not valid TOML ({err})") from None
    if table.get("content") != name:
        raise ContentError(f"{path}: 'content' must be {name!r}, got {table.get('content')!r}")
    data = {k: v for k, v in table.items() if k != "content"}
    try:
        return model.model_validate(data)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            loc = e["loc"]
            where = ".".join(str(p) for p in loc) or "(file)"
            entry = ""
            if len(loc) >= 2 and isinstance(loc[1], int):
                items = data.get(str(loc[0]))
                if isinstance(items, list) and loc[1] < len(items) and isinstance(
                        items[loc[1]], dict):
                    # an entry's label: its id, else its name, if a plain string
                    label = next((items[loc[1]][k] for k in ("id", "name", "card")
                                  if isinstance(items[loc[1]].get(k), str)), None)
                    entry = f" {loc[0]} {label!r}:" if label is not None else \
                        f" {loc[0]} {loc[1] + 1}:"
            problems.append(f"{path}:{entry} field '{where}': {e['msg']}")
        raise ContentError("\n".join(problems)) from None
