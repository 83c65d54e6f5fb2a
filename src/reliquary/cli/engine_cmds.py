"""Engine commands: ``selfplay``, ``show``, ``replay`` and ``rules``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .._engine_build import engine_build
from ..content import load_content
from ..engine import (
    PLAYER_NAMES,
    SETTINGS_HELP,
    Content,
    ContentError,
    NotationError,
    Settings,
    State,
    position_from_dict,
    replay,
)
from ..engine.modules import SPECIFIED, registered
from ..rulesets import (
    DEFAULT_RULESET,
    META_KEY,
    RulesetError,
    check_record,
    differences,
    load_ruleset,
    ruleset_names,
    ruleset_of_record,
)
from ..selfplay import record_random_game, run_selfplay
from ..text import render_diagram, render_state
from .module_rules import rule_titles, rules_section
from .options import chosen_ruleset, content_option, settings_from_options, settings_options


def get_content(content_dir: Path | None) -> Content:
    """The command's content: ``--content`` (or the package's), patched by ``--ruleset``."""
    ruleset = chosen_ruleset()
    try:
        if ruleset is not None:
            return ruleset.content(content_dir)  # type: ignore[no-any-return]
        return load_content(content_dir)
    except ContentError as err:
        raise click.ClickException(f"bad content: {err}") from None


def ruleset_meta() -> dict[str, str]:
    """What a record made by this command says of its ruleset (``classic`` by default)."""
    ruleset = chosen_ruleset()
    return {META_KEY: ruleset.name if ruleset is not None else DEFAULT_RULESET}


def read_json(path: str) -> Any:
    """Read a JSON file (``-`` for standard input) with a clear error."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise click.ClickException(f"cannot read {path}: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise click.ClickException(
            f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})"
        ) from None


def load_state(path: str, content: Content) -> State:
    """A position file, or the final position of a game record."""
    data = read_json(path)
    kind = data.get("format") if isinstance(data, dict) else None
    try:
        if kind == "reliquary-record":
            return replay(data, content).state
        if kind == "reliquary-position":
            return position_from_dict(data, content)
    except NotationError as err:
        raise click.ClickException(f"{path}: {err}") from None
    raise click.ClickException(
        f"{path}: neither a position ('reliquary-position') nor a game record "
        f"('reliquary-record'); its 'format' is {kind!r}")


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed: game i uses seed+i for every choice and chance outcome.")
@settings_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object of results.")
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write each game's record to this folder (slower).")
@content_option
def selfplay(games: int, seed: int, as_json: bool, records: Path | None,
             content_dir: Path | None, **rules: Any) -> None:
    """Play complete games between uniformly random legal players, setup included.

    Prints results, mean game length and throughput (turns and decisions per second).

    \b
    Example:
      reliquary selfplay --games 500 --seed 7 --size 10 --los straight --json
      reliquary selfplay --games 500 --vigil-start 4 --killed-minions removed
    """
    content = get_content(content_dir)
    settings = settings_from_options(rules)
    console = Console(stderr=True)
    show_bar = console.is_terminal and not as_json
    with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, disable=not show_bar) as bar:
        task = bar.add_task("games", total=games)
        stats = run_selfplay(games, seed, settings, content,
                             progress=lambda done: bar.update(task, completed=done))
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for i in range(games):
            game = record_random_game(settings, content, seed + i)
            game.meta.update(ruleset_meta())
            (records / f"game-{seed + i}.json").write_text(json.dumps(game.record(), indent=1))
    data = stats.as_dict()
    data["settings"] = {**settings.as_dict(), "seed": seed}
    data["engine"] = engine_build().label  # compiled (mypyc) or pure Python
    if as_json:
        click.echo(json.dumps(data))
        return
    r = data["results"]
    shown = ", ".join(f"{k}={v}" for k, v in settings.as_dict().items()
                      if k not in ("size", "round_cap"))
    click.echo(f"{data['games']} games on side {settings.size} ({shown}), seed {seed}")
    click.echo(f"results: first player {r['first']}, second player {r['second']}, "
               f"draws {r['draw']}")
    click.echo("end reasons: " + ", ".join(f"{k} {v}" for k, v in data["end_reasons"].items()))
    click.echo(f"mean length: {data['mean_turns']} turns")
    click.echo(f"throughput: {data['turns_per_second']:,.0f} turns/s, "
               f"{data['decisions_per_second']:,.0f} decisions/s "
               f"({data['seconds']:.2f} s; engine: {data['engine']})")
    if stats.errors:
        click.echo(f"ERRORS: {len(stats.errors)} games failed; first: {stats.errors[0]['error']} "
                   f"(seed {stats.errors[0]['seed']})", err=True)
        raise SystemExit(1)


@click.command()
@click.argument("file", type=str)
@content_option
def show(file: str, content_dir: Path | None) -> None:
    """Draw a position, or the final position of a game record, as text.

    FILE is a position or record JSON file, or - for standard input.
    """
    state = load_state(file, get_content(content_dir))
    click.echo(render_state(state))


@click.command(name="replay")
@click.argument("record", type=str)
@click.option("--board/--no-board", default=False, help="Draw the board after every turn.")
@click.option("--tui", is_flag=True, help="Step through the game in the terminal app "
                                         "(arrows: decision, up/down: turn, Home/End).")
@click.option("--lang", type=click.Choice(["en", "es"]), default=None,
              help="Language of --tui (default: from the locale).")
@content_option
def replay_cmd(record: str, board: bool, tui: bool, lang: str | None,
               content_dir: Path | None) -> None:
    """Check a game record and print it move by move (or step through it with --tui).

    Every token is checked against the rules; a record made with other content is
    refused. Exits with status 1 and names the faulty token if the record is wrong.
    """
    data = read_json(record)
    # The record's own ruleset unless --ruleset names one; another ruleset is refused.
    ruleset = chosen_ruleset()
    try:
        if ruleset is None:
            ruleset = load_ruleset(ruleset_of_record(data))
        check_record(data, ruleset)
        content = ruleset.content(content_dir)
    except (ValueError, ContentError) as err:
        raise click.ClickException(f"{record}: {err}") from None
    if tui:
        from .play_cmd import replay_app
        replay_app(record, data, content, lang)
        return
    try:
        game = replay(data, content)
    except NotationError as err:
        raise click.ClickException(f"{record}: {err}") from None
    s = game.settings
    click.echo(f"Reliquary record — ruleset {ruleset.name}, side {s.size}, los={s.los}, "
               f"first_turn={s.first_turn}, round cap {s.round_cap}")
    click.echo("setup:")
    for entry in game.setup():
        who = "chance" if entry.player < 0 else PLAYER_NAMES[entry.player]
        click.echo(f"  {entry.kind:<8} {who:<6} {entry.token}")
    tokens = [e.token for e in game.setup()]
    probe = None
    if board:
        probe = replay(data, content, upto=len(tokens))
    for number, turn in enumerate(game.turns(), start=1):
        who = PLAYER_NAMES[turn[0].player]
        click.echo(f"{number:>4}. {who:<6} " + " ".join(e.token for e in turn))
        if probe is not None:
            for entry in turn:
                probe.apply(entry.option)
            click.echo(render_state(probe.state))
    result = game.state.result
    if result is None:
        click.echo("(game not finished)")
    else:
        who = "draw" if result.winner is None else f"{PLAYER_NAMES[result.winner]} wins"
        click.echo(f"result: {who} — {result.reason}: {result.detail}")
    click.echo("record OK: every decision is legal and the result matches")


@click.command()
@click.option("--cards/--no-cards", default=True, help="Show the movement cards.")
@click.option("--module", "module_name", default=None, metavar="NAME",
              help="Print only this rule module's rules (MODULES.md), in full.")
@content_option
def rules(cards: bool, module_name: str | None, content_dir: Path | None) -> None:
    """List the content (cards, factions, rites, board table), the rule options and the
    rulesets; with --ruleset NAME, first what that ruleset changes from classic; with
    --module NAME, a rule module's rules in full.

    \b
    Example:
      reliquary rules --ruleset tournament --no-cards
      reliquary rules --module keepers
    """
    echo = click.echo
    if module_name is not None:
        _print_module_rules(module_name)
        return
    content = get_content(content_dir)
    ruleset = chosen_ruleset()
    if ruleset is not None:
        echo(f"Ruleset {ruleset.name}: {ruleset.description}")
        changes = differences(ruleset)
        echo("What differs from classic:" if changes else "Nothing differs from classic.")
        for line in changes:
            echo(f"  {line}")
        echo("")
    echo(f"content fingerprint {content.fingerprint}")
    echo("\nBoard table (C1):  side  minions  ruins  deployment rows")
    for row in content.board:
        low, high = row.sides
        sides = f"{low}" if low == high else f"{low}–{high}"
        echo(f"{'':19}{sides:<6}{row.minions:<9}{row.ruins:<7}{row.deploy_rows}")
    if cards:
        echo("\nMovement cards (C3; 'provisional' = D1/D2 data awaiting the designer):")
        for card in content.cards:
            marks = ", ".join(m for m in (
                f"seal {card.seal}", "Escort" if card.escort else "",
                "provisional" if card.provisional else "") if m)
            attack = "faction attack" if card.attack == "faction" else card.attack.text.en
            echo(f"\n{card.id} ({marks})\n  attack: {attack}")
            echo("  " + render_diagram(card).replace("\n", "\n  "))
    echo("\nFactions (§8):")
    for f in content.factions:
        echo(f"  {f.id:<16} {f.name:<16} Hero {f.hero_hp} HP. {f.text.en}")
    echo("\nRites (§9):")
    for r in content.rites:
        echo(f"  {r.id:<12} {r.text.en}")
    echo("\nRule options and variants (settings of a game, recorded in its record; "
         "RULES.md §11 variants are off by default):")
    defaults = Settings().as_dict()
    for name, text in SETTINGS_HELP.items():
        if name == "modules":
            continue
        default = "no limit" if defaults[name] is None else defaults[name]
        echo(f"  {name:<15} default {default!s:<10} {text}")
    echo("\nRule modules (MODULES.md; off by default: --module NAME, options as "
         "--module-option MODULE.OPTION=VALUE):")
    modules = registered()
    for module in modules.values():
        echo(f"  {module.name:<15} {module.title} ({module.rules}): {module.summary}")
        for option, spec in module.options.items():
            echo(f"    {module.name}.{option:<20} {spec.describe()}. {spec.help}")
        titles = rule_titles(module)
        if titles:
            echo(f"    rules (reliquary rules --module {module.name} prints them in full):")
            for rule_id, title in titles:
                echo(f"      {rule_id:<12} {title}")
    for name, where in SPECIFIED.items():
        if name not in modules:
            echo(f"  {name:<15} specified in {where}; not implemented in this version")
    echo("\nRulesets (--ruleset NAME; src/reliquary/data/rulesets/, or a .toml file):")
    for name in ruleset_names():
        try:
            echo(f"  {name:<15} {load_ruleset(name).description}")
        except RulesetError as err:
            echo(f"  {name:<15} (does not load: {err})")


def _print_module_rules(name: str) -> None:
    """A module's title, options and rules section, as MODULES.md writes them."""
    from ..engine.modules import get

    try:
        module = get(name)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--module") from None
    echo = click.echo
    echo(f"{module.title} ({module.name}; {module.rules}): {module.summary}")
    for option, spec in module.options.items():
        echo(f"  {module.name}.{option:<20} {spec.describe()}. {spec.help}")
    echo("")
    echo(rules_section(module) or "(MODULES.md has no rules section for this module)")


COMMANDS: list[click.Command] = [selfplay, show, replay_cmd, rules]
