"""``reliquary serve``: the web game on an embedded SQLite database (or PostgreSQL)."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="SQLAlchemy database URL [default: $RELIQUARY_DB or "
                   "sqlite:///reliquary.sqlite3, a file in the current folder]; "
                   "e.g. postgresql+psycopg://user@host/db.")
@click.option("--ai-delay", default=None, type=float,
              help="Seconds the AI waits before showing each decision [default: 0.25].")
def serve(host: str, port: int, db_url: str | None, ai_delay: float | None) -> None:
    """Play Reliquary in the browser: against the AI, on one screen, or online by link."""
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as err:  # the 'web' extra is not installed
        raise click.ClickException(
            f"the web server needs the 'web' extra: pip install 'reliquary[web]' ({err})"
        ) from None
    app = create_app(db_url, ai_delay=ai_delay)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Reliquary is served: open http://{shown}:{port}/ in your browser "
               "(Ctrl+C stops it; every game is kept in the database)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


COMMANDS: list[click.Command] = [serve]
