"""A spec's ``balanced``: whether its setups come out exactly balanced, that is whether
the number of its pairings times ``games_per_cell`` is a multiple of the number of
setups the design rotates through (spec.py, ``LabSpec.setup_for``; docs/lab.md). Issue
31, sample K: the product read as a quotient passed every test, whose specs had a
quotient that happened to be a multiple too."""

from __future__ import annotations

from collections import Counter

import pytest

from .test_design import _spec


@pytest.mark.parametrize("reps", range(1, 26))
def test_free_factions_are_balanced_exactly_every_twelve_repetitions(reps: int) -> None:
    # Free factions: one "pairing" a cell; twelve setups (six ordered rite pairs, either
    # first mover).
    spec = _spec(reps, factions='"free"')
    assert spec.balanced is (reps % 12 == 0)  # type: ignore[attr-defined]
    counts = Counter((job.rites, job.first) for job in spec.jobs())  # type: ignore[attr-defined]
    assert (len(counts) == 12 and len(set(counts.values())) == 1) is (reps % 12 == 0)


@pytest.mark.parametrize("reps", [1, 2, 5])
def test_every_ordered_pairing_is_balanced_at_any_repetitions(reps: int) -> None:
    # 72 ordered pairings of nine factions: a multiple of the twelve setups already.
    assert _spec(reps).balanced  # type: ignore[attr-defined]
