"""Every lab metric on hand-made game tables with answers worked out by hand."""

from __future__ import annotations

import math

import polars as pl
import pytest

from reliquary.lab import metrics as M

from .tables import game, table

Z = 1.959963984540054


def wilson_by_hand(k: float, n: int) -> tuple[float, float]:
    """The Wilson score interval written out (independent of statsmodels)."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_matches_the_formula_and_handles_no_games() -> None:
    assert M.wilson(7, 10) == pytest.approx(wilson_by_hand(7, 10))
    assert all(math.isnan(x) for x in M.wilson(0, 0))


def test_first_player_advantage_counts_the_mover_not_the_seat() -> None:
    rows = ([game(first="key", winner="key")] * 4 + [game(first="skull", winner="skull")] * 2
            + [game(first="key", winner="skull")] * 2 + [game(winner=None, reason="round_cap")] * 2)
    fpa = M.first_player_advantage(table(rows))
    assert (fpa["wins"], fpa["losses"], fpa["draws"], fpa["games"]) == (6, 2, 2, 10)
    assert fpa["score"] == pytest.approx(0.7)               # (6 + ½·2) / 10
    assert (fpa["low"], fpa["high"]) == pytest.approx(wilson_by_hand(7, 10))
    assert fpa["decisive_share"] == pytest.approx(6 / 8)
    seat = M.seat_advantage(table(rows))
    assert seat["score"] == pytest.approx((4 + 2 * 0.5) / 10)  # Key won 4, drew 2


def test_agent_score_over_both_seatings_and_none_in_self_play() -> None:
    rows = [game(agent_key="search@300", agent_skull="greedy", agent_a_seat="key",
                 winner="key"),
            game(agent_key="greedy", agent_skull="search@300", agent_a_seat="skull",
                 winner="skull"),
            game(agent_key="greedy", agent_skull="search@300", agent_a_seat="skull",
                 winner=None, reason="round_cap")]
    score = M.agent_score(table(rows))
    assert score is not None
    assert score["agent"] == "search@300"
    assert score["score"] == pytest.approx(2.5 / 3)
    assert M.agent_score(table([game(), game()])) is None


def two_faction_games() -> list[dict]:
    return ([game(faction_key="a", faction_skull="b", winner="key")] * 3
            + [game(faction_key="a", faction_skull="b", winner="skull")]
            + [game(faction_key="b", faction_skull="a", winner=None, reason="vigil")])


def test_faction_matrix_scores_each_side_over_both_seats() -> None:
    mat = M.faction_matrix(table(two_faction_games()))
    cells = {(r["faction"], r["opponent"]): r for r in mat.iter_rows(named=True)}
    assert set(cells) == {("a", "b"), ("b", "a")}
    assert cells[("a", "b")]["games"] == 5
    assert cells[("a", "b")]["score"] == pytest.approx(3.5 / 5)
    assert cells[("b", "a")]["score"] == pytest.approx(1.5 / 5)
    assert (cells[("a", "b")]["low"], cells[("a", "b")]["high"]) == pytest.approx(
        wilson_by_hand(3.5, 5))


def test_faction_scores_and_spread() -> None:
    rows = [*two_faction_games(), game(faction_key="c", faction_skull="a", winner="key")]
    scores = {r["faction"]: r for r in M.faction_scores(table(rows)).iter_rows(named=True)}
    assert scores["a"]["games"] == 6 and scores["a"]["score"] == pytest.approx(3.5 / 6)
    assert scores["b"]["score"] == pytest.approx(1.5 / 5)
    assert scores["c"]["score"] == 1.0
    assert M.faction_spread(table(rows)) == pytest.approx(1.0 - 0.3)


def balanced_bt_games() -> list[dict]:
    """a beats b 6 times in 8 from each seat; first move split evenly within results."""
    rows = []
    for fk, fs in (("a", "b"), ("b", "a")):
        a_win = "key" if fk == "a" else "skull"
        b_win = "skull" if fk == "a" else "key"
        for first in ("key", "skull"):
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner=a_win)] * 3
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner=b_win)]
    return rows


def test_bradley_terry_recovers_the_log_odds_with_its_interval() -> None:
    bt = M.bradley_terry(table(balanced_bt_games()), prior=0.0)
    theta = {r["faction"]: r for r in bt["factions"].iter_rows(named=True)}
    # a wins 12 of 16: θa − θb = log 3, sum zero; var(θa − θb) = 1/(16·¾·¼) = 1/3.
    assert theta["a"]["theta"] == pytest.approx(math.log(3) / 2, abs=1e-6)
    assert theta["b"]["theta"] == pytest.approx(-math.log(3) / 2, abs=1e-6)
    se = math.sqrt(1 / 3) / 2
    assert theta["a"]["low"] == pytest.approx(math.log(3) / 2 - Z * se, abs=1e-4)
    assert theta["a"]["elo"] == pytest.approx(math.log(3) / 2 * 400 / math.log(10), abs=1e-3)
    assert bt["first_move"][0] == pytest.approx(0.0, abs=1e-6)
    assert bt["seat"][0] == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_orders_a_chain_and_stays_finite_with_the_prior() -> None:
    rows = []
    for strong, weak in (("a", "b"), ("b", "c"), ("a", "c")):
        for first in ("key", "skull"):
            rows.append(game(faction_key=strong, faction_skull=weak, first=first,
                             winner="key"))
            rows.append(game(faction_key=weak, faction_skull=strong, first=first,
                             winner="skull"))
    bt = M.bradley_terry(table(rows))  # every game won by the stronger: separation
    theta = dict(zip(bt["factions"]["faction"], bt["factions"]["theta"], strict=True))
    assert theta["a"] > theta["b"] > theta["c"]
    assert all(math.isfinite(v) for v in theta.values())
    assert sum(theta.values()) == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_refuses_unconnected_factions() -> None:
    rows = [game(faction_key="a", faction_skull="b"),
            game(faction_key="c", faction_skull="d", first="skull")]
    with pytest.raises(ValueError, match="not identifiable"):
        M.bradley_terry(table(rows))


def test_draw_and_round_cap_rates() -> None:
    rows = ([game()] * 5 + [game(winner=None, reason="round_cap")] * 3
            + [game(winner=None, reason="vigil", tiebreak="tied on every count")] * 2)
    g = table(rows)
    assert M.draw_rate(g)["value"] == pytest.approx(0.5)
    cap = M.round_cap_rate(g)
    assert cap["value"] == pytest.approx(0.3)
    assert (cap["low"], cap["high"]) == pytest.approx(wilson_by_hand(3, 10))
    assert M.SCALARS["cap_rate"](g) == pytest.approx(0.3)
    assert M.SCALARS["draw_rate"](g) == pytest.approx(0.5)


def test_decisiveness_lead_changes_and_drama() -> None:
    rows = [game(winner="key", eval_key=[-30.0, 30.0, 50.0, 60.0]),
            game(winner="skull", reason="vigil", eval_key=[30.0, 10.0, -25.0, -40.0]),
            game(winner=None, reason="round_cap", eval_key=[50.0, -50.0, 50.0])]
    d = M.decisiveness(table(rows))
    assert d["decisive"]["value"] == pytest.approx(2 / 3)
    assert d["board_wins"]["value"] == pytest.approx(1 / 3)   # only the Hero kill
    assert d["lead_changes"][0] == pytest.approx((1 + 1 + 2) / 3)
    # Key led from round 2 of 4 (0.25); Skull from round 3 of 4 (0.5).
    assert d["decisive_moment"][0] == pytest.approx(0.375)
    assert d["drama"][0] == pytest.approx(0.25)              # each behind 1 round in 4


def test_length() -> None:
    ln = M.length(table([game(rounds=r) for r in (10, 20, 30, 40)]))
    assert ln["mean"] == 25 and ln["median"] == 25 and ln["max"] == 40
    half = 3.182446305284263 * math.sqrt(500 / 3) / 2   # t(0.975, 3) · sd / √n
    assert (ln["low"], ln["high"]) == pytest.approx((25 - half, 25 + half))
    assert M.SCALARS["mean_length"](table([game(rounds=3), game(rounds=5)])) == 4


def test_end_reasons_and_tiebreaks() -> None:
    rows = ([game()] * 2 + [game(reason="relic_home")]
            + [game(reason="vigil", tiebreak="higher Vigil score")] * 3
            + [game(reason="vigil", winner=None, tiebreak="tied on every count")])
    reasons = dict(zip(*M.end_reasons(table(rows)).select("reason", "games").to_dict(
        as_series=False).values(), strict=True))
    assert reasons == {"vigil": 4, "hero_killed": 2, "relic_home": 1}
    ties = M.tiebreaks(table(rows))
    assert ties["tiebreak"].to_list() == ["higher Vigil score", "tied on every count"]
    assert ties["share"].to_list() == pytest.approx([0.75, 0.25])


def test_rite_win_rates_given_the_pick() -> None:
    rows = [game(rite_key="Harrow", rite_skull="Exhumation", winner="key",
                 rites_played_key=1),
            game(rite_key="Exhumation", rite_skull="Harrow", winner=None, reason="round_cap"),
            game(rite_key="Harrow", rite_skull="Desecration", winner="skull",
                 rites_played_skull=1)]
    rites = {r["rite"]: r for r in M.rite_win_rates(table(rows)).iter_rows(named=True)}
    assert rites["Harrow"]["games"] == 3
    assert rites["Harrow"]["score"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert rites["Harrow"]["pick_share"] == pytest.approx(0.5)
    assert rites["Harrow"]["played_share"] == pytest.approx(1 / 3)
    assert rites["Exhumation"]["score"] == pytest.approx(0.25)
    assert rites["Desecration"]["score"] == 1.0 and rites["Desecration"]["played_share"] == 1


def test_card_and_mode_usage() -> None:
    def play(card: str, mode: str, n: int, seat: str = "key") -> dict:
        return {"seat": seat, "card": card, "mode": mode, "n": n}

    rows = [game(plays=[play("Bolt", "attack", 3), play("Bolt", "move", 1),
                        play("Vault", "regroup", 2, "skull")]),
            game(plays=[play("Bolt", "attack", 1), play("Vault", "move", 2)])]
    usage = {(r["card"], r["mode"]): r for r in M.card_mode_usage(table(rows))
             .iter_rows(named=True)}
    assert usage[("Bolt", "attack")]["plays"] == 4
    assert usage[("Bolt", "attack")]["share"] == pytest.approx(0.8)
    assert usage[("Bolt", "attack")]["per_game"] == pytest.approx(2.0)
    assert usage[("Vault", "regroup")]["share"] == pytest.approx(0.5)
    modes = dict(zip(*M.mode_usage(table(rows)).select("mode", "share").to_dict(
        as_series=False).values(), strict=True))
    assert modes == pytest.approx({"attack": 4 / 9, "move": 3 / 9, "regroup": 2 / 9})


def test_regroups_and_kills_per_game_split_by_cap() -> None:
    rows = [game(killed_key=2, killed_skull=1, regroups_key=1, rounds=50),
            game(killed_key=10, killed_skull=10, regroups_key=6, regroups_skull=6,
                 rounds=200, reason="round_cap", winner=None)]
    counts = M.regroups_kills(table(rows))
    get = {(r["count"], r["group"]): r for r in counts.iter_rows(named=True)}
    assert get[("kills", "all")]["mean"] == pytest.approx((3 + 20) / 2)
    assert get[("kills", "all")]["per_100_rounds"] == pytest.approx(100 * 23 / 250)
    assert get[("regroups", "capped")]["mean"] == 12
    assert get[("regroups", "finished")]["per_100_rounds"] == pytest.approx(2.0)
    assert math.isnan(get[("regroups", "capped")]["low"])      # one game: no interval


def test_branching_vigil_and_timing() -> None:
    rows = [game(play_options_key=5.0, play_options_skull=7.0, vigil_min=6, seconds=2.0),
            game(play_options_key=7.0, play_options_skull=7.0, vigil_min=1, seconds=4.0)]
    g = table(rows)
    assert M.branching(g)["key"][0] == 6.0
    assert M.vigil(g)["vigil_min"][0] == 3.5
    assert M.vigil(g)["never_below_4"]["value"] == 0.5
    assert M.timing(g) == {"mean_seconds": 3.0, "total_seconds": 6.0}


def test_headline_and_definitions_cover_every_metric() -> None:
    head = M.headline(table(two_faction_games()))
    assert head["games"] == "5" and "round cap rate" in head
    public = {name for name in dir(M) if name in M.DEFINITIONS}
    assert public == set(M.DEFINITIONS)   # every definition names a metric function
    assert isinstance(M.outcomes(table([game()])), dict)
    assert pl.DataFrame is type(M.faction_matrix(table([game()])))
