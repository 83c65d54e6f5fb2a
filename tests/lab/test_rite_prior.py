"""Bradley–Terry's weak prior reaches the rite terms too (lab/metrics.py: "the same
prior for the rites": half a drawn game for each pairing of different rites met). On
games where X's holder wins 24 of 32, with equal factions and both seats and first
movers balanced, the rite term is the log-odds of 24¼ wins in 32½ games, not of 24 in
32. Issue 31, sample K: the prior given only to a rite met by itself (which has no
rite term) passed every test, whose rite fit had the prior off."""

from __future__ import annotations

import math

import pytest

from reliquary.lab import metrics as M

from .tables import table
from .test_design import _rite_games


@pytest.mark.parametrize("prior", [0.5, 2.0])
def test_the_prior_s_drawn_games_count_for_the_rites(prior: float) -> None:
    bt = M.bradley_terry(table(_rite_games()), prior=prior)
    rho = {r["rite"]: r["theta"] for r in bt["rites"].iter_rows(named=True)}
    wins, losses = 24 + prior / 2, 8 + prior / 2  # the prior: `prior` games, drawn
    assert rho["X"] - rho["Y"] == pytest.approx(math.log(wins / losses), abs=1e-6)
    assert rho["X"] == pytest.approx(-rho["Y"], abs=1e-9)


def test_a_mirror_rite_pairing_adds_nothing() -> None:
    # Games where both hold X change nothing of the X-against-Y term.
    from .tables import game

    mirrors = [game(faction_key=fk, faction_skull=fs, rite_key="X", rite_skull="X",
                    first=first, winner=w)
               for fk, fs in (("a", "b"), ("b", "a")) for first in ("key", "skull")
               for w in ("key", "skull")]
    plain = M.bradley_terry(table(_rite_games()))
    more = M.bradley_terry(table([*_rite_games(), *mirrors]))
    theta = {r["rite"]: r["theta"] for r in plain["rites"].iter_rows(named=True)}
    again = {r["rite"]: r["theta"] for r in more["rites"].iter_rows(named=True)}
    assert again["X"] - again["Y"] == pytest.approx(theta["X"] - theta["Y"], abs=1e-6)
