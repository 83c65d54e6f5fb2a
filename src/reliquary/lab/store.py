"""The run's store: a folder of Parquet files, one per batch of games, plus the spec.

.. code-block:: text

    RUN/lab.json               name, spec hash, description, the spec file's path, the
                               command line and its overrides, the content folder and
                               fingerprint, and the code fingerprints (engine and AI
                               source) it was played with
    RUN/spec.toml              a copy of the spec the run was made from
    RUN/games/part-00000.parquet  one row per game (columns: docs/lab.md)
    RUN/records/GAME_ID.json   full records of the games the spec keeps (keep_records)
    RUN/failed.json            games given up after their tries, with the error

Any Parquet reader queries it: ``duckdb.sql("select reason, count(*) from
'RUN/games/*.parquet' group by reason")`` or ``polars.read_parquet("RUN/games/*.parquet")``.
A batch is written to a temporary name and renamed, so an interrupted run leaves only
whole batches; re-running skips the games already stored (by ``game_id``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..engine import Settings

if TYPE_CHECKING:
    import polars as pl

    from .spec import LabSpec


def code_fingerprint() -> str:
    """A hash of the engine's and the AI's source: games stored under different code may
    differ, so ``lab.json`` lists every fingerprint a run was played with."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*root.glob("engine/**/*.py"), *root.glob("ai/*.py")]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _write_atomic(target: Path, text: str) -> None:
    tmp = target.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)


class StoreError(ValueError):
    """A store that cannot be used for this run (another spec, a damaged file)."""


def _settings_fields() -> list[pa.Field]:
    out = []
    for f in dataclasses.fields(Settings):
        default = f.default
        # modules: "a+b" ("" for none); module_options: their JSON ("" for none)
        kind = (pa.string() if isinstance(default, str) or f.name in MODULE_COLUMNS
                else pa.int64())
        out.append(pa.field(f.name, kind))
    return out


#: The columns of the rule modules (M-MOD-1, M-MOD-2), as text.
MODULE_COLUMNS = ("modules", "module_options")


def settings_columns(settings: Settings) -> dict[str, Any]:
    """A game's settings as the store's columns: one per setting, the modules as one
    text column and their options as one JSON column."""
    row = {f.name: getattr(settings, f.name) for f in dataclasses.fields(Settings)
           if f.name not in MODULE_COLUMNS}
    row["modules"] = "+".join(settings.modules)
    row["module_options"] = (json.dumps(dict(settings.module_options), sort_keys=True)
                             if settings.module_options else "")
    return row


PLAY = pa.struct([("seat", pa.string()), ("card", pa.string()), ("mode", pa.string()),
                  ("n", pa.int32())])
#: One figure a rule module gives of a game (``Hooks.game_stats``), named ``module.figure``.
MODULE_STAT = pa.struct([("name", pa.string()), ("value", pa.float64())])

#: Every column of the game table, in order (documented in docs/lab.md).
SCHEMA = pa.schema([
    ("run", pa.string()), ("spec_hash", pa.string()), ("game_id", pa.string()),
    ("game_index", pa.int64()), ("rep", pa.int64()), ("seed", pa.int64()),
    ("content", pa.string()),
    *_settings_fields(),
    ("agent_key", pa.string()), ("agent_skull", pa.string()),
    ("agent_key_name", pa.string()), ("agent_skull_name", pa.string()),
    ("budget_key", pa.string()), ("budget_skull", pa.string()),
    ("agent_a_seat", pa.string()),
    ("faction_key", pa.string()), ("faction_skull", pa.string()),
    ("rite_key", pa.string()), ("rite_skull", pa.string()),
    ("first", pa.string()), ("first_card", pa.string()),
    ("winner", pa.string()), ("reason", pa.string()), ("detail", pa.string()),
    ("tiebreak", pa.string()),
    ("vigil_score_key", pa.int64()), ("vigil_score_skull", pa.int64()),
    ("vigil_min", pa.int64()),
    ("rounds", pa.int64()), ("turns", pa.int64()), ("decisions", pa.int64()),
    ("killed_key", pa.int64()), ("killed_skull", pa.int64()),
    ("hero_damage_key", pa.int64()), ("hero_damage_skull", pa.int64()),
    ("regroups_key", pa.int64()), ("regroups_skull", pa.int64()),
    ("rites_played_key", pa.int64()), ("rites_played_skull", pa.int64()),
    ("pickups_key", pa.int64()), ("pickups_skull", pa.int64()), ("drops", pa.int64()),
    ("play_options_key", pa.float64()), ("play_options_skull", pa.float64()),
    ("plays", pa.list_(PLAY)),
    ("eval_key", pa.list_(pa.float32())),
    ("module_stats", pa.list_(MODULE_STAT)),
    ("seconds", pa.float64()),
])

#: Columns that depend on the machine, not on the spec: left out when runs are compared.
TIMING_COLUMNS = ("seconds",)


def rows_to_table(rows: Iterable[dict[str, Any]]) -> pa.Table:
    """Rows (as the runner makes them) as an Arrow table with the store's schema."""
    return pa.Table.from_pylist(list(rows), schema=SCHEMA)


class Store:
    """One run's folder of Parquet batches."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.games_dir = self.path / "games"

    # -- the run's identity --------------------------------------------------------
    @property
    def meta_path(self) -> Path:
        return self.path / "lab.json"

    def meta(self) -> dict[str, Any]:
        """``lab.json``: name, spec hash, description, spec path."""
        try:
            data: dict[str, Any] = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(f"{self.path}: not a lab run (no lab.json)") from None
        return data

    def open_for(self, spec: LabSpec, command: str | None = None) -> None:
        """Create the store for ``spec``, or check that an existing one holds the same
        tournament (same spec hash) so that resuming never mixes two. ``command``: the
        command line playing it (default: the ``lab run`` line that would)."""
        self.games_dir.mkdir(parents=True, exist_ok=True)
        if self.meta_path.exists():
            meta = self.meta()
            if meta["spec_hash"] != spec.spec_hash:
                raise StoreError(
                    f"{self.path} holds another tournament (spec hash {meta['spec_hash']}, "
                    f"this spec {spec.spec_hash}): its seed, settings, agents, factions or "
                    "content differ; choose another output folder")
        codes = self.meta().get("code", []) if self.meta_path.exists() else []
        if code_fingerprint() not in codes:
            codes.append(code_fingerprint())
        previous = self.meta() if self.meta_path.exists() else {}
        command = command or spec.command(self.path)
        history = [*previous.get("commands", []),
                   {"command": command, "cwd": os.getcwd(), "overrides": spec.overrides,
                    "at": time.strftime("%Y-%m-%dT%H:%M:%S")}]
        meta = {"name": spec.name, "spec_hash": spec.spec_hash, "spec_path": str(spec.path),
                "description": spec.describe(), "rules": spec.describe_rules(),
                "games_planned": spec.games,
                "settings": spec.settings_grid,
                "agents": [a.display() for a in spec.agents],
                "command": command, "cwd": os.getcwd(), "overrides": spec.overrides,
                "commands": history[-20:],
                "content_dir": str(spec.content_dir) if spec.content_dir else None,
                "content": spec.content.fingerprint,
                "keep_records": list(spec.keep_records), "code": codes,
                "updated": time.strftime("%Y-%m-%dT%H:%M:%S")}
        self.meta_path.write_text(json.dumps(meta, indent=2), encoding="utf-8")
        (self.path / "spec.toml").write_text(spec.text, encoding="utf-8")

    # -- games -----------------------------------------------------------------------
    def parts(self) -> list[Path]:
        return sorted(self.games_dir.glob("part-*.parquet"))

    def done_ids(self) -> set[str]:
        """The ``game_id`` of every stored game."""
        ids: set[str] = set()
        for part in self.parts():
            ids.update(pq.read_table(part, columns=["game_id"]).column(0).to_pylist())
        return ids

    # -- kept records and failed games ---------------------------------------------------
    @property
    def records_dir(self) -> Path:
        return self.path / "records"

    def write_record(self, game_id: str, record: dict[str, Any]) -> Path:
        """Store a kept game's full record (``reliquary replay`` reads it)."""
        self.records_dir.mkdir(parents=True, exist_ok=True)
        target = self.records_dir / f"{game_id}.json"
        _write_atomic(target, json.dumps(record, indent=1))
        return target

    def records(self) -> dict[str, Path]:
        """game_id -> the file of its kept record."""
        return {p.stem: p for p in sorted(self.records_dir.glob("*.json"))}

    @property
    def failed_path(self) -> Path:
        return self.path / "failed.json"

    def failures(self) -> list[dict[str, Any]]:
        """The games given up after their tries (and not played since), by game index."""
        try:
            data = json.loads(self.failed_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        return sorted(data.values(), key=lambda f: int(f["game_index"]))

    def write_failures(self, entries: list[dict[str, Any]],
                       solved: Iterable[str] = ()) -> None:
        """Add failed games to ``failed.json``, and drop those now stored (``solved``)."""
        data = {f["game_id"]: f for f in self.failures()}
        data.update({f["game_id"]: f for f in entries})
        for game_id in solved:
            data.pop(game_id, None)
        if data or self.failed_path.exists():
            _write_atomic(self.failed_path, json.dumps(data, indent=2))

    def write_batch(self, rows: list[dict[str, Any]]) -> Path | None:
        """Store a batch of games as one new Parquet file (atomically)."""
        if not rows:
            return None
        if self.failed_path.exists():
            self.write_failures([], solved=[r["game_id"] for r in rows])
        self.games_dir.mkdir(parents=True, exist_ok=True)
        existing = self.parts()
        number = int(existing[-1].stem.split("-")[1]) + 1 if existing else 0
        target = self.games_dir / f"part-{number:05d}.parquet"
        tmp = target.with_suffix(".tmp")
        pq.write_table(rows_to_table(rows), tmp)
        os.replace(tmp, target)
        return target

    def arrow(self) -> pa.Table:
        """Every stored game, sorted by game index (duplicates of a game kept once)."""
        parts = self.parts()
        if not parts:
            return SCHEMA.empty_table()
        table = pa.concat_tables([pq.read_table(p, schema=SCHEMA) for p in parts])
        table = table.sort_by("game_index")
        ids = table.column("game_id").to_pylist()
        seen: set[str] = set()
        keep = []
        for i, gid in enumerate(ids):
            if gid not in seen:
                seen.add(gid)
                keep.append(i)
        return table.take(keep) if len(keep) != len(ids) else table

    def table(self) -> pl.DataFrame:
        """Every stored game as a Polars DataFrame."""
        import polars as pl

        frame = pl.from_arrow(self.arrow())
        assert isinstance(frame, pl.DataFrame)
        return frame
