"""Issue 29: card text made from the numbers, and content errors in plain words."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from reliquary import load_content
from reliquary.cardtext import attack_text, faction_text, load_wording
from reliquary.content import load_help_cards
from reliquary.engine import AttackLine, Content, ContentError

DATA = Path(str(resources.files("reliquary.data")))


def copy_content(tmp_path: Path) -> Path:
    for name in ("cards.toml", "factions.toml", "rites.toml", "board.toml"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_packaged_texts_are_made_from_the_numbers(content: Content) -> None:
    """No card or faction of the package carries free text: each text is the one made
    from its numbers, in both languages."""
    assert "text =" not in (DATA / "cards.toml").read_text(encoding="utf-8").replace(
        "`text =", "")
    wording = load_wording()
    for card in content.cards:
        if card.attack != "faction":
            for lang in ("en", "es"):
                made = attack_text(wording, lang, card.attack, card.id).prose()
                assert getattr(card.attack.text, lang) == made
    for faction in content.factions:
        made = faction_text(wording, "es", faction.hero, faction.minion, faction.hero_hp,
                            faction.passive, faction.name).prose()
        assert faction.text.es == made


def test_each_number_and_rider_changes_the_text() -> None:
    wording = load_wording()

    def text(**line: object) -> str:
        return attack_text(wording, "en", {"hero": AttackLine.model_validate(
            {"effect": "strike", **line})}).prose()

    assert text(damage=2, range=2, los=True) == "Hero: 2 damage, range 2, LoS."
    assert text(damage=1, push=2, range=3, los=True) == (
        "Hero: 1 damage + push 2, enemy at 3 or less, LoS.")
    assert text(pull=1, range=1) == "Hero: pull 1, adjacent."
    assert text(damage=1, range=1, targets=2) == (
        "Hero: 1 damage, adjacent, to one or two enemies.")
    assert text(damage=1, range=1, after_step=True) == "Hero: 1 damage, adjacent, then 1 step."
    ordeal = AttackLine(effect="ordeal", range=3, los=True, table=(
        {"faces": (1, 2), "damage": 0, "self_damage": 2}, {"faces": (3, 4, 5, 6), "damage": 3}))
    made = attack_text(wording, "es", {"any": ordeal})
    assert made.prose() == ("Cualquiera: elige un enemigo a 3 o menos, LdV. Tira: 1 o 2 el "
                            "ataque falla y el atacante recibe 2 de daño; 3, 4, 5 o 6 3 de "
                            "daño.")
    assert made.lines[0].rows == (("1 o 2", "el ataque falla y el atacante recibe 2 de daño"),
                                  ("3, 4, 5 o 6", "3 de daño"))


def test_a_faction_s_changed_numbers_reach_its_text(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    edit(folder / "factions.toml", 'id = "storm-sworn"\nname = "Storm Sworn"\nhero_hp = 4',
         'id = "storm-sworn"\nname = "Storm Sworn"\nhero_hp = 6')
    edit(folder / "factions.toml",
         'hero = { effect = "strike", damage = 1, push = 2, range = 2, los = true }',
         'hero = { effect = "strike", damage = 1, push = 3, range = 2, los = true }')
    storm = load_content(folder).faction("storm-sworn")
    assert storm.text.en == ("Hero: 1 damage + push 3, enemy at 2 or less, LoS. Minion: "
                             "push 1, adjacent. Passive: your Hero has 6 HP.")


def test_the_wording_is_the_designer_s_to_change(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    wording = (DATA / "card_text.toml").read_text(encoding="utf-8")
    (folder / "card_text.toml").write_text(
        wording.replace('damage = "{n} damage"', 'damage = "{n} wounds"', 1), encoding="utf-8")
    assert load_content(folder).card("Bolt").attack.text.en.startswith(  # type: ignore[union-attr]
        "Hero: 2 wounds, range 2, LoS.")


def test_three_errors_are_reported_at_once_in_plain_words(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    edit(folder / "cards.toml", 'id = "Crossroads"\nseal = "skull"',
         'id = "Crossroads"\nseal = "skul"')
    edit(folder / "cards.toml", 'id = "Vault"\nseal = "skull"\ndiagram = [[0, 2], [-1, -1], '
         '[1, -1]]\nattack = "faction"', 'id = "Vault"\nseal = "skull"\ndiagram = [[0, 2], '
         '[-1, -1], [1, -1]]\nattack = "factoin"')
    edit(folder / "cards.toml",
         'attack.hero = { effect = "strike", damage = 2, range = 2, los = true }',
         'attack.hero = { effect = "strike", damage = -2, range = 2, lso = true }')
    edit(folder / "factions.toml", 'hero = { effect = "strike", damage = 2, range = 2, '
         'los = true }', 'hero = { effect = "strik", damage = 2, range = 2, los = true }')
    with pytest.raises(ContentError) as err:
        load_content(folder)
    lines = str(err.value).splitlines()
    assert len(lines) == 5, lines
    cards = str(folder / "cards.toml")
    assert f"{cards}: card Crossroads: field 'seal': expected 'key' or 'skull', got 'skul' " \
           "(did you mean 'skull'?)" in lines
    assert f"{cards}: card Vault: field 'attack': expected 'faction' or a table of attack " \
           "lines, got 'factoin' (did you mean 'faction'?)" in lines
    assert f"{cards}: card Bolt: field 'attack.hero.damage': expected a number at least 0, " \
           "got -2" in lines
    assert any(line.startswith(f"{cards}: card Bolt: field 'attack.hero.lso': is not a "
                               "field here (did you mean 'los'?)") for line in lines)
    assert any("faction pyre-choir: field 'hero.effect'" in line
               and "(did you mean 'strike'?)" in line for line in lines)
    for internal in ("literal[", "function-after", "_check()", "Input should"):
        assert internal not in str(err.value)


def test_help_card_errors_are_plain_and_complete(tmp_path: Path) -> None:
    helps = (DATA / "help_cards.toml").read_text(encoding="utf-8")
    helps = helps.replace('when = { los = "straight" }', 'when = { lso = "straight" }')
    helps = helps.replace('figure = "vigil_track"', 'figure = "vigil-track"')
    (tmp_path / "help_cards.toml").write_text(helps, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_help_cards(tmp_path)
    message = str(err.value)
    assert len(message.splitlines()) == 2, message
    assert "'when' names no rule setting 'lso' (did you mean 'los'?)" in message
    assert "did you mean 'vigil_track'?" in message
    assert "Input should" not in message and "literal[" not in message


def test_every_unreadable_file_is_named(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    (folder / "board.toml").write_text("content = 'board'\n[[row]\n", encoding="utf-8")
    (folder / "rites.toml").write_text("content = = 'rites'\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_content(folder)
    lines = str(err.value).splitlines()
    assert len(lines) == 2
    assert "rites.toml: not valid TOML" in lines[0] and "board.toml: not valid TOML" in lines[1]
