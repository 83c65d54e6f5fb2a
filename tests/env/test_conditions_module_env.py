"""The research environments with Conditions on (issue 23): PettingZoo's api_test,
Gymnasium's check_env and OpenSpiel's random_sim_test pass; a board plane per condition
(its value / 3); INTERACT plays and FOCUS/GUARD/TEND in the fixed action space; the
Dread roll's chance actions at 1/6 each."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from reliquary.engine import Builder, Content, Play, Settings
from reliquary.env import ReliquaryGymEnv, env
from reliquary.env.encoding import ActionSpace, Observer

pytestmark = pytest.mark.filterwarnings(
    "ignore:We recommend agents:UserWarning",
    "ignore:Observation space for each agent:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:.*render:UserWarning")

CONDITIONS = {"modules": ["conditions"], "round_cap": 15}


def test_pettingzoo_api_test_passes_with_conditions() -> None:
    api_test(env(settings=CONDITIONS, seed=1), num_cycles=400)
    api_test(env(settings={**CONDITIONS, "conditions.dread": "hero", "size": 10}, seed=2),
             num_cycles=300)


def test_gymnasium_check_env_passes_with_conditions() -> None:
    check_env(ReliquaryGymEnv(opponent="greedy", side="key", settings=CONDITIONS))


def test_openspiel_random_sim_test_passes_with_conditions() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    for params in ({"modules": "conditions", "round_cap": 20},
                   {"modules": "conditions", "module_options": "conditions.dread:hero",
                    "size": 10, "round_cap": 20}):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, params)
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_dread_chance_actions_are_one_in_six(content: Content) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"modules": "conditions"})
    state = game.new_initial_state()
    while state.is_chance_node() or state.engine.stack[-1][0] != "play":  # type: ignore[attr-defined]
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    engine = state.engine  # type: ignore[attr-defined]
    attacker, target = engine._own[engine.current][0], engine._own[1 - engine.current][0]
    engine.stack.append(("dread", attacker.id, target.id, "Bolt", 1))
    engine._options = None
    odds = [p for _, p in state.chance_outcomes()]
    assert odds == pytest.approx([1 / 6] * 6)


def test_condition_planes_and_interact_actions(content: Content) -> None:
    settings = Settings(size=8, modules=("conditions",))
    s = (Builder(content, 8, modules=("conditions",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").build())
    s.add_condition(s.pieces[s.board[s.geometry.parse("c3")]], "burning", 2)
    observer = Observer(content, 8, settings=settings)
    names = observer.plane_names()
    for cond in ("burning", "poison", "fast", "slow", "paralyzed", "focus", "defensive"):
        assert f"condition:{cond}" in names
    planes = observer.named(observer.encode(s, 0))
    c3 = s.geometry.parse("c3")
    assert planes["condition:burning"].flat[c3] == pytest.approx(2 / 3)
    assert planes["condition:burning"].sum() == pytest.approx(2 / 3)
    space = ActionSpace(content, 8, settings)
    assert set(space.names) == {"focus", "guard", "tend"}
    for option in (Play("Pilgrim", "interact"), "focus", "guard", "tend"):
        assert space.decode(space.encode(option, 1), 1) == option
    for option in s.legal_options():
        assert space.decode(space.encode(option, 0), 0) == option
