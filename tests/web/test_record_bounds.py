"""A record upload's bounds (web/schemas.py, ``POST /api/records``: "all far above what a
real game needs"): each list of a record takes its bound and refuses one more, naming
the field; through the API, a record with a turn too many is a 400 before any replay.
Issue 31, sample F: the bound on a record's turns dropped passed every test."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from reliquary.web.schemas import MAX_SETUP, MAX_TURN_DECISIONS, MAX_TURNS, Record

from .test_trust import client, make_client, record_of  # noqa: F401 (fixtures)


def _with(field: str, size: int) -> dict[str, Any]:
    record = record_of()
    if field == "turns":
        record["turns"] = [["pass"]] * size
    elif field == "a turn":
        record["turns"] = [["pass"] * size]
    elif field == "setup":
        record["setup"] = ["x"] * size
    elif field == "meta":
        record["meta"] = {f"k{i}": i for i in range(size)}
    else:
        record["settings"] = {f"s{i}": i for i in range(size)}
    return record


@pytest.mark.parametrize(("field", "bound", "loc"), [
    ("turns", MAX_TURNS, ("turns",)),
    ("a turn", MAX_TURN_DECISIONS, ("turns", 0)),
    ("setup", MAX_SETUP, ("setup",)),
    ("meta", 64, ("meta",)),
    ("settings", 16, ("settings",)),
])
def test_each_list_of_a_record_takes_its_bound_and_refuses_one_more(
        field: str, bound: int, loc: tuple[Any, ...]) -> None:
    assert Record.model_validate(_with(field, bound))
    with pytest.raises(ValidationError) as err:
        Record.model_validate(_with(field, bound + 1))
    assert [e["loc"] for e in err.value.errors()] == [loc]
    assert err.value.errors()[0]["type"] == "too_long"


def test_a_record_with_a_turn_too_many_is_refused_before_its_replay(
        client: TestClient) -> None:  # noqa: F811
    response = client.post("/api/records", json=_with("turns", MAX_TURNS + 1))
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert "turns" in response.json()["error"]
