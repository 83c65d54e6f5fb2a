"""VAR1 (RULES.md §11) counted exactly: each REGROUP adds one to its player's count,
a limit of N allows the Nth and refuses the (N+1)th, no limit never runs out, and one
Minion in the pool is enough (issue 31: a fault that set the count to 1 instead of
adding 1 passed, as the old test stopped at a limit of 1)."""

from __future__ import annotations

import pytest

from reliquary.engine import KEY, SKULL

from .scenario import act
from .scenario import sorted_options as options


def _regroups_offered(state) -> bool:
    return any(o.endswith(":regroup") for o in options(state))


@pytest.mark.parametrize(("limit", "done"), [(2, 1), (3, 2), (None, 4)])
def test_a_regroup_counts_one_more_and_the_limit_allows_the_last(build, limit, done) -> None:
    state = (build(regroup_limit=limit).hero(KEY, "d4").hero(SKULL, "h8").pools(key=1)
             .set(regroups=[done, 3]).build())
    assert state.can_regroup(KEY) and _regroups_offered(state)
    act(state, "Pilgrim:regroup", "a1")
    assert state.regroups == [done + 1, 3] and state.pool[KEY] == 0


@pytest.mark.parametrize(("limit", "done", "offered"), [
    (2, 2, False), (3, 3, False), (3, 2, True), (None, 9, True), (0, 0, False)])
def test_the_limit_counts_each_player_s_own_regroups(build, limit, done, offered) -> None:
    state = (build(regroup_limit=limit).hero(KEY, "d4").hero(SKULL, "h8").pools(key=2)
             .set(regroups=[done, 0]).build())
    assert state.can_regroup(KEY) is offered
    assert _regroups_offered(state) is offered
