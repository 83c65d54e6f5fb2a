"""``lab tune``: search the rule variants (RULES.md §11) and the content's numbers (a
ruleset's patch: ``patch.factions.grave-tide.hero_hp`` …) for a ruleset that meets a
designer's targets, with Optuna (TPE sampler, seeded); then confirm the best on fresh
seeds, held out from the tuning.

Each trial is a lab run of the base spec with the trial's settings, stored in its own
folder named by those settings — a setting tried twice, or a resumed study (the study
lives in ``study.db``), reuses the games already played. The objective is 0 when every
target is met and grows with each miss, measured in units of its tolerance:

    max(0, cap − cap_max)/cap_max + max(0, |first − ½| − fpa_tol)/fpa_tol
      + max(0, max_f |score_f − ½| − faction_tol)/faction_tol
      + max(0, max_r |score_r − ½| − rite_tol)/rite_tol
      + max(0, draws − draw_max)/draw_max + max(0, min_rounds − rounds)/min_rounds

(a tolerance of 0, such as ``cap_max = 0``, counts in units of 1%). The last two
guard against a degenerate optimum: without them a rule that ends every
game in a draw before the armies meet meets the first three targets perfectly (a draw
is half a point to everyone), and the search finds it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import metrics
from .runner import run_spec
from .spec import LabSpec, parse_spec
from .store import Store

#: The variant space searched by default: setting -> choices.
SPACE: dict[str, list[Any]] = {
    "regroup_limit": [None, 0, 1, 2, 3, 4],
    "vigil_reset": ["any", "hero"],
    "vigil_start": [1, 2, 3, 4, 5, 6],
    "killed_minions": ["pool", "removed"],
}


@dataclass(frozen=True)
class Targets:
    """The designer's targets (defaults from issue 8)."""

    cap_max: float = 0.02        # round-cap rate below this
    fpa_tol: float = 0.03        # first-player score within ½ ± this
    faction_tol: float = 0.05    # every faction's overall score within ½ ± this
    draw_max: float = 0.15       # draw rate below this
    min_rounds: float = 15.0     # mean game length at least this many rounds
    rite_tol: float = 0.05       # every rite's score within ½ ± this (where rites vary)


def measure(table: Any) -> dict[str, Any]:
    """The figures a trial is judged on, with their intervals."""
    cap = metrics.round_cap_rate(table)
    fpa = metrics.first_player_advantage(table)
    factions = metrics.faction_scores(table)
    worst = max((abs(s - 0.5) for s in factions["score"].to_list()), default=0.0)
    draws = metrics.draw_rate(table)
    rites = metrics.rite_win_rates(table)
    rite_worst = (max((abs(s - 0.5) for s in rites["score"].to_list()), default=0.0)
                  if len(rites) >= 2 else 0.0)
    return {"games": len(table), "rite_worst": rite_worst,
            "cap_rate": cap["value"], "cap_low": cap["low"],
            "draw_rate": draws["value"], "draw_low": draws["low"], "draw_high": draws["high"],
            "cap_high": cap["high"], "first_player": fpa["score"], "fpa_low": fpa["low"],
            "fpa_high": fpa["high"], "faction_worst": worst,
            "faction_spread": metrics.faction_spread(table),
            "mean_rounds": metrics.mean_length(table)}


def objective_value(m: dict[str, Any], t: Targets) -> float:
    """0 when every target is met; otherwise the misses in units of their tolerance."""
    def unit(tol: float) -> float:
        return max(tol, 0.01)

    if m.get("games", 1) == 0:   # every game failed: nothing measured, nothing met
        return math.inf

    return float(max(0.0, m["cap_rate"] - t.cap_max) / unit(t.cap_max)
            + max(0.0, abs(m["first_player"] - 0.5) - t.fpa_tol) / unit(t.fpa_tol)
            + max(0.0, m["faction_worst"] - t.faction_tol) / unit(t.faction_tol)
            + max(0.0, m.get("rite_worst", 0.0) - t.rite_tol) / unit(t.rite_tol)
            + max(0.0, m["draw_rate"] - t.draw_max) / unit(t.draw_max)
            + max(0.0, t.min_rounds - m["mean_rounds"]) / max(t.min_rounds, 1.0))


#: A confirmation plays the base spec with its seed moved by this much: other games
#: than every trial's (each game's seeds are a hash of the spec's seed and its cell).
CONFIRM_SEED_OFFSET = 1_000_003


def _trial_dir(out: Path, settings: dict[str, Any], patch: dict[str, Any] | None = None,
               folder: str = "trials") -> Path:
    key: Any = settings if not patch else {"settings": settings, "patch": patch}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    return out / folder / digest


def setting_overrides(choices: dict[str, Any]) -> dict[str, Any]:
    """A trial's choices as spec overrides: ``modules`` is chosen as one word (Optuna's
    choices are plain values) — ``none``, ``keepers``, ``glory+keepers`` — and given to
    the spec as the list of modules on; so is a module option that is a set of names.

    >>> setting_overrides({"modules": "glory+keepers", "vigil_start": 4})
    {'modules': ['glory', 'keepers'], 'vigil_start': 4}
    >>> setting_overrides({"modules": None})
    {'modules': []}
    >>> setting_overrides({"conditions.actions": "focus+tend", "keepers.target": "ruins+1"})
    {'conditions.actions': ['focus', 'tend'], 'keepers.target': 'ruins+1'}
    """
    out = dict(choices)
    if "modules" in out:
        on = out["modules"]
        out["modules"] = ([] if on in (None, "", "none") else
                          [m for m in str(on).split("+") if m] if isinstance(on, str)
                          else list(on))
    for key, value in out.items():
        # an option that is a set of names is chosen as one word too: focus+tend
        if isinstance(value, str) and _is_name_set(key):
            out[key] = [v for v in value.split("+") if v]
    return out


def _is_name_set(key: str) -> bool:
    """Whether ``key`` is a module option whose value is a set of names
    (``conditions.actions``)."""
    from ..engine.modules import get

    module, _, option = key.partition(".")
    if not option or module == "patch":
        return False
    try:
        spec = get(module).options.get(option)
    except ValueError:
        return False
    return spec is not None and bool(spec.subset)


def _played(choices: dict[str, Any]) -> dict[str, Any]:
    """A trial's choices as played: a module's option is left out where the trial's
    modules do not include it (it changed nothing there).

    >>> _played({"modules": "keepers", "glory.phases": 4, "keepers.target": 7})
    {'modules': 'keepers', 'keepers.target': 7}
    """
    if "modules" not in choices:
        return dict(choices)
    on = setting_overrides({"modules": choices["modules"]})["modules"]
    return {k: v for k, v in choices.items()
            if "." not in k or k.startswith("patch.") or k.split(".")[0] in on}


def _patch_of(overrides: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sorted(overrides.items()) if k.startswith("patch.")}


def tune(spec_text: str, spec_file: str | Path, out: str | Path, trials: int = 20,
         targets: Targets | None = None, space: dict[str, list[Any]] | None = None,
         seed: int = 0, workers: int | None = None, ray_address: str | None = None,
         on_trial: Callable[[int, dict[str, Any], dict[str, Any]], None] | None = None,
         ) -> list[dict[str, Any]]:
    """Run ``trials`` Optuna trials; every trial as a dict (settings, measures, objective,
    targets met), best first. The study is stored in ``out/study.db`` and resumed."""
    import optuna

    targets = targets or Targets()
    space = space or SPACE
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parse_spec(spec_text, spec_file)  # a bad base spec fails before any trial
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name="reliquary-tune", storage=f"sqlite:///{out / 'study.db'}",
        load_if_exists=True, direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=seed))

    def objective(trial: optuna.Trial) -> float:
        overrides = {name: trial.suggest_categorical(name, choices)
                     for name, choices in space.items()}
        spec: LabSpec = parse_spec(spec_text, spec_file, setting_overrides(overrides))
        run_dir = _trial_dir(out, spec.settings_grid[0], _patch_of(overrides))
        run_spec(spec, run_dir, workers=workers, ray_address=ray_address)
        m = measure(Store(run_dir).table())
        value = objective_value(m, targets)
        trial.set_user_attr("measures", m)
        trial.set_user_attr("run", str(run_dir))
        if on_trial:
            on_trial(trial.number, overrides, {**m, "objective": value})
        return value

    remaining = trials - len([t for t in study.trials
                              if t.state == optuna.trial.TrialState.COMPLETE])
    if remaining > 0:
        study.optimize(objective, n_trials=remaining)
    return results(study, targets)


def confirm(spec_text: str, spec_file: str | Path, out: str | Path,
            candidate: dict[str, Any], targets: Targets | None = None,
            games_per_cell: int | None = None, workers: int | None = None,
            ray_address: str | None = None) -> dict[str, Any]:
    """Play a candidate (a trial's ``settings``: variants and ``patch.…`` numbers) on
    fresh seeds — the base spec's seed moved by :data:`CONFIRM_SEED_OFFSET`, so none of
    the games that chose it — and measure it there. Stored under ``out/confirm/``."""
    targets = targets or Targets()
    base = parse_spec(spec_text, spec_file)
    overrides = {**setting_overrides(candidate), "seed": base.seed + CONFIRM_SEED_OFFSET}
    spec = parse_spec(spec_text, spec_file, overrides)
    if games_per_cell:
        spec.override_games_per_cell(games_per_cell)
    run_dir = _trial_dir(Path(out), spec.settings_grid[0], _patch_of(candidate), "confirm")
    run_spec(spec, run_dir, workers=workers, ray_address=ray_address)
    m = measure(Store(run_dir).table())
    value = objective_value(m, targets)
    return {"settings": candidate, "objective": value, "targets_met": value == 0.0,
            "run": str(run_dir), "seed": spec.seed, **m}


def results(study: Any, targets: Targets) -> list[dict[str, Any]]:
    """Completed trials, best first; a setting the sampler tried again (same games, same
    figures) is listed once, under its first trial."""
    import optuna

    rows = []
    seen: set[str] = set()
    for t in study.trials:
        if t.state != optuna.trial.TrialState.COMPLETE:
            continue
        played = _played(t.params)
        key = json.dumps(played, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        m = t.user_attrs["measures"]
        rows.append({"trial": t.number, "settings": played, "objective": t.value,
                     "targets_met": bool(t.value == 0.0), "run": t.user_attrs["run"], **m})
    rows.sort(key=lambda r: (r["objective"], r["cap_rate"], r["trial"]))
    return rows


def markdown(rows: list[dict[str, Any]], targets: Targets, top: int = 10) -> str:
    """The best candidates as a Markdown table."""
    lines = [f"Targets: round-cap rate ≤ {targets.cap_max:.0%}, first-player score within "
             f"50 ± {targets.fpa_tol:.0%}, every faction within 50 ± "
             f"{targets.faction_tol:.0%}, every rite within 50 ± {targets.rite_tol:.0%}, "
             f"draw rate < {targets.draw_max:.0%}, mean length "
             f"≥ {targets.min_rounds:.0f} rounds. 'met' is by the point figures: the intervals say "
             "how far to trust them; confirm a candidate with a larger run.", "",
             "| trial | settings | games | cap rate [95%] | draw rate [95%] | "
             "first player [95%] | worst faction off ½ | worst rite off ½ | mean rounds | "
             "objective | met |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows[:top]:
        settings = ", ".join(f"{k}={v}" for k, v in r["settings"].items())
        lines.append(
            f"| {r['trial']} | {settings} | {r['games']} | {r['cap_rate']:.1%} "
            f"[{r['cap_low']:.1%}, {r['cap_high']:.1%}] | {r['draw_rate']:.1%} "
            f"[{r['draw_low']:.1%}, {r['draw_high']:.1%}] | {r['first_player']:.1%} "
            f"[{r['fpa_low']:.1%}, {r['fpa_high']:.1%}] | {r['faction_worst']:.1%} | "
            f"{r.get('rite_worst', 0.0):.1%} | {r['mean_rounds']:.1f} | {r['objective']:.2f} | "
            f"{'yes' if r['targets_met'] else 'no'} |")
    if rows and not math.isfinite(rows[0]["objective"]):
        lines.append("(no finite objective)")
    return "\n".join(lines) + "\n"


def confirmed_markdown(held_out: dict[str, Any], chosen: dict[str, Any]) -> str:
    """The held-out confirmation beside the tuning figures of the same candidate."""
    def row(label: str, r: dict[str, Any]) -> str:
        return (f"| {label} | {r['games']} | {r['cap_rate']:.1%} [{r['cap_low']:.1%}, "
                f"{r['cap_high']:.1%}] | {r['draw_rate']:.1%} [{r['draw_low']:.1%}, "
                f"{r['draw_high']:.1%}] | {r['first_player']:.1%} [{r['fpa_low']:.1%}, "
                f"{r['fpa_high']:.1%}] | {r['faction_worst']:.1%} | "
                f"{r.get('rite_worst', 0.0):.1%} | {r['mean_rounds']:.1f} | "
                f"{r['objective']:.2f} |")
    settings = ", ".join(f"{k}={v}" for k, v in held_out["settings"].items())
    return "\n".join([
        f"Held-out confirmation of the best candidate ({settings}) on fresh seeds (spec "
        f"seed {held_out['seed']}; none of the games that chose it): {held_out['run']}", "",
        "| games | n | cap rate [95%] | draw rate [95%] | first player [95%] | worst "
        "faction off ½ | worst rite off ½ | mean rounds | objective |",
        "|---|---|---|---|---|---|---|---|---|",
        row("tuning (chose it)", chosen), row("fresh seeds", held_out),
        "", "targets met on fresh seeds: " + ("yes" if held_out["targets_met"] else "no"),
    ]) + "\n"
