"""``lab compare``: play two specs side by side until a sequential test decides whether
B differs from A on one metric.

The specs are played repetition by repetition (one game per cell each); both runs are
stored like ``lab run``'s, so games already played are reused and the comparison can be
resumed or reported on afterwards; by default they are the same folders ``lab run``
uses (``lab-runs/<spec name>``), so games already played by ``lab run`` are used too.
The per-game metrics pair A's i-th game of a repetition with B's i-th and test the mean
difference; ``faction_spread`` (a property of a whole set of games) takes one
difference per repetition. The test is looked at after every pair and stops at the first
decision, which an always-valid test allows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from . import metrics
from .runner import Failure, run_local, run_ray
from .spec import LabSpec
from .sprt import ConfidenceSequence, PairedSPRT
from .store import Store


def _first_score(row: dict[str, Any]) -> float:
    if row["winner"] is None:
        return 0.5
    return 1.0 if row["winner"] == row["first"] else 0.0


#: metric -> the value of one game (the test compares their means).
PER_GAME: dict[str, Callable[[dict[str, Any]], float]] = {
    "cap_rate": lambda row: float(row["reason"] == "round_cap"),
    "draw_rate": lambda row: float(row["winner"] is None),
    "first_player": _first_score,
    "mean_length": lambda row: float(row["rounds"]),
    # the board-win rate (metrics.decisiveness): the Hero killed, the relic home or the
    # relic-points threshold
    "decisiveness": lambda row: float(row["reason"] in metrics.BOARD_WINS),
}
#: metric -> the value of one repetition (a set of games over every cell).
PER_REP: dict[str, Callable[[pl.DataFrame], float]] = {
    "faction_spread": metrics.faction_spread,
    "comeback_rate": metrics.SCALARS["comeback_rate"],
}
METRICS = (*PER_GAME, *PER_REP)
#: Differences within ± this count as "no difference" unless --margin says otherwise.
DEFAULT_MARGIN = {"cap_rate": 0.05, "draw_rate": 0.05, "first_player": 0.05,
                  "mean_length": 10.0, "faction_spread": 0.1, "decisiveness": 0.05,
                  "comeback_rate": 0.1}
#: Metrics whose per-game value is 0 or 1 (the paired SPRT applies).
BINARY = ("cap_rate", "draw_rate", "decisiveness")


@dataclass
class Comparison:
    """The outcome of a comparison."""

    metric: str
    test: str
    decision: str                 # B higher / B lower / no difference / undecided
    observations: int             # pairs (or repetitions) the test used
    games_used: int               # games behind those observations (A and B)
    games_played: int             # games the workers played in this call
    used_stored: int = 0          # of the games used, those already stored before
    failed: int = 0               # games given up after their tries (left out, by pair)
    value_a: float = math.nan
    value_b: float = math.nan
    difference: float = math.nan
    interval: tuple[float, float] = (math.nan, math.nan)

    @property
    def used_new(self) -> int:
        """Games used that this call played (a game A and B share counts for both)."""
        return self.games_used - self.used_stored

    def as_dict(self) -> dict[str, Any]:
        out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}
        return {**out, "used_new": self.used_new}


def compare(spec_a: LabSpec, spec_b: LabSpec, metric: str, out_a: str | Path,
            out_b: str | Path, max_games: int = 2000, margin: float | None = None,
            alpha: float = 0.05, test: str = "interval", workers: int | None = None,
            ray_address: str | None = None, burn_in: int | None = None,
            on_progress: Callable[[int, str], None] | None = None) -> Comparison:
    """Play A and B until the test decides or ``max_games`` (both specs together) are
    used. ``test``: ``interval`` (always-valid confidence sequence, any metric) or
    ``sprt`` (paired SPRT on discordant pairs, 0/1 metrics only)."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; allowed: {', '.join(METRICS)}")
    if test not in ("interval", "sprt"):
        raise ValueError(f"unknown test {test!r}; allowed: interval, sprt")
    if test == "sprt" and metric not in BINARY:
        raise ValueError(f"the paired SPRT needs a 0/1 metric ({', '.join(BINARY)}); "
                         "use --test interval")
    margin = DEFAULT_MARGIN[metric] if margin is None else margin
    per_rep = metric in PER_REP
    if burn_in is None:
        burn_in = 3 if per_rep else 20
    cs = ConfidenceSequence(tau=margin, margin=margin, alpha=alpha, burn_in=burn_in)
    sprt = PairedSPRT(effect=0.15, alpha=alpha) if test == "sprt" else None
    stores = (Store(out_a), Store(out_b))
    stores[0].open_for(spec_a)
    stores[1].open_for(spec_b)
    used_a: list[dict[str, Any]] = []
    used_b: list[dict[str, Any]] = []
    stored_before = (stores[0].done_ids(), stores[1].done_ids())
    failures: list[Failure] = []
    played = 0
    decision: str | None = None
    observations = 0
    rep = 0
    while decision is None and len(used_a) + len(used_b) < max_games:
        jobs_a, jobs_b = spec_a.jobs_for_rep(rep), spec_b.jobs_for_rep(rep)
        if not per_rep:
            # Play no more pairs than the budget can still use.
            budget = math.ceil((max_games - len(used_a) - len(used_b)) / 2)
            jobs_a, jobs_b = jobs_a[:budget], jobs_b[:budget]
        done = (stores[0].done_ids(), stores[1].done_ids())
        todo_a = [j for j in jobs_a if j.game_id not in done[0]]
        todo_b = [j for j in jobs_b if j.game_id not in done[1]]
        # Interleave A's and B's games so both runs progress together on the workers;
        # a game both specs share (same spec hash and game: same seeds, rules, agents
        # and content) is played once. The game id alone does not fix a game: it leaves
        # out the agents and the content, which A and B may not share.
        todo = [j for pair in zip(todo_a, todo_b, strict=False) for j in pair]
        todo += todo_a[len(todo_b):] + todo_b[len(todo_a):]
        todo = list({(j.spec_hash, j.game_id): j for j in todo}.values())
        new_rows: list[dict[str, Any]] = []
        source = run_ray(todo, ray_address, on_failure=failures.append) if ray_address \
            else run_local(todo, workers, on_failure=failures.append)
        try:
            new_rows.extend(source)
        finally:                    # stored even when interrupted
            source.close()
            for store, spec, side in zip(stores, (spec_a, spec_b), (todo_a, todo_b),
                                         strict=True):
                wanted = {j.game_id for j in side}
                store.write_batch([{**r, "run": spec.name} for r in new_rows
                                   if r["game_id"] in wanted
                                   and r["spec_hash"] == spec.spec_hash])
        played += len(new_rows)
        by_id_a = {r["game_id"]: r for r in stores[0].table().filter(
            pl.col("game_id").is_in([j.game_id for j in jobs_a])).to_dicts()}
        by_id_b = {r["game_id"]: r for r in stores[1].table().filter(
            pl.col("game_id").is_in([j.game_id for j in jobs_b])).to_dicts()}
        # A's i-th game of the repetition against B's i-th (the same cell); a pair with a
        # failed game is left out rather than shifting the others.
        pairs = [(by_id_a[ja.game_id], by_id_b[jb.game_id])
                 for ja, jb in zip(jobs_a, jobs_b, strict=False)
                 if ja.game_id in by_id_a and jb.game_id in by_id_b]
        if not pairs:               # every pair of a repetition failed: stop undecided
            break
        rows_a = pl.DataFrame([a for a, _ in pairs])
        rows_b = pl.DataFrame([b for _, b in pairs])
        if per_rep:
            cs.update(PER_REP[metric](rows_b) - PER_REP[metric](rows_a))
            used_a += rows_a.to_dicts()
            used_b += rows_b.to_dicts()
            observations += 1
            decision = cs.decision
        else:
            for ra, rb in pairs:
                fa, fb = PER_GAME[metric](ra), PER_GAME[metric](rb)
                cs.update(fb - fa)
                if sprt is not None:
                    sprt.update(bool(fa), bool(fb))
                used_a.append(ra)
                used_b.append(rb)
                observations += 1
                decision = sprt.decision if sprt is not None else cs.decision
                if decision is not None or len(used_a) + len(used_b) >= max_games:
                    break
        if on_progress:
            low, high = cs.interval
            on_progress(len(used_a) + len(used_b),
                        f"Δ {cs.mean:+.3f} [{low:+.3f}, {high:+.3f}]")
        rep += 1
    used_stored = (sum(r["game_id"] in stored_before[0] for r in used_a)
                   + sum(r["game_id"] in stored_before[1] for r in used_b))
    frame_a, frame_b = pl.DataFrame(used_a), pl.DataFrame(used_b)
    value = PER_REP.get(metric)
    if value is not None:
        va, vb = value(frame_a), value(frame_b)
    else:
        va = sum(PER_GAME[metric](r) for r in used_a) / max(1, len(used_a))
        vb = sum(PER_GAME[metric](r) for r in used_b) / max(1, len(used_b))
    low, high = cs.interval
    return Comparison(metric=metric, test=test, decision=decision or "undecided",
                      observations=observations, games_used=len(used_a) + len(used_b),
                      games_played=played, used_stored=used_stored,
                      failed=len(failures), value_a=va,
                      value_b=vb, difference=cs.mean,
                      interval=(low if math.isfinite(low) else math.nan,
                                high if math.isfinite(high) else math.nan))
