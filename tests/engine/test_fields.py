"""One field list (issue 22): every field of a State is declared once, and clone,
serialize, State.key and the environments' encoding each cover every position field.

A new field that is not declared fails ``test_every_state_field_is_declared``; a declared
position field without a perturbation here fails ``test_every_position_field_is_covered``,
which then checks that changing it changes the copy, the JSON form and the key.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import numpy as np
import pytest

from reliquary.engine import (
    Builder,
    Content,
    Result,
    Settings,
    State,
    position_from_dict,
    position_to_dict,
)
from reliquary.engine.hooks import AEGIS, Hooks, ModuleState
from reliquary.engine.modules import Module, register, unregister
from reliquary.engine.state import PIECE_FIELDS, POSITION_FIELDS, RULES_FIELDS, SCRATCH_FIELDS


class Count(ModuleState):
    """The smallest module state: one number."""

    def __init__(self, n: int = 0) -> None:
        self.n = n

    def copy(self) -> Count:
        return Count(self.n)

    def to_json(self) -> object:
        return self.n

    def load(self, data: object) -> None:
        if not isinstance(data, int):
            raise ValueError(f"expected a number, not {data!r}")
        self.n = data

    def key(self) -> object:
        return self.n


class CountHooks(Hooks):
    def new_state(self) -> ModuleState:
        return Count()


@pytest.fixture(scope="module", autouse=True)
def counter_module() -> object:
    module = register(Module(name="counter", title="Counter", rules="TEST",
                             summary="keeps one number", hooks=lambda c, s: CountHooks()))
    yield module
    unregister("counter")


def mid_game(content: Content, seed: int = 11, settings: Settings | None = None) -> State:
    """A position some turns into a random game, with pieces on the board."""
    while True:
        rng = random.Random(seed)
        state = State(content, settings)
        while state.result is None and sum(state.turns_taken) < 6:
            state.apply(rng.choice(state.legal_options()))
        if state.result is None and state.stack[-1][0] == "play":
            return state
        seed += 1


def _first_piece(s: State) -> object:
    return next(iter(s.pieces.values()))


#: How to change each position field so that the game is another one.
PERTURB: dict[str, Callable[[State], None]] = {
    "board": lambda s: _add_ruin(s),
    "ruins": lambda s: _add_ruin(s),  # the board's Ruin squares as bits: kept in step
    "pieces": lambda s: setattr(_first_piece(s), "hp", _first_piece(s).hp + 1),  # type: ignore[attr-defined]
    "next_id": lambda s: setattr(s, "next_id", s.next_id + 5),
    "factions": lambda s: s.factions.__setitem__(0, "bone-wardens"
                                                 if s.factions[0] != "bone-wardens"
                                                 else "pyre-choir"),
    "secret_faction": lambda s: s.secret_faction.__setitem__(1, "pyre-choir"),
    "hands": lambda s: s.hands.__setitem__(0, s.hands[0][:-1]),
    "waiting": lambda s: setattr(s, "waiting", s.hands[1][0]),
    "dealt": lambda s: setattr(s, "dealt", s.dealt + 1),
    "first": lambda s: setattr(s, "first", 1 - s.first),
    "rites": lambda s: s.rites.__setitem__(0, None if s.rites[0] else "Harrow"),
    "rite_draft": lambda s: s.rite_draft.append("Harrow"),
    "relic_sq": lambda s: s.relic_sq.__setitem__(0, s.relic_sq[0] + 1),
    "relic_carrier": lambda s: s.relic_carrier.__setitem__(0, 99),
    "pool": lambda s: s.pool.__setitem__(1, s.pool[1] + 1),
    "regroups": lambda s: s.regroups.__setitem__(0, s.regroups[0] + 1),
    "spent": lambda s: s.spent.__setitem__(1, s.spent[1] ^ 2),
    "placed": lambda s: s.placed.__setitem__(0, s.placed[0] + 1),
    "vigil": lambda s: setattr(s, "vigil", s.vigil - 1),
    "eventful": lambda s: setattr(s, "eventful", not s.eventful),
    "rounds": lambda s: setattr(s, "rounds", s.rounds + 1),
    "turns_taken": lambda s: s.turns_taken.__setitem__(1, s.turns_taken[1] + 1),
    "current": lambda s: setattr(s, "current", 1 - s.current),
    "played": lambda s: setattr(s, "played", s.hands[0][0]),
    "result": lambda s: setattr(s, "result", Result(0, "resign")),
    "stack": lambda s: s.stack.insert(0, ("end_turn",)),
    "module_state": lambda s: setattr(s.module_state["counter"], "n", 7),
}
def _add_ruin(s: State) -> None:
    sq = s.board.index(-1)
    s.board[sq] = -2
    s.ruins |= 1 << sq


#: The position fields the key leaves out, and why.
NOT_IN_KEY = {"next_id": "it only numbers pieces still to come"}


def test_every_state_field_is_declared(content: Content) -> None:
    state = mid_game(content)
    attrs = getattr(type(state), "__mypyc_attrs__", None)
    names = set(attrs) if attrs is not None else set(vars(state))
    names -= {"__dict__", "__weakref__"}
    declared = set(POSITION_FIELDS) | set(RULES_FIELDS) | set(SCRATCH_FIELDS)
    assert names == declared, (f"undeclared: {sorted(names - declared)}; "
                               f"declared but absent: {sorted(declared - names)}")
    piece_type = type(_first_piece(state))
    piece_attrs = getattr(piece_type, "__mypyc_attrs__", None) or piece_type.__slots__
    assert set(piece_attrs) == set(PIECE_FIELDS)


@pytest.mark.parametrize("field", POSITION_FIELDS)
def test_every_position_field_is_covered(content: Content, field: str) -> None:
    assert field in PERTURB, f"add a perturbation for the new position field {field!r}"
    settings = Settings(modules=("counter",)) if field == "module_state" else None
    base = mid_game(content, settings=settings)
    before = position_to_dict(base)
    changed = base.clone()
    PERTURB[field](changed)
    after = position_to_dict(changed)
    # the clone was independent (the original is untouched) and serialize writes the change
    assert position_to_dict(base) == before
    assert after != before, f"serialize leaves out {field!r}"
    # clone copies it
    assert position_to_dict(changed.clone()) == after, f"clone leaves out {field!r}"
    # the key tells the two apart
    if field not in NOT_IN_KEY:
        assert changed.key() != base.key(), f"State.key() leaves out {field!r}"
    # and the JSON form reads back to the same position (fields the reader checks aside)
    if field not in ("relic_carrier", "result", "stack", "pieces", "board", "hands",
                     "factions", "rites"):
        again = position_from_dict(json.loads(json.dumps(after)), content)
        assert position_to_dict(again) == after


def test_piece_conditions_are_in_clone_serialize_and_key(content: Content) -> None:
    state = mid_game(content)
    piece = _first_piece(state)
    before = state.key()
    piece.set_condition(AEGIS, True)  # type: ignore[attr-defined]
    assert state.key() != before
    assert position_to_dict(state.clone()) == position_to_dict(state)
    assert state.clone().pieces[piece.id].aegis  # type: ignore[attr-defined]


def test_the_observation_changes_with_the_fields_it_encodes(content: Content) -> None:
    from reliquary.env.encoding import Observer

    base = mid_game(content, settings=Settings(regroup_limit=2))  # regroups count here
    observer = Observer(content, base.settings.size)
    seen = observer.encode(base, 0)
    for field in ("pieces", "vigil", "pool", "regroups", "spent", "hands", "rounds"):
        changed = base.clone()
        PERTURB[field](changed)
        assert not np.array_equal(observer.encode(changed, 0), seen), field


def test_key_tells_regroups_apart_under_var1(content: Content) -> None:
    """The bug of issue 22: under regroup_limit, two positions with different REGROUP
    options had one key (ai/hashing.position_key left out State.regroups)."""
    def position(regroups: int) -> State:
        state = Builder(content, 8, factions=("pyre-choir", "pyre-choir"), regroup_limit=1) \
            .hero(0, "d3").hero(1, "e6").minion(1, "c6").relic(0, "c3").relic(1, "f6") \
            .pools(key=1).build()
        state.regroups[0] = regroups
        return state

    free, spent = position(0), position(1)
    regroup = [o for o in free.legal_options() if getattr(o, "mode", "") == "regroup"]
    assert regroup and not [o for o in spent.legal_options()
                            if getattr(o, "mode", "") == "regroup"]
    assert free.key() != spent.key()
    from reliquary.ai import position_key

    assert position_key(free) != position_key(spent)
