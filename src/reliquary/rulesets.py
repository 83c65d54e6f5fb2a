"""Named rulesets: rule settings plus an optional content patch, kept as TOML files.

A ruleset file (``src/reliquary/data/rulesets/NAME.toml``, or any file a command names
by its path) holds a one-line description, the settings that differ from the default
rules and a *patch*: a small overlay of the content's numbers. The designer adds a
ruleset by adding a file; no code changes.

.. code-block:: toml

    description = "Killed Minions leave the game; Lantern Bearers' Hero has 3 HP."

    [settings]                      # any rule setting (`reliquary rules`)
    killed_minions = "removed"

    [patch.factions.lantern-bearers]
    hero_hp = 3                     # a faction's Hero HP
    [patch.factions.storm-sworn.hero]
    damage = 2                      # a faction attack line's number
    [patch.cards.Vault.attack.hero]
    range = 2                       # a unique card's attack line
    [patch.rites.Harrow]
    effect = "exhumation"           # a rite takes another rite's effect (and its text)
    [patch.board.8]
    minions = 6                     # the board table's row for side 8

The patch is checked field by field (an unknown section, entry or field, a value of
the wrong type or out of range), then the patched content is validated as any content
is; every error names the file and the field (``tournament.toml:
patch.factions.lantern-bearers.hero_hp: must be from 1 to 12 (got 0)``). A patched
content has its own fingerprint, so records and lab runs tell it apart.

>>> load_ruleset("classic").settings
{}
>>> sorted(ruleset_names())[:1]
['classic']
"""

from __future__ import annotations

import copy
import json
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .content import CONTENT_FILES, build_content, default_content, load_content
from .content_errors import did_you_mean
from .engine import Content, ContentError, Settings
from .engine.types import SETTINGS_HELP

#: The ruleset every face uses unless told otherwise: the designer's own rules.
DEFAULT_RULESET = "classic"
#: Where a record or a lab run names its ruleset (``record["meta"]["ruleset"]``).
META_KEY = "ruleset"

#: What a patch's field may hold: a whole number in a range, true/false, or one of the
#: rite effects the content's rites have (``str``: checked against the content).
Rule = tuple[int, int] | type[bool] | type[str]

#: A patch's changes: (the field's path as text, its path, the new value).
Leaves = list[tuple[str, tuple[str, ...], Any]]

#: The numbers a patch may change, with their allowed ranges (bool: true/false).
LINE_FIELDS: dict[str, Rule] = {
    "damage": (0, 6), "push": (0, 4), "pull": (0, 99), "range": (1, 12),
    "targets": (1, 2), "swap_minion_range": (0, 12), "los": bool, "strict_los": bool,
    "after_step": bool, "kill_step": bool,
}
FACTION_FIELDS: dict[str, Rule] = {"hero_hp": (1, 12)}
CARD_FIELDS: dict[str, Rule] = {"escort": bool}
BOARD_FIELDS: dict[str, Rule] = {
    "minions": (1, 20), "ruins": (0, 40), "deploy_rows": (1, 4)}
#: A rite has no numbers; a patch may give it another rite's effect (and so its text):
#: ``[patch.rites.Harrow] effect = "exhumation"``.
RITE_FIELDS: dict[str, Rule] = {"effect": str}
#: A faction's attack lines, and a unique card's.
FACTION_LINES = ("hero", "minion")
CARD_LINES = ("hero", "minion", "any")
#: The patch's sections: content file and the key of its list.
SECTIONS = {"factions": ("factions.toml", "faction"), "cards": ("cards.toml", "card"),
            "rites": ("rites.toml", "rite"), "board": ("board.toml", "row")}
#: Each section's own fields and attack lines.
TOP_FIELDS = {"factions": FACTION_FIELDS, "cards": CARD_FIELDS, "rites": RITE_FIELDS,
              "board": BOARD_FIELDS}
SECTION_LINES = {"factions": FACTION_LINES, "cards": CARD_LINES, "rites": (), "board": ()}


class RulesetError(ContentError):
    """A bad ruleset file: each line names the file, the field and what was wrong."""


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset: settings that differ from the defaults, and a content patch."""

    name: str
    description: str
    settings: dict[str, Any]
    patch: dict[str, Any] = field(default_factory=dict)
    file: str = ""

    def game_settings(self, **overrides: Any) -> Settings:
        """The ruleset's settings, with ``overrides`` (a command's explicit options) on top."""
        return Settings.from_dict({**self.settings, **overrides})

    def content(self, folder: str | Path | None = None) -> Content:
        """The content this ruleset plays with: the package's (or ``folder``'s) with the
        patch applied."""
        if folder is None:
            return _patched_default(json.dumps(self.patch, sort_keys=True),
                                    Path(self.file).name)
        return patched_content(self.patch, self.file, folder)

    @property
    def is_classic(self) -> bool:
        return not self.settings and not self.patch


def rulesets_folder() -> Path:
    """The package's folder of rulesets."""
    return Path(str(resources.files("reliquary.data").joinpath("rulesets")))


def ruleset_names() -> list[str]:
    """The names of the packaged rulesets, ``classic`` first."""
    names = sorted(p.stem for p in rulesets_folder().glob("*.toml"))
    return sorted(names, key=lambda n: n != DEFAULT_RULESET)


def load_ruleset(name: str | Path | None = None) -> Ruleset:
    """A ruleset by name (a packaged one) or by the path of a ``.toml`` file; ``None``
    gives ``classic``. Raises :class:`RulesetError` naming the file and the field."""
    if name is None:
        name = DEFAULT_RULESET
    text_name = str(name)
    if text_name.endswith(".toml") or "/" in text_name:
        path = Path(text_name)
    else:
        path = rulesets_folder() / f"{text_name}.toml"
        if not path.exists():
            known = ruleset_names()
            raise RulesetError(f"unknown ruleset {text_name!r}{did_you_mean(text_name, known)}"
                               f"; known: {', '.join(known)} (or the path of a .toml file)")
    file = str(path.resolve()) if path.exists() else str(path)
    stamp = path.stat().st_mtime_ns if path.exists() else 0
    return _load(file, path.stem, stamp)


@cache
def _load(file: str, stem: str, stamp: int = 0) -> Ruleset:
    """A ruleset file read and checked (cached by path and modification time)."""
    path = Path(file)
    shown = path.name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise RulesetError(f"{shown}: cannot read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(f"{shown}: not valid TOML: {err}") from None
    problems: list[str] = []
    allowed = ("name", "description", "settings", "patch")
    for key in raw:
        if key not in allowed:
            problems.append(f"{shown}: {key}: unknown key{did_you_mean(key, allowed)}; "
                            f"allowed: {', '.join(allowed)}")
    name = raw.get("name", stem)
    description = raw.get("description", "")
    if not isinstance(name, str) or not name:
        problems.append(f"{shown}: name: must be text")
    if not isinstance(description, str):
        problems.append(f"{shown}: description: must be one line of text")
        description = ""
    elif "\n" in description.strip():
        problems.append(f"{shown}: description: must be one line")
    settings = raw.get("settings", {})
    if not isinstance(settings, dict):
        problems.append(f"{shown}: settings: must be a table of rule settings")
        settings = {}
    for key, value in settings.items():
        if "." not in key and key != "modules" and key not in SETTINGS_HELP:
            problems.append(f"{shown}: settings.{key}: unknown setting"
                            f"{did_you_mean(key, list(SETTINGS_HELP))}; allowed: "
                            f"{', '.join(SETTINGS_HELP)}")
            continue
        try:
            Settings.from_dict({**{k: v for k, v in settings.items()
                                   if k == "modules" or "." not in k}, key: value})
        except (ValueError, TypeError) as err:
            problems.append(f"{shown}: settings.{key}: {err}")
    patch = raw.get("patch", {})
    if not isinstance(patch, dict):
        problems.append(f"{shown}: patch: must be a table ([patch.factions.ID] …)")
        patch = {}
    if not problems:
        try:
            Settings.from_dict(settings)
        except (ValueError, TypeError) as err:
            problems.append(f"{shown}: settings: {err}")
    if patch:
        try:
            patched_content(patch, shown)    # every problem of the patch, now
        except RulesetError as err:
            problems.append(str(err))
    if problems:
        raise RulesetError("\n".join(problems))
    return Ruleset(name=str(name), description=description.strip(), settings=dict(settings),
                   patch=patch, file=file)


@cache
def _patched_default(patch: str, shown: str) -> Content:
    """The package's content patched (cached by the patch's text: one per ruleset)."""
    data = json.loads(patch)
    content = patched_content(data, shown) if data else default_content()
    _PATCHES.setdefault(content.fingerprint, data)
    return content


#: The patch of every patched package content built in this process, by fingerprint.
_PATCHES: dict[str, dict[str, Any]] = {}


def patch_of(content: Content) -> dict[str, Any] | None:
    """The patch that made ``content`` from the package's content, if this process built
    it (:meth:`Ruleset.content`); None for any other content."""
    return _PATCHES.get(content.fingerprint)


def stored_content(name: str, patch: dict[str, Any]) -> Content:
    """The content of ruleset ``name`` as a game kept it: the package's content with the
    patch the ruleset had when the game began, whatever its file says now (cached)."""
    return Ruleset(name=name, description="", settings={}, patch=patch,
                   file=f"{name}.toml").content()


def _sources(folder: str | Path | None) -> dict[str, dict[str, Any]]:
    """The raw content tables, keyed by file name (the package's, or a folder's)."""
    from .content import _packaged, _parse

    out: dict[str, dict[str, Any]] = {}
    for name in CONTENT_FILES:
        path = Path(folder) / name if folder is not None else None
        if path is not None and path.exists():
            out[name] = _parse(str(path), path.read_text(encoding="utf-8"))
        else:
            out[name] = _packaged(name)
    return out


def _entry(table: dict[str, Any], section: str, list_key: str, ident: str
           ) -> dict[str, Any] | None:
    for entry in table.get(list_key, []):
        if section == "board":
            low, high = entry.get("sides", (0, -1))
            if ident.isdigit() and low <= int(ident) <= high:
                return dict(entry)
        elif entry.get("id") == ident:
            return dict(entry)
    return None


def _check_value(where: str, value: Any, rule: Rule, effects: tuple[str, ...] = ()
                 ) -> str | None:
    if rule is bool:
        return (None if isinstance(value, bool)
                else f"{where}: must be true or false (got {value!r})")
    if rule is str:
        if value in effects:
            return None
        return (f"{where}: must be the effect of one of the content's rites"
                f"{did_you_mean(str(value), effects)}; allowed: {', '.join(effects)} "
                f"(got {value!r})")
    assert isinstance(rule, tuple)
    low, high = rule
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{where}: must be a whole number from {low} to {high} (got {value!r})"
    if not low <= value <= high:
        return f"{where}: must be from {low} to {high} (got {value})"
    return None


def _rite_effects(base: dict[str, dict[str, Any]]) -> tuple[str, ...]:
    """The effects the content's rites have: those a patched rite may take (with the
    text of the rite that has it)."""
    return tuple(sorted({str(r.get("effect")) for r in base["rites.toml"].get("rite", [])}))


def patch_leaves(patch: dict[str, Any], file: str, base: dict[str, dict[str, Any]]
                 ) -> tuple[Leaves, list[str]]:
    """The patch's changes as (field path text, path, value), and its problems."""
    leaves: Leaves = []
    problems: list[str] = []
    for section, entries in patch.items():
        where = f"{file}: patch.{section}"
        if section not in SECTIONS:
            problems.append(f"{where}: unknown section{did_you_mean(section, list(SECTIONS))}"
                            f"; allowed: {', '.join(SECTIONS)}")
            continue
        filename, list_key = SECTIONS[section]
        if not isinstance(entries, dict):
            problems.append(f"{where}: must be a table of entries")
            continue
        ids = [str(e.get("id", e.get("sides"))) for e in base[filename].get(list_key, [])]
        for ident, fields_ in entries.items():
            at = f"{where}.{ident}"
            entry = _entry(base[filename], section, list_key, str(ident))
            if entry is None:
                problems.append(f"{at}: no such {list_key} in {filename}"
                                f"{did_you_mean(ident, ids)}; the {section} are {', '.join(ids)}")
                continue
            if not isinstance(fields_, dict):
                problems.append(f"{at}: must be a table of fields")
                continue
            problems += _walk(section, at, (section, str(ident)), fields_, entry, leaves,
                              _rite_effects(base))
    return leaves, problems


def _walk(section: str, at: str, path: tuple[str, ...], fields_: dict[str, Any],
          entry: dict[str, Any], leaves: Leaves, effects: tuple[str, ...] = ()) -> list[str]:
    """An entry's fields: its attack lines (a table of numbers each) and its own fields."""
    problems: list[str] = []
    lines = SECTION_LINES[section]
    own: dict[str, Any] = {}
    for key, value in fields_.items():
        where = f"{at}.{key}"
        if section == "cards" and key == "attack":
            if entry.get("attack") == "faction" or not isinstance(value, dict):
                problems.append(f"{where}: this card attacks with the faction's attack; "
                                "patch the faction's lines instead")
                continue
            for line, numbers in value.items():
                problems += _line(f"{where}.{line}", (*path, "attack", line), line, numbers,
                                  entry["attack"], CARD_LINES, leaves)
        elif key in lines:
            problems += _line(where, (*path, key), key, value, entry, lines, leaves)
        else:
            own[key] = value
    also = [*lines] + (["attack"] if section == "cards" else [])
    return problems + _check_fields(at, path, own, TOP_FIELDS[section], leaves, also, effects)


def _check_fields(at: str, path: tuple[str, ...], fields_: dict[str, Any],
                  allowed: dict[str, Rule], leaves: Leaves, also: list[str] | None = None,
                  effects: tuple[str, ...] = ()) -> list[str]:
    """Check each field against ``allowed`` (an entry's own fields, or a line's numbers);
    the good ones join ``leaves``. ``also``: other names the place takes, for the
    message."""
    names = [*allowed, *(also or [])]
    problems = []
    for key, value in fields_.items():
        where = f"{at}.{key}"
        if key not in allowed:
            problems.append(f"{where}: unknown field{did_you_mean(key, names)}; a patch "
                            f"may change: {', '.join(names)}")
            continue
        problem = _check_value(where, value, allowed[key], effects)
        if problem:
            problems.append(problem)
        else:
            leaves.append((where.split(": ", 1)[1], (*path, key), value))
    return problems


def _line(where: str, path: tuple[str, ...], line: str, numbers: Any, owner: dict[str, Any],
          allowed_lines: tuple[str, ...], leaves: Leaves) -> list[str]:
    if line not in allowed_lines:
        return [f"{where}: unknown attack line{did_you_mean(line, allowed_lines)}; "
                f"allowed: {', '.join(allowed_lines)}"]
    if not isinstance(owner.get(line), dict):
        return [f"{where}: this entry has no {line!r} line"]
    if not isinstance(numbers, dict):
        return [f"{where}: must be a table of the line's numbers"]
    return _check_fields(where, path, numbers, LINE_FIELDS, leaves)


def _apply(sources: dict[str, dict[str, Any]], leaves: Leaves) -> dict[str, dict[str, Any]]:
    out = copy.deepcopy(sources)
    for _, path, value in leaves:
        section, ident, *keys = path
        filename, list_key = SECTIONS[section]
        for entry in out[filename].get(list_key, []):
            hit = (entry.get("id") == ident if section != "board"
                   else entry["sides"][0] <= int(ident) <= entry["sides"][1])
            if not hit:
                continue
            target = entry
            for key in keys[:-1]:
                target = target[key]
            target[keys[-1]] = value
            if section == "factions":
                entry.pop("text", None)      # made again from the new numbers
            elif section == "cards" and keys[0] == "attack":
                entry["attack"].pop("text", None)
            elif section == "rites":         # the card reads as the rite whose effect it is
                entry["text"] = next(r["text"] for r in sources[filename][list_key]
                                     if r.get("effect") == value)
    return out


def patched_content(patch: dict[str, Any], file: str, folder: str | Path | None = None
                    ) -> Content:
    """The content (the package's or ``folder``'s) with ``patch`` applied and validated.

    Every field is checked on its own first, so that an error names the patch's field;
    then the whole patched content is validated as any content is."""
    base = _sources(folder)
    leaves, problems = patch_leaves(patch, file, base)
    for where, path, value in leaves:
        try:
            build_content(_apply(base, [(where, path, value)]))
        except ContentError as err:
            problems.append(f"{file}: {where}: {value!r} breaks the content: "
                            + "; ".join(str(err).splitlines()))
    if problems:
        raise RulesetError("\n".join(problems))
    try:
        return build_content(_apply(base, leaves))
    except ContentError as err:
        raise RulesetError(f"{file}: patch: the patched content does not validate: "
                           + "; ".join(str(err).splitlines())) from None


def merge_patch(patch: dict[str, Any], dotted: dict[str, Any]) -> dict[str, Any]:
    """``patch`` with dotted changes on top: ``{"patch.factions.grave-tide.hero_hp": 3}``
    (the ``patch.`` prefix optional), as ``lab tune`` names the numbers it tries."""
    out = copy.deepcopy(patch)
    for key, value in dotted.items():
        parts = key.removeprefix("patch.").split(".")
        target = out
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
    return out


def patched_ids(ruleset: Ruleset) -> dict[str, list[str]]:
    """The entries a ruleset's patch changes: ``{"factions": [...], "cards": [...],
    "board": [...]}`` (a card or faction whose printed text changes)."""
    return {section: sorted(map(str, entries)) for section, entries in ruleset.patch.items()}


def differences(ruleset: Ruleset) -> list[str]:
    """What a ruleset changes from classic, one line each: settings, then the content's
    numbers (``Lantern Bearers: hero_hp 4 → 3``)."""
    lines: list[str] = []
    defaults = Settings().as_dict()
    for key, value in sorted(ruleset.game_settings().as_dict().items()):
        if defaults.get(key) != value:
            help_text = SETTINGS_HELP.get(key, "")
            lines.append(f"setting {key}: {defaults.get(key)!r} → {value!r}"
                         + (f"  ({help_text})" if help_text else ""))
    base = _sources(None)
    leaves, _ = patch_leaves(ruleset.patch, Path(ruleset.file).name, base)
    for where, path, value in leaves:
        section, ident, *keys = path
        filename, list_key = SECTIONS[section]
        entry = _entry(base[filename], section, list_key, ident)
        old: Any = entry
        for key in keys:
            old = old.get(key) if isinstance(old, dict) else None
        label = where.removeprefix("patch.")
        lines.append(f"content {label}: {_default_of(old, keys[-1])!r} → {value!r}")
    return lines


def _default_of(value: Any, key: str) -> Any:
    """A line's number as the engine reads it when the file leaves it out."""
    if value is not None:
        return value
    defaults = {"range": 1, "targets": 1, "hero_hp": 4}
    return defaults.get(key, False if LINE_FIELDS.get(key) is bool else 0)


def ruleset_of_record(record: dict[str, Any]) -> str:
    """The ruleset a record was played under (``classic`` for records that name none)."""
    meta = record.get("meta") if isinstance(record, dict) else None
    name = meta.get(META_KEY) if isinstance(meta, dict) else None
    return str(name) if name else DEFAULT_RULESET


def check_record(record: dict[str, Any], ruleset: Ruleset) -> None:
    """Refuse a record played under another ruleset than ``ruleset`` (ValueError)."""
    played = ruleset_of_record(record)
    if played != ruleset.name:
        raise ValueError(f"the record was played under the ruleset {played!r}, not "
                         f"{ruleset.name!r}: it is refused (replay it with --ruleset {played})")


def content_for(ruleset: str | Path | None, folder: str | Path | None = None) -> Content:
    """The content of a ruleset (by name or path) on the package's or ``folder``'s content."""
    if ruleset is None and folder is not None:
        return load_content(folder)
    return load_ruleset(ruleset).content(folder)


__all__ = ["DEFAULT_RULESET", "META_KEY", "Ruleset", "RulesetError", "check_record",
           "content_for", "differences", "load_ruleset", "merge_patch", "patch_of",
           "patched_content", "patched_ids", "ruleset_names", "ruleset_of_record",
           "rulesets_folder", "stored_content"]
