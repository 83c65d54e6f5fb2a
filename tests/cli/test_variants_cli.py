"""Rule variants (RULES.md §11, VAR1–VAR4) through the command line, and the terminal
game's secret faction choice (S3)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reliquary import default_content
from reliquary.cli.main import cli
from reliquary.engine import replay


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_VAR1_to_VAR4_selfplay_takes_variants_and_records_them(tmp_path: Path) -> None:
    code, out = run("selfplay", "-n", "3", "--seed", "2", "--json", "--regroup-limit", "1",
                    "--vigil-reset", "hero", "--vigil-start", "4", "--killed-minions",
                    "removed", "--records", str(tmp_path))
    assert code == 0, out
    settings = json.loads(out)["settings"]
    assert (settings["regroup_limit"], settings["vigil_reset"], settings["vigil_start"],
            settings["killed_minions"]) == (1, "hero", 4, "removed")
    record = json.loads((tmp_path / "game-2.json").read_text())
    assert record["settings"]["vigil_start"] == 4
    assert replay(record, default_content()).settings.killed_minions == "removed"


def test_VAR3_a_bad_variant_value_is_refused_with_its_name() -> None:
    code, out = run("selfplay", "-n", "1", "--vigil-start", "9")
    assert code != 0 and "--vigil-start" in out and "1<=x<=6" in out.replace(" ", "")


def test_rules_lists_every_variant_with_its_rule_id() -> None:
    code, out = run("rules", "--no-cards")
    assert code == 0
    for name, rule in [("regroup_limit", "VAR1"), ("vigil_reset", "VAR2"),
                       ("vigil_start", "VAR3"), ("killed_minions", "VAR4")]:
        line = next(line for line in out.splitlines() if line.strip().startswith(name))
        assert rule in line


def test_match_takes_variants() -> None:
    code, out = run("match", "random", "random", "-n", "2", "--workers", "1", "--json",
                    "--vigil-start", "2", "--round-cap", "30")
    assert code == 0, out
    assert json.loads(out[out.index("{"):])["games"] == 2


def test_S3_play_as_skull_does_not_show_the_ai_faction_before_yours() -> None:
    # Key (the AI) marks Ruins and then chooses its faction before Skull does.
    code, out = run("play", "--ai", "random", "--seat", "skull", "--seed", "1",
                    input="c3\nd3\ne3\nquit\n")
    assert code == 0 and "game left unfinished" in out
    before_mine = out.split("Skull, faction:")[0] if "Skull, faction:" in out else out
    ai_faction_lines = [line for line in before_mine.splitlines()
                        if line.startswith("  Key (") and ": faction " in line]
    assert ai_faction_lines, out
    assert all("(chosen in secret)" in line for line in ai_faction_lines)
    content = default_content()
    assert not any(f.id in line for f in content.factions for line in ai_faction_lines)
