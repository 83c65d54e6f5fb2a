"""Conditions (issue 23) in the terminal: `reliquary rules` lists the module's rules with
their ids, selfplay takes its options, the text board marks conditions."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reliquary import default_content
from reliquary.cli.main import cli
from reliquary.engine import Builder, replay
from reliquary.engine.modules.conditions import DATA
from reliquary.text import render_board, render_state


def test_rules_lists_every_mcond_rule_with_its_id() -> None:
    result = CliRunner().invoke(cli, ["rules", "--no-cards"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "conditions Conditions (M-COND-1..60)" in out
    for rule in DATA.rule:
        assert f" {rule.id} " in out, rule.id
    assert "conditions.dread_tn 1 to 6 (default 3)" in out
    full = CliRunner().invoke(cli, ["rules", "--module", "conditions"])
    assert full.exit_code == 0, full.output
    assert "Upkeep is simultaneous" in full.output and "M-COND-51" in full.output


def test_selfplay_with_conditions_options_writes_replayable_records(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [
        "selfplay", "--games", "2", "--seed", "5", "--module", "conditions",
        "--module-option", "conditions.dread=hero", "--module-option",
        "conditions.dread_tn=4", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for path in sorted(tmp_path.glob("*.json")):
        record = json.loads(path.read_text())
        assert record["settings"]["conditions.dread"] == "hero"
        replay(record, default_content())


def test_the_text_board_marks_conditions_with_their_values() -> None:
    s = Builder(default_content(), 8, modules=("conditions",)).hero(0, "d4").hero(1, "e6") \
        .minion(1, "c5").build()
    hero, minion = s.piece_at(s.geometry.parse("e6")), s.piece_at(s.geometry.parse("c5"))
    assert hero is not None and minion is not None
    s.add_condition(hero, "burning", 2)
    s.add_condition(hero, "slow")
    s.add_condition(minion, "defensive", 1)
    board = render_board(s)
    assert "h4b2s" in board and "m1d1" in board
    text = render_state(s)
    assert "e6 Skull Hero: Burning 2, Slow" in text and "c5 Skull Minion: Defensive 1" in text
