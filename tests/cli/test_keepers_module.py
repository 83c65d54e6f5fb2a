"""Keepers' Relics in the terminal (issue 24): ``reliquary rules`` lists the module's
rule ids and prints its rules in full; the text board shows tokens, Wayshrines and
points; self-play runs with the module and its options."""

from __future__ import annotations

from click.testing import CliRunner

from reliquary.cli.main import cli
from reliquary.engine import Builder, Content
from reliquary.engine.modules.keepers import DATA, Token, kstate
from reliquary.text import render_board, render_state


def test_rules_lists_the_ids_and_prints_the_module_in_full() -> None:
    listing = CliRunner().invoke(cli, ["rules", "--no-cards"])
    assert listing.exit_code == 0, listing.output
    assert "keepers.target" in listing.output and "M-KEEP-4     Delve (INTERACT)" in \
        listing.output
    full = CliRunner().invoke(cli, ["rules", "--module", "keepers"])
    assert full.exit_code == 0, full.output
    for rule_id in (*(f"M-KEEP-{n}" for n in (*range(1, 12), *range(20, 24))),
                    *(f"M-KEEP-D{n}" for n in range(1, 6))):
        assert f"**{rule_id}" in full.output, rule_id
    wrong = CliRunner().invoke(cli, ["rules", "--module", "keeper"])
    assert wrong.exit_code != 0 and "did you mean 'keepers'" in wrong.output


def test_the_text_board_shows_tokens_wayshrines_and_points(content: Content) -> None:
    s = (Builder(content, 8, modules=("keepers",)).hero(0, "d1").hero(1, "e8")
         .minion(0, "c3").minion(1, "f6").ruins("d4").build())
    st = kstate(s)
    st.tokens.append(Token(DATA.type_index("scroll"), 0, s.geometry.parse("d4")))
    st.tokens.append(Token(DATA.type_index("icon"), 2, carrier=s.board[s.geometry.parse("c3")]))
    shrine = s.pieces[s.board[s.geometry.parse("f6")]]
    s.add_condition(shrine, "wayshrine")
    st.shrine[1], st.shrine_type[1] = shrine.id, DATA.type_index("chalice")
    st.points[:] = [3, 1]
    board = render_board(s)
    assert "#s?" in board and "M1*i2" in board and "m1w@c" in board
    text = render_state(s)
    assert "relic points: Key 3" in text and "Skull 1" in text and "target 5" in text


def test_selfplay_with_the_module_and_an_option() -> None:
    result = CliRunner().invoke(cli, ["selfplay", "--games", "3", "--module", "keepers",
                                      "--module-option", "keepers.target=3"])
    assert result.exit_code == 0, result.output
