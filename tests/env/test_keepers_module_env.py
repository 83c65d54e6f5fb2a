"""The research environments with Keepers' Relics on (issue 24): PettingZoo's api_test,
Gymnasium's check_env and OpenSpiel's random_sim_test pass; the token planes (type, face,
value), the Wayshrine plane and the points scalars; the reveal's chance actions carry
M-KEEP-3's odds."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from reliquary.engine import Builder, Content, Settings
from reliquary.engine.modules.keepers import DATA, Token, kstate
from reliquary.env import ReliquaryGymEnv, env
from reliquary.env.encoding import Observer

pytestmark = pytest.mark.filterwarnings(
    "ignore:We recommend agents:UserWarning",
    "ignore:Observation space for each agent:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:.*render:UserWarning")

KEEPERS = {"modules": ["keepers"], "round_cap": 15}


def test_pettingzoo_api_test_passes_with_keepers() -> None:
    api_test(env(settings=KEEPERS, seed=1), num_cycles=400)


def test_gymnasium_check_env_passes_with_keepers() -> None:
    check_env(ReliquaryGymEnv(opponent="greedy", side="key", settings=KEEPERS))


def test_openspiel_random_sim_test_passes_with_keepers() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    for params in ({"modules": "keepers", "round_cap": 20},
                   {"modules": "keepers", "module_options": "keepers.target:3", "size": 10,
                    "round_cap": 20}):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, params)
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_reveal_and_type_chance_actions_have_mkeep3_odds() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
    from reliquary.env import openspiel as openspiel_game

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"modules": "keepers"})
    state = game.new_initial_state()
    while state.engine.stack[-1][0] != "token_type":  # type: ignore[attr-defined]
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    odds = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p
            for a, p in state.chance_outcomes()}
    assert sorted(odds.values()) == pytest.approx([1 / 3] * 3)
    engine = state.engine  # type: ignore[attr-defined]
    st = kstate(engine)
    st.tokens.append(Token(0, 0, 0))  # a face-down Icon, none seen yet: as a DELVE asks
    engine.stack.append(("reveal", len(st.tokens) - 1))
    engine._options = None
    reveal = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p
              for a, p in state.chance_outcomes()}
    assert sorted(reveal.values()) == pytest.approx([0.25, 0.25, 0.5])


def test_token_planes_wayshrine_plane_and_points(content: Content) -> None:
    settings = Settings(size=8, modules=("keepers",))
    s = (Builder(content, 8, modules=("keepers",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").minion(1, "f6").ruins("d4").build())
    st = kstate(s)
    st.tokens.append(Token(DATA.type_index("scroll"), 0, s.geometry.parse("d4")))
    st.tokens.append(Token(DATA.type_index("icon"), 2, carrier=s.board[s.geometry.parse("c3")]))
    shrine = s.pieces[s.board[s.geometry.parse("f6")]]
    s.add_condition(shrine, "wayshrine")
    st.shrine[1], st.points[0] = shrine.id, 2
    observer = Observer(content, 8, settings=settings)
    planes = observer.named(observer.encode(s, 0))
    d4, c3, f6 = (3, 3), (2, 2), (5, 5)  # (row, file), Key's point of view
    assert planes["keepers.token:scroll"][d4] == 1 and planes["keepers.token_face_up"][d4] == 0
    assert planes["keepers.token_value"][d4] == 0  # face down: no value anywhere
    assert planes["keepers.token:icon"][c3] == 1 and planes["keepers.token_carried"][c3] == 1
    assert planes["keepers.token_value"][c3] == pytest.approx(2 / 3)
    assert planes["condition:wayshrine"][f6] == 1
    assert planes["keepers.points.me"].max() == pytest.approx(2 / 5)
