"""The engine's command line: selfplay, show, replay, rules — output and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reliquary.cli.main import cli


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_selfplay_json_has_the_promised_fields() -> None:
    code, out = run("selfplay", "--games", "6", "--seed", "3", "--size", "9", "--los",
                    "straight", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("games", "turns", "decisions", "seconds", "turns_per_second",
                "decisions_per_second", "results", "end_reasons", "errors"):
        assert key in data
    assert data["games"] == 6 and data["errors"] == []
    assert sum(data["results"].values()) == 6 == sum(data["end_reasons"].values())
    assert set(data["results"]) == {"first", "second", "draw"}


def test_selfplay_is_reproducible_with_a_seed() -> None:
    first = json.loads(run("selfplay", "-n", "5", "--seed", "8", "--json")[1])
    second = json.loads(run("selfplay", "-n", "5", "--seed", "8", "--json")[1])
    for key in ("turns", "decisions", "results", "end_reasons"):
        assert first[key] == second[key]


def test_selfplay_records_replay_and_show(tmp_path: Path) -> None:
    code, out = run("selfplay", "-n", "2", "--seed", "4", "--records", str(tmp_path))
    assert code == 0 and "throughput" in out and "mean length" in out
    record = tmp_path / "game-4.json"
    code, out = run("replay", str(record))
    assert code == 0, out
    assert "record OK" in out and "setup:" in out and "   1. " in out
    code, out = run("show", str(record))
    assert code == 0 and "result:" in out and " a " in out


def test_show_position_from_stdin(content) -> None:
    from reliquary.engine import Game, position_to_dict
    state = Game(content).state
    code, out = run("show", "-", input=json.dumps(position_to_dict(state)))
    assert code == 0 and "to decide: ruin (Key)" in out


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    run("selfplay", "-n", "1", "--seed", "1", "--records", str(tmp_path))
    path = tmp_path / "game-1.json"
    record = json.loads(path.read_text())
    record["turns"][0][0] = "Nonsense:move"
    path.write_text(json.dumps(record))
    code, out = run("replay", str(path))
    assert code == 1 and "turns[0][0]" in out and "not legal" in out


def test_clear_errors_for_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run("show", str(bad))
    assert code == 1 and "not valid JSON (line 1" in out
    code, out = run("show", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in out
    bad.write_text('{"format": "other"}')
    code, out = run("replay", str(bad))
    assert code == 1 and "not a Reliquary game record" in out


def test_rules_lists_content_and_options() -> None:
    code, out = run("rules")
    assert code == 0
    for word in ("Pilgrim", "Rapture", "Bone Wardens", "Harrow", "los", "first_turn",
                 "round_cap", "provisional"):
        assert word in out


def test_help_everywhere() -> None:
    for command in ("selfplay", "show", "replay", "rules"):
        code, out = run(command, "--help")
        assert code == 0 and "Usage" in out


def test_play_in_the_terminal_against_the_ai() -> None:
    """A human at the terminal: bad input is refused with a reason, then a legal token works."""
    result = CliRunner().invoke(cli, ["play", "--ai", "random", "--seed", "3"],
                                input="z9\n?\nb3\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Key, ruin:" in out
    assert "not accepted" in out
    assert "Skull (random): ruin" in out  # the AI answered after b3
    assert "game left unfinished" in out


def test_play_rejects_unknown_ai() -> None:
    code, out = run("play", "--ai", "grandmaster")
    assert code == 1 and "unknown agent" in out
