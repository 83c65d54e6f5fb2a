"""Reliquary in the browser: an ASGI server, its game store and the static front end."""

from .app import create_app

__all__ = ["create_app"]
