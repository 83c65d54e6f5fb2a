"""Which games' full records a spec keeps (docs/lab.md, `keep_records`): "all", "draw"
(no winner), "capped" (= "round_cap"), or an ending's name ("hero_killed",
"relic_home", "vigil") — each keeps those games and no others, and a game kept carries
its record from the worker (issue 31: faults keeping every draw, or nothing, passed
the runner's tests)."""

from __future__ import annotations

import pytest

from reliquary.lab import runner
from reliquary.lab.spec import parse_spec

from .test_pinned_lab import CAPPED_SPEC

ENDINGS = [("hero_killed", "key"), ("relic_home", "skull"), ("vigil", "key"),
           ("vigil", None), ("round_cap", None)]


@pytest.mark.parametrize(("keep", "kept"), [
    (["all"], ENDINGS),
    (["draw"], [("vigil", None), ("round_cap", None)]),
    (["capped"], [("round_cap", None)]),
    (["round_cap"], [("round_cap", None)]),
    (["hero_killed"], [("hero_killed", "key")]),
    (["relic_home"], [("relic_home", "skull")]),
    (["vigil"], [("vigil", "key"), ("vigil", None)]),
    (["hero_killed", "capped"], [("hero_killed", "key"), ("round_cap", None)]),
    ([], []),
])
def test_a_spec_keeps_the_records_of_the_games_it_names(
        keep: list[str], kept: list[tuple[str, str | None]]) -> None:
    assert [(reason, winner) for reason, winner in ENDINGS
            if runner.keeps_record(keep, {"reason": reason, "winner": winner})] == kept


def test_a_kept_game_carries_its_record_and_another_does_not() -> None:
    # CAPPED_SPEC's games end at the round cap: draws, capped, never a Vigil or a kill.
    for keep, carried in (('["capped"]', True), ('["hero_killed"]', False)):
        spec = parse_spec(CAPPED_SPEC.replace("seed = 11", f"seed = 11\nkeep_records = {keep}"),
                          "kept.toml")
        row = runner.play_game(spec.jobs()[0])
        assert row["reason"] == "round_cap"
        assert (runner.RECORD_KEY in row) is carried
        if carried:
            record = row[runner.RECORD_KEY]
            assert record["meta"]["game_id"] == row["game_id"]
