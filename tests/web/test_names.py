"""Faction and rite names in each language are game text (help_cards.toml's [names]),
served in /api/meta and used by the server's Spanish log — not a table in the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary import default_content
from reliquary.content import game_names, load_help_cards
from reliquary.engine import ContentError
from reliquary.web import create_app

STATIC = Path(__file__).resolve().parents[2] / "src" / "reliquary" / "web" / "static"


def test_every_faction_and_rite_has_a_spanish_name_in_the_data() -> None:
    content = default_content()
    names = game_names(content, strict=True)
    assert set(names["factions"]) == {f.id for f in content.factions}
    assert set(names["rites"]) == {r.id for r in content.rites}
    assert names["factions"]["pyre-choir"] == {"en": "Pyre Choir", "es": "Coro de la Pira"}
    assert names["rites"]["Exhumation"]["es"] == "Exhumación"
    for section in names.values():  # every name given in Spanish, not the English fallback
        assert all(n["es"] != n["en"] for n in section.values()), section


def write_help_cards(folder: Path, names: str) -> None:
    packaged = (Path(__file__).resolve().parents[2] / "src" / "reliquary" / "data"
                / "help_cards.toml").read_text(encoding="utf-8")
    start = packaged.index("[names.factions]")
    end = packaged.index("[labels]")
    (folder / "help_cards.toml").write_text(packaged[:start] + names + "\n"
                                            + packaged[end:], encoding="utf-8")


def test_bad_names_are_refused_saying_where(tmp_path: Path) -> None:
    write_help_cards(tmp_path, '[names.factions]\npyre-choir = { en = "Pyre Choir" }\n')
    with pytest.raises(ContentError, match=r"names\.factions\.pyre-choir\.es"):
        load_help_cards(tmp_path)
    write_help_cards(tmp_path, '[names.factions]\nno-such = { en = "X", es = "Y" }\n')
    helps = load_help_cards(tmp_path)
    with pytest.raises(ContentError, match=r"names\.factions\.no-such: the content has no"):
        game_names(default_content(), helps, strict=True)
    assert game_names(default_content(), helps)["factions"]["pyre-choir"]["es"] == \
        "Pyre Choir"  # not strict: left out, the English name in both
    write_help_cards(tmp_path, '[names.rites]\nHarrow = { en = "Harrowing", es = "Saqueo" }\n')
    with pytest.raises(ContentError, match=r"names\.rites\.Harrow: the English name"):
        game_names(default_content(), load_help_cards(tmp_path), strict=True)


def test_meta_and_the_spanish_log_use_the_names_from_data(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", ai_delay=0)) as client:
        meta = client.get("/api/meta").json()
        grave = next(f for f in meta["factions"] if f["id"] == "grave-tide")
        assert grave["names"] == {"en": "Grave Tide", "es": "Marea Sepulcral"}
        harrow = next(r for r in meta["rites"] if r["id"] == "Harrow")
        assert harrow["names"] == {"en": "Harrow", "es": "Saqueo"}
        game = client.post("/api/games", json={"mode": "hotseat"}).json()  # quick setup
        view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
        names_es = {f["names"]["es"] for f in meta["factions"]}
        revealed = next(line for line in view["log"] if "Factions revealed" in line["en"])
        assert sum(name in revealed["es"] for name in names_es) == 2, revealed
        rites = [line["es"] for line in view["log"] if "toma el rito" in line["es"]]
        assert rites and all(any(r["names"]["es"] in line for r in meta["rites"])
                             for line in rites), rites


def test_the_page_holds_no_table_of_names() -> None:
    names = game_names(default_content())
    spanish = [n["es"] for section in names.values() for n in section.values()]
    for script in STATIC.rglob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert not [name for name in spanish if name in text], script
