"""A run under a ruleset with a content patch plays its games with the patched content
(docs/lab.md, "Rulesets"; each row's `content` is the fingerprint its game was played
with). Issue 31, sample H: a fault sending every game the packaged content instead
(the spec's `custom_content` never read) passed the spec's and runner's tests."""

from __future__ import annotations

from pathlib import Path

from reliquary.content import default_content
from reliquary.lab.runner import play_game
from reliquary.lab.spec import parse_spec

SPEC = """
seed = 5
games_per_cell = 2
{ruleset}
factions = [["lantern-bearers", "hollow-kin"]]
[settings]
round_cap = 6
[[agents]]
name = "random"
"""


RULESET = """
description = "Lantern Bearers' Hero reaches 2 (a test's ruleset)."
[patch.factions.lantern-bearers.hero]
range = 2
"""


def test_a_patched_ruleset_s_games_are_played_with_the_patched_content(
        tmp_path: Path) -> None:
    (tmp_path / "short-lantern.toml").write_text(RULESET, encoding="utf-8")
    spec = parse_spec(SPEC.format(ruleset='ruleset = "short-lantern.toml"'),
                      tmp_path / "t.toml")
    packaged = default_content().fingerprint
    assert spec.custom_content and spec.content.fingerprint != packaged
    jobs = spec.jobs()
    assert len(jobs) == 2
    for job in jobs:
        assert job.content is not None
        assert job.content.fingerprint == spec.content.fingerprint
    # The patch is there in play: Lantern Bearers' Hero reaches 2 (3 in the package).
    patched = jobs[0].content
    assert patched is not None
    lantern = next(f for f in patched.factions if f.id == "lantern-bearers")
    assert lantern.hero.range == 2
    assert next(f for f in default_content().factions
                if f.id == "lantern-bearers").hero.range == 3
    row = play_game(jobs[0])
    assert row["content"] == spec.content.fingerprint


def test_the_packaged_content_s_games_carry_no_content() -> None:
    # Without a patch or a content folder the jobs leave the content to the worker's
    # packaged one (nothing to pickle per game) and still play it.
    spec = parse_spec(SPEC.format(ruleset=""), Path("c.toml"))
    assert not spec.custom_content
    jobs = spec.jobs()
    assert all(job.content is None for job in jobs)
    assert play_game(jobs[0])["content"] == default_content().fingerprint
