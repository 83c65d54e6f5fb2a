"""The board (square size, tiling overlap, labels, rows), tokens and the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reliquary.content import load_help_cards
from reliquary.engine import Content, Geometry

from .conftest import MM, Printed, open_printed, run_print, squash

SQUARE_MM = 27.0  # the default --square
OVERLAP_MM = 10.0  # reliquary.printing.board.OVERLAP


def _board(tmp_path: Path, size: int, paper: str = "a4") -> Printed:
    out = tmp_path / f"board-{size}-{paper}.pdf"
    result = run_print("--sheets", "board", "--size", str(size), "--paper", paper,
                       "-o", str(out))
    assert result.exit_code == 0, result.output
    return open_printed(out)


def _square_names(page: object) -> dict[str, tuple[float, float]]:
    """Each square name printed in a square's corner, with its position on the page.

    A page draws the squares its window shows, whole or in part (the clip hides the rest).
    """
    pattern = re.compile(r"^[a-l](1[0-2]|[1-9])$")
    names = {}
    for word in page.extract_words():  # type: ignore[attr-defined]
        if pattern.match(word["text"]) and word["bottom"] - word["top"] < 2.5 * MM:
            names[word["text"]] = (word["x0"], word["top"])
    return names


@pytest.mark.parametrize(("size", "paper"), [(8, "a4"), (12, "letter")])
def test_board_squares_tiles_and_overlap(tmp_path: Path, size: int, paper: str) -> None:
    printed = _board(tmp_path, size, paper)
    pages = printed.pages
    assert len(pages) > 1  # neither board fits one page at 27 mm a square
    seen: set[str] = set()
    frames = []
    positions = []
    for page in pages:
        squares = [r for r in page.rects if abs(r["width"] - r["height"]) < 0.01
                   and 20 * MM < r["width"] < 35 * MM]
        assert squares
        for square in squares:
            assert abs(square["width"] - SQUARE_MM * MM) <= 0.1 * MM
        # The window's frame: the largest outline (the board's own background is filled).
        frame = max((r for r in page.rects if r["stroke"] and not r["fill"]),
                    key=lambda r: r["width"] * r["height"])
        frames.append(frame)
        names = _square_names(page)
        positions.append(names)
        seen |= set(names)
    geometry = Geometry.of(size)
    assert seen == {geometry.name(sq) for sq in range(size * size)}
    # Neighbouring tiles show the same squares shifted by (window − overlap).
    # Each page's caption says where it goes: «fila R, columna C».
    places = [tuple(int(n) for n in re.search(r"fila (\d+), columna (\d+)",
                                               page.extract_text()).groups())
              for page in pages]
    cols = max(c for _, c in places)
    assert places == [(r, c) for r in range(1, len(pages) // cols + 1)
                      for c in range(1, cols + 1)]
    for i, names in enumerate(positions):
        right = i + 1 if (i + 1) % cols else None
        below = i + cols if i + cols < len(positions) else None
        for j, axis in ((right, 0), (below, 1)):
            if j is None:
                continue
            shared = set(names) & set(positions[j])
            assert shared, f"tiles {i} and {j} share no square"
            name = sorted(shared)[0]
            shift = names[name][axis] - positions[j][name][axis]
            window = frames[i]["width"] if axis == 0 else frames[i]["height"]
            assert abs((window - shift) / MM - OVERLAP_MM) <= 0.1


def test_board_marks_back_rows_halves_and_labels(tmp_path: Path) -> None:
    printed = _board(tmp_path, 9)
    text = squash(" ".join(page.extract_text() for page in printed.pages))
    helps = load_help_cards()
    for side in ("key", "skull"):
        name = helps.label(side, "es").capitalize()
        assert squash(helps.label("back_row", "es", side=name)) in text
    assert "abcdefg" in text and "TABLERO9×9" in text


def test_tokens_cover_the_pieces_relics_and_markers(spanish_a4: Printed, content: Content
                                                    ) -> None:
    helps = load_help_cards()
    page = next(p for p in spanish_a4.pages
                if squash(helps.label("tokens_title", "es")) in squash(p.extract_text()))
    text = squash(page.extract_text())
    for key in ("token_damage", "token_relics", "token_emblems", "token_ruins"):
        assert squash(helps.label(key, "es")) in text
    assert squash(helps.label("token_harrow", "es", rite="Harrow")) in text
    assert squash(helps.label("token_markers", "es", veil="Veil", aegis="Aegis")) in text
    max_ruins = max(row.ruins for row in content.board)
    assert text.count(squash(helps.label("ruin", "es"))) == max_ruins
    ruins = [r for r in page.rects if abs(r["width"] - 27 * MM) < 0.1 * MM
             and abs(r["height"] - 27 * MM) < 0.1 * MM]
    assert len(ruins) >= max_ruins  # each Ruin token is one board square


@pytest.mark.parametrize(("fixture", "heading"), [("spanish_a4", "Cómo se gana"),
                                                   ("english_letter", "How to win")])
def test_rulebook_is_printed_in_the_language(request: pytest.FixtureRequest, fixture: str,
                                             heading: str) -> None:
    printed: Printed = request.getfixturevalue(fixture)
    text = squash(" ".join(p.extract_text() for p in printed.pages[-3:]))
    assert squash(heading) in text
    assert squash("Reliquary") in text


def test_booklet_imposes_a5_pages_for_saddle_stitching(tmp_path: Path) -> None:
    out = tmp_path / "booklet.pdf"
    result = run_print("--sheets", "rules", "--booklet", "--lang", "en", "-o", str(out))
    assert result.exit_code == 0, result.output
    printed = open_printed(out)
    assert len(printed.pages) % 2 == 0  # two sides per sheet
    sides = []
    for page in printed.pages:
        assert page.width > page.height
        halves = []
        for x0, x1 in ((0, page.width / 2), (page.width / 2, page.width)):
            text = page.crop((x0, 0, x1, page.height)).extract_text()
            found = re.findall(r"page (\d+)", text)
            halves.append(int(found[0]) if found else None)
        sides.append(tuple(halves))
    total = 2 * len(sides)
    numbers = sorted(n for side in sides for n in side if n is not None)
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > total - 4
    # The first sheet's front: the last page on the left, page 1 on the right.
    assert sides[0][1] == 1 and sides[0][0] in (total, None)
    assert sides[1][0] == 2


def test_the_printed_rulebook_holds_only_the_modules_that_are_on() -> None:
    """A module's rulebook section is printed only when the module is on; the rules
    page (modules None) keeps them all, without the marks."""
    from reliquary.printing.rulebook import module_sections, rulebook_text

    for lang, titles in (("en", {"conditions": "Optional module: Conditions",
                                 "glory": "Optional module: Glory & Support",
                                 "keepers": "Optional module: Keepers' Relics"}),
                         ("es", {"conditions": "Módulo opcional: Condiciones",
                                 "glory": "Módulo opcional: Gloria y Apoyo",
                                 "keepers": "Módulo opcional: Reliquias de los Guardianes"})):
        text = rulebook_text(lang)
        whole = module_sections(text, None)
        assert all(title in whole for title in titles.values()) and "<!--" not in whole
        base = module_sections(text, ())
        assert not any(title in base for title in titles.values())
        assert "## " + ("Rule options" if lang == "en" else "Opciones de reglas") in base
        assert base.rstrip().endswith(whole[:whole.index("## " + titles["conditions"])]
                                      .rstrip()[-40:])
        only = module_sections(text, ("glory",))
        assert titles["glory"] in only
        assert titles["conditions"] not in only and titles["keepers"] not in only
        # the Glory section is whole: everything up to the next module's heading
        glory = whole[whole.index(titles["glory"]):whole.index("## " + titles["keepers"])]
        assert glory.strip() in only
