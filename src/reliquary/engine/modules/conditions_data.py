"""The data of M-COND (MODULES.md §4.4), validated: ``src/reliquary/data/conditions.toml``.

Pydantic models, kept apart from the rules in :mod:`.conditions` so that those compile
with mypyc (which cannot compile a class with a metaclass). Errors name the file, the
entry and the field (:func:`reliquary.module_data.load_module_data`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..hooks import BAN_NAMES, BASE_CONDITIONS, PREVENT_DAMAGE, PREVENT_PUSH
from .words import Words

NAME = "conditions"
DATA_FILE = "conditions.toml"

Duration = Literal["round", "owner_turn", "until_owner_turn_start", "upkeep", "permanent"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UpkeepData(_Data):
    damage: Literal["value"] | int
    preventable: bool
    then: Literal["remove", "decrement", "keep"]


class OnAttackData(_Data):
    first_hit_damage: Literal["value"] | int
    consume: bool = True


class ConditionData(_Data):
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    valued: bool = False
    duration: Duration = "round"
    upkeep: UpkeepData | None = None
    grants: tuple[Literal["end_step"], ...] = ()
    cancels: str | None = None
    bans: tuple[str, ...] = ()
    prevents: tuple[Literal["damage", "push", "pull"], ...] = ()
    immune: tuple[Literal["hero", "minion"], ...] = ()
    on_attack: OnAttackData | None = None
    reduce: Literal["value"] | int | None = None
    core: bool = False
    name: Words
    text: Words
    ends: Words

    @model_validator(mode="after")
    def _consistent(self) -> ConditionData:
        for ban in self.bans:
            if ban not in BAN_NAMES:
                raise ValueError(f"condition {self.id!r}: field 'bans': unknown ban {ban!r}; "
                                 f"known: {', '.join(BAN_NAMES)}")
        uses_value = "value" in (getattr(self.upkeep, "damage", None), self.reduce,
                                 getattr(self.on_attack, "first_hit_damage", None))
        if uses_value and not self.valued:
            raise ValueError(f"condition {self.id!r}: field 'valued': it uses its value, "
                             f"so it must be valued = true")
        if (self.duration == "upkeep") != (self.upkeep is not None):
            raise ValueError(f"condition {self.id!r}: field 'upkeep': a condition has an "
                             f"upkeep table exactly when its duration is 'upkeep'")
        return self


class RiderData(_Data):
    card: str
    line: Literal["hero", "minion", "both", "any"]
    condition: str
    value: int = Field(0, ge=0, le=9)
    shape: Literal["target", "pulse"] = "target"
    faces: tuple[int, ...] = ()
    to: Literal["target", "attacker"] = "target"


class GainData(_Data):
    condition: str
    value: int = Field(0, ge=0, le=9)


class LowerData(_Data):
    condition: str
    by: int = Field(ge=1, le=9)
    reach: int = Field(ge=0, le=3)
    whose: Literal["own"]  # M-COND-D2


class ActionData(_Data):
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    gain: GainData | None = None
    lower: LowerData | None = None
    name: Words
    text: Words

    @model_validator(mode="after")
    def _one_effect(self) -> ActionData:
        if (self.gain is None) == (self.lower is None):
            raise ValueError(f"action {self.id!r}: give exactly one of 'gain' and 'lower'")
        return self


class RuleData(_Data):
    """One rule of MODULES.md §4.2 in a line, for the faces (rules list, rulebook)."""

    id: str = Field(pattern=r"^M-COND-(D?[0-9]+)$")
    en: str = Field(min_length=1)
    es: str = Field(min_length=1)


class ConditionsData(_Data):
    condition: tuple[ConditionData, ...]
    rider: tuple[RiderData, ...] = ()
    action: tuple[ActionData, ...] = ()
    rule: tuple[RuleData, ...] = ()

    @model_validator(mode="after")
    def _cross_checks(self) -> ConditionsData:
        by_id: dict[str, ConditionData] = {}
        for c in self.condition:
            if c.id in by_id:
                raise ValueError(f"condition {c.id!r}: field 'id': defined twice")
            by_id[c.id] = c
        for c in self.condition:
            if c.core:
                _check_core(c)
            if c.cancels is not None:
                other = by_id.get(c.cancels)
                if other is None:
                    raise ValueError(f"condition {c.id!r}: field 'cancels': unknown condition "
                                     f"{c.cancels!r}")
                if other.cancels != c.id:
                    raise ValueError(f"condition {c.id!r}: field 'cancels': {c.cancels!r} must "
                                     f"cancel {c.id!r} too (cancelling is symmetric)")

        def named(where: str, name: str) -> ConditionData:
            cond = by_id.get(name)
            if cond is None:
                raise ValueError(f"{where}: field 'condition': unknown condition {name!r}; "
                                 f"known: {', '.join(by_id)}")
            if cond.core:
                raise ValueError(f"{where}: field 'condition': {name!r} is a core condition "
                                 f"(its cards give it)")
            return cond

        for i, r in enumerate(self.rider):
            where = f"rider {i + 1} ({r.card})"
            cond = named(where, r.condition)
            _check_value(where, cond, r.value)
            if r.to == "attacker" and r.shape == "pulse":
                raise ValueError(f"{where}: field 'shape': a rider on the attacker has no "
                                 f"pulse")
        ids: set[str] = set()
        for a in self.action:
            if a.id in ids:
                raise ValueError(f"action {a.id!r}: field 'id': defined twice")
            ids.add(a.id)
            where = f"action {a.id!r}"
            if a.gain is not None:
                _check_value(where, named(where, a.gain.condition), a.gain.value)
            elif a.lower is not None and not named(where, a.lower.condition).valued:
                raise ValueError(f"{where}: field 'lower': only a valued condition can be "
                                 f"lowered")
        return self


def _check_value(where: str, cond: ConditionData, value: int) -> None:
    if cond.valued and value < 1:
        raise ValueError(f"{where}: field 'value': {cond.id!r} is valued: give a value of "
                         f"1 or more")
    if not cond.valued and value:
        raise ValueError(f"{where}: field 'value': {cond.id!r} has no value")


def bans_of(c: ConditionData) -> int:
    """The ban bits (``hooks.NO_MOVE``...) of a condition's ``bans`` and ``prevents``."""
    bans = 0
    for ban in c.bans:
        bans |= BAN_NAMES[ban]
    for what in c.prevents:
        bans |= PREVENT_DAMAGE if what == "damage" else PREVENT_PUSH
    return bans


_CORE_DURATION = {"owner_turn_end": "owner_turn", "owner_turn_start": "until_owner_turn_start"}


def _check_core(c: ConditionData) -> None:
    """A core entry must say what the engine's K-Veil or K-Aegis does (M-COND-9)."""
    base = BASE_CONDITIONS.get(c.id)
    if base is None:
        raise ValueError(f"condition {c.id!r}: field 'core': the core conditions are "
                         f"{', '.join(BASE_CONDITIONS)}")
    if bans_of(c) != base.bans or _CORE_DURATION.get(base.ends) != c.duration:
        raise ValueError(f"condition {c.id!r}: fields 'bans', 'prevents', 'duration': they "
                         f"must match the engine's {c.id!r} (M-COND-9)")


def load_conditions_data() -> ConditionsData:
    """The module's data: the package's ``conditions.toml``, validated."""
    from ...module_data import load_module_data

    path = Path(str(resources.files("reliquary.data").joinpath(DATA_FILE)))
    return load_module_data(path, NAME, ConditionsData)
