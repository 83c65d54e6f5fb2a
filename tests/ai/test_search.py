"""The search on prepared positions: wins in one, a loss avoided, chance by expectation,
threats beyond two turns (threat extensions)."""

from __future__ import annotations

import math

import pytest

from reliquary.ai import get_agent
from reliquary.ai.evaluation import WIN, WIN_THRESHOLD, home_threat
from reliquary.ai.search import SearchAgent, Searcher
from reliquary.engine import KEY, SKULL, Play, State

SEARCH_BUDGET = {"nodes": 60_000, "max_depth": 2}


def play_turn(state: State, agent_name: str, **budget: object) -> State:
    """Let the agent play the rest of the current player's turn (no chance expected)."""
    agent = get_agent(agent_name, seed=3, **budget)
    s = state.clone()
    player = s.current_player
    while not s.is_terminal and s.current_player == player and not s.is_chance:
        option = agent.choose(s)
        assert option in s.legal_options()
        s.apply(option)
    return s


def best_reply_value(state: State) -> float:
    """The best one-turn outcome for the player to move, searched exhaustively."""
    searcher = Searcher(state.current_player)
    turns = state.turns_taken[0] + state.turns_taken[1]
    return searcher.value(state, turns + 1, -math.inf, math.inf, 0)


@pytest.mark.parametrize("agent", ["search", "greedy", "mcts"])
def test_finds_a_relic_win_in_one(build, agent: str) -> None:
    # V3: the Key Minion on c2 carries the Skull relic; Pilgrim steps it to c1, home.
    state = (build().hero(KEY, "f3").minion(KEY, "c2").carry(SKULL, "c2")
             .hero(SKULL, "f7").minion(SKULL, "b6").relic(KEY, "e2")
             .hands(key=["Pilgrim", "Crossroads", "Vault"], skull=["Sidewind", "Litany",
                                                                  "Procession"])
             .build())
    budget = SEARCH_BUDGET if agent == "search" else {"nodes": 3000} if agent == "mcts" else {}
    after = play_turn(state, agent, **budget)
    assert after.result is not None
    assert (after.winner, after.result.reason) == (KEY, "relic_home")


@pytest.mark.parametrize("agent", ["search", "greedy"])
def test_finds_a_hero_kill_in_one(build, agent: str) -> None:
    # Pyre Choir Hero: 2 damage at range 2 with LoS; the Skull Hero has 2 HP left.
    state = (build().hero(KEY, "d3").minion(KEY, "a2").hero(SKULL, "d5", hp=2)
             .minion(SKULL, "g6").minion(SKULL, "h7").relic(KEY, "b2").relic(SKULL, "g7")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    after = play_turn(state, agent, **(SEARCH_BUDGET if agent == "search" else {}))
    assert after.result is not None
    assert (after.winner, after.result.reason) == (KEY, "hero_killed")


def _carrier_threat(build) -> State:
    # A Skull Minion on d7 carries the Key relic one step from Skull's back row (rank 8),
    # and Skull holds three cards that each take it home. Only killing it saves Key: the
    # Key Minion on e6 can (Pyre Choir Minion, 1 damage adjacent).
    return (build().hero(KEY, "b2").minion(KEY, "e6").minion(KEY, "g3")
            .hero(SKULL, "h5").minion(SKULL, "d7").carry(KEY, "d7").relic(SKULL, "a6")
            .hands(key=["Crossroads", "Sidewind", "Procession"],
                   skull=["Pilgrim", "Vault", "Litany"], waiting="Requiem")
            .build())


def test_the_threat_is_real(build) -> None:
    """Most of Key's turns lose at once: a MOVE leaves the carrier free to go home."""
    state = _carrier_threat(build)
    s = state.clone()
    s.apply(Play("Sidewind", "move"))
    s.apply(s.legal_options()[0])
    while not s.is_terminal and s.current_player == KEY:
        s.apply(s.legal_options()[-1])
    assert s.current_player == SKULL
    assert best_reply_value(s) >= WIN_THRESHOLD


def test_search_avoids_an_immediate_loss(build) -> None:
    state = _carrier_threat(build)
    after = play_turn(state, "search", **SEARCH_BUDGET)
    assert not after.is_terminal and after.current_player == SKULL
    assert best_reply_value(after) < WIN_THRESHOLD  # Skull cannot win this turn


def _ordeal(build, skull_hero_hp: int) -> State:
    # Veiled Hand (Hero: 1 damage, adjacent) cannot reach the Skull Hero two squares
    # away; Ordeal can (an enemy at 2 or less, LoS). The Key Hero has 1 HP: Ordeal's 1
    # (1 in 6) kills it; 5 or 6 (1 in 3) deal 2 damage. The Skull Hero is veiled (no
    # lunge next turn) and cannot strike back at range 2.
    return (build(factions=("veiled-hand", "veiled-hand"))
            .hero(KEY, "d3", hp=1).hero(SKULL, "d5", hp=skull_hero_hp, veiled=True)
            .minion(SKULL, "h8").relic(KEY, "a2").relic(SKULL, "h6")
            .hands(key=["Ordeal", "Pilgrim", "Sidewind"], skull=["Vault", "Litany", "Serpent"])
            .build())


#: The Ordeal tests are about valuing one die roll over two turns, so they search two
#: turns without threat extensions (off by default): with them (extend=2) or a plain
#: four-turn search, a 2 HP
#: Skull Hero falls to a surer line (strike, step away, strike again), and on 3 HP
#: Ordeal's follow-ups are worth its 1 in 6 risk.
TWO_TURNS = {**SEARCH_BUDGET, "extend": 0}


def test_ordeal_is_taken_when_its_expectation_wins(build) -> None:
    # Skull Hero on 2 HP: 1/3 to win now against 1/6 to lose — worth it.
    agent = SearchAgent(seed=1, **TWO_TURNS)
    assert agent.choose(_ordeal(build, 2)) == Play("Ordeal", "attack")


def test_ordeal_is_refused_when_it_can_only_lose_the_game(build) -> None:
    # Skull Hero on 3 HP: no roll kills it, and a 1 loses the game. An agent that took
    # the die at its mean (1 damage) or at its best face would attack.
    agent = SearchAgent(seed=1, **TWO_TURNS)
    first = agent.choose(_ordeal(build, 3))
    assert first != Play("Ordeal", "attack")


def test_a_chance_node_is_the_probability_weighted_mean(build) -> None:
    state = _ordeal(build, 3)
    state.apply(Play("Ordeal", "attack"))
    state.apply(state.geometry.parse("d3"))   # the attacker
    state.apply(state.geometry.parse("d5"))   # the target: now the die
    assert state.is_chance
    turns = state.turns_taken[0] + state.turns_taken[1]
    value = Searcher(KEY).value(state, turns + 1, -math.inf, math.inf, 0)
    expected = 0.0
    for face, p in state.chance_outcomes():
        child = state.clone()
        child.apply(face)
        expected += p * Searcher(KEY).value(child, turns + 1, -math.inf, math.inf, 1)
    assert value == pytest.approx(expected)
    # and the 1 in 6 that kills the Key Hero is in it
    assert abs(value + WIN / 6) < 1000


def _two_turn_carrier(build) -> State:
    # The Skull Minion on d5 carries the Key relic three ranks from home (rank 8):
    # Veil's MOVE takes it two ranks (d7), and Pilgrim, Litany or Aegis then takes it
    # home. Neither is a threat at the start of Skull's next turn alone, so a two-turn
    # search (Key's turn, Skull's reply) ends before the relic goes home.
    return (build().hero(KEY, "a1").minion(KEY, "h2").minion(KEY, "h1")
            .hero(SKULL, "h8").minion(SKULL, "d5").carry(KEY, "d5").minion(SKULL, "a7")
            .relic(SKULL, "a6")
            .hands(key=["Crossroads", "Sidewind", "Procession"],
                   skull=["Veil", "Pilgrim", "Litany"], waiting="Aegis")
            .build())


def test_home_threat_is_seen_statically(build) -> None:
    assert not home_threat(_two_turn_carrier(build), SKULL)  # three ranks away
    carrier = _carrier_threat(build)
    assert home_threat(carrier, SKULL)  # d7 with Pilgrim, Vault, Litany in hand
    assert not home_threat(carrier, KEY)  # Key carries nothing


def test_threat_extension_sees_the_relic_go_home_in_two_turns(build) -> None:
    """Depth 2 alone scores the carrier two squares nearer home; the extension
    searches on while the threat stands and finds the loss."""
    state = _two_turn_carrier(build)
    plain = SearchAgent(seed=1, nodes=200_000, max_depth=2, extend=0)
    _, value, depth, _ = plain.analyse(state, None, 200_000)
    assert depth == 2 and value > -WIN_THRESHOLD
    extended = SearchAgent(seed=1, nodes=200_000, max_depth=2, extend=2)
    _, value, depth, searcher = extended.analyse(state, None, 200_000)
    assert searcher.extensions > 0
    assert value <= -WIN_THRESHOLD
