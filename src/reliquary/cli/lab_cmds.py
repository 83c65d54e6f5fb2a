"""The design lab: ``reliquary lab run | report | compare | tune | metrics`` (docs/lab.md).

The lab's libraries (pyarrow, polars, duckdb, matplotlib, optuna, ray) are the optional
extra ``lab``; they are imported inside the commands, so ``reliquary --help`` works
without them and a missing one is reported with the line that installs it.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import signal
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

INSTALL = "pip install 'reliquary[lab]'"
#: `lab compare`'s metrics: per game (compared in pairs), then per repetition. Kept
#: here because the lab's modules need the optional extra; a test checks them against
#: `lab.compare.PER_GAME` and `PER_REP`.
PAIRED_METRICS = ("cap_rate", "draw_rate", "first_player", "mean_length", "decisiveness")
COMPARE_METRICS = (*PAIRED_METRICS, "faction_spread", "comeback_rate")


def _need_lab() -> None:
    try:
        import matplotlib  # noqa: F401
        import polars  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError as err:
        raise click.ClickException(f"the lab needs {err.name}: {INSTALL}") from None


def _load(spec_path: Path, overrides: dict[str, Any] | None = None) -> Any:
    from ..lab.spec import SpecError, load_spec

    try:
        return load_spec(spec_path, overrides)
    except SpecError as err:
        raise click.ClickException(str(err)) from None


def _exit_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit, so that a killed run still stores its finished games
    and stops its worker processes (as Ctrl-C does) instead of orphaning them."""
    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def _progress(console: Console, label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
                    TextColumn("ETA"), TimeRemainingColumn(), console=console)


@click.group()
def lab() -> None:
    """The design lab: tournaments from a TOML spec, stored in Parquet, with reports,
    sequential comparisons and variant tuning (see docs/lab.md)."""


@lab.command("run")
@click.argument("spec_path", metavar="SPEC.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run folder (default: lab-runs/<spec name>). Re-running resumes it.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes (default: every core).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS|auto|local",
              help="Play the games as Ray tasks: on a cluster (its address, or auto for the "
                   "running one) or on a Ray instance started here (local).")
@click.option("--batch", type=click.IntRange(min=1), default=None,
              help="Games per stored Parquet file (default: twice the workers, at least 8).")
@click.option("--games-per-cell", "games_per_cell", type=click.IntRange(min=1), default=None,
              help="Play this many games per cell instead of the spec's (a quick first "
                   "pass; the same games, so running the spec later only adds the rest).")
@click.option("--json", "as_json", is_flag=True, help="Print the run summary as JSON.")
def run_cmd(spec_path: Path, out: Path | None, workers: int | None, ray_address: str | None,
            batch: int | None, games_per_cell: int | None, as_json: bool) -> None:
    """Play the tournament SPEC.toml and store every game (resumable).

    A game whose worker dies (kill -9, out of memory) or that raises is played once
    more, then listed in RUN/failed.json and the run goes on; Ctrl-C stores the finished
    games and stops in one line."""
    _need_lab()
    from ..lab.metrics import headline
    from ..lab.runner import run_spec
    from ..lab.store import Store, StoreError

    spec = _load(spec_path)
    if games_per_cell is not None:
        spec.override_games_per_cell(games_per_cell)
    out = out or Path("lab-runs") / spec.name
    command = _command_line("run", spec_path, out=out, games_per_cell=games_per_cell,
                            workers=workers, ray=ray_address, batch=batch)
    _exit_on_sigterm()
    console = Console(stderr=True)
    console.print(f"[bold]{spec.describe()}[/] → {out}")
    failures: list[str] = []
    with _stopped_in_one_line(_stored_games(out, spec.games)), \
            _progress(console, spec.name) as bar:
        task = bar.add_task("games", total=spec.games, note="")
        counts = {"first": 0.0, "games": 0, "capped": 0}

        def on_start(to_play: int, stored: int) -> None:
            bar.update(task, total=to_play + stored, completed=stored)

        def on_row(row: dict[str, Any]) -> None:
            counts["games"] += 1
            counts["capped"] += row["reason"] == "round_cap"
            bar.update(task, advance=1,
                       note=f"capped {counts['capped']}/{counts['games']}")

        def on_failure(failure: Any) -> None:
            failures.append(f"game {failure.job.game_index} failed after "
                            f"{failure.attempts} tries: {failure.error}")
            console.print(f"[yellow]{failures[-1]}[/]")

        try:
            summary = run_spec(spec, out, workers=workers, ray_address=ray_address,
                               batch=batch, on_start=on_start, on_row=on_row,
                               on_failure=on_failure, command=command)
        except StoreError as err:
            raise click.ClickException(str(err)) from None
    table = Store(out).table()
    summary["headline"] = headline(table) if len(table) else {}
    if as_json:
        click.echo(json.dumps(summary, indent=2, default=str))
        return
    failed = len(summary["failed"])
    click.echo(f"{summary['played']} games played, {summary['skipped']} already stored, "
               f"{summary['stored']}/{summary['planned']} in {out} "
               f"({summary['games_per_hour']:.0f} games/hour)"
               + (f"; {failed} failed (listed in {out / 'failed.json'}; re-running the "
                  "command tries them again)" if failed else ""))
    for key, value in summary["headline"].items():
        click.echo(f"  {key}: {value}")


def _command_line(name: str, *args: Path, **options: Any) -> str:
    """The command as it would be typed again, every option given included (click has
    parsed the words; this spells the parsed values back)."""
    words = ["reliquary", "lab", name, *map(str, args)]
    for option, value in options.items():
        if value is None or value is False:
            continue
        words.append("--" + option.replace("_", "-"))
        if value is not True:
            words.append(str(value))
    return shlex.join(words)


@contextlib.contextmanager
def _stopped_in_one_line(what: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C (or SIGTERM): the runner has stored the finished games and stopped the
    workers; say so in one line (``what()``: what is stored where) and exit 130 (143
    for SIGTERM), without a traceback."""
    try:
        yield
    except (KeyboardInterrupt, SystemExit) as stop:
        code = 130 if isinstance(stop, KeyboardInterrupt) else stop.code
        if isinstance(stop, SystemExit) and code != 128 + signal.SIGTERM:
            raise
        click.echo(f"stopped: {what()}; run the same command again to resume", err=True)
        raise SystemExit(code) from None


def _stored_games(out: Path, planned: int) -> Callable[[], str]:
    def what() -> str:
        from ..lab.store import Store

        stored = len(Store(out).done_ids()) if (out / "games").exists() else 0
        return f"{stored} of {planned} games stored in {out}"

    return what


def _run_label(run_dir: Path, games: int) -> str:
    from ..lab.store import Store

    meta = Store(run_dir).meta()
    return f"{meta['name']}: {meta.get('rules', ', '.join(meta['agents']))} — {games} games"


@lab.command("report")
@click.argument("run_dirs", metavar="RUN [RUN_B]", nargs=-1, required=True,
                type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for report.html, report.md and plots/ (default: RUN/report, or "
                   "RUN/report-vs-<RUN_B name> for two runs).")
def report_cmd(run_dirs: tuple[Path, ...], out: Path | None) -> None:
    """Write RUN's self-contained HTML report and Markdown summary; with two runs, one
    report showing them side by side (A left, B right)."""
    _need_lab()
    from ..lab.report import RunInfo, render, render_pair
    from ..lab.store import Store, StoreError

    if len(run_dirs) > 2:
        raise click.UsageError("give one run, or two to draw side by side")
    tables, labels, infos = [], [], []
    try:
        for run_dir in run_dirs:
            table = Store(run_dir).table()
            if table.is_empty():
                raise click.ClickException(f"{run_dir}: no games stored yet")
            tables.append(table)
            labels.append(_run_label(run_dir, len(table)))
            infos.append(RunInfo.of(run_dir))
    except StoreError as err:
        raise click.ClickException(str(err)) from None
    if len(run_dirs) == 1:
        html_path, md_path = render(tables[0], labels[0], out or run_dirs[0] / "report",
                                    info=infos[0])
    else:
        out = out or run_dirs[0] / f"report-vs-{run_dirs[1].resolve().name}"
        html_path, md_path = render_pair(tables[0], tables[1], (labels[0], labels[1]), out,
                                         (infos[0], infos[1]))
    click.echo(f"{html_path}\n{md_path}")


@lab.command("objectives")
@click.argument("run_dirs", metavar="RUN...", nargs=-1, required=True,
                type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write the table to this CSV file.")
def objectives_cmd(run_dirs: tuple[Path, ...], csv_out: Path | None) -> None:
    """M-GLORY's objective balance over RUN's games (several runs together): how often
    each objective is scored when held, with a 95% interval, the holder's score when it
    scored it and when not, and the correlation of scoring with winning. A card scored
    in under 5% or over 80% of the games that held it is flagged (MODULES.md §10.3).

    \b
    Example:
      reliquary lab run benchmarks/lab/mod-glory-8-greedy.toml
      reliquary lab objectives lab-runs/mod-glory-8-greedy
    """
    _need_lab()
    import polars as pl

    from ..lab.glory_balance import glory_summary, objective_balance
    from ..lab.store import Store, StoreError

    try:
        games = pl.concat([Store(d).table() for d in run_dirs], how="diagonal_relaxed")
    except StoreError as err:
        raise click.ClickException(str(err)) from None
    table = objective_balance(games)
    if table.is_empty():
        raise click.ClickException("no game of these runs played with the glory module")
    for row in glory_summary(games).iter_rows():
        click.echo(f"{row[0]:<32} {row[1]:.3f}")
    click.echo("")
    click.echo(f"{'objective':<14} {'timing':<9} {'glory':>5} {'held':>5} {'scored':>6} "
               f"{'rate':>6} {'95% interval':>14} {'win|scored':>10} {'win|not':>8} "
               f"{'corr':>6}  flag")
    for r in table.iter_rows(named=True):
        def pct(x: float) -> str:
            return "   -" if x != x else f"{100 * x:5.1f}%"
        click.echo(f"{r['objective']:<14} {r['timing']:<9} {r['glory']:>5} {r['held']:>5} "
                   f"{r['scored']:>6} {pct(r['score_rate']):>6} "
                   f"{pct(r['low']) + '–' + pct(r['high']).strip():>14} "
                   f"{pct(r['win_if_scored']):>10} {pct(r['win_if_not']):>8} "
                   f"{r['correlation']:>6.2f}  {r['flag']}")
    if csv_out is not None:
        table.write_csv(csv_out)
        click.echo(f"\n{csv_out}")


@lab.command("compare")
@click.argument("spec_a", metavar="A.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("spec_b", metavar="B.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--metric", "metric", required=True,
              type=click.Choice(COMPARE_METRICS),
              help="What to compare (definitions: reliquary lab metrics).")
@click.option("--test", "test", type=click.Choice(["interval", "sprt"]), default="interval",
              show_default=True, help="Always-valid interval (any metric) or paired SPRT "
                                      "(cap_rate, draw_rate).")
@click.option("--margin", type=click.FloatRange(min=0, min_open=True), default=None,
              help="A difference within ± this counts as none (default per metric).")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Error rate of the test.")
@click.option("--max-games", type=click.IntRange(min=2), default=2000, show_default=True,
              help="Stop undecided after this many games (A and B together).")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Store the runs in OUT/A and OUT/B (default: the folders lab run uses, "
                   "lab-runs/<A name> and lab-runs/<B name>, so their games are reused).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes (default: every core).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS|auto|local",
              help="Play the games as Ray tasks on this cluster.")
@click.option("--json", "as_json", is_flag=True, help="Print the decision as JSON.")
def compare_cmd(spec_a: Path, spec_b: Path, metric: str, test: str, margin: float | None,
                alpha: float, max_games: int, out: Path | None, workers: int | None,
                ray_address: str | None, as_json: bool) -> None:
    """Play A.toml and B.toml side by side until a sequential test decides whether B
    differs from A on METRIC; print the decision and the games it took."""
    _need_lab()
    from ..lab.compare import compare
    from ..lab.store import StoreError

    a, b = _load(spec_a), _load(spec_b)
    _exit_on_sigterm()
    if out is not None:
        run_a, run_b = out / "A", out / "B"
    elif a.name != b.name:
        run_a, run_b = Path("lab-runs") / a.name, Path("lab-runs") / b.name
    else:                           # two specs of one name cannot share lab run's folder
        out = Path("lab-runs") / f"compare-{a.name}-{b.name}"
        run_a, run_b = out / "A", out / "B"
    console = Console(stderr=True)
    stored = f"the games played so far are stored in {run_a} and {run_b}"
    with _stopped_in_one_line(lambda: stored), \
            _progress(console, f"{a.name} vs {b.name}: {metric}") as bar:
        task = bar.add_task("games", total=max_games, note="")

        def on_progress(used: int, note: str) -> None:
            bar.update(task, completed=used, note=note)

        try:
            result = compare(a, b, metric, run_a, run_b, max_games=max_games,
                             margin=margin, alpha=alpha, test=test, workers=workers,
                             ray_address=ray_address, on_progress=on_progress)
        except (ValueError, StoreError) as err:
            raise click.ClickException(str(err)) from None
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2))
        return
    low, high = result.interval
    click.echo(f"{metric}: A {result.value_a:.4g}, B {result.value_b:.4g}; B − A "
               f"{result.difference:+.4g}, always-valid {1 - alpha:.0%} interval "
               f"[{low:+.4g}, {high:+.4g}]")
    unit = "pairs" if metric in PAIRED_METRICS else "repetitions"
    click.echo(f"decision: {result.decision} after {result.games_used} games "
               f"({result.observations} {unit}): {result.used_stored} already stored, "
               f"{result.used_new} new; {result.games_played} games played now; "
               f"runs in {run_a} and {run_b}")
    if result.failed:
        click.echo(f"{result.failed} game(s) failed after two tries and were left out with "
                   "their pair")


def _parse_space(values: tuple[str, ...]) -> dict[str, list[Any]] | None:
    from ..lab.tune import SPACE

    if not values:
        return None
    space: dict[str, list[Any]] = {}
    for item in values:
        name, _, choices = item.partition("=")
        # a variant, a content number (patch.…), the modules switched on (modules=none,
        # keepers, glory+keepers) or a module's option (keepers.target=4,5)
        if (name not in SPACE and name != "modules" and "." not in name) or not choices:
            raise click.BadParameter(f"{item!r}: use NAME=V1,V2 with NAME one of "
                                     f"{', '.join(SPACE)}, a content number "
                                     "patch.SECTION.ID.FIELD (as a ruleset's patch names "
                                     "it: patch.factions.grave-tide.hero_hp), modules "
                                     "(modules=none,keepers,glory+keepers) or a module's "
                                     "option (keepers.target=4,5)",
                                     param_hint="--space")
        parsed: list[Any] = []
        for c in choices.split(","):
            c = c.strip()
            # "none" is a variant's None; a module option's "none" is one of its words
            # (conditions.dread=none), and -1 a number (keepers.target=-1)
            parsed.append(None if c in ("none", "None") and "." not in name
                          else int(c) if c.removeprefix("-").isdigit()
                          else {"true": True, "false": False}.get(c, c))
        space[name] = parsed
    return space


@lab.command("tune")
@click.argument("spec_path", metavar="SPEC.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--trials", type=click.IntRange(min=1), default=20, show_default=True,
              help="Optuna trials (each is a lab run of SPEC with the trial's variants).")
@click.option("--cap-max", type=float, default=0.02, show_default=True,
              help="Target: round-cap rate below this.")
@click.option("--fpa-tol", type=float, default=0.03, show_default=True,
              help="Target: first-player score within 0.5 ± this.")
@click.option("--faction-tol", type=float, default=0.05, show_default=True,
              help="Target: every faction's overall score within 0.5 ± this.")
@click.option("--draw-max", type=float, default=0.15, show_default=True,
              help="Target: draw rate below this.")
@click.option("--min-rounds", type=float, default=15.0, show_default=True,
              help="Target: mean game length at least this many rounds.")
@click.option("--rite-tol", type=float, default=0.05, show_default=True,
              help="Target: every rite's score within 0.5 ± this (where rites vary).")
@click.option("--space", "space", multiple=True, metavar="NAME=V1,V2",
              help="Choices of one variant, of a content number "
                   "(patch.factions.grave-tide.hero_hp=3,4,5), of the modules on "
                   "(modules=none,keepers,glory+keepers) or of a module's option "
                   "(keepers.target=4,5); repeatable; default: the four variants, "
                   "every value.")
@click.option("--confirm", "confirm_games", type=click.IntRange(min=0), default=None,
              help="Games per cell of the held-out confirmation of the best candidate, "
                   "on fresh seeds (default: the spec's; 0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="Sampler seed.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True,
              help="Candidates to show.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Study folder (default: lab-runs/tune-<spec name>); re-running resumes.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes (default: every core).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS|auto|local",
              help="Play the games as Ray tasks on this cluster.")
def tune_cmd(spec_path: Path, trials: int, cap_max: float, fpa_tol: float, faction_tol: float,
             draw_max: float, min_rounds: float, rite_tol: float, space: tuple[str, ...],
             confirm_games: int | None, seed: int, top: int,
             out: Path | None, workers: int | None, ray_address: str | None) -> None:
    """Search the rule variants and content numbers for a ruleset meeting the targets;
    print the best candidates with their measured figures, then play the best on fresh
    seeds (held out from the tuning) and print its figures there (also in OUT/tune.md
    and OUT/tune.json)."""
    _need_lab()
    from ..lab.tune import Targets, confirm, confirmed_markdown, markdown, tune

    base = _load(spec_path)
    _exit_on_sigterm()
    out = out or Path("lab-runs") / f"tune-{base.name}"
    targets = Targets(cap_max=cap_max, fpa_tol=fpa_tol, faction_tol=faction_tol,
                      draw_max=draw_max, min_rounds=min_rounds, rite_tol=rite_tol)
    console = Console(stderr=True)
    stored = f"the trials' games played so far are stored under {out}"
    with _stopped_in_one_line(lambda: stored), _progress(console, f"tune {base.name}") as bar:
        task = bar.add_task("trials", total=trials, note="")

        def on_trial(number: int, settings: dict[str, Any], m: dict[str, Any]) -> None:
            bar.update(task, advance=1, note=f"#{number} objective {m['objective']:.2f}")

        rows = tune(base.text, spec_path, out, trials=trials, targets=targets,
                    space=_parse_space(space), seed=seed, workers=workers,
                    ray_address=ray_address, on_trial=on_trial)
    text = markdown(rows, targets, top=top)
    held_out = None
    if rows and confirm_games != 0:
        console.print(f"confirming the best candidate on fresh seeds: {rows[0]['settings']}")
        held_out = confirm(base.text, spec_path, out, rows[0]["settings"], targets,
                           games_per_cell=confirm_games, workers=workers,
                           ray_address=ray_address)
        text += "\n" + confirmed_markdown(held_out, rows[0])
    (out / "tune.md").write_text(text, encoding="utf-8")
    (out / "tune.json").write_text(json.dumps({"trials": rows, "confirmed": held_out},
                                              indent=2, default=str), encoding="utf-8")
    click.echo(text)


@lab.command("values")
@click.argument("runs", metavar="RUN...", nargs=-1, required=True,
                type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--ruleset", default="classic", show_default=True,
              help="The ruleset whose values these runs measure (a section of the table).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The table to write (default: the package's data/draft_values.toml).")
def values_cmd(runs: tuple[Path, ...], ruleset: str, out: Path | None) -> None:
    """Measure the factions' and rites' values the agents draft by, from lab runs that
    balance the setups, and write them as the ruleset's section of the values table.

    \b
    Example:
      reliquary lab values lab-runs/classic-8-greedy-balanced --ruleset classic
    """
    _need_lab()
    import polars as pl

    from ..ai.drafting import VALUES_FILE
    from ..lab.store import Store
    from ..lab.values import measure, write
    from ..rulesets import RulesetError, load_ruleset

    try:
        load_ruleset(ruleset)
    except RulesetError as err:
        raise click.BadParameter(str(err), param_hint="--ruleset") from None
    tables = [Store(run).table() for run in runs]
    table = pl.concat([t for t in tables if not t.is_empty()], how="diagonal_relaxed") \
        if any(not t.is_empty() for t in tables) else None
    if table is None:
        raise click.ClickException("the runs hold no games")
    try:
        measured = measure(table, "lab runs " + ", ".join(str(r) for r in runs))
    except ValueError as err:
        raise click.ClickException(str(err)) from None
    path = out or Path(str(resources.files("reliquary.data").joinpath(VALUES_FILE)))
    write(path, ruleset, measured)
    click.echo(f"wrote the {ruleset} values to {path} ({measured.source})")
    for part, values in (("factions", measured.factions), ("rites", measured.rites)):
        click.echo(f"  {part}: " + ", ".join(f"{k} {v:+.2f}" for k, v in
                                             sorted(values.items(), key=lambda kv: -kv[1])))


@lab.command("metrics")
def metrics_cmd() -> None:
    """List every metric with its definition."""
    _need_lab()
    from ..lab.metrics import DEFINITIONS

    for name, text in DEFINITIONS.items():
        click.echo(f"{name}\n    {text}\n")


COMMANDS: list[click.Command] = [lab]
