"""M-GLORY's objective balance (issue 25, MODULES.md §5.9 and §10.3): how often each
objective is scored when held, and how scoring it goes with winning, so the designer can
see a card that is too easy or never scored.

Each game gives two side-games (Key's and Skull's). For each objective, over the
side-games that held it (drew it at some point, ``glory.held_<id>_<side>``):

- ``score_rate``: the share that scored it, with a Wilson interval; §10.3 flags a card
  under 5% or over 80%;
- ``win_if_scored`` / ``win_if_not``: the side's score (win 1, draw ½) when it scored
  the objective and when it did not;
- ``correlation``: the phi (Pearson) correlation between scoring it and the side's score.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from ..engine.modules import glory as g

_SIDES = ("key", "skull")
SCHEMA = {"objective": pl.String, "timing": pl.String, "glory": pl.Int64,
          "held": pl.Int64, "scored": pl.Int64, "score_rate": pl.Float64,
          "low": pl.Float64, "high": pl.Float64, "win_if_scored": pl.Float64,
          "win_if_not": pl.Float64, "correlation": pl.Float64, "flag": pl.String}


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _correlation(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.nan
    mx, my = _mean(xs), _mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def side_games(games: pl.DataFrame) -> list[tuple[dict[str, float], float, str]]:
    """(the side's glory figures without the prefix, the side's score, the side) for each
    side of each game that played with the module."""
    out: list[tuple[dict[str, float], float, str]] = []
    if "module_stats" not in games.columns:
        return out
    for row in games.select("winner", "module_stats").iter_rows(named=True):
        stats: dict[str, float] = {s["name"]: s["value"] for s in row["module_stats"] or []
                                   if s["name"].startswith("glory.")}
        if not stats:
            continue
        for side in _SIDES:
            score = 0.5 if row["winner"] is None else float(row["winner"] == side)
            mine = {k[len("glory."):-len(side) - 1]: v for k, v in stats.items()
                    if k.endswith("_" + side)}
            out.append((mine, score, side))
    return out


def objective_balance(games: pl.DataFrame) -> pl.DataFrame:
    """The objective-balance table (see the module doc), one row per objective."""
    sides = side_games(games)
    rows: list[dict[str, Any]] = []
    if not sides:
        return pl.DataFrame(schema=SCHEMA)
    for obj in g.DATA.objective:
        held = [(m.get(f"scored_{obj.id}", 0.0) > 0, score) for m, score, _ in sides
                if m.get(f"held_{obj.id}", 0.0) > 0]
        scored = sum(1 for s, _ in held if s)
        low, high = _wilson(scored, len(held))
        rate = scored / len(held) if held else math.nan
        flag = ""
        if held and (high < 0.05 or rate < 0.05):
            flag = "rarely scored (<5%)"
        elif held and rate > 0.80:
            flag = "too easy (>80%)"
        rows.append({
            "objective": obj.id, "timing": obj.timing, "glory": obj.glory,
            "held": len(held), "scored": scored, "score_rate": rate, "low": low, "high": high,
            "win_if_scored": _mean([w for s, w in held if s]),
            "win_if_not": _mean([w for s, w in held if not s]),
            "correlation": _correlation([float(s) for s, _ in held], [w for _, w in held]),
            "flag": flag})
    return pl.DataFrame(rows, schema=SCHEMA)


def glory_summary(games: pl.DataFrame) -> pl.DataFrame:
    """figure, value: the draw rate, the points verdicts and what decided them, mean Glory
    per seat, upgrades bought per game, and markers held at the end, over the games with
    the module."""
    sides = side_games(games)
    if not sides:
        return pl.DataFrame(schema={"figure": pl.String, "value": pl.Float64})
    rows = [r for r in games.select("winner", "reason", "detail", "module_stats")
            .iter_rows(named=True)
            if any(st["name"].startswith("glory.") for st in r["module_stats"] or [])]
    n = len(rows)
    figures = {
        "games": float(n),
        "draw rate": _mean([float(r["winner"] is None) for r in rows]),
        "points verdicts": _mean([float(r["reason"] == "points") for r in rows]),
        "decided by Glory": _mean([float(r["detail"] == g.BY_GLORY) for r in rows]),
        "decided by markers": _mean([float(r["detail"] == g.BY_MARKERS) for r in rows]),
        "mean Glory, Key": _mean([m.get("glory", 0.0) for m, _, s in sides if s == "key"]),
        "mean Glory, Skull": _mean([m.get("glory", 0.0) for m, _, s in sides
                                    if s == "skull"]),
        "markers held at the end, Key": _mean([m.get("markers", 0.0) for m, _, s in sides
                                               if s == "key"]),
        "markers held at the end, Skull": _mean([m.get("markers", 0.0) for m, _, s in sides
                                                 if s == "skull"]),
    }
    return pl.DataFrame({"figure": list(figures), "value": [float(v) for v in
                                                            figures.values()]})
