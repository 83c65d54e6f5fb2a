"""The README's picture of the terminal app, made by Textual's own screenshot.

    python -m reliquary.tui.screenshot docs/images/tui-game.svg [--size 100x30] [--lang en]

A quick game against the random AI (seeded), a few decisions in, an option selected
so the preview shows on the board.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from ..content import default_content
from .app import ReliquaryApp
from .session import Setup


async def take(path: Path, size: tuple[int, int], lang: str, seed: int) -> None:
    app = ReliquaryApp(default_content(), Setup(opponent="random", seed=seed), quick=True,
                       lang=lang)
    async with app.run_test(size=size) as pilot:
        screen = app.game_screen
        assert screen is not None
        for keys in (["tab", "enter"], ["enter"], ["enter"], ["tab", "tab", "enter"],
                     ["enter"], ["tab", "enter"], ["tab", "enter"], ["tab"]):
            while screen.thinking or screen.session.ai_to_move():
                await pilot.pause(0.05)
            await pilot.press(*keys)
        await pilot.pause(0.2)
        app.save_screenshot(filename=path.name, path=str(path.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--size", default="100x30", help="columns x rows (default 100x30)")
    parser.add_argument("--lang", default="en", choices=["en", "es"])
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    cols, rows = (int(n) for n in args.size.lower().split("x"))
    asyncio.run(take(args.path, (cols, rows), args.lang, args.seed))
    print(f"written {args.path}")


if __name__ == "__main__":
    main()
