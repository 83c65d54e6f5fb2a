"""``benchmarks/sprt.py``: the versions it tests are real agent settings, its GSPRT
decides as the textbook formula says, and the committed history is what the committed
game files give."""

from __future__ import annotations

import json
import math
from types import ModuleType
from typing import Any

import pytest

from reliquary.ai.search import SearchAgent

from .scripts import load_script


@pytest.fixture(scope="module")
def sprt() -> ModuleType:
    return load_script("sprt")


def settings(agent: SearchAgent) -> dict[str, Any]:
    keys = ("weights", "repetition", "warm", "partial", "fill_clock", "killers")
    return {key: getattr(agent, key) for key in keys}


def test_every_version_builds_an_agent_and_the_newest_accepted_one_is_the_default(
        sprt: ModuleType) -> None:
    for name in sprt.VERSIONS:
        agent = SearchAgent(seed=1, nodes=100, **sprt.version_kwargs(name))
        assert sprt.describe(name)
        if name < "v8":  # every version before killers won its test plays without them
            assert not agent.killers, name
    assert settings(SearchAgent(**sprt.version_kwargs("v8-killers"))) == settings(SearchAgent())
    assert settings(SearchAgent(**sprt.version_kwargs("v4-warm"))) != settings(SearchAgent())
    with pytest.raises(SystemExit, match="unknown version 'v99'"):
        sprt.version_kwargs("v99")


def test_the_llr_is_the_gsprt_formula_and_crosses_where_it_says(sprt: ModuleType) -> None:
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    # 60 wins, 20 draws, 20 losses: mean 0.7, per-game variance 0.16.
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    expected = 100 * (s1 - s0) * (2 * 0.7 - s0 - s1) / (2 * 0.16)
    assert sprt.llr(60, 20, 20, 0.0, 20.0) == pytest.approx(expected)
    assert sprt.llr(3, 0, 0, 0.0, 20.0) == 0.0  # no variance yet: no evidence
    head = {"alpha": 0.05, "beta": 0.05, "elo0": 0.0, "elo1": 20.0}
    games = [{"winner": w} for w in ["a", "b", None] * 500]  # an even score
    verdict, at = sprt.decision(head, games)
    assert verdict == "rejected (H0)" and at is not None
    assert sprt.llr(*sprt.tally(games[:at]), 0.0, 20.0) <= lower
    assert sprt.llr(*sprt.tally(games[:at - 1]), 0.0, 20.0) > lower
    # Games played past the crossing do not change the verdict.
    assert sprt.decision(head, games + [{"winner": "a"}] * 30)[0] == "rejected (H0)"
    elo, low, high = sprt.elo_interval(60, 20, 20)
    assert low < elo < high and elo == pytest.approx(147.2, abs=0.1)


def test_the_committed_history_is_what_the_committed_games_give(sprt: ModuleType) -> None:
    recorded = json.loads((sprt.RESULTS / "history.json").read_text())
    assert recorded, "no SPRT history committed"
    for row in recorded:
        head, games = sprt.read(sprt.RESULTS.parent / row["file"])
        fresh = sprt.status(head, games)
        assert {k: row[k] for k in fresh} == json.loads(json.dumps(fresh)), row["file"]
