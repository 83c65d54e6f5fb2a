"""The hint: the best option with its value, a principal variation that is legal from
the position (die rolls included), alternatives best first, and ``reliquary hint``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import reliquary
from reliquary.ai import sample_chance
from reliquary.ai.hint import analyse, squash
from reliquary.cli.main import cli
from reliquary.engine import KEY, SIDES, SKULL, State, parse_option, position_to_dict


def replay_pv(state: State, hint: dict[str, Any]) -> State:
    """Play the hint's line on a clone, token by token, checking each is legal and is
    taken by whom the hint says."""
    s = state.clone()
    assert len(hint["pv"]) == len(hint["pv_by"])
    for token, who in zip(hint["pv"], hint["pv_by"], strict=True):
        assert not s.is_terminal, f"{token!r} after the end of the game"
        assert who == ("chance" if s.is_chance else SIDES[s.current_player])
        s.apply(parse_option(s, token))  # raises if the token is not legal here
    return s


def check_shape(state: State, hint: dict[str, Any], top: int) -> None:
    assert hint["pv"][0] == hint["best"]
    assert -1.0 <= hint["value"] <= 1.0
    assert hint["player"] == SIDES[state.current_player]
    alternatives = hint["alternatives"]
    assert len(alternatives) == min(top, len(state.legal_options()) - 1)
    values = [alt["value"] for alt in alternatives]
    assert values == sorted(values, reverse=True)
    assert all(-1.0 <= v <= 1.0 for v in values)
    legal = {o for o in state.legal_options()}
    for alt in alternatives:
        assert alt["option"] != hint["best"]
        assert parse_option(state, alt["option"]) in legal


@pytest.fixture
def ordeal_position(build: Any) -> State:
    """Key's Ordeal can kill the 2-HP Skull Hero on a 5 or 6: the line holds a roll."""
    return (build(factions=("bone-wardens", "pyre-choir"))
            .hero(KEY, "d3").minion(KEY, "a2").minion(KEY, "h2").hero(SKULL, "d5", hp=2)
            .minion(SKULL, "a7").minion(SKULL, "h7").relic(KEY, "b2").relic(SKULL, "g7")
            .hands(key=["Ordeal", "Vault", "Litany"],
                   skull=["Pilgrim", "Crossroads", "Sidewind"]).build())


def test_search_pv_is_legal_through_the_roll_and_the_opponents_reply(
        ordeal_position: State) -> None:
    hint = analyse(ordeal_position, "search", nodes=4000, max_depth=2)
    check_shape(ordeal_position, hint, 3)
    assert hint["best"] == "Ordeal:attack" and hint["depth"] == 2
    replay_pv(ordeal_position, hint)
    # The roll is written as the notation does (a face), then Skull's reply follows.
    assert "chance" in hint["pv_by"] and hint["pv"][hint["pv_by"].index("chance")] in "123456"
    assert "skull" in hint["pv_by"]
    assert hint["alternatives"][0]["depth"] == 2  # the best alternatives searched as deep


@pytest.mark.parametrize("agent, budget", [
    ("search", {"nodes": 1500}), ("greedy", {}), ("mcts", {"nodes": 200}), ("random", {}),
    ("easy", {}),
])
def test_pv_is_legal_in_positions_from_random_games(agent: str, budget: dict[str, int]) -> None:
    rng = random.Random(8)
    positions = []
    state = reliquary.new_game()
    while len(positions) < 3 and not state.is_terminal:
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if state.decision().kind == "play" and state.turns_taken[0] >= 1 \
                and rng.random() < 0.4:
            positions.append(state.clone())
        state.apply(rng.choice(state.legal_options()))
    assert positions
    for position in positions:
        hint = analyse(position, agent, seed=1, top=2, **budget)
        check_shape(position, hint, 2)
        replay_pv(position, hint)


def test_a_proven_win_is_worth_one(build: Any) -> None:
    # V3: the Key Minion on c2 carries the Skull relic; Pilgrim steps it home to c1.
    state = (build().hero(KEY, "f3").minion(KEY, "c2").carry(SKULL, "c2")
             .hero(SKULL, "f7").minion(SKULL, "b6").relic(KEY, "e2")
             .hands(key=["Pilgrim", "Crossroads", "Vault"],
                    skull=["Sidewind", "Litany", "Procession"]).build())
    hint = analyse(state, "search", nodes=3000)
    assert hint["value"] == 1.0
    assert replay_pv(state, hint).winner == KEY


def test_setup_decisions_get_a_hint_too() -> None:
    state = reliquary.new_game()
    hint = analyse(state, "hard", top=4)
    check_shape(state, hint, 4)
    assert hint["decision"] == "ruin" and hint["pv"] == [hint["best"]]
    assert all(alt["depth"] == 0 for alt in hint["alternatives"])


def test_the_secret_faction_choice_reveals_nothing() -> None:
    rng = random.Random(2)
    state = reliquary.new_game()
    while state.decision().kind != "faction":
        state.apply(rng.choice(state.legal_options()))
    state.apply("storm-sworn")  # Key's secret choice; Skull asks for a hint
    hint = analyse(state, "hard")
    assert hint["player"] == "skull" and hint["alternatives"] == []
    assert hint["best"] in {str(o) for o in state.legal_options()}


def test_bad_requests_are_refused_clearly(ordeal_position: State) -> None:
    with pytest.raises(ValueError, match="top must be"):
        analyse(ordeal_position, "greedy", top=-1)
    with pytest.raises(ValueError, match="unknown agent"):
        analyse(ordeal_position, "oracle")
    state = ordeal_position.clone()
    for token in ("Ordeal:attack", "d3", "d5"):
        state.apply(parse_option(state, token))
    assert state.is_chance
    with pytest.raises(ValueError, match="chance"):
        analyse(state)


def test_squash_maps_points_into_minus_one_to_one() -> None:
    assert squash(0.0) == 0.0 and squash(100_000.0) == 1.0 and squash(-95_000.0) == -1.0
    assert 0.0 < squash(60.0) < squash(300.0) < 1.0
    assert squash(-60.0) == -squash(60.0)


def test_cli_hint_prints_the_best_option_line_and_alternatives(
        ordeal_position: State, tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_dict(ordeal_position)))
    result = CliRunner().invoke(cli, ["hint", str(path), "--agent", "search", "--nodes",
                                      "3000", "--top", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Key to play (play): Ordeal:attack   value +")
    assert lines[1].startswith("line: Key: Ordeal:attack d3 d5 [")
    assert "| Skull:" in lines[1]
    assert lines[2] == "alternatives:" and len(lines) == 6
    result = CliRunner().invoke(cli, ["hint", str(path), "--agent", "greedy", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["best"] == "Ordeal:attack" and len(data["alternatives"]) == 3
    missing = CliRunner().invoke(cli, ["hint", str(tmp_path / "nope.json")])
    assert missing.exit_code != 0
