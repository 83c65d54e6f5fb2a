"""Every bound of the API's request bodies at its edge and one past it, their defaults,
and strictness (docs/web.md: every string and list has a length bound, unknown fields
and loose types are refused with a 400 naming the field)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from reliquary.web.schemas import (
    MAX_NAME,
    MAX_SETUP,
    MAX_TOKEN,
    MAX_TURN_DECISIONS,
    MAX_TURNS,
    Claim,
    Clock,
    Decide,
    NewGame,
    Record,
    Rematch,
    Resign,
    Undo,
)


def accepts(model: type[BaseModel], **fields: Any) -> BaseModel:
    return model.model_validate(fields)


def refuses(model: type[BaseModel], field: str, **fields: Any) -> None:
    with pytest.raises(ValidationError) as error:
        model.model_validate(fields)
    assert any(field in ".".join(str(p) for p in e["loc"]) for e in error.value.errors()), \
        error.value


def test_the_documented_bounds() -> None:
    assert (MAX_TOKEN, MAX_NAME, MAX_SETUP, MAX_TURNS, MAX_TURN_DECISIONS) == (
        64, 40, 200, 4000, 200)


@pytest.mark.parametrize(("field", "low", "high"), [
    ("size", 1, 64), ("round_cap", 1, 2000), ("regroup_limit", 0, 1000),
    ("vigil_start", 0, 100)])
def test_a_new_game_s_numbers_at_their_bounds(field: str, low: int, high: int) -> None:
    for good in (low, high):
        assert getattr(accepts(NewGame, **{field: good}), field) == good
    for bad in (low - 1, high + 1):
        refuses(NewGame, field, **{field: bad})
    refuses(NewGame, field, **{field: float(low)})  # strict: a whole number


@pytest.mark.parametrize(("initial", "ok"), [(10.0, True), (9.99, False), (10800.0, True),
                                             (10800.5, False)])
def test_a_clock_has_10_s_to_3_h(initial: float, ok: bool) -> None:
    if ok:
        clock = accepts(Clock, initial_s=initial)
        assert clock.initial_s == initial and clock.increment_s == 0  # type: ignore[attr-defined]
    else:
        refuses(Clock, "initial_s", initial_s=initial)


@pytest.mark.parametrize(("increment", "ok"), [(0.0, True), (-0.01, False), (60.0, True),
                                               (60.01, False)])
def test_a_clock_adds_0_to_60_s(increment: float, ok: bool) -> None:
    if ok:
        assert accepts(Clock, initial_s=60.0, increment_s=increment).increment_s == increment  # type: ignore[attr-defined]
    else:
        refuses(Clock, "increment_s", initial_s=60.0, increment_s=increment)


def test_a_new_game_s_defaults_and_the_settings_it_passes_on() -> None:
    game = NewGame.model_validate({})
    assert (game.mode, game.level, game.seat, game.quick, game.faction, game.public,
            game.clock, game.modules, game.module_options, game.ruleset) == (
        "ai", None, "key", True, None, False, None, [], {}, None)
    assert game.settings() == {"size": 8, "los": "geometric", "first_turn": "no_damage",
                               "round_cap": 200}
    chosen = NewGame.model_validate({"regroup_limit": 3, "vigil_start": 5,
                                     "modules": ["glory"],
                                     "module_options": {"glory.points": 4}})
    assert chosen.settings() == {"size": 8, "los": "geometric", "first_turn": "no_damage",
                                 "round_cap": 200, "regroup_limit": 3, "vigil_start": 5,
                                 "modules": ["glory"], "glory.points": 4}
    # a field given as null is passed on as given: the engine's default
    assert NewGame.model_validate({"vigil_reset": None}).settings()["vigil_reset"] is None


def test_a_new_game_s_lists_and_names_at_their_bounds() -> None:
    accepts(NewGame, modules=["m"] * 8)
    refuses(NewGame, "modules", modules=["m"] * 9)
    accepts(NewGame, module_options={f"m.o{i}": 1 for i in range(32)})
    refuses(NewGame, "module_options", module_options={f"m.o{i}": 1 for i in range(33)})
    for field in ("level", "faction", "los", "first_turn", "ruleset"):
        accepts(NewGame, **{field: "x" * MAX_NAME})
        refuses(NewGame, field, **{field: "x" * (MAX_NAME + 1)})


@pytest.mark.parametrize("value", ["false", 0, 1, None])
def test_a_new_game_s_flags_are_strict(value: Any) -> None:
    refuses(NewGame, "quick", quick=value)
    refuses(NewGame, "public", public=value)


@pytest.mark.parametrize(("model", "fields"), [
    (Decide, {"token": "t", "rev": "1", "option": "c4"}), (Undo, {"rev": "1"}),
    (Resign, {"token": "t", "rev": "1"}), (Claim, {"invite": "i"}), (Rematch, {"token": "t"})])
def test_every_token_is_at_most_64_characters_and_nothing_else_is_taken(
        model: type[BaseModel], fields: dict[str, str]) -> None:
    accepts(model, **fields)
    for name in fields:
        accepts(model, **{**fields, name: "x" * MAX_TOKEN})
        refuses(model, name, **{**fields, name: "x" * (MAX_TOKEN + 1)})
        refuses(model, name, **{**fields, name: 7})  # strict: a string
    refuses(model, "extra", **fields, extra="x")


def test_undo_s_token_is_optional_a_decision_s_must_be_given() -> None:
    assert accepts(Undo, rev="1").token is None  # type: ignore[attr-defined]
    refuses(Decide, "token", rev="1", option="c4")
    assert accepts(Decide, token=None, rev="1", option="c4").token is None  # type: ignore[attr-defined]


def record(**fields: Any) -> dict[str, Any]:
    return {"format": "reliquary-record", "version": 1, "content": {"fingerprint": "f"},
            "settings": {}, "setup": [], "turns": [], **fields}


def test_a_record_s_every_bound() -> None:
    Record.model_validate(record(settings={f"s{i}": 1 for i in range(16)},
                                 meta={f"m{i}": 1 for i in range(64)},
                                 setup=["x" * MAX_TOKEN] * MAX_SETUP,
                                 turns=[["t"] * MAX_TURN_DECISIONS] * 2,
                                 content={"fingerprint": "f" * 200, "provisional": True}))
    for fields, where in (
            ({"settings": {f"s{i}": 1 for i in range(17)}}, "settings"),
            ({"meta": {f"m{i}": 1 for i in range(65)}}, "meta"),
            ({"setup": ["x"] * (MAX_SETUP + 1)}, "setup"),
            ({"setup": ["x" * (MAX_TOKEN + 1)]}, "setup"),
            ({"turns": [["t"] * (MAX_TURN_DECISIONS + 1)]}, "turns"),
            ({"turns": [["t"]] * (MAX_TURNS + 1)}, "turns"),
            ({"content": {"fingerprint": "f" * 201}}, "fingerprint"),
            ({"format": "x" * (MAX_NAME + 1)}, "format"),
            ({"version": "1"}, "version")):
        with pytest.raises(ValidationError) as error:
            Record.model_validate(record(**fields))
        assert any(where in [str(p) for p in e["loc"]] for e in error.value.errors())
    Record.model_validate(record(turns=[["t"]] * MAX_TURNS))
    # a record may carry fields of a later format
    assert Record.model_validate(record(comment="later")).model_extra == {"comment": "later"}
