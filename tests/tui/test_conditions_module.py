"""Conditions in the terminal UI (issue 23): a cell marks each condition with the text
board's letter and its value (Burning 2 is b2, Paralyzed z), after Veil and Aegis."""

from __future__ import annotations

from reliquary.engine import Builder, Content
from reliquary.tui.widgets import cell_text


def test_a_cell_marks_conditions_with_their_values(content: Content) -> None:
    s = Builder(content, 8, modules=("conditions",)).hero(0, "d4").build()
    hero = s.piece_at(s.geometry.parse("d4"))
    assert hero is not None
    hero.aegis = True
    s.add_condition(hero, "burning", 2)
    s.add_condition(hero, "paralyzed")
    text, _ = cell_text(s, hero.sq, 8)
    assert text.strip() == "H4ab2z"
