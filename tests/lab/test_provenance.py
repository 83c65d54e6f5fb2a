"""A run says how it was made (command, overrides, content folder and fingerprint),
keeps the records it was asked to keep (and the report links their replays), two runs
report side by side, and ``lab compare`` counts stored and new games right and reuses
the games ``lab run`` stored."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import reliquary
from reliquary.cli.main import cli
from reliquary.content import load_content
from reliquary.lab.store import Store

SPEC = """
name = "{name}"
seed = 4
games_per_cell = 3
content = "mycontent"
keep_records = ["all"]
factions = [["pyre-choir", "grave-tide"], ["storm-sworn", "bone-wardens"]]
[settings]
round_cap = {cap}
[[agents]]
name = "{agent}"
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = Path(reliquary.__file__).parent / "data"
    (tmp_path / "mycontent").mkdir()
    for toml in data.glob("*.toml"):
        shutil.copy(toml, tmp_path / "mycontent")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _spec(folder: Path, name: str, agent: str = "greedy", cap: int = 8) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(SPEC.format(name=name, agent=agent, cap=cap))
    return path


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a":
            self.hrefs.append(a.get("href") or "")
        if tag == "img":
            self.images.append(a.get("alt") or "")


def test_a_run_records_its_command_overrides_and_content(folder: Path) -> None:
    spec = _spec(folder, "prov")
    _invoke("lab", "run", spec.name, "--out", "runs/prov", "--games-per-cell", "1",
            "--workers", "1")
    meta = json.loads((folder / "runs/prov/lab.json").read_text())
    assert meta["command"] == ("reliquary lab run prov.toml --out runs/prov "
                               "--games-per-cell 1 --workers 1")
    assert meta["overrides"] == {"games_per_cell": 1}
    assert meta["cwd"] == str(folder)
    assert meta["content_dir"] == str(folder / "mycontent")
    assert meta["content"] == load_content(folder / "mycontent").fingerprint
    _invoke("lab", "report", "runs/prov")
    html = (folder / "runs/prov/report/report.html").read_text()
    assert ("Reproduce: <code>reliquary lab run prov.toml --out runs/prov --games-per-cell 1 "
            "--workers 1</code>") in html
    assert f"{folder / 'mycontent'} (fingerprint {meta['content']})" in html
    assert "overrides: <code>games_per_cell=1</code>" in html
    md = (folder / "runs/prov/report/report.md").read_text()
    assert "--games-per-cell 1" in md and str(folder / "mycontent") in md


def test_kept_records_replay_and_the_report_links_each(folder: Path) -> None:
    spec = _spec(folder, "kept")
    _invoke("lab", "run", str(spec), "--out", "runs/kept", "--games-per-cell", "1",
            "--workers", "2")
    store = Store(folder / "runs/kept")
    records = store.records()
    assert sorted(records) == sorted(store.table()["game_id"].to_list())  # "all": 2 games
    for path in records.values():
        out = _invoke("replay", str(path), "--content", "mycontent")
        assert "record OK" in out
        record = json.loads(path.read_text())
        row = store.table().filter(store.table()["game_id"] == path.stem).row(0, named=True)
        assert record["result"]["reason"] == row["reason"]
        assert record["meta"]["factions"] == [row["faction_key"], row["faction_skull"]]
    _invoke("lab", "report", "runs/kept")
    report = folder / "runs/kept/report"
    parser = _Links()
    parser.feed((report / "report.html").read_text())
    for game_id in records:
        assert f"replays/{game_id}.html" in parser.hrefs
        assert f"../records/{game_id}.json" in parser.hrefs
        page = (report / "replays" / f"{game_id}.html").read_text()
        assert "result: " in page and "reliquary replay" in page


def test_a_spec_keeps_only_the_records_it_names(folder: Path) -> None:
    spec = _spec(folder, "capped", cap=2)
    spec.write_text(spec.read_text().replace('["all"]', '["hero_killed"]'))
    _invoke("lab", "run", str(spec), "--out", "runs/capped", "--games-per-cell", "1",
            "--workers", "1")
    store = Store(folder / "runs/capped")
    assert set(store.table()["reason"].to_list()) == {"round_cap"}
    assert store.records() == {}


def test_two_runs_side_by_side(folder: Path) -> None:
    _invoke("lab", "run", str(_spec(folder, "left")), "--out", "runs/left",
            "--games-per-cell", "1", "--workers", "1")
    _invoke("lab", "run", str(_spec(folder, "right", agent="random", cap=12)), "--out",
            "runs/right", "--games-per-cell", "1", "--workers", "1")
    out = _invoke("lab", "report", "runs/left", "runs/right")
    html_path = folder / "runs/left/report-vs-right/report.html"
    assert str(Path("runs/left/report-vs-right/report.html")) in out
    html = html_path.read_text()
    assert "A: left: greedy; size=8, round_cap=8 — 2 games" in html
    assert "B: right: random; size=8, round_cap=12 — 2 games" in html
    parser = _Links()
    parser.feed(html)
    assert sum(alt.startswith("A: ") for alt in parser.images) == \
        sum(alt.startswith("B: ") for alt in parser.images) >= 9
    headline = re.search(r"<h2>Headline: A and B</h2><table>(.*?)</table>", html)
    assert headline and "<th>A</th><th>B</th>" in headline.group(1)
    assert "round_cap=12" in (html_path.parent / "report.md").read_text()


def test_compare_counts_stored_and_new_games_and_reuses_lab_run(folder: Path) -> None:
    a = _spec(folder, "a")
    b = _spec(folder, "b", agent="random")      # the same games but for the agent
    _invoke("lab", "run", str(a), "--games-per-cell", "3", "--workers", "1")
    assert len(Store(folder / "lab-runs/a").table()) == 6
    out = _invoke("lab", "compare", str(a), str(b), "--metric", "mean_length",
                  "--max-games", "10", "--workers", "1")
    # 5 pairs: A's 5 games were stored by lab run, B's 5 are new; nothing more is played.
    assert ("decision: undecided after 10 games (5 pairs): 5 already stored, 5 new; "
            "5 games played now; runs in lab-runs/a and lab-runs/b") in out
    assert len(Store(folder / "lab-runs/a").table()) == 6
    # A and B share game ids (same seed and cells) but not their agent: nothing mixed.
    assert set(Store(folder / "lab-runs/a").table()["agent_key"].to_list()) == {"greedy"}
    assert set(Store(folder / "lab-runs/b").table()["agent_key"].to_list()) == {"random"}
    again = _invoke("lab", "compare", str(a), str(b), "--metric", "mean_length",
                    "--max-games", "10", "--workers", "1")
    assert "10 already stored, 0 new; 0 games played now" in again
