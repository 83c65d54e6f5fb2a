"""The sequential tests against simulated coin flips of known bias (seeded)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reliquary.lab.sprt import ConfidenceSequence, PairedSPRT, WaldSPRT, mixture_half_width

RUNS = 1000


def wald_errors(p_true: float, seed: int) -> tuple[float, float]:
    """Share of runs ending in H1 and in H0, for flips of a coin with ``p_true``."""
    rng = np.random.default_rng(seed)
    h1 = h0 = 0
    for _ in range(RUNS):
        test = WaldSPRT(0.5, 0.6, alpha=0.05, beta=0.05)
        flips = rng.random(5000) < p_true
        for flip in flips:
            if test.update(bool(flip)) is not None:
                break
        h1 += test.decision == "H1"
        h0 += test.decision == "H0"
    return h1 / RUNS, h0 / RUNS


def test_wald_sprt_error_rates_are_within_their_bounds() -> None:
    # Wald's thresholds bound the errors by α/(1−β) and β/(1−α) (0.0526); three standard
    # errors of the simulation (√(0.05·0.95/1000) ≈ 0.007) on top.
    bound = 0.05 / 0.95 + 3 * math.sqrt(0.05 * 0.95 / RUNS)
    false_h1, true_h0 = wald_errors(0.5, seed=1)
    assert false_h1 <= bound
    assert true_h0 >= 1 - bound
    true_h1, false_h0 = wald_errors(0.6, seed=2)
    assert false_h0 <= bound
    assert true_h1 >= 1 - bound


def test_wald_sprt_stops_and_keeps_its_decision() -> None:
    test = WaldSPRT(0.5, 0.9)
    for _ in range(50):
        test.update(True)
    assert test.decision == "H1" and test.n < 50
    assert test.update(False) == "H1"
    with pytest.raises(ValueError):
        WaldSPRT(0.5, 0.5)


def paired_decisions(pa: float, pb: float, seed: int, runs: int = 400) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    out: dict[str, int] = {}
    for _ in range(runs):
        test = PairedSPRT(effect=0.15, alpha=0.05, beta=0.1)
        a, b = rng.random(20000) < pa, rng.random(20000) < pb
        for x, y in zip(a, b, strict=True):
            if test.update(bool(x), bool(y)) is not None:
                break
        key = test.decision or "undecided"
        out[key] = out.get(key, 0) + 1
    return out


def test_paired_sprt_on_two_coins() -> None:
    same = paired_decisions(0.3, 0.3, seed=3)
    wrong = same.get("B higher", 0) + same.get("B lower", 0)
    assert wrong / 400 <= 0.05 / 0.9 + 3 * math.sqrt(0.05 * 0.95 / 400)
    higher = paired_decisions(0.2, 0.45, seed=4)   # B's share of discordant pairs ≈ 0.77
    assert higher.get("B higher", 0) / 400 >= 0.9
    assert higher.get("B lower", 0) == 0


def cs_decisions(pa: float, pb: float, seed: int, runs: int = 300, n: int = 3000,
                 ) -> tuple[dict[str, int], list[int]]:
    """Feed B − A differences of two coins to the confidence sequence, looking after
    every pair (the always-valid way), until it decides or n pairs."""
    rng = np.random.default_rng(seed)
    out: dict[str, int] = {}
    used = []
    for _ in range(runs):
        cs = ConfidenceSequence(tau=0.05, margin=0.05, burn_in=20)
        diffs = (rng.random(n) < pb).astype(float) - (rng.random(n) < pa).astype(float)
        for d in diffs:
            if cs.update(float(d)) is not None:
                break
        key = cs.decision or "undecided"
        out[key] = out.get(key, 0) + 1
        used.append(cs.n)
    return out, used


def test_confidence_sequence_false_alarms_within_alpha_when_coins_agree() -> None:
    out, _ = cs_decisions(0.5, 0.5, seed=5)
    wrong = out.get("B higher", 0) + out.get("B lower", 0)
    assert wrong / 300 <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 300)


def test_confidence_sequence_finds_a_real_difference_with_the_right_sign() -> None:
    out, used = cs_decisions(0.5, 0.7, seed=6)
    assert out.get("B higher", 0) / 300 >= 0.95
    assert out.get("B lower", 0) == 0
    assert np.median(used) < 1000


def test_confidence_sequence_half_width_shrinks_and_holds_the_mean() -> None:
    widths = [mixture_half_width(n, 0.25, 0.05) for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < 0.03
    cs = ConfidenceSequence(tau=1.0, margin=0.5, burn_in=2)
    for x in (1.0, 2.0, 3.0):
        cs.update(x)
    assert cs.mean == 2.0 and cs.sample_variance == 1.0
    low, high = cs.interval
    assert low < 2.0 < high
