"""Game content as validated data: cards, factions, rites and the board table.

Content is plain data (normally the TOML files in ``reliquary/data``) checked by
pydantic models, so a bad entry fails with the entry and field that are wrong.
The engine never reads files itself: :func:`reliquary.content.load_content`
does that and hands a :class:`Content` to the engine.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from .effects import EFFECTS, PASSIVES, RITES

Seal = Literal["key", "skull"]


class ContentError(ValueError):
    """A content file or entry is malformed; the message names file, entry and field."""


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(_Data):
    """A rules text in English and Spanish."""

    en: str
    es: str = ""


class ChanceRow(_Data):
    """One row of a chance table: the die faces it covers and what they do."""

    faces: tuple[int, ...]
    damage: int = Field(0, ge=0)
    self_damage: int = Field(0, ge=0)
    steps: int = Field(0, ge=0)
    up_to: bool = False


class AttackLine(_Data):
    """One line of an attack («Héroe:», «Esbirro:» or «Cualquiera:»)."""

    effect: str
    damage: int = Field(0, ge=0)
    push: int = Field(0, ge=0)
    pull: int = Field(0, ge=0)
    range: int = Field(1, ge=1)
    los: bool = False
    strict_los: bool = False
    targets: int = Field(1, ge=1, le=2)
    after_step: bool = False
    kill_step: bool = False
    swap_minion_range: int = Field(0, ge=0)
    table: tuple[ChanceRow, ...] = ()

    @field_validator("effect")
    @classmethod
    def _registered(cls, name: str) -> str:
        return _registered_name(name, EFFECTS, "attack effect")

    @model_validator(mode="after")
    def _check(self) -> AttackLine:
        if self.push and self.pull:
            raise ValueError("a line cannot both push and pull")
        if EFFECTS[self.effect].table:
            faces = sorted(f for row in self.table for f in row.faces)
            if faces != [1, 2, 3, 4, 5, 6]:
                raise ValueError("a chance table must cover the faces 1 to 6 exactly once")
        elif self.table:
            raise ValueError(f"effect {self.effect!r} takes no chance table")
        return self

    @property
    def adjacent(self) -> bool:
        """An adjacent strike: the attacker may lunge first (D8)."""
        return EFFECTS[self.effect].lunges and self.range == 1

    @property
    def needs_target(self) -> bool:
        return EFFECTS[self.effect].targeted


class Attack(_Data):
    """A unique card's attack: Hero and Minion lines, or one line for any piece."""

    text: Text
    hero: AttackLine | None = None
    minion: AttackLine | None = None
    any: AttackLine | None = None

    @model_validator(mode="after")
    def _check(self) -> Attack:
        if self.any is not None and (self.hero or self.minion):
            raise ValueError("an attack has either an 'any' line or 'hero'/'minion' lines")
        if self.any is None and (self.hero is None or self.minion is None):
            raise ValueError("an attack needs an 'any' line or both 'hero' and 'minion' lines")
        return self


class Card(_Data):
    """A movement card (C3): diagram, Escort mark, seal and attack."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$")
    seal: Seal
    escort: bool = False
    diagram: tuple[tuple[int, int], ...] = Field(min_length=1)
    attack: Literal["faction"] | Attack
    provisional: bool = False

    @model_validator(mode="after")
    def _check(self) -> Card:
        for x, y in self.diagram:
            if max(abs(x), abs(y)) > 2 or (x, y) == (0, 0):
                raise ValueError(f"diagram offset ({x}, {y}) is outside the 5×5 grid or null")
        if len(set(self.diagram)) != len(self.diagram):
            raise ValueError("diagram offsets repeat")
        return self

    @property
    def generic(self) -> bool:
        return self.attack == "faction"


class Faction(_Data):
    """A faction card (§8): attack lines, Hero HP and passive."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    hero_hp: int = Field(4, ge=1)
    passive: str = "none"
    text: Text
    hero: AttackLine
    minion: AttackLine

    @field_validator("passive")
    @classmethod
    def _registered(cls, name: str) -> str:
        return _registered_name(name, PASSIVES, "passive")


class Rite(_Data):
    """A rite card (§9)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$")
    effect: str
    text: Text

    @field_validator("effect")
    @classmethod
    def _registered(cls, name: str) -> str:
        return _registered_name(name, RITES, "rite effect")


class BoardRow(_Data):
    """One row of the board table C1."""

    sides: tuple[int, int]
    minions: int = Field(ge=1)
    ruins: int = Field(ge=0)
    deploy_rows: int = Field(ge=1)

    @model_validator(mode="after")
    def _check(self) -> BoardRow:
        if self.ruins % 2:
            raise ValueError("ruins come in mirrored pairs: the total must be even")
        if self.sides[0] > self.sides[1]:
            raise ValueError("sides must be [smallest, largest]")
        return self


class Content(_Data):
    """Everything the rules read from data. Build it with :meth:`from_data`."""

    cards: tuple[Card, ...]
    factions: tuple[Faction, ...]
    rites: tuple[Rite, ...]
    board: tuple[BoardRow, ...]
    hand_size: int = 3

    @model_validator(mode="after")
    def _check(self) -> Content:
        for kind, ids in (
            ("card", [c.id for c in self.cards]),
            ("faction", [f.id for f in self.factions]),
            ("rite", [r.id for r in self.rites]),
        ):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"{kind} ids repeat: {', '.join(dupes)}")
        if len(self.cards) < 2 * self.hand_size + 1:
            raise ValueError(f"the deck needs at least {2 * self.hand_size + 1} cards")
        if len(self.factions) < 2:
            raise ValueError("at least two factions are needed")
        if len(self.rites) < 2:
            raise ValueError("at least two rites are needed (D5)")
        return self

    # -- lookups ---------------------------------------------------------------
    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def faction(self, faction_id: str) -> Faction:
        for faction in self.factions:
            if faction.id == faction_id:
                return faction
        raise KeyError(faction_id)

    def rite(self, rite_id: str) -> Rite:
        for rite in self.rites:
            if rite.id == rite_id:
                return rite
        raise KeyError(rite_id)

    def board_row(self, size: int) -> BoardRow:
        for row in self.board:
            if row.sides[0] <= size <= row.sides[1]:
                return row
        raise KeyError(size)

    @cached_property
    def sizes(self) -> tuple[int, ...]:
        """The board sides of the board table (worked out once: every new game checks)."""
        return tuple(s for row in self.board for s in range(row.sides[0], row.sides[1] + 1))

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of the rules content: records name it (different content, no replay).

        Worked out once (every position and record names it; the content is frozen)."""
        canon = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canon.encode()).hexdigest()[:16]

    @classmethod
    def from_data(cls, sources: Mapping[str, Mapping[str, Any]]) -> Content:
        """Validate parsed content files, keyed by file name.

        ``sources`` maps a file name to its parsed table; the tables' ``content``
        key says which part they hold (``cards``, ``factions``, ``rites``,
        ``board``). Errors name the file, the entry and the field.
        """
        parts: dict[str, tuple[str, list[Any]]] = {}
        list_key = {"cards": "card", "factions": "faction", "rites": "rite", "board": "row"}
        for filename, table in sources.items():
            kind = table.get("content")
            if kind not in list_key:
                raise ContentError(
                    f"{filename}: 'content' must be one of {sorted(list_key)}, got {kind!r}"
                )
            if kind in parts:
                raise ContentError(f"{filename}: a second '{kind}' file ({parts[kind][0]})")
            entries = table.get(list_key[kind], [])
            if not isinstance(entries, list):
                raise ContentError(f"{filename}: '{list_key[kind]}' must be a list of tables")
            parts[kind] = (filename, entries)
        missing = sorted(set(list_key) - set(parts))
        if missing:
            raise ContentError(f"content files missing for: {', '.join(missing)}")
        models: dict[str, type[_Data]] = {
            "cards": Card, "factions": Faction, "rites": Rite, "board": BoardRow,
        }
        validated: dict[str, tuple[Any, ...]] = {}
        for kind, (filename, entries) in parts.items():
            items = []
            for index, entry in enumerate(entries):
                label = entry.get("id", f"#{index + 1}") if isinstance(entry, dict) else index
                try:
                    items.append(models[kind].model_validate(entry))
                except ValidationError as err:
                    raise ContentError(_describe(filename, list_key[kind], label, err)) from None
            validated[kind] = tuple(items)
        try:
            return cls(**validated)
        except ValidationError as err:
            raise ContentError(f"content: {err.errors()[0]['msg']}") from None


def _registered_name(name: str, registry: Mapping[str, object], what: str) -> str:
    """``name`` if the registry has it; else an error naming the registered ones."""
    if name not in registry:
        close = difflib.get_close_matches(name, list(registry), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown {what} {name!r}{hint}; registered: {', '.join(registry)}")
    return name


def _describe(filename: str, entry_kind: str, label: object, err: ValidationError) -> str:
    lines = []
    for e in err.errors():
        field = ".".join(str(p) for p in e["loc"]) or "(entry)"
        lines.append(f"{filename}: {entry_kind} {label}: field '{field}': {e['msg']}")
    return "\n".join(lines)
