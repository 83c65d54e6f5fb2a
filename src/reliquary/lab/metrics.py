"""Every lab metric as a pure function of a game table (one row per game, the store's
columns; a Polars DataFrame). Definitions: :data:`DEFINITIONS` and ``docs/lab.md``.

Scores count a win 1, a draw ½ and a loss 0. Intervals are 95%: Wilson intervals for
proportions and scores (``statsmodels``; for a score with draws Wilson's variance
p(1−p)/n bounds the true one, so the interval is if anything conservative), Student-t
intervals for means (``scipy``), and Wald intervals from the fitted information for the
Bradley–Terry strengths (``statsmodels`` GLM).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

Z95 = 1.959963984540054

#: metric name -> definition (docs/lab.md lists the same text).
DEFINITIONS: dict[str, str] = {
    "outcomes": "Games, Key wins, Skull wins and draws (winner null: round cap, or a "
                "Vigil ending tied on every count).",
    "first_player_advantage": "Score of the player who took the first turn (S8: the "
                              "higher card goes first): (first-player wins + ½ draws) / "
                              "games, with its Wilson interval; also the first player's "
                              "share of decisive games. 50% is no advantage.",
    "seat_advantage": "The same score for the Key seat (who sets up first), whoever "
                      "moved first.",
    "agent_score": "With two agents: the first agent's score over both seatings, with "
                   "its Wilson interval.",
    "faction_matrix": "Score of the row faction against the column faction over the "
                      "games where they met (both seats), with a Wilson interval per "
                      "cell.",
    "faction_scores": "Each faction's overall score over all its games, with its Wilson "
                      "interval; the spread is the largest minus the smallest.",
    "faction_spread_interval": "The faction spread with a 95% bootstrap percentile "
                               "interval (games resampled), and what chance alone gives: "
                               "the permutation distribution of the spread with each "
                               "game's result moved to a random other game (pairings "
                               "kept) — its mean, 95th percentile and the p-value of the "
                               "measured spread.",
    "bradley_terry": "Faction strengths θ from a Bradley–Terry model with a first-move "
                     "and a rite term: P(Key wins) = σ(θ_KeyFaction − θ_SkullFaction + "
                     "ρ_KeyRite − ρ_SkullRite + h·m + s), m = +1 when Key moved first, −1 "
                     "otherwise; s the Key-seat term. θ and ρ each sum to 0 (ρ only where "
                     "the rites are not confounded with the first move or the factions); "
                     "draws count as half a win each; a weak prior of half a "
                     "drawn game per pairing keeps estimates finite; 95% Wald intervals "
                     "from the fitted information (statsmodels GLM, binomial). Also in Elo "
                     "(θ·400/ln 10).",
    "draw_rate": "Drawishness: share of games with no winner, with its Wilson interval.",
    "round_cap_rate": "Share of games ended by the round cap (D19), with its Wilson "
                      "interval; the completion rate is 1 minus it.",
    "decisiveness": (
        "Decisive rate: share of games with a winner; board-win rate: share won by "
        "killing the Hero, bringing the relic home or reaching M-KEEP's relic-points "
        "threshold (not on Vigil or Glory points); decisive "
        "moment: for decisive games, the fraction of the game (in rounds) after which the "
        "eventual winner stayed ahead on the evaluation (by more than 20 points; a Minion "
        "is worth 25) to the end (lower: decided earlier; after Ludii's decisiveness); "
        "lead changes: changes of the leader per game (a lead being more than 20 "
        "points); drama: share of rounds the eventual winner spent behind by more than "
        "20 points."),
    "comeback_rate": "Comeback rate (MODULES.md §10.2 step 5): the share of decisive games "
                     "won by the side that was behind by more than 25 evaluation points (a "
                     "Minion) at the middle round, with its Wilson interval.",
    "length": "Game length in rounds: mean with its t interval, standard deviation, "
              "median, quartiles, min and max; the histogram in the report.",
    "end_reasons": "Share of games per end reason (hero_killed, relic_home, vigil, "
                   "round_cap) with Wilson intervals.",
    "tiebreaks": "For Vigil endings, which count decided (V2 score, less damage to the "
                 "Hero, more Minions, tied on every count), with shares.",
    "rite_matrix": "Score of the player holding the row's rite against the column's "
                   "rite, over both seats, with a Wilson interval per cell; also each "
                   "rite's score split by whether its holder moved first.",
    "rite_win_rates": "For each rite: how often it was drafted, and the score of the "
                      "players who drafted it (Wilson interval) — the rite's win rate "
                      "given the pick; also how often it was played.",
    "card_mode_usage": "Per card and mode: plays in all, the share of that card's plays "
                       "and plays per game.",
    "mode_usage": "Share of all plays per mode (move, attack, regroup, rite, pass).",
    "regroups_kills": "Per game (both players): Minions killed, Regroups, rites played, "
                      "relic pick-ups, each as a mean with its t interval and per hundred "
                      "rounds; split by whether the game hit the round cap.",
    "branching": "Mean number of legal options at the card-play decision (3 cards × "
                 "modes), per game and seat — the branching factor of the turn's first "
                 "choice.",
    "vigil": "Lowest Vigil value reached per game (mean), and the share of games where "
             "the Vigil never got below 4.",
    "timing": "Wall-clock seconds per game (the only column that depends on the machine).",
}


# ---------------------------------------------------------------------- intervals
def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of successes/n (statsmodels); (nan, nan) for n = 0."""
    from statsmodels.stats.proportion import proportion_confint

    if n <= 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    return float(low), float(high)


def mean_interval(values: np.ndarray | Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% Student-t interval; a single value's interval is (nan, nan)."""
    from scipy import stats

    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(arr.mean())
    if arr.size < 2:
        return mean, math.nan, math.nan
    half = float(stats.t.ppf(0.975, arr.size - 1) * arr.std(ddof=1) / math.sqrt(arr.size))
    return mean, mean - half, mean + half


def _proportion(successes: float, n: int) -> dict[str, float]:
    low, high = wilson(successes, n)
    return {"n": n, "value": successes / n if n else math.nan, "low": low, "high": high}


# ---------------------------------------------------------------------- results
def outcomes(g: pl.DataFrame) -> dict[str, int]:
    """Games, wins per seat and draws."""
    winners = g["winner"].to_list()
    return {"games": len(winners), "key": winners.count("key"),
            "skull": winners.count("skull"), "draws": winners.count(None)}


def _score(points: float, games: int, **extra: Any) -> dict[str, Any]:
    low, high = wilson(points, games)
    return {"games": games, "score": points / games if games else math.nan,
            "low": low, "high": high, **extra}


def first_player_advantage(g: pl.DataFrame) -> dict[str, Any]:
    """Score of the player who moved first, and their share of decisive games."""
    g = g.filter(pl.col("first").is_not_null())
    first, winner = g["first"].to_list(), g["winner"].to_list()
    wins = sum(1 for f, w in zip(first, winner, strict=True) if w is not None and w == f)
    draws = winner.count(None)
    losses = len(first) - wins - draws
    decisive = wins + losses
    dlow, dhigh = wilson(wins, decisive)
    return _score(wins + 0.5 * draws, len(first), wins=wins, losses=losses, draws=draws,
                  decisive=decisive,
                  decisive_share=wins / decisive if decisive else math.nan,
                  decisive_low=dlow, decisive_high=dhigh)


def seat_advantage(g: pl.DataFrame) -> dict[str, Any]:
    """Score of the Key seat."""
    o = outcomes(g)
    return _score(o["key"] + 0.5 * o["draws"], o["games"], wins=o["key"],
                  losses=o["skull"], draws=o["draws"])


def agent_score(g: pl.DataFrame) -> dict[str, Any] | None:
    """The first agent's score over both seatings (None in self-play)."""
    if g.is_empty() or (g["agent_key"] == g["agent_skull"]).all():
        return None
    a_seat, winner = g["agent_a_seat"].to_list(), g["winner"].to_list()
    wins = sum(1 for s, w in zip(a_seat, winner, strict=True) if w == s)
    draws = winner.count(None)
    first_row = g.row(0, named=True)
    a_name = first_row["agent_key"] if first_row["agent_a_seat"] == "key" \
        else first_row["agent_skull"]
    return _score(wins + 0.5 * draws, len(winner), agent=a_name, wins=wins, draws=draws)


def _faction_games(g: pl.DataFrame) -> pl.DataFrame:
    """Each game twice, once from each faction's side: faction, opponent, points."""
    key = g.select(pl.col("faction_key").alias("faction"),
                   pl.col("faction_skull").alias("opponent"),
                   pl.when(pl.col("winner") == "key").then(1.0)
                   .when(pl.col("winner").is_null()).then(0.5).otherwise(0.0).alias("points"))
    skull = g.select(pl.col("faction_skull").alias("faction"),
                     pl.col("faction_key").alias("opponent"),
                     pl.when(pl.col("winner") == "skull").then(1.0)
                     .when(pl.col("winner").is_null()).then(0.5).otherwise(0.0)
                     .alias("points"))
    return pl.concat([key, skull]).filter(pl.col("faction").is_not_null())


def _with_wilson(frame: pl.DataFrame, points: str = "points", games: str = "games",
                 ) -> pl.DataFrame:
    lows, highs = [], []
    for p, n in zip(frame[points].to_list(), frame[games].to_list(), strict=True):
        low, high = wilson(p, n)
        lows.append(low)
        highs.append(high)
    return frame.with_columns((pl.col(points) / pl.col(games)).alias("score"),
                              pl.Series("low", lows, dtype=pl.Float64),
                              pl.Series("high", highs, dtype=pl.Float64))


def faction_matrix(g: pl.DataFrame) -> pl.DataFrame:
    """Long table: faction, opponent, games, points, score, low, high (row's view)."""
    fg = _faction_games(g)
    agg = (fg.group_by("faction", "opponent")
           .agg(pl.len().alias("games"), pl.col("points").sum())
           .sort("faction", "opponent"))
    return _with_wilson(agg)


def faction_scores(g: pl.DataFrame) -> pl.DataFrame:
    """Each faction's overall score: faction, games, points, score, low, high."""
    fg = _faction_games(g)
    agg = fg.group_by("faction").agg(pl.len().alias("games"), pl.col("points").sum())
    return _with_wilson(agg.sort("faction"))


def faction_spread(g: pl.DataFrame) -> float:
    """Largest minus smallest faction overall score (0 for fewer than two factions)."""
    scores = faction_scores(g)["score"].to_list()
    return max(scores) - min(scores) if len(scores) >= 2 else 0.0


def _faction_arrays(g: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per game with both factions known: Key's and Skull's faction index and Key's
    points; and the number of factions."""
    g = g.filter(pl.col("faction_key").is_not_null() & pl.col("faction_skull").is_not_null())
    names = sorted(set(g["faction_key"].to_list()) | set(g["faction_skull"].to_list()))
    index = {f: i for i, f in enumerate(names)}
    key = np.array([index[f] for f in g["faction_key"].to_list()], dtype=np.int64)
    skull = np.array([index[f] for f in g["faction_skull"].to_list()], dtype=np.int64)
    points = np.array([1.0 if w == "key" else 0.5 if w is None else 0.0
                       for w in g["winner"].to_list()])
    return key, skull, points, len(names)


def _spreads(key: np.ndarray, skull: np.ndarray, points: np.ndarray, k: int) -> np.ndarray:
    """The spread of each row of index arrays (games × samples, resampled or permuted)."""
    rows = points.shape[0]
    offset = (np.arange(rows) * k)[:, None]
    won = (np.bincount((key + offset).ravel(), points.ravel(), rows * k)
           + np.bincount((skull + offset).ravel(), (1.0 - points).ravel(), rows * k))
    games = (np.bincount((key + offset).ravel(), minlength=rows * k)
             + np.bincount((skull + offset).ravel(), minlength=rows * k))
    with np.errstate(invalid="ignore", divide="ignore"):
        score = (won / games).reshape(rows, k)
    return np.asarray(np.nanmax(score, axis=1) - np.nanmin(score, axis=1))


def faction_spread_interval(g: pl.DataFrame, samples: int = 2000,
                            seed: int = 0) -> dict[str, float]:
    """The faction spread with two yardsticks (``samples`` draws each, seeded):

    - ``low``, ``high``: a 95% bootstrap percentile interval (games resampled with
      replacement) — how far the spread itself is pinned down;
    - ``null_mean``, ``null_high``, ``p``: the spread when factions do not matter, from
      a permutation test (each game's result moved to another game at random, the
      pairings kept): its mean and 95th percentile, and the share of such spreads at
      least the one measured. A spread below ``null_high`` is within what chance alone
      gives with this many games."""
    key, skull, points, k = _faction_arrays(g)
    n = points.size
    value = faction_spread(g) if k >= 2 else 0.0
    if k < 2 or n < 2:
        return {"value": value, "low": math.nan, "high": math.nan, "null_mean": math.nan,
                "null_high": math.nan, "p": math.nan, "samples": 0}
    rng = np.random.default_rng(seed)
    boot_parts, null_parts = [], []
    chunk = max(1, 2_000_000 // n)          # bounded memory for large runs
    for start in range(0, samples, chunk):
        m = min(chunk, samples - start)
        take = rng.integers(0, n, size=(m, n))
        boot_parts.append(_spreads(key[take], skull[take], points[take], k))
        shuffled = rng.permuted(np.tile(points, (m, 1)), axis=1)
        null_parts.append(_spreads(np.tile(key, (m, 1)), np.tile(skull, (m, 1)),
                                   shuffled, k))
    boot, null = np.concatenate(boot_parts), np.concatenate(null_parts)
    low, high = np.nanquantile(boot, [0.025, 0.975])
    return {"value": value, "low": float(low), "high": float(high),
            "null_mean": float(null.mean()), "null_high": float(np.quantile(null, 0.95)),
            "p": float((np.sum(null >= value - 1e-12) + 1) / (samples + 1)),
            "samples": samples}


def bradley_terry(g: pl.DataFrame, prior: float = 0.5) -> dict[str, Any]:
    """Faction strengths with a first-move, a seat and (where the rites vary) a rite
    term for each rite (see :data:`DEFINITIONS`).

    P(Key wins) = σ(s + h·m + θ_KeyFaction − θ_SkullFaction + ρ_KeyRite − ρ_SkullRite),
    θ and ρ each summing to 0. Returns ``{"factions": DataFrame(faction, theta, low,
    high, elo, elo_low, elo_high), "rites": DataFrame(rite, theta, …) or None,
    "first_move": (h, low, high), "seat": (s, low, high), "games": n}``."""
    import statsmodels.api as sm

    g = g.filter(pl.col("faction_key").is_not_null() & pl.col("faction_skull").is_not_null())
    factions = sorted(set(g["faction_key"].to_list()) | set(g["faction_skull"].to_list()))
    k = len(factions)
    if k < 2 or g.is_empty():
        raise ValueError("a Bradley–Terry fit needs games between at least two factions")
    drafted = g.filter(pl.col("rite_key").is_not_null() & pl.col("rite_skull").is_not_null())
    rites = sorted(set(drafted["rite_key"].to_list()) | set(drafted["rite_skull"].to_list()))
    # A rite term only where the rites vary between the seats and the whole run has them.
    with_rites = len(rites) >= 2 and len(drafted) == len(g)
    r = len(rites) if with_rites else 0

    def contrast(names: list[str], name: str) -> np.ndarray:
        # Sum-to-zero coding: the last name is minus the sum of the others.
        row = np.zeros(len(names) - 1)
        i = names.index(name)
        if i < len(names) - 1:
            row[i] = 1.0
        else:
            row[:] = -1.0
        return row

    def rite_part(a: str | None, b: str | None) -> np.ndarray:
        if not with_rites or a is None or b is None:
            return np.zeros(max(r - 1, 0))
        part: np.ndarray = contrast(rites, a) - contrast(rites, b)
        return part

    rows, ys, weights = [], [], []
    for fk, fs, rk, rs, first, winner in zip(
            g["faction_key"], g["faction_skull"], g["rite_key"], g["rite_skull"],
            g["first"], g["winner"], strict=True):
        move = 1.0 if first == "key" else -1.0 if first == "skull" else 0.0
        rows.append(np.concatenate([[1.0, move],
                                    contrast(factions, fk) - contrast(factions, fs),
                                    rite_part(rk, rs)]))
        ys.append(1.0 if winner == "key" else 0.5 if winner is None else 0.0)
        weights.append(1.0)
    met = {tuple(sorted(p)) for p in zip(g["faction_key"], g["faction_skull"], strict=True)}
    for a, b in sorted(met):  # the weak prior: half a drawn game per pairing met
        rows.append(np.concatenate([[0.0, 0.0],
                                    contrast(factions, a) - contrast(factions, b),
                                    np.zeros(max(r - 1, 0))]))
        ys.append(0.5)
        weights.append(prior)
    if with_rites:
        rites_met = {tuple(sorted(p)) for p in zip(g["rite_key"], g["rite_skull"],
                                                   strict=True) if p[0] != p[1]}
        for a, b in sorted(rites_met):  # the same prior for the rites
            rows.append(np.concatenate([[0.0, 0.0], np.zeros(k - 1), rite_part(a, b)]))
            ys.append(0.5)
            weights.append(prior)
    x, y, w = np.array(rows), np.array(ys), np.array(weights)
    # Keep only the identifiable columns (no first-move term if it never varies, etc.).
    n_cols = x.shape[1]
    keep = [j for j in range(2) if np.any(x[:, j] != 0)] + list(range(2, 2 + k - 1))
    rite_cols = list(range(2 + k - 1, n_cols))
    rites_note = None
    if rite_cols and np.any(x[:, rite_cols] != 0):
        # judged on the games alone (the prior would make any term look identifiable):
        # the rite columns must add their full rank to the others'
        games_x = x[:len(g)]
        if (np.linalg.matrix_rank(games_x[:, keep + rite_cols])
                - np.linalg.matrix_rank(games_x[:, keep])) == len(rite_cols):
            keep += rite_cols
        else:
            with_rites = False
            rites_note = ("the rites are confounded with the first move or the factions "
                          "(the agents drafted them): no rite term; balance them in the "
                          'spec (rites = "balanced", first = "balanced")')
    else:
        with_rites = False
    if np.linalg.matrix_rank(x[:, keep]) < len(keep):
        raise ValueError("the factions' games do not connect them all (or seat and first "
                         "move are confounded): strengths are not identifiable")
    model = sm.GLM(y, x[:, keep], family=sm.families.Binomial(), freq_weights=w)
    fit = model.fit()
    params = np.zeros(n_cols)
    cov = np.zeros((n_cols, n_cols))
    params[keep] = fit.params
    cov[np.ix_(keep, keep)] = fit.cov_params()
    elo = 400.0 / math.log(10.0)

    def strengths(names: list[str], cols: slice, label: str) -> pl.DataFrame:
        contrasts = np.vstack([contrast(names, n) for n in names])   # m × (m-1)
        theta = contrasts @ params[cols]
        theta_cov = contrasts @ cov[cols, cols] @ contrasts.T
        se = np.sqrt(np.clip(np.diag(theta_cov), 0.0, None))
        return pl.DataFrame({
            label: names, "theta": theta, "low": theta - Z95 * se,
            "high": theta + Z95 * se, "elo": theta * elo,
            "elo_low": (theta - Z95 * se) * elo, "elo_high": (theta + Z95 * se) * elo,
        })

    def term(j: int) -> tuple[float, float, float]:
        s = math.sqrt(max(cov[j, j], 0.0))
        return float(params[j]), float(params[j] - Z95 * s), float(params[j] + Z95 * s)

    return {"factions": strengths(factions, slice(2, 2 + k - 1), "faction"),
            "rites": (strengths(rites, slice(2 + k - 1, n_cols), "rite") if with_rites
                      else None),
            "rites_note": rites_note,
            "seat": term(0), "first_move": term(1), "games": len(g)}


def rite_matrix(g: pl.DataFrame) -> pl.DataFrame:
    """Long table: rite, opponent (the other player's rite), games, points, score, low,
    high — the score of the player holding the row's rite against the column's, over
    both seats, with Wilson intervals."""
    def side(seat: str, other: str) -> pl.DataFrame:
        return g.select(pl.col(f"rite_{seat}").alias("rite"),
                        pl.col(f"rite_{other}").alias("opponent"),
                        pl.when(pl.col("winner") == seat).then(1.0)
                        .when(pl.col("winner").is_null()).then(0.5).otherwise(0.0)
                        .alias("points"))

    both = pl.concat([side("key", "skull"), side("skull", "key")]).filter(
        pl.col("rite").is_not_null() & pl.col("opponent").is_not_null())
    agg = (both.group_by("rite", "opponent")
           .agg(pl.len().alias("games"), pl.col("points").sum()).sort("rite", "opponent"))
    return _with_wilson(agg)


def rite_first_table(g: pl.DataFrame) -> pl.DataFrame:
    """The rite's score split by whether its holder moved first: rite, first (bool),
    games, points, score, low, high — rite and first move told apart."""
    def side(seat: str) -> pl.DataFrame:
        return g.select(pl.col(f"rite_{seat}").alias("rite"),
                        (pl.col("first") == seat).alias("first"),
                        pl.when(pl.col("winner") == seat).then(1.0)
                        .when(pl.col("winner").is_null()).then(0.5).otherwise(0.0)
                        .alias("points"))

    both = pl.concat([side("key"), side("skull")]).filter(pl.col("rite").is_not_null()
                                                           & pl.col("first").is_not_null())
    agg = (both.group_by("rite", "first").agg(pl.len().alias("games"), pl.col("points").sum())
           .sort("rite", "first"))
    return _with_wilson(agg)


# ---------------------------------------------------------------------- how games end
def draw_rate(g: pl.DataFrame) -> dict[str, float]:
    """Drawishness."""
    return _proportion(int(g["winner"].is_null().sum()), len(g))


def round_cap_rate(g: pl.DataFrame) -> dict[str, float]:
    """Share of games stopped by the round cap."""
    return _proportion(int((g["reason"] == "round_cap").sum()), len(g))


#: Evaluation points within which neither player is counted as leading (a Minion is 25).
LEAD_BAND = 20.0


def _sign_runs(evals: list[float], band: float = LEAD_BAND) -> tuple[int, float, float]:
    """Lead changes, the decisive moment (fraction), the share of rounds behind, for a
    trajectory seen from the eventual winner (a lead is more than ``band`` points)."""
    signs = [1 if v > band else -1 if v < -band else 0 for v in evals]
    nonzero = [s for s in signs if s]
    changes = sum(1 for a, b in itertools.pairwise(nonzero) if a != b)
    last_not_ahead = max((i for i, s in enumerate(signs) if s <= 0), default=-1)
    moment = (last_not_ahead + 1) / len(evals) if evals else math.nan
    behind = sum(1 for s in signs if s < 0) / len(evals) if evals else math.nan
    return changes, moment, behind


#: End reasons that are board wins: the Hero killed, the relic home, and M-KEEP's relic
#: points threshold ("a third board win", MODULES.md §6.9); not Vigil or Glory points.
BOARD_WINS: tuple[str, ...] = ("hero_killed", "relic_home", "relic_points")


def decisiveness(g: pl.DataFrame) -> dict[str, Any]:
    """Decisive rate, board-win rate, decisive moment, lead changes and drama."""
    n = len(g)
    decisive = int(g["winner"].is_not_null().sum())
    board = int(g["reason"].is_in(list(BOARD_WINS)).sum())
    changes, moments, behind = [], [], []
    for winner, evals in zip(g["winner"], g["eval_key"], strict=True):
        evals = list(evals) if evals is not None else []
        if not evals:
            continue
        c, _, _ = _sign_runs(evals)
        changes.append(c)
        if winner is None:
            continue
        view = evals if winner == "key" else [-v for v in evals]
        _, m, b = _sign_runs(view)
        moments.append(m)
        behind.append(b)
    return {
        "decisive": _proportion(decisive, n), "board_wins": _proportion(board, n),
        "decisive_moment": mean_interval(moments), "lead_changes": mean_interval(changes),
        "drama": mean_interval(behind),
    }


#: How far behind (evaluation points, one Minion) a comeback starts (MODULES.md §10.2).
COMEBACK_MARGIN = 25.0


def comeback_rate(g: pl.DataFrame) -> dict[str, float]:
    """The share of decisive games won by the side behind by more than
    :data:`COMEBACK_MARGIN` at the middle round (the per-round evaluations, Key's view)."""
    comebacks = decisive = 0
    for winner, evals in zip(g["winner"], g["eval_key"], strict=True):
        if winner is None or evals is None or len(evals) == 0:
            continue
        decisive += 1
        middle = float(evals[len(evals) // 2])
        if (middle if winner == "key" else -middle) < -COMEBACK_MARGIN:
            comebacks += 1
    return _proportion(comebacks, decisive)


def length(g: pl.DataFrame) -> dict[str, float]:
    """Rounds per game: mean (t interval), sd, median, quartiles, min, max."""
    r = g["rounds"].to_numpy().astype(float)
    mean, low, high = mean_interval(r)
    if r.size == 0:
        return {"games": 0, "mean": math.nan, "low": math.nan, "high": math.nan}
    return {"games": int(r.size), "mean": mean, "low": low, "high": high,
            "sd": float(r.std(ddof=1)) if r.size > 1 else math.nan,
            "median": float(np.median(r)), "q1": float(np.quantile(r, 0.25)),
            "q3": float(np.quantile(r, 0.75)), "min": float(r.min()), "max": float(r.max())}


def _shares(frame: pl.DataFrame, column: str, total: int) -> pl.DataFrame:
    counts = frame.group_by(column).agg(pl.len().alias("games")).sort("games", column,
                                                                      descending=[True, False])
    lows, highs = [], []
    for n in counts["games"].to_list():
        low, high = wilson(n, total)
        lows.append(low)
        highs.append(high)
    return counts.with_columns((pl.col("games") / total).alias("share"),
                               pl.Series("low", lows, dtype=pl.Float64),
                               pl.Series("high", highs, dtype=pl.Float64))


def end_reasons(g: pl.DataFrame) -> pl.DataFrame:
    """reason, games, share, low, high."""
    return _shares(g, "reason", len(g))


def tiebreaks(g: pl.DataFrame) -> pl.DataFrame:
    """For Vigil endings: tiebreak (the deciding count), games, share, low, high."""
    vig = g.filter(pl.col("reason") == "vigil")
    return _shares(vig, "tiebreak", len(vig))


# ---------------------------------------------------------------------- choices and play
def rite_win_rates(g: pl.DataFrame) -> pl.DataFrame:
    """rite, picks, pick_share, points, score, low, high, played (share of picks)."""
    def side(seat: str, other: str) -> pl.DataFrame:
        return g.select(
            pl.col(f"rite_{seat}").alias("rite"),
            pl.when(pl.col("winner") == seat).then(1.0)
            .when(pl.col("winner").is_null()).then(0.5).otherwise(0.0).alias("points"),
            (pl.col(f"rites_played_{seat}") > 0).cast(pl.Int64).alias("played"))

    both = pl.concat([side("key", "skull"), side("skull", "key")])
    both = both.filter(pl.col("rite").is_not_null())
    total = len(both)
    agg = (both.group_by("rite").agg(pl.len().alias("games"), pl.col("points").sum(),
                                     pl.col("played").sum()).sort("rite"))
    agg = _with_wilson(agg)
    return agg.with_columns((pl.col("games") / max(total, 1)).alias("pick_share"),
                            (pl.col("played") / pl.col("games")).alias("played_share"))


def _plays(g: pl.DataFrame) -> pl.DataFrame:
    return g.select("plays").explode("plays").drop_nulls().unnest("plays")


def card_mode_usage(g: pl.DataFrame) -> pl.DataFrame:
    """card, mode, plays, share (of the card's plays), per_game."""
    plays = _plays(g)
    if plays.is_empty():
        return pl.DataFrame(schema={"card": pl.String, "mode": pl.String, "plays": pl.Int64,
                                    "share": pl.Float64, "per_game": pl.Float64})
    agg = plays.group_by("card", "mode").agg(pl.col("n").sum().cast(pl.Int64).alias("plays"))
    return (agg.with_columns(
        (pl.col("plays") / pl.col("plays").sum().over("card")).alias("share"),
        (pl.col("plays") / len(g)).alias("per_game"))
        .sort("card", "mode"))


def mode_usage(g: pl.DataFrame) -> pl.DataFrame:
    """mode, plays, share."""
    plays = _plays(g)
    if plays.is_empty():
        return pl.DataFrame(schema={"mode": pl.String, "plays": pl.Int64,
                                    "share": pl.Float64})
    agg = plays.group_by("mode").agg(pl.col("n").sum().cast(pl.Int64).alias("plays"))
    return agg.with_columns((pl.col("plays") / pl.col("plays").sum()).alias("share")) \
        .sort("plays", descending=True)


_COUNTS = {
    "kills": ("killed_key", "killed_skull"),
    "regroups": ("regroups_key", "regroups_skull"),
    "rites_played": ("rites_played_key", "rites_played_skull"),
    "pickups": ("pickups_key", "pickups_skull"),
}


def regroups_kills(g: pl.DataFrame) -> pl.DataFrame:
    """count, group (all / capped / finished), games, mean, low, high, per_100_rounds."""
    rows = []
    groups = {"all": g, "capped": g.filter(pl.col("reason") == "round_cap"),
              "finished": g.filter(pl.col("reason") != "round_cap")}
    for name, (a, b) in _COUNTS.items():
        for group, frame in groups.items():
            if frame.is_empty():
                continue
            per_game = (frame[a] + frame[b]).to_numpy().astype(float)
            mean, low, high = mean_interval(per_game)
            rounds = float(frame["rounds"].sum())
            rows.append({"count": name, "group": group, "games": len(frame), "mean": mean,
                         "low": low, "high": high,
                         "per_100_rounds": 100.0 * per_game.sum() / rounds if rounds else
                         math.nan})
    return pl.DataFrame(rows)


def module_figures(g: pl.DataFrame) -> pl.DataFrame:
    """figure, games, mean, low, high: the rule modules' per-game figures
    (``module_stats``), each over the games that give it, with t intervals."""
    schema = {"figure": pl.String, "games": pl.Int64, "mean": pl.Float64,
              "low": pl.Float64, "high": pl.Float64}
    if "module_stats" not in g.columns or g.is_empty():
        return pl.DataFrame(schema=schema)
    stats = g.select("module_stats").explode("module_stats").drop_nulls().unnest(
        "module_stats")
    rows = []
    for (name,), frame in sorted(stats.group_by("name"), key=lambda t: str(t[0][0])):
        values = frame["value"].to_numpy().astype(float)
        mean, low, high = mean_interval(values)
        rows.append({"figure": name, "games": len(values), "mean": mean, "low": low,
                     "high": high})
    return pl.DataFrame(rows, schema=schema)


def branching(g: pl.DataFrame) -> dict[str, Any]:
    """Mean options at the card-play decision, per seat, with t intervals."""
    return {"key": mean_interval(g["play_options_key"].to_numpy()),
            "skull": mean_interval(g["play_options_skull"].to_numpy())}


def vigil(g: pl.DataFrame) -> dict[str, Any]:
    """Lowest Vigil per game (mean and t interval) and the share never below 4."""
    low = g["vigil_min"].to_numpy().astype(float)
    return {"vigil_min": mean_interval(low),
            "never_below_4": _proportion(int((low >= 4).sum()), int(low.size))}


def timing(g: pl.DataFrame) -> dict[str, float]:
    """Seconds per game (mean) and in all."""
    s = g["seconds"].to_numpy()
    return {"mean_seconds": float(s.mean()) if s.size else math.nan,
            "total_seconds": float(s.sum())}


# ---------------------------------------------------------------------- one number each
def first_player_score(g: pl.DataFrame) -> float:
    return float(first_player_advantage(g)["score"])


def cap_rate(g: pl.DataFrame) -> float:
    return float(round_cap_rate(g)["value"])


def mean_length(g: pl.DataFrame) -> float:
    return float(g["rounds"].mean()) if len(g) else math.nan  # type: ignore[arg-type]


#: The single-number metrics ``lab compare`` and ``lab tune`` use: name -> function.
SCALARS: dict[str, Callable[[pl.DataFrame], float]] = {
    "cap_rate": cap_rate,
    "first_player": first_player_score,
    "faction_spread": faction_spread,
    "mean_length": mean_length,
    "draw_rate": lambda g: float(draw_rate(g)["value"]),
    "comeback_rate": lambda g: float(comeback_rate(g)["value"]),
}


def spread_text(d: dict[str, float]) -> str:
    """``37.5% [21.9%, 56.3%]; chance alone: 95% below 40.6% (p = 0.31)``."""
    if not d["samples"]:
        return f"{d['value']:.1%}"
    return (f"{d['value']:.1%} [{d['low']:.1%}, {d['high']:.1%}]; chance alone: 95% "
            f"below {d['null_high']:.1%} (p = {d['p']:.2f})")


def _pct(d: dict[str, Any], key: str = "value") -> str:
    return f"{d[key]:.1%} [{d['low']:.1%}, {d['high']:.1%}]"


def headline(g: pl.DataFrame) -> dict[str, str]:
    """The few figures a run's summary prints."""
    fpa = first_player_advantage(g)
    ln = length(g)
    out = {
        "games": str(len(g)),
        "round cap rate": _pct(round_cap_rate(g)),
        "draw rate": _pct(draw_rate(g)),
        "first player score": _pct(fpa, "score"),
        "mean rounds": f"{ln['mean']:.1f} [{ln['low']:.1f}, {ln['high']:.1f}]",
    }
    if g["faction_key"].is_not_null().any():
        out["faction spread"] = spread_text(faction_spread_interval(g))
    a = agent_score(g)
    if a is not None:
        out[f"{a['agent']} score"] = _pct(a, "score")
    return out
