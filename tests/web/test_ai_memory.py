"""The web AI remembers its game's positions (issue 9): a worker rebuilds the game's
turn starts from the tokens the server sends, so the search's repetition check sees
the game's history as it does in one process; and it keeps its games' search agents,
so a game's next think on the same worker starts warm."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from typing import Any

import pytest

from reliquary.ai import get_agent, sample_chance
from reliquary.ai.hashing import at_turn_start, repetition_key
from reliquary.content import default_content
from reliquary.engine import Game, State
from reliquary.web import ai_pool
from reliquary.web.ai_pool import AIPool, recall, think_in_worker


def played(turns: int, seed: int = 3) -> tuple[Game, list[State]]:
    """A seeded game of greedy against greedy, ``turns`` turns into its play, and the
    positions at the start of each turn (the current one last)."""
    rng = random.Random(seed)
    game = Game(default_content())
    agents = [get_agent("greedy", seed=seed), get_agent("greedy", seed=seed + 1)]
    starts: list[State] = []
    while True:
        state = game.state
        if at_turn_start(state):
            starts.append(state.clone())
            if len(starts) > turns:
                return game, starts
        assert not state.is_terminal
        if state.is_chance:
            game.apply(sample_chance(state, rng))
        else:
            game.apply(agents[state.current_player].choose(state))


@pytest.fixture(scope="module")
def game_and_starts() -> tuple[Game, list[State]]:
    return played(12)


def test_recall_gives_a_fresh_agent_every_turn_start_of_the_game(
        game_and_starts: tuple[Game, list[State]], caplog: pytest.LogCaptureFixture) -> None:
    game, starts = game_and_starts
    tokens = [entry.token for entry in game.history]
    agent = get_agent("hard", seed=1)
    assert recall(agent, game.state, tokens) == len(starts) == 13
    assert Counter(agent.seen) == Counter(repetition_key(s) for s in starts)  # type: ignore[attr-defined]
    # An agent that played the game itself remembers no more than that.
    again = get_agent("hard", seed=1)
    recall(again, game.state, [])
    assert Counter(again.seen) == Counter({repetition_key(game.state): 1})  # type: ignore[attr-defined]
    # Agents without a memory (random) take none; a token that does not replay stops
    # the replay where it is, and the current position is still remembered.
    assert recall(get_agent("random", seed=1), game.state, tokens) == 0
    broken = get_agent("hard", seed=1)
    with caplog.at_level(logging.WARNING, logger="reliquary.web.ai_pool"):
        assert recall(broken, game.state, [*tokens[:3], "not-a-token", *tokens[3:]]) == 1
    assert "decision 3 ('not-a-token') does not replay" in caplog.text


def test_a_worker_think_recalls_the_history_it_is_sent(
        game_and_starts: tuple[Game, list[State]], monkeypatch: pytest.MonkeyPatch) -> None:
    game, starts = game_and_starts
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    position = ai_pool.position_to_dict(game.state)
    tokens = [entry.token for entry in game.history]
    result = think_in_worker(position, "hard", 1, 0.05, tokens)
    assert result["remembered"] == len(starts)
    assert result["line"]
    assert think_in_worker(position, "hard", 1, 0.05)["remembered"] == 1


def test_the_pool_sends_the_games_history_to_its_worker(
        game_and_starts: tuple[Game, list[State]], monkeypatch: pytest.MonkeyPatch) -> None:
    game, starts = game_and_starts
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    results: list[dict[str, Any]] = []

    class InProcess(AIPool):
        """The pool with its worker's function run here (the same function)."""

        async def run(self, game_id: str, budget: float | None, fn: Any, *args: Any,
                      sticky: bool = False, owner: str | None = None) -> Any:
            results.append(fn(*args))
            return results[-1]

    pool = InProcess(default_content(), max_thinking=1)
    tokens = [entry.token for entry in game.history]
    option = asyncio.run(pool.choose("g", game.state.clone(), "hard", 1, tokens))
    assert option in game.state.legal_options()
    assert results[-1]["remembered"] == len(starts)


def test_a_worker_keeps_its_games_search_table_for_the_next_think(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's next AI turn on the same worker starts warm (issue 9's v4 warm start,
    in the web game too); another game, or no kept agents, starts cold; the kept agent
    still remembers exactly the game's positions it is told."""
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    monkeypatch.setattr(ai_pool, "_WARM_AGENTS", ai_pool.OrderedDict())
    earlier, _ = played(10)
    later, later_starts = played(12)  # the same game two turns on: the same player moves
    assert earlier.state.current_player == later.state.current_player

    def think(game: Game, game_id: str | None) -> dict[str, Any]:
        return think_in_worker(ai_pool.position_to_dict(game.state), "hard", 1, 0.2,
                               [entry.token for entry in game.history], game_id)

    assert think(earlier, "g")["warm"] == 0
    again = think(later, "g")
    assert again["warm"] > 0 and again["remembered"] == len(later_starts)
    assert think(later, "other")["warm"] == 0
    assert think(later, None)["warm"] == 0  # no game named: nothing kept
    monkeypatch.setenv("RELIQUARY_AI_WARM_GAMES", "0")
    think(earlier, "g")
    assert not ai_pool._WARM_AGENTS and think(later, "g")["warm"] == 0
    monkeypatch.setenv("RELIQUARY_AI_WARM_GAMES", "1")
    think(earlier, "g")
    think(earlier, "h")
    assert list(ai_pool._WARM_AGENTS) == [("h", "hard")]  # the least recent goes first


def test_a_games_thinks_go_back_to_the_worker_that_keeps_its_agent() -> None:
    """Routing (admission only, no processes): a think goes to its game's home worker
    when that is free; new games spread over the workers; a busy home sends the think
    to another free worker, which becomes the home; a hint moves no home."""
    async def scenario() -> None:
        pool = AIPool(default_content(), max_thinking=3)

        async def admit(game_id: str, sticky: bool = True) -> tuple[int, int]:
            ticket = await pool._admit(ai_pool._Job(game_id, 1.0, sticky=sticky))
            return ticket, pool._running[ticket].worker

        try:
            first = [await admit(game_id) for game_id in ("a", "b", "c")]
            assert sorted(worker for _, worker in first) == [0, 1, 2]
            homes = {game_id: pool.home(game_id) for game_id in ("a", "b", "c")}
            assert homes == {"a": first[0][1], "b": first[1][1], "c": first[2][1]}
            for ticket, _ in first:
                pool._release(ticket)
            for game_id in ("c", "a", "b", "b"):
                ticket, worker = await admit(game_id)
                assert worker == homes[game_id]
                pool._release(ticket)
            ticket, _ = await admit("b", sticky=False)
            assert pool.home("b") == homes["b"]  # a hint moves no home
            pool._release(ticket)
            busy, _ = await admit("b")  # b's home runs something ...
            ticket, worker = await admit("b")  # ... so the next think goes elsewhere
            assert worker != homes["b"] and pool.home("b") == worker
            pool._release(busy)
            pool._release(ticket)
            assert (await admit("b"))[1] == worker
            pool.forget("b")
            assert pool.home("b") is None
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_freed_worker_takes_the_waiting_think_it_is_home_to_first() -> None:
    """Every worker busy: the worker that frees takes the first waiting think of a game
    at home there, before the head of the queue whose home is still busy; that one
    goes next, to its own worker."""
    async def scenario() -> None:
        pool = AIPool(default_content(), max_thinking=2)
        jobs = {game_id: ai_pool._Job(game_id, 1.0, sticky=True) for game_id in "ab"}
        try:
            running = {game_id: await pool._admit(job) for game_id, job in jobs.items()}
            homes = {game_id: pool.home(game_id) for game_id in "ab"}
            b_waits = asyncio.create_task(pool._admit(ai_pool._Job("b", 1.0, sticky=True)))
            a_waits = asyncio.create_task(pool._admit(ai_pool._Job("a", 1.0, sticky=True)))
            await asyncio.sleep(0)
            assert pool.queued == 2
            pool._release(running["a"])  # a's worker frees: a goes first, b still waits
            await asyncio.sleep(0)
            assert a_waits.done() and not b_waits.done()
            assert pool._running[a_waits.result()].worker == homes["a"]
            pool._release(running["b"])
            await asyncio.sleep(0)
            assert b_waits.done() and pool._running[b_waits.result()].worker == homes["b"]
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_each_games_second_think_starts_warm_with_two_workers() -> None:
    """Two AI games thinking at once on two worker processes: each game's next turn
    goes back to its worker and starts from its last search's table."""
    async def scenario() -> None:
        pool = AIPool(default_content(), max_thinking=2)
        earlier, later = played(10)[0], played(12)[0]
        try:
            # The second round asks in the other order: the first free worker is not
            # the game's home.
            for game, order in ((earlier, ("g1", "g2")), (later, ("g2", "g1"))):
                history = [entry.token for entry in game.history]
                options = await asyncio.gather(*(
                    pool.choose(game_id, game.state.clone(), "hard", 1, history)
                    for game_id in order))
                assert all(option in game.state.legal_options() for option in options)
            for game_id in ("g1", "g2"):
                brain = pool.brain(game_id)
                assert brain is not None and (brain.thinks, brain.warm_thinks) == (2, 1)
            assert {pool.home("g1"), pool.home("g2")} == {0, 1}
        finally:
            pool.shutdown()

    asyncio.run(scenario())
