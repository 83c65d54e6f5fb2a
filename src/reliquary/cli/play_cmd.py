"""``reliquary play``: a text game in the terminal against an AI (or two humans)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click

from ..ai import LEVELS, get_agent, sample_chance
from ..engine import (
    PLAYER_NAMES,
    SIDES,
    Game,
    IllegalOptionError,
    NotationError,
    format_option,
)
from ..text import render_state
from .engine_cmds import get_content
from .options import content_option, settings_from_options, settings_options

HELP = """Type the token of an option (as listed), or:
  ?        this help          board   draw the board again
  undo     take back your last decision (not past a die roll or the AI's move)
  save F   write the game record to file F       quit   leave the game"""


@click.command()
@click.option("--ai", "ai_name", default="easy", show_default=True,
              help="Opponent: a level (easy, medium, hard, max) or an agent name; "
                   "'human' for two players at one terminal.")
@click.option("--seat", type=click.Choice(SIDES), default="key", show_default=True,
              help="Your emblem.")
@click.option("--seed", type=int, default=None, help="Seed for the AI and the chance draws.")
@settings_options
@content_option
def play(ai_name: str, seat: str, seed: int | None, content_dir: Path | None,
         **rules: Any) -> None:
    """Play a whole game in the terminal, setup included, against an AI.

    Each decision lists its legal options as tokens (see docs/formats.md); type one.
    """
    content = get_content(content_dir)
    settings = settings_from_options(rules)
    human_seats = {0, 1} if ai_name == "human" else {SIDES.index(seat)}
    try:
        agent = None if ai_name == "human" else get_agent(ai_name, seed=seed)
    except ValueError as err:
        raise click.ClickException(f"{err} (levels: {', '.join(LEVELS)})") from None
    rng = random.Random(seed)
    game = Game(content, settings, meta={"players": [
        "human" if p in human_seats else ai_name for p in (0, 1)]})
    click.echo(HELP)
    shown = -1
    while not game.state.is_terminal:
        state = game.state
        if state.is_chance:
            entry = game.apply(sample_chance(state, rng))
            click.echo(f"  chance: {entry.kind} {entry.token}")
            continue
        decision = state.decision()
        if decision.player not in human_seats:
            assert agent is not None
            entry = game.apply(agent.choose(state.clone()))
            # S3: the faction is chosen in secret; both are shown once revealed.
            token = "(chosen in secret)" if entry.kind == "faction" else entry.token
            click.echo(f"  {PLAYER_NAMES[entry.player]} ({ai_name}): {entry.kind} {token}")
            continue
        if shown != len(game.history):
            click.echo("\n" + render_state(state))
            shown = len(game.history)
        tokens = [format_option(state, o) for o in decision.options]
        click.echo(f"{PLAYER_NAMES[decision.player]}, {decision.kind}: {' '.join(tokens)}")
        text = click.prompt(">", default="", show_default=False).strip()
        if text in ("quit", "exit"):
            click.echo("game left unfinished")
            return
        if text in ("?", "help"):
            click.echo(HELP)
        elif text == "board":
            shown = -1
        elif text == "undo":
            _undo(game, human_seats)
            shown = -1
        elif text.startswith("save "):
            path = Path(text[5:].strip())
            path.write_text(json.dumps(game.record(), indent=1), encoding="utf-8")
            click.echo(f"record written to {path}")
        else:
            try:
                game.apply_token(text)
            except (NotationError, IllegalOptionError) as err:
                click.echo(f"not accepted: {err}")
    click.echo("\n" + render_state(game.state))


def _undo(game: Game, human_seats: set[int]) -> None:
    """Take back to the human's previous decision, never past a die roll or deal."""
    history = game.history
    n = len(history)
    while n and history[n - 1].player not in human_seats:
        if history[n - 1].player < 0:
            click.echo("cannot undo past a die roll")
            return
        n -= 1
    if n == 0:
        click.echo("nothing to undo")
        return
    game.undo(len(history) - (n - 1))
    click.echo("taken back")


COMMANDS: list[click.Command] = [play]
