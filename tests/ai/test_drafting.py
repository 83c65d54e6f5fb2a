"""Agents that set up like players (issue 26): factions and rites drafted from the lab's
values, best or mixed, per ruleset; the values table written by ``lab values``."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from reliquary import default_content
from reliquary.ai import get_agent
from reliquary.ai.drafting import (
    Drafted,
    DraftValues,
    draft_choice,
    drafted,
    load_values,
    ruleset_name,
    shipped_values,
    values_for,
)
from reliquary.engine import Settings, State
from reliquary.rulesets import load_ruleset

VALUES = DraftValues("t", factions={"grave-tide": 2.0, "pyre-choir": 1.0},
                     rites={"Harrow": 1.0, "Exhumation": -1.0})


def _at(kind: str, state: State | None = None, seed: int = 0) -> State:
    """A state at the first decision of ``kind`` (setup by random legal choices)."""
    state = state or State(default_content())
    rng = random.Random(seed)
    while state.is_chance or state.decision().kind != kind:
        options = (state.chance_outcomes() if state.is_chance else None)
        state.apply(options[0][0] if options else rng.choice(state.legal_options()))
    return state


def test_best_takes_the_highest_value_and_mixed_follows_the_weights() -> None:
    faction = _at("faction")
    picks = {str(draft_choice(faction, random.Random(s), "best", values=VALUES))
             for s in range(20)}
    assert picks == {"grave-tide"}
    mixed = Counter(str(draft_choice(faction, random.Random(s), "mixed", 0.5, VALUES))
                    for s in range(600))
    # exp(2/0.5) : exp(1/0.5) : exp(0) × 7 others = 54.6 : 7.4 : 7
    assert 0.72 < mixed["grave-tide"] / 600 < 0.86
    assert 0.06 < mixed["pyre-choir"] / 600 < 0.17
    assert len(mixed) >= 6                 # the others still come up
    rite = _at("rite")
    assert len(rite.legal_options()) == 3   # S5: the second player picks first, of three
    assert str(draft_choice(rite, random.Random(1), "best", values=VALUES)) == "Harrow"
    with pytest.raises(ValueError, match="unknown draft strategy 'worst'"):
        draft_choice(faction, random.Random(1), "worst")


def test_the_values_follow_the_ruleset_played() -> None:
    assert ruleset_name(State(default_content())) == "classic"
    tournament = load_ruleset("tournament")
    state = State(tournament.content(), tournament.game_settings())
    assert ruleset_name(state) == "tournament"
    assert ruleset_name(State(default_content(), Settings(vigil_start=3))) == "classic"
    table = shipped_values()
    assert values_for(state) is (table.get("tournament") or table["classic"])


def test_thinking_agents_draft_from_the_values_and_vary_between_games() -> None:
    agent = get_agent("greedy", seed=1)
    wrapped = drafted(agent, seed=1)
    assert isinstance(wrapped, Drafted) and drafted(wrapped) is wrapped
    assert not isinstance(drafted(get_agent("random", seed=1)), Drafted)  # stays uniform
    assert wrapped.rng is agent.rng          # everything else is the agent's
    picks = {str(drafted(get_agent("search", seed=s, nodes=10), seed=s).choose(_at("faction")))
             for s in range(30)}
    assert len(picks) > 2                    # a mixed strategy: not one faction every game
    rites = {str(drafted(get_agent("greedy", seed=s), seed=s).choose(_at("rite", seed=3)))
             for s in range(30)}
    assert len(rites) == 3                   # the second player picks first: all three offered


def test_the_web_ai_drafts_with_the_same_values_and_varies() -> None:
    from reliquary.web.ai_pool import choose_remembering

    state = _at("faction")
    picks = {str(choose_remembering(get_agent("hard", seed=s), state, [])) for s in range(30)}
    assert len(picks) > 2


def test_lab_values_writes_a_section_the_agents_read(tmp_path: Path) -> None:
    pytest.importorskip("polars")
    from reliquary.lab.values import Measured, write

    path = tmp_path / "values.toml"
    write(path, "classic", Measured({"a": 0.5, "b": -0.5}, {"X": 0.25}, "run x; 9 games"))
    write(path, "tournament", Measured({"a": -0.1}, {}, "run y"))
    table = load_values(path.read_text())
    assert table["classic"].factions == {"a": 0.5, "b": -0.5}
    assert table["classic"].rites == {"X": 0.25} and table["tournament"].factions == {"a": -0.1}
    assert "reliquary lab values" in path.read_text()      # says how it is made again
