"""The report reads at both ends of every scale, shows every rite, says "not
identifiable" without empty axes, and gives the faction spread its interval."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from matplotlib import colormaps

from reliquary.lab import metrics as M
from reliquary.lab import report as R

from .tables import game, table


def _texts(fig: Any) -> list[tuple[str, Any]]:
    return [(t.get_text(), t) for ax in fig.axes for t in ax.texts]


@pytest.mark.parametrize(("cmap", "value", "ink"), [
    ("RdBu", 0.0, "white"), ("RdBu", 1.0, "white"), ("RdBu", 0.5, "black"),
    ("viridis", 0.0, "white"), ("viridis", 1.0, "black"),
])
def test_the_ink_of_a_cell_follows_its_luminance(cmap: str, value: float, ink: str) -> None:
    assert R._ink(colormaps[cmap](value)) == ink


def test_the_faction_heatmap_labels_read_on_the_darkest_and_lightest_cells() -> None:
    # a always beats b (100% / 0%: the darkest cells); c and d draw (50%: the lightest).
    rows = [game(faction_key="a", faction_skull="b", winner="key") for _ in range(3)]
    rows += [game(faction_key="b", faction_skull="a", winner="skull") for _ in range(3)]
    rows += [game(faction_key="c", faction_skull="d", winner=None, reason="round_cap")
             for _ in range(3)]
    fig = R.fig_faction_matrix(table(rows), "t")
    texts = _texts(fig)
    dark = [t for text, t in texts if text.startswith(("100%", "0%"))]
    light = [t for text, t in texts if text.startswith("50%")]
    assert len(dark) == 2 and len(light) == 2
    assert all(t.get_color() == "white" for t in dark)
    assert all(t.get_color() == "black" for t in light)
    assert all(t.get_fontsize() >= 9 for _, t in texts)


def test_the_card_heatmap_labels_take_the_ink_of_their_cell() -> None:
    plays = [{"seat": "key", "card": "Bolt", "mode": "move", "n": 10},
             {"seat": "key", "card": "Bolt", "mode": "attack", "n": 1}]
    fig = R.fig_card_modes(table([game(plays=plays), game(plays=plays)]), "t")
    texts = dict(_texts(fig))
    assert texts["10.00"].get_color() == "black"     # viridis' top is light yellow
    assert texts["1.00"].get_color() == "white"      # and its bottom dark violet
    assert min(t.get_fontsize() for t in texts.values()) >= 9


def test_the_rites_plot_shows_every_rite_with_side_by_side_bars() -> None:
    g = table([game(rite_key="Harrow", rite_skull="Exhumation", rites_played_key=1)
               for _ in range(4)])
    fig = R.fig_rites(g, "t", rites=["Exhumation", "Desecration", "Harrow"])
    scores, shares = fig.axes
    labels = [t.get_text() for t in shares.get_yticklabels()]
    assert labels == ["Exhumation", "Desecration", "Harrow"]
    assert "never drafted" in [t.get_text() for t in scores.texts]
    drafted, played = shares.containers
    # Side by side: the two bars of a rite sit at different heights, neither covers the other.
    for a, b in zip(drafted.patches, played.patches, strict=True):
        assert a.get_y() + a.get_height() <= b.get_y() + 1e-9
    harrow = labels.index("Harrow")
    assert drafted.patches[harrow].get_width() == pytest.approx(0.5)
    assert played.patches[harrow].get_width() == pytest.approx(0.5)


def test_not_identifiable_is_a_message_without_empty_axes() -> None:
    # Two pairings that never meet: the strengths are not identifiable.
    rows = [game(faction_key="a", faction_skull="b"), game(faction_key="b", faction_skull="a"),
            game(faction_key="c", faction_skull="d"), game(faction_key="d", faction_skull="c")]
    fig = R.fig_faction_strength(table(rows), "t")
    message, scores = fig.axes
    assert not message.axison and scores.axison
    [text] = message.texts
    assert "not identifiable" in text.get_text()
    assert max(len(line) for line in text.get_text().splitlines()) <= 50


def test_the_faction_spread_has_a_bootstrap_interval_and_a_chance_yardstick() -> None:
    rng = np.random.default_rng(1)
    factions = ["a", "b", "c", "d"]
    # No real difference: every game a coin flip, 16 games a faction.
    rows = [game(faction_key=factions[i % 4], faction_skull=factions[(i + 1 + i // 4) % 4],
                 winner="key" if rng.random() < 0.5 else "skull") for i in range(32)]
    rows = [r for r in rows if r["faction_key"] != r["faction_skull"]]
    d = M.faction_spread_interval(table(rows), samples=1000)
    assert d["value"] == pytest.approx(M.faction_spread(table(rows)))
    assert d["low"] <= d["value"] <= d["high"]
    assert d["null_high"] > 0.2          # chance alone gives a large spread with few games
    assert d["p"] > 0.05                 # and this one is within it
    # A faction that wins every game is far outside what chance gives.
    strong = [game(faction_key="a", faction_skull=f, winner="key") for f in "bcd" * 6]
    strong += [game(faction_key=f, faction_skull=g, winner="key" if i % 2 else "skull")
               for i, (f, g) in enumerate(zip("bcdbcd" * 3, "cdbdbc" * 3, strict=True))]
    s = M.faction_spread_interval(table(strong), samples=1000)
    assert s["p"] < 0.01 and s["low"] > s["null_mean"]
    text = R.summary_tables(table(rows))[0][1]
    values = dict(zip(text["metric"], text["value"], strict=True))
    spread = next(v for k, v in values.items() if k.startswith("faction spread"))
    assert "[" in spread and "chance alone: 95% below" in spread
    assert "chance alone" in M.headline(table(rows))["faction spread"]
