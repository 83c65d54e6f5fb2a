"""A run's report: one self-contained HTML page (plots embedded as base64 PNG, inline
CSS, no script, nothing fetched) and a Markdown summary with the same tables and the
plots as PNG files beside it. Every figure's title carries the run's rules, agents and
game count, so a plot copied elsewhere still says what it measured."""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from . import metrics as M

#: The figures every report has, in order: name -> caption.
FIGURES: dict[str, str] = {
    "advantage": "First-player, Key-seat (and first agent's) score with 95% Wilson intervals",
    "faction_matrix": "Faction win-rate matrix: row faction's score against the column "
                      "faction (95% Wilson interval, games)",
    "faction_strength": "Faction strength: Bradley–Terry fit in Elo, with the overall score "
                        "and the spread (95% bootstrap interval; permutation yardstick)",
    "end_reasons": "End reasons, and which count decided the Vigil endings",
    "length": "Game length in rounds",
    "rites": "Rite win rate given the pick (95% Wilson intervals), and for every rite of "
             "the content the share of drafts and of drafts then played",
    "rite_matrix": "Rite win-rate matrix: the score of the player holding the row's "
                   "rite against the column's (95% Wilson interval, games)",
    "card_modes": "Card and mode usage: plays per game",
    "counts": "Kills, Regroups, rites played and relic pick-ups per game (95% t intervals)",
    "decisiveness": "When the game was decided: the eventual winner's lead over the game",
}


def _mpl() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _fmt_pct(value: float) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.1%}"


def _interval(d: dict[str, Any], key: str = "value") -> str:
    return f"{_fmt_pct(d[key])} [{_fmt_pct(d['low'])}, {_fmt_pct(d['high'])}]"


def _titled(fig: Any, title: str, label: str) -> None:
    fig.suptitle(f"{title}\n{label}", fontsize=10)


def _ink(rgba: tuple[float, ...]) -> str:
    """Black or white, whichever reads better on a cell of this colour: by the cell's
    relative luminance (WCAG; 0.179 is where both contrast ratios are equal)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def _annotated_heatmap(ax: Any, grid: np.ndarray, texts: dict[tuple[int, int], str],
                       cmap: str, vmin: float, vmax: float, fontsize: float) -> Any:
    """A heatmap whose cell labels take the ink that reads on their own cell."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize

    norm = Normalize(vmin=vmin, vmax=vmax)
    colours = colormaps[cmap]
    image = ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
    for (i, j), text in texts.items():
        value = grid[i, j]
        ink = _ink(colours(norm(value))) if not math.isnan(value) else "black"
        ax.text(j, i, text, ha="center", va="center", fontsize=fontsize, color=ink)
    return image


def _errorbars(ax: Any, names: list[str], values: list[float], lows: list[float],
               highs: list[float], reference: float | None = 0.5) -> None:
    y = np.arange(len(names))
    v, lo, hi = (np.array(x, dtype=float) for x in (values, lows, highs))
    # Clipped at 0: a Wilson bound can sit a rounding error past its estimate.
    xerr = np.clip(np.nan_to_num([v - lo, hi - v]), 0.0, None)
    ax.errorbar(v, y, xerr=xerr, fmt="o", capsize=3)
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    if reference is not None:
        ax.axvline(reference, color="grey", lw=0.8, ls="--")


# ---------------------------------------------------------------------- figures
def fig_advantage(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    fpa, seat = M.first_player_advantage(g), M.seat_advantage(g)
    rows = [("first player", fpa), ("Key seat", seat)]
    agent = M.agent_score(g)
    if agent is not None:
        rows.append((f"agent {agent['agent']}", agent))
    _errorbars(ax, [r[0] for r in rows], [r[1]["score"] for r in rows],
               [r[1]["low"] for r in rows], [r[1]["high"] for r in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("score (win 1, draw ½)")
    _titled(fig, "Advantage", label)
    fig.tight_layout()
    return fig


def _score_matrix(mat: pl.DataFrame, key: str, label: str, title: str,
                  size: tuple[float, float, float, float], axes: tuple[str, str],
                  colorbar: str) -> Any:
    """A heatmap of the row's score against the column (``key`` and ``opponent``) with
    intervals and counts; ``size``: the figure's width and height, each a base plus a
    share per row."""
    plt = _mpl()
    names = sorted(set(mat[key].to_list()) | set(mat["opponent"].to_list()))
    n = len(names)
    grid = np.full((n, n), np.nan)
    texts = {}
    for row in mat.iter_rows(named=True):
        i, j = names.index(row[key]), names.index(row["opponent"])
        grid[i, j] = row["score"]
        texts[(i, j)] = (f"{row['score']:.0%}\n[{row['low']:.0%}, {row['high']:.0%}]\n"
                         f"n={row['games']}")
    fig, ax = plt.subplots(figsize=(size[0] + size[1] * n, size[2] + size[3] * n))
    image = _annotated_heatmap(ax, grid, texts, "RdBu", 0.0, 1.0, fontsize=9)
    ax.set_xticks(range(n), names, rotation=30, ha="right", fontsize=10)
    ax.set_yticks(range(n), names, fontsize=10)
    ax.set_xlabel(axes[0], fontsize=10)
    ax.set_ylabel(axes[1], fontsize=10)
    fig.colorbar(image, ax=ax, label=colorbar, shrink=0.8)
    _titled(fig, title, label)
    fig.tight_layout()
    return fig


def fig_faction_matrix(g: pl.DataFrame, label: str) -> Any:
    return _score_matrix(M.faction_matrix(g), "faction", label, "Faction win-rate matrix",
                         (2.6, 1.35, 2.0, 1.05), ("opponent", "faction"),
                         "row faction's score")


def fig_rite_matrix(g: pl.DataFrame, label: str) -> Any:
    """The row rite's holder's score against the column rite's, with intervals."""
    mat = M.rite_matrix(g)
    if len(set(mat["rite"].to_list()) | set(mat["opponent"].to_list())) < 2:
        fig, ax = _mpl().subplots(figsize=(6, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "fewer than two rites drafted: no rite matrix", ha="center",
                va="center")
        _titled(fig, "Rite win-rate matrix", label)
        return fig
    return _score_matrix(mat, "rite", label, "Rite win-rate matrix", (3.2, 1.5, 2.4, 1.1),
                         ("opponent's rite", "rite"), "row rite's holder's score")


def fig_faction_strength(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 1.3 + 0.45 * max(3, _n_factions(g))))
    try:
        bt = M.bradley_terry(g)["factions"].sort("elo", descending=True)
        _errorbars(ax1, bt["faction"].to_list(), bt["elo"].to_list(), bt["elo_low"].to_list(),
                   bt["elo_high"].to_list(), reference=0.0)
        ax1.set_xlabel("Bradley–Terry strength (Elo, sums to 0)")
    except ValueError as err:
        # A message, not a plot: no axes, the text wrapped to the panel.
        ax1.set_axis_off()
        ax1.text(0.5, 0.5, "\n".join(textwrap.wrap(f"Bradley–Terry strengths: {err}", 48)),
                 ha="center", va="center", fontsize=9, transform=ax1.transAxes)
    scores = M.faction_scores(g).sort("score", descending=True)
    _errorbars(ax2, scores["faction"].to_list(), scores["score"].to_list(),
               scores["low"].to_list(), scores["high"].to_list())
    ax2.set_xlim(0, 1)
    spread = M.faction_spread_interval(g)
    ax2.set_xlabel("overall score\nspread " + M.spread_text(spread), fontsize=8)
    _titled(fig, "Faction strength", label)
    fig.tight_layout()
    return fig


def _n_factions(g: pl.DataFrame) -> int:
    return len(set(g["faction_key"].drop_nulls().to_list())
               | set(g["faction_skull"].drop_nulls().to_list()))


def fig_end_reasons(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3))
    reasons = M.end_reasons(g)
    _errorbars(ax1, reasons["reason"].to_list(), reasons["share"].to_list(),
               reasons["low"].to_list(), reasons["high"].to_list(), reference=None)
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("share of games")
    ties = M.tiebreaks(g)
    if ties.is_empty():
        ax2.text(0.5, 0.5, "no Vigil endings", ha="center", va="center")
        ax2.set_axis_off()
    else:
        _errorbars(ax2, ties["tiebreak"].to_list(), ties["share"].to_list(),
                   ties["low"].to_list(), ties["high"].to_list(), reference=None)
        ax2.set_xlim(0, 1)
        ax2.set_xlabel("share of Vigil endings")
    _titled(fig, "End reasons and Vigil tie-breaks", label)
    fig.tight_layout()
    return fig


def fig_length(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    fig, ax = plt.subplots(figsize=(7, 3))
    rounds = g["rounds"].to_numpy()
    capped = g.filter(pl.col("reason") == "round_cap")["rounds"].to_numpy()
    top = int(max(rounds.max(), 1)) if rounds.size else 1
    bins = np.linspace(0, top + 1, min(40, top + 2))
    finished = g.filter(pl.col("reason") != "round_cap")["rounds"].to_numpy()
    ax.hist([finished, capped],
            bins=bins, stacked=True, label=["finished", "round cap"])
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    _titled(fig, "Game length", label)
    fig.tight_layout()
    return fig


def fig_rites(g: pl.DataFrame, label: str, rites: list[str] | None = None) -> Any:
    """Every rite of the content (``rites``), drafted or not: its score given the pick,
    and its drafted and played shares as bars side by side."""
    plt = _mpl()
    table = M.rite_win_rates(g)
    by_rite = {r["rite"]: r for r in table.iter_rows(named=True)}
    names = list(dict.fromkeys([*(rites or []), *sorted(by_rite)]))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 1.4 + 0.42 * max(3, len(names))))
    if not names:
        for ax in (ax1, ax2):
            ax.set_axis_off()
        ax1.text(0.5, 0.5, "no rites drafted", ha="center", va="center")
    else:
        nan = math.nan
        rows = [by_rite.get(n, {}) for n in names]
        _errorbars(ax1, names, [r.get("score", nan) for r in rows],
                   [r.get("low", nan) for r in rows], [r.get("high", nan) for r in rows])
        for at, r in enumerate(rows):
            if not r:
                ax1.text(0.5, at, "never drafted", ha="center", va="center", fontsize=8,
                         color="grey")
        ax1.set_xlim(0, 1)
        ax1.set_xlabel("score of the player who drafted it")
        y = np.arange(len(names))
        drafted = [r.get("pick_share", 0.0) for r in rows]
        played = [r.get("pick_share", 0.0) * r.get("played_share", 0.0) for r in rows]
        ax2.barh(y - 0.2, drafted, height=0.4, label="drafted")
        ax2.barh(y + 0.2, played, height=0.4, label="drafted and played")
        ax2.set_yticks(y, names, fontsize=8)
        ax2.invert_yaxis()
        ax2.set_xlabel("share of drafts")
        ax2.legend(fontsize=8)
    _titled(fig, "Rites", label)
    fig.tight_layout()
    return fig


def fig_card_modes(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    usage = M.card_mode_usage(g)
    cards = sorted(set(usage["card"].to_list()))
    modes = [m for m in ("move", "attack", "regroup", "rite", "interact", "pass")
             if m in set(usage["mode"].to_list())]  # INTERACT: the rule modules' (M-MOD-3)
    grid = np.zeros((len(cards), len(modes)))
    for row in usage.iter_rows(named=True):
        grid[cards.index(row["card"]), modes.index(row["mode"])] = row["per_game"]
    fig, ax = plt.subplots(figsize=(2.4 + 1.3 * max(1, len(modes)), 1.6 + 0.42 * len(cards)))
    texts = {(i, j): f"{grid[i, j]:.2f}" for i in range(len(cards)) for j in range(len(modes))}
    image = _annotated_heatmap(ax, grid, texts, "viridis", 0.0, float(grid.max()) or 1.0,
                               fontsize=9)
    ax.set_xticks(range(len(modes)), modes, fontsize=10)
    ax.set_yticks(range(len(cards)), cards, fontsize=9)
    fig.colorbar(image, ax=ax, label="plays per game", shrink=0.8)
    _titled(fig, "Card and mode usage", label)
    fig.tight_layout()
    return fig


def fig_counts(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    counts = M.regroups_kills(g)
    fig, ax = plt.subplots(figsize=(8, 3))
    groups = [x for x in ("all", "finished", "capped") if x in set(counts["group"].to_list())]
    names = list(dict.fromkeys(counts["count"].to_list()))
    width = 0.8 / max(1, len(groups))
    for k, group in enumerate(groups):
        sub = counts.filter(pl.col("group") == group)
        lookup = {r["count"]: r for r in sub.iter_rows(named=True)}
        means = [lookup[n]["mean"] if n in lookup else np.nan for n in names]
        err = [[lookup[n]["mean"] - lookup[n]["low"] if n in lookup else 0 for n in names],
               [lookup[n]["high"] - lookup[n]["mean"] if n in lookup else 0 for n in names]]
        ax.bar(np.arange(len(names)) + k * width, means, width,
               yerr=np.nan_to_num(np.array(err, dtype=float)), capsize=3,
               label=f"{group} ({int(sub['games'][0]) if len(sub) else 0} games)")
    ax.set_xticks(np.arange(len(names)) + width * (len(groups) - 1) / 2, names)
    ax.set_ylabel("per game (both players)")
    ax.legend(fontsize=8)
    _titled(fig, "Kills, Regroups, rites and relic pick-ups", label)
    fig.tight_layout()
    return fig


def fig_decisiveness(g: pl.DataFrame, label: str) -> Any:
    plt = _mpl()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3))
    moments, behind = [], []
    for winner, evals in zip(g["winner"], g["eval_key"], strict=True):
        ev = list(evals) if evals is not None else []
        if winner is None or not ev:
            continue
        view = ev if winner == "key" else [-v for v in ev]
        _, m, b = M._sign_runs(view)
        moments.append(m)
        behind.append(b)
    ax1.hist(moments, bins=np.linspace(0, 1, 11))
    ax1.set_xlabel("decisive moment (fraction of the game)")
    ax1.set_ylabel("decisive games")
    ax2.hist(behind, bins=np.linspace(0, 1, 11))
    ax2.set_xlabel("share of rounds the winner was behind (drama)")
    _titled(fig, "When games were decided", label)
    fig.tight_layout()
    return fig


_BUILDERS: dict[str, Callable[[pl.DataFrame, str], Any]] = {
    "advantage": fig_advantage, "faction_matrix": fig_faction_matrix,
    "faction_strength": fig_faction_strength, "end_reasons": fig_end_reasons,
    "length": fig_length, "rites": fig_rites, "rite_matrix": fig_rite_matrix,
    "card_modes": fig_card_modes,
    "counts": fig_counts, "decisiveness": fig_decisiveness,
}


def figures(g: pl.DataFrame, label: str, rites: list[str] | None = None) -> dict[str, bytes]:
    """Every figure of :data:`FIGURES` as PNG bytes; ``rites``: every rite of the
    content, so that the rites figure shows those never drafted too."""
    plt = _mpl()
    out = {}
    for name in FIGURES:
        fig = fig_rites(g, label, rites) if name == "rites" else _BUILDERS[name](g, label)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110)
        plt.close(fig)
        out[name] = buffer.getvalue()
    return out


# ---------------------------------------------------------------------- tables
def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return "–" if value is None else str(value)


def _table_rows(frame: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    return frame.columns, [[_fmt(v) for v in row] for row in frame.iter_rows()]


def summary_tables(g: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """The report's tables: (title, table)."""
    fpa, seat = M.first_player_advantage(g), M.seat_advantage(g)
    dec = M.decisiveness(g)
    ln = M.length(g)
    vig = M.vigil(g)
    rows = [
        ("games", str(len(g))),
        ("first-player score", _interval(fpa, "score")),
        ("first player's share of decisive games",
         f"{_fmt_pct(fpa['decisive_share'])} [{_fmt_pct(fpa['decisive_low'])}, "
         f"{_fmt_pct(fpa['decisive_high'])}] of {fpa['decisive']}"),
        ("Key-seat score", _interval(seat, "score")),
        ("draw rate (drawishness)", _interval(M.draw_rate(g))),
        ("round-cap rate", _interval(M.round_cap_rate(g))),
        ("decisive rate", _interval(dec["decisive"])),
        ("board-win rate (Hero or relic)", _interval(dec["board_wins"])),
        ("decisive moment (mean fraction)", "{:.2f} [{:.2f}, {:.2f}]".format(
            *dec["decisive_moment"])),
        ("lead changes per game", "{:.2f} [{:.2f}, {:.2f}]".format(*dec["lead_changes"])),
        ("drama (share of rounds the winner was behind)",
         "{:.2f} [{:.2f}, {:.2f}]".format(*dec["drama"])),
        ("comeback rate (decisive games won from behind at mid-game)",
         _interval(M.comeback_rate(g))),
        ("mean rounds", f"{ln['mean']:.1f} [{ln['low']:.1f}, {ln['high']:.1f}]; median "
                        f"{ln.get('median', math.nan):.0f}, max {ln.get('max', math.nan):.0f}"),
        ("lowest Vigil reached (mean)", "{:.2f} [{:.2f}, {:.2f}]".format(*vig["vigil_min"])),
        ("games whose Vigil never fell below 4", _interval(vig["never_below_4"])),
        ("faction spread (max − min overall score; bootstrap interval)",
         M.spread_text(M.faction_spread_interval(g)) if _n_factions(g) >= 2 else "–"),
        ("branching at the card play (Key, Skull)",
         f"{M.branching(g)['key'][0]:.1f}, {M.branching(g)['skull'][0]:.1f}"),
    ]
    agent = M.agent_score(g)
    if agent is not None:
        rows.insert(4, (f"score of {agent['agent']}", _interval(agent, "score")))
    tables = [("Headline", pl.DataFrame({"metric": [r[0] for r in rows],
                                         "value": [r[1] for r in rows]}))]
    tables.append(("End reasons", M.end_reasons(g)))
    tables.append(("Vigil tie-breaks", M.tiebreaks(g)))
    if _n_factions(g) >= 2:
        tables.append(("Faction overall scores", M.faction_scores(g)))
        try:
            bt = M.bradley_terry(g)
            tables.append(("Bradley–Terry strengths", bt["factions"]))
            h = bt["first_move"]
            s = bt["seat"]
            tables.append(("Bradley–Terry first-move and seat terms (log-odds)", pl.DataFrame({
                "term": ["first move", "Key seat"], "value": [h[0], s[0]],
                "low": [h[1], s[1]], "high": [h[2], s[2]]})))
            if bt["rites"] is not None:
                tables.append(("Bradley–Terry rite terms (log-odds; first move and "
                               "factions held apart)", bt["rites"]))
            elif bt["rites_note"]:
                tables.append(("Bradley–Terry rite terms", pl.DataFrame(
                    {"note": [bt["rites_note"]]})))
        except ValueError:
            pass
        tables.append(("Faction matrix (row's score vs column)", M.faction_matrix(g)))
    tables.append(("Rite win rates given the pick", M.rite_win_rates(g)))
    rite_matrix = M.rite_matrix(g)
    if not rite_matrix.is_empty():
        tables.append(("Rite matrix (row rite's holder's score vs the column rite's)",
                       rite_matrix))
        tables.append(("Rite score by first move (rite and first move apart)",
                       M.rite_first_table(g)))
    tables.append(("Mode usage", M.mode_usage(g)))
    tables.append(("Card and mode usage", M.card_mode_usage(g)))
    tables.append(("Kills, Regroups, rites and pick-ups per game", M.regroups_kills(g)))
    figures = M.module_figures(g)
    if not figures.is_empty():
        tables.append(("Rule modules' figures per game", figures))
    tables.extend(_glory_tables(g))
    return tables


def _glory_tables(g: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """M-GLORY's sections (issue 25), when the run played with the module: the Glory
    summary and the objective balance (score rate when held, and win correlation)."""
    from .glory_balance import glory_summary, objective_balance

    balance = objective_balance(g)
    if balance.is_empty():
        return []
    return [("Glory & Support: summary", glory_summary(g)),
            ("Glory & Support: objective balance (held = side-games that drew it; §10.3 "
             "flags a score rate under 5% or over 80%)", balance)]


# ---------------------------------------------------------------------- output
_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:13px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#f2f2f2}
td:first-child{text-align:left}figure{margin:1em 0 2em}figcaption{font-size:13px;color:#555}
img{max-width:100%}code{background:#f4f4f4;padding:1px 3px}.warn{color:#a40}
.prov{font-size:13px;color:#444}"""


@dataclass
class RunInfo:
    """What a report says about how a run was made, beside its games (from the store)."""

    run_dir: Path | None = None
    command: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    rites: list[str] | None = None
    records: dict[str, Path] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    content: Any = None

    @classmethod
    def of(cls, run_dir: str | Path) -> RunInfo:
        """Read a run's ``lab.json``, kept records and failed games."""
        from ..content import default_content, load_content
        from .store import Store

        store = Store(run_dir)
        meta = store.meta()
        content_dir = meta.get("content_dir")
        try:
            content = load_content(Path(content_dir)) if content_dir else default_content()
        except Exception:  # a moved content folder: report without it
            content = None
        command = meta.get("command")
        if not command and meta.get("spec_path"):
            command = f"reliquary lab run {meta['spec_path']} --out {run_dir}"
        return cls(run_dir=Path(run_dir), command=command, meta=meta,
                   rites=[r.id for r in content.rites] if content is not None else None,
                   records=store.records(), failures=store.failures(), content=content)

    def provenance(self) -> list[tuple[str, str]]:
        """(what, value) lines: the command, overrides, content, code."""
        meta = self.meta
        lines = []
        if self.command:
            lines.append(("Reproduce", self.command))
        if meta.get("cwd"):
            lines.append(("from the folder", meta["cwd"]))
        if meta.get("overrides"):
            lines.append(("overrides", ", ".join(f"{k}={v}" for k, v in
                                                 meta["overrides"].items())))
        if "content" in meta:
            where = meta.get("content_dir") or "the packaged content"
            lines.append(("content", f"{where} (fingerprint {meta['content']})"))
        if meta.get("code"):
            lines.append(("code", ", ".join(meta["code"])))
        return lines


def _provenance_html(info: RunInfo) -> str:
    items = "".join(f"<li>{html.escape(k)}: <code>{html.escape(v)}</code></li>"
                    for k, v in info.provenance())
    return f"<ul class='prov'>{items}</ul>" if items else ""


def _records_section(g: pl.DataFrame, info: RunInfo, out: Path) -> tuple[str, list[str]]:
    """The kept records: a table linking each to its replay page and its JSON file."""
    if not info.records:
        return "", []
    replays = out / "replays"
    replays.mkdir(parents=True, exist_ok=True)
    rows = {r["game_id"]: r for r in g.iter_rows(named=True)}
    content_flag = f" --content {info.meta['content_dir']}" if info.meta.get("content_dir") \
        else ""
    lines_html, lines_md = [], ["## Kept game records", "",
                                "| game | factions | result | replay | record |",
                                "|---|---|---|---|---|"]
    for game_id, path in info.records.items():
        row = rows.get(game_id)
        page = replays / f"{game_id}.html"
        command = f"reliquary replay {path}{content_flag}"
        page.write_text(_replay_page(path, info, command), encoding="utf-8")
        record_link = os.path.relpath(path, out)
        what = (f"#{row['game_index']}", f"{row['faction_key']} v {row['faction_skull']}",
                f"{row['winner'] or 'draw'} ({row['reason']}, {row['rounds']} rounds)") \
            if row else (game_id, "", "")
        lines_html.append(
            "<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in what)
            + f"<td><a href='replays/{game_id}.html'>replay</a></td>"
            f"<td><a href='{html.escape(record_link)}'>{html.escape(path.name)}</a></td></tr>")
        lines_md.append(f"| {' | '.join(what)} | [replay](replays/{game_id}.html) | "
                        f"[{path.name}]({record_link}) |")
    head = ("<h2>Kept game records</h2><p>Each record replays with <code>reliquary replay "
            f"FILE{html.escape(content_flag)}</code>.</p><table><tr><th>game</th>"
            "<th>factions</th><th>result</th><th>replay</th><th>record</th></tr>")
    return head + "".join(lines_html) + "</table>", [*lines_md, ""]


def _replay_page(path: Path, info: RunInfo, command: str) -> str:
    """A game's moves, checked by replaying its record, as a small page."""
    from ..engine import PLAYER_NAMES, replay

    title = f"Replay of {path.stem}"
    body: list[str] = []
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if info.content is None:
            raise ValueError("the run's content folder cannot be read")
        game = replay(record, info.content)
        body.append("setup: " + " ".join(e.token for e in game.setup()))
        for number, turn in enumerate(game.turns(), start=1):
            body.append(f"{number:>4}. {PLAYER_NAMES[turn[0].player]:<6} "
                        + " ".join(e.token for e in turn))
        result = game.state.result
        if result is not None:
            who = "draw" if result.winner is None else f"{PLAYER_NAMES[result.winner]} wins"
            body.append(f"result: {who} — {result.reason}: {result.detail}")
    except Exception as err:  # the page says why instead of the moves
        body.append(f"cannot replay: {err}")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><style>{_CSS}</style></head><body><h1>"
            f"{html.escape(title)}</h1><p>Replay it yourself: <code>{html.escape(command)}"
            f"</code></p><pre>{html.escape(chr(10).join(body))}</pre></body></html>")


def _failures_html(info: RunInfo) -> tuple[str, list[str]]:
    if not info.failures:
        return "", []
    frame = pl.DataFrame([{k: str(v) for k, v in f.items()} for f in info.failures])
    note = (f"{len(info.failures)} game(s) could not be played (given up after their "
            "tries); resuming the run tries them again.")
    return (f"<p class='warn'>{html.escape(note)}</p>" + _html_table("Failed games", frame),
            [note, "", *_md_table("Failed games", frame)])


def render(g: pl.DataFrame, label: str, out_dir: str | Path,
           command: str | None = None, info: RunInfo | None = None) -> tuple[Path, Path]:
    """Write ``report.html`` (self-contained but for the kept records' replay pages) and
    ``report.md`` with ``plots/*.png`` into ``out_dir``; returns their paths."""
    if g.is_empty():
        raise ValueError("no games to report on")
    info = info or RunInfo(command=command)
    if command:
        info.command = command
    out = Path(out_dir)
    plots_dir = out / "plots"
    plots_dir.mkdir(parents=True, exist_ok=True)
    pngs = figures(g, label, info.rites)
    tables = summary_tables(g)
    title = f"Reliquary lab report — {label}"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", _provenance_html(info)]
    md = [f"# {title}", ""]
    md += [f"- {k}: `{v}`" for k, v in info.provenance()] + [""]
    failed_html, failed_md = _failures_html(info)
    parts.append(failed_html)
    md += failed_md
    parts.append(f"<p>{html.escape(INTERVALS)}</p>")
    for name, caption in FIGURES.items():
        data = base64.b64encode(pngs[name]).decode("ascii")
        (plots_dir / f"{name}.png").write_bytes(pngs[name])
        parts.append(f"<figure id='fig-{name}'><img alt='{html.escape(name)}' "
                     f"src='data:image/png;base64,{data}'><figcaption>"
                     f"{html.escape(caption)}</figcaption></figure>")
        md += [f"![{caption}](plots/{name}.png)", ""]
        if name == "advantage":
            head_title, head = tables[0]
            parts.append(_html_table(head_title, head))
            md += _md_table(head_title, head)
    for table_title, frame in tables[1:]:
        parts.append(_html_table(table_title, frame))
        md += _md_table(table_title, frame)
    records_html, records_md = _records_section(g, info, out)
    parts.append(records_html)
    md += records_md
    parts.append("</body></html>")
    html_path, md_path = out / "report.html", out / "report.md"
    html_path.write_text("\n".join(parts), encoding="utf-8")
    md_path.write_text("\n".join(md) + "\n", encoding="utf-8")
    return html_path, md_path


INTERVALS = ("Intervals are 95% (Wilson for shares and scores, Student t for means, Wald "
             "for the Bradley–Terry fit, bootstrap percentile for the faction spread, with "
             "a permutation test for what chance alone gives); definitions in docs/lab.md.")


def render_pair(a: pl.DataFrame, b: pl.DataFrame, labels: tuple[str, str], out_dir: str | Path,
                infos: tuple[RunInfo, RunInfo] | None = None) -> tuple[Path, Path]:
    """Two runs side by side: their headline figures in one table (A, B) and every
    figure of A beside B's. Writes ``report.html`` and ``report.md`` (plots in
    ``plots/a-*.png`` and ``plots/b-*.png``) into ``out_dir``."""
    if a.is_empty() or b.is_empty():
        raise ValueError("both runs need games to report on")
    infos = infos or (RunInfo(), RunInfo())
    out = Path(out_dir)
    plots_dir = out / "plots"
    plots_dir.mkdir(parents=True, exist_ok=True)
    pngs = [figures(g, label, info.rites) for g, label, info in zip(
        (a, b), labels, infos, strict=True)]
    head_a, head_b = summary_tables(a)[0][1], summary_tables(b)[0][1]
    values_b = dict(zip(head_b["metric"].to_list(), head_b["value"].to_list(), strict=True))
    both = pl.DataFrame({"metric": head_a["metric"],
                         "A": head_a["value"],
                         "B": [values_b.get(m, "–") for m in head_a["metric"].to_list()]})
    title = f"Reliquary lab report — A: {labels[0]} | B: {labels[1]}"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_CSS}"
             ".pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}</style></head><body>",
             "<h1>Reliquary lab report: two runs</h1>"]
    md = ["# Reliquary lab report: two runs", ""]
    for side, label, info in zip("AB", labels, infos, strict=True):
        parts.append(f"<h2>{side}: {html.escape(label)}</h2>{_provenance_html(info)}")
        md += [f"## {side}: {label}", ""] + [f"- {k}: `{v}`" for k, v in info.provenance()]
        md.append("")
    parts.append(f"<p>{html.escape(INTERVALS)}</p>")
    parts.append(_html_table("Headline: A and B", both))
    md += _md_table("Headline: A and B", both)
    for name, caption in FIGURES.items():
        cells = []
        for side, png in zip("ab", pngs, strict=True):
            (plots_dir / f"{side}-{name}.png").write_bytes(png[name])
            data = base64.b64encode(png[name]).decode("ascii")
            cells.append(f"<img alt='{side.upper()}: {html.escape(name)}' "
                         f"src='data:image/png;base64,{data}'>")
        parts.append(f"<figure id='fig-{name}'><div class='pair'>{''.join(cells)}</div>"
                     f"<figcaption>{html.escape(caption)} — A left, B right</figcaption>"
                     "</figure>")
        md += ["| A | B |", "|---|---|",
               f"| ![A: {caption}](plots/a-{name}.png) | ![B: {caption}](plots/b-{name}.png) |",
               ""]
    parts.append("</body></html>")
    html_path, md_path = out / "report.html", out / "report.md"
    html_path.write_text("\n".join(parts), encoding="utf-8")
    md_path.write_text("\n".join(md) + "\n", encoding="utf-8")
    return html_path, md_path


def _html_table(title: str, frame: pl.DataFrame) -> str:
    columns, rows = _table_rows(frame)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    return f"<h2>{html.escape(title)}</h2><table><tr>{head}</tr>{body}</table>"


def _md_table(title: str, frame: pl.DataFrame) -> list[str]:
    columns, rows = _table_rows(frame)
    lines = [f"## {title}", "", "| " + " | ".join(columns) + " |",
             "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]
