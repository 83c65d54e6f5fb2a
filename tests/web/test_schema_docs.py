"""The API page's descriptions of the request fields (web/schemas.py: "FastAPI documents
them in OpenAPI"; the page at ``/docs`` is how a client learns the API). Every field
that is described stays described, the clock's descriptions state the bounds the schema
enforces, and the fields whose values come from ``GET /api/meta`` say so. Issue 31: a
description dropped from the schema (the API page's text only) passed every test."""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel

from reliquary.web.schemas import Clock, Decide, Error, NewGame, Resign

DESCRIBED: dict[type[BaseModel], set[str]] = {
    Clock: {"initial_s", "increment_s"},
    NewGame: {"level", "quick", "faction", "public", "modules", "module_options", "ruleset"},
    Decide: {"token", "rev", "option"},
    Resign: {"token", "rev"},
    Error: {"rev"},
}


@pytest.mark.parametrize("model", list(DESCRIBED))
def test_the_described_fields_stay_described(model: type[BaseModel]) -> None:
    properties = model.model_json_schema()["properties"]
    described = {name for name, field in properties.items()
                 if field.get("description", "").strip()}
    assert described == DESCRIBED[model]


def test_the_clock_s_descriptions_state_the_bounds_it_enforces() -> None:
    properties = Clock.model_json_schema()["properties"]
    initial, increment = properties["initial_s"], properties["increment_s"]
    assert (initial["minimum"], initial["maximum"]) == (10, 3 * 3600)
    assert re.search(r"\b10 s to 3 h\b", initial["description"])
    assert (increment["minimum"], increment["maximum"], increment["default"]) == (0, 60, 0)
    assert re.search(r"\b0 to 60 s\b", increment["description"])


def test_fields_whose_values_meta_lists_point_to_it() -> None:
    properties = NewGame.model_json_schema()["properties"]
    for name in ("modules", "module_options", "ruleset"):
        assert "GET /api/meta" in properties[name]["description"], name
    assert "AI" in properties["level"]["description"]
    assert "lobby" in properties["public"]["description"]
    assert "stale" in Error.model_json_schema()["properties"]["rev"]["description"]
