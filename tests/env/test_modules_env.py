"""The environments with rule modules on (issue 22): the action space gains INTERACT
plays and the modules' names, the observation their conditions and state, after the
base ranges and planes, which stay put; a whole game plays through the AEC API."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from reliquary import default_content
from reliquary.engine import Play, Settings, State
from reliquary.engine.hooks import Hooks, ModuleState
from reliquary.engine.modules import Module, register, unregister
from reliquary.env.aec import raw_env
from reliquary.env.encoding import ActionSpace, Observer

from ..modules import smoulder  # registers the worked example module


class Kindled(ModuleState):
    def __init__(self, n: int = 0) -> None:
        self.n = n

    def copy(self) -> Kindled:
        return Kindled(self.n)

    def to_json(self) -> object:
        return self.n

    def load(self, data: object) -> None:
        assert isinstance(data, int)
        self.n = data

    def key(self) -> object:
        return self.n


class KindleHooks(Hooks):
    """INTERACT's 'kindle': counts, and shows the count in the observation."""

    def new_state(self) -> ModuleState:
        return Kindled()

    def action_names(self) -> list[str]:
        return ["kindle"]

    def interact_actions(self, s: State, player: int) -> list[str]:
        return ["kindle"]

    def interact(self, s: State, player: int, action: str) -> None:
        state = s.module_state["kindle"]
        assert isinstance(state, Kindled)
        state.n += 1

    def observation_names(self) -> list[str]:
        return ["kindled"]

    def observation(self, s: State, player: int) -> dict[str, float]:
        state = s.module_state["kindle"]
        assert isinstance(state, Kindled)
        return {"kindled": min(state.n / 10, 1.0)}


@pytest.fixture(scope="module", autouse=True)
def kindle_module() -> Iterator[None]:
    register(Module(name="kindle", title="Kindle", rules="TEST", summary="counts",
                    hooks=lambda content, settings: KindleHooks()))
    yield
    unregister("kindle")


def test_base_ranges_and_planes_stay_put_and_modules_come_after() -> None:
    content = default_content()
    base_actions, base_planes = ActionSpace(content, 8), Observer(content, 8)
    settings = Settings(modules=(smoulder.MODULE.name, "kindle"))
    actions, observer = ActionSpace(content, 8, settings), Observer(content, 8,
                                                                      settings=settings)
    assert actions.size == base_actions.size + len(actions.cards) + 1
    base_ranges = base_actions.ranges()
    for kind in ("square", "step", "play", "pass", "faction", "rite"):
        assert actions.ranges()[kind] == base_ranges[kind], kind
    assert actions.ranges()["interact"] == (base_actions.size,
                                            base_actions.size + len(actions.cards))
    names = observer.plane_names()
    assert names[:len(base_planes.plane_names())] == base_planes.plane_names()
    assert {"condition:smoulder", "decision:interact", "kindled"} <= set(names)
    play = Play(actions.cards[0], "interact")
    assert actions.decode(actions.encode(play, 1), 1) == play
    assert actions.decode(actions.encode("kindle", 0), 0) == "kindle"


def test_a_whole_game_with_modules_through_the_aec_api() -> None:
    env = raw_env(settings={"modules": ["smoulder", "kindle"], "round_cap": 40}, seed=3)
    env.reset(seed=3)
    rng = random.Random(3)
    kindled_seen = False
    for _agent in env.agent_iter(max_iter=20_000):
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0
        action = int(rng.choice(legal))
        env.step(action)
        planes = env.observer.named(env.observer.encode(env.engine, 0))
        kindled_seen = kindled_seen or bool(planes["kindled"].max() > 0)
    assert not env.agents  # the game ended
    assert env.engine.result is not None
    assert kindled_seen
