"""The ``reliquary`` command: one click group, each face adds its own commands."""

from __future__ import annotations

import click

from .. import __version__, engine_build
from . import ai_cmds, engine_cmds, lab_cmds, play_cmd, print_cmd, web_cmds


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="reliquary",
                      message=f"%(prog)s %(version)s\nengine: {engine_build().label}")
def cli() -> None:
    """Reliquary: a two-player tactics board game — engine, AI, lab and web game."""


for _command in [*engine_cmds.COMMANDS, *play_cmd.COMMANDS, *web_cmds.COMMANDS,
                 *ai_cmds.COMMANDS, *lab_cmds.COMMANDS, *print_cmd.COMMANDS]:
    cli.add_command(_command)


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
