"""Sequential tests for ``lab compare``: play until the evidence decides.

- :class:`WaldSPRT`: Wald's sequential probability ratio test of a Bernoulli rate,
  H0: p = p0 against H1: p = p1. Errors are bounded by α and β (to first order; with
  Wald's thresholds the true errors are at most α/(1−β) and β/(1−α)).
- :class:`PairedSPRT`: whether stream B's Bernoulli rate differs from stream A's, from
  the discordant pairs only (A yes/B no, A no/B yes): under "no difference" B is the
  "yes" of a discordant pair with probability ½. Two one-sided Wald tests, each at α/2.
- :class:`ConfidenceSequence`: an always-valid 95% interval for the mean of i.i.d.
  differences (the normal-mixture sequential test of Robbins, as in Johari et al.'s
  mSPRT): with probability ≥ 1−α it holds the true mean at every n at once, so it may be
  looked at after every game and stopped whenever it decides. The variance is plugged in
  from the data after a burn-in, which makes the guarantee approximate for small n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Decision = Literal["H0", "H1"]


@dataclass
class WaldSPRT:
    """H0: p = p0 against H1: p = p1 for a stream of successes and failures."""

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05
    llr: float = 0.0
    n: int = 0
    decision: Decision | None = None

    def __post_init__(self) -> None:
        if not (0 < self.p0 < 1 and 0 < self.p1 < 1 and self.p0 != self.p1):
            raise ValueError("p0 and p1 must differ and lie strictly between 0 and 1")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must lie strictly between 0 and 1")
        self.upper = math.log((1 - self.beta) / self.alpha)   # accept H1 at or above
        self.lower = math.log(self.beta / (1 - self.alpha))   # accept H0 at or below
        self._win = math.log(self.p1 / self.p0)
        self._loss = math.log((1 - self.p1) / (1 - self.p0))

    def update(self, success: bool) -> Decision | None:
        """Add one observation; the decision once reached (later updates keep it)."""
        if self.decision is not None:
            return self.decision
        self.n += 1
        self.llr += self._win if success else self._loss
        if self.llr >= self.upper:
            self.decision = "H1"
        elif self.llr <= self.lower:
            self.decision = "H0"
        return self.decision


@dataclass
class PairedSPRT:
    """Does B's rate differ from A's? Fed pairs (a, b) of Bernoulli outcomes.

    ``effect``: the share of discordant pairs won by B that counts as a difference
    (0.5 ± effect). Decisions: ``"B higher"``, ``"B lower"``, ``"no difference"``."""

    effect: float = 0.15
    alpha: float = 0.05
    beta: float = 0.1
    pairs: int = 0
    higher: WaldSPRT = field(init=False)
    lower: WaldSPRT = field(init=False)

    def __post_init__(self) -> None:
        self.higher = WaldSPRT(0.5, 0.5 + self.effect, self.alpha / 2, self.beta)
        self.lower = WaldSPRT(0.5, 0.5 - self.effect, self.alpha / 2, self.beta)

    def update(self, a: bool, b: bool) -> str | None:
        self.pairs += 1
        if a != b:
            self.higher.update(b)
            self.lower.update(b)
        return self.decision

    @property
    def decision(self) -> str | None:
        if self.higher.decision == "H1":
            return "B higher"
        if self.lower.decision == "H1":
            return "B lower"
        if self.higher.decision == "H0" and self.lower.decision == "H0":
            return "no difference"
        return None


def mixture_half_width(n: int, variance: float, tau: float, alpha: float = 0.05) -> float:
    """Half-width of the normal-mixture confidence sequence after n observations.

    With Λ_n = sqrt(σ²/(σ²+nτ²))·exp(n²τ²(x̄−θ)²/(2σ²(σ²+nτ²))) the set {θ: Λ_n < 1/α} is
    x̄ ± sqrt(2σ²(σ²+nτ²)/(n²τ²)·(log(1/α) + ½·log(1+nτ²/σ²)))."""
    if n < 1:
        return math.inf
    if variance <= 0:
        variance = 1e-12
    t2 = tau * tau
    total = variance + n * t2
    return math.sqrt(2 * variance * total / (n * n * t2)
                     * (math.log(1 / alpha) + 0.5 * math.log(total / variance)))


@dataclass
class ConfidenceSequence:
    """Always-valid interval for the mean of a stream (of differences B − A).

    ``tau``: the mixing scale, best near the smallest difference worth finding;
    ``margin``: differences within ±margin count as none ("equivalent");
    ``burn_in``: observations before any decision (the plug-in variance settles)."""

    tau: float
    margin: float
    alpha: float = 0.05
    burn_in: int = 20
    variance: float | None = None   # known variance; None: the running sample variance
    n: int = 0
    mean: float = 0.0
    _m2: float = 0.0

    def update(self, x: float) -> str | None:
        """Add one observation (Welford's running mean and variance)."""
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (x - self.mean)
        return self.decision

    @property
    def sample_variance(self) -> float:
        return self._m2 / (self.n - 1) if self.n > 1 else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        if self.n < 2 and self.variance is None:
            return -math.inf, math.inf
        var = self.variance if self.variance is not None else self.sample_variance
        # A floor on the variance: a run of identical values must not look certain.
        var = max(var, (self.tau * self.tau) / 100)
        half = mixture_half_width(self.n, var, self.tau, self.alpha)
        return self.mean - half, self.mean + half

    @property
    def decision(self) -> str | None:
        """``"B higher"``, ``"B lower"``, ``"no difference"`` (within ±margin), or None."""
        if self.n < self.burn_in:
            return None
        low, high = self.interval
        if low > 0:
            return "B higher"
        if high < 0:
            return "B lower"
        if -self.margin < low and high < self.margin:
            return "no difference"
        return None
