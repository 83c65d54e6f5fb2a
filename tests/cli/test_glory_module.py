"""The terminal with Glory & Support (issue 25): the text board shows the markers, Glory,
the clock to the End phase and both objective hands; ``reliquary rules`` prints the
module's rule ids and, with --module glory, its rules in full."""

from __future__ import annotations

from click.testing import CliRunner

from reliquary.cli.main import cli
from reliquary.engine import KEY, SKULL, Builder, Content
from reliquary.engine.modules import glory as g
from reliquary.text import render_board, render_state


def test_text_board_shows_markers_glory_and_objectives(content: Content) -> None:
    s = (Builder(content, 8, modules=("glory",), module_options=(("glory.shrine", "on"),))
         .hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c4").build())
    state = g.glory_state(s)
    state.markers = [s.geometry.parse("d5"), s.geometry.parse("c4")]
    state.glory, state.spent = [3, 1], [1, 0]
    state.hands = [["HoldTheLine", "Seize"], ["Cull"]]
    state.bought = [["HonedEdge"], []]
    board = render_board(s)
    rank5 = next(line for line in board.splitlines() if line.startswith(" 5"))
    rank4 = next(line for line in board.splitlines() if line.startswith(" 4"))
    assert "O" in rank5  # the Shrine (the first marker)
    assert "M1o" in rank4  # a marker under Key's Minion
    text = render_state(s)
    assert "Glory: Key 3 (2 unspent), Skull 1 (1 unspent)" in text
    assert "End phase in 5 rounds" in text
    # an objective by its name, with the id its notation takes
    assert ("Hold the Line [HoldTheLine] (2 Glory) End phase: you hold at least 2 "
            "objective markers.") in text
    assert "Key upgrades bought: Honed Edge" in text
    assert "Skull objectives:" in text and "Cull" in text
    assert "held: Key 1, Skull 0" in text


def test_rules_lists_the_module_and_prints_it_in_full() -> None:
    runner = CliRunner()
    listed = runner.invoke(cli, ["rules", "--no-cards"])
    assert listed.exit_code == 0, listed.output
    assert "glory.phases" in listed.output and "M-GLORY-11" in listed.output
    full = runner.invoke(cli, ["rules", "--module", "glory"])
    assert full.exit_code == 0, full.output
    assert "M-GLORY-42 Shrine" in full.output and "Decision **M-GLORY-D2**" in full.output
