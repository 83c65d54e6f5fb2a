"""``reliquary play``: a game in the terminal against an AI (or two humans).

By default a Textual app (:mod:`reliquary.tui`, the ``tui`` extra); ``--plain`` (and any
run whose input or output is not a terminal) keeps the numbered text loop, for scripts
and screen readers.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import click

from ..ai import LEVELS, get_agent, sample_chance
from ..ai.drafting import drafted
from ..engine import (
    PLAYER_NAMES,
    SIDES,
    Content,
    Game,
    IllegalOptionError,
    NotationError,
    Settings,
    format_option,
)
from ..rulesets import META_KEY
from ..text import render_state
from .engine_cmds import get_content, ruleset_meta
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
@click.option("--plain", is_flag=True,
              help="The plain text loop instead of the terminal app (also used when input "
                   "or output is not a terminal).")
@click.option("--quick", is_flag=True,
              help="Start on the board with a random legal setup (the web's one-click game) "
                   "instead of the new-game screen.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the game record to FILE at the end, and when quitting "
                                 "mid-game.")
@click.option("--open", "open_path", type=click.Path(dir_okay=False, exists=True,
                                                     path_type=Path),
              default=None, help="Continue the game of a record or position file (app only).")
@click.option("--lang", type=click.Choice(["en", "es"]), default=None,
              help="Language of the app: English or Spanish (default: from the locale).")
@settings_options
@content_option
def play(ai_name: str, seat: str, seed: int | None, plain: bool, quick: bool,
         record_path: Path | None, open_path: Path | None, lang: str | None,
         content_dir: Path | None, **rules: Any) -> None:
    """Play a whole game in the terminal, setup included, against an AI or hot-seat.

    The app shows the board, both hands, the options and the log; press ? in it for
    the keys. With --plain each decision lists its legal options as tokens (see
    docs/formats.md); type one.
    """
    content = get_content(content_dir)
    settings = settings_from_options(rules)
    human_seats = {0, 1} if ai_name == "human" else {SIDES.index(seat)}
    try:
        agent = None if ai_name == "human" else drafted(get_agent(ai_name, seed=seed), seed)
    except ValueError as err:
        raise click.ClickException(f"{err} (levels: {', '.join(LEVELS)})") from None
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        _run_app(content, ai_name, SIDES.index(seat), seed, settings, quick=quick,
                 record_path=record_path, open_path=open_path, lang=lang)
        return
    rng = random.Random(seed)
    game = Game(content, settings, meta={"players": [
        "human" if p in human_seats else ai_name for p in (0, 1)], **ruleset_meta()})
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
            _write_record(game, record_path)
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
    _write_record(game, record_path)


def _write_record(game: Game, path: Path | None) -> None:
    if path is not None:
        path.write_text(json.dumps(game.record(), indent=1) + "\n", encoding="utf-8")
        click.echo(f"record written to {path}")


def _run_app(content: Content, ai_name: str, seat: int, seed: int | None, settings: Settings,
             *, quick: bool, record_path: Path | None, open_path: Path | None,
             lang: str | None) -> None:
    """The Textual app (imported here: it needs the ``tui`` extra)."""
    try:
        from ..tui import GameSession, ReliquaryApp, Setup
        from ..tui.i18n import default_lang
    except ImportError as err:
        raise click.ClickException(
            f"the terminal app needs the 'tui' extra ({err}): pip install 'reliquary[tui]', "
            "or play with --plain") from None
    setup = Setup(opponent=ai_name, seat=seat, quick=quick, settings=settings, seed=seed,
                  ruleset=ruleset_meta()[META_KEY])
    session = None
    if open_path is not None:
        try:
            session = GameSession.load(open_path, content, setup)
        except ValueError as err:
            raise click.ClickException(str(err)) from None
    app = ReliquaryApp(content, setup, lang=lang or default_lang(), quick=quick,
                       record_path=record_path, session=session)
    app.run()
    screen = app.game_screen
    if screen is not None and screen.record_written and record_path is not None:
        click.echo(f"record written to {record_path}")


def replay_app(name: str, record: Any, content: Content, lang: str | None) -> None:
    """``reliquary replay --tui``: the record checked, then stepped through in the app."""
    try:
        from ..tui import ReplayApp, ReplaySession
        from ..tui.i18n import default_lang
    except ImportError as err:
        raise click.ClickException(
            f"the terminal app needs the 'tui' extra ({err}): pip install 'reliquary[tui]'"
        ) from None
    try:
        session = ReplaySession(record, content)
    except NotationError as err:
        raise click.ClickException(f"{name}: {err}") from None
    ReplayApp(session, lang or default_lang()).run()


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
