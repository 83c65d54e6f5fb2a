"""Two evaluation terms by their documented amounts (docs/ai.md; issue 31: faults in
them passed): the Vigil as a clock — the side V2 favours gains `vigil_clock · (R + 1 −
r) / R`, r the round ends left, R the Vigil's start + 1 — and a Minion en prise —
`minion_en_prise` off when the player to move could strike one of the other's Minions,
nothing when it holds no card that reaches one or only one that deals no damage — and
`can_reset`, where an attack that reaches any enemy piece counts, damage or not."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from reliquary.ai.evaluation import Weights, can_reset, evaluate, home_threat, vigil_clock
from reliquary.engine import KEY, SKULL

from .test_vigil import _one_minion_up

EXTRA = 100.0


@pytest.mark.parametrize(("vigil", "eventful", "share"), [
    (6, False, 2 / 7), (3, False, 5 / 7), (1, False, 7 / 7), (1, True, 1 / 7)])
def test_the_side_v2_favours_gains_its_share_of_the_vigil_clock(
        build: Any, vigil: int, eventful: bool, share: float) -> None:
    # Skull's Hero has taken damage, Key's none: V2 favours Key. No cards: nobody can
    # reset, and no threat term moves with the clock's weight.
    state = (build().hero(KEY, "a1").hero(SKULL, "h8", hp=2).hands(key=[], skull=[])
             .set(vigil=vigil, eventful=eventful).build())
    assert vigil_clock(state) == (KEY, 7 if eventful else vigil)
    more = replace(Weights(), vigil_clock=Weights().vigil_clock + EXTRA)
    for player, sign in ((KEY, 1), (SKULL, -1)):
        gained = evaluate(state, player, more) - evaluate(state, player)
        assert gained == pytest.approx(sign * EXTRA * share)


@pytest.mark.parametrize(("hand", "minion", "en_prise"), [
    (["Pilgrim", "Crossroads", "Sidewind"], "d5", True),   # the Hero strikes next to it
    (["Pilgrim", "Crossroads", "Sidewind"], "d8", False),  # out of reach
    ([], "d5", False),                                     # no card: no strike at all
    (["Hook", "Veil", "Aegis"], "d7", False),              # Hook reaches 3 but deals none
])
def test_a_minion_the_mover_can_strike_is_en_prise(build: Any, hand: list[str], minion: str,
                                                   en_prise: bool) -> None:
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, minion)
             .hands(key=hand).set(turns_taken=[1, 1]).build())
    assert state.current_player == KEY
    more = replace(Weights(), minion_en_prise=Weights().minion_en_prise + EXTRA)
    assert evaluate(state, KEY, more) - evaluate(state, KEY) == pytest.approx(
        EXTRA if en_prise else 0.0)


@pytest.mark.parametrize(("hand", "minion", "resets"), [
    (["Hook", "Veil", "Aegis"], "d7", True),   # an attack that reaches resets, damage or not
    (["Hook", "Veil", "Aegis"], "d8", False),
    (["Veil", "Passage", "Aegis"], "d5", False),  # no attack reaches
])
def test_can_reset_counts_an_attack_that_reaches_even_without_damage(
        build: Any, hand: list[str], minion: str, resets: bool) -> None:
    state = (build().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, minion)
             .hands(key=hand).set(turns_taken=[1, 1]).build())
    assert can_reset(state, KEY) is resets


@pytest.mark.parametrize("share", [0.25, 0.5, 1.0])
def test_a_lead_regroup_can_undo_keeps_the_share_of_the_clock_its_weight_gives(
        build: Any, share: float) -> None:
    """`clock_regroupable`: the share of the clock a one-Minion lead keeps when the other
    side can REGROUP one back (0 by default: none)."""
    state = _one_minion_up(build, skull_pool=1)
    leader, left = vigil_clock(state)
    assert leader == KEY and state.can_regroup(SKULL)
    full = state.settings.vigil_start + 1
    clock = Weights().vigil_clock * (full + 1 - left) / full
    weights = Weights(clock_regroupable=share)
    assert evaluate(state, KEY, weights) - evaluate(state, KEY) == pytest.approx(share * clock)


@pytest.mark.parametrize("veiled", [False, True])
def test_a_veiled_carrier_is_no_home_threat(build: Any, veiled: bool) -> None:
    """docs/ai.md: the player to move threatens to carry the relic home when a card's
    MOVE lands its carrier on its back row — a veiled carrier cannot."""
    state = (build().hero(KEY, "b2").hero(SKULL, "h5").minion(SKULL, "d7", veiled=veiled)
             .carry(KEY, "d7").relic(SKULL, "a6")
             .hands(key=["Crossroads", "Sidewind", "Procession"],
                    skull=["Pilgrim", "Vault", "Litany"]).build())
    assert home_threat(state, SKULL) is not veiled
    assert not home_threat(state, KEY)  # Key carries nothing
