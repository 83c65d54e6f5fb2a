"""M-KEEP's relic-points threshold is a board win (MODULES.md §6.9: "a third board win"),
in the lab's board-win rate and in ``lab compare``'s ``decisiveness``; Vigil and Glory
points endings are not."""

from __future__ import annotations

import pytest

from reliquary.lab import metrics as M
from reliquary.lab.compare import PER_GAME

from .tables import game, table


def test_the_relic_points_threshold_counts_as_a_board_win() -> None:
    reasons = ["hero_killed", "relic_home", "relic_points", "vigil", "points", "round_cap"]
    rows = [game(reason=r, winner=None if r == "round_cap" else "key") for r in reasons]
    assert M.decisiveness(table(rows))["board_wins"]["value"] == pytest.approx(3 / 6)
    assert [PER_GAME["decisiveness"](r) for r in rows] == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
