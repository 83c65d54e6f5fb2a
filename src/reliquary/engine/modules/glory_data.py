"""The data of M-GLORY (MODULES.md §5.4), validated: ``src/reliquary/data/glory.toml``.

The objectives are predicates the engine implements (``kind``), with their parameters;
each timing accepts only the kinds it can check. Errors name the file, the entry and the
field (:func:`reliquary.module_data.load_module_data`).
"""

from __future__ import annotations

from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .words import Words

#: The predicates each timing can check (§5.4): an End phase looks at the board and the
#: phase's counts, a surge at the turn just taken.
END_PHASE_KINDS = ("hold_markers", "hero_unharmed", "more_minions", "carry_enemy_relic",
                   "kills")
SURGE_KINDS = ("kills", "crushes", "hero_damaged", "displaced", "pickup_enemy_relic",
               "end_turn_in_back_row")
#: Condition primitives the engine implements for upgrades (§5.4).
GRANTS = ("end_step",)
IGNORES = ("reduce",)


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TableRow(_Data):
    sides: tuple[int, int]
    phase_rounds: int = Field(ge=1, le=20)
    markers: int = Field(ge=0, le=9)

    @model_validator(mode="after")
    def _range(self) -> TableRow:
        if self.sides[0] > self.sides[1]:
            raise ValueError(f"sides {list(self.sides)} must be [low, high]")
        return self


class Objective(_Data):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$")
    name: Words
    timing: Literal["end_phase", "surge"]
    kind: Literal["hold_markers", "hero_unharmed", "more_minions", "carry_enemy_relic",
                  "kills", "crushes", "hero_damaged", "displaced", "pickup_enemy_relic",
                  "end_turn_in_back_row"]
    count: int = Field(default=1, ge=1, le=9)
    where: Literal["anywhere", "enemy_half"] = "anywhere"
    span: Literal["phase", "turn"] = "turn"
    first_of_game: bool = False
    whose: Literal["enemy"] = "enemy"
    glory: int = Field(ge=1, le=5)
    en: str = Field(min_length=1)
    es: str = Field(min_length=1)

    @model_validator(mode="after")
    def _fits_timing(self) -> Objective:
        kinds = END_PHASE_KINDS if self.timing == "end_phase" else SURGE_KINDS
        if self.kind not in kinds:
            raise ValueError(f"objective {self.id!r}: kind {self.kind!r} cannot be checked "
                             f"at timing {self.timing!r} (it takes {', '.join(kinds)})")
        if self.timing == "end_phase" and self.kind == "kills" and self.span != "phase":
            raise ValueError(f"objective {self.id!r}: End-phase kills need span = 'phase'")
        if self.timing == "end_phase" and self.kind == "hero_unharmed" and self.span != "phase":
            raise ValueError(f"objective {self.id!r}: hero_unharmed needs span = 'phase'")
        if self.timing == "surge" and self.span != "turn":
            raise ValueError(f"objective {self.id!r}: a surge is about the turn just taken, "
                             f"so span must be 'turn'")
        if self.first_of_game and self.kind != "kills":
            raise ValueError(f"objective {self.id!r}: first_of_game is for kills only")
        if self.where != "anywhere" and self.kind != "hold_markers":
            raise ValueError(f"objective {self.id!r}: where is for hold_markers only")
        return self


class Upgrade(_Data):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$")
    name: Words
    cost: int = Field(ge=0, le=9)
    condition: str
    en: str = Field(min_length=1)
    es: str = Field(min_length=1)


class UpgradeCondition(_Data):
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    duration: Literal["permanent"]
    hit_damage_bonus: int = Field(default=0, ge=0, le=3)
    reduce_first_each_round: int = Field(default=0, ge=0, le=3)
    grants: tuple[Literal["end_step"], ...] = ()
    ignores: tuple[Literal["reduce"], ...] = ()
    push_bonus: int = Field(default=0, ge=0, le=3)


class GloryData(_Data):
    hand: int = Field(ge=1, le=5)
    shrine_glory: int = Field(default=2, ge=0, le=5)
    table: tuple[TableRow, ...] = Field(min_length=1)
    objective: tuple[Objective, ...] = Field(min_length=1)
    upgrade: tuple[Upgrade, ...] = ()
    condition: tuple[UpgradeCondition, ...] = ()

    @model_validator(mode="after")
    def _references(self) -> GloryData:
        for what, items in (("objective", self.objective), ("upgrade", self.upgrade),
                            ("condition", self.condition)):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"{what} {item.id!r} is defined twice")
                seen.add(item.id)
        conditions = {c.id for c in self.condition}
        for up in self.upgrade:
            if up.condition not in conditions:
                raise ValueError(f"upgrade {up.id!r}: unknown condition {up.condition!r}; "
                                 f"defined: {', '.join(sorted(conditions)) or 'none'}")
        sides: set[int] = set()
        for row in self.table:
            span = set(range(row.sides[0], row.sides[1] + 1))
            if span & sides:
                raise ValueError(f"table: sides {sorted(span & sides)} appear twice")
            sides |= span
        if len(self.objective) < 2 * self.hand:
            raise ValueError(f"{len(self.objective)} objectives cannot deal two hands of "
                             f"{self.hand}")
        return self

    def row(self, size: int) -> TableRow:
        for row in self.table:
            if row.sides[0] <= size <= row.sides[1]:
                return row
        raise ValueError(f"glory.toml has no table row for board side {size}")


def load_glory_data(path: str | None = None) -> GloryData:
    """The module's data: the package's ``glory.toml``, or the file at ``path``."""
    from ...module_data import load_module_data

    if path is None:
        with resources.as_file(resources.files("reliquary.data") / "glory.toml") as p:
            return load_module_data(p, "glory", GloryData)
    return load_module_data(path, "glory", GloryData)
