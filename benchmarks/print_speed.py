"""How long the whole print set takes to draw (a script, not a test).

Draws every sheet (cards I–IV, board, tokens, rulebook) for each paper and language,
and the largest board, and prints seconds per PDF against the issue's aim (well
under 10 s on this machine); ``--png`` and ``--tts`` time the exports too.

    python benchmarks/print_speed.py
    python benchmarks/print_speed.py --repeat 3 --png --tts
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from reliquary.printing import PrintOptions, export_png, export_tts, make_context, render_pdf

AIM_SECONDS = 10.0
T = TypeVar("T")


def timed(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The median seconds of ``repeat`` calls, and the last call's result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per case (median)")
    parser.add_argument("--png", action="store_true", help="also time --png at 300 dpi")
    parser.add_argument("--tts", action="store_true", help="also time --tts")
    args = parser.parse_args()
    start = time.perf_counter()
    make_context(PrintOptions())  # fonts registered and content loaded once, as in the CLI
    print(f"content and fonts: {time.perf_counter() - start:.2f} s (once per process)")
    cases = [PrintOptions(paper=p, lang=lang) for p in ("a4", "letter") for lang in ("es", "en")]
    cases.append(PrintOptions(size=12))
    worst = 0.0
    for options in cases:
        ctx = make_context(options)
        seconds, pdf = timed(partial(render_pdf, ctx), args.repeat)
        worst = max(worst, seconds)
        size = len(pdf) / 1e6
        print(f"whole print set {options.paper:6} {options.lang} board {options.size:2}: "
              f"{seconds:5.2f} s, {ctx.page_count} pages, {size:.2f} MB")
    print(f"slowest: {worst:.2f} s = {worst / AIM_SECONDS:.0%} of the {AIM_SECONDS:g} s aim")
    with tempfile.TemporaryDirectory() as folder:
        if args.png:
            ctx = make_context(PrintOptions(bleed_mm=3))
            seconds, files = timed(lambda: export_png(ctx, folder, 300), 1)
            print(f"--png 300 dpi, 3 mm bleed: {seconds:.2f} s for {len(files)} images")
        if args.tts:
            ctx = make_context(PrintOptions())
            seconds, tts_files = timed(lambda: export_tts(ctx, folder), 1)
            print(f"--tts: {seconds:.2f} s for {len(tts_files)} files")
    print("(timings on a shared, busy machine are noisy; compare runs on the same machine)")


if __name__ == "__main__":
    main()
