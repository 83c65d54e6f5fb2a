"""The AI's decisions in the server (``AIPool.choose``), branch by branch, with the
worker replaced by a think run here (issue 31, by class: the samples kept finding
survivors in the AI pool's code the app's tests reach only through workers). Pins the
budget of each think of a turn (85% of the level's first, then what is left of the
turn, never under 5%), a plan played out decision by decision with no think, a forced
decision taken without one, the bar's value turned to the human, the think counts, a
full queue asked again after ``QUEUE_FULL_RETRY_S``, and ``think_in_worker`` itself
run in this process (its line legal and never empty, its counts)."""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from typing import Any

import pytest

from reliquary.ai import sample_chance
from reliquary.content import default_content
from reliquary.engine import (
    KEY,
    SKULL,
    Builder,
    State,
    format_option,
    parse_option,
    position_from_dict,
)
from reliquary.web import ai_pool
from reliquary.web.ai_pool import AIPool, QueueFull, level_budget


class Thinks(AIPool):
    """A pool whose think takes ``think_s`` seconds and plans ``length`` decisions of
    the AI's turn (the first legal option each time), run here."""

    def __init__(self, *args: Any, think_s: float = 0.3, length: int = 1,
                 full: int = 0, value: float | None = 0.4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budgets: list[float | None] = []
        self.think_s, self.length, self.full, self.value = think_s, length, full, value

    async def run(self, game_id: str, budget: float | None, fn: Any, *args: Any,
                  sticky: bool = False, owner: str | None = None) -> Any:
        if self.full:
            self.full -= 1
            raise QueueFull("busy")
        self.budgets.append(budget)
        assert args[1] == "hard" and args[3] == budget and sticky
        state = position_from_dict(args[0], self.content)
        line = [state.legal_options()[0] for _ in range(1)]
        s = state.clone()
        s.apply(line[0])
        while len(line) < self.length and not s.is_terminal and not s.is_chance \
                and s.current_player == state.current_player:
            line.append(s.legal_options()[0])
            s.apply(line[-1])
        return {"line": ai_pool._tokens(state, line), "value": self.value,
                "seconds": self.think_s, "nodes": 1, "remembered": 0, "warm": 0,
                "warm_turn": -1}


def _position() -> State:
    content = default_content()
    return (Builder(content).hero(KEY, "d4").minion(KEY, "c2").minion(KEY, "e2")
            .hero(SKULL, "h5").minion(SKULL, "g7").build())


def _one_turn(pool: Thinks, game: str = "g") -> tuple[list[Any], State]:
    """Play Key's first turn by the pool; the options chosen."""
    state = _position()
    assert state.current_player == KEY and not state.is_chance
    chosen: list[Any] = []
    turn = tuple(state.turns_taken)
    while not state.is_terminal and not state.is_chance and state.current_player == KEY \
            and tuple(state.turns_taken) == turn:
        option = asyncio.run(pool.choose(game, state, "hard", 1))
        assert option in state.legal_options()
        chosen.append(option)
        state.apply(option)
    return chosen, state


@pytest.mark.parametrize("think_s", [0.3, 1.0, 1.45])
def test_each_think_of_a_turn_has_what_is_left(think_s: float) -> None:
    pool = Thinks(default_content(), max_thinking=1, think_s=think_s)
    _one_turn(pool)
    budget = level_budget("hard")
    assert budget == 1.5
    assert len(pool.budgets) >= 2
    expected: list[float] = []
    spent = 0.0
    for _ in pool.budgets:
        expected.append(budget * 0.85 if spent == 0.0 else max(budget - spent, budget * 0.05))
        spent += think_s
    assert pool.budgets == pytest.approx(expected)
    assert pool.budgets[0] == pytest.approx(1.275)
    brain = pool.brain("g")
    assert brain is not None
    assert brain.thinks == len(pool.budgets) and brain.warm_thinks == 0
    assert brain.spent == pytest.approx(think_s * len(pool.budgets))
    assert brain.value == 0.4


def test_a_plan_is_played_without_thinking_again() -> None:
    one = Thinks(default_content(), max_thinking=1, length=1)
    chosen_one, _ = _one_turn(one)
    whole = Thinks(default_content(), max_thinking=1, length=99)
    chosen_whole, _ = _one_turn(whole)
    assert chosen_whole == chosen_one  # the same line, first option each time
    # the whole turn planned at once: a single think, every later decision from the plan
    assert len(whole.budgets) == 1
    assert len(one.budgets) == len([c for c in chosen_one]) - _forced(chosen_one)
    brain = whole.brain("g")
    assert brain is not None and brain.plan == {}  # each planned decision used once


def _forced(chosen: list[Any]) -> int:
    """How many of Key's decisions on that line had one option."""
    state = _position()
    forced = 0
    for option in chosen:
        forced += len(state.legal_options()) == 1
        state.apply(option)
    return forced


def test_the_bar_turns_the_ai_s_value_to_the_human() -> None:
    pool = Thinks(default_content(), max_thinking=1, value=0.4)
    _, state = _one_turn(pool)
    assert ai_pool.ai_evaluation(pool, "g", state, SKULL) == -0.4
    kept = Thinks(default_content(), max_thinking=1, value=None)
    kept._brains["g"] = ai_pool._Brain("hard", value=0.7)
    _one_turn(kept)
    assert kept.brain("g").value == 0.7  # a think without a value keeps the last one


def test_another_level_starts_a_new_brain() -> None:
    pool = Thinks(default_content(), max_thinking=1)
    pool._brains["g"] = ai_pool._Brain("max", spent=5.0, value=0.9)
    _one_turn(pool)
    assert pool.brain("g").level == "hard"
    assert pool.budgets[0] == pytest.approx(1.275)


def test_a_full_queue_is_asked_again_after_half_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(ai_pool.asyncio, "sleep", sleep)
    pool = Thinks(default_content(), max_thinking=1, full=3)
    state = _position()
    asyncio.run(pool.choose("g", state, "hard", 1))
    assert slept == [0.5, 0.5, 0.5]
    assert len(pool.budgets) == 1
    assert pool.brain("g").spent == pytest.approx(0.3)  # the waits are not spent


def test_a_forced_decision_takes_no_think() -> None:
    pool = Thinks(default_content(), max_thinking=1)
    state = _position()
    rng = random.Random(3)
    for _ in range(400):
        if state.is_terminal:
            break
        if state.is_chance:
            state.apply(sample_chance(state, rng))
            continue
        if len(state.legal_options()) == 1:
            before = len(pool.budgets)
            option = asyncio.run(pool.choose("f", state, "hard", 1))
            assert option == state.legal_options()[0]
            assert len(pool.budgets) == before
            return
        state.apply(rng.choice(state.legal_options()))
    pytest.fail("no forced decision met")


def _legal_line(state: State, line: list[str]) -> None:
    """``line`` is the AI's own consecutive decisions from ``state``, each legal."""
    assert line
    s = state.clone()
    for token in line:
        assert s.current_player == KEY and not s.is_chance and not s.is_terminal
        option = parse_option(s, token)
        assert format_option(s, option) == token
        s.apply(option)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_think_in_worker_here(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    content = default_content()
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", content)
    monkeypatch.setattr(ai_pool, "_WARM_AGENTS", OrderedDict())
    state = _position()
    result = ai_pool.think_in_worker(ai_pool._position(state), level, 1, 0.05, game_id="w")
    assert set(result) == {"line", "value", "seconds", "nodes", "remembered", "warm",
                           "warm_turn"}
    _legal_line(state, result["line"])
    assert result["remembered"] == 1  # the position itself, no history
    assert result["value"] is None or -1.0 <= result["value"] <= 1.0
    assert result["seconds"] >= 0.0
    if level == "hard":
        assert isinstance(result["value"], float)
        assert isinstance(result["nodes"], int) and result["nodes"] > 0
        assert ("w", "hard") in ai_pool._WARM_AGENTS
        assert result["warm"] == 0 and result["warm_turn"] == -1  # a cold start
