"""The search's `noise` (docs/ai.md: Gaussian noise added to its leaf scores, for
weaker, more varied play): with noise the value of the same search moves with the
seed, without it never (issue 31: a fault that ignored the noise passed)."""

from __future__ import annotations

from typing import Any

from reliquary.ai.search import SearchAgent
from reliquary.engine import KEY, SKULL


def _values(build: Any, noise: float) -> set[float]:
    state = (build().hero(KEY, "d3").minion(KEY, "c2").hero(SKULL, "f7").minion(SKULL, "e6")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    return {SearchAgent(seed=seed, nodes=300, max_depth=1, noise=noise).analyse(state)[1]
            for seed in range(4)}


def test_noise_makes_the_value_vary_with_the_seed_and_no_noise_does_not(build: Any) -> None:
    assert len(_values(build, 0.0)) == 1
    assert len(_values(build, 60.0)) > 1
