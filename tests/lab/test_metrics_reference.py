"""Every lab metric, field by field, against a plain re-count of its definition
(``metrics.DEFINITIONS``, docs/lab.md) over random game tables: any slip in a count, a
filter, a side or an interval shows as a difference somewhere in some table."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import Counter, defaultdict
from typing import Any

import polars as pl
import pytest
from scipy import stats

from reliquary.lab import metrics as M

from .tables import game, table

Z = 1.959963984540054
SEATS = ("key", "skull")
REASONS = ("hero_killed", "relic_home", "vigil", "round_cap", "relic_points", "glory")
TIEBREAKS = ("score", "hero_damage", "minions", "tied")


def wilson(k: float, n: int) -> tuple[float, float]:
    """The Wilson score interval written out."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def t_interval(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return math.nan, math.nan, math.nan
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(
        len(values))
    return mean, mean - half, mean + half


def close(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == pytest.approx(b, rel=1e-9, abs=1e-12))


def same(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Every field of ``want`` in ``got``, equal (NaN equal to NaN)."""
    for name, value in want.items():
        assert name in got, name
        if isinstance(value, tuple):
            assert len(got[name]) == len(value), name
            for a, b in zip(got[name], value, strict=True):
                assert close(a, b), (name, got[name], value)
        else:
            assert close(got[name], value), (name, got[name], value)


def points(row: dict[str, Any], seat: str) -> float:
    return 1.0 if row["winner"] == seat else 0.5 if row["winner"] is None else 0.0


def random_games(seed: int, n: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        reason = rng.choice(REASONS)
        winner = None if reason == "round_cap" or rng.random() < 0.15 else rng.choice(SEATS)
        a_seat = rng.choice(SEATS)
        evals = [float(rng.randrange(-120, 121)) for _ in range(rng.randrange(0, 9))]
        plays = [{"seat": rng.choice(SEATS), "card": rng.choice(("Bolt", "Vault", "Hook")),
                  "mode": rng.choice(("move", "attack", "regroup", "rite")),
                  "n": rng.randrange(1, 5)} for _ in range(rng.randrange(0, 4))]
        stats_ = [{"name": rng.choice(("glory.points", "keepers.tokens")),
                   "value": float(rng.randrange(0, 7))} for _ in range(rng.randrange(0, 3))]
        row = game(
            agent_key="search@300" if a_seat == "key" else "greedy",
            agent_skull="greedy" if a_seat == "key" else "search@300", agent_a_seat=a_seat,
            faction_key=rng.choice(("a", "b", "c", None)),
            faction_skull=rng.choice(("a", "b", "c")),
            rite_key=rng.choice(("Harrow", "Exhumation", None)),
            rite_skull=rng.choice(("Harrow", "Exhumation", "Desecration")),
            first=rng.choice(("key", "skull", "key", None)), winner=winner, reason=reason,
            tiebreak=rng.choice(TIEBREAKS) if reason == "vigil" else None,
            vigil_min=rng.randrange(0, 9), rounds=rng.randrange(3, 60),
            killed_key=rng.randrange(0, 5), killed_skull=rng.randrange(0, 5),
            regroups_key=rng.randrange(0, 3), regroups_skull=rng.randrange(0, 3),
            rites_played_key=rng.randrange(0, 2), rites_played_skull=rng.randrange(0, 2),
            pickups_key=rng.randrange(0, 3), pickups_skull=rng.randrange(0, 3),
            play_options_key=float(rng.randrange(3, 12)),
            play_options_skull=float(rng.randrange(3, 12)),
            plays=plays, eval_key=evals, seconds=rng.randrange(1, 40) / 4)
        rows.append({**row, "module_stats": stats_})
    return rows


SEEDS = (1, 2, 3)


@pytest.fixture(params=SEEDS, ids=[f"table{s}" for s in SEEDS])
def games(request: pytest.FixtureRequest) -> tuple[list[dict[str, Any]], pl.DataFrame]:
    rows = random_games(request.param, 45)
    return rows, table(rows)


def test_outcomes_seat_and_first_player(games: tuple[list[dict[str, Any]], pl.DataFrame]
                                        ) -> None:
    rows, g = games
    winners = Counter(r["winner"] for r in rows)
    assert M.outcomes(g) == {"games": len(rows), "key": winners["key"],
                             "skull": winners["skull"], "draws": winners[None]}
    key_points = winners["key"] + 0.5 * winners[None]
    same(M.seat_advantage(g), {"games": len(rows), "score": key_points / len(rows),
                               "low": wilson(key_points, len(rows))[0],
                               "high": wilson(key_points, len(rows))[1],
                               "wins": winners["key"], "losses": winners["skull"],
                               "draws": winners[None]})
    moved = [r for r in rows if r["first"] is not None]
    wins = sum(r["winner"] == r["first"] for r in moved)
    draws = sum(r["winner"] is None for r in moved)
    losses = len(moved) - wins - draws
    low, high = wilson(wins + 0.5 * draws, len(moved))
    dlow, dhigh = wilson(wins, wins + losses)
    same(M.first_player_advantage(g), {
        "games": len(moved), "score": (wins + 0.5 * draws) / len(moved), "low": low,
        "high": high, "wins": wins, "losses": losses, "draws": draws,
        "decisive": wins + losses, "decisive_share": wins / (wins + losses),
        "decisive_low": dlow, "decisive_high": dhigh})
    assert M.first_player_score(g) == pytest.approx((wins + 0.5 * draws) / len(moved))


def test_the_first_agent_s_score_over_both_seatings(
        games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    score = sum(points(r, r["agent_a_seat"]) for r in rows)
    got = M.agent_score(g)
    assert got is not None and got["agent"] == "search@300"
    same(got, {"games": len(rows), "score": score / len(rows),
               "low": wilson(score, len(rows))[0], "high": wilson(score, len(rows))[1],
               "wins": sum(r["winner"] == r["agent_a_seat"] for r in rows),
               "draws": sum(r["winner"] is None for r in rows)})


def by_side(rows: list[dict[str, Any]], column: str) -> list[tuple[Any, Any, float]]:
    """(own, the other's, points) for each game from both seats' sides."""
    return [(r[f"{column}_{seat}"], r[f"{column}_{other}"], points(r, seat))
            for r in rows for seat, other in (("key", "skull"), ("skull", "key"))]


def scored(frame: pl.DataFrame, *keys: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    return {tuple(r[k] for k in keys): r for r in frame.iter_rows(named=True)}


def tally(sides: list[tuple[Any, ...]]) -> dict[Any, dict[str, Any]]:
    out: dict[Any, list[float]] = defaultdict(list)
    for *key, p in sides:
        out[tuple(key)].append(p)
    return {k: {"games": len(v), "points": sum(v), "score": sum(v) / len(v),
                "low": wilson(sum(v), len(v))[0], "high": wilson(sum(v), len(v))[1]}
            for k, v in out.items()}


def test_faction_matrix_scores_and_spread(games: tuple[list[dict[str, Any]], pl.DataFrame]
                                          ) -> None:
    rows, g = games
    sides = by_side(rows, "faction")
    cells = tally([(f, o, p) for f, o, p in sides if f is not None])
    got = scored(M.faction_matrix(g), "faction", "opponent")
    assert set(got) == set(cells)
    for cell, want in cells.items():
        same(got[cell], want)
    overall = tally([(f, p) for f, _, p in sides if f is not None])
    got_overall = scored(M.faction_scores(g), "faction")
    assert set(got_overall) == set(overall)
    for faction, want in overall.items():
        same(got_overall[faction], want)
    spread = max(v["score"] for v in overall.values()) - min(v["score"]
                                                             for v in overall.values())
    assert M.faction_spread(g) == pytest.approx(spread)
    assert M.faction_spread_interval(g, samples=50)["value"] == pytest.approx(spread)
    assert M.SCALARS["faction_spread"](g) == pytest.approx(spread)


def test_rite_matrix_first_table_and_win_rates(
        games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    sides = by_side(rows, "rite")
    cells = tally([(r, o, p) for r, o, p in sides if r is not None and o is not None])
    got = scored(M.rite_matrix(g), "rite", "opponent")
    assert set(got) == set(cells)
    for cell, want in cells.items():
        same(got[cell], want)
    split = tally([(r[f"rite_{seat}"], r["first"] == seat, points(r, seat))
                   for r in rows for seat in SEATS
                   if r[f"rite_{seat}"] is not None and r["first"] is not None])
    got_split = scored(M.rite_first_table(g), "rite", "first")
    assert set(got_split) == set(split)
    for cell, want in split.items():
        same(got_split[cell], want)
    picks = [(r[f"rite_{seat}"], points(r, seat), r[f"rites_played_{seat}"] > 0)
             for r in rows for seat in SEATS if r[f"rite_{seat}"] is not None]
    rates = scored(M.rite_win_rates(g), "rite")
    assert set(rates) == {(rite,) for rite, _, _ in picks}
    for (rite,), want in tally([(rite, p) for rite, p, _ in picks]).items():
        played = sum(pl_ for r, _, pl_ in picks if r == rite)
        same(rates[(rite,)], {**want, "played": played,
                              "pick_share": want["games"] / len(picks),
                              "played_share": played / want["games"]})


def test_draws_round_caps_end_reasons_and_tiebreaks(
        games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    n = len(rows)

    def proportion(k: int, total: int) -> dict[str, Any]:
        return {"n": total, "value": k / total if total else math.nan,
                "low": wilson(k, total)[0], "high": wilson(k, total)[1]}

    draws = sum(r["winner"] is None for r in rows)
    capped = sum(r["reason"] == "round_cap" for r in rows)
    same(M.draw_rate(g), proportion(draws, n))
    same(M.round_cap_rate(g), proportion(capped, n))
    assert M.cap_rate(g) == pytest.approx(capped / n)
    assert M.SCALARS["draw_rate"](g) == pytest.approx(draws / n)

    def shares(values: list[Any]) -> list[dict[str, Any]]:
        counts = Counter(values)
        order = sorted(counts, key=lambda v: (-counts[v], v))
        return [{"games": counts[v], "share": counts[v] / len(values),
                 "low": wilson(counts[v], len(values))[0],
                 "high": wilson(counts[v], len(values))[1], "value": v} for v in order]

    for frame, column, values in (
            (M.end_reasons(g), "reason", [r["reason"] for r in rows]),
            (M.tiebreaks(g), "tiebreak", [r["tiebreak"] for r in rows
                                          if r["reason"] == "vigil"])):
        got = list(frame.iter_rows(named=True))
        want = shares(values)
        assert [r[column] for r in got] == [w.pop("value") for w in want]
        for a, b in zip(got, want, strict=True):
            same(a, b)


def leader(v: float) -> int:
    """Who leads by the definition: more than 20 points ahead (a Minion is 25)."""
    return 1 if v > 20 else -1 if v < -20 else 0


def test_decisiveness_and_comebacks(games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    n = len(rows)
    changes, moments, behind = [], [], []
    comebacks = decided = 0
    for r in rows:
        evals = r["eval_key"]
        if not evals:
            continue
        leads = [leader(v) for v in evals if leader(v)]
        changes.append(sum(a != b for a, b in itertools.pairwise(leads)))
        if r["winner"] is None:
            continue
        view = [v if r["winner"] == "key" else -v for v in evals]
        # the fraction of the game after which the winner stayed ahead to the end
        ahead_from = len(view)
        while ahead_from > 0 and leader(view[ahead_from - 1]) == 1:
            ahead_from -= 1
        moments.append(ahead_from / len(view))
        behind.append(sum(leader(v) == -1 for v in view) / len(view))
        decided += 1
        comebacks += view[len(view) // 2] < -25
    decisive = sum(r["winner"] is not None for r in rows)
    board = sum(r["reason"] in ("hero_killed", "relic_home", "relic_points") for r in rows)
    got = M.decisiveness(g)
    same(got["decisive"], {"n": n, "value": decisive / n, "low": wilson(decisive, n)[0],
                           "high": wilson(decisive, n)[1]})
    same(got["board_wins"], {"n": n, "value": board / n, "low": wilson(board, n)[0],
                             "high": wilson(board, n)[1]})
    same(got, {"decisive_moment": t_interval(moments), "lead_changes": t_interval(
        [float(c) for c in changes]), "drama": t_interval(behind)})
    same(M.comeback_rate(g), {"n": decided, "value": comebacks / decided,
                              "low": wilson(comebacks, decided)[0],
                              "high": wilson(comebacks, decided)[1]})
    assert M.SCALARS["comeback_rate"](g) == pytest.approx(comebacks / decided)


def test_length_counts_kills_and_the_per_game_figures(
        games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    rounds = sorted(float(r["rounds"]) for r in rows)
    mean, low, high = t_interval(rounds)
    q1, _, q3 = statistics.quantiles(rounds, n=4, method="inclusive")
    same(M.length(g), {"games": len(rows), "mean": mean, "low": low, "high": high,
                       "sd": statistics.stdev(rounds), "median": statistics.median(rounds),
                       "q1": q1, "q3": q3, "min": rounds[0], "max": rounds[-1]})
    assert M.mean_length(g) == pytest.approx(mean)
    assert M.SCALARS["mean_length"](g) == pytest.approx(mean)

    groups = {"all": rows, "capped": [r for r in rows if r["reason"] == "round_cap"],
              "finished": [r for r in rows if r["reason"] != "round_cap"]}
    got = scored(M.regroups_kills(g), "count", "group")
    want_keys = set()
    for count, column in (("kills", "killed"), ("regroups", "regroups"),
                          ("rites_played", "rites_played"), ("pickups", "pickups")):
        for group, mine in groups.items():
            if not mine:
                continue
            want_keys.add((count, group))
            per_game = [float(r[f"{column}_key"] + r[f"{column}_skull"]) for r in mine]
            played = sum(r["rounds"] for r in mine)
            same(got[(count, group)], {
                "games": len(mine), **dict(zip(("mean", "low", "high"),
                                                t_interval(per_game), strict=True)),
                "per_100_rounds": 100 * sum(per_game) / played})
    assert set(got) == want_keys

    figures: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for s in r["module_stats"]:
            figures[s["name"]].append(s["value"])
    got_figures = list(M.module_figures(g).iter_rows(named=True))
    assert [f["figure"] for f in got_figures] == sorted(figures)
    for f in got_figures:
        values = figures[f["figure"]]
        same(f, {"games": len(values), **dict(zip(("mean", "low", "high"),
                                                   t_interval(values), strict=True))})


def test_branching_vigil_timing_and_plays(games: tuple[list[dict[str, Any]], pl.DataFrame]
                                          ) -> None:
    rows, g = games
    same(M.branching(g), {seat: t_interval([r[f"play_options_{seat}"] for r in rows])
                          for seat in SEATS})
    lows = [float(r["vigil_min"]) for r in rows]
    above = sum(v >= 4 for v in lows)
    got = M.vigil(g)
    same(got, {"vigil_min": t_interval(lows)})
    same(got["never_below_4"], {"n": len(rows), "value": above / len(rows),
                                "low": wilson(above, len(rows))[0],
                                "high": wilson(above, len(rows))[1]})
    seconds = [r["seconds"] for r in rows]
    same(M.timing(g), {"mean_seconds": sum(seconds) / len(seconds),
                       "total_seconds": sum(seconds)})

    plays: Counter[tuple[str, str]] = Counter()
    for r in rows:
        for p in r["plays"]:
            plays[(p["card"], p["mode"])] += p["n"]
    by_card: Counter[str] = Counter()
    by_mode: Counter[str] = Counter()
    for (card, mode), k in plays.items():
        by_card[card] += k
        by_mode[mode] += k
    usage = scored(M.card_mode_usage(g), "card", "mode")
    assert list(usage) == sorted(plays)
    for (card, mode), k in plays.items():
        same(usage[(card, mode)], {"plays": k, "share": k / by_card[card],
                                   "per_game": k / len(rows)})
    modes = list(M.mode_usage(g).iter_rows(named=True))
    assert [m["plays"] for m in modes] == sorted(by_mode.values(), reverse=True)
    for m in modes:
        same(m, {"plays": by_mode[m["mode"]],
                 "share": by_mode[m["mode"]] / sum(by_mode.values())})


def test_the_headline_s_figures(games: tuple[list[dict[str, Any]], pl.DataFrame]) -> None:
    rows, g = games
    head = M.headline(g)
    n = len(rows)
    capped = sum(r["reason"] == "round_cap" for r in rows)
    low, high = wilson(capped, n)
    assert head["games"] == str(n)
    assert head["round cap rate"] == f"{capped / n:.1%} [{low:.1%}, {high:.1%}]"
    draws = sum(r["winner"] is None for r in rows)
    low, high = wilson(draws, n)
    assert head["draw rate"] == f"{draws / n:.1%} [{low:.1%}, {high:.1%}]"
    mean, low, high = t_interval([float(r["rounds"]) for r in rows])
    assert head["mean rounds"] == f"{mean:.1f} [{low:.1f}, {high:.1f}]"
    score = sum(points(r, r["agent_a_seat"]) for r in rows)
    low, high = wilson(score, n)
    assert head["search@300 score"] == f"{score / n:.1%} [{low:.1%}, {high:.1%}]"
    assert head["faction spread"].startswith(f"{M.faction_spread(g):.1%} [")
