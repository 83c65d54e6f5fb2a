"""The lab's tournament spec: a small TOML file, validated before any game is played.

.. code-block:: toml

    name = "default-8"          # optional; the file's stem by default
    seed = 1                    # fixes every game's chance and the agents' seeds
    games_per_cell = 10         # games per (settings, seating, faction pairing) cell
    factions = "all"            # all ordered pairs of different factions, "free", or a list
    rites = "balanced"          # every rite at every seat; "free" (drafted, S5) or pairs
    first = "balanced"          # who moves first, crossed with the rites; "free", "key", "skull"
    ruleset = "tournament"      # optional: a named ruleset (settings + content patch)
    content = "my-content/"     # optional content folder, relative to this file
    keep_records = ["round_cap"]  # optional: keep the full record of these games

    [settings]                  # any rule setting (`reliquary rules`); a list is a grid
    size = 8
    round_cap = 100
    regroup_limit = [2, 4]

    [[agents]]                  # one agent (self-play) or two (both seatings are played)
    name = "greedy"
    [[agents]]
    name = "search"
    nodes = 300

Every error names the file, the entry and field and what is allowed, with a guess for a
misspelt name (``spec.toml: agents[1].name: unknown agent 'serch' (did you mean
'search'?); allowed: random, greedy, mcts, search``); every error of a spec is listed
at once, one a line.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import re
import shlex
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
from ..rulesets import (
    DEFAULT_RULESET,
    RulesetError,
    load_ruleset,
    merge_patch,
    patched_content,
)

#: Budget keys an agent entry may carry (besides ``name`` and ``label``).
BUDGET_KEYS = ("nodes", "noise", "max_depth", "extend", "module_eval")
#: Agents that think with a budget: without ``nodes`` they would think by the clock.
NEEDS_NODES = ("search", "mcts")
#: What ``keep_records`` may name: every game, draws, or an end reason ("capped" is
#: "round_cap").
KEEP_CHOICES = ("all", "draw", "capped", "hero_killed", "relic_home", "vigil", "round_cap")


class SpecError(ValueError):
    """A bad spec: which file, which key, what was wrong and what is allowed. It holds
    every problem found (``problems``: (key, message) pairs), one a line in its text;
    ``key`` and ``message`` are the first's."""

    def __init__(self, file: str | Path, key: str, message: str,
                 more: list[tuple[str, str]] | None = None) -> None:
        self.file, self.key, self.message = str(file), key, message
        self.problems = [(key, message), *(more or [])]
        super().__init__("\n".join(f"{file}: {k}: {m}" for k, m in self.problems))


def did_you_mean(word: object, allowed: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean 'search'?)`` for a near miss among ``allowed``, else nothing."""
    close = difflib.get_close_matches(str(word), list(allowed), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unknown(what: str, word: object, allowed: list[str] | tuple[str, ...]) -> str:
    return f"unknown {what} {word!r}{did_you_mean(word, allowed)}; allowed: {', '.join(allowed)}"


class AgentEntry(BaseModel):
    """One ``[[agents]]`` entry: a registry name and a node budget."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    nodes: int | None = Field(default=None, ge=1)
    noise: float | None = Field(default=None, ge=0)
    max_depth: int | None = Field(default=None, ge=1)
    extend: int | None = Field(default=None, ge=0)
    #: the rule modules' evaluation terms: "aware" (default) or "blind" (§10.2 step 4)
    module_eval: Literal["aware", "blind"] | None = None
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
    rites: Literal["free", "balanced"] | list[tuple[str, str]] = "free"
    first: Literal["free", "balanced", "key", "skull"] = "free"
    ruleset: str | None = None
    content: str | None = None
    keep_records: str | list[str] = Field(default_factory=list)
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
    keep_records: tuple[str, ...] = ()        # which games' full records to keep
    rites: tuple[str, str] | None = None      # (Key's rite, Skull's); None: drafted (S5)
    first: int | None = None                  # the seat that moves first; None: the deal's
    ruleset: str = "classic"                  # the ruleset's name (kept records carry it)


def is_module_key(name: str) -> bool:
    """Whether a setting belongs to the rule modules: ``modules`` or ``<module>.<option>``."""
    return name == "modules" or "." in name


def base_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's settings without the module keys: what a game's seeds hash."""
    return {k: v for k, v in settings.items() if not is_module_key(k)}


def _digest(fixed: list[Any]) -> str:
    return hashlib.sha256(json.dumps(fixed, sort_keys=True).encode()).hexdigest()


#: One setup of the experiment's design: (Key's rite, Skull's rite) or None, and the
#: seat moving first (0 Key, 1 Skull) or None (as the deal falls).
Setup = tuple[tuple[str, str] | None, int | None]


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
    content_dir: Path | None = None           # the custom content folder, resolved
    keep_records: tuple[str, ...] = ()
    #: The rite assignments and first movers the design rotates through (see
    #: :meth:`setup_for`); ``[(None, None)]``: the agents draft and the deal decides.
    setups: list[Setup] = field(default_factory=lambda: [(None, None)])
    ruleset: str = "classic"

    def override_games_per_cell(self, games_per_cell: int) -> None:
        """Play this many games per cell instead of the spec's (``--games-per-cell``);
        recorded among the overrides, so the run says how it was made."""
        self.games_per_cell = games_per_cell
        self.overrides["games_per_cell"] = games_per_cell

    def command(self, run_dir: str | Path) -> str:
        """The ``lab run`` command line that plays this spec, overrides included, into
        ``run_dir``; settings overridden by ``lab tune`` follow as a comment."""
        words = ["reliquary", "lab", "run", str(self.path), "--out", str(run_dir)]
        if "games_per_cell" in self.overrides:
            words += ["--games-per-cell", str(self.overrides["games_per_cell"])]
        line = shlex.join(words)
        settings = {k: v for k, v in self.overrides.items() if k != "games_per_cell"}
        if settings:
            line += "  # settings set by lab tune: " + ", ".join(
                f"{k}={v}" for k, v in settings.items())
        return line

    @property
    def spec_hash(self) -> str:
        """What fixes the games (not their number nor the run's name): resuming a run
        with another hash is refused, so a store never mixes two tournaments."""
        fixed: dict[str, Any] = {
            "seed": self.seed, "settings": self.settings_grid,
            "agents": [a.model_dump(exclude={"label"}) for a in self.agents],
            "pairings": self.pairings, "content": self.content.fingerprint,
        }
        if self.setups != [(None, None)]:   # a spec without a setup design keeps its hash
            fixed["setups"] = self.setups
        modules = sorted({m for cell in self.settings_grid for m in cell.get("modules") or ()})
        if modules:   # a module's data file fixes its games as the content does
            from ..engine.modules import get
            fixed["module_data"] = {m: get(m).fingerprint for m in modules}
            # the seeds leave the module keys out: stores seeded from them are refused
            fixed["seeds"] = "base settings"
        canon = json.dumps(fixed, sort_keys=True)
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

    def setup_for(self, pairing_index: int, rep: int) -> Setup:
        """The setup of a cell's game in repetition ``rep``: the design's setups dealt
        in turn over the pairings, repetition after repetition, so that every setup —
        every rite at every seat, each first mover with each rite pair — is played
        equally often whenever the pairings times the repetitions are a multiple of the
        setups (:attr:`balanced`). When the pairings alone are such a multiple, each
        repetition shifts the turn by one (a Latin square), so that a pairing does not
        keep its setup."""
        n, pairings = len(self.setups), len(self.pairings)
        shift = rep if pairings % n == 0 else 0
        return self.setups[(rep * pairings + pairing_index + shift) % n]

    @property
    def balanced(self) -> bool:
        """Whether the run's setups come out exactly balanced (see :meth:`setup_for`)."""
        return (len(self.pairings) * self.games_per_cell) % len(self.setups) == 0

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
                for p, pairing in enumerate(self.pairings):
                    rites, first = self.setup_for(p, rep)
                    design = [[rites, first]] if (rites, first) != (None, None) else []
                    # the game's id hashes its whole cell; its seeds only the base game's
                    # settings, so a module cell has its default cell's dice and deal
                    # (MODULES.md §10.2 step 1); both are today's without module keys
                    game_id = _digest([self.seed, settings, seating, pairing, rep, *design])
                    digest = _digest([self.seed, base_settings(settings), seating, pairing,
                                      rep, *design])
                    a_seat = 0 if len(self.agents) == 1 else seating.index(0)
                    out.append(GameJob(
                        run=self.name, spec_hash=spec_hash, game_id=game_id[:16],
                        game_index=index, rep=rep, settings=dict(settings),
                        agents=(self.agents[seating[0]], self.agents[seating[1]]),
                        agent_a_seat=a_seat, factions=pairing,
                        chance_seed=int(digest[16:24], 16),
                        agent_seeds=(int(digest[24:32], 16), int(digest[32:40], 16)),
                        content=content, keep_records=self.keep_records,
                        rites=rites, first=first, ruleset=self.ruleset))
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
        # the base settings, then the modules and their options (M-MOD-1) where some are on
        keys = list(defaults) + sorted({k for s in self.settings_grid for k in s} - set(defaults))
        for k in keys:
            values = sorted({json.dumps(s.get(k)) for s in self.settings_grid})
            if k in ("size", "round_cap") or values != [json.dumps(defaults.get(k))]:
                parts.append(f"{k}={'|'.join(v.strip(chr(34)) for v in values)}")
        if self.ruleset != DEFAULT_RULESET:
            parts.insert(0, f"ruleset={self.ruleset}")
        if self.setups != [(None, None)]:
            # what the design rotates through is "balanced"; what it fixes is named
            pairs = list(dict.fromkeys(r for r, _ in self.setups))
            firsts = list(dict.fromkeys(f for _, f in self.setups))
            varied = [k for k, on in (("rites", len(pairs) > 1),
                                      ("first move", len(firsts) > 1)) if on]
            if varied:
                parts.append(f"balanced {' and '.join(varied)}")
            if len(pairs) == 1 and pairs[0] is not None:
                parts.append(f"rites {pairs[0][0]} vs {pairs[0][1]}")
            if len(firsts) == 1 and firsts[0] is not None:
                parts.append(f"{('Key', 'Skull')[firsts[0]]} moves first")
        agents = " vs ".join(a.display() for a in self.agents)
        return f"{agents}; {', '.join(parts)}"


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: A union's branches in a validation location that look like names (``str`` in
#: ``keep_records.str``): the validator's steps, not the spec's keys.
_BRANCHES = frozenset({"str", "int", "float", "bool"})


class _Problems:
    """The problems found in one spec, in the order found."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.items: list[tuple[str, str]] = []

    def add(self, key: str, message: str) -> None:
        if (key, message) not in self.items:
            self.items.append((key, message))

    def keys(self) -> set[str]:
        return {k for k, _ in self.items}

    def raise_any(self) -> None:
        if self.items:
            (key, message), *more = self.items
            raise SpecError(self.file, key, message, more)


def _settings_grid(problems: _Problems, raw: Any, content: Content | None,
                   ) -> list[dict[str, Any]]:
    if not isinstance(raw, Mapping):
        problems.add("settings", "must be a table of rule settings ([settings])")
        return []
    axes: list[list[tuple[str, Any]]] = []
    for name, value in raw.items():
        key = f"settings.{name}"
        if is_module_key(name):  # M-MOD-1, M-MOD-2: checked as combinations
            values = _module_values(problems, key, name, value)
            if values:
                axes.append([(name, v) for v in values])
            continue
        if name not in SETTINGS_HELP:
            problems.add(key, _unknown("setting", name, list(SETTINGS_HELP)))
            continue
        values = value if isinstance(value, list) else [value]
        if not values:
            problems.add(key, "an empty list; give a value or a list of values")
            continue
        good = True
        for v in values:
            try:
                Settings.from_dict({name: v})
            except (ValueError, TypeError) as err:
                problems.add(key, f"{err} ({SETTINGS_HELP[name]})")
                good = False
                continue
            if name == "size" and content is not None and v not in content.sizes:
                problems.add(key, f"size {v!r} is not in the board table; allowed: "
                                  f"{', '.join(map(str, content.sizes))}")
                good = False
        if good:
            axes.append([(name, v) for v in values])
    grid: list[dict[str, Any]] = []
    for combo in itertools.product(*axes):
        cell = dict(combo)
        on = cell.get("modules") or []
        on = [on] if isinstance(on, str) else on
        # a module's option counts only in the cells where the module is on
        cell = {k: v for k, v in cell.items() if "." not in k or k.split(".")[0] in on}
        try:
            settings = Settings.from_dict(cell).as_dict()
        except (ValueError, TypeError) as err:
            problems.add("settings", str(err))
            break
        if settings not in grid:
            grid.append(settings)
    return grid


def _module_values(problems: _Problems, key: str, name: str, value: Any) -> list[Any]:
    """The values of ``modules`` or of a module option: a list of lists (or, for an
    option that is not itself a list, a list of values) is a grid, anything else one
    value. Unknown modules and options are named here; their combinations later."""
    from ..engine.modules import get

    if name == "modules":
        subsets = value if isinstance(value, list) and value and all(
            isinstance(v, list) for v in value) else [value]
        good = []
        for subset in subsets:
            names = [subset] if isinstance(subset, str) else subset
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                problems.add(key, "must be a list of module names (a list of such lists "
                                  "is a grid)")
                continue
            try:
                for n in names:
                    get(n)
            except ValueError as err:
                problems.add(key, str(err))
                continue
            good.append(names)
        return good
    module, _, option = name.partition(".")
    try:
        spec = get(module).options.get(option)
    except ValueError as err:
        problems.add(key, str(err))
        return []
    if spec is None:
        problems.add(key, _unknown("option", name, [f"{module}.{o}"
                                                    for o in get(module).options]))
        return []
    if isinstance(value, list) and (not spec.subset or all(isinstance(v, list) for v in value)):
        return list(value)
    return [value]


#: Plain words for the validation errors a spec can raise, by error type.
_PLAIN = {
    "int_type": "must be a whole number", "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number", "float_type": "must be a number",
    "float_parsing": "must be a number", "string_type": "must be text",
    "list_type": "must be a list", "tuple_type": "must be a pair [a, b]",
    "dict_type": "must be a table", "model_type": "must be a table", "bool_type":
    "must be true or false",
}


def _where(loc: tuple[int | str, ...]) -> str:
    """``agents[1].nodes`` from a validation location, leaving out the validator's own
    steps (union branches such as ``list[...]`` or ``function-after[...]``)."""
    key = ""
    for part in loc:
        if isinstance(part, int):
            key += f"[{part}]"
        elif _NAME.match(part) and part not in _BRANCHES:
            key += f".{part}" if key else part
    return key or "(spec)"


def _plain(error: Any) -> tuple[str, str]:
    """One validation error as (key, message), in the spec's terms."""
    loc, kind, ctx = error["loc"], error["type"], error.get("ctx") or {}
    key = _where(loc)
    got = error.get("input")
    if loc and loc[0] == "rites":
        return "rites", ('must be "free", "balanced" or a list of [Key\'s rite, Skull\'s '
                         f'rite] pairs, such as [["Harrow", "Exhumation"]] (got {got!r})')
    if loc and loc[0] == "first":
        return "first", f'must be "free", "balanced", "key" or "skull" (got {got!r})'
    if loc and loc[0] == "factions":
        return "factions", ('must be "all", "free" or a list of pairs of faction ids, '
                            f'such as [["pyre-choir", "grave-tide"]] (got {got!r})')
    if kind == "extra_forbidden":
        if len(loc) >= 3 and loc[0] == "agents":
            allowed = ["name", *BUDGET_KEYS, "label"]
            hint = (" (time budgets are not reproducible: use nodes)" if loc[-1] == "time"
                    else "")
            return key, _unknown("agent key", loc[-1], allowed) + hint
        return key, _unknown("key", loc[-1], list(_SpecModel.model_fields))
    if kind == "missing":
        return key, "required key is missing"
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        word = "at least" if kind == "greater_than_equal" else "more than"
        return key, f"must be {word} {bound} (got {got!r})"
    if kind == "too_long":
        return key, f"at most {ctx.get('max_length')} entries (got {ctx.get('actual_length')})"
    if kind == "too_short":
        return key, f"at least {ctx.get('min_length')} entry needed"
    if kind in _PLAIN:
        return key, f"{_PLAIN[kind]} (got {got!r})"
    if kind == "literal_error":   # one of a few words: ``'aware' or 'blind'``
        return key, f"must be {ctx.get('expected')} (got {got!r})"
    return key, f"{error['msg']} (got {got!r})"


def parse_spec(text: str, file: str | Path = "<spec>",
               overrides: Mapping[str, Any] | None = None) -> LabSpec:
    """Validate a spec given as TOML text; ``overrides`` replace settings (used by tune).

    Raises :class:`SpecError` listing every problem (file, key, what is allowed)."""
    file = Path(file)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError(file, "(toml)", str(err)) from None
    overrides = dict(overrides or {})
    # ``patch.…`` overrides change the content's numbers (lab tune), ``seed`` the seed
    # (a held-out confirmation); the others are settings
    patch_overrides = {k: v for k, v in overrides.items() if k.startswith("patch.")}
    setting_overrides = {k: v for k, v in overrides.items()
                         if not k.startswith("patch.") and k != "seed"}
    if "seed" in overrides:
        raw = {**raw, "seed": overrides["seed"]}
    if setting_overrides:
        settings = raw.get("settings")
        raw = {**raw, "settings": {**(settings if isinstance(settings, dict) else {}),
                                   **setting_overrides}}
    problems = _Problems(file)
    model: _SpecModel | None = None
    try:
        model = _SpecModel.model_validate(raw)
    except ValidationError as err:
        for error in err.errors():
            problems.add(*_plain(error))
    # The checks below look at the raw spec, so that they run (and report) even where
    # another part of it failed validation.
    agents = raw.get("agents")
    for i, agent in enumerate(agents if isinstance(agents, list) else []):
        if not isinstance(agent, dict) or not isinstance(agent.get("name"), str):
            continue
        name = agent["name"]
        if name not in AGENTS:
            problems.add(f"agents[{i}].name", _unknown("agent", name, list(AGENTS)))
        elif name in NEEDS_NODES and agent.get("nodes") is None:
            problems.add(f"agents[{i}].nodes", f"{name} needs a node budget (nodes = N) "
                         "so that the run is reproducible")
    content_dir = None
    content: Content | None = default_content()
    ruleset = None
    if isinstance(raw.get("ruleset"), str):
        try:
            ruleset = load_ruleset(raw["ruleset"] if not raw["ruleset"].endswith(".toml")
                                   else file.parent / raw["ruleset"])
        except RulesetError as err:
            problems.add("ruleset", str(err))
    if isinstance(raw.get("content"), str):
        content_dir = (file.parent / raw["content"]).resolve()
    if content_dir is not None or ruleset is not None or patch_overrides:
        try:
            if patch_overrides:
                patch = merge_patch(ruleset.patch if ruleset is not None else {},
                                    patch_overrides)
                content = patched_content(patch, f"{file.name} (patch overrides)",
                                          content_dir)
            elif ruleset is not None:
                content = ruleset.content(content_dir)
            else:
                content = load_content(content_dir)
        except ContentError as err:
            problems.add("content", str(err))
            content = None
    raw_settings = raw.get("settings", {})
    if ruleset is not None and isinstance(raw_settings, Mapping):
        # the ruleset's settings are the spec's defaults; the spec's own come on top
        raw_settings = {**ruleset.settings, **raw_settings}
    grid = _settings_grid(problems, raw_settings, content)
    setups = _setups(problems, raw, content)
    pairings: list[tuple[str, str] | None] = []
    factions = raw.get("factions", "all")
    faction_ids = [f.id for f in content.factions] if content is not None else []
    if factions == "all":
        pairings = [(a, b) for a in faction_ids for b in faction_ids if a != b]
    elif factions == "free":
        pairings = [None]
    elif isinstance(factions, list) and content is not None:
        for i, pair in enumerate(factions):
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(f, str) for f in pair)):
                continue                      # already reported by the validation
            a, b = pair
            unknown = [fid for fid in (a, b) if fid not in faction_ids]
            for fid in unknown:
                problems.add(f"factions[{i}]", _unknown("faction", fid, faction_ids))
            if a == b:
                problems.add(f"factions[{i}]", "a pairing needs two different factions (S3)")
            elif not unknown:
                pairings.append((a, b))
        if not factions:
            problems.add("factions", 'an empty list; use "all", "free" or pairs')
    keep = raw.get("keep_records", [])
    keep = [keep] if isinstance(keep, str) else keep
    if isinstance(keep, list):
        for i, k in enumerate(keep):
            if k not in KEEP_CHOICES:
                problems.add(f"keep_records[{i}]",
                             _unknown("choice", k, list(KEEP_CHOICES)))
    problems.raise_any()
    assert model is not None and content is not None
    return LabSpec(path=file, name=model.name or file.stem, seed=model.seed,
                   games_per_cell=model.games_per_cell, settings_grid=grid,
                   agents=list(model.agents), pairings=pairings, content=content,
                   custom_content=content.fingerprint != default_content().fingerprint,
                   text=text, overrides=dict(overrides or {}), content_dir=content_dir,
                   keep_records=tuple(dict.fromkeys(keep)), setups=setups,
                   ruleset=ruleset.name if ruleset is not None else DEFAULT_RULESET)


def _setups(problems: _Problems, raw: Mapping[str, Any], content: Content | None
            ) -> list[Setup]:
    """The setups the design rotates through: every rite assignment (``rites``) crossed
    with every first mover (``first``); what is "free" stays the agents' and the deal's."""
    rites_raw, first_raw = raw.get("rites", "free"), raw.get("first", "free")
    rite_ids = [r.id for r in content.rites] if content is not None else []
    assignments: list[tuple[str, str] | None] = [None]
    if rites_raw == "balanced":
        assignments = [(a, b) for a in rite_ids for b in rite_ids if a != b]
    elif isinstance(rites_raw, list) and content is not None:
        assignments = []
        for i, pair in enumerate(rites_raw):
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(r, str) for r in pair)):
                continue                      # reported by the validation
            unknown = [r for r in pair if r not in rite_ids]
            for r in unknown:
                problems.add(f"rites[{i}]", _unknown("rite", r, rite_ids))
            if pair[0] == pair[1]:
                problems.add(f"rites[{i}]", "the two players draft different rites (S5)")
            elif not unknown:
                assignments.append((pair[0], pair[1]))
        if not rites_raw:
            problems.add("rites", 'an empty list; use "free", "balanced" or pairs')
    choices: dict[str, list[int | None]] = {"balanced": [0, 1], "key": [0], "skull": [1]}
    firsts = choices.get(str(first_raw), [None])
    return [(r, f) for r in assignments for f in firsts] or [(None, None)]


def load_spec(path: str | Path, overrides: Mapping[str, Any] | None = None) -> LabSpec:
    """Read and validate a spec file (see the module docstring for the format)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError(path, "(file)", f"cannot read: {err.strerror}") from None
    return parse_spec(text, path, overrides)
