"""End to end: a small spec played locally (in process and over two processes) and on a
local Ray instance stores identical games; resuming skips stored games; the report
renders with every plot; the CLI commands work."""

from __future__ import annotations

import base64
import json
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from reliquary.cli.main import cli
from reliquary.lab.report import FIGURES, render
from reliquary.lab.runner import run_spec
from reliquary.lab.spec import load_spec, parse_spec
from reliquary.lab.store import TIMING_COLUMNS, Store, StoreError, code_fingerprint

SPEC = """
name = "tiny"
seed = 7
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"], ["storm-sworn", "bone-wardens"]]
[settings]
round_cap = 12
regroup_limit = 1
[[agents]]
name = "greedy"
[[agents]]
name = "search"
nodes = 30
"""


def stored(run: Path) -> pl.DataFrame:
    return Store(run).table().drop(list(TIMING_COLUMNS))


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "tiny.toml"
    path.write_text(SPEC)
    return path


@pytest.fixture(scope="module")
def local_run(spec_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("runs") / "local"
    summary = run_spec(load_spec(spec_file), run, workers=1)
    assert summary["played"] == 4 and summary["stored"] == 4
    return run


def test_the_store_holds_every_column_and_a_sane_game(local_run: Path) -> None:
    g = Store(local_run).table()
    assert g["game_index"].to_list() == [0, 1, 2, 3]
    assert set(g["regroup_limit"].to_list()) == {1}
    assert set(g["round_cap"].to_list()) == {12}
    assert (g["regroups_key"] <= 1).all() and (g["regroups_skull"] <= 1).all()  # VAR1
    assert g["faction_key"].to_list() == ["pyre-choir", "storm-sworn"] * 2
    assert g["agent_key"].to_list() == ["greedy", "greedy", "search@30", "search@30"]
    assert g["agent_a_seat"].to_list() == ["key", "key", "skull", "skull"]
    assert g["reason"].is_in(["hero_killed", "relic_home", "vigil", "round_cap"]).all()
    assert (g["rounds"] <= 12).all()
    assert (g["rite_key"].is_not_null()).all() and (g["first"].is_not_null()).all()
    row = g.row(0, named=True)
    plays = sum(p["n"] for p in row["plays"])
    assert plays == row["turns"]            # one card play per turn
    assert len(row["eval_key"]) == row["rounds"]
    meta = Store(local_run).meta()
    assert meta["code"] == [code_fingerprint()] and meta["spec_hash"] == row["spec_hash"]
    # The store is plain Parquet: DuckDB reads it as it is.
    import duckdb

    count = duckdb.sql(f"select count(*) from '{local_run}/games/*.parquet'").fetchall()
    assert count == [(4,)]


def test_two_processes_store_the_same_games(spec_file: Path, local_run: Path,
                                            tmp_path: Path) -> None:
    run_spec(load_spec(spec_file), tmp_path / "two", workers=2, batch=1)
    assert len(list((tmp_path / "two" / "games").glob("*.parquet"))) == 4
    assert stored(tmp_path / "two").equals(stored(local_run))


def test_ray_stores_the_same_games(spec_file: Path, local_run: Path, tmp_path: Path) -> None:
    import ray  # the lab extra: installed by scripts/test.sh

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        summary = run_spec(load_spec(spec_file), tmp_path / "ray", ray_address="auto")
    finally:
        ray.shutdown()
    assert summary["played"] == 4
    assert stored(tmp_path / "ray").equals(stored(local_run))


def test_resume_skips_finished_games(spec_file: Path, local_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "resume"
    first = run_spec(load_spec(spec_file), run, workers=1, batch=2)
    assert first["played"] == 4
    # Lose the last batch, as if the run had been killed: only those games are replayed.
    Store(run).parts()[-1].unlink()
    seen: list[int] = []
    again = run_spec(load_spec(spec_file), run, workers=1,
                     on_row=lambda r: seen.append(r["game_index"]))
    assert (again["played"], again["skipped"]) == (2, 2)
    assert sorted(seen) == [2, 3]
    # More games per cell adds games and keeps the stored ones.
    bigger = parse_spec(SPEC.replace("games_per_cell = 1", "games_per_cell = 2"),
                        spec_file)
    more = run_spec(bigger, run, workers=1)
    assert (more["played"], more["skipped"]) == (4, 4)
    assert stored(run).head(4).equals(stored(local_run))
    other = parse_spec(SPEC.replace("seed = 7", "seed = 8"), spec_file)
    with pytest.raises(StoreError, match="another tournament"):
        run_spec(other, run, workers=1)


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, str] = {}
        self.current: str | None = None
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "figure":
            self.current = (a.get("id") or "").removeprefix("fig-")
        if tag == "img" and self.current:
            self.figures[self.current] = a.get("src") or ""
        for name in ("src", "href"):
            value = a.get(name) or ""
            if value.startswith(("http:", "https:", "//")):
                self.links.append(value)


def test_the_report_renders_every_plot_self_contained(local_run: Path, tmp_path: Path) -> None:
    g = Store(local_run).table()
    html_path, md_path = render(g, "tiny: greedy vs search@30 — 4 games", tmp_path / "rep")
    parser = _Images()
    parser.feed(html_path.read_text())
    assert set(parser.figures) == set(FIGURES)
    for src in parser.figures.values():
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert parser.links == []          # nothing fetched from the network
    md = md_path.read_text()
    for name in FIGURES:
        assert f"plots/{name}.png" in md
        assert (tmp_path / "rep" / "plots" / f"{name}.png").stat().st_size > 1000
    assert "first-player score" in md and "Bradley–Terry" in md


def test_cli_run_report_metrics_and_bad_spec(spec_file: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    result = runner.invoke(cli, ["lab", "run", str(spec_file), "--out", str(out),
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{"):])
    assert summary["played"] == 4 and "round cap rate" in summary["headline"]
    result = runner.invoke(cli, ["lab", "report", str(out)])
    assert result.exit_code == 0, result.output
    html = (out / "report" / "report.html").read_text()
    assert "tiny: greedy vs search@30; size=8, round_cap=12, regroup_limit=1 — 4 games" in html
    assert "reliquary lab run" in html
    result = runner.invoke(cli, ["lab", "metrics"])
    assert "bradley_terry" in result.output and "first_player_advantage" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(SPEC.replace('name = "search"', 'name = "deep-blue"'))
    result = runner.invoke(cli, ["lab", "run", str(bad), "--out", str(tmp_path / "x")])
    assert result.exit_code != 0
    assert f"{bad}: agents[1].name: unknown agent 'deep-blue'; allowed:" in result.output
    assert not (tmp_path / "x").exists()   # refused before anything was played or made
