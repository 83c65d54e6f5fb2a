"""The sequential tests step by step against their definitions (lab/sprt.py's
docstring, docs/lab.md "lab compare"): Wald's log-likelihood ratio after every
observation and the first crossing of its thresholds; the paired test fed only by
discordant pairs, two one-sided tests at α/2; the confidence sequence's running mean
and variance, its interval (with the variance's floor) and its decisions after the
burn-in."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from reliquary.lab.sprt import ConfidenceSequence, PairedSPRT, WaldSPRT, mixture_half_width


@pytest.mark.parametrize(("p0", "p1", "alpha", "beta", "rate", "seed"), [
    (0.5, 0.65, 0.05, 0.1, 0.5, 1), (0.5, 0.65, 0.05, 0.1, 0.7, 2),
    (0.5, 0.35, 0.1, 0.2, 0.3, 3), (0.3, 0.2, 0.01, 0.05, 0.25, 4)])
def test_wald_s_ratio_and_thresholds_at_every_step(p0: float, p1: float, alpha: float,
                                                   beta: float, rate: float, seed: int) -> None:
    rng = random.Random(seed)
    test = WaldSPRT(p0, p1, alpha, beta)
    upper, lower = math.log((1 - beta) / alpha), math.log(beta / (1 - alpha))
    assert (test.upper, test.lower) == pytest.approx((upper, lower))
    llr, decided, n = 0.0, None, 0
    for _ in range(3000):
        success = rng.random() < rate
        if decided is None:
            n += 1
            llr += math.log(p1 / p0) if success else math.log((1 - p1) / (1 - p0))
            decided = "H1" if llr >= upper else "H0" if llr <= lower else None
        assert test.update(success) == decided
        assert (test.n, test.decision) == (n, decided)
        assert test.llr == pytest.approx(llr)
    assert decided is not None


def test_wald_decides_on_reaching_a_threshold_exactly() -> None:
    # p1/p0 = 2 and (1-p1)/(1-p0) = 1/2 make the ratio move by ln 2 a step; with
    # α = β = 1/5 the thresholds are ±ln 4: two steps reach them, not one more.
    test = WaldSPRT(1 / 3, 2 / 3, alpha=0.2, beta=0.2)
    assert test.update(True) is None and test.update(True) == "H1" and test.n == 2
    test = WaldSPRT(1 / 3, 2 / 3, alpha=0.2, beta=0.2)
    assert test.update(False) is None and test.update(False) == "H0"


@pytest.mark.parametrize(("p0", "p1", "alpha", "beta"), [
    (0.5, 0.5, 0.05, 0.05), (0.0, 0.5, 0.05, 0.05), (0.5, 1.0, 0.05, 0.05),
    (1.0, 0.5, 0.05, 0.05), (0.5, 0.0, 0.05, 0.05), (0.5, 0.6, 0.0, 0.05),
    (0.5, 0.6, 1.0, 0.05), (0.5, 0.6, 0.05, 0.0), (0.5, 0.6, 0.05, 1.0)])
def test_wald_refuses_rates_and_errors_outside_0_to_1(p0: float, p1: float, alpha: float,
                                                     beta: float) -> None:
    """With its own message (a rate of 0 or 1 must not fail later, as a log of 0)."""
    bad_rates = not (0 < p0 < 1 and 0 < p1 < 1 and p0 != p1)
    with pytest.raises(ValueError, match="p0 and p1 must differ and lie strictly between 0 "
                                         "and 1" if bad_rates else
                                         "alpha and beta must lie strictly between 0 and 1"):
        WaldSPRT(p0, p1, alpha, beta)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_paired_test_is_two_one_sided_walds_on_the_discordant_pairs(seed: int) -> None:
    rng = random.Random(seed)
    paired = PairedSPRT(effect=0.2, alpha=0.1, beta=0.1)
    higher = WaldSPRT(0.5, 0.7, 0.05, 0.1)
    lower = WaldSPRT(0.5, 0.3, 0.05, 0.1)
    b_rate = rng.choice((0.3, 0.5, 0.7))
    for pairs in range(1, 2000):
        a, b = rng.random() < 0.5, rng.random() < b_rate
        if a != b:
            higher.update(b)
            lower.update(b)
        want = ("B higher" if higher.decision == "H1" else "B lower"
                if lower.decision == "H1" else "no difference"
                if higher.decision == lower.decision == "H0" else None)
        assert paired.update(a, b) == want
        assert paired.pairs == pairs
        assert (paired.higher.n, paired.lower.n) == (higher.n, lower.n)
    assert paired.decision is not None


def test_the_half_width_by_its_formula() -> None:
    for n, var, tau, alpha in ((1, 1.0, 0.5, 0.05), (40, 0.3, 0.1, 0.05), (500, 2.0, 0.2, 0.01)):
        t2 = tau * tau
        want = math.sqrt(2 * var * (var + n * t2) / (n * n * t2)
                         * (math.log(1 / alpha) + 0.5 * math.log((var + n * t2) / var)))
        assert mixture_half_width(n, var, tau, alpha) == pytest.approx(want)
    assert mixture_half_width(0, 1.0, 0.5) == math.inf
    assert mixture_half_width(10, 0.0, 0.5) == pytest.approx(mixture_half_width(10, 1e-12, 0.5))


@pytest.mark.parametrize(("shift", "seed"), [(0.0, 1), (0.3, 2), (-0.3, 3), (0.02, 4)])
def test_the_confidence_sequence_at_every_step(shift: float, seed: int) -> None:
    rng = random.Random(seed)
    seq = ConfidenceSequence(tau=0.2, margin=0.1, burn_in=20)
    xs: list[float] = []
    for _ in range(600):
        x = rng.choice((-1.0, 0.0, 0.0, 1.0)) + shift
        xs.append(x)
        got = seq.update(x)
        assert seq.n == len(xs)
        assert seq.mean == pytest.approx(statistics.fmean(xs))
        if len(xs) < 2:
            assert math.isnan(seq.sample_variance)
            assert seq.interval == (-math.inf, math.inf)
        else:
            var = statistics.variance(xs)
            assert seq.sample_variance == pytest.approx(var)
            half = mixture_half_width(len(xs), max(var, 0.2 * 0.2 / 100), 0.2, 0.05)
            assert seq.interval == pytest.approx((seq.mean - half, seq.mean + half))
        low, high = seq.interval
        want = (None if len(xs) < 20 else "B higher" if low > 0 else "B lower" if high < 0
                else "no difference" if low > -0.1 and high < 0.1 else None)
        assert got == want == seq.decision


def test_a_known_variance_and_the_floor_for_identical_values() -> None:
    known = ConfidenceSequence(tau=0.5, margin=0.2, variance=0.25, burn_in=1)
    assert known.interval == pytest.approx((-mixture_half_width(0, 0.25, 0.5),
                                            mixture_half_width(0, 0.25, 0.5)))
    known.update(0.1)
    assert known.interval == pytest.approx((0.1 - mixture_half_width(1, 0.25, 0.5),
                                            0.1 + mixture_half_width(1, 0.25, 0.5)))
    same = ConfidenceSequence(tau=0.5, margin=0.2, burn_in=5)
    for _ in range(30):
        same.update(0.0)
    # no spread at all: the variance's floor τ²/100 keeps the interval open
    half = mixture_half_width(30, 0.25 / 100, 0.5)
    assert same.interval == pytest.approx((-half, half))
    assert same.decision == ("no difference" if half < 0.2 else None)
