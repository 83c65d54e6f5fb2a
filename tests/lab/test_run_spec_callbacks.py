"""``run_spec``'s callbacks as its docstring gives them: ``on_start(to_play,
already_stored)`` once before the first game, ``on_row`` after each game; a resumed run
starts with nothing to play and everything stored. Issue 31, sample L: ``on_start``
never called (the CLI's "playing N games" line gone) passed every test of the runner.
Also ``_sign_runs`` of an empty trajectory (no evaluation recorded): no lead change, and
no decisive moment nor share behind (NaN, not a division by zero); sample L's
``if evals`` made always true passed (its callers skip empty trajectories)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from reliquary.lab.metrics import _sign_runs
from reliquary.lab.runner import run_spec
from reliquary.lab.spec import parse_spec

SPEC = """
seed = 5
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"]]
[settings]
round_cap = 6
[[agents]]
name = "random"
[[agents]]
name = "random"
label = "other"
"""


def test_on_start_once_before_the_games_and_on_row_after_each(tmp_path: Path) -> None:
    spec = parse_spec(SPEC, tmp_path / "cb.toml")
    events: list[Any] = []
    run_spec(spec, tmp_path / "run", workers=1,
             on_start=lambda to_play, stored: events.append(("start", to_play, stored)),
             on_row=lambda row: events.append(("row", row["game_id"])))
    assert events[0] == ("start", 2, 0)
    assert [e[0] for e in events] == ["start", "row", "row"]
    assert {e[1] for e in events[1:]} == {j.game_id for j in spec.jobs()}
    again: list[Any] = []
    run_spec(spec, tmp_path / "run", workers=1,
             on_start=lambda to_play, stored: again.append((to_play, stored)),
             on_row=lambda row: again.append(row))
    assert again == [(0, 2)]


def test_sign_runs_of_no_trajectory() -> None:
    changes, moment, behind = _sign_runs([])
    assert changes == 0 and math.isnan(moment) and math.isnan(behind)
    assert _sign_runs([30.0, -30.0, 0.0, 25.0]) == (2, 0.75, 0.25)
