"""Content errors in plain words, and the card texts the loader makes from the numbers.

The engine's models check every entry; this module turns what they find into lines a
designer reads: the file, the entry, the field and what was expected, with "did you
mean" for a misspelt name, and none of the validation library's own vocabulary.

>>> entry = {"id": "Bolt", "seal": "skul", "diagram": [[0, 1]], "attack": "faction"}
>>> print(*entry_problems("cards.toml", {"content": "cards", "card": [entry]}))
cards.toml: card Bolt: field 'seal': expected 'key' or 'skull', got 'skul' \
(did you mean 'skull'?)
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .cardtext import LANGS, ROLES, WordingFile, attack_text, check_numbers, faction_text
from .engine import AttackLine, Card, Faction, Rite
from .engine.content import BoardRow

#: Each content file's kind: its list's key and the model of one entry.
KINDS: dict[str, tuple[str, type[BaseModel]]] = {
    "cards": ("card", Card), "factions": ("faction", Faction), "rites": ("rite", Rite),
    "board": ("row", BoardRow),
}
_BRANCH = re.compile(r"^(literal\[|function-|tagged-union|union\[)|\[.*\]|\(.*\)")


def did_you_mean(word: object, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _expected(error: ErrorDetails) -> list[str]:
    expected = str((error.get("ctx") or {}).get("expected", ""))
    return re.findall(r"'([^']*)'", expected)


def _field_names(model: type[BaseModel] | None, path: list[str]) -> list[str]:
    """The fields a model allows at ``path`` (for "did you mean" on an unknown field)."""
    for part in path:
        if model is None:
            return []
        info = model.model_fields.get(part)
        annotation = info.annotation if info is not None else None
        model = next((arg for arg in (*getattr(annotation, "__args__", ()), annotation)
                      if isinstance(arg, type) and issubclass(arg, BaseModel)), None)
    return list(model.model_fields) if model is not None else []


def plain_errors(err: ValidationError, model: type[BaseModel] | None = None
                 ) -> list[tuple[str, str]]:
    """(field, what was expected) for each problem, without the library's internals.

    When a field may be one of several forms (a card's attack: ``"faction"`` or a
    table), only the problems of the form the data took are kept.
    """
    out: list[tuple[str, str]] = []
    for error in err.errors():
        loc = [str(p) for p in error["loc"]]
        branches = [p for p in loc if _BRANCH.search(p)]
        value = error["input"]
        if branches:
            literal = branches[0].startswith("literal[")
            if (literal and isinstance(value, dict)) or (not literal and isinstance(value, str)):
                continue  # the other form's complaint: not what the designer wrote
        path = [p for p in loc if not _BRANCH.search(p)]
        field = ".".join(path)
        kind = error["type"]
        if kind == "literal_error":
            options = _expected(error)
            what = (f"expected {error['ctx']['expected']}, got {value!r}"
                    + did_you_mean(value, options))
            if branches and isinstance(value, str):
                what = (f"expected 'faction' or a table of attack lines, got {value!r}"
                        + did_you_mean(value, options))
        elif kind == "missing":
            what = "is missing"
        elif kind == "extra_forbidden":
            allowed = _field_names(model, path[:-1])
            what = ("is not a field here" + did_you_mean(path[-1], allowed)
                    + (f"; allowed: {', '.join(allowed)}" if allowed else ""))
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            sign = {"greater_than_equal": "at least", "less_than_equal": "at most",
                    "greater_than": "more than", "less_than": "less than"}[kind]
            bound = next(iter((error.get("ctx") or {}).values()))
            what = f"expected a number {sign} {bound}, got {value!r}"
        elif kind in ("int_type", "int_parsing", "int_from_float"):
            what = f"expected a whole number, got {value!r}"
        elif kind in ("bool_type", "bool_parsing"):
            what = f"expected true or false, got {value!r}"
        elif kind == "string_type":
            what = f"expected a text, got {value!r}"
        elif kind == "string_pattern_mismatch":
            what = f"expected a name of letters, digits (and '-'), got {value!r}"
        elif kind == "string_too_short":
            what = "expected a text, got an empty one"
        elif kind in ("too_short", "too_long"):
            what = error["msg"].replace("List", "a list").replace("Tuple", "a list")
            what = f"expected {what.split('should have ', 1)[-1]}"
        elif kind in ("model_type", "dict_type", "model_attributes_type"):
            what = f"expected a table, got {value!r}"
        elif kind in ("list_type", "tuple_type"):
            what = f"expected a list, got {value!r}"
        elif kind == "value_error":
            what = str(error["msg"]).removeprefix("Value error, ")
        else:
            what = str(error["msg"])
        if (field, what) not in out:
            out.append((field, what))
    return out


def entry_problems(filename: str, table: dict[str, Any]) -> list[str]:
    """Every problem of every entry of one parsed content file, one line each."""
    kind = table.get("content")
    if kind not in KINDS:
        return [f"{filename}: 'content' must be one of {', '.join(sorted(KINDS))}, "
                f"got {kind!r}" + did_you_mean(kind, tuple(KINDS))]
    key, model = KINDS[kind]
    entries = table.get(key, [])
    if not isinstance(entries, list):
        return [f"{filename}: '{key}' must be a list of tables ([[{key}]])"]
    problems = []
    for index, entry in enumerate(entries):
        label = entry.get("id", f"#{index + 1}") if isinstance(entry, dict) else f"#{index + 1}"
        try:
            model.model_validate(entry)
        except ValidationError as err:
            for field, what in plain_errors(err, model):
                where = f"field '{field}': " if field else ""
                problems.append(f"{filename}: {key} {label}: {where}{what}")
    return problems


# -- texts from the numbers ---------------------------------------------------------------
def _lines(attack: dict[str, Any], roles: tuple[str, ...]) -> dict[str, AttackLine] | None:
    try:
        return {role: AttackLine.model_validate(attack[role]) for role in roles
                if role in attack}
    except (ValidationError, TypeError):
        return None  # entry_problems reports it


#: Stands for a text not made because its lines are wrong: their problems are reported,
#: not a missing text.
_UNMADE = {"en": "(made from the numbers)"}


def fill_texts(filename: str, table: dict[str, Any], wording: WordingFile) -> list[str]:
    """Give every unique card and faction its text made from its numbers (in place).

    A text the designer wrote is kept, but must name the same numbers as the data:
    otherwise the problem (file, entry, field) is returned.
    """
    kind = table.get("content")
    if kind not in ("cards", "factions") or not isinstance(table.get(KINDS[kind][0]), list):
        return []
    problems = []
    for entry in table[KINDS[kind][0]]:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("id", ""))
        if kind == "cards":
            holder, prefix = entry.get("attack"), "attack.text"
            if not isinstance(holder, dict):
                continue
            lines = _lines(holder, ROLES)
            if lines is None or not lines:
                holder.setdefault("text", _UNMADE)
                continue
            made = {lang: attack_text(wording, lang, lines, name).prose() for lang in LANGS}
        else:
            holder, prefix = entry, "text"
            name = str(entry.get("name", name))
            lines = _lines(entry, ("hero", "minion"))
            if lines is None or len(lines) < 2:
                holder.setdefault("text", _UNMADE)
                continue
            hp = entry.get("hero_hp", 4)
            passive = entry.get("passive", "none")
            made = {lang: faction_text(wording, lang, lines["hero"], lines["minion"],
                                       hp if isinstance(hp, int) else 4, str(passive),
                                       name).prose() for lang in LANGS}
        given = holder.get("text")
        if given is None:
            holder["text"] = made
            continue
        if not isinstance(given, dict):
            continue  # entry_problems says what a text must be
        for lang in LANGS:
            text = given.get(lang)
            if not text:
                given[lang] = made[lang]
            elif isinstance(text, str):
                problem = check_numbers(text, made[lang])
                if problem:
                    problems.append(f"{filename}: {KINDS[kind][0]} {entry.get('id')}: field "
                                    f"'{prefix}.{lang}': {problem}")
    return problems
