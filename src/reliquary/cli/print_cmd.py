"""``reliquary print``: the print-and-play set (cards, board, tokens, rulebook) as a PDF."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import click

from ..engine import ContentError
from .options import chosen_ruleset, ruleset_option, settings_from_options, settings_options


def _writable_file(path: Path) -> None:
    """Fail before any drawing if ``path`` cannot be written, saying why."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise click.UsageError(f"cannot write {path}: it is a folder; give a file name "
                               f"like {path / 'reliquary-print.pdf'}")
    if not folder.is_dir():
        raise click.UsageError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise click.UsageError(f"cannot write {path}: permission denied")


@click.command("print")
@click.option("--sheets", default="cards,factions,table,board,tokens,rules", show_default=True,
              help="Comma-separated parts to print, in this order: cards (sheets I and II), "
                   "factions (III), table (IV: help cards and rites), board, tokens, rules.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False),
              default="a4", show_default=True)
@click.option("--lang", type=click.Choice(["es", "en"], case_sensitive=False), default="es",
              show_default=True, help="Language of every printed text.")
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Folder of content files (cards/factions/rites/board/help_cards .toml, "
                   "rulebook/<lang>.md) to print instead of the packaged ones.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="PDF file to write [default: reliquary-print.pdf; with --png or --tts "
                   "only when given].")
@click.option("--bleed", "bleed_mm", type=float, default=0.0, show_default=True,
              help="Bleed in mm around every card (0 to 5); crop marks stay at the trim.")
@click.option("--square", "square_mm", type=float, default=27.0, show_default=True,
              help="Board square size in mm (25 to 30).")
@click.option("--booklet", is_flag=True,
              help="Lay the rulebook out as an A5 booklet (two pages to a landscape "
                   "sheet, saddle-stitch order: print double-sided, fold, staple).")
@click.option("--png", "png_dir", type=click.Path(path_type=Path), default=None,
              help="Also write one PNG per card (with bleed) into this folder.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="Resolution of the --png images.")
@click.option("--tts", "tts_dir", type=click.Path(path_type=Path), default=None,
              help="Also write Tabletop Simulator deck sheets (10 × 7 grid + back) here.")
@settings_options
@ruleset_option
def print_cmd(sheets: str, paper: str, lang: str, content_dir: Path | None,
              output: Path | None, bleed_mm: float, square_mm: float, booklet: bool,
              png_dir: Path | None, tts_dir: Path | None, dpi: int, **rules: Any) -> None:
    """Write the print-and-play set as one PDF, drawn from the content data.

    The rule settings (--size, --los, --first-turn, --vigil-start …, the same options
    as selfplay, match and play) set the board's side and what the help cards say.

    \b
    reliquary print                                  # everything, A4, Spanish, 8×8 board
    reliquary print --paper letter --lang en -o reliquary-en.pdf
    reliquary print --sheets cards --content my-cards/ -o test-deck.pdf
    reliquary print --sheets board --size 12
    reliquary print --bleed 3 --png cards-png/ --dpi 300
    reliquary print --tts tts/
    reliquary print --sheets table --los straight --vigil-start 4
    reliquary print --ruleset tournament -o tournament-cards.pdf   # its changed cards

    With --ruleset NAME and no --sheets, only what the ruleset changes is printed: the
    faction and movement cards its patch changes, and the help cards when its settings
    differ from classic (they name the settings' numbers).
    """
    ruleset = chosen_ruleset()
    only_changed = ruleset is not None and click.get_current_context().get_parameter_source(
        "sheets") == click.core.ParameterSource.DEFAULT
    if only_changed:
        sheets = _changed_sheets(ruleset)
        if not sheets:
            raise click.ClickException(f"the ruleset {ruleset.name!r} changes no card "
                                       "(nothing to print); give --sheets to print all")
    settings = settings_from_options(rules)
    size = settings.size
    try:
        from ..printing import (
            PrintError,
            PrintOptions,
            export_png,
            export_tts,
            make_context,
            render_pdf,
        )
    except ImportError as err:
        raise click.ClickException(
            f"printing needs the 'print' extra: pip install 'reliquary[print]' ({err})"
        ) from None
    if content_dir is not None and not content_dir.is_dir():
        raise click.UsageError(f"--content {content_dir}: not a folder")
    if output is None and png_dir is None and tts_dir is None:
        output = Path("reliquary-print.pdf")
    if output is not None:
        _writable_file(output)
    parts = tuple(s.strip().lower() for s in sheets.split(",") if s.strip())
    options = PrintOptions(sheets=parts, paper=paper.lower(), lang=lang.lower(), size=size,
                           bleed_mm=bleed_mm, square_mm=square_mm, booklet=booklet,
                           settings=settings)
    start = time.perf_counter()
    try:
        if ruleset is None:
            ctx = make_context(options, content_dir)
        else:
            from ..content import load_help_cards
            from ..printing.document import context_for

            content = ruleset.content(content_dir)
            if only_changed:
                content = _only_changed(content, ruleset)
            ctx = context_for(options, content, load_help_cards(content_dir), content_dir)
    except ContentError as err:
        raise click.ClickException(f"bad content: {err}") from None
    except PrintError as err:
        raise click.UsageError(str(err)) from None
    try:
        if output is not None:
            pdf = render_pdf(ctx)
            output.write_bytes(pdf)
            click.echo(f"wrote {output}: {ctx.page_count} pages ({', '.join(parts)}; "
                       f"{options.paper}, {options.lang}, board {size}×{size}) "
                       f"in {time.perf_counter() - start:.1f} s")
        if png_dir is not None:
            files = export_png(ctx, png_dir, dpi)
            click.echo(f"wrote {len(files)} PNG cards at {dpi} dpi into {png_dir}")
        if tts_dir is not None:
            files = export_tts(ctx, tts_dir)
            click.echo(f"wrote Tabletop Simulator decks into {tts_dir}: "
                       f"{', '.join(f.name for f in files)}")
    except OSError as err:
        raise click.ClickException(f"cannot write {err.filename}: {err.strerror}") from None
    for warning in dict.fromkeys(ctx.warnings):  # a card drawn twice (PDF, PNG) warns once
        click.echo(f"warning: {warning}", err=True)


def _changed_sheets(ruleset: Any) -> str:
    """The sheets a ruleset changes: factions, movement cards, the table's help and rite
    cards (settings, a patched rite)."""
    parts = [part for part, section in (("cards", "cards"), ("factions", "factions"))
             if ruleset.patch.get(section)]
    if ruleset.settings or ruleset.patch.get("rites"):
        parts.append("table")
    return ",".join(parts)


def _only_changed(content: Any, ruleset: Any) -> Any:
    """The content with only the factions and cards the ruleset's patch changes (for
    printing those cards alone; not for play)."""
    factions = set(ruleset.patch.get("factions", {}))
    cards = set(ruleset.patch.get("cards", {}))
    return content.model_copy(update={
        "factions": tuple(f for f in content.factions if f.id in factions) or content.factions,
        "cards": tuple(c for c in content.cards if c.id in cards) or content.cards})


COMMANDS = [print_cmd]
