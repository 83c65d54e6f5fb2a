"""Same answers from both builds: seeded random games and AI searches, compared exactly.

A small count here (about a minute on a busy 2-core machine); the full run is
``benchmarks/differential.py --games 5000``. Cases cycle through every board side
(8–12) and rule option, variants included (``reliquary.differential.settings_for``).
"""

from __future__ import annotations

import json

from reliquary.differential import SEARCH_EVERY, compare_builds, settings_for

from .helpers import need_compiled

CASES = 250


def test_the_cases_cover_every_side_and_rule_option() -> None:
    seen: dict[str, set[object]] = {}
    for index in range(CASES):
        for name, value in settings_for(index).as_dict().items():
            seen.setdefault(name, set()).add(value)
    assert seen["size"] == {8, 9, 10, 11, 12}
    assert seen["los"] == {"geometric", "straight"}
    assert seen["first_turn"] == {"no_damage", "no_attack"}
    assert seen["regroup_limit"] == {None, 0, 1, 2}
    assert seen["vigil_reset"] == {"any", "hero"}
    assert seen["vigil_start"] == {1, 2, 3, 4, 5, 6}
    assert seen["killed_minions"] == {"pool", "removed"}
    assert CASES // SEARCH_EVERY >= 30  # searches: alpha-beta, greedy and MCTS in turn


def test_compiled_and_pure_builds_give_identical_records_and_choices() -> None:
    need_compiled()
    report = compare_builds(0, CASES)
    assert report.builds == {"default": "compiled (mypyc)", "pure": "pure Python"}
    assert report.cases == CASES and report.searches == CASES // SEARCH_EVERY
    assert not report.mismatches, json.dumps(report.mismatches[0], indent=1)[:5000]
