"""The worked example of docs/modules.md: a rule module with no edit to the engine.

Smoulder: a Hero's strike sets the target smouldering; at the end of the round each
smouldering piece takes damage (not a hit: nothing prevents or reduces it) and stops
smouldering. One option, ``smoulder.damage``, changes the damage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from reliquary.engine.content import Content
from reliquary.engine.effects import EFFECTS
from reliquary.engine.hooks import ConditionDef, Hooks
from reliquary.engine.modules import Module, OptionSpec, register
from reliquary.engine.state import Piece, State
from reliquary.engine.types import Settings
from reliquary.module_data import load_module_data


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConditionData(_Data):
    name: str
    damage: int = Field(ge=1, le=3)
    help: str


class RiderData(_Data):
    by: Literal["hero", "minion", "any"]
    effect: str

    @field_validator("effect")
    @classmethod
    def _registered(cls, name: str) -> str:
        if name not in EFFECTS:
            raise ValueError(f"unknown attack effect {name!r}; registered: {', '.join(EFFECTS)}")
        return name


class SmoulderData(_Data):
    condition: ConditionData
    rider: RiderData


DATA = load_module_data(Path(__file__).with_name("smoulder.toml"), "smoulder", SmoulderData)


class SmoulderHooks(Hooks):
    def __init__(self, data: SmoulderData, damage: int) -> None:
        self.data = data
        self.damage = damage
        self.cond = ConditionDef(data.condition.name, help=data.condition.help)

    def conditions(self) -> list[ConditionDef]:
        return [self.cond]

    def after_hit(self, s: State, attacker: Piece, target: Piece, card: str) -> None:
        rider = self.data.rider
        if target.id not in s.pieces or s.line_for(card, attacker).effect != rider.effect:
            return
        if rider.by == "any" or (rider.by == "hero") == attacker.hero:
            s.add_condition(target, self.cond.name, self.damage)

    def round_end(self, s: State) -> None:
        for piece in sorted(s.pieces.values(), key=lambda p: p.sq):
            if s.result is None and piece.id in s.pieces and piece.has(self.cond.name):
                damage = piece.value(self.cond.name)
                s.remove_condition(piece, self.cond.name)
                s.deal_damage(piece, damage, preventable=False)


    def game_stats(self, s: State, events: list[Any]) -> dict[str, float]:
        started = [e for e in events if e.kind == "condition"
                   and e.data.get("condition") == self.cond.name]
        return {"smouldered": float(len(started))}


def _hooks(content: Content, settings: Settings) -> Hooks:
    return SmoulderHooks(DATA, settings.option("smoulder.damage"))


MODULE = register(Module(
    name="smoulder", title="Smoulder", rules="EX-1",
    summary="a Hero's strike sets the target smouldering: damage at the round's end",
    hooks=_hooks, data=DATA,
    options={"damage": OptionSpec(DATA.condition.damage, lo=1, hi=3,
                                  help="damage a smouldering piece takes at the round's end")},
    events={"condition": "a piece starts smouldering", "condition_end": "it stops"},
))
