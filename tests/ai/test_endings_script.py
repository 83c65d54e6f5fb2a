"""``benchmarks/vigil_endings.py``: a run is resumable game by game, and its summary
counts what the file holds."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load_script


@pytest.fixture(scope="module")
def endings() -> ModuleType:
    return load_script("vigil_endings")


def test_a_run_resumes_where_it_stopped(endings: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "random.jsonl"
    argv = ["play", "random", "random", "--seed", "4", "--round-cap", "30", "--out", str(out)]
    endings.main([*argv, "--games", "2"])
    first = out.read_text().splitlines()
    assert json.loads(first[0])["spec"]["agent_a"] == "random" and len(first) == 3
    endings.main([*argv, "--games", "3"])  # plays game 2 only
    again = out.read_text().splitlines()
    assert again[:3] == first and [json.loads(x)["index"] for x in again[1:]] == [0, 1, 2]
    # Game 2 is the game a fresh run of three plays: seeded by the seed and its index.
    fresh = tmp_path / "fresh.jsonl"
    endings.main(["play", "random", "random", "--seed", "4", "--round-cap", "30",
                  "--out", str(fresh), "--games", "3"])
    strip = [{k: v for k, v in json.loads(x).items() if k not in ("seconds", "max_turn_seconds")}
             for x in fresh.read_text().splitlines()[1:]]
    assert strip == [{k: v for k, v in json.loads(x).items()
                      if k not in ("seconds", "max_turn_seconds")} for x in again[1:]]


def test_the_summary_counts_the_files_games(endings: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "made.jsonl"
    games = [("a", "vigil", 20), ("a", "hero_killed", 40), ("b", "relic_home", 30),
             (None, "round_cap", 200)]
    lines = [json.dumps({"spec": {}})] + [
        json.dumps({"index": i, "winner": w, "reason": r, "rounds": n, "seconds": 1.0})
        for i, (w, r, n) in enumerate(games)]
    path.write_text("\n".join(lines) + "\n")
    figures = endings.summarize_file(path)
    assert (figures["games"], figures["ended_before_cap"], figures["a_wins"]) == (4, 3, 2)
    assert figures["mean_rounds_a_wins"] == 30.0 and figures["mean_rounds_decided"] == 30.0
    assert figures["score_a"] == pytest.approx((2 + 0.5) / 4)
    low, high = figures["ended_ci95"]
    assert low < 0.75 < high
    assert figures["reasons"] == {"vigil": 1, "hero_killed": 1, "relic_home": 1, "round_cap": 1}
    with pytest.raises(ValueError, match="no games"):
        endings.summarize_file(tmp_path / "missing.jsonl")
