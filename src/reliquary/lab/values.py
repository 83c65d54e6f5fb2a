"""The values the agents draft by (``reliquary/data/draft_values.toml``), measured here.

``reliquary lab values RUN [RUN …] --ruleset NAME`` fits the Bradley–Terry model
(:func:`reliquary.lab.metrics.bradley_terry`) to the runs' games and writes each
faction's and each rite's strength (log-odds against the field) as the ruleset's
section of the table, keeping the other rulesets' sections. The runs should balance
the setups (``factions = "all"``, ``rites = "balanced"``, ``first = "balanced"``):
otherwise the rites are confounded with the first move and get no values.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from . import metrics

HEADER = """\
# The values the thinking agents choose factions (S3) and draft rites (S5) by
# (docs/ai.md, reliquary.ai.drafting): per ruleset, each faction's and each rite's
# Bradley–Terry strength in log-odds against the field (0 = average), measured by the
# lab on runs that balance factions, rites and first move.
# Regenerate: reliquary lab values RUN [RUN …] --ruleset NAME   (RUN: a lab run folder)
"""


@dataclass(frozen=True)
class Measured:
    """One ruleset's measured values and where they come from."""

    factions: dict[str, float]
    rites: dict[str, float]
    source: str


def measure(table: pl.DataFrame, source: str) -> Measured:
    """Faction and rite strengths of a game table (rites empty when confounded)."""
    bt = metrics.bradley_terry(table)
    factions = {r["faction"]: round(float(r["theta"]), 4)
                for r in bt["factions"].iter_rows(named=True)}
    rites = ({r["rite"]: round(float(r["theta"]), 4) for r in bt["rites"].iter_rows(named=True)}
             if bt["rites"] is not None else {})
    return Measured(factions, rites, f"{source}; {len(table)} games"
                    + ("" if rites else f"; no rite values: {bt['rites_note']}"))


def _quote(key: str) -> str:
    return key if key.replace("-", "").replace("_", "").isalnum() else f'"{key}"'


def render(sections: dict[str, dict[str, Any]]) -> str:
    """The table's TOML text, sections in order (classic first)."""
    lines = [HEADER]
    for name in sorted(sections, key=lambda n: (n != "classic", n)):
        section = sections[name]
        lines.append(f"[{_quote(name)}]")
        lines.append(f"source = {_toml_string(str(section.get('source', '')))}")
        for part in ("factions", "rites"):
            lines.append(f"[{_quote(name)}.{part}]")
            for key, value in sorted(section.get(part, {}).items()):
                lines.append(f"{_quote(key)} = {float(value):.4f}")
        lines.append("")
    return "\n".join(lines)


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(path: str | Path, ruleset: str, measured: Measured) -> None:
    """Put ``measured`` as ``ruleset``'s section of the table at ``path`` (created if
    missing), keeping the other sections."""
    path = Path(path)
    sections: dict[str, dict[str, Any]] = {}
    if path.exists():
        sections = {k: v for k, v in tomllib.loads(path.read_text(encoding="utf-8")).items()
                    if isinstance(v, dict)}
    sections[ruleset] = {"source": measured.source, "factions": measured.factions,
                         "rites": measured.rites}
    path.write_text(render(sections), encoding="utf-8")
