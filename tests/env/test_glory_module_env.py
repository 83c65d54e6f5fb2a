"""The research environments with Glory & Support on (issue 25): PettingZoo's api_test,
Gymnasium's check_env and OpenSpiel's random_sim_test pass; the marker planes, the Glory
and objective scalars, and the objective and upgrade actions in the fixed action space."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from reliquary.engine import Builder, Content, Settings
from reliquary.engine.modules import glory as g
from reliquary.env import ReliquaryGymEnv, env
from reliquary.env.encoding import ActionSpace, Observer

pytestmark = pytest.mark.filterwarnings(
    "ignore:We recommend agents:UserWarning",
    "ignore:Observation space for each agent:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:.*render:UserWarning")

GLORY = {"modules": ["glory"], "glory.phases": 1}


def test_pettingzoo_api_test_passes_with_glory() -> None:
    api_test(env(settings=GLORY, seed=1), num_cycles=400)


def test_gymnasium_check_env_passes_with_glory() -> None:
    check_env(ReliquaryGymEnv(opponent="greedy", side="key", settings=GLORY))


def test_openspiel_random_sim_test_passes_with_glory() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    for params in ({"modules": "glory", "module_options": "glory.phases:1"},
                   {"modules": "glory", "size": 10,
                    "module_options": "glory.phases:1;glory.support:attack;glory.shrine:on"}):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, params)
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_objective_draw_is_a_uniform_chance_node_in_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"modules": "glory"})
    state = game.new_initial_state()
    while state.engine.stack[-1][0] != g.DRAW:  # type: ignore[attr-defined]
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    odds = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p
            for a, p in state.chance_outcomes()}
    assert {n.removeprefix("chance:") for n in odds} == {o.id for o in g.DATA.objective}
    assert sorted(odds.values()) == pytest.approx([1 / 12] * 12)


def test_marker_planes_glory_scalars_and_objective_actions(content: Content) -> None:
    settings = Settings(size=8, modules=("glory",))
    s = (Builder(content, 8, modules=("glory",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").minion(1, "f6").build())
    state = g.glory_state(s)
    state.markers = [s.geometry.parse("c3"), s.geometry.parse("d5")]
    state.glory = [4, 2]
    state.hands = [["Muster", "Seize"], ["Cull"]]
    observer = Observer(content, 8, settings=settings)
    planes = observer.named(observer.encode(s, 0))
    c3, d5 = (2, 2), (4, 3)  # (row, file), Key's point of view
    assert planes["glory.marker"][c3] == 1 and planes["glory.marker"][d5] == 1
    assert planes["glory.marker"].sum() == 2
    assert planes["glory.glory_own"].max() == pytest.approx(4 / 20)
    assert planes["glory.glory_enemy"].max() == pytest.approx(2 / 20)
    assert planes["glory.markers_own"].max() == pytest.approx(1 / 3)
    assert planes["glory.hand_own_Muster"].max() == 1
    assert planes["glory.hand_enemy_Cull"].max() == 1
    assert planes["glory.hand_enemy_Muster"].max() == 0
    actions = ActionSpace(content, 8, settings=settings)
    for oid in [o.id for o in g.DATA.objective] + [u.id for u in g.DATA.upgrade]:
        assert oid in actions.names
        assert actions.decode(actions.encode(oid, 0), 0) == oid
