"""The lab's tables count a game's points exactly — a win 1, a draw ½, a loss 0 — for
the rite by first move; a comeback is a decisive game won by the side behind by more
than a Minion at the middle round, seen from either seat; and Bradley–Terry refuses a
run with only one faction (docs/lab.md; issue 31, sample F: a win counted 2, a draw 1,
Skull's comebacks read from Key's side, and the one-faction refusal dropped, passed
the metrics' tests)."""

from __future__ import annotations

import pytest

from reliquary.lab import metrics as M

from .tables import game, table


def test_the_rite_by_first_move_counts_a_win_1_a_draw_a_half_and_a_loss_0() -> None:
    g = table([game(rite_key="A", rite_skull="B", first="key", winner="key"),
               game(rite_key="A", rite_skull="B", first="skull", winner=None),
               game(rite_key="B", rite_skull="A", first="key", winner="skull")])
    split = {(r["rite"], r["first"]): (r["games"], r["points"], r["score"])
             for r in M.rite_first_table(g).iter_rows(named=True)}
    assert split == {("A", True): (1, 1.0, 1.0), ("A", False): (2, 1.5, 0.75),
                     ("B", True): (2, 0.5, 0.25), ("B", False): (1, 0.0, 0.0)}


@pytest.mark.parametrize(("winner", "middle", "comeback"), [
    ("key", -26.0, True), ("key", -25.0, False), ("key", 30.0, False),
    ("skull", 26.0, True), ("skull", 25.0, False), ("skull", -30.0, False),
])
def test_a_comeback_is_a_win_from_more_than_a_minion_behind_at_the_middle_round(
        winner: str, middle: float, comeback: bool) -> None:
    g = table([game(winner=winner, eval_key=[0.0, middle, 0.0])])
    rate = M.comeback_rate(g)
    assert (rate["n"], rate["value"]) == (1, 1.0 if comeback else 0.0)


def test_bradley_terry_refuses_a_run_of_one_faction() -> None:
    g = table([game(faction_key="a", faction_skull="a", winner=w)
               for w in ("key", "skull", None, "key")])
    with pytest.raises(ValueError, match="at least two factions"):
        M.bradley_terry(g)
