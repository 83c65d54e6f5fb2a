"""``reliquary serve``: the web game on an embedded SQLite database (or PostgreSQL)."""

from __future__ import annotations

import os

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
@click.option("--ai-workers", default=None, type=click.IntRange(min=1),
              help="AI games thinking at once, each in its own process; more wait in a "
                   "queue [default: $RELIQUARY_AI_WORKERS or the CPUs less one].")
@click.option("--trusted-proxies", default=None, metavar="ADDRESSES",
              help="Reverse proxies whose X-Forwarded-For names the client (comma-"
                   "separated addresses or networks, e.g. 127.0.0.1) [default: "
                   "$RELIQUARY_TRUSTED_PROXIES, or none: the header is ignored].")
def serve(host: str, port: int, db_url: str | None, ai_delay: float | None,
          ai_workers: int | None, trusted_proxies: str | None) -> None:
    """Play Reliquary in the browser: against the AI, on one screen, or online by link."""
    try:
        import uvicorn

        from ..web import create_app
        from ..web.serving import Server, uvicorn_options
    except ImportError as err:  # the 'web' extra is not installed
        raise click.ClickException(
            f"the web server needs the 'web' extra: pip install 'reliquary[web]' ({err})"
        ) from None
    if ai_workers is not None:
        os.environ["RELIQUARY_AI_WORKERS"] = str(ai_workers)
    os.environ.setdefault("RELIQUARY_AI_PREFORK", "1")  # AI workers ready at the start
    try:
        app = create_app(db_url, ai_delay=ai_delay)
        options = uvicorn_options(trusted_proxies)
    except ValueError as err:  # a bad RELIQUARY_* setting
        raise click.ClickException(str(err)) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Reliquary is served: open http://{shown}:{port}/ in your browser "
               "(Ctrl+C stops it; every game is kept in the database)")
    # A stop signal closes the WebSockets and kills running AI searches at once
    # (Server.on_stop); the bound on uvicorn's graceful wait keeps a slow request from
    # holding it up (reliquary.web.serving).
    config = uvicorn.Config(app, host=host, port=port, **options)
    Server(config, on_stop=app.state.capacity.begin_stop).run()


COMMANDS: list[click.Command] = [serve]
