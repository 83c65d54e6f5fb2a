"""The data of M-KEEP (MODULES.md §6.4), validated: ``src/reliquary/data/keepers.toml``.

Pydantic models (and the ``keepers.target`` option's own check), kept apart from the
rules in :mod:`.keepers` so that those compile with mypyc (which cannot compile a class
with a metaclass, nor one built on an interpreted class). Errors name the file and the
field (:func:`reliquary.module_data.load_module_data`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import OptionSpec
from .words import Words


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RelicType(_Data):
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    values: tuple[int, ...] = Field(min_length=1)
    name: Words

    @field_validator("values")
    @classmethod
    def _positive(cls, values: tuple[int, ...]) -> tuple[int, ...]:
        if any(v < 1 for v in values):
            raise ValueError(f"token values must be 1 or more, not {list(values)}")
        return values


class DevoutData(_Data):
    id: Literal["devout"]
    duration: Literal["while_carrying_token"]
    reduce_first_each_round: int = Field(ge=0, le=3)


class ActionData(_Data):
    id: Literal["delve", "encamp", "decamp"]
    text: Words


class KeepersData(_Data):
    set_bonus: int = Field(ge=0)
    prize: int = Field(ge=0)
    wayshrine_kill: int = Field(ge=0)
    target: Literal["ruins+1"] | int
    relic_type: tuple[RelicType, ...] = Field(min_length=1)
    condition: tuple[DevoutData, ...] = Field(min_length=1, max_length=1)
    #: The INTERACT actions in words (the hint's explanation).
    action: tuple[ActionData, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> KeepersData:
        ids = [t.id for t in self.relic_type]
        if len(set(ids)) != len(ids):
            raise ValueError(f"relic_type ids must differ: {ids}")
        if isinstance(self.target, int) and self.target != -1 and not (
                1 <= self.target <= self.most_points):
            raise ValueError(f"target {self.target} cannot be reached: it must be -1 or "
                             f"from 1 to {self.most_points} (every value plus the set "
                             f"bonuses)")
        return self

    @property
    def most_points(self) -> int:
        sets = min(len(t.values) for t in self.relic_type)
        return sum(sum(t.values) for t in self.relic_type) + sets * self.set_bonus

    @property
    def devout(self) -> DevoutData:
        return self.condition[0]

    def type_index(self, type_id: str) -> int:
        for i, t in enumerate(self.relic_type):
            if t.id == type_id:
                return i
        raise ValueError(f"unknown relic type {type_id!r}")


def load_keepers_data() -> KeepersData:
    """The module's data: the package's ``keepers.toml``, validated."""
    from ...module_data import load_module_data  # the engine's one file read, at import

    path = resources.files("reliquary.data").joinpath("keepers.toml")
    with resources.as_file(path) as real:
        return load_module_data(real, "keepers", KeepersData)


class TargetSpec(OptionSpec):
    """``keepers.target``: -1 (no threshold), 3 to 30, or ``ruins+1`` (the table's)."""

    def check(self, key: str, value: Any) -> Any:
        if value == "ruins+1":
            return value
        if isinstance(value, int) and not isinstance(value, bool) and (
                value == -1 or 3 <= value <= 30):
            return value
        raise ValueError(f"{key} must be -1 (no threshold), a whole number from 3 to 30 or "
                         f"'ruins+1', not {value!r}")

    def describe(self) -> str:
        return f"-1 (none), 3 to 30 or ruins+1 (default {self.default})"
