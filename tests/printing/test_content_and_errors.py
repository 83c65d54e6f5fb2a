"""A designer's change reaches the print at once; bad input fails with a clear message."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from .conftest import MM, open_printed, run_print, squash

CELL = 5.4 * MM  # a diagram cell (reliquary.printing.cards.DIAGRAM_CELL)
GENERIC_FRAME = (0.203922, 0.286275, 0.368627)  # FRAMES["generic"], #34495e


def _content_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    for name in ("cards.toml", "factions.toml", "rites.toml", "board.toml"):
        source = resources.files("reliquary.data") / name
        (folder / name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def _diagram(page: object, card: dict[str, float]) -> set[tuple[int, int]]:
    """The marked offsets of the 5 × 5 diagram inside one card, read from its cells."""
    cells = [r for r in page.rects  # type: ignore[attr-defined]
             if abs(r["width"] - CELL) < 0.05 * MM and abs(r["height"] - CELL) < 0.05 * MM
             and card["x0"] <= r["x0"] and r["x1"] <= card["x1"]
             and card["top"] <= r["top"] and r["bottom"] <= card["bottom"]]
    assert len(cells) == 25
    cx = (min(c["x0"] for c in cells) + max(c["x1"] for c in cells)) / 2
    cy = (min(c["top"] for c in cells) + max(c["bottom"] for c in cells)) / 2
    marked = set()
    for cell in cells:
        colour = tuple(round(v, 3) for v in cell["non_stroking_color"])
        if colour == tuple(round(v, 3) for v in GENERIC_FRAME):
            dx = round(((cell["x0"] + cell["x1"]) / 2 - cx) / CELL)
            dy = round((cy - (cell["top"] + cell["bottom"]) / 2) / CELL)  # y up: the opponent
            marked.add((dx, dy))
    return marked


def test_a_changed_card_is_printed_from_the_content_folder(tmp_path: Path) -> None:
    folder = _content_copy(tmp_path)
    cards = (folder / "cards.toml").read_text(encoding="utf-8")
    old = 'id = "Pilgrim"\nescort = true\nseal = "key"\ndiagram = [[0, 1], [0, -1]]'
    assert old in cards
    new = 'id = "Wayfarer"\nescort = true\nseal = "skull"\ndiagram = [[2, 2], [-1, 0]]'
    (folder / "cards.toml").write_text(cards.replace(old, new), encoding="utf-8")
    out = tmp_path / "deck.pdf"
    result = run_print("--sheets", "cards", "--content", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    page = printed.pages[0]
    texts = printed.card_texts()
    assert not any("Pilgrim" in t for t in texts)
    index = next(i for i, t in enumerate(texts) if t.startswith("Wayfarer"))
    assert "CALAVERA" in texts[index] and "LLAVE" not in texts[index]
    card = printed.card_rects(page)[index]
    assert _diagram(page, card) == {(2, 2), (-1, 0)}
    # The untouched neighbour keeps its diagram: (0, 1), (1, 0), (-1, 0), (0, -1).
    crossroads = next(i for i, t in enumerate(texts) if t.startswith("Crossroads"))
    assert _diagram(page, printed.card_rects(page)[crossroads]) == {
        (0, 1), (1, 0), (-1, 0), (0, -1)}


def test_changed_help_cards_and_rulebook_come_from_the_content_folder(tmp_path: Path) -> None:
    folder = _content_copy(tmp_path)
    helps = (resources.files("reliquary.data") / "help_cards.toml").read_text(encoding="utf-8")
    (folder / "help_cards.toml").write_text(
        helps.replace('"Preparación y escala"', '"Montaje de prueba"'), encoding="utf-8")
    (folder / "rulebook").mkdir()
    (folder / "rulebook" / "es.md").write_text("# Reglas de prueba\n\nTexto nuevo.\n",
                                               encoding="utf-8")
    out = tmp_path / "table.pdf"
    result = run_print("--sheets", "table,rules", "--content", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    text = squash(" ".join(p.extract_text() for p in open_printed(out).pages))
    assert "Montajedeprueba" in text and "Preparaciónyescala" not in text
    assert "Reglasdeprueba" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--sheets", "cards,maps"], "--sheets: unknown sheet 'maps'"),
    # --size is the rule setting of every command (reliquary.cli.options).
    (["--size", "13"], "'--size': 13 is not in the range 8<=x<=12"),
    (["--size", "7"], "'--size': 7 is not in the range 8<=x<=12"),
    (["--los", "curved"], "'--los': 'curved' is not one of 'geometric', 'straight'"),
    (["--bleed", "9"], "--bleed: 9 mm is outside 0–5 mm"),
    (["--paper", "a3"], "'a3' is not one of 'a4', 'letter'"),
])
def test_bad_options_fail_naming_the_problem(tmp_path: Path, args: list[str],
                                             message: str) -> None:
    out = tmp_path / "never.pdf"
    result = run_print(*args, "-o", str(out))
    assert result.exit_code != 0
    assert message in result.output
    assert not out.exists()


def test_an_unwritable_output_fails_before_drawing(tmp_path: Path) -> None:
    result = run_print("--sheets", "cards", "-o", str(tmp_path / "missing" / "x.pdf"))
    assert result.exit_code != 0
    assert "cannot write" in result.output and "does not exist" in result.output
    result = run_print("--sheets", "cards", "-o", str(tmp_path))
    assert result.exit_code != 0 and "it is a folder" in result.output


def test_a_content_folder_with_errors_names_file_entry_and_field(tmp_path: Path) -> None:
    folder = _content_copy(tmp_path)
    cards = (folder / "cards.toml").read_text(encoding="utf-8")
    (folder / "cards.toml").write_text(cards.replace('seal = "key"', 'seal = "crown"', 1),
                                       encoding="utf-8")
    result = run_print("--sheets", "cards", "--content", str(folder),
                       "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code != 0
    assert "bad content" in result.output and "cards.toml" in result.output
    assert "Pilgrim" in result.output and "seal" in result.output
    shutil.rmtree(folder)
    (folder).mkdir()
    (folder / "help_cards.toml").write_text('content = "help_cards"\n[labels]\n',
                                            encoding="utf-8")
    result = run_print("--sheets", "table", "--content", str(folder),
                       "-o", str(tmp_path / "y.pdf"))
    assert result.exit_code != 0
    assert "help_cards.toml" in result.output and "card" in result.output
