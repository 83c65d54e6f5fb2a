"""Hand-made game tables for the metric tests: every store column, with defaults."""

from __future__ import annotations

import itertools
from typing import Any

import polars as pl

from reliquary.engine import Settings
from reliquary.lab.store import rows_to_table

_ids = itertools.count()


def game(**columns: Any) -> dict[str, Any]:
    """One game row: a Key win by Hero kill in 10 rounds, Key moving first, unless told."""
    n = next(_ids)
    row: dict[str, Any] = {
        "run": "t", "spec_hash": "h", "game_id": f"g{n}", "game_index": n, "rep": 0,
        "seed": n, "content": "c", **Settings().as_dict(),
        "agent_key": "greedy", "agent_skull": "greedy", "agent_key_name": "greedy",
        "agent_skull_name": "greedy", "budget_key": "", "budget_skull": "",
        "agent_a_seat": "key", "faction_key": "a", "faction_skull": "b",
        "rite_key": "Harrow", "rite_skull": "Harrow", "first": "key", "first_card": "Bolt",
        "winner": "key", "reason": "hero_killed", "detail": "", "tiebreak": None,
        "vigil_score_key": None, "vigil_score_skull": None, "vigil_min": 6,
        "rounds": 10, "turns": 20, "decisions": 60,
        "killed_key": 0, "killed_skull": 0, "hero_damage_key": 0, "hero_damage_skull": 0,
        "regroups_key": 0, "regroups_skull": 0, "rites_played_key": 0,
        "rites_played_skull": 0, "pickups_key": 0, "pickups_skull": 0, "drops": 0,
        "play_options_key": 6.0, "play_options_skull": 6.0, "plays": [], "eval_key": [],
        "seconds": 1.0,
    }
    unknown = set(columns) - set(row)
    assert not unknown, unknown
    row.update(columns)
    return row


def table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The rows as the store would give them back (same schema)."""
    frame = pl.from_arrow(rows_to_table(rows))
    assert isinstance(frame, pl.DataFrame)
    return frame
