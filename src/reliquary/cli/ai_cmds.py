"""AI commands: ``match`` (two agents over many games) and ``hint`` (best option now)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..ai import AGENTS, LEVELS
from ..ai.match import GameOutcome, MatchSpec, run_match
from .engine_cmds import get_content, load_state
from .options import (
    chosen_ruleset,
    content_option,
    ruleset_option,
    settings_from_options,
    settings_options,
)

AGENT_NAMES = [*AGENTS, *LEVELS]


def _agent_choice() -> click.Choice[str]:
    return click.Choice(AGENT_NAMES)


@click.command()
@click.argument("agent_a", type=_agent_choice())
@click.argument("agent_b", type=_agent_choice())
@click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Number of games; seats alternate (A is Key in even games).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Match seed: fixes every game's chance and the agents' seeds.")
@click.option("--time", "time_", type=click.FloatRange(min=0.001), default=None,
              help="Seconds per turn for both agents (default: each agent's own).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Nodes (MCTS iterations) per turn, instead of time: reproducible.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes to play in parallel (default: every core).")
@settings_options
@ruleset_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def match(agent_a: str, agent_b: str, games: int, seed: int, time_: float | None,
          nodes: int | None, workers: int | None, as_json: bool, **rules: Any) -> None:
    """Play GAMES games of AGENT_A against AGENT_B (names or levels) and report A's score.

    Prints wins, draws, A's score with its 95% interval and the Elo difference with its
    interval. Agents: """
    settings = settings_from_options(rules)
    spec = MatchSpec(agent_a, agent_b, games, seed=seed, time=time_, nodes=nodes,
                     size=settings.size, los=settings.los, first_turn=settings.first_turn,
                     round_cap=settings.round_cap, variants=settings.variants(),
                     ruleset=getattr(chosen_ruleset(), "file", "classic"))
    workers = workers or os.cpu_count() or 1
    console = Console(stderr=True)
    with Progress(TextColumn(f"{agent_a} vs {agent_b}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("A {task.fields[score]}"), TimeRemainingColumn(),
                  console=console, transient=as_json) as progress:
        task = progress.add_task("games", total=games, score="-")
        points = [0.0, 0]

        def on_game(outcome: GameOutcome) -> None:
            points[0] += 1.0 if outcome.winner == "a" else 0.5 if outcome.winner is None else 0
            points[1] += 1
            progress.update(task, advance=1, score=f"{points[0] / points[1]:.0%}")

        summary = run_match(spec, workers=workers, on_game=on_game)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    _print_summary(summary)


def _fmt_elo(x: float | None, sign: str) -> str:
    return f"{x:+.0f}" if x is not None else f"{sign}inf"


def _print_summary(s: dict[str, Any]) -> None:
    console = Console()
    table = Table(title=f"{s['agent_a']} (A) vs {s['agent_b']} (B), {s['games']} games")
    for col in ("wins A", "wins B", "draws", "score A", "95% CI", "Elo A−B", "Elo 95% CI"):
        table.add_column(col, justify="right")
    low, high = s["score_ci95"]
    elo_low, elo_high = s["elo_ci95"]
    table.add_row(str(s["wins_a"]), str(s["wins_b"]), str(s["draws"]),
                  f"{s['score_a']:.1%}", f"{low:.1%} – {high:.1%}",
                  _fmt_elo(s["elo_diff"], "+" if s["score_a"] >= 0.5 else "-"),
                  f"{_fmt_elo(elo_low, '-')} – {_fmt_elo(elo_high, '+')}")
    console.print(table)
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items()))
    console.print(f"endings: {reasons}; mean rounds {s['mean_rounds']}; "
                  f"longest turn A {s['max_turn_seconds_a']:.2f}s, "
                  f"B {s['max_turn_seconds_b']:.2f}s; {s['seconds']:.1f}s in all")


@click.command()
@click.argument("position", type=str)
@click.option("--agent", "agent", type=_agent_choice(), default="hard", show_default=True,
              help="Agent or level that looks for the move.")
@click.option("--time", "time_", type=click.FloatRange(min=0.001), default=None,
              help="Seconds to think (default: the agent's own).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Nodes to search instead of time (reproducible).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--top", type=click.IntRange(min=0), default=3, show_default=True,
              help="How many alternatives to show.")
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
@content_option
def hint(position: str, agent: str, time_: float | None, nodes: int | None, seed: int,
         top: int, as_json: bool, content_dir: Path | None) -> None:
    """Print the best option for the player to move in POSITION with its value, the
    principal variation and the best alternatives.

    POSITION is a position JSON file (``reliquary-position``) or a game record (its
    final position); ``-`` reads standard input. Values are for the player to move,
    from -1 (lost) to +1 (won); see docs/ai.md."""
    from ..ai.hint import analyse

    state = load_state(position, get_content(content_dir))
    try:
        result = analyse(state, agent, seed=seed, top=top, time=time_, nodes=nodes)
    except ValueError as err:
        raise click.ClickException(f"{position}: {err}") from None
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    player = result["player"].capitalize()
    points = "" if result["points"] is None else f", {result['points']:+.1f} points"
    click.echo(f"{player} to play ({result['decision']}): {result['best']}   "
               f"value {result['value']:+.2f}{points}")
    click.echo(f"line: {_line_text(result['pv'], result['pv_by'])}")
    if result["alternatives"]:
        click.echo("alternatives:")
        for alt in result["alternatives"]:
            extra = [] if alt.get("points") is None else [f"{alt['points']:+.1f} points"]
            if alt.get("depth") is not None:
                extra.append(f"depth {alt['depth']}")
            if alt.get("visits") is not None:
                extra.append(f"{alt['visits']} visits")
            click.echo(f"  {alt['option']:<18} {alt['value']:+.2f}"
                       + (f" ({', '.join(extra)})" if extra else ""))
    click.echo(f"static evaluation {result['evaluation']:+.1f}; {result['agent']}, depth "
               f"{result['depth']}, {result['nodes']} nodes, {result['seconds']:.2f}s")


def _line_text(tokens: list[str], deciders: list[str]) -> str:
    """The line with each player's run of decisions introduced by the player's name
    and a die roll in brackets: ``Key: Ordeal:attack d3 d5 [2] | Skull: ...``."""
    parts: list[str] = []
    last = None
    for token, who in zip(tokens, deciders, strict=True):
        if who == "chance":
            parts.append(f"[{token}]")
            continue
        if who != last:
            parts.append(("| " if last else "") + f"{who.capitalize()}:")
            last = who
        parts.append(token)
    return " ".join(parts)


match.help = (match.help or "") + ", ".join(AGENT_NAMES) + "."

COMMANDS: list[click.Command] = [match, hint]
