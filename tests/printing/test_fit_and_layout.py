"""Issue 29: print that never lies. Card text comes from the numbers, overlong text is
fitted or named, boards share the pages out evenly, bleed sheets use the paper well,
roll tables print as tables, headings keep their text, and the help cards follow the
rule settings."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from reliquary import load_content
from reliquary.cli.main import cli
from reliquary.engine import ContentError
from reliquary.printing.board import plan_tiles
from reliquary.printing.common import mm

from .conftest import MM, open_printed, run_print, squash

BOLT_HERO = 'attack.hero = { effect = "strike", damage = 2, range = 2, los = true }'
VEIL_ANY = 'attack.any = { effect = "veil", range = 2, los = true }'


def _content_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    for name in ("cards.toml", "factions.toml", "rites.toml", "board.toml"):
        source = resources.files("reliquary.data") / name
        (folder / name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _card_text(path: Path, name: str) -> str:
    texts = open_printed(path).card_texts()
    return next(t for t in texts if t.startswith(name))


def test_a_changed_damage_shows_in_the_pdf_and_everywhere(tmp_path: Path) -> None:
    folder = _content_copy(tmp_path)
    _edit(folder / "cards.toml", BOLT_HERO, BOLT_HERO.replace("damage = 2", "damage = 3"))
    for lang, new, old in (("es", "Héroe: 3 de daño", "Héroe: 2 de daño"),
                           ("en", "Hero: 3 damage", "Hero: 2 damage")):
        out = tmp_path / f"cards-{lang}.pdf"
        result = run_print("--sheets", "cards", "--lang", lang, "--content", str(folder),
                           "-o", str(out))
        assert result.exit_code == 0, result.output
        bolt = _card_text(out, "Bolt")
        assert squash(new) in bolt and squash(old) not in bolt
        # pypdf reads the same page's text: the number is in the PDF's text itself.
        page = squash(" ".join(p.extract_text() for p in PdfReader(out).pages))
        assert squash(new) in page
    # The same content gives `rules` and the web their text: one text, one number.
    rules = CliRunner().invoke(cli, ["rules", "--cards", "--content", str(folder)])
    assert rules.exit_code == 0, rules.output
    assert "attack: Hero: 3 damage, range 2, LoS. Minion: 1 damage, adjacent." in rules.output
    bolt = load_content(folder).card("Bolt")
    assert bolt.attack != "faction"
    assert bolt.attack.text.en.startswith("Hero: 3 damage, range 2, LoS.")
    assert bolt.attack.text.es.startswith("Héroe: 3 de daño, alcance 2, LdV.")


def test_a_designers_text_with_other_numbers_is_refused(tmp_path: Path) -> None:
    folder = _content_copy(tmp_path)
    _edit(folder / "cards.toml", BOLT_HERO,
          BOLT_HERO.replace("damage = 2", "damage = 3")
          + '\nattack.text = { en = "Hero: 2 damage, range 2, LoS. Minion: 1 damage, '
            'adjacent." }')
    with pytest.raises(ContentError) as err:
        load_content(folder)
    message = str(err.value)
    assert "cards.toml" in message and "card Bolt" in message
    assert "'attack.text.en'" in message and "names the numbers 1, 2, 2" in message
    assert "1, 2, 3" in message


def _overlong(tmp_path: Path, words: int) -> Path:
    folder = _content_copy(tmp_path)
    # Free text naming the data's numbers (2) and nothing else, as long as asked.
    text = "Any: choose an enemy at 2 or less, LoS. " + "It stays veiled for now. " * words
    _edit(folder / "cards.toml", VEIL_ANY, f'{VEIL_ANY}\nattack.text = {{ en = "{text}" }}')
    return folder


def _lowest_text(path: Path, name: str) -> tuple[float, float]:
    """The lowest text's bottom inside card ``name`` and that card's trim bottom."""
    printed = open_printed(path)
    for page in printed.card_pages():
        for rect in printed.card_rects(page):
            box = (rect["x0"], rect["top"], rect["x1"], rect["bottom"])
            inside = page.crop(box)
            if squash(inside.extract_text()).startswith(name):
                return max(ch["bottom"] for ch in inside.chars), rect["bottom"]
    raise AssertionError(f"no card {name}")


def test_long_card_text_is_fitted_inside_the_card(tmp_path: Path) -> None:
    folder = _overlong(tmp_path, 10)  # about 290 characters: fits at a smaller size
    out = tmp_path / "fitted.pdf"
    result = run_print("--sheets", "cards", "--lang", "en", "--content", str(folder),
                       "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    lowest, trim = _lowest_text(out, "Veil")
    assert lowest < trim - 4 * MM  # inside the frame, well above the trim


def test_text_that_cannot_fit_is_cut_at_the_card_and_named(tmp_path: Path) -> None:
    folder = _overlong(tmp_path, 32)  # about 845 characters, as found in the issue
    out = tmp_path / "overlong.pdf"
    result = run_print("--sheets", "cards", "--lang", "en", "--content", str(folder),
                       "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "warning: card Veil: the text does not fit" in result.output
    lowest, trim = _lowest_text(out, "Veil")
    assert lowest < trim - 2 * MM  # clipped inside the card: never under the trim


def test_card_text_is_not_tiny_when_there_is_room(spanish_a4: object) -> None:
    printed = spanish_a4
    page = printed.card_pages()[1]  # type: ignore[attr-defined]
    rect = printed.card_rects(page)[0]  # type: ignore[attr-defined]  # Bolt
    inside = page.crop((rect["x0"], rect["top"], rect["x1"], rect["bottom"]))
    body = [ch["size"] for ch in inside.chars if ch["text"] == "a"]
    assert max(body) >= 8  # was 6-7 pt with a third of the card empty


def test_roll_tables_print_as_tables(spanish_a4: object) -> None:
    printed = spanish_a4
    page = printed.card_pages()[1]  # type: ignore[attr-defined]  # the unique cards
    for name in ("Ordeal", "Rapture"):
        rect = next(r for r in printed.card_rects(page)  # type: ignore[attr-defined]
                    if squash(page.crop((r["x0"], r["top"], r["x1"], r["bottom"]))
                              .extract_text()).startswith(name))
        inside = page.crop((rect["x0"], rect["top"], rect["x1"], rect["bottom"]))
        rules = [ln for ln in inside.lines if abs(ln["top"] - ln["bottom"]) < 0.1
                 and ln["x1"] - ln["x0"] > 30 * MM]
        rows = 3 if name == "Ordeal" else 2
        assert len(rules) >= rows + 1, name  # a line above, between and below the rows
        text = inside.extract_text()
        assert ("5 o 6" if name == "Ordeal" else "4, 5 o 6") in text


def test_side_8_board_on_a4_takes_two_even_pages() -> None:
    plan = plan_tiles(8, 27 * mm, "a4")
    assert plan.pages == 2
    assert max(plan.window) / mm <= 234.1  # no window runs beyond the board
    for size in range(8, 13):
        for paper in ("a4", "letter"):
            plan = plan_tiles(size, 27 * mm, paper)
            assert plan.window[0] * plan.cols - (plan.cols - 1) * 10 * mm == pytest.approx(
                plan.board)
            assert plan.window[1] * plan.rows - (plan.rows - 1) * 10 * mm == pytest.approx(
                plan.board)


@pytest.mark.parametrize("size", [8, 12])
def test_every_board_page_shows_board_and_no_marks_on_blank_paper(tmp_path: Path,
                                                                  size: int) -> None:
    out = tmp_path / "board.pdf"
    result = run_print("--sheets", "board", "--size", str(size), "-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    squares = []
    for page in printed.pages:
        cells = [r for r in page.rects if abs(r["width"] - r["height"]) < 0.01
                 and abs(r["width"] - 27 * MM) < 0.1 * MM]
        squares.append(len(cells))
    assert all(n > 0 for n in squares)
    if size == 8:
        assert len(printed.pages) == 2
        # About half each: never seven columns and one alone.
        assert min(squares) >= 0.4 * sum(squares)


def test_bleed_sheets_use_the_paper_without_lone_cards(tmp_path: Path) -> None:
    out = tmp_path / "bleed.pdf"
    result = run_print("--sheets", "cards,factions,table", "--bleed", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    counts = [len(printed.card_rects(p)) for p in printed.pages]
    assert sum(counts) == 36
    assert len(counts) == 5  # 36 cards, 8 to a page: not 4 × 2 pages with a lone ninth
    assert min(counts) >= 4


def _headings_left_alone(path: Path, heading_size: float) -> list[str]:
    """Headings that end a column: nothing of the body below them in that column."""
    alone = []
    for page in open_printed(path).pages:
        middle = page.width / 2
        for x0, x1 in ((0, middle), (middle, page.width)):
            lines = page.crop((x0, 0, x1, page.height - 30)).extract_text_lines()
            lines = [ln for ln in lines if not ln["text"].startswith("Reliquary ·")]
            if not lines:
                continue
            last = max(lines, key=lambda ln: ln["bottom"])
            size = max(ch["size"] for ch in last["chars"])
            if size >= heading_size - 0.01 and last["bottom"] > 0.6 * page.height:
                alone.append(last["text"])
    return alone


@pytest.mark.parametrize(("args", "size"), [((), 8.6 * 1.3), (("--booklet",), 8.2 * 1.3)])
def test_no_heading_is_left_alone_at_the_foot_of_a_column(tmp_path: Path,
                                                          args: tuple[str, ...],
                                                          size: float) -> None:
    out = tmp_path / "rules.pdf"
    result = run_print("--sheets", "rules", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert _headings_left_alone(out, size) == []


def test_help_cards_describe_the_game_as_set_up(tmp_path: Path) -> None:
    out = tmp_path / "table.pdf"
    result = run_print("--sheets", "table", "--lang", "en", "--los", "straight",
                       "--vigil-start", "4", "--first-turn", "no_attack",
                       "--regroup-limit", "2", "-o", str(out))
    assert result.exit_code == 0, result.output
    texts = open_printed(out).card_texts()
    combat = next(t for t in texts if t.startswith("Combat"))
    assert squash("LoS = along a row, column or diagonal only") in combat
    assert squash("straight line between centres") not in combat
    turn = next(t for t in texts if t.startswith("Yourturn"))
    assert squash("No ATTACK on your own first turn") in turn
    assert squash("At most 2 times per game") in turn
    vigil = next(t for t in texts if t.startswith("TheVigil"))
    assert "43210" in vigil and "6543210" not in vigil
    assert squash("resets it to 4") in vigil
    rite = next(t for t in texts if t.startswith("Exhumation"))
    assert squash("Vigil to 4.") in rite
    # The defaults: what the help cards said before the settings existed.
    out = tmp_path / "default.pdf"
    assert run_print("--sheets", "table", "--lang", "en", "-o", str(out)).exit_code == 0
    combat = next(t for t in open_printed(out).card_texts() if t.startswith("Combat"))
    assert squash("LoS = straight line between centres") in combat


def test_rule_modules_in_play_get_a_help_card(tmp_path: Path) -> None:
    from reliquary.engine.hooks import Hooks
    from reliquary.engine.modules import Module, OptionSpec, register, unregister

    register(Module(name="lanterns", title="Lanterns", rules="TEST-1",
                    summary="every Relic glows: a test module", hooks=lambda c, s: Hooks(),
                    options={"glow": OptionSpec(1, lo=1, hi=3, help="how bright")}))
    try:
        out = tmp_path / "table.pdf"
        result = run_print("--sheets", "table", "--lang", "en", "--module", "lanterns",
                           "--module-option", "lanterns.glow=2", "-o", str(out))
        assert result.exit_code == 0, result.output
        texts = open_printed(out).card_texts()
        card = next(t for t in texts if t.startswith("Modulesinplay"))
        assert squash("Lanterns (TEST-1): every Relic glows: a test module.") in card
        assert squash("lanterns.glow = 2") in card
        counts = [len(open_printed(out).card_rects(p)) for p in open_printed(out).pages]
        assert sum(counts) == 10 and min(counts) >= 4  # no lone tenth card
    finally:
        unregister("lanterns")
    out = tmp_path / "plain.pdf"
    assert run_print("--sheets", "table", "--lang", "en", "-o", str(out)).exit_code == 0
    assert not any(t.startswith("Modulesinplay") for t in open_printed(out).card_texts())
