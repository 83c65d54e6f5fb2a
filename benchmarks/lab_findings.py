"""The figures behind docs/balance.md: one table and a few plots over the lab runs of
``benchmarks/lab/*.toml``.

    for s in benchmarks/lab/*.toml; do reliquary lab run "$s"; done   # (resumable)
    python benchmarks/lab_findings.py            # table to stdout, plots to docs/images/balance/

Runs that are missing or empty are listed and skipped. Each run's full report can be
made with ``reliquary lab report lab-runs/<name>``.
"""

from __future__ import annotations

import argparse
import io
import math
from pathlib import Path
from typing import Any

import numpy as np

from reliquary.lab import metrics as M
from reliquary.lab import report as R
from reliquary.lab.spec import load_spec
from reliquary.lab.store import Store

ROOT = Path(__file__).resolve().parent.parent
#: The plots docs/balance.md shows, per run.
SHOWN = {
    "default-8-greedy": ("advantage", "faction_strength", "end_reasons", "length", "counts",
                         "faction_matrix"),
    "var4-removed-8-greedy": ("counts", "faction_strength"),
}


def pct(d: dict[str, Any], key: str = "value") -> str:
    return f"{d[key]:.0%} [{d['low']:.0%}, {d['high']:.0%}]"


def summary_row(name: str, g: Any) -> dict[str, Any]:
    fpa = M.first_player_advantage(g)
    counts = {(r["count"], r["group"]): r for r in M.regroups_kills(g).iter_rows(named=True)}
    ln = M.length(g)
    per100 = counts.get(("kills", "capped"))
    reg100 = counts.get(("regroups", "capped"))
    return {
        "run": name, "games": len(g), "cap": M.round_cap_rate(g), "draw": M.draw_rate(g),
        "fpa": fpa, "length": ln,
        "board": M.decisiveness(g)["board_wins"],
        "spread": M.faction_spread_interval(g),
        "kills_capped": per100["per_100_rounds"] if per100 else math.nan,
        "regroups_capped": reg100["per_100_rounds"] if reg100 else math.nan,
        "minutes": float(g["seconds"].sum()) / 60,
    }


def spread(d: dict[str, float]) -> str:
    """The faction spread with its bootstrap interval and what chance alone gives."""
    if not d["samples"]:
        return f"{d['value']:.0%}"
    return f"{d['value']:.0%} [{d['low']:.0%}, {d['high']:.0%}] (<{d['null_high']:.0%})"


def markdown_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| run | games | round-cap rate | draw rate | first-player score | "
             "mean rounds | board wins | faction spread [bootstrap] (chance alone: 95% "
             "below) | kills / Regroups per 100 rounds "
             "(capped games) | code |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ln = r["length"]
        kr = ("–" if math.isnan(r["kills_capped"]) else
              f"{r['kills_capped']:.0f} / {r['regroups_capped']:.0f}")
        lines.append(
            f"| {r['run']} | {r['games']} | {pct(r['cap'])} | {pct(r['draw'])} | "
            f"{pct(r['fpa'], 'score')} | {ln['mean']:.0f} [{ln['low']:.0f}, {ln['high']:.0f}] | "
            f"{pct(r['board'])} | {spread(r['spread'])} | {kr} | {r.get('code', '')} |")
    return "\n".join(lines)


def comparison_figure(rows: list[dict[str, Any]], out: Path) -> None:
    plt = R._mpl()
    fig, axes = plt.subplots(1, 4, figsize=(16, 0.8 + 0.42 * len(rows)), sharey=True)
    # The code fingerprint in each label: runs played by different AI code do not compare.
    names = [f"{r['run']} (n={r['games']}, code {r.get('code', '?')})" for r in rows]
    y = np.arange(len(rows))
    for ax, (key, field, title) in zip(axes, [
            ("cap", "value", "round-cap rate"), ("draw", "value", "draw rate"),
            ("fpa", "score", "first-player score"),
            ("board", "value", "won on the board (Hero or relic)")], strict=True):
        v = np.array([r[key][field] for r in rows])
        lo = np.array([r[key]["low"] for r in rows])
        hi = np.array([r[key]["high"] for r in rows])
        ax.errorbar(v, y, xerr=np.clip([v - lo, hi - v], 0, None), fmt="o", capsize=3)
        ax.set_xlim(0, 1)
        ax.set_title(title, fontsize=9)
        if key == "fpa":
            ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    axes[0].set_yticks(y, names, fontsize=8)
    axes[0].invert_yaxis()
    fig.suptitle("Default rules and variants: 95% Wilson intervals "
                 "(labels: run, games and the code fingerprint that played them)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def save(fig_png: bytes, path: Path) -> None:
    path.write_bytes(fig_png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=ROOT / "lab-runs")
    parser.add_argument("--specs", type=Path, default=ROOT / "benchmarks" / "lab")
    parser.add_argument("--images", type=Path, default=ROOT / "docs" / "images" / "balance")
    parser.add_argument("--plots", nargs="*",
                        default=["default-8-greedy", "var4-removed-8-greedy"],
                        help="Runs whose own plots are saved (those docs/balance.md shows).")
    args = parser.parse_args()
    args.images.mkdir(parents=True, exist_ok=True)
    rows = []
    for spec_path in sorted(args.specs.glob("*.toml")):
        spec = load_spec(spec_path)
        if spec.name.startswith("tune-"):
            continue  # a base spec for lab tune, not a run
        run = args.runs / spec.name
        if not (run / "lab.json").exists():
            print(f"(no run yet: {spec.name})")
            continue
        g = Store(run).table()
        if g.is_empty():
            print(f"(empty run: {spec.name})")
            continue
        rows.append(summary_row(spec.name, g))
        rows[-1]["code"] = ", ".join(Store(run).meta().get("code", ["(not recorded)"]))
        if spec.name in args.plots:
            label = f"{spec.name}: {spec.describe_rules()} — {len(g)} games"
            wanted = SHOWN.get(spec.name, SHOWN["default-8-greedy"])
            for name, png in R.figures(g, label).items():
                if name in wanted:
                    save(png, args.images / f"{spec.name}-{name}.png")
    # The earlier AI's default run (kept under lab-runs/before/): the cap loop's plots.
    before = args.runs / "before" / "default-8-greedy"
    if (before / "lab.json").exists():
        g = Store(before).table()
        label = f"default-8-greedy, earlier AI: greedy; size=8, round_cap=200 — {len(g)} games"
        for name, png in R.figures(g, label).items():
            if name in ("length", "counts"):
                save(png, args.images / f"before-default-8-greedy-{name}.png")
    order = {n: i for i, n in enumerate(["default-8-greedy", "default-8-search",
                                         "default-12-greedy", "default-12-search"])}
    rows.sort(key=lambda r: (order.get(r["run"], 9), r["run"]))
    print(markdown_table(rows))
    if rows:
        comparison_figure(rows, args.images / "overview.png")
    buffer = io.StringIO()
    for r in rows:
        buffer.write(f"{r['run']}: {r['minutes']:.1f} game-minutes; code {r['code']}\n")
    print(buffer.getvalue())


if __name__ == "__main__":
    main()
