"""Replay every game record kept under ``benchmarks/results/`` with the engine as it is
now (a script, not a test): each must replay to the result it states.

Records are found anywhere in the JSON and JSON-lines files there (a record is any
object with ``"format": "reliquary-record"``). Records of other content (an older
fingerprint) cannot replay faithfully and are counted apart, not as failures.

    python benchmarks/replay_results.py
    RELIQUARY_PURE=1 python benchmarks/replay_results.py --limit 500
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reliquary._engine_build import engine_build
from reliquary.content import default_content
from reliquary.engine import NotationError, replay

RESULTS = Path(__file__).resolve().parent / "results"


def records_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("format") == "reliquary-record":
            yield value
            return
        for item in value.values():
            yield from records_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from records_in(item)


def stored_records(root: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(root.rglob("*.json*")):
        text = path.read_text(encoding="utf-8")
        if '"reliquary-record"' not in text:
            continue
        rel = str(path.relative_to(root))
        if path.suffix == ".jsonl":
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    for record in records_in(json.loads(line)):
                        yield f"{rel}:{n}", record
        else:
            for record in records_in(json.loads(text)):
                yield rel, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="stop after this many records")
    args = parser.parse_args(argv)
    content = default_content()
    counts: Counter[str] = Counter()
    failures: list[str] = []
    began = time.perf_counter()
    for where, record in stored_records(RESULTS):
        if args.limit and sum(counts.values()) >= args.limit:
            break
        if record.get("content", {}).get("fingerprint") != content.fingerprint:
            counts["other content"] += 1
            continue
        try:
            replay(record, content)
            counts["replayed"] += 1
        except NotationError as err:
            counts["failed"] += 1
            failures.append(f"{where}: {err}")
    print(f"{engine_build().label}: {dict(counts)} in {time.perf_counter() - began:.1f} s")
    for line in failures[:20]:
        print("  FAILED", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
