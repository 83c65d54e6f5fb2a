"""Scenario tests for the decisions D20–D25 and the variants VAR1–VAR4 of RULES.md §10–§11
(named rule settings, off by default), set up with the Builder or played from a new game."""

from __future__ import annotations

import random

import pytest

import reliquary
from reliquary.engine import (
    KEY,
    SKULL,
    Game,
    NotationError,
    Settings,
    position_from_dict,
    position_to_dict,
    replay,
)

from .scenario import act, at, hp, kind, turn_passed_to
from .scenario import sorted_options as options


def quiet_turn(state, frm: str, to: str, card: str) -> None:
    act(state, f"{card}:move", frm, to)


# ---------------------------------------------------------------------- D20
def test_D20_hollow_kin_swap_needs_los_to_a_carrying_minion(build):
    state = (build(factions=("hollow-kin", "pyre-choir")).hero(KEY, "d4").minion(KEY, "f6")
             .minion(KEY, "b4").hero(SKULL, "h8").minion(SKULL, "c5").ruins("e5")
             .carry(SKULL, "f6").build())
    act(state, "Pilgrim:attack", "d4", "pass", "c5")
    assert kind(state) == "swap"
    assert options(state) == ["b4", "pass"]  # f6 carries, but the Ruin on e5 blocks (D20)


def test_D20_enemy_carrier_still_ignores_los_RL4(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "f6").ruins("e5")
             .carry(KEY, "f6").hands(key=["Veil", "Bolt", "Smite"]).build())
    act(state, "Veil:attack", "d4")
    assert options(state) == ["f6"]


# ---------------------------------------------------------------------- D21
def test_D21_escort_step_is_optional_but_gale_step_is_not(build):
    state = (build().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8").build())
    act(state, "Pilgrim:move", "d4", "d5")
    assert kind(state) == "escort" and "pass" in options(state)
    gale = (build().hero(KEY, "d4").hero(SKULL, "d6")
            .hands(key=["Gale", "Bolt", "Smite"]).build())
    act(gale, "Gale:attack", "d4")
    assert kind(gale) == "gale_step" and "pass" not in options(gale)


# ---------------------------------------------------------------------- D22
def test_D22_gale_step_must_end_next_to_an_enemy(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "d6")
             .hands(key=["Gale", "Bolt", "Smite"]).build())
    act(state, "Gale:attack", "d4")
    assert options(state) == ["c5", "d5", "e5"]
    far = (build().hero(KEY, "d4").hero(SKULL, "d7")
           .hands(key=["Gale", "Bolt", "Smite"]).build())
    assert "Gale:attack" not in options(far)  # no step ends next to an enemy


# ---------------------------------------------------------------------- D23
def test_D23_grave_tide_returns_a_minion_killed_by_its_own_ordeal_roll(build):
    state = (build(factions=("grave-tide", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4")
             .hero(SKULL, "h8").minion(SKULL, "e5")
             .hands(key=["Ordeal", "Bolt", "Smite"]).build())
    act(state, "Ordeal:attack", "d4", "e5", "1")
    assert at(state, "d4") is None
    decision = state.decision()
    assert decision.kind == "grave_return" and decision.player == KEY
    act(state, "b1")
    assert at(state, "b1") is not None and state.pool[KEY] == 0
    assert state.is_spent(KEY, "grave_return")


# ---------------------------------------------------------------------- D24
@pytest.mark.parametrize("size", [8, 9, 10, 11, 12])
def test_D24_only_an_odd_board_has_a_centre_square_without_ruins(content, size):
    state = reliquary.new_game(size=size, content=content)
    offered = set(state.legal_options())
    inner = set(range(size, size * size - size))
    if size % 2:
        assert offered == inner - {(size * size - 1) // 2}
    else:
        assert offered == inner


# ---------------------------------------------------------------------- D25
def test_D25_rapture_on_a_high_roll_may_stop_before_the_first_step(build):
    state = (build().hero(KEY, "d4").hero(SKULL, "h8")
             .hands(key=["Rapture", "Bolt", "Smite"]).build())
    act(state, "Rapture:attack", "d4", "5")
    assert "pass" in options(state)
    act(state, "pass")
    assert at(state, "d4").hero and turn_passed_to(state, SKULL)


# ---------------------------------------------------------------------- settings
def test_variants_are_off_by_default_and_validated():
    settings = Settings()
    assert settings.variants() == {}
    assert (settings.regroup_limit, settings.vigil_reset, settings.vigil_start,
            settings.killed_minions) == (None, "any", 6, "pool")
    for bad, field in [({"regroup_limit": -1}, "regroup_limit"),
                       ({"regroup_limit": True}, "regroup_limit"),
                       ({"vigil_reset": "minion"}, "vigil_reset"),
                       ({"vigil_start": 0}, "vigil_start"),
                       ({"vigil_start": 7}, "vigil_start"),
                       ({"killed_minions": "graveyard"}, "killed_minions"),
                       ({"round_cap": 0}, "round_cap"),
                       ({"regroups": 2}, "regroups")]:
        with pytest.raises(ValueError, match=field):
            Settings.from_dict(bad)


def test_settings_from_an_old_record_take_the_defaults():
    assert Settings.from_dict({"size": 9, "los": "straight", "first_turn": "no_damage",
                               "round_cap": 200}) == Settings(size=9, los="straight")


# ---------------------------------------------------------------------- VAR1
def test_VAR1_regroup_limit_caps_regroups_per_player(build):
    state = (build(regroup_limit=1).hero(KEY, "d4").hero(SKULL, "h8").pools(key=2).build())
    assert "Pilgrim:regroup" in options(state)
    act(state, "Pilgrim:regroup", "a1")
    assert state.regroups == [1, 0] and state.pool[KEY] == 1
    quiet_turn(state, "h8", "g7", "Litany")
    assert not any(o.endswith(":regroup") for o in options(state))  # one left in the pool
    assert not state.can_regroup(KEY)
    unlimited = build().hero(KEY, "d4").hero(SKULL, "h8").pools(key=2).build()
    act(unlimited, "Pilgrim:regroup", "a1")
    quiet_turn(unlimited, "h8", "g7", "Litany")
    assert any(o.endswith(":regroup") for o in options(unlimited))


def test_VAR1_zero_regroups_means_never(build):
    state = build(regroup_limit=0).hero(KEY, "d4").hero(SKULL, "h8").pools(key=1).build()
    assert not any(o.endswith(":regroup") for o in options(state))
    assert not state.can_regroup(KEY)


# ---------------------------------------------------------------------- VAR2
def test_VAR2_vigil_reset_hero_ignores_a_minions_hp(build):
    def after_minion_kill(**settings):
        state = (build(**settings).hero(KEY, "d4").minion(KEY, "d5").hero(SKULL, "h8")
                 .minion(SKULL, "d6").set(vigil=3).build())
        act(state, "Pilgrim:attack", "d5", "pass", "d6")
        assert at(state, "d6") is None
        quiet_turn(state, "h8", "g7", "Litany")
        return state.vigil

    assert after_minion_kill() == 6                      # V1: any HP lost
    assert after_minion_kill(vigil_reset="hero") == 2    # VAR2: a Minion's does not


def test_VAR2_hero_damage_and_relics_still_reset(build):
    state = (build(vigil_reset="hero").hero(KEY, "d4").hero(SKULL, "d5").set(vigil=3)
             .build())
    act(state, "Pilgrim:attack", "d4", "d5")
    assert hp(state, "d5") < 4
    quiet_turn(state, "d5", "d6", "Litany")
    assert state.vigil == 6
    relic = (build(vigil_reset="hero").hero(KEY, "d4").hero(SKULL, "h8").relic(SKULL, "d5")
             .set(vigil=3).build())
    act(relic, "Pilgrim:move", "d4", "d5")
    assert relic.carrier_of(SKULL) is not None
    quiet_turn(relic, "h8", "g7", "Litany")
    assert relic.vigil == 6


# ---------------------------------------------------------------------- VAR3
def test_VAR3_vigil_start_is_the_start_and_the_reset_value(build, content):
    game = reliquary.new_game(vigil_start=3, content=content)
    assert game.vigil == 3
    state = (build(vigil_start=3).hero(KEY, "d4").hero(SKULL, "d5").set(vigil=1).build())
    act(state, "Pilgrim:attack", "d4", "d5")
    quiet_turn(state, "d5", "d6", "Litany")
    assert state.vigil == 3  # eventful round: reset to 3, not 6
    rite = (build(vigil_start=2).hero(KEY, "d4").hero(SKULL, "h8").rites(key="Exhumation")
            .set(vigil=1).build())
    act(rite, "Pilgrim:rite", "a1")
    assert rite.vigil == 2  # T5: a rite sets the Vigil to its reset value


def test_VAR3_the_deal_at_S4_sets_the_vigil_to_its_start(content):
    """S4 sets the Vigil when the cards are dealt: under VAR3 to ``vigil_start``, not 6.
    Played through the setup (random choices and chance) to the first turn."""
    from reliquary.ai import sample_chance

    for start in (3, 5):
        rng = random.Random(start)
        state = reliquary.new_game(vigil_start=start, content=content)
        dealt = False
        while state.decision().kind != "play":
            if state.is_chance:
                dealt = True
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_options()))
        assert dealt and state.dealt and state.first >= 0
        assert state.vigil == start


def test_VAR3_a_short_vigil_ends_quiet_games_sooner(build):
    state = build(vigil_start=2).hero(KEY, "a1").hero(SKULL, "h8").set(vigil=2).build()
    quiet_turn(state, "a1", "a2", "Pilgrim")
    quiet_turn(state, "h8", "g7", "Litany")
    assert state.vigil == 1 and not state.is_terminal
    quiet_turn(state, "a2", "a3", "Crossroads")
    quiet_turn(state, "g7", "g6", "Pilgrim")
    assert state.is_terminal and state.result.reason == "vigil"


# ---------------------------------------------------------------------- VAR4
def test_VAR4_removed_minions_never_reach_the_pool(build):
    state = (build(killed_minions="removed").hero(KEY, "d4").minion(KEY, "d5")
             .hero(SKULL, "h8").minion(SKULL, "d6").build())
    act(state, "Pilgrim:attack", "d5", "pass", "d6")
    assert at(state, "d6") is None and state.pool == [0, 0]
    pooled = (build().hero(KEY, "d4").minion(KEY, "d5").hero(SKULL, "h8")
              .minion(SKULL, "d6").build())
    act(pooled, "Pilgrim:attack", "d5", "pass", "d6")
    assert pooled.pool == [0, 1]


def test_VAR4_removed_means_no_regroup_and_no_harrow(build):
    state = (build(killed_minions="removed").hero(KEY, "d4").minion(KEY, "d5")
             .hero(SKULL, "h8").minion(SKULL, "d6").rites(key="Harrow").build())
    act(state, "Pilgrim:attack", "d5", "pass", "d6")
    quiet_turn(state, "h8", "g7", "Litany")
    assert not any(o.endswith((":regroup", ":rite")) for o in options(state))


def test_VAR4_grave_tide_passive_still_returns_its_minion_T7(build):
    # The passive is card text (T7): it returns the Minion at once, before it would leave.
    state = (build(factions=("pyre-choir", "grave-tide"), killed_minions="removed")
             .hero(KEY, "d4").hero(SKULL, "e8").minion(SKULL, "d6").minion(SKULL, "d5")
             .build())
    act(state, "Pilgrim:attack", "d4", "d6")
    assert kind(state) == "grave_return"
    act(state, "a8")
    assert at(state, "a8") is not None and state.pool == [0, 0]


# ---------------------------------------------------------------------- records
def _random_game(content, settings: Settings, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(content, settings)
    while not game.state.is_terminal:
        options_now = game.state.legal_options()
        game.apply(rng.choice(options_now))
    return game


@pytest.mark.parametrize("variants", [
    {"regroup_limit": 1}, {"vigil_reset": "hero"}, {"vigil_start": 3},
    {"killed_minions": "removed"},
    {"regroup_limit": 0, "vigil_reset": "hero", "vigil_start": 4, "killed_minions": "removed"},
])
def test_VAR1_to_VAR4_records_and_positions_keep_the_variants(content, variants):
    settings = Settings(round_cap=60, **variants)
    for seed in range(3):
        game = _random_game(content, settings, seed)
        record = game.record()
        assert {k: record["settings"][k] for k in variants} == variants
        again = replay(record, content)
        assert again.state.result == game.state.result
        assert again.settings == settings
        position = position_to_dict(game.state)
        back = position_from_dict(position, content)
        assert back.settings == settings and back.regroups == game.state.regroups
        assert position_to_dict(back) == position


def test_concede_timeout_is_recorded_and_replays(content):
    game = _random_game(content, Settings(round_cap=5), 1)
    game = Game(content)
    rng = random.Random(4)
    for _ in range(40):
        game.apply(rng.choice(game.state.legal_options()))
    game.concede(SKULL, "timeout")
    record = game.record()
    assert record["result"]["reason"] == "timeout" and record["result"]["winner"] == "key"
    assert replay(record, content).state.result == game.state.result
    record["result"]["winner"] = None
    with pytest.raises(NotationError, match="winner"):
        replay(record, content)
