"""Options shared by the commands: ``--content DIR`` and the rule settings of a game.

Every setting in :data:`reliquary.engine.SETTINGS_HELP` is one option here, so that
``selfplay``, ``match``, ``play`` (and any new command) accept the same rules and
variants, validated once by :class:`reliquary.engine.Settings`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..engine import SETTINGS_HELP, Settings
from ..engine.modules import parse_option_text

F = TypeVar("F", bound=Callable[..., Any])

#: The keyword each setting's option passes to a command (click's names); the modules
#: come as ``--module`` and ``--module-option`` (M-MOD-1, M-MOD-2).
SETTING_PARAMS = tuple(name for name in SETTINGS_HELP if name != "modules")


def _keep_ruleset(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    from ..rulesets import RulesetError, load_ruleset

    if value is None:
        return
    try:
        ctx.meta[RULESET_META] = load_ruleset(value)
    except RulesetError as err:
        raise click.BadParameter(str(err), ctx=ctx, param=param) from None


#: Where ``--ruleset`` leaves the chosen :class:`~reliquary.rulesets.Ruleset` (click's
#: context meta), for :func:`chosen_ruleset`, ``get_content`` and the settings.
RULESET_META = "reliquary.ruleset"


def ruleset_option(func: F) -> F:
    """``--ruleset NAME|FILE``: play under a named ruleset (its settings are the
    defaults of the setting options; its content patch applies to the content)."""
    return click.option(
        "--ruleset", metavar="NAME|FILE", default=None, expose_value=False,
        is_eager=True, callback=_keep_ruleset,
        help="Ruleset: settings plus a content patch (classic, tournament, or a "
             ".toml file; `reliquary rules --ruleset NAME` shows what it changes). "
             "Default: classic.")(func)


def chosen_ruleset() -> Any:
    """The ruleset of this command's ``--ruleset`` (None when not given)."""
    ctx = click.get_current_context(silent=True)
    return None if ctx is None else ctx.meta.get(RULESET_META)


def content_option(func: F) -> F:
    """``--content DIR``: play with the content files in DIR instead of the package's;
    and ``--ruleset``, whose content patch applies on top."""
    return ruleset_option(click.option(
        "--content", "content_dir", type=click.Path(file_okay=False, path_type=Path),
        default=None, help="Folder of content files (cards/factions/rites/board .toml) "
                           "to use instead of the packaged ones.")(func))


def settings_options(func: F) -> F:
    """The rule settings of a game (C1, D3, D4, D19) and its variants (VAR1–VAR4)."""
    options = [
        click.option("--size", type=click.IntRange(8, 12), default=8, show_default=True,
                     help=SETTINGS_HELP["size"]),
        click.option("--los", type=click.Choice(["geometric", "straight"]),
                     default="geometric", show_default=True, help=SETTINGS_HELP["los"]),
        click.option("--first-turn", type=click.Choice(["no_damage", "no_attack"]),
                     default="no_damage", show_default=True,
                     help=SETTINGS_HELP["first_turn"]),
        click.option("--round-cap", type=click.IntRange(min=1), default=200,
                     show_default=True, help=SETTINGS_HELP["round_cap"]),
        click.option("--regroup-limit", type=click.IntRange(min=0), default=None,
                     help=SETTINGS_HELP["regroup_limit"]),
        click.option("--vigil-reset", type=click.Choice(["any", "hero"]), default="any",
                     show_default=True, help=SETTINGS_HELP["vigil_reset"]),
        click.option("--vigil-start", type=click.IntRange(1, 6), default=6,
                     show_default=True, help=SETTINGS_HELP["vigil_start"]),
        click.option("--killed-minions", type=click.Choice(["pool", "removed"]),
                     default="pool", show_default=True, help=SETTINGS_HELP["killed_minions"]),
        click.option("--module", "modules", multiple=True, metavar="NAME",
                     help="Turn on a rule module (repeat for several; `reliquary rules` "
                          "lists them). M-MOD-1"),
        click.option("--module-option", "module_options", multiple=True,
                     metavar="MODULE.OPTION=VALUE",
                     help="Set a module's option, e.g. smoulder.damage=2 (a list as "
                          "a,b). M-MOD-2"),
    ]
    for option in reversed(options):  # click lists options in decorator order
        func = option(func)
    return func


def settings_from_options(params: dict[str, Any]) -> Settings:
    """Take the settings' values out of a command's parameters (removing them). Under
    ``--ruleset`` the ruleset's settings replace the options left at their defaults."""
    data: dict[str, Any] = {name: params.pop(name) for name in SETTING_PARAMS}
    ruleset = chosen_ruleset()
    ctx = click.get_current_context(silent=True)
    if ruleset is not None and ctx is not None:
        for name, value in ruleset.settings.items():
            source = ctx.get_parameter_source(name) if name in data else None
            if source in (None, click.core.ParameterSource.DEFAULT):
                data[name] = value
    modules = params.pop("modules", ())
    for text in params.pop("module_options", ()):
        try:
            key, value = parse_option_text(text)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--module-option") from None
        data[key] = value
    if modules:
        data["modules"] = list(modules)
    try:
        return Settings.from_dict(data)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None
