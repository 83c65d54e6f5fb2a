"""Matches (statistics, seats, parallel play) and the ``match`` and ``hint`` commands."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from reliquary.ai.match import GameOutcome, MatchSpec, elo_from_score, run_match, summarize
from reliquary.cli.main import cli
from reliquary.engine import KEY, SKULL, position_to_dict


def outcome(i: int, winner: str | None) -> GameOutcome:
    return GameOutcome(index=i, a_seat=i % 2, winner=winner, reason="vigil", rounds=10,
                       seconds=1.0, max_turn_seconds=(0.1, 0.2))


def test_summary_counts_draws_as_half_and_gives_a_wilson_interval() -> None:
    games = [outcome(0, "a"), outcome(1, "a"), outcome(2, "a"), outcome(3, None),
             outcome(4, "b")]
    s = summarize(games)
    assert (s["games"], s["wins_a"], s["wins_b"], s["draws"]) == (5, 3, 1, 1)
    assert s["score_a"] == pytest.approx(0.7)
    low, high = s["score_ci95"]
    assert low < 0.7 < high and low > 0.0 and high < 1.0
    # Wilson's interval for 3.5 points out of 5 at 95%
    z = 1.959964
    centre = (0.7 + z * z / 10) / (1 + z * z / 5)
    half = z / (1 + z * z / 5) * math.sqrt(0.7 * 0.3 / 5 + z * z / 100)
    assert (low, high) == pytest.approx((centre - half, centre + half), abs=1e-4)
    assert s["elo_diff"] == pytest.approx(elo_from_score(0.7), abs=0.1)
    assert s["elo_ci95"][0] < s["elo_diff"] < s["elo_ci95"][1]


def test_elo_is_zero_at_even_and_infinite_at_a_whitewash() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.8, abs=0.1)
    assert elo_from_score(1.0) == math.inf
    s = summarize([outcome(i, "a") for i in range(4)])
    assert s["elo_diff"] is None and s["score_ci95"][1] == 1.0


def test_a_match_alternates_seats_and_is_reproducible() -> None:
    spec = MatchSpec("greedy", "random", games=4, seed=3, round_cap=30)
    first = run_match(spec, workers=1)
    assert [o["a_seat"] for o in first["outcomes"]] == [KEY, SKULL, KEY, SKULL]
    again = run_match(spec, workers=2)  # in parallel: the same games
    assert [o["winner"] for o in again["outcomes"]] == [o["winner"] for o in first["outcomes"]]
    assert [o["rounds"] for o in again["outcomes"]] == [o["rounds"] for o in first["outcomes"]]
    for key in ("games", "wins_a", "wins_b", "draws", "score_a", "score_ci95", "elo_diff",
                "seconds"):
        assert key in first


def test_match_command_prints_json() -> None:
    result = CliRunner().invoke(cli, ["match", "greedy", "random", "--games", "2",
                                      "--seed", "1", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{"):])
    assert data["games"] == 2 and data["wins_a"] + data["wins_b"] + data["draws"] == 2
    assert len(data["score_ci95"]) == 2


def test_match_command_prints_a_table() -> None:
    result = CliRunner().invoke(cli, ["match", "random", "random", "--games", "2",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "score A" in result.stdout and "Elo" in result.stdout


def test_match_command_rejects_an_unknown_agent() -> None:
    result = CliRunner().invoke(cli, ["match", "random", "oracle"])
    assert result.exit_code != 0 and "oracle" in result.output


def test_hint_command_finds_the_winning_shot(build, tmp_path: Path) -> None:
    state = (build().hero(KEY, "d3").hero(SKULL, "d5", hp=2).minion(SKULL, "g6")
             .relic(KEY, "b2").relic(SKULL, "g7")
             .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_dict(state)))
    result = CliRunner().invoke(cli, ["hint", str(path), "--agent", "search",
                                      "--nodes", "5000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player"] == "key" and data["decision"] == "play"
    assert data["best"].endswith(":attack") and data["pv"][0] == data["best"]
    assert data["pv"][-1] == "d5"  # the target: the Skull Hero
    assert data["value"] == 1.0 and data["points"] > 90_000  # a proven win

    text = CliRunner().invoke(cli, ["hint", str(path), "--agent", "greedy"])
    assert text.exit_code == 0 and "Key to play (play):" in text.stdout


def test_hint_command_explains_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something-else"}')
    result = CliRunner().invoke(cli, ["hint", str(path)])
    assert result.exit_code != 0 and "reliquary-position" in result.output
