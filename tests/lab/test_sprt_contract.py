"""The sequential tests' defaults and the edges of their decisions (issue 31, by class:
the reference tests give every argument, so a changed default went unseen): Wald's α =
β = 0.05 and its fresh state, the paired test's effect 0.15, α 0.05 (α/2 a side) and β
0.1, the half-width's α 0.05, the confidence sequence's α 0.05, burn-in of 20 and
plug-in variance; an interval touching 0 or ±margin decides nothing (the docstring's
strict "within ±margin", "low > 0"), and a known variance below the floor τ²/100 is
raised to it."""

from __future__ import annotations

import math

import pytest

from reliquary.lab.sprt import ConfidenceSequence, PairedSPRT, WaldSPRT, mixture_half_width


def test_wald_s_defaults_and_fresh_state() -> None:
    test = WaldSPRT(0.5, 0.6)
    assert (test.alpha, test.beta, test.llr, test.n, test.decision) == (0.05, 0.05, 0.0, 0,
                                                                       None)
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.lower == pytest.approx(math.log(0.05 / 0.95))
    test.update(True)
    assert test.llr == pytest.approx(math.log(0.6 / 0.5)) and test.n == 1
    test.update(False)
    assert test.llr == pytest.approx(math.log(0.6 / 0.5) + math.log(0.4 / 0.5))


def test_the_paired_test_s_defaults() -> None:
    paired = PairedSPRT()
    assert (paired.effect, paired.alpha, paired.beta, paired.pairs) == (0.15, 0.05, 0.1, 0)
    for side, p1 in ((paired.higher, 0.65), (paired.lower, 0.35)):
        assert (side.p0, side.p1, side.alpha, side.beta) == pytest.approx((0.5, p1, 0.025, 0.1))
        assert side.n == 0 and side.decision is None
    assert paired.decision is None
    assert paired.update(True, True) is None and paired.pairs == 1 and paired.higher.n == 0


def test_the_half_width_s_default_alpha() -> None:
    assert mixture_half_width(30, 0.4, 0.2) == mixture_half_width(30, 0.4, 0.2, 0.05)
    assert mixture_half_width(30, 0.4, 0.2) != mixture_half_width(30, 0.4, 0.2, 0.1)


def test_the_confidence_sequence_s_defaults() -> None:
    seq = ConfidenceSequence(tau=0.2, margin=0.1)
    assert (seq.alpha, seq.burn_in, seq.variance, seq.n, seq.mean) == (0.05, 20, None, 0, 0.0)
    for _ in range(19):
        seq.update(5.0)
    assert seq.decision is None                   # 19 < 20: still burning in
    seq.update(5.0)
    assert seq.decision == "B higher"


def _at(x: float, n: int, variance: float, tau: float, margin: float) -> ConfidenceSequence:
    seq = ConfidenceSequence(tau=tau, margin=margin, burn_in=1, variance=variance)
    for _ in range(n):
        seq.update(x)
    return seq


def test_an_interval_touching_zero_decides_nothing() -> None:
    tau, var, n = 0.5, 0.3, 40
    half = mixture_half_width(n, var, tau)
    assert _at(half, n, var, tau, 0.01).interval == pytest.approx((0.0, 2 * half))
    assert _at(half, n, var, tau, 0.01).decision is None          # low = 0 is not > 0
    assert _at(-half, n, var, tau, 0.01).decision is None         # high = 0 is not < 0
    assert _at(half * 1.01, n, var, tau, 0.01).decision == "B higher"
    assert _at(-half * 1.01, n, var, tau, 0.01).decision == "B lower"


def test_an_interval_reaching_the_margin_is_not_within_it() -> None:
    tau, var, n = 0.5, 0.3, 40
    half = mixture_half_width(n, var, tau)
    assert _at(0.0, n, var, tau, half).interval == (-half, half)
    assert _at(0.0, n, var, tau, half).decision is None
    assert _at(0.0, n, var, tau, half * 1.001).decision == "no difference"


def test_a_known_variance_below_the_floor_is_raised_to_it() -> None:
    tau = 0.5
    seq = _at(0.0, 10, 1e-6, tau, 1.0)
    half = mixture_half_width(10, tau * tau / 100, tau)
    assert seq.interval == pytest.approx((-half, half))
    above = _at(0.0, 10, 0.5, tau, 1.0)
    assert above.interval == pytest.approx((-mixture_half_width(10, 0.5, tau),
                                            mixture_half_width(10, 0.5, tau)))
