"""Content is data validated on load (C1–C3 as data): errors name the file, entry and field."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from reliquary import load_content
from reliquary.engine import Content, ContentError

DATA = Path(str(resources.files("reliquary.data")))


def copy_content(tmp_path: Path) -> Path:
    for name in ("cards.toml", "factions.toml", "rites.toml", "board.toml"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def test_packaged_content_loads_with_provisional_marks(content: Content) -> None:
    """C3, D1, D2: 18 cards, 9 generic with the faction attack, diagrams marked provisional."""
    assert len(content.cards) == 18
    assert sum(card.generic for card in content.cards) == 9
    assert all(card.provisional for card in content.cards)
    assert {c.id for c in content.cards if c.escort} == {
        "Pilgrim", "Sidewind", "Procession", "Ascension"}
    assert len(content.factions) == 9 and len(content.rites) == 3


def test_user_folder_overrides_one_file(tmp_path: Path) -> None:
    """A user's folder may hold only some files; the rest come from the package."""
    (tmp_path / "rites.toml").write_text(
        'content = "rites"\n'
        '[[rite]]\nid = "Exhumation"\neffect = "exhumation"\ntext = { en = "x" }\n'
        '[[rite]]\nid = "Harrow"\neffect = "harrow"\ntext = { en = "y" }\n')
    content = load_content(tmp_path)
    assert [r.id for r in content.rites] == ["Exhumation", "Harrow"]
    assert content.fingerprint != load_content().fingerprint


def test_bad_field_names_file_entry_and_field(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    cards = (folder / "cards.toml").read_text().replace('id = "Vault"\nseal = "skull"',
                                                        'id = "Vault"\nseal = "moon"')
    (folder / "cards.toml").write_text(cards)
    with pytest.raises(ContentError) as err:
        load_content(folder)
    message = str(err.value)
    assert "cards.toml" in message and "card Vault" in message and "'seal'" in message


def test_diagram_outside_grid_is_refused(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    cards = (folder / "cards.toml").read_text().replace("diagram = [[0, 1], [0, -1]]",
                                                        "diagram = [[0, 3], [0, -1]]", 1)
    (folder / "cards.toml").write_text(cards)
    with pytest.raises(ContentError, match=r"cards.toml: card Pilgrim: .*5×5"):
        load_content(folder)


def test_unknown_attack_effect_names_faction_and_field(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    text = (folder / "factions.toml").read_text().replace(
        'hero = { effect = "strike", damage = 2, range = 2, los = true }',
        'hero = { effect = "smite", damage = 2, range = 2, los = true }', 1)
    (folder / "factions.toml").write_text(text)
    with pytest.raises(ContentError,
                       match=r"factions\.toml: faction pyre-choir: field 'hero\.effect'"):
        load_content(folder)


def test_invalid_toml_is_reported_with_file(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    (folder / "board.toml").write_text("content = 'board'\n[[row]\n")
    with pytest.raises(ContentError, match=r"board\.toml: not valid TOML"):
        load_content(folder)


def test_odd_ruin_total_is_refused(tmp_path: Path) -> None:
    """S2: Ruins come in mirrored pairs, so the table's totals must be even."""
    folder = copy_content(tmp_path)
    text = (folder / "board.toml").read_text().replace("ruins = 4", "ruins = 5")
    (folder / "board.toml").write_text(text)
    with pytest.raises(ContentError, match=r"board\.toml: row #1: .*even"):
        load_content(folder)


def test_chance_table_must_cover_every_face(tmp_path: Path) -> None:
    folder = copy_content(tmp_path)
    text = (folder / "cards.toml").read_text().replace("{ faces = [5, 6], damage = 2 }",
                                                       "{ faces = [5], damage = 2 }")
    (folder / "cards.toml").write_text(text)
    with pytest.raises(ContentError, match=r"card Ordeal: .*faces 1 to 6"):
        load_content(folder)


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="not a folder"):
        load_content(tmp_path / "nowhere")
