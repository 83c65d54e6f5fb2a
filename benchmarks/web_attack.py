"""The JSON depth check on the attack's bodies (issue 30, finding 1): a script that
prints figures, not a test.

A body of ``"`` followed by escaped quotes took the former check (a regular expression
that backtracks) quadratic time: 8 s at 64 KB, about two minutes at the 256 KB limit,
on the event loop. This times :func:`reliquary.web.guard.json_depth` on such bodies,
and on the worst bracket bodies, beside the former check on the small sizes only
(the same run: a baseline, and the ratio).

    python benchmarks/web_attack.py
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from reliquary.web.guard import json_depth

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def former_depth(body: bytes) -> int:
    """The check as it was before issue 30 (for the baseline only)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub(b'""', body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def best_ms(check: Callable[[bytes], int], body: bytes, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        check(body)
        best = min(best, time.perf_counter() - began)
    return best * 1000


def main() -> None:
    print(f"{'body':<22} {'bytes':>8} {'now ms':>9} {'former ms':>10} {'ratio':>8}")
    for kb in (4, 16, 64, 256):
        size = kb * 1024
        quotes = b'"' + b'\\"' * ((size - 1) // 2)
        now = best_ms(json_depth, quotes)
        former = best_ms(former_depth, quotes, runs=1) if kb <= 16 else None
        shown = f"{former:10.1f} {former / now:7.0f}x" if former is not None else \
            f"{'(skipped)':>10} {'':>8}"
        print(f"{'quote, escaped quotes':<22} {len(quotes):>8} {now:9.2f} {shown}")
    for name, body in (("[ only", b"[" * 256 * 1024), ("[] pairs", b"[]" * 128 * 1024)):
        print(f"{name:<22} {len(body):>8} {best_ms(json_depth, body):9.2f}")


if __name__ == "__main__":
    main()
