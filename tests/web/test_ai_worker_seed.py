"""An AI worker's think follows the seed it is given (web/ai_pool.py, ``agent_for``: a
fresh agent for the level, seeded with the think's seed), so that two games of the
same level do not play the same noise. Issue 31, sample H: a fault dropping the seed
(every fresh agent on its default seed) passed every test."""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

import pytest

from reliquary.ai import get_agent, sample_chance
from reliquary.content import default_content
from reliquary.engine import Game, format_option, position_to_dict
from reliquary.web import ai_pool
from reliquary.web.ai_pool import think_in_worker


def position() -> dict[str, Any]:
    """A seeded game some turns in, Key or Skull to play a card (a wide choice)."""
    rng = random.Random(4)
    game = Game(default_content())
    agent = get_agent("random", seed=4)
    plays = 0
    while True:
        state = game.state
        if state.is_chance:
            game.apply(sample_chance(state, rng))
            continue
        if state.decision().kind == "play":
            plays += 1
            if plays > 6:
                return position_to_dict(state)
        game.apply(agent.choose(state))


@pytest.mark.parametrize("game_id", [None, "g"])
def test_a_worker_s_think_follows_its_seed(monkeypatch: pytest.MonkeyPatch,
                                           game_id: str | None) -> None:
    monkeypatch.setattr(ai_pool, "_WORKER_CONTENT", default_content())
    monkeypatch.setattr(ai_pool, "_WARM_AGENTS", OrderedDict())
    where = position()

    def line(seed: int) -> list[str]:
        return list(think_in_worker(where, "easy", seed, None, (), game_id)["line"])

    lines = {seed: line(seed) for seed in range(1, 9)}
    # The same seed thinks the same line again; the level's noise (docs/ai.md: easy is
    # greedy with noise) makes the seeds disagree somewhere.
    assert all(line(seed) == lines[seed] for seed in (1, 2, 3))
    assert len({tuple(v) for v in lines.values()}) > 1
    # ... as the level's agent made with that seed would play.
    state = ai_pool._state_of(where)
    for seed in (1, 2):
        agent = get_agent("easy", seed=seed)
        assert format_option(state, agent.choose(state)) == lines[seed][0]
