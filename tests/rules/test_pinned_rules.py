"""Rule behaviours a generated fault showed unpinned (issue 31): the round cap's result
names the rounds played (D19)."""

from __future__ import annotations

from typing import Any

import pytest

from reliquary.engine import KEY, SKULL

from .scenario import act


@pytest.mark.parametrize("cap", [1, 3])
def test_the_round_cap_s_result_says_how_many_rounds_were_played(build: Any, cap: int) -> None:
    state = build(round_cap=cap).hero(KEY, "d4").hero(SKULL, "d6").set(rounds=cap - 1).build()
    act(state, "Pilgrim:attack", "d4", "d6")
    act(state, "Vault:attack", "d6", "d4")
    assert state.result is not None and state.result.reason == "round_cap"
    assert state.result.detail == f"no result after {cap} rounds (D19)"
