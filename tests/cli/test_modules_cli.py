"""The command line takes modules and their options (M-MOD-1, M-MOD-2) from one place."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reliquary.cli.main import cli
from reliquary.engine import replay

from ..modules import smoulder  # registers the worked example module


def test_selfplay_with_a_module_and_an_option_writes_them_in_records(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["selfplay", "--games", "2", "--seed", "3", "--module",
                                 "smoulder", "--module-option", "smoulder.damage=2",
                                 "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    record = json.loads(records[0].read_text())
    assert record["settings"]["modules"] == ["smoulder"]
    assert record["settings"]["smoulder.damage"] == 2
    assert record["content"]["modules"] == {"smoulder": smoulder.MODULE.fingerprint}
    from reliquary import default_content

    replay(record, default_content())


def test_bad_module_input_is_a_clear_error() -> None:
    runner = CliRunner()
    cases = [
        (["--module", "smolder"], "did you mean 'smoulder'"),
        (["--module", "smoulder", "--module-option", "smoulder.damage=9"],
         "smoulder.damage must be a whole number from 1 to 3"),
        (["--module-option", "smoulder.damage=2"], "which is off"),
        (["--module-option", "damage"], "MODULE.OPTION=VALUE"),
    ]
    for args, message in cases:
        result = runner.invoke(cli, ["selfplay", "--games", "1", *args])
        assert result.exit_code == 2 and message in result.output, (args, result.output)


def test_rules_lists_the_modules_with_their_options() -> None:
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0
    assert "smoulder" in result.output and "smoulder.damage" in result.output
    assert "conditions      Conditions (M-COND-1..60)" in result.output
