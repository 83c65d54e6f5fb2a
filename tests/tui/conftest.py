"""Helpers for driving the terminal app with Textual's pilot."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("textual")

from textual.app import App
from textual.pilot import Pilot

from reliquary.tui import GameScreen


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def screen_text(app: App[None]) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    # The compositor's strips are what the driver would write; no public call gives text.
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def words(text: str) -> str:
    """Text with every run of whitespace as one space (wrapped lines compare as one)."""
    return " ".join(text.split())


async def settle(pilot: Pilot[None], screen: GameScreen, limit: float = 30.0) -> None:
    """Wait until the human is to decide (or the game is over): the AI's worker done."""
    deadline = time.monotonic() + limit
    while True:
        await pilot.pause()
        s = screen.session
        if not screen.thinking and (s.state.is_terminal or s.human_to_move()):
            return
        if time.monotonic() > deadline:
            raise AssertionError("the AI did not answer in time")
        await asyncio.sleep(0.005)
