"""Every agent plays whole games (setup included) with legal options only, reproducibly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary import new_game
from reliquary.ai import AGENTS, LEVELS, get_agent, position_key, sample_chance
from reliquary.ai.planning import FACTION_PRIOR
from reliquary.engine import Option, State

# Small node budgets keep the games quick and make them reproducible.
BUDGETS: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "mcts": {"nodes": 60}, "search": {"nodes": 400},
}


def play(agents: tuple[str, str], seed: int, size: int = 8,
         round_cap: int = 40) -> tuple[State, list[Option]]:
    """A whole game; every choice is checked against the legal options."""
    players = [get_agent(name, seed=seed + i, **BUDGETS.get(name, {}))
               for i, name in enumerate(agents)]
    rng = random.Random(seed)
    state = new_game(size=size, round_cap=round_cap)
    history: list[Option] = []
    while not state.is_terminal:
        if state.is_chance:
            option = sample_chance(state, rng)
        else:
            before = position_key(state)
            option = players[state.current_player].choose(state)
            assert option in state.legal_options(), (agents, state.decision().kind, option)
            assert position_key(state) == before  # choose() leaves the state alone
        state.apply(option)
        history.append(option)
    return state, history


def test_the_registry_names_every_agent_and_level() -> None:
    assert set(AGENTS) == {"random", "greedy", "mcts", "search"}
    assert set(LEVELS) == {"easy", "medium", "hard", "max"}
    for agent_name, _ in LEVELS.values():
        assert agent_name in AGENTS
    for name in [*AGENTS, *LEVELS]:
        assert hasattr(get_agent(name, seed=0), "choose")


def test_an_unknown_agent_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown agent 'grandmaster'; known: random"):
        get_agent("grandmaster")


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_agent_plays_legal_options_through_a_whole_game(name: str) -> None:
    state, _ = play((name, "random"), seed=11)
    assert state.result is not None
    state, _ = play(("random", name), seed=12)
    assert state.result is not None


@pytest.mark.parametrize("size", [9, 10, 11, 12])
def test_thinking_agents_play_every_board_side(size: int) -> None:
    state, _ = play(("search", "mcts"), seed=size, size=size, round_cap=12)
    assert state.result is not None
    state, _ = play(("greedy", "random"), seed=size, size=size, round_cap=12)
    assert state.result is not None


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "search"])
def test_same_seed_same_game(name: str) -> None:
    first = play((name, name), seed=5, round_cap=15)[1]
    again = play((name, name), seed=5, round_cap=15)[1]
    assert first == again


def test_different_seeds_differ() -> None:
    assert play(("mcts", "random"), seed=1, round_cap=10)[1] \
        != play(("mcts", "random"), seed=2, round_cap=10)[1]


def test_faction_choice_is_made_without_peeking() -> None:
    """S3: the agent's faction comes from its prior, whatever the other chose."""
    state = new_game()
    while state.decision().kind != "faction":
        state.apply(state.legal_options()[0])
    state.apply("pyre-choir")  # Key's secret choice
    picks = {str(get_agent("search", seed=s).choose(state)) for s in range(40)}
    assert picks <= set(FACTION_PRIOR) and len(picks) > 1


def test_an_agent_never_chooses_for_chance() -> None:
    state = new_game()
    while not state.is_chance:  # the two players pick different factions
        state.apply(state.legal_options()[state.current_player])
    with pytest.raises(ValueError, match="chance"):
        get_agent("search").choose(state)
