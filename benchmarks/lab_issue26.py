"""The figures of docs/balance.md's "A balanced ruleset" section (issue 26): every run
judged against the issue's targets, with 95% intervals, and the first move, rite and
faction terms of the Bradley–Terry fit.

    python benchmarks/lab_issue26.py lab-runs/classic-8-greedy-balanced \\
        lab-runs/tournament-8-greedy-balanced …            # markdown to stdout

A run that is missing or empty is said and skipped. Throughput is the run's games over
the CPU seconds its games took (the ``seconds`` column: wall time of each game in its
worker) and over the wall time between its first and last batch file.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reliquary.lab import metrics as M
from reliquary.lab.store import Store

#: The issue's targets: (label, test on the figures).
TARGETS = ("draws ≤ 5%", "round cap 0", "first player 50 ± 3% (interval in 47–53%)",
           "every faction 50 ± 5%", "every rite 50 ± 5%", "≥ 15 rounds")


def pct(d: dict[str, Any], key: str = "value") -> str:
    return f"{d[key]:.1%} [{d['low']:.1%}, {d['high']:.1%}]"


def figures(g: Any) -> dict[str, Any]:
    """The figures a run is judged on."""
    fpa = M.first_player_advantage(g)
    factions = M.faction_scores(g).sort("score")
    rites = M.rite_win_rates(g).sort("score")
    ln = M.length(g)
    out: dict[str, Any] = {
        "games": len(g), "draw": M.draw_rate(g), "cap": M.round_cap_rate(g), "fpa": fpa,
        "length": ln, "board": M.decisiveness(g)["board_wins"],
        "factions": factions, "rites": rites,
    }
    try:
        out["bt"] = M.bradley_terry(g)
    except ValueError as err:
        out["bt"] = str(err)
    return out


def verdicts(f: dict[str, Any]) -> list[str]:
    """Each target: met, missed (by how much) — by the point figure and the interval."""
    out = []
    d = f["draw"]
    out.append(f"draws {pct(d)}: " + ("met" if d["value"] <= 0.05 else
                                      f"missed by {d['value'] - 0.05:.1%}"))
    c = f["cap"]
    out.append(f"round cap {pct(c)}: " + ("met" if c["value"] == 0 else "missed"))
    fp = f["fpa"]
    inside = fp["low"] >= 0.47 and fp["high"] <= 0.53
    off = abs(fp["score"] - 0.5)
    out.append(f"first player {fp['score']:.1%} [{fp['low']:.1%}, {fp['high']:.1%}]: "
               + ("met" if inside else
                  f"point {'within' if off <= 0.03 else 'outside'} 50 ± 3% ({off:.1%} off); "
                  f"interval {'inside' if inside else 'not inside'} 47–53% "
                  f"(width {fp['high'] - fp['low']:.1%})"))
    for kind in ("factions", "rites"):
        table = f[kind]
        if table.is_empty():
            continue
        name = "faction" if kind == "factions" else "rite"
        worst = max(table.iter_rows(named=True), key=lambda r: abs(r["score"] - 0.5))
        off = abs(worst["score"] - 0.5)
        out.append(f"every {name} 50 ± 5%: worst {worst[name]} {worst['score']:.1%} "
                   f"[{worst['low']:.1%}, {worst['high']:.1%}] — "
                   + ("met by the point figures" if off <= 0.05 else
                      f"missed by {off - 0.05:.1%}"))
    ln = f["length"]
    out.append(f"mean length {ln['mean']:.1f} [{ln['low']:.1f}, {ln['high']:.1f}] rounds: "
               + ("met" if ln["mean"] >= 15 else f"missed by {15 - ln['mean']:.1f}"))
    out.append(f"board wins (Hero killed or relic home) {pct(f['board'])}")
    return out


def throughput(run: Path, g: Any) -> str:
    parts = sorted((run / "games").glob("*.parquet"))
    cpu = float(g["seconds"].sum())
    if not parts or cpu <= 0:
        return "–"
    mtimes = [p.stat().st_mtime for p in parts]
    wall = max(mtimes) - min(mtimes)
    per_batch = wall / max(len(parts) - 1, 1)
    wall_est = wall + per_batch          # the first batch's own time, estimated
    return (f"{len(g) / cpu * 3600:,.0f} games per worker-hour of game time; "
            f"≈{len(g) / wall_est * 3600:,.0f} games/hour wall ({len(parts)} batches)")


def report(run: Path) -> list[str]:
    g = Store(run).table()
    if g.is_empty():
        return [f"### {run.name}", "", "(no games)", ""]
    f = figures(g)
    lines = [f"### {run.name} — {f['games']} games", ""]
    lines += [f"- {v}" for v in verdicts(f)]
    versus = M.agent_score(g)
    if versus is not None:          # two agents: the first one's score over both seats
        lines.append(f"- {versus['agent']}'s score {versus['score']:.1%} [{versus['low']:.1%}, "
                     f"{versus['high']:.1%}] ({versus['wins']} wins, {versus['draws']} draws "
                     f"of {len(g)})")
    bt = f["bt"]
    if isinstance(bt, str):
        lines.append(f"- Bradley–Terry: {bt}")
    else:
        h = bt["first_move"]
        lines.append(f"- Bradley–Terry first move {h[0]:+.2f} [{h[1]:+.2f}, {h[2]:+.2f}] "
                     "log-odds; Key seat {:+.2f} [{:+.2f}, {:+.2f}]".format(*bt["seat"]))
        if bt["rites"] is not None:
            lines.append("- Bradley–Terry rites (Elo): " + ", ".join(
                f"{r['rite']} {r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]"
                for r in bt["rites"].sort("elo", descending=True).iter_rows(named=True)))
        elif bt["rites_note"]:
            lines.append(f"- Bradley–Terry rites: {bt['rites_note']}")
        lines.append("- Bradley–Terry factions (Elo): " + ", ".join(
            f"{r['faction']} {r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]"
            for r in bt["factions"].sort("elo", descending=True).iter_rows(named=True)))
    lines.append("- faction scores: " + ", ".join(
        f"{r['faction']} {r['score']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"
        for r in f["factions"].sort("score", descending=True).iter_rows(named=True)))
    lines.append("- rite scores: " + ", ".join(
        f"{r['rite']} {r['score']:.1%} [{r['low']:.1%}, {r['high']:.1%}] (n={r['games']})"
        for r in f["rites"].iter_rows(named=True)))
    matrix = M.rite_matrix(g)
    if not matrix.is_empty():
        lines.append("- rite matrix (row's holder vs column's): " + ", ".join(
            f"{r['rite']}–{r['opponent']} {r['score']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"
            for r in matrix.iter_rows(named=True)))
    ends = M.end_reasons(g)
    lines.append("- end reasons: " + ", ".join(
        f"{r['reason']} {r['share']:.0%}" for r in ends.iter_rows(named=True)))
    lines.append(f"- throughput: {throughput(run, g)}")
    codes = sorted(set(g["content"].to_list()))
    lines.append(f"- content fingerprint(s): {', '.join(codes)}")
    return [*lines, ""]


def table(runs: list[Path]) -> list[str]:
    """One row a run: the issue's figures side by side."""
    lines = ["| run | games | draws | round cap | first player | worst faction | worst rite "
             "| mean rounds | board wins |", "|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        g = Store(run).table() if (run / "lab.json").exists() else None
        if g is None or g.is_empty():
            lines.append(f"| {run.name} | 0 | – | – | – | – | – | – | – |")
            continue
        f = figures(g)
        worst = {}
        for kind, name in (("factions", "faction"), ("rites", "rite")):
            rows = list(f[kind].iter_rows(named=True))
            w = max(rows, key=lambda r: abs(r["score"] - 0.5)) if rows else None
            worst[kind] = (f"{w[name]} {w['score']:.0%} [{w['low']:.0%}, {w['high']:.0%}]"
                           if w else "–")
        ln = f["length"]
        fp = f["fpa"]
        lines.append(f"| {run.name} | {len(g)} | {pct(f['draw'])} | {pct(f['cap'])} | "
                     f"{fp['score']:.1%} [{fp['low']:.1%}, {fp['high']:.1%}] | "
                     f"{worst['factions']} | {worst['rites']} | "
                     f"{ln['mean']:.1f} [{ln['low']:.1f}, {ln['high']:.1f}] | {pct(f['board'])} |")
    return lines


#: The factions in the order of the tuning tables' columns, with their short names.
SHORT = {"gallows-court": "GC", "ash-reapers": "AR", "grave-tide": "GT",
         "bone-wardens": "BW", "storm-sworn": "SS", "lantern-bearers": "LB",
         "hollow-kin": "HK", "pyre-choir": "PC", "veiled-hand": "VH"}


def trial_rows(runs: list[Path]) -> list[str]:
    """One row a tuning trial (a lab tune trial folder, or any run): the columns of the
    tuning tables (draws, first player, every faction, the rites, the worst faction's
    distance from ½ in points, rounds, board wins)."""
    lines = ["| trial | games | draws [95%] | first player [95%] | "
             + " | ".join(SHORT.values())
             + " | rites D/E/H | worst faction off ½ | rounds | board wins |",
             "|---|---|---|---|" + "---|" * len(SHORT) + "---|---|---|---|"]
    for run in runs:
        g = Store(run).table() if (run / "lab.json").exists() else None
        if g is None or g.is_empty():
            lines.append(f"| {run} | 0 |" + " – |" * (len(SHORT) + 7))
            continue
        f = figures(g)
        scores = {r["faction"]: r["score"] for r in f["factions"].iter_rows(named=True)}
        rites = {r["rite"]: r["score"] for r in f["rites"].iter_rows(named=True)}
        worst = max(abs(v - 0.5) for v in scores.values())
        d, fp = f["draw"], f["fpa"]
        lines.append(
            f"| {run} | {len(g)} | {d['value']:.1%} [{d['low']:.1%}, {d['high']:.1%}] | "
            f"{fp['score']:.1%} [{fp['low']:.0%}, {fp['high']:.0%}] | "
            + " | ".join(f"{scores[k]:.0%}" if k in scores else "–" for k in SHORT)
            + " | " + "/".join(f"{rites[k]:.0%}" if k in rites else "–"
                               for k in ("Desecration", "Exhumation", "Harrow"))
            + f" | {worst * 100:.1f} | {f['length']['mean']:.1f} | {f['board']['value']:.1%} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--table", action="store_true",
                        help="only the side-by-side table, one row a run")
    parser.add_argument("--trials", action="store_true",
                        help="one row a tuning trial (a lab tune trial folder, or any run)")
    args = parser.parse_args()
    if args.trials:
        print("\n".join(trial_rows(args.runs)))
        return
    if args.table:
        print("\n".join(table(args.runs)))
        return
    for run in args.runs:
        if not (run / "lab.json").exists():
            print(f"### {run.name}\n\n(missing)\n")
            continue
        print("\n".join(report(run)))


if __name__ == "__main__":
    main()
