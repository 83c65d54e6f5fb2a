"""The values of the observation planes, not only their shape and range (issue 31): HP
scaled by the largest Hero HP, regroups left, rounds against the cap, the other scalars,
each from both points of view; and the empty action mask of the agent not to move."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reliquary.engine import KEY, SKULL, Builder, Content, State
from reliquary.env.encoding import Observer

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")

from reliquary.env import raw_env


def planes(state: State, player: int) -> dict[str, np.ndarray]:
    """Each plane of ``player``'s observation by name, as a (rank, file) array, whatever
    the observer's layout (channels first or last)."""
    observer = Observer(state.content, state.geometry.size)
    names = observer.plane_names()
    obs = observer.encode(state, player)
    last = obs.shape[-1] == len(names)
    return {name: obs[:, :, i] if last else obs[i] for i, name in enumerate(names)}


def scalar(named: dict[str, np.ndarray], name: str) -> float:
    plane = named[name]
    assert (plane == plane[0, 0]).all(), f"{name} is not constant over the board"
    return float(plane[0, 0])


def test_the_largest_hero_hp_of_the_content_scales_hp(content: Content) -> None:
    largest = max(f.hero_hp for f in content.factions)
    assert largest == 5  # the package's content: one faction's Hero has 5 HP
    state = (Builder(content).hero(KEY, "b2", hp=4).hero(SKULL, "g7", hp=2)
             .minion(SKULL, "c3").build())
    hp = planes(state, KEY)["hp"]
    assert hp[1, 1] == pytest.approx(4 / 5)  # b2: file b, rank 2
    assert hp[6, 6] == pytest.approx(2 / 5)
    assert hp[2, 2] == pytest.approx(1 / 5)
    assert hp[0, 0] == 0.0
    turned = planes(state, SKULL)["hp"]  # turned half a turn: b2 is Skull's g7
    assert turned[6, 6] == pytest.approx(4 / 5)
    assert turned[1, 1] == pytest.approx(2 / 5)


@pytest.mark.parametrize(("limit", "regroups", "key_left", "skull_left"), [
    (None, [3, 0], 1.0, 1.0),      # no limit: always all of them
    (4, [1, 3], 0.75, 0.25),
    (2, [2, 5], 0.0, 0.0),         # spent (and never below nothing)
    (0, [0, 0], 0.0, 0.0),         # VAR1 0: never
])
def test_regroups_left_plane(content: Content, limit: int | None, regroups: list[int],
                             key_left: float, skull_left: float) -> None:
    state = (Builder(content, regroup_limit=limit).hero(KEY, "d1").hero(SKULL, "e8")
             .set(regroups=regroups).build())
    for player, own, enemy in ((KEY, key_left, skull_left), (SKULL, skull_left, key_left)):
        named = planes(state, player)
        assert scalar(named, "own_regroups_left") == pytest.approx(own)
        assert scalar(named, "enemy_regroups_left") == pytest.approx(enemy)


def test_rounds_vigil_pools_and_turn_planes(content: Content) -> None:
    minions = content.board_row(8).minions
    state = (Builder(content, round_cap=20).hero(KEY, "d1").hero(SKULL, "e8")
             .set(rounds=5, vigil=3, turns_taken=[0, 1], first=SKULL, eventful=True)
             .pools(key=2, skull=1).build())
    relics_down = state.relic_square(0) >= 0 and state.relic_square(1) >= 0
    expected: dict[int, dict[str, Any]] = {
        KEY: {"rounds": 5 / 20, "vigil": 3 / 6, "eventful": 1.0, "own_pool": 2 / minions,
              "enemy_pool": 1 / minions, "goes_first": 0.0, "to_move": 1.0,
              "own_first_turn": float(relics_down), "enemy_first_turn": 0.0},
        SKULL: {"rounds": 5 / 20, "vigil": 3 / 6, "eventful": 1.0, "own_pool": 1 / minions,
                "enemy_pool": 2 / minions, "goes_first": 1.0, "to_move": 0.0,
                "own_first_turn": 0.0, "enemy_first_turn": float(relics_down)},
    }
    for player, values in expected.items():
        named = planes(state, player)
        for name, value in values.items():
            assert scalar(named, name) == pytest.approx(value), (player, name)


def test_rounds_plane_against_another_cap(content: Content) -> None:
    state = Builder(content, round_cap=80).hero(KEY, "d1").hero(SKULL, "e8").set(
        rounds=20).build()
    assert scalar(planes(state, KEY), "rounds") == pytest.approx(0.25)


def test_the_agent_not_to_move_gets_an_empty_mask() -> None:
    game = raw_env(settings={"round_cap": 15}, seed=4)
    game.reset(seed=4)
    for _ in range(40):
        if any(game.terminations.values()):
            break
        mover = game.agent_selection
        other = next(a for a in game.agents if a != mover)
        mine, theirs = game.observe(mover), game.observe(other)
        legal = game.actions.legal_actions(game.engine)
        assert legal and np.flatnonzero(mine["action_mask"]).tolist() == legal
        assert theirs["action_mask"].shape == mine["action_mask"].shape
        assert not theirs["action_mask"].any()
        game.step(legal[0])


def test_piece_flags_and_back_rows(content: Content) -> None:
    state = (Builder(content).hero(KEY, "d1").hero(SKULL, "e8")
             .minion(KEY, "b3", harrowed=True).minion(KEY, "c3", veiled=True)
             .minion(SKULL, "f6", aegis=True).build())
    key = planes(state, KEY)
    for name, square in (("harrowed", (2, 1)), ("veiled", (2, 2)), ("aegis", (5, 5))):
        assert key[name][square] == 1.0, name
        assert key[name].sum() == 1.0, name  # that piece only
    for player in (KEY, SKULL):  # each sees their own back row at row 0
        named = planes(state, player)
        assert named["own_back_row"][0].all() and not named["own_back_row"][1:].any()
        assert named["enemy_back_row"][7].all() and not named["enemy_back_row"][:7].any()


def test_placed_planes_count_each_side_s_pieces_placed_out_of_all(content: Content) -> None:
    """The setup's placing (S6): pieces placed over the Hero and Minions a side places,
    so a side that has placed them all reads 1."""
    minions = content.board_row(8).minions
    state = (Builder(content).hero(KEY, "d1").hero(SKULL, "e8")
             .set(placed=[minions + 1, 2]).build())
    for player, own, enemy in ((KEY, minions + 1, 2), (SKULL, 2, minions + 1)):
        named = planes(state, player)
        assert scalar(named, "own_placed") == pytest.approx(own / (minions + 1)), player
        assert scalar(named, "enemy_placed") == pytest.approx(enemy / (minions + 1)), player


def test_a_decided_game_rewards_the_winner_1_and_the_loser_minus_1() -> None:
    """Random play under a short Vigil (V2 decides most games); a draw gives both 0."""
    decided = 0
    for seed in range(6):
        game = raw_env(settings={"round_cap": 30, "vigil_start": 1}, quick_setup=True)
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {"key": 0.0, "skull": 0.0}
        for agent in game.agent_iter():
            obs, reward, terminated, truncated, _ = game.last()
            totals[agent] += reward
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        winner = game.engine.winner
        if winner is None:
            assert totals == {"key": 0.0, "skull": 0.0}
            continue
        decided += 1
        won, lost = ("key", "skull") if winner == KEY else ("skull", "key")
        assert (totals[won], totals[lost]) == (1.0, -1.0), seed
    assert decided


def test_the_environment_takes_settings_as_an_object_or_as_a_dict() -> None:
    from reliquary.engine import Settings

    given = Settings(round_cap=30, vigil_start=4)
    assert raw_env(settings=given).settings == given
    assert raw_env(settings={"round_cap": 30, "vigil_start": 4}).settings == given
