"""The lab metrics' remaining contracts value by value (issue 31, by class): the
Bradley–Terry fit against an independent maximum-likelihood fit of its definition
(every strength, interval, Elo figure, the seat and first-move terms with theirs, the
rite terms, the weak prior, which games it uses), the faction spread's bootstrap and
permutation yardsticks against their docstring (what each draw resamples, how many,
their quantiles and the p-value), the lead-and-behind trajectory of a game, the
comeback's middle round and margin, and each metric's empty or one-value edge.

The references are written from ``metrics.DEFINITIONS`` and the docstrings, not from
the code: the Bradley–Terry reference, say, codes the factions against a reference
faction and fits by Newton's method, then centres the strengths to sum to zero."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import polars as pl
import pytest
from scipy import stats

from reliquary.lab import metrics as M

from .tables import game, table

Z = 1.959963984540054
ELO = 400 / math.log(10)


def points(winner: str | None, seat: str) -> float:
    return 1.0 if winner == seat else 0.5 if winner is None else 0.0


# ---------------------------------------------------------------------- Bradley–Terry
def bt_reference(rows: list[dict[str, Any]], prior: float) -> dict[str, Any]:
    """P(Key wins) = σ(s + h·m + θ_KeyFaction − θ_SkullFaction + ρ_KeyRite − ρ_SkullRite),
    m = +1 Key first, −1 Skull first (0 unknown); draws half a win; half a drawn game
    (weight ``prior``) per pairing met, factions and (different) rites. Fitted with the
    last faction and rite at 0, then centred; Wald intervals from the information."""
    games = [r for r in rows if r["faction_key"] is not None and r["faction_skull"] is not None]
    factions = sorted({r["faction_key"] for r in games} | {r["faction_skull"] for r in games})
    rites = sorted({r["rite_key"] for r in games} | {r["rite_skull"] for r in games})
    assert None not in rites and len(rites) >= 2  # the reference: rites in every game
    moves = [1.0 if r["first"] == "key" else -1.0 if r["first"] == "skull" else 0.0
             for r in games]
    with_move = any(moves)
    nf, nr = len(factions), len(rites)

    def coded(names: list[str], a: str, b: str) -> np.ndarray:
        v = np.zeros(len(names))
        v[names.index(a)] += 1.0
        v[names.index(b)] -= 1.0
        return v[:-1]                      # the last name is the reference, at 0

    xs, ys, ws = [], [], []
    for r, m in zip(games, moves, strict=True):
        xs.append(np.concatenate([[1.0], [m] if with_move else [],
                                  coded(factions, r["faction_key"], r["faction_skull"]),
                                  coded(rites, r["rite_key"], r["rite_skull"])]))
        ys.append(points(r["winner"], "key"))
        ws.append(1.0)
    pad = 2 if with_move else 1
    for a, b in sorted({tuple(sorted((r["faction_key"], r["faction_skull"]))) for r in games}):
        if a != b:
            xs.append(np.concatenate([np.zeros(pad), coded(factions, a, b), np.zeros(nr - 1)]))
            ys.append(0.5)
            ws.append(prior)
    for a, b in sorted({tuple(sorted((r["rite_key"], r["rite_skull"]))) for r in games}):
        if a != b:
            xs.append(np.concatenate([np.zeros(pad + nf - 1), coded(rites, a, b)]))
            ys.append(0.5)
            ws.append(prior)
    x, y, w = np.array(xs), np.array(ys), np.array(ws)
    beta = np.zeros(x.shape[1])
    for _ in range(100):                    # Newton's method on the weighted likelihood
        p = 1 / (1 + np.exp(-x @ beta))
        info = x.T @ (x * (w * p * (1 - p))[:, None])
        step = np.linalg.solve(info, x.T @ (w * (y - p)))
        beta += step
        if np.max(np.abs(step)) < 1e-12:
            break
    p = 1 / (1 + np.exp(-x @ beta))
    cov = np.linalg.inv(x.T @ (x * (w * p * (1 - p))[:, None]))

    def centred(first: int, n: int, label: str, names: list[str]) -> list[dict[str, Any]]:
        lift = np.vstack([np.eye(n - 1), np.zeros((1, n - 1))])      # free -> all
        centre = np.eye(n) - np.full((n, n), 1 / n)                   # sum to zero
        a = centre @ lift
        cols = slice(first, first + n - 1)
        theta = a @ beta[cols]
        se = np.sqrt(np.diag(a @ cov[cols, cols] @ a.T))
        return [{label: name, "theta": t, "low": t - Z * s, "high": t + Z * s,
                 "elo": t * ELO, "elo_low": (t - Z * s) * ELO, "elo_high": (t + Z * s) * ELO}
                for name, t, s in zip(names, theta, se, strict=True)]

    def term(j: int | None) -> tuple[float, float, float]:
        if j is None:
            return 0.0, 0.0, 0.0
        s = math.sqrt(cov[j, j])
        return beta[j], beta[j] - Z * s, beta[j] + Z * s

    return {"factions": centred(pad, nf, "faction", factions),
            "rites": centred(pad + nf - 1, nr, "rite", rites),
            "seat": term(0), "first_move": term(1 if with_move else None),
            "games": len(games)}


def bt_rows(seed: int, n: int, firsts: tuple[str | None, ...] = ("key", "skull", None),
            ) -> list[dict[str, Any]]:
    """Games of factions a-d with unequal strengths, three rites, a first-move and a
    seat effect, draws, and a few games with a faction unknown (the fit leaves them out)."""
    rng = random.Random(seed)
    strength = {"a": 0.6, "b": 0.1, "c": -0.2, "d": -0.5}
    rite = {"X": 0.4, "Y": 0.0, "Z": -0.3}
    rows = []
    for i in range(n):
        fk, fs = rng.sample(sorted(strength), 2)
        rk, rs = rng.choice(sorted(rite)), rng.choice(sorted(rite))
        first = rng.choice(firsts)
        m = 1 if first == "key" else -1 if first == "skull" else 0
        z = 0.3 + 0.5 * m + strength[fk] - strength[fs] + rite[rk] - rite[rs]
        u = rng.random()
        p_key = 1 / (1 + math.exp(-z))
        winner = None if u < 0.12 else "key" if rng.random() < p_key else "skull"
        unknown = i % 17 == 5
        rows.append(game(faction_key=None if unknown else fk, faction_skull=fs,
                         rite_key=rk, rite_skull=rs, first=first, winner=winner))
    return rows


def check_bt(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got["games"] == want["games"]
    assert got["rites_note"] is None
    for part, label in (("factions", "faction"), ("rites", "rite")):
        frame = got[part]
        assert frame is not None, part
        assert frame.columns == [label, "theta", "low", "high", "elo", "elo_low", "elo_high"]
        rows = list(frame.iter_rows(named=True))
        assert [r[label] for r in rows] == [r[label] for r in want[part]]
        for a, b in zip(rows, want[part], strict=True):
            for column in ("theta", "low", "high", "elo", "elo_low", "elo_high"):
                tol = 1e-4 * (ELO if column.startswith("elo") else 1.0)  # the GLM's tolerance
                assert a[column] == pytest.approx(b[column], abs=tol), (part, a[label], column)
    for name in ("seat", "first_move"):
        assert got[name] == pytest.approx(want[name], abs=1e-4), name


@pytest.mark.parametrize(("seed", "prior"), [(1, 0.5), (2, 0.0), (3, 2.0), (4, 0.5)])
def test_bradley_terry_against_its_definition(seed: int, prior: float) -> None:
    rows = bt_rows(seed, 260)
    check_bt(M.bradley_terry(table(rows), prior=prior), bt_reference(rows, prior))


def test_bradley_terry_s_default_prior_is_half_a_game() -> None:
    rows = bt_rows(5, 120)
    check_bt(M.bradley_terry(table(rows)), bt_reference(rows, 0.5))


def test_bradley_terry_without_a_known_first_move_has_no_first_move_term() -> None:
    rows = bt_rows(6, 200, firsts=(None,))
    got = M.bradley_terry(table(rows))
    assert got["first_move"] == (0.0, 0.0, 0.0)
    check_bt(got, bt_reference(rows, 0.5))


def test_bradley_terry_with_one_rite_or_a_game_without_rites_has_no_rite_term() -> None:
    rows = bt_rows(7, 150)
    one_rite = [{**r, "rite_key": "X", "rite_skull": "X"} for r in rows]
    got = M.bradley_terry(table(one_rite))
    assert got["rites"] is None and got["rites_note"] is None
    undrafted = [*rows, game(faction_key="a", faction_skull="b", rite_key=None,
                             rite_skull=None)]
    got = M.bradley_terry(table(undrafted))
    assert got["rites"] is None and got["rites_note"] is None
    assert got["games"] == sum(r["faction_key"] is not None for r in undrafted)


def test_bradley_terry_refuses_seat_and_first_move_confounded() -> None:
    """Key always moves first: the seat and first-move terms cannot be told apart."""
    rows = [game(faction_key=fk, faction_skull=fs, first="key", winner=w)
            for fk, fs in (("a", "b"), ("b", "a")) for w in ("key", "skull", None)]
    with pytest.raises(ValueError, match="not identifiable"):
        M.bradley_terry(table(rows))


# ---------------------------------------------------------------------- the faction spread
def spread_of(key: list[int], skull: list[int], pts: list[float]) -> float:
    """Largest minus smallest score among the factions that played (Key gets the
    points, Skull one minus them)."""
    won: dict[int, float] = {}
    played: dict[int, int] = {}
    for k, s, p in zip(key, skull, pts, strict=True):
        won[k] = won.get(k, 0.0) + p
        won[s] = won.get(s, 0.0) + 1 - p
        played[k] = played.get(k, 0) + 1
        played[s] = played.get(s, 0) + 1
    scores = [won[f] / played[f] for f in played]
    return max(scores) - min(scores)


def test_spreads_row_by_row() -> None:
    rng = np.random.default_rng(4)
    k = 4
    key = rng.integers(0, k, size=(30, 7))
    skull = (key + rng.integers(1, k, size=(30, 7))) % k     # never the same faction
    pts = rng.choice([0.0, 0.5, 1.0], size=(30, 7))
    got = M._spreads(key, skull, pts, k)
    assert got.shape == (30,)
    for i in range(30):
        want = spread_of(list(key[i]), list(skull[i]), list(pts[i]))
        assert got[i] == pytest.approx(want), i


def spread_frame(rows: list[tuple[str | None, str | None, str | None]]) -> pl.DataFrame:
    return pl.DataFrame({"faction_key": [r[0] for r in rows],
                         "faction_skull": [r[1] for r in rows],
                         "winner": [r[2] for r in rows]},
                        schema={"faction_key": pl.String, "faction_skull": pl.String,
                                "winner": pl.String})


def random_spread_rows(seed: int, n: int) -> list[tuple[str | None, str | None, str | None]]:
    rng = random.Random(seed)
    edge = {"a": 0.65, "b": 0.5, "c": 0.4}
    out: list[tuple[str | None, str | None, str | None]] = []
    for i in range(n):
        fk, fs = rng.sample(sorted(edge), 2)
        u = rng.random()
        winner = None if u < 0.1 else "key" if rng.random() < edge[fk] / (
            edge[fk] + edge[fs]) else "skull"
        out.append((None if i % 11 == 3 else fk, fs, winner))
    return out


#: Six games, each its own (Key, Skull, result): a game never drawn would show.
SIX = [("a", "b", "key"), ("b", "a", "key"), ("a", "c", None), ("c", "a", "skull"),
       ("b", "c", "key"), ("c", "b", None)]


@pytest.mark.parametrize(("seed", "n", "samples"), [(1, 60, 300), (2, 4500, 700), (0, 6, 400)])
def test_the_spread_s_yardsticks_by_their_docstring(monkeypatch: pytest.MonkeyPatch,
                                                    seed: int, n: int, samples: int) -> None:
    """Each draw passed to the spread: a bootstrap draw resamples whole games (each row
    of games one of the games with both factions known), a permutation draw keeps every
    game's pairing and moves the results around; ``samples`` of each, in draws of at
    most two million values; then the quantiles and the p-value of what came back."""
    rows = random_spread_rows(seed, n) if seed else SIX
    g = spread_frame(rows)
    known = [r for r in rows if r[0] is not None and r[1] is not None]
    names = sorted({f for r in known for f in r[:2] if f is not None})
    index = {f: i for i, f in enumerate(names)}
    key0 = np.array([index[r[0]] for r in known])   # type: ignore[index]
    skull0 = np.array([index[r[1]] for r in known])  # type: ignore[index]
    pts0 = np.array([points(r[2], "key") for r in known])
    calls: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]] = []
    real = M._spreads

    def recording(key: np.ndarray, skull: np.ndarray, pts: np.ndarray, k: int) -> np.ndarray:
        out = real(key, skull, pts, k)
        calls.append((key, skull, pts, k, out))
        return out

    monkeypatch.setattr(M, "_spreads", recording)
    got = M.faction_spread_interval(g, samples=samples, seed=11)
    boot, null = calls[0::2], calls[1::2]
    assert len(boot) == len(null)
    games = len(known)
    per_draw = 2_000_000 // games
    assert len(boot) == math.ceil(samples / per_draw)     # as few draws as the bound allows
    for key, skull, pts, k, _ in calls:
        assert k == len(names) and key.shape == skull.shape == pts.shape
        assert key.shape[1] == games and key.size <= 2_000_000
    assert sum(c[0].shape[0] for c in boot) == sum(c[0].shape[0] for c in null) == samples
    def codes(key: np.ndarray, skull: np.ndarray, pts: np.ndarray) -> np.ndarray:
        return (key * len(names) + skull) * 3 + np.rint(pts * 2).astype(int)

    size = len(names) * len(names) * 3
    original = np.bincount(codes(key0, skull0, pts0), minlength=size)
    drawn = np.zeros(size)
    redrawn = False     # with replacement: some resample's games are not the games
    for key, skull, pts, _, _ in boot:
        found = codes(key, skull, pts)
        assert np.isin(found, codes(key0, skull0, pts0)).all()
        per_row = np.apply_along_axis(np.bincount, 1, found, minlength=size)
        drawn += per_row.sum(axis=0)
        redrawn = redrawn or bool((per_row != original).any())
    assert redrawn
    # each game as likely as any other
    assert drawn / (samples * games) == pytest.approx(original / games, abs=0.02)
    for key, skull, pts, _, _ in null:
        assert (key == key0).all() and (skull == skull0).all()
        assert (np.sort(pts, axis=1) == np.sort(pts0)).all()
    assert any((pts != pts0).any() for _, _, pts, _, _ in null)
    boots = np.concatenate([c[4] for c in boot])
    nulls = np.concatenate([c[4] for c in null])
    value = M.faction_spread(g)
    assert got["value"] == pytest.approx(value)
    assert got["low"] == pytest.approx(float(np.nanquantile(boots, 0.025)))
    assert got["high"] == pytest.approx(float(np.nanquantile(boots, 0.975)))
    assert got["null_mean"] == pytest.approx(float(nulls.mean()))
    assert got["null_high"] == pytest.approx(float(np.quantile(nulls, 0.95)))
    assert got["p"] == pytest.approx((int(np.sum(nulls >= value - 1e-9)) + 1) / (samples + 1))
    assert got["samples"] == samples


def test_the_spread_s_defaults_and_seed() -> None:
    g = spread_frame(random_spread_rows(3, 40))
    default = M.faction_spread_interval(g)
    assert default["samples"] == 2000
    assert default == M.faction_spread_interval(g, samples=2000, seed=0)
    again = M.faction_spread_interval(g, samples=200, seed=5)
    assert again == M.faction_spread_interval(g, samples=200, seed=5)
    assert again != M.faction_spread_interval(g, samples=200, seed=6)


def test_a_spread_chance_never_reaches_has_the_least_p_value() -> None:
    """a wins all 40 games from both seats: only the original order of results gives a
    spread of 1, so no permuted draw reaches it and p = 1 / (samples + 1)."""
    rows = [("a", "b", "key") if i % 2 == 0 else ("b", "a", "skull") for i in range(40)]
    got = M.faction_spread_interval(spread_frame(rows), samples=150, seed=1)
    assert got["value"] == 1.0 and got["low"] == got["high"] == 1.0
    assert got["p"] == pytest.approx(1 / 151)


@pytest.mark.parametrize(("rows", "value"), [
    ([], 0.0), ([(None, "a", "key")] * 3, 0.0), ([("a", "b", "key")], 1.0)])
def test_no_interval_below_two_factions_or_two_games(
        rows: list[tuple[str | None, str | None, str | None]], value: float) -> None:
    got = M.faction_spread_interval(spread_frame(rows), samples=50)
    assert got["value"] == value and got["samples"] == 0
    for name in ("low", "high", "null_mean", "null_high", "p"):
        assert math.isnan(got[name]), name
    assert M.spread_text(got) == f"{value:.1%}"


def test_two_games_are_enough_for_an_interval() -> None:
    got = M.faction_spread_interval(spread_frame([("a", "b", "key"), ("b", "a", None)]),
                                    samples=40, seed=1)
    assert got["samples"] == 40 and got["value"] == pytest.approx(0.5)
    assert 0.0 <= got["low"] <= got["high"] <= 1.0 and 0.0 < got["p"] <= 1.0


def test_the_spread_s_text() -> None:
    d = {"value": 0.375, "low": 0.219, "high": 0.563, "null_high": 0.406, "p": 0.3125,
         "samples": 10}
    assert M.spread_text(d) == "37.5% [21.9%, 56.3%]; chance alone: 95% below 40.6% (p = 0.31)"


# ---------------------------------------------------------------------- leads and comebacks
@pytest.mark.parametrize(("evals", "band", "want"), [
    ([], 20.0, (0, math.nan, math.nan)),
    ([30.0, 30.0], 20.0, (0, 0.0, 0.0)),
    ([-30.0, 10.0, 30.0], 20.0, (1, 2 / 3, 1 / 3)),
    ([20.0, -20.0, 21.0], 20.0, (0, 2 / 3, 0.0)),         # exactly 20 is no lead
    ([-21.0], 20.0, (0, 1.0, 1.0)),
    ([25.0, -25.0, 25.0, -25.0, 40.0], 20.0, (4, 4 / 5, 2 / 5)),
    ([15.0, -15.0, 15.0], 10.0, (2, 2 / 3, 1 / 3)),
    ([15.0, -15.0, 15.0], 20.0, (0, 1.0, 0.0)),
    ([50.0, 50.0, 0.0, 50.0, 50.0, 50.0], 20.0, (0, 0.5, 0.0)),
])
def test_a_trajectory_s_lead_changes_moment_and_time_behind(
        evals: list[float], band: float, want: tuple[float, float, float]) -> None:
    got = M._sign_runs(evals, band)
    assert got[0] == want[0]
    for a, b in zip(got[1:], want[1:], strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)


def test_the_bands() -> None:
    assert M.LEAD_BAND == 20.0 and M.COMEBACK_MARGIN == 25.0
    assert pytest.approx(stats.norm.ppf(0.975), abs=1e-12) == M.Z95
    assert M.BOARD_WINS == ("hero_killed", "relic_home", "relic_points")
    assert M._sign_runs([21.0, 19.0]) == (0, 1.0, 0.0)     # the default band is 20


def test_a_comeback_is_judged_at_the_middle_round_by_more_than_a_minion() -> None:
    rows = [
        game(winner="key", eval_key=[0.0, 0.0, -30.0, 0.0]),     # middle: index 2
        game(winner="key", eval_key=[0.0, -30.0, 0.0, 0.0]),     # index 1: not the middle
        game(winner="key", eval_key=[-25.0]),                    # exactly a Minion: no
        game(winner="skull", eval_key=[26.0, 26.0, 0.0]),        # Skull was behind
        game(winner="skull", eval_key=[0.0, -26.0, 0.0]),        # Skull ahead: no
        game(winner=None, eval_key=[-90.0, -90.0]),              # a draw: not decisive
        game(winner="key", eval_key=[]),                         # no evaluations
    ]
    got = M.comeback_rate(table(rows))
    assert (got["n"], got["value"]) == (5, 2 / 5)
    assert (got["low"], got["high"]) == pytest.approx(M.wilson(2, 5))
    none = M.comeback_rate(table([game(winner=None, eval_key=[1.0])]))
    assert none["n"] == 0 and math.isnan(none["value"]) and math.isnan(none["low"])


def test_decisiveness_on_hand_made_games() -> None:
    rows = [
        game(winner="key", reason="hero_killed", eval_key=[-30.0, 30.0, 30.0]),
        game(winner="skull", reason="vigil", eval_key=[-30.0, 30.0, -30.0, -30.0]),
        game(winner=None, reason="round_cap", eval_key=[30.0, -30.0]),
        game(winner="key", reason="relic_points", eval_key=[]),
    ]
    got = M.decisiveness(table(rows))
    assert (got["decisive"]["n"], got["decisive"]["value"]) == (4, 0.75)
    assert got["board_wins"]["value"] == 0.5
    # moments: 1/3 (Key ahead from round 2), 1/2 (Skull's view: -30 -> ahead from 3)
    assert got["decisive_moment"][0] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert got["lead_changes"][0] == pytest.approx((1 + 2 + 1) / 3)   # the draw counts
    assert got["drama"][0] == pytest.approx((1 / 3 + 1 / 4) / 2)


# ---------------------------------------------------------------------- edges
def test_intervals_at_their_edges() -> None:
    assert all(math.isnan(v) for v in M.wilson(0, 0)) and all(
        math.isnan(v) for v in M.wilson(1, -1))
    p, n = 0.3, 10
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    assert M.wilson(3, 10) == pytest.approx((centre - half, centre + half))
    assert all(math.isnan(v) for v in M.mean_interval([]))
    mean, low, high = M.mean_interval([5.0])
    assert mean == 5.0 and math.isnan(low) and math.isnan(high)
    half = stats.t.ppf(0.975, 1) * math.sqrt(2) / math.sqrt(2)
    assert M.mean_interval([1.0, 3.0]) == pytest.approx((2.0, 2.0 - half, 2.0 + half))
    assert M._proportion(0, 0)["n"] == 0 and math.isnan(M._proportion(0, 0)["value"])


def test_the_first_agent_s_name_and_self_play() -> None:
    rows = [game(agent_key="greedy", agent_skull="search@9", agent_a_seat="skull",
                 winner="skull"),
            game(agent_key="search@9", agent_skull="greedy", agent_a_seat="key",
                 winner=None)]
    got = M.agent_score(table(rows))
    assert got is not None
    assert (got["agent"], got["wins"], got["draws"], got["score"]) == ("search@9", 1, 1, 0.75)
    assert M.agent_score(table([game(), game(winner="skull")])) is None     # self-play
    assert M.agent_score(table(rows).head(0)) is None
    head = M.headline(table([game(), game(winner="skull")]))
    assert not any(k.endswith(" score") and k != "first player score" for k in head)


def test_first_player_without_decisive_games_and_unknown_first_movers() -> None:
    rows = [game(winner=None, first="key"), game(winner=None, first="skull"),
            game(winner="key", first=None)]
    got = M.first_player_advantage(table(rows))
    assert (got["games"], got["wins"], got["losses"], got["draws"], got["decisive"]) == (
        2, 0, 0, 2, 0)
    assert got["score"] == 0.5
    assert math.isnan(got["decisive_share"]) and math.isnan(got["decisive_low"])


def test_length_module_figures_and_timing_of_nothing() -> None:
    empty = table([game()]).head(0)
    assert M.length(empty)["games"] == 0 and math.isnan(M.length(empty)["mean"])
    one = M.length(table([game(rounds=7)]))
    assert (one["games"], one["mean"], one["median"], one["min"], one["max"]) == (
        1, 7.0, 7.0, 7.0, 7.0)
    assert math.isnan(one["sd"]) and math.isnan(one["low"])
    assert M.module_figures(empty).is_empty()
    assert M.module_figures(empty).columns == ["figure", "games", "mean", "low", "high"]
    plain = table([game()]).drop("module_stats")
    assert M.module_figures(plain).is_empty()
    none = M.module_figures(table([{**game(), "module_stats": []}] * 2))  # no module on
    assert none.is_empty() and none.schema == M.module_figures(empty).schema
    assert M.timing(empty)["total_seconds"] == 0.0 and math.isnan(
        M.timing(empty)["mean_seconds"])
    assert M.card_mode_usage(empty).columns == ["card", "mode", "plays", "share", "per_game"]
    assert M.mode_usage(empty).columns == ["mode", "plays", "share"]
    assert math.isnan(M.mean_length(empty))


def test_counts_per_hundred_rounds_without_rounds_and_rite_shares() -> None:
    got = M.regroups_kills(table([game(rounds=0, killed_key=2, reason="round_cap")]))
    kills = {r["group"]: r for r in got.iter_rows(named=True) if r["count"] == "kills"}
    assert set(kills) == {"all", "capped"}
    assert kills["all"]["mean"] == 2.0 and math.isnan(kills["all"]["per_100_rounds"])
    rates = M.rite_win_rates(table([game(rite_key="X", rite_skull=None, winner="key",
                                         rites_played_key=1)] * 2))
    [row] = rates.iter_rows(named=True)
    assert (row["rite"], row["games"], row["pick_share"], row["played_share"], row["score"]) \
        == ("X", 2, 1.0, 1.0, 1.0)


def test_vigil_s_never_below_4_counts_4() -> None:
    got = M.vigil(table([game(vigil_min=v) for v in (4, 3, 6, 4)]))
    assert got["never_below_4"]["value"] == 0.75
    assert got["vigil_min"][0] == pytest.approx(17 / 4)

