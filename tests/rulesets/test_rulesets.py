"""Named rulesets and content patches (issue 26): validation that names the file and the
field, the fingerprint, every face's ``--ruleset``, records that carry their ruleset and
are refused under another, the web's ruleset field."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from reliquary import default_content
from reliquary.ai import sample_chance
from reliquary.cli.main import cli
from reliquary.engine import Game
from reliquary.rulesets import (
    RulesetError,
    check_record,
    differences,
    load_ruleset,
    patched_content,
    ruleset_names,
    ruleset_of_record,
)

PATCHED = """description = "Lantern Bearers' Hero has 3 HP; Storm Sworn's Hero hits for 2."
[settings]
killed_minions = "removed"
[patch.factions.lantern-bearers]
hero_hp = 3
[patch.factions.storm-sworn.hero]
damage = 2
[patch.cards.Smite.attack.hero]
range = 2
"""


@pytest.fixture
def patched(tmp_path: Path) -> Path:
    path = tmp_path / "patched.toml"
    path.write_text(PATCHED, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_classic_is_the_default_and_changes_nothing() -> None:
    classic = load_ruleset()
    assert classic.name == "classic" and classic.is_classic and differences(classic) == []
    assert classic.content().fingerprint == default_content().fingerprint
    assert ruleset_names()[0] == "classic" and "tournament" in ruleset_names()
    for name in ruleset_names():       # every packaged ruleset loads and says what it is
        assert load_ruleset(name).description


def test_a_patch_changes_the_numbers_the_texts_and_the_fingerprint(patched: Path) -> None:
    ruleset = load_ruleset(patched)
    content = ruleset.content()
    assert content.fingerprint != default_content().fingerprint
    assert content.faction("lantern-bearers").hero_hp == 3
    assert content.faction("storm-sworn").hero.damage == 2
    smite = content.card("Smite").attack
    assert not isinstance(smite, str) and smite.hero is not None and smite.hero.range == 2
    assert content.faction("lantern-bearers").text != \
        default_content().faction("lantern-bearers").text   # its card says 3 HP now
    assert differences(ruleset) == [
        "setting killed_minions: 'pool' → 'removed'  (" + differences(ruleset)[0].split("(", 1)[1],
        "content factions.lantern-bearers.hero_hp: 4 → 3",
        "content factions.storm-sworn.hero.damage: 1 → 2",
        "content cards.Smite.attack.hero.range: 1 → 2"]


@pytest.mark.parametrize(("patch", "message"), [
    ("[patch.factions.lantern-bearers]\nhp = 3",
     "bad.toml: patch.factions.lantern-bearers.hp: unknown field; a patch may change: "
     "hero_hp, hero, minion"),
    ("[patch.factions.lantern-bearers.hero]\nrnage = 3",
     "bad.toml: patch.factions.lantern-bearers.hero.rnage: unknown field (did you mean "
     "'range'?)"),
    ("[patch.factions.lantern-bearer]\nhero_hp = 3",
     "bad.toml: patch.factions.lantern-bearer: no such faction in factions.toml (did you "
     "mean 'lantern-bearers'?)"),
    ("[patch.cards.Vault.attack.hero]\ndamage = 2",
     "bad.toml: patch.cards.Vault.attack: this card attacks with the faction's attack"),
    ("[patch.cardz.Vault]\nescort = true",
     "bad.toml: patch.cardz: unknown section (did you mean 'cards'?)"),
    ("[patch.factions.grave-tide]\nhero_hp = 0",
     "bad.toml: patch.factions.grave-tide.hero_hp: must be from 1 to 12 (got 0)"),
    ("[patch.factions.grave-tide.minion]\ndamage = 'two'",
     "bad.toml: patch.factions.grave-tide.minion.damage: must be a whole number from 0 to 6"),
    # valid numbers one by one that the content's own validation refuses
    ("[patch.factions.storm-sworn.hero]\npull = 1",
     "bad.toml: patch.factions.storm-sworn.hero.pull: 1 breaks the content: factions.toml: "
     "faction storm-sworn: field 'hero': a line cannot both push and pull"),
    ("[patch.board.8]\nruins = 3",
     "bad.toml: patch.board.8.ruins: 3 breaks the content: board.toml: row #1: ruins come "
     "in mirrored pairs"),
    ("[patch.rites.Harrow]\neffect = 'exhumaton'",
     "bad.toml: patch.rites.Harrow.effect: must be the effect of one of the content's rites "
     "(did you mean 'exhumation'?); allowed: desecration, exhumation, harrow (got "
     "'exhumaton')"),
    ("[patch.rites.Harow]\neffect = 'exhumation'",
     "bad.toml: patch.rites.Harow: no such rite in rites.toml (did you mean 'Harrow'?)"),
    ("[patch.rites.Harrow]\ntext = 'Anything'",
     "bad.toml: patch.rites.Harrow.text: unknown field; a patch may change: effect"),
    ("[patch.factions.grave-tide]\nhero = 2",
     "bad.toml: patch.factions.grave-tide.hero: must be a table of the line's numbers"),
    ("[settings]\nkilled_minion = 'removed'",
     "bad.toml: settings.killed_minion: unknown setting (did you mean 'killed_minions'?)"),
    ("[settings]\nvigil_start = 9",
     "bad.toml: settings.vigil_start: vigil_start must be a whole number from 1 to 6"),
])
def test_a_bad_patch_names_the_file_and_the_field(tmp_path: Path, patch: str,
                                                  message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'description = "x"\n{patch}\n', encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    assert message in str(err.value)


def test_a_rite_may_take_another_rite_s_effect_and_its_text(tmp_path: Path) -> None:
    path = tmp_path / "harrow.toml"
    path.write_text('description = "x"\n[settings]\nkilled_minions = "removed"\n'
                    '[patch.rites.Harrow]\neffect = "exhumation"\n', encoding="utf-8")
    ruleset = load_ruleset(path)
    content = ruleset.content()
    harrow = next(r for r in content.rites if r.id == "Harrow")
    exhumation = next(r for r in default_content().rites if r.id == "Exhumation")
    assert harrow.effect == "exhumation" and harrow.text == exhumation.text
    assert content.fingerprint != default_content().fingerprint
    assert differences(ruleset)[-1] == "content rites.Harrow.effect: 'harrow' → 'exhumation'"
    # `print --ruleset` prints the table sheet, where the rite cards are, even with no setting
    from reliquary.cli.print_cmd import _changed_sheets
    path.write_text('description = "x"\n[patch.rites.Harrow]\neffect = "desecration"\n',
                    encoding="utf-8")
    assert _changed_sheets(load_ruleset(path)) == "table"


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('descripton = "x"\n[patch.factions.grave-tide]\nhero_hp = 0\nhp = 1\n',
                    encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    lines = str(err.value).splitlines()
    assert len(lines) == 3 and all(line.startswith("bad.toml: ") for line in lines)
    assert "descripton: unknown key (did you mean 'description'?)" in lines[0]


def test_a_patch_that_only_breaks_in_combination_is_refused() -> None:
    # each line alone is fine; together a line would push and pull
    with pytest.raises(RulesetError, match=r"x.toml: patch: the patched content does not "
                                           r"validate: .*cannot both push and pull"):
        patched_content({"factions": {"pyre-choir": {"hero": {"push": 1, "pull": 1}}}},
                        "x.toml")


def test_an_unknown_ruleset_is_named_with_a_guess() -> None:
    with pytest.raises(RulesetError, match="unknown ruleset 'tournamnet' \\(did you mean "
                                           "'tournament'\\?\\); known: classic"):
        load_ruleset("tournamnet")


# ---------------------------------------------------------------------- the CLI
def test_rules_prints_what_a_ruleset_changes(patched: Path) -> None:
    code, out = run("rules", "--ruleset", str(patched), "--no-cards")
    assert code == 0, out
    assert "What differs from classic:" in out
    assert "content factions.lantern-bearers.hero_hp: 4 → 3" in out
    assert "lantern-bearers  Lantern Bearers  Hero 3 HP" in out
    code, out = run("rules", "--no-cards")
    assert "What differs" not in out and "Rulesets (--ruleset NAME" in out
    assert "tournament" in out
    code, out = run("rules", "--ruleset", "clasic")
    assert code != 0 and "did you mean 'classic'?" in out


def _record(ruleset_file: Path, tmp_path: Path) -> Path:
    """A finished random game played under the patched ruleset, by ``selfplay``."""
    code, out = run("selfplay", "--games", "1", "--seed", "4", "--ruleset", str(ruleset_file),
                    "--round-cap", "30", "--records", str(tmp_path / "records"))
    assert code == 0, out
    return next((tmp_path / "records").glob("*.json"))


def test_a_patched_record_replays_and_is_refused_under_another_ruleset(
        patched: Path, tmp_path: Path) -> None:
    path = _record(patched, tmp_path)
    record = json.loads(path.read_text())
    assert record["meta"]["ruleset"] == "patched"
    assert record["settings"]["killed_minions"] == "removed"
    assert record["content"]["fingerprint"] == load_ruleset(patched).content().fingerprint
    code, out = run("replay", str(path), "--ruleset", str(patched))
    assert code == 0, out
    assert "ruleset patched" in out and "record OK" in out
    code, out = run("replay", str(path), "--ruleset", "classic")
    assert code != 0
    assert "played under the ruleset 'patched', not 'classic': it is refused" in out
    with pytest.raises(ValueError, match="refused"):
        check_record(record, load_ruleset("tournament"))


def test_a_classic_record_names_classic_and_is_refused_under_tournament(tmp_path: Path) -> None:
    code, out = run("selfplay", "--games", "1", "--seed", "2", "--round-cap", "20",
                    "--records", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    assert ruleset_of_record(json.loads(path.read_text())) == "classic"
    assert run("replay", str(path))[0] == 0
    code, out = run("replay", str(path), "--ruleset", "tournament")
    assert code != 0 and "not 'tournament'" in out


def test_explicit_options_win_over_the_ruleset_s_settings() -> None:
    _, out = run("selfplay", "--games", "1", "--ruleset", "tournament", "--json",
                 "--round-cap", "20")
    assert json.loads(out)["settings"]["killed_minions"] == "removed"
    _, out = run("selfplay", "--games", "1", "--ruleset", "tournament", "--json",
                 "--round-cap", "20", "--killed-minions", "pool")
    assert json.loads(out)["settings"]["killed_minions"] == "pool"


def test_print_with_a_ruleset_prints_its_changed_cards(patched: Path, tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    out_pdf = tmp_path / "changed.pdf"
    code, out = run("print", "--ruleset", str(patched), "-o", str(out_pdf), "--lang", "en")
    assert code == 0, out
    assert "(cards, factions, table;" in out and out_pdf.stat().st_size > 1000
    from pypdf import PdfReader
    text = " ".join(page.extract_text() or "" for page in PdfReader(out_pdf).pages)
    assert "Lantern Bearers" in text and "Storm Sworn" in text
    assert "Pyre Choir" not in text          # an unchanged faction is not printed
    code, out = run("print", "--ruleset", "classic", "-o", str(tmp_path / "x.pdf"))
    assert code != 0 and "changes no card" in out


# ---------------------------------------------------------------------- the web
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from reliquary.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def test_the_web_offers_the_rulesets_and_a_game_shows_its_own(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    offered = {r["name"]: r for r in meta["rulesets"]}
    assert set(offered) == set(ruleset_names())
    assert offered["tournament"]["description"] and offered["tournament"]["changes"]
    made = client.post("/api/games", json={"mode": "hotseat", "ruleset": "tournament"})
    assert made.status_code == 201, made.text
    game = made.json()
    view = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    assert view["ruleset"] == "tournament"
    for key, value in load_ruleset("tournament").settings.items():
        assert view["position"]["settings"][key] == value
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["meta"]["ruleset"] == "tournament"
    plain = client.post("/api/games", json={"mode": "hotseat"}).json()
    assert client.get(f"/api/games/{plain['id']}",
                      params={"t": plain["token"]}).json()["ruleset"] == "classic"
    bad = client.post("/api/games", json={"mode": "hotseat", "ruleset": "nope"})
    assert bad.status_code == 400 and "unknown ruleset" in bad.text


def test_the_web_takes_back_a_record_under_its_own_ruleset(client: TestClient) -> None:
    ruleset = load_ruleset("tournament")
    game = Game(ruleset.content(), ruleset.game_settings(round_cap=20),
                meta={"ruleset": "tournament"})
    rng = random.Random(3)
    while not game.state.is_terminal:
        state = game.state
        game.apply(sample_chance(state, rng) if state.is_chance
                   else rng.choice(state.legal_options()))
    loaded = client.post("/api/records", json=game.record())
    assert loaded.status_code in (200, 201), loaded.text
    other = {**game.record(), "meta": {"ruleset": "nowhere"}}
    refused = client.post("/api/records", json=other)
    assert refused.status_code == 400 and "ruleset 'nowhere'" in refused.text
