"""The lab's tournament spec: a small TOML file, validated before any game is played.

.. code-block:: toml

    name = "default-8"          # optional; the file's stem by default
    seed = 1                    # fixes every game's chance and the agents' seeds
    games_per_cell = 10         # games per (settings, seating, faction pairing) cell
    factions = "all"            # all ordered pairs of different factions, "free", or a list
    content = "my-content/"     # optional content folder, relative to this file

    [settings]                  # any rule setting (`reliquary rules`); a list is a grid
    size = 8
    round_cap = 100
    regroup_limit = [2, 4]

    [[agents]]                  # one agent (self-play) or two (both seatings are played)
    name = "greedy"
    [[agents]]
    name = "search"
    nodes = 300

Every error names the file, the key and what is allowed (``spec.toml: agents[1].name:
unknown agent 'serch'; allowed: random, greedy, mcts, search``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..ai import AGENTS
from ..content import default_content, load_content
from ..engine import Content, ContentError, Settings
from ..engine.types import SETTINGS_HELP

#: Budget keys an agent entry may carry (besides ``name`` and ``label``).
BUDGET_KEYS = ("nodes", "noise", "max_depth", "extend")
#: Agents that think with a budget: without ``nodes`` they would think by the clock.
NEEDS_NODES = ("search", "mcts")


class SpecError(ValueError):
    """A bad spec: which file, which key, what was wrong and what is allowed."""

    def __init__(self, file: str | Path, key: str, message: str) -> None:
        self.file, self.key, self.message = str(file), key, message
        super().__init__(f"{file}: {key}: {message}")


class AgentEntry(BaseModel):
    """One ``[[agents]]`` entry: a registry name and a node budget."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    nodes: int | None = Field(default=None, ge=1)
    noise: float | None = Field(default=None, ge=0)
    max_depth: int | None = Field(default=None, ge=1)
    extend: int | None = Field(default=None, ge=0)
    label: str | None = None

    def budget(self) -> dict[str, Any]:
        """The keyword arguments for :func:`reliquary.ai.get_agent` (seed aside)."""
        return {k: getattr(self, k) for k in BUDGET_KEYS if getattr(self, k) is not None}

    def display(self) -> str:
        """``search@300``: the label, or the name with its node budget."""
        if self.label:
            return self.label
        extra = "".join(f",{k}={v}" for k, v in self.budget().items() if k != "nodes")
        return self.name + (f"@{self.nodes}" if self.nodes else "") + extra


class _SpecModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    seed: int = 0
    games_per_cell: int = Field(default=1, ge=1)
    factions: Literal["all", "free"] | list[tuple[str, str]] = "all"
    content: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    agents: list[AgentEntry] = Field(min_length=1, max_length=2)


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game of a run, and nothing else."""

    run: str
    spec_hash: str
    game_id: str
    game_index: int
    rep: int
    settings: dict[str, Any]
    agents: tuple[AgentEntry, AgentEntry]     # (Key, Skull)
    agent_a_seat: int                         # the seat of the spec's first agent
    factions: tuple[str, str] | None          # (Key, Skull); None: the agents choose
    chance_seed: int
    agent_seeds: tuple[int, int]
    content: Content | None = None            # None: the packaged content


@dataclass
class LabSpec:
    """A validated spec: the grid of games it describes, and a hash of what fixes them."""

    path: Path
    name: str
    seed: int
    games_per_cell: int
    settings_grid: list[dict[str, Any]]
    agents: list[AgentEntry]
    pairings: list[tuple[str, str] | None]
    content: Content
    custom_content: bool
    text: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)

    @property
    def spec_hash(self) -> str:
        """What fixes the games (not their number nor the run's name): resuming a run
        with another hash is refused, so a store never mixes two tournaments."""
        canon = json.dumps({
            "seed": self.seed, "settings": self.settings_grid,
            "agents": [a.model_dump(exclude={"label"}) for a in self.agents],
            "pairings": self.pairings, "content": self.content.fingerprint,
        }, sort_keys=True)
        return hashlib.sha256(canon.encode()).hexdigest()[:16]

    @property
    def seatings(self) -> list[tuple[int, int]]:
        """Indices into :attr:`agents` for (Key, Skull): both ways round for two agents."""
        return [(0, 0)] if len(self.agents) == 1 else [(0, 1), (1, 0)]

    @property
    def cells(self) -> int:
        return len(self.settings_grid) * len(self.seatings) * len(self.pairings)

    @property
    def games(self) -> int:
        return self.cells * self.games_per_cell

    def jobs(self) -> list[GameJob]:
        """Every game of the run, in a fixed order: repetition by repetition, so that a
        partial run is balanced over the cells and more ``games_per_cell`` only adds games
        at the end. Each game's seeds come from a hash of its cell and repetition, so a
        game is the same whatever else the run contains."""
        return [job for rep in range(self.games_per_cell) for job in self.jobs_for_rep(rep)]

    def jobs_for_rep(self, rep: int) -> list[GameJob]:
        """The games of one repetition: one per cell (``lab compare`` plays rep by rep)."""
        out: list[GameJob] = []
        spec_hash = self.spec_hash
        content = self.content if self.custom_content else None
        index = rep * self.cells
        for settings in self.settings_grid:
            for seating in self.seatings:
                for pairing in self.pairings:
                    key = json.dumps([self.seed, settings, seating, pairing, rep],
                                     sort_keys=True)
                    digest = hashlib.sha256(key.encode()).hexdigest()
                    a_seat = 0 if len(self.agents) == 1 else seating.index(0)
                    out.append(GameJob(
                        run=self.name, spec_hash=spec_hash, game_id=digest[:16],
                        game_index=index, rep=rep, settings=dict(settings),
                        agents=(self.agents[seating[0]], self.agents[seating[1]]),
                        agent_a_seat=a_seat, factions=pairing,
                        chance_seed=int(digest[16:24], 16),
                        agent_seeds=(int(digest[24:32], 16), int(digest[32:40], 16)),
                        content=content))
                    index += 1
        return out

    def describe(self) -> str:
        """One line for titles: settings, agents and the game count."""
        return f"{self.name}: {self.describe_rules()}; {self.games} games"

    def describe_rules(self) -> str:
        """Agents and the settings that matter: size and round cap always, the others
        only where they differ from the default rules."""
        defaults = Settings().as_dict()
        parts = []
        for k in defaults:
            values = sorted({json.dumps(s.get(k)) for s in self.settings_grid})
            if k in ("size", "round_cap") or values != [json.dumps(defaults[k])]:
                parts.append(f"{k}={'|'.join(v.strip(chr(34)) for v in values)}")
        agents = " vs ".join(a.display() for a in self.agents)
        return f"{agents}; {', '.join(parts)}"


def _settings_grid(file: Path, raw: Mapping[str, Any], content: Content) -> list[dict[str, Any]]:
    axes: list[list[tuple[str, Any]]] = []
    for name, value in raw.items():
        key = f"settings.{name}"
        if name not in SETTINGS_HELP:
            raise SpecError(file, key, f"unknown setting; allowed: {', '.join(SETTINGS_HELP)}")
        values = value if isinstance(value, list) else [value]
        if not values:
            raise SpecError(file, key, "an empty list; give a value or a list of values")
        for v in values:
            try:
                Settings.from_dict({name: v})
            except (ValueError, TypeError) as err:
                raise SpecError(file, key, f"{err} ({SETTINGS_HELP[name]})") from None
            if name == "size" and v not in content.sizes:
                raise SpecError(file, key, f"size {v!r} is not in the board table; allowed: "
                                           f"{', '.join(map(str, content.sizes))}")
        axes.append([(name, v) for v in values])
    grid = []
    for combo in itertools.product(*axes):
        as_dict = Settings.from_dict(dict(combo)).as_dict()
        grid.append(as_dict)
    return grid


def _pydantic_error(file: Path, err: ValidationError) -> SpecError:
    first = err.errors()[0]
    loc = first["loc"]
    key = ""
    for part in loc:
        key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
    kind = first["type"]
    if kind == "extra_forbidden":
        if len(loc) >= 3 and loc[0] == "agents":
            allowed = ", ".join(["name", *BUDGET_KEYS, "label"])
            hint = (" (time budgets are not reproducible: use nodes)" if loc[-1] == "time"
                    else "")
            return SpecError(file, key, f"unknown agent key; allowed: {allowed}{hint}")
        allowed = ", ".join(_SpecModel.model_fields)
        return SpecError(file, key, f"unknown key; allowed: {allowed}")
    if kind == "missing":
        return SpecError(file, key, "required key is missing")
    return SpecError(file, key or "(spec)", f"{first['msg']} (got {first.get('input')!r})")


def parse_spec(text: str, file: str | Path = "<spec>",
               overrides: Mapping[str, Any] | None = None) -> LabSpec:
    """Validate a spec given as TOML text; ``overrides`` replace settings (used by tune).

    Raises :class:`SpecError` (file, key, what is allowed) on any problem."""
    file = Path(file)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError(file, "(toml)", str(err)) from None
    if overrides:
        raw = {**raw, "settings": {**raw.get("settings", {}), **overrides}}
    try:
        model = _SpecModel.model_validate(raw)
    except ValidationError as err:
        raise _pydantic_error(file, err) from None
    for i, agent in enumerate(model.agents):
        if agent.name not in AGENTS:
            raise SpecError(file, f"agents[{i}].name",
                            f"unknown agent {agent.name!r}; allowed: {', '.join(AGENTS)}")
        if agent.name in NEEDS_NODES and agent.nodes is None:
            raise SpecError(file, f"agents[{i}].nodes", f"{agent.name} needs a node budget "
                            "(nodes = N) so that the run is reproducible")
    content_dir = None
    if model.content is not None:
        content_dir = (file.parent / model.content).resolve()
        try:
            content = load_content(content_dir)
        except ContentError as err:
            raise SpecError(file, "content", str(err)) from None
    else:
        content = default_content()
    grid = _settings_grid(file, model.settings, content)
    faction_ids = [f.id for f in content.factions]
    pairings: list[tuple[str, str] | None]
    if model.factions == "all":
        pairings = [(a, b) for a in faction_ids for b in faction_ids if a != b]
    elif model.factions == "free":
        pairings = [None]
    else:
        pairings = []
        for i, (a, b) in enumerate(model.factions):
            for fid in (a, b):
                if fid not in faction_ids:
                    raise SpecError(file, f"factions[{i}]", f"unknown faction {fid!r}; "
                                    f"allowed: {', '.join(faction_ids)}")
            if a == b:
                raise SpecError(file, f"factions[{i}]",
                                "a pairing needs two different factions (S3)")
            pairings.append((a, b))
        if not pairings:
            raise SpecError(file, "factions", 'an empty list; use "all", "free" or pairs')
    return LabSpec(path=file, name=model.name or file.stem, seed=model.seed,
                   games_per_cell=model.games_per_cell, settings_grid=grid,
                   agents=list(model.agents), pairings=pairings, content=content,
                   custom_content=content_dir is not None, text=text,
                   overrides=dict(overrides or {}))


def load_spec(path: str | Path, overrides: Mapping[str, Any] | None = None) -> LabSpec:
    """Read and validate a spec file (see the module docstring for the format)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError(path, "(file)", f"cannot read: {err.strerror}") from None
    return parse_spec(text, path, overrides)
