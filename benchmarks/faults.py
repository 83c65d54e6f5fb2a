"""Fault injection: do the tests notice a realistic fault? (issue 31; a script, not a test)

A hand-kept list of small faults (:data:`FAULTS`) — a limit off by one, a flipped sign,
a wrong default, a skipped check, a missing field — each a source edit in one module of
the package. The script copies ``src/reliquary`` once into a temporary folder (never
touching the working tree, which others may be editing), then for each fault applies
its edit to the copy, runs that module's tests against the copy (``PYTHONPATH`` points
at it; the pure-Python engine, ``RELIQUARY_PURE=1``), and puts the file back. A fault
is *caught* when the tests fail (or hang past the time limit), *missed* when they pass.
A test that fails on the unchanged copy too (someone's work in progress) cannot catch
anything: when one stops a fault's run, it is checked on the unchanged copy, and if it
fails there it is left out from then on (and listed at the end).

At the end it prints caught/total per area and the missed faults by name::

    python benchmarks/faults.py                      # every fault (about 10 minutes)
    python benchmarks/faults.py --area lab --area env
    python benchmarks/faults.py --only clock- --only tokens-
    python benchmarks/faults.py --list               # the faults and their tests
    python benchmarks/faults.py --json faults.json   # also write the results

A fault whose text is no longer in the source (the code moved on) is reported as
*stale* and not counted: update or drop it. See ``docs/testing.md``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from copy import copy as shallow_copy
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "reliquary"


@dataclass(frozen=True)
class Fault:
    """One realistic fault: ``edits`` (old text, new text) applied to ``module`` (a path
    under ``src/reliquary``); each old text must occur there exactly once."""

    area: str
    name: str
    module: str
    edits: tuple[tuple[str, str], ...]
    why: str  # what a user would meet
    batch: int = 1  # 1: the first list; 2: written after its tests; 0: generated
    at: int | None = None  # generated: the byte offset of its one edit (else found by text)


def fault(area: str, name: str, module: str, old: str, new: str, why: str,
          *more: tuple[str, str]) -> Fault:
    return Fault(area, name, module, ((old, new), *more), why)


def fresh(area: str, name: str, module: str, old: str, new: str, why: str,
          *more: tuple[str, str]) -> Fault:
    """A fault of the second batch (see :data:`FAULTS`)."""
    return Fault(area, name, module, ((old, new), *more), why, batch=2)


def pinned(area: str, name: str, module: str, old: str, new: str, why: str) -> Fault:
    """A survivor of a generated sample (A: seed 1, B: seed 2), pinned by a test
    afterwards and kept here as a text fault so that the pin stays checked (batch 3)."""
    return Fault(area, name, module, ((old, new),), why, batch=3)


# ---------------------------------------------------------------------- the tests per module
#: The tests a fault in each module is run against (its own tests; slow end-to-end
#: suites are left to CI). Paths are relative to the repository root.
TESTS: dict[str, tuple[str, ...]] = {
    "web/guard.py": ("tests/web/test_pinned_web.py", "tests/web/test_trust.py",
                     "tests/web/test_hardening.py", "tests/web/test_guard_exact.py",
                     "tests/web/test_guard_contract.py"),
    "web/schemas.py": ("tests/web/test_pinned_clock.py", "tests/web/test_pinned_web.py",
                       "tests/web/test_trust.py", "tests/web/test_record_bounds.py",
                       "tests/web/test_schema_edges.py",
                       # the API page's field descriptions and the bounds they state
                       "tests/web/test_schema_docs.py"),
    "web/clock.py": ("tests/web/test_pinned_clock.py", "tests/web/test_clock_view.py",
                     "tests/web/test_clock_track.py", "tests/web/test_clock_reference.py",
                     "tests/web/test_clock_restart.py", "tests/web/test_clock_absent.py",
                     "tests/web/test_clock_view_hundredths.py", "tests/web/test_clock_timer.py",
                     # a game pushed out of the cache still ends on time
                     "tests/web/test_clock_evicted.py",
                     "tests/web/test_capacity.py::test_a_clock_running_out_loses_the_game_on_time",
                     "tests/web/test_capacity.py::test_the_clock_ends_a_game_with_nobody_connected"),
    "web/games.py": ("tests/web/test_pinned_web.py", "tests/web/test_pinned_clock.py",
                     "tests/web/test_trust.py", "tests/web/test_api.py",
                     "tests/web/test_last_turn.py", "tests/web/test_rematch_links.py",
                     "tests/web/test_view_links.py", "tests/web/test_view_every_decision.py",
                     "tests/web/test_undo_reference.py", "tests/web/test_last_turn_reference.py",
                     # a game under a ruleset keeps it (web/games.py ruleset_fields)
                     "tests/web/test_ruleset_kept.py",
                     # seats by token, settings' refusals, concessions, notes, the JSON
                     "tests/web/test_games_contract.py"),
    "engine/visibility.py": ("tests/web/test_pinned_web.py",),
    "web/ai_pool.py": ("tests/web/test_pinned_web.py", "tests/web/test_ai_memory.py",
                       "tests/web/test_capacity.py::test_ai_games_show_the_ai_status_evaluation"
                       "_and_hints",
                       # the pool's bound and queue, and a think stopped when its player
                       # leaves (AIPool.stop)
                       "tests/web/test_capacity.py::test_the_pool_bounds_searches_and_queues"
                       "_the_rest", "tests/web/test_ai_turns.py",
                       "tests/web/test_worker_parent.py", "tests/web/test_ai_pool_queue.py",
                       "tests/web/test_ai_worker_seed.py", "tests/web/test_worker_parent_look.py",
                       "tests/web/test_ai_prefork.py", "tests/web/test_ai_budget_turns.py",
                       "tests/web/test_ai_draft_in_process.py",
                       "tests/web/test_ai_pool_contract.py",
                       "tests/web/test_ai_choose_contract.py",
                       "tests/web/test_ai_pool_memory_bounds.py",
                       # a worker's start, rulesets, lines and plans, the think's value,
                       # setup and fallback choices, the queue's fallback, broken workers
                       "tests/web/test_ai_pool_edges.py",
                       # the view's AI status and bar for either human seat
                       "tests/web/test_view_every_decision.py",
                       # the workers get a game's kept ruleset patch with its position
                       "tests/web/test_ruleset_kept.py"),
    "web/live.py": ("tests/web/test_pinned_web.py", "tests/web/test_live_watchers.py",
                    "tests/web/test_capacity.py::test_sqlite_watchers_see_another_process_by_a_slow_poll",
                    # the AI driver asks the hub whether a game is watched
                    "tests/web/test_ai_turns.py::test_a_queued_ai_turn_is_dropped_when_its_player_leaves",
                    "tests/web/test_ai_turns.py::test_a_watched_game_s_queued_turn_waits_for_its_worker",
                    "tests/web/test_live_poll_off.py", "tests/web/test_live_poll_idle.py",
                    "tests/web/test_live_contract.py",
                    # the PostgreSQL channel with a stand-in connection (no server here)
                    "tests/web/test_live_postgres_paths.py",
                    # each idle close and ping at its period on a fake clock
                    "tests/web/test_live_timing.py"),
    "lab/metrics.py": ("tests/lab/test_pinned_lab.py", "tests/lab/test_metrics.py",
                       "tests/lab/test_points_and_comebacks.py", "tests/lab/test_design.py",
                       "tests/lab/test_metrics_reference.py", "tests/lab/test_rite_prior.py",
                       "tests/lab/test_run_spec_callbacks.py",
                       "tests/lab/test_metrics_contract.py"),
    "lab/sprt.py": ("tests/lab/test_pinned_lab.py", "tests/lab/test_sprt.py",
                    "tests/lab/test_sprt_reference.py", "tests/lab/test_sprt_contract.py"),
    "lab/spec.py": ("tests/lab/test_pinned_lab.py", "tests/lab/test_spec.py",
                    "tests/lab/test_design.py", "tests/lab/test_modules_spec.py",
                    "tests/lab/test_spec_bounds.py", "tests/lab/test_spec_errors.py",
                    "tests/lab/test_spec_grid.py", "tests/lab/test_custom_content_games.py",
                    "tests/lab/test_seeds_kept.py", "tests/lab/test_design_balanced_flag.py",
                    "tests/lab/test_spec_contract.py", "tests/lab/test_same_dice.py"),
    "lab/runner.py": ("tests/lab/test_pinned_lab.py", "tests/lab/test_spec.py",
                      "tests/lab/test_metrics.py", "tests/lab/test_row_columns.py",
                      "tests/lab/test_kept_records.py", "tests/lab/test_ray_retries.py",
                      # the local workers' retries, a killed worker, Ctrl-C
                      "tests/lab/test_faults.py", "tests/lab/test_custom_content_games.py",
                      "tests/lab/test_run_spec_callbacks.py",
                      # in this process: run_spec, the retries, the worker loop, streams
                      "tests/lab/test_runner_contract.py", "tests/lab/test_same_dice.py",
                      "tests/lab/test_glory_module_lab.py"),
    "printing/tokens.py": ("tests/printing/test_pinned_print.py",
                           "tests/printing/test_board_tokens_rules.py",
                           "tests/printing/test_page_bounds.py",
                           "tests/printing/test_token_discs.py",
                           "tests/printing/test_token_scale.py",
                           "tests/printing/test_token_letters.py",
                           "tests/printing/test_tokens_contract.py",
                           "tests/printing/test_titles_fit.py",
                           # each token's art, the sheet call by call, the groups
                           "tests/printing/test_tokens_art.py"),
    "printing/sheets.py": ("tests/printing/test_pinned_print.py", "tests/printing/test_sheets.py",
                           "tests/printing/test_page_bounds.py",
                           "tests/printing/test_titles_fit.py",
                           # the grid, every crop mark, the title line, the pages
                           "tests/printing/test_sheets_contract.py"),
    "printing/export.py": ("tests/printing/test_pinned_print.py", "tests/printing/test_export.py",
                           "tests/printing/test_export_exact.py",
                           "tests/printing/test_png_bleed.py",
                           "tests/printing/test_export_contract.py"),
    "web/print_routes.py": ("tests/printing/test_web.py",
                            "tests/printing/test_print_route_errors.py",
                            "tests/printing/test_print_route_contract.py"),
    "env/encoding.py": ("tests/env/test_planes.py", "tests/env/test_encoding.py",
                        "tests/env/test_layouts.py", "tests/env/test_modules_env.py",
                        "tests/env/test_conditions_module_env.py",
                        "tests/env/test_action_ranges.py", "tests/env/test_every_plane.py",
                        "tests/env/test_encoding_refusals.py",
                        "tests/env/test_encoding_contract.py",
                        # the modules' own board planes and scalars (Keepers, Glory)
                        "tests/env/test_keepers_module_env.py::test_token_planes_wayshrine_plane"
                        "_and_points",
                        "tests/env/test_glory_module_env.py::test_marker_planes_glory_scalars"
                        "_and_objective_actions"),
    "env/aec.py": ("tests/env/test_planes.py", "tests/env/test_pettingzoo.py",
                   "tests/env/test_aec_turn_based.py", "tests/env/test_encoding_refusals.py",
                   "tests/env/test_aec_contract.py"),
    # VAR1-VAR4 and the first turn (T8, D4); the position key (it holds VAR1's counts)
    "engine/state.py": ("tests/rules", "tests/ai/test_hashing.py", "tests/ai/test_pinned_ai.py"),
    "ai/evaluation.py": ("tests/ai/test_pinned_ai.py", "tests/ai/test_vigil.py",
                         "tests/ai/test_search.py", "tests/ai/test_eval_terms.py",
                         "tests/ai/test_eval_reference.py", "tests/ai/test_long_reach.py",
                         "tests/ai/test_eval_contract.py"),
    "ai/search.py": ("tests/ai/test_pinned_ai.py", "tests/ai/test_vigil.py",
                     "tests/ai/test_search.py", "tests/ai/test_warm_search.py",
                     "tests/ai/test_hint.py", "tests/ai/test_search_noise.py",
                     "tests/ai/test_search_reference.py", "tests/ai/test_search_bounds.py",
                     "tests/ai/test_principal_variation.py", "tests/ai/test_search_ordering.py",
                     "tests/ai/test_round_end_depth.py", "tests/ai/test_search_first_iteration.py",
                     "tests/ai/test_search_contract.py",
                     # the Dread test (M-COND) is the search's one die
                     "tests/ai/test_conditions_module_ai.py::test_the_search_never_samples_a_die"),
}

# ---------------------------------------------------------------------- the faults
FAULTS: tuple[Fault, ...] = (
    # -- web: guard, schemas, games, clock, live, AI pool -------------------------------
    fault("web", "guard-body-limit-at-size", "web/guard.py",
          "        if size > limit:\n            return size",
          "        if size >= limit:\n            return size",
          "a body of exactly the limit is refused (streamed)"),
    fault("web", "guard-declared-limit-at-size", "web/guard.py",
          "int(declared) > limit", "int(declared) >= limit",
          "a body of exactly the limit is refused (Content-Length)"),
    fault("web", "guard-client-cap-off-by-one", "web/guard.py",
          ">= self.limits.sockets_per_client", "> self.limits.sockets_per_client",
          "a client may open one socket more than its cap"),
    fault("web", "guard-game-cap-skipped", "web/guard.py",
          ">= self.limits.sockets_per_game", ">= self.limits.sockets_per_game + 1000",
          "a game takes any number of watchers"),
    fault("web", "guard-no-refill", "web/guard.py",
          "level + (now - since) * self.rate", "level",
          "a rate-limited client never gets new games again"),
    fault("web", "guard-depth-off-by-one", "web/guard.py",
          "if depth > self.limits.max_json_depth:", "if depth > self.limits.max_json_depth + 1:",
          "JSON one level deeper than the limit passes"),
    fault("web", "schema-increment-bound", "web/schemas.py",
          "le=60,", "le=600,", "an increment of ten minutes a move is accepted"),
    fault("web", "schema-initial-bound", "web/schemas.py",
          "ge=10, le=3 * 3600", "ge=1, le=3 * 3600", "a one-second clock is accepted"),
    fault("web", "clock-grace-5s", "web/clock.py",
          "if left[running] <= 0:", "if left[running] <= -5:",
          "a loss on time comes five seconds late"),
    fault("web", "clock-first-decision-timed", "web/clock.py",
          "if started[player]:", "if True:",
          "the wait for a side's first turn decision eats its clock"),
    fault("web", "clock-increment-late", "web/clock.py",
          "initial + increment * state.turns_taken[p]",
          "initial + increment * max(0, state.turns_taken[p] - 1)",
          "the first turn's increment is never added"),
    fault("web", "clock-running-half", "web/clock.py",
          "used[running] += max(0.0, now - previous)",
          "used[running] += max(0.0, now - previous) / 2",
          "the running side's clock runs at half speed"),
    fault("web", "hotseat-secret-shown", "engine/visibility.py",
          "return next(iter(seats)) if len(seats) == 1 else SPECTATOR",
          "return next(iter(seats)) if seats else SPECTATOR",
          "hot seat: the one screen sees a secret faction choice"),
    fault("web", "games-bar-for-the-ai", "web/games.py",
          "state, 1 - session.ai_seat())", "state, session.ai_seat())",
          "the evaluation bar shows the AI's side"),
    fault("web", "games-tiebreak-always", "web/games.py",
          '"tiebreak": (result.get("detail") or None)\n'
          '                  if result.get("reason") == "vigil" else None}',
          '"tiebreak": (result.get("detail") or None)}',
          "a Hero kill shows a Vigil tie-break"),
    fault("web", "pool-bar-not-turned", "web/ai_pool.py",
          "return round(-brain.value, 3)", "return round(brain.value, 3)",
          "after the AI's search the bar shows the AI's value"),
    fault("web", "pool-bar-finished-flipped", "web/ai_pool.py",
          "(1.0 if winner == human else -1.0)", "(-1.0 if winner == human else 1.0)",
          "a won game shows a full bar for the loser"),
    fault("web", "pool-spent-not-summed", "web/ai_pool.py",
          'brain.spent += result["seconds"]', 'brain.spent = result["seconds"]',
          "the AI overspends its per-turn budget on a third think"),
    fault("web", "pool-no-reserve", "web/ai_pool.py",
          "seconds = (budget * 0.85 if brain.spent == 0.0",
          "seconds = (budget if brain.spent == 0.0",
          "the first think leaves nothing for a think after a die roll"),
    fault("web", "live-client-messages-ignored", "web/live.py",
          '                return\n            activity[0] = time.monotonic()',
          '                return',
          "a socket whose client talks is still closed as idle"),
    fault("web", "live-poll-first-change-only", "web/live.py",
          "if seen.get(game_id) != fingerprint:", "if game_id not in seen:",
          "on SQLite, watchers hear of another process's first move only"),
    # -- lab ------------------------------------------------------------------------
    fault("lab", "bt-first-move-sign", "lab/metrics.py",
          'move = 1.0 if first == "key" else -1.0 if first == "skull" else 0.0',
          'move = -1.0 if first == "key" else 1.0 if first == "skull" else 0.0',
          "the first-move advantage is reported with the wrong sign"),
    fault("lab", "bt-draws-as-losses", "lab/metrics.py",
          'ys.append(1.0 if winner == "key" else 0.5 if winner is None else 0.0)',
          'ys.append(1.0 if winner == "key" else 0.0)',
          "draws count as Skull wins in the strengths"),
    fault("lab", "fpa-draws-whole", "lab/metrics.py",
          "return _score(wins + 0.5 * draws, len(first)",
          "return _score(wins + draws, len(first)",
          "a draw counts as a first-player win"),
    fault("lab", "seat-score-draws-ignored", "lab/metrics.py",
          'return _score(o["key"] + 0.5 * o["draws"]', 'return _score(o["key"]',
          "the Key seat's score leaves out its draws"),
    fault("lab", "paired-sprt-full-alpha", "lab/sprt.py",
          "self.higher = WaldSPRT(0.5, 0.5 + self.effect, self.alpha / 2, self.beta)",
          "self.higher = WaldSPRT(0.5, 0.5 + self.effect, self.alpha, self.beta)",
          "a two-sided test that false-alarms at 1.5 α"),
    fault("lab", "half-width-factor", "lab/sprt.py",
          "+ 0.5 * math.log(total / variance)", "+ math.log(total / variance)",
          "the always-valid interval is wider than it should be"),
    fault("lab", "half-width-two-dropped", "lab/sprt.py",
          "math.sqrt(2 * variance * total", "math.sqrt(variance * total",
          "the always-valid interval is too narrow: false alarms"),
    fault("lab", "wald-upper-bound", "lab/sprt.py",
          "math.log((1 - self.beta) / self.alpha)", "math.log(1 / self.alpha)",
          "Wald's upper threshold ignores β"),
    fault("lab", "cs-equivalence-or", "lab/sprt.py",
          "if -self.margin < low and high < self.margin:",
          "if -self.margin < low or high < self.margin:",
          "'no difference' declared with an interval far wider than the margin"),
    fault("lab", "spec-hash-no-pairings", "lab/spec.py",
          '"pairings": self.pairings, ', "",
          "a resumed run mixes two tournaments with different faction pairings"),
    fault("lab", "spec-all-same-faction", "lab/spec.py",
          "for b in faction_ids if a != b]", "for b in faction_ids]",
          '"all" pairs a faction with itself'),
    fault("lab", "runner-kills-other-seat", "lab/runner.py",
          'killed[data["owner"]] += 1', 'killed[1 - data["owner"]] += 1',
          "kills credited to the killer's seat, not the victim's"),
    fault("lab", "runner-tiebreak-always", "lab/runner.py",
          '"tiebreak": result.detail if result.reason == "vigil" else None,',
          '"tiebreak": result.detail,', "the tie-break column filled for every ending"),
    fault("lab", "runner-rounds-plus-one", "lab/runner.py",
          '"rounds": state.rounds,', '"rounds": state.rounds + 1,',
          "game lengths one round too long"),
    # -- printing -------------------------------------------------------------------
    fault("printing", "tokens-damage-one-hero", "printing/tokens.py",
          "[_damage] * (2 * max_hp + SPARE_DAMAGE)", "[_damage] * (max_hp + SPARE_DAMAGE)",
          "damage tokens for one Hero only"),
    fault("printing", "tokens-no-spare-minions", "printing/tokens.py",
          "* (max_minions + SPARE_MINIONS))", "* max_minions)",
          "no Minions for the rites' new ones"),
    fault("printing", "tokens-ruins-short", "printing/tokens.py",
          "[ruin] * max_ruins", "[ruin] * (max_ruins - 1)", "one Ruin token short"),
    fault("printing", "tokens-harrow-three", "printing/tokens.py",
          "[_harrow] * 4", "[_harrow] * 3", "three Harrow marks instead of four"),
    fault("printing", "sheets-order-bottom-up", "printing/sheets.py",
          "self.y0 + (self.rows - 1 - row) * self.pitch_y", "self.y0 + row * self.pitch_y",
          "cards fill the sheet from the bottom"),
    fault("printing", "sheets-crop-gap-zero", "printing/sheets.py",
          "CROP_GAP = 1.0 * mm", "CROP_GAP = 0.0 * mm", "crop marks touch the cards"),
    fault("printing", "sheets-bleed-not-centred", "printing/sheets.py",
          "x0 = (page[0] - cols * pitch_x) / 2 + bleed", "x0 = (page[0] - cols * pitch_x) / 2",
          "with bleed the cards sit off their bleed boxes, into the margin"),
    fault("printing", "sheets-one-margin", "printing/sheets.py",
          "rows = math.floor((page[1] - 2 * MIN_MARGIN + 1e-6) / pitch_y)",
          "rows = math.floor((page[1] - MIN_MARGIN + 1e-6) / pitch_y)",
          "a row of cards too many runs into the margin"),
    fault("printing", "sheets-top-marks-inward", "printing/sheets.py",
          "c.line(x, top + above[0], x, top + above[0] + above[1])",
          "c.line(x, top - above[0], x, top - above[0] - above[1])",
          "the top crop marks are drawn into the cards"),
    fault("printing", "png-size-truncated", "printing/export.py",
          "return round(length_mm / 25.4 * dpi)", "return int(length_mm / 25.4 * dpi)",
          "PNG cards a pixel short"),
    fault("printing", "png-one-bleed", "printing/export.py",
          "pixel_size(63.5 + 2 * b, dpi), pixel_size(88.9 + 2 * b, dpi)",
          "pixel_size(63.5 + b, dpi), pixel_size(88.9 + b, dpi)",
          "PNG cards carry bleed on one side only"),
    fault("printing", "tts-no-reserved-slot", "printing/export.py",
          "per_sheet = TTS_COLUMNS * TTS_ROWS - 1", "per_sheet = TTS_COLUMNS * TTS_ROWS",
          "a 70-card deck sheet fills Tabletop Simulator's reserved slot"),
    fault("printing", "web-print-no-cache", "web/print_routes.py",
          "if cached is not None:", "if False:",
          "every download draws the PDF again", ("if key not in _cache:", "if True:")),
    fault("printing", "web-print-cache-ignores-lang", "web/print_routes.py",
          "key = (content.fingerprint, paper, lang)", "key = (content.fingerprint, paper)",
          "the English download serves the Spanish PDF"),
    # -- environments ---------------------------------------------------------------
    fault("env", "planes-hp-by-four", "env/encoding.py",
          "self._max_hp = max(f.hero_hp for f in content.factions)",
          "self._max_hp = 4", "HP scaled by 4, not the largest Hero HP"),
    fault("env", "planes-hp-own-max", "env/encoding.py",
          'min(piece.hp / self._max_hp, 1.0)', 'min(piece.hp / max(piece.max_hp, 1), 1.0)',
          "HP as a share of the piece's own maximum"),
    fault("env", "planes-no-limit-zero", "env/encoding.py",
          "1.0 if limit is None else", "0.0 if limit is None else",
          "no regroup limit reads as no regroups left"),
    fault("env", "planes-regroups-not-scaled", "env/encoding.py",
          "max(limit - state.regroups[who], 0) / limit if limit else 0.0",
          "min(max(limit - state.regroups[who], 0), 1) if limit else 0.0",
          "regroups left not scaled by the limit"),
    fault("env", "planes-rounds-fixed-cap", "env/encoding.py",
          "state.rounds / state.settings.round_cap", "state.rounds / 200",
          "rounds against the default cap, not the game's"),
    fault("env", "planes-pool-scale", "env/encoding.py",
          "state.pool[who] / self._minions", "state.pool[who] / (self._minions + 1)",
          "the pool scaled by one Minion too many"),
    fault("env", "planes-first-turn-before-setup", "env/encoding.py",
          "float(started and state.turns_taken[who] == 0)",
          "float(state.turns_taken[who] == 0)",
          "the first-turn flag is set during the setup"),
    fault("env", "planes-goes-first-key", "env/encoding.py",
          "float(state.first == player)", "float(state.first == 0)",
          "'goes first' says Key for both players"),
    fault("env", "planes-to-move-key", "env/encoding.py",
          "float(decision.player == player)", "float(decision.player == 0)",
          "'to move' says Key for both players"),
    fault("env", "aec-mask-for-both", "env/aec.py",
          "if agent == self.agent_selection and not self.engine.is_terminal",
          "if not self.engine.is_terminal",
          "the agent not to move gets the mover's legal actions"),
    # -- variants in the engine -------------------------------------------------------
    fault("variants", "var3-deal-six", "engine/state.py",
          "s.vigil = s._vigil_start  # S4; VAR3", "s.vigil = 6  # S4; VAR3",
          "VAR3: the deal sets the Vigil to 6"),
    fault("variants", "var3-reset-six", "engine/state.py",
          "self.vigil = self._vigil_start  # V1; VAR3", "self.vigil = 6  # V1; VAR3",
          "VAR3: an eventful round resets the Vigil to 6"),
    fault("variants", "var3-rite-six", "engine/state.py",
          "s.vigil = s._vigil_start  # T5, D7; VAR3", "s.vigil = 6  # T5, D7; VAR3",
          "VAR3: a rite sets the Vigil to 6"),
    fault("variants", "var1-limit-off-by-one", "engine/state.py",
          "and (limit < 0 or self.regroups[player] < limit))",
          "and (limit < 0 or self.regroups[player] <= limit))",
          "VAR1: one regroup more than the limit"),
    fault("variants", "var2-minion-damage-resets", "engine/state.py",
          "        piece.hp -= amount\n        if piece.hero or self._vigil_reset_any:",
          "        piece.hp -= amount\n        if True:",
          "VAR2: a Minion's damage resets the Vigil"),
    fault("variants", "var4-removed-to-pool", "engine/state.py",
          "self._pool_killed = settings.killed_minions == \"pool\"",
          "self._pool_killed = True", "VAR4: removed Minions still reach the pool"),
    # -- AI -------------------------------------------------------------------------
    fault("ai", "win-later-is-better", "ai/evaluation.py",
          "return WIN - ply if winner == player else -WIN + ply",
          "return WIN + ply if winner == player else -WIN - ply",
          "the search prefers a slower win and a sooner loss"),
    fault("ai", "danger-threshold", "ai/evaluation.py",
          "danger = 1.0 if pieces[h].hp > 2 else 1.6",
          "danger = 1.0 if pieces[h].hp > 1 else 1.6",
          "a Hero at 2 HP is not treated as in danger"),
    fault("ai", "t8-in-can-reset-skipped", "ai/evaluation.py",
          "        return False  # T8: no damage on the first turn, or no ATTACK at all "
          "(no_attack)\n    targets = HEROES",
          "        pass  # T8: no damage on the first turn, or no ATTACK at all "
          "(no_attack)\n    targets = HEROES",
          "a first-turn attack is counted as a Vigil reset (T8)"),
    fault("ai", "t8-in-can-reset-wrong-player", "ai/evaluation.py",
          "    if state.turns_taken[player] == 0:\n        return False  # T8: no damage on "
          "the first turn, or no ATTACK at all (no_attack)\n    targets = HEROES",
          "    if 0 in state.turns_taken:\n        return False  # T8: no damage on "
          "the first turn, or no ATTACK at all (no_attack)\n    targets = HEROES",
          "T8 read from the other player's first turn"),
    fault("ai", "last-hp-threshold", "ai/evaluation.py",
          "(0.0 if p.hp > 1 else -w.hero_last_hp)", "(0.0 if p.hp > 2 else -w.hero_last_hp)",
          "a Hero at 2 HP is scored as at its last"),
    fault("ai", "en-prise-strict", "ai/evaluation.py",
          "if reach_damage >= hero.hp:", "if reach_damage > hero.hp:",
          "a Hero that can be killed exactly is not seen as en prise"),
    fault("ai", "vigil-clock-short", "ai/evaluation.py",
          "return leader, state.settings.vigil_start + 1",
          "return leader, state.settings.vigil_start",
          "the Vigil clock counts one round too few after an eventful round"),
    fault("ai", "regroupable-limit-ignores-used", "ai/evaluation.py",
          "pool = min(pool, max(settings.regroup_limit - state.regroups[player], 0))",
          "pool = min(pool, settings.regroup_limit)",
          "regroups already played still count as to come"),
    fault("ai", "search-own-line-repetition", "ai/search.py",
          "(rkey in self.seen or rkey in self.path)", "rkey in self.seen",
          "the search does not see a loop on its own line"),
    fault("ai", "search-path-never-popped", "ai/search.py",
          "left = self.path[rkey] - 1", "left = self.path[rkey]",
          "turn starts stay on the path: false repetitions on other lines"),
    fault("ai", "search-contempt-sign", "ai/search.py",
          "return -self.weights.contempt  # a loop", "return self.weights.contempt  # a loop",
          "a repetition is valued as a small win"),
    fault("ai", "search-root-repetition", "ai/search.py",
          "if ply > 0 and (rkey", "if ply >= 0 and (rkey",
          "the root position counts as its own repetition"),

    # -- the second batch: written after the tests above, to measure them afresh -------
    fresh("web", "guard-game-cap-off-by-one", "web/guard.py",
          "elif self.open_per_game.get(game_id, 0) >= self.limits.sockets_per_game:",
          "elif self.open_per_game.get(game_id, 0) > self.limits.sockets_per_game:",
          "a game takes one watcher more than its cap"),
    fresh("web", "guard-text-plain-posts", "web/guard.py",
          'if kind != b"application/json":',
          'if kind not in (b"application/json", b"text/plain"):',
          "a cross-site form can post (text/plain)"),
    fresh("web", "clock-timer-late", "web/clock.py",
          "self.schedule(game_id, (time.time() if now is None else now) + left[running])",
          "self.schedule(game_id, (time.time() if now is None else now) + left[running] + 5)",
          "with nobody connected, a game ends on time five seconds late"),
    fresh("web", "games-undo-online", "web/games.py",
          '"undo": row.mode in ("ai", "hotseat")',
          '"undo": row.mode in ("ai", "hotseat", "online")',
          "an online view offers an undo the server refuses"),
    fresh("web", "pool-no-floor", "web/ai_pool.py",
          "else max(budget - brain.spent, budget * 0.05))", "else max(budget - brain.spent, 0.0))",
          "an AI over its turn's budget thinks for no time at all"),
    fresh("web", "schema-round-cap-default", "web/schemas.py",
          "round_cap: StrictInt = Field(200,", "round_cap: StrictInt = Field(100,",
          "new games get a round cap of 100, not the rules' 200"),
    fresh("lab", "fpa-decisive-share", "lab/metrics.py",
          "decisive_share=wins / decisive if decisive",
          "decisive_share=wins / len(first) if decisive",
          "the first player's share of decisive games counts the draws"),
    fresh("lab", "cs-half-burn-in", "lab/sprt.py",
          "if self.n < self.burn_in:", "if self.n < self.burn_in // 2:",
          "the confidence sequence decides before its burn-in"),
    fresh("lab", "spec-hash-no-agents", "lab/spec.py",
          '"agents": [a.model_dump(exclude={"label"}) for a in self.agents],', "",
          "a resumed run mixes games of other agents"),
    fresh("lab", "runner-hero-damage-swapped", "lab/runner.py",
          '"hero_damage_key": hero_damage[0], "hero_damage_skull": hero_damage[1],',
          '"hero_damage_key": hero_damage[1], "hero_damage_skull": hero_damage[0],',
          "Hero damage credited to the other seat"),
    fresh("lab", "runner-vigil-min-max", "lab/runner.py",
          'vigil_min = min(vigil_min, data["value"])', 'vigil_min = max(vigil_min, data["value"])',
          "the lowest Vigil column shows the highest"),
    fresh("printing", "tokens-two-key-relics", "printing/tokens.py",
          '[_relic("key"), _relic("skull")]', '[_relic("key"), _relic("key")]',
          "two Key relics and no Skull relic"),
    fresh("printing", "sheets-marks-every-column", "printing/sheets.py",
          "cols_used = min(count, grid.cols)", "cols_used = grid.cols",
          "a short last page gets crop marks for cards it does not have"),
    fresh("printing", "png-names-unpadded", "printing/export.py",
          'name = f"{number:02d}-{face.kind}', 'name = f"{number}-{face.kind}',
          "PNG files sort out of card order (10 before 2)"),
    fresh("env", "planes-harrowed-shows-veiled", "env/encoding.py",
          'cell[idx["harrowed"]] = piece.harrowed', 'cell[idx["harrowed"]] = piece.veiled',
          "the harrowed plane shows Veil"),
    fresh("env", "planes-enemy-back-row-own", "env/encoding.py",
          'out[n - 1 - back, :, idx["enemy_back_row"]] = 1.0',
          'out[back, :, idx["enemy_back_row"]] = 1.0', "the enemy back row drawn on one's own"),
    fresh("ai", "threat-near-radius", "ai/evaluation.py",
          "            elif d == 2:", "            elif d <= 3:",
          "enemies three squares away count as a threat to the Hero"),
    fresh("ai", "vigil-looms-late", "ai/evaluation.py",
          "if state.vigil <= 3:  # V2 looms", "if state.vigil <= 2:  # V2 looms",
          "the carriers' halves count a round late"),
    fresh("variants", "var1-zero-is-no-limit", "engine/state.py",
          "self._regroup_limit = -1 if limit is None else limit",
          "self._regroup_limit = limit or -1", "VAR1 regroup_limit=0 allows any number"),)


#: Batch 3: the survivors of the generated samples A and B (``--generate 10 --seed 1``,
#: ``--seed 2 --avoid 1``) that a test now catches (docs/testing.md explains the others).
PINNED: tuple[Fault, ...] = (
    pinned("web", "a-json-depth-byte-255", "web/guard.py",
           "range(256) if b not in", "range(255) if b not in",
           "a stray 0xFF byte reads as 254 levels of nesting"),
    pinned("web", "a-ai-queue-default", "web/ai_pool.py",
           "8 * self.max_thinking + 8", "8 / self.max_thinking + 8",
           "the AI queue is not 8 × workers + 8 as documented"),
    pinned("web", "a-rate-per-30s", "web/guard.py",
           "self.rate = per_minute / 60.0", "self.rate = per_minute / 30.0",
           "a rate limit lets twice as many requests through"),
    pinned("lab", "a-play-options-ratio", "lab/runner.py",
           "play_options[0][0] / max(1, play_options[0][1])",
           "play_options[0][0] / max(1, play_options[0][0])",
           "Key's play options per decision always read 1"),
    pinned("lab", "a-headline-no-spread", "lab/metrics.py",
           'if g["faction_key"].is_not_null().any():', "if False:",
           "the run's headline leaves the faction spread out"),
    pinned("lab", "a-spread-product", "lab/metrics.py",
           "score = (won / games)", "score = (won * games)",
           "the faction spread's interval is nonsense"),
    pinned("lab", "a-spread-minlength", "lab/metrics.py",
           "games = (np.bincount((key + offset).ravel(), minlength=rows * k)",
           "games = (np.bincount((key + offset).ravel())",
           "a faction rare in a resample breaks the spread's interval"),
    pinned("lab", "a-rite-term-dropped", "lab/metrics.py",
           "if not with_rites or a is None or b is None:",
           "if not with_rites or a is not None or b is None:",
           "Bradley–Terry's rite strengths all read 0"),
    pinned("printing", "a-marker-icon-large", "printing/tokens.py",
           "d * 0.55", "d / 0.55", "the Veil and Aegis icons spill over their tokens"),
    pinned("printing", "a-relic-icon-large", "printing/tokens.py",
           "d * 0.62", "d / 0.62", "the relic icon spills over its token"),
    pinned("printing", "a-ruin-off-centre", "printing/tokens.py",
           "c.rect(cx - d / 2, cy - d / 2, d, d, stroke=0",
           "c.rect(cx - d / 3, cy - d / 2, d, d, stroke=0",
           "the Ruin's square is off its cut line"),
    pinned("printing", "a-tokens-off-centre", "printing/tokens.py",
           "painter(c, x + d / 2, y - d / 2, d)", "painter(c, x + d / 3, y - d / 2, d)",
           "every token is drawn off its cut line"),
    pinned("printing", "a-token-title-orphan", "printing/tokens.py",
           "if y - 6 * mm - d < margin:", "if y - 6 * mm + d < margin:",
           "a group's title is left alone at the foot of a page"),
    pinned("printing", "a-title-on-marks", "printing/sheets.py",
           "length - 1.2 * mm - 2.2 * mm", "length - 1.2 * mm - 1.1 * mm",
           "the sheet title runs into the crop marks"),
    pinned("env", "a-placed-scale", "env/encoding.py",
           "state.placed[who] / (self._minions + 1)", "state.placed[who] / (self._minions - 1)",
           "the placed planes read above 1"),
    pinned("variants", "a-no-attack-every-turn", "engine/state.py",
           "can_attack = not (s._no_attack_first and s.turns_taken[player] == 0)",
           "can_attack = not (s._no_attack_first)",
           "first_turn=no_attack forbids ATTACK on every turn"),
    pinned("variants", "a-no-attack-inverted", "engine/state.py",
           'self._no_attack_first = settings.first_turn == "no_attack"',
           'self._no_attack_first = settings.first_turn != "no_attack"',
           "the default game forbids ATTACK on the first turn, no_attack allows it"),
    pinned("ai", "a-search-seconds", "ai/search.py",
           '"seconds": time.perf_counter() - started',
           '"seconds": time.perf_counter() + started',
           "the AI's thinking time is nonsense (its per-turn budget with it)"),
    pinned("ai", "a-reach-farthest", "ai/evaluation.py",
           "nearest = min(nearest, _distance(xs[i], ys[i], rx, ry))",
           "nearest = max(nearest, _distance(xs[i], ys[i], rx, ry))",
           "the AI no longer heads for a relic on the ground"),
    pinned("ai", "a-threat-one-side", "ai/search.py",
           "for q in (0, 1))", "for q in (1, 1))",
           "the search misses Key's threats to win"),
    pinned("ai", "a-gale-crush-two", "ai/evaluation.py",
           "found = (2, 1)", "found = (2, 2)",
           "the AI counts Gale's crush as 2 damage"),
    pinned("ai", "a-guard-inverted", "ai/evaluation.py",
           "if p.sq == sq and p.owner == relic:", "if p.sq == sq and p.owner != relic:",
           "a piece on its own relic no longer counts as guarding it"),
    # -- sample B (seed 2): survivors pinned afterwards, or caught once the run gave
    #    their module its own tests (spec)
    pinned("web", "b-live-poll-inverted", "web/live.py",
           "if seen.get(game_id) != fingerprint:", "if seen.get(game_id) == fingerprint:",
           "on SQLite, watchers hear of a move a poll late, and wake for nothing"),
    pinned("web", "b-ai-thinking-on-human-turn", "web/games.py",
           "and state.current_player == session.ai_seat())}",
           "and state.current_player != session.ai_seat())}",
           "the view says the AI thinks on the human's turn"),
    pinned("lab", "b-drops-double", "lab/runner.py",
           "            drops += 1", "            drops += 2", "relic drops counted twice"),
    pinned("lab", "b-spread-draws-chunk", "lab/metrics.py",
           "m = min(chunk, samples - start)", "m = max(chunk, samples - start)",
           "the spread's p-value over more draws than asked (above 1)"),
    pinned("lab", "b-module-subset-one", "lab/spec.py",
           "names = [subset] if isinstance(subset, str) else subset",
           "names = [subset] if True else subset",
           "a spec's list of modules is refused"),
    pinned("lab", "b-rites-pair-index", "lab/spec.py",
           "if pair[0] == pair[1]:", "if pair[0] == pair[2]:",
           "a spec with rite pairs fails"),
    pinned("printing", "b-run-on-numbered-0", "printing/sheets.py",
           "for number, page in enumerate(pages, start=1):",
           "for number, page in enumerate(pages, start=0):",
           "run-on sheet pages are numbered 0/5 … 4/5"),
    pinned("printing", "b-tokens-top", "printing/tokens.py",
           "return height - margin - 3 * mm", "return height - margin + 3 * mm",
           "the first token group's title runs into the page title"),
    pinned("env", "b-loser-rewarded", "env/aec.py",
           "(1.0 if winner == i else -1.0)", "(1.0 if winner == i else 1.0)",
           "the loser is rewarded +1"),
    pinned("env", "b-settings-object", "env/aec.py",
           "if isinstance(settings, Settings):", "if False:",
           "the environment refuses a Settings object"),
    pinned("variants", "b-round-cap-detail", "engine/state.py",
           'detail=f"no result after {self.rounds} rounds (D19)")', 'detail="")',
           "a round-cap draw no longer says after how many rounds"),
    pinned("ai", "b-repetition-off", "ai/search.py",
           "seen = self.seen if self.repetition else None",
           "seen = self.seen if False else None",
           "the AI no longer avoids repeating the game's positions"),
    # Sample F's survivors (seed 6), pinned after it ran (docs/testing.md).
    pinned("web", "f-record-turns-unbounded", "web/schemas.py",
           "= Field(\n        max_length=MAX_TURNS)", "= Field()",
           "a record of any number of turns is replayed"),
    pinned("web", "f-rematch-invite-for-all", "web/games.py",
           'if len(seats) == 1 and invite.get("side") == SIDES[min(seats)]:', "if True:",
           "every viewer of a finished game, spectators too, gets the rematch's invite"),
    pinned("web", "f-spectator-self-link", "web/games.py",
           '    if seats and token:\n        links["self"]', '    if token:\n        links["self"]',
           "a spectator token's view links to itself as a seat would"),
    pinned("web", "f-worker-parent-ignored", "web/ai_pool.py",
           "parent = os.getppid() if parent is None else parent",
           "parent = os.getppid() if True else parent",
           "an AI worker watches its current parent, not the one it was given"),
    pinned("lab", "f-rite-first-win-2", "lab/metrics.py",
           '(pl.col("first") == seat).alias("first"),\n'
           '                        pl.when(pl.col("winner") == seat).then(1.0)',
           '(pl.col("first") == seat).alias("first"),\n'
           '                        pl.when(pl.col("winner") == seat).then(2.0)',
           "the rite by first move counts a win 2"),
    pinned("lab", "f-comeback-skull-side", "lab/metrics.py",
           '(middle if winner == "key" else -middle)', '(middle if winner == "key" else middle)',
           "Skull's comebacks are read from Key's side"),
    pinned("lab", "f-bt-one-faction", "lab/metrics.py",
           "if k < 2 or g.is_empty():", "if g.is_empty():",
           "Bradley-Terry fits a run of one faction"),
    pinned("printing", "f-emblem-outlined", "printing/tokens.py",
           "c.circle(cx, cy, d / 2, stroke=0, fill=1)\n        draw_seal(c, seat, cx, cy, d * 0.7",
           "c.circle(cx, cy, d / 2, fill=1)\n        draw_seal(c, seat, cx, cy, d * 0.7",
           "an emblem's disc gets a dark ring doubling its cut line"),
    pinned("env", "f-parallelizable", "env/aec.py",
           '"is_parallelizable": False', '"is_parallelizable": True',
           "the turn-based environment is offered as a Parallel one"),
    pinned("ai", "f-home-step-mirrored", "ai/evaluation.py",
           "steps = any(free(home_y * n + x + dx) for dx",
           "steps = any(free(home_y * n + x - dx) for dx",
           "a carrier on an edge file is seen to step off the board or not at all"),
    pinned("ai", "f-second-killer-late", "ai/search.py",
           "first = 1 + killers.index(o)", "first = 2 + killers.index(o)",
           "the second killer is tried with the other options, not right after the first"),
    # Sample G's survivors (seed 7), pinned after it ran (docs/testing.md).
    pinned("web", "g-live-last-watcher-stays", "web/live.py",
           "            if left <= 0:", "            if False:",
           "a game stays watched after its last watcher left: the AI thinks on for nobody"),
    pinned("web", "g-live-notifications-from-1", "web/live.py",
           "        self.notifications_received = 0", "        self.notifications_received = 1",
           "a fresh server's health counts a notification it never received"),
    pinned("web", "g-clock-running-finished", "web/clock.py",
           "games.c.finished == 0", "games.c.finished != 0",
           "after a start the clocks watch the finished games, not the running ones"),
    pinned("web", "g-undo-window-last-entry", "web/games.py",
           "    plays, begin = 0, 0", "    plays, begin = 0, -1",
           "in a game's first turns an undo sees only the last decision"),
    pinned("lab", "g-wald-p1-of-1", "lab/sprt.py",
           "0 < self.p1 < 1", "0 < self.p1 <= 1",
           "a Wald test with p1 = 1 fails as a log of 0 instead of saying why"),
    pinned("lab", "g-rules-line-design", "lab/spec.py",
           '("first move", len(firsts) > 1)) if on]', '("first move", len(pairs) > 1)) if on]',
           "a run's title names the wrong half of its setup design"),
    pinned("lab", "g-ray-no-cpu-two", "lab/runner.py",
           '.get("CPU", 1)', '.get("CPU", 2)',
           "a Ray cluster that reports no CPU gets twice the games in flight"),
    pinned("ai", "g-die-of-seven", "ai/search.py",
           "len(outcomes) == 6 and", "len(outcomes) == 7 and",
           "the Dread test's die is sampled like a wide draw instead of searched whole"),
    pinned("ai", "g-reach-past-3", "ai/evaluation.py",
           "for r in range(min(reach, 3) + 1):", "for r in range(min(reach, 4) + 1):",
           "content with a line longer than 3 squares breaks the evaluation (IndexError)"),
    # Sample H's survivors (seed 8), pinned after it ran (docs/testing.md).
    pinned("env", "h-condition-plane-by-stamp", "env/encoding.py",
           "min(c[1] / 3, 1.0) if c[1] else 1.0", "min(c[1] / 3, 1.0) if c[2] else 1.0",
           "a condition's plane reads the turn it was gained in, not its value"),
    pinned("env", "h-interact-without-range", "env/encoding.py",
           "option.mode == INTERACT and self.name_start > \\\n                    "
           "self.interact_start:", "option.mode == INTERACT:",
           "an INTERACT play gets an action where the space has none (Glory: a name's)"),
    pinned("env", "h-step-unchecked", "env/encoding.py",
           "if d is None or not 0 <= option.frm < area:", "if False:",
           "a step to a square not adjacent is encoded anyway (a TypeError, a wrong action)"),
    pinned("env", "h-mask-space-to-2", "env/aec.py",
           '"action_mask": spaces.Box(0, 1,', '"action_mask": spaces.Box(0, 2,',
           "the action mask's space allows a 2"),
    pinned("web", "h-last-turn-repeats", "web/games.py",
           "if isinstance(sq, int) and sq >= 0 and name(sq) not in squares:",
           "if isinstance(sq, int) and sq >= 0:",
           "the last turn lists a square as often as its events touched it"),
    pinned("web", "h-worker-agent-unseeded", "web/ai_pool.py",
           "agent = get_agent(level, seed=seed)", "agent = get_agent(level)",
           "a worker's fresh agent ignores the think's seed: every game plays the same noise"),
    pinned("web", "h-parent-look-halved", "web/ai_pool.py",
           "PARENT_LOOK_S = 0.25", "PARENT_LOOK_S = 0.125",
           "a worker looks at its parent every 0.125 s, not the documented 0.25 s"),
    pinned("web", "h-expired-without-clock", "web/clock.py",
           "if clock is None or state.is_terminal:", "if state.is_terminal:",
           "a game without a clock is read as if it had one (a TypeError)"),
    pinned("lab", "h-jobs-without-content", "lab/spec.py",
           "content = self.content if self.custom_content else None",
           "content = self.content if False else None",
           "a patched ruleset's games are played with the packaged content"),
    pinned("printing", "h-ruin-stones-piled", "printing/tokens.py",
           "c.rect(cx + dx * d, cy + dy * d,", "c.rect(cx + dx * d, cy + dy / d,",
           "a Ruin's stones are drawn piled at its middle"),
    # Sample I's survivors (seed 9), pinned after it ran (docs/testing.md).
    pinned("web", "i-poll-at-0", "web/live.py",
           "elif self.poll_s > 0 and self.probe is not None:",
           "elif self.poll_s > -1 and self.probe is not None:",
           "RELIQUARY_LIVE_POLL=0 still polls, with no pause between looks"),
    pinned("web", "i-prefork-always", "web/ai_pool.py",
           'if os.environ.get("RELIQUARY_AI_PREFORK", "0") != "1":', "if False:",
           "every app starts its AI workers at once, whatever RELIQUARY_AI_PREFORK says"),
    pinned("printing", "i-png-page-narrow", "printing/export.py",
           "pagesize=(CARD_W + 2 * bleed,", "pagesize=(CARD_W - 2 * bleed,",
           "a PNG card with bleed is drawn squeezed (its page narrower than the card)"),
    pinned("printing", "i-marker-name-doubled", "printing/tokens.py",
           "cy - d * 0.38, 4.5,", "cy - d * 0.38, 9.0,",
           "a Veil or Aegis marker's name spills over its disc's rim"),
    # Sample J's survivors (seed 10), pinned after it ran (docs/testing.md).
    pinned("env", "j-step-off-the-near-edge", "env/encoding.py",
           "if not (0 <= x < n and 0 <= y < n):", "if not (0 <= x < n and -1 <= y < n):",
           "a step action off the board's first rank decodes to a square before a1"),
    pinned("web", "j-budget-carried-over", "web/ai_pool.py",
           "if turn != brain.turn:", "if turn == brain.turn:",
           "the AI's time spent carries into its next turns: a twentieth of its budget"),
    pinned("web", "j-poll-nobody", "web/live.py",
           "            if not ids:", "            if False:",
           "the SQLite poll queries the database while nobody watches"),
    # Sample K's survivors (seed 11), pinned after it ran (docs/testing.md).
    pinned("env", "k-condition-plane-past-1", "env/encoding.py",
           "min(c[1] / 3, 1.0)", "min(c[1] / 3, 2.0)",
           "a condition valued past 3 reads above 1, outside the observation space"),
    pinned("ai", "k-round-end-too-deep", "ai/search.py",
           "end = root_turns + depth - (1 if between else 0)",
           "end = root_turns + depth + (1 if between else 0)",
           "at a module's round-end decision the first iteration searches two turns more"),
    pinned("web", "k-in-process-no-draft", "web/ai_pool.py",
           "if not state.is_chance and not state.is_terminal",
           "if not state.is_chance and state.is_terminal",
           "the in-process AI drafts factions and rites by its search, not the values"),
    pinned("lab", "k-agent-seed-28-bits", "lab/spec.py",
           "int(digest[32:40], 16)", "int(digest[32:39], 16)",
           "the second agent's seed changes: an older store's games are not these"),
    pinned("lab", "k-rite-prior-mirrors", "lab/metrics.py",
           "strict=True) if p[0] != p[1]}", "strict=True) if p[0] == p[1]}",
           "the rites' weak prior goes to mirror pairings, which have no rite term"),
    pinned("lab", "k-balanced-quotient", "lab/spec.py",
           "(len(self.pairings) * self.games_per_cell) % len(self.setups)",
           "(len(self.pairings) / self.games_per_cell) % len(self.setups)",
           "a spec's balanced flag is wrong for free factions"),
    pinned("printing", "k-print-error-codes", "web/print_routes.py",
           '"bad_request" if status == 400', '"bad_request" if status != 400',
           "the print download's refusals carry each other's error code"),
    pinned("printing", "k-ruin-stones-slivers", "printing/tokens.py",
           "w * d, h * d, stroke=0", "w * d, h / d, stroke=0",
           "a Ruin's stones are drawn as slivers"),
    # Sample L's survivors (seed 12), pinned after it ran (docs/testing.md).
    pinned("ai", "l-first-iteration-extended", "ai/search.py",
           "searcher.extend = self.extend if depth > 1 else 0",
           "searcher.extend = self.extend if depth > 1 else 1",
           "a search's first iteration (and the greedy agent) is extended at a threat"),
    pinned("web", "l-clock-view-tenths", "web/clock.py",
           "round(max(0.0, left[p]), 2)", "round(max(0.0, left[p]), 1)",
           "the view's clocks show tenths of a second, not hundredths"),
    pinned("web", "l-served-owners-one-fewer", "web/ai_pool.py",
           "if len(self._served) > _HOMES_KEPT:", "if len(self._served) >= _HOMES_KEPT:",
           "the queue remembers one owner fewer than its bound"),
    pinned("web", "l-ruleset-not-kept", "web/games.py",
           "    if not name or name == DEFAULT_RULESET:",
           "    if name or name == DEFAULT_RULESET:",
           "a game created under a ruleset keeps nothing of it: played as classic"),
    pinned("lab", "l-sign-runs-empty", "lab/metrics.py",
           "behind = sum(1 for s in signs if s < 0) / len(evals) if evals else math.nan",
           "behind = sum(1 for s in signs if s < 0) / len(evals) if True else math.nan",
           "an empty trajectory divides by zero"),
    pinned("lab", "l-on-start-not-called", "lab/runner.py",
           "    if on_start:\n        on_start(len(jobs), len(done))",
           "    if False:\n        on_start(len(jobs), len(done))",
           "a run never says how many games it will play"),
    # Practice sample P's lab survivors (seed 100, 30 a area), pinned after it ran.
    pinned("lab", "p-spread-two-games", "lab/metrics.py",
           "if k < 2 or n < 2:", "if k < 2 or n <= 2:",
           "the faction spread of two games has no interval"),
    pinned("lab", "p-spread-one-game", "lab/metrics.py",
           "if k < 2 or n < 2:", "if k < 2 and n < 2:",
           "the faction spread of one game gets a bootstrap interval"),
    pinned("lab", "p-bt-term-interval", "lab/metrics.py",
           "float(params[j] - Z95 * s)", "float(params[j] - Z95 / s)",
           "the seat and first-move terms' intervals are nonsense"),
    pinned("lab", "p-bt-first-move-kept", "lab/metrics.py",
           "keep = [j for j in range(2) if np.any(x[:, j] != 0)]",
           "keep = [j for j in range(2) if True]",
           "Bradley-Terry refuses games whose first mover is unknown"),
    pinned("lab", "p-ray-dashboard", "lab/runner.py",
           "include_dashboard=False,", "include_dashboard=True,",
           "a Ray run started here opens Ray's dashboard"),
    # Practice sample P's web survivors, pinned after it ran.
    pinned("web", "p-bar-turned-to-the-ai", "web/games.py",
           "state, 1 - session.ai_seat())", "state, 1 + session.ai_seat())",
           "with the AI playing Skull, the evaluation bar is not the human's"),
    pinned("web", "p-origin-close-unexplained", "web/guard.py",
           '"code": 1008,\n                            '
           '"reason": "this page\'s origin may not open this WebSocket"}',
           '"code": 1008}',
           "a socket from another site is closed without saying why"),
    pinned("web", "p-hint-unseeded", "web/ai_pool.py",
           'agent="hard", seed=0, time=seconds)', 'agent="hard", time=seconds)',
           "the hint's search is not seeded as documented"),
    # Practice sample P's environment and AI survivors, pinned after it ran.
    pinned("env", "p-decode-below-zero", "env/encoding.py",
           "if not 0 <= action < self.size:", "if not -1 <= action < self.size:",
           "action -1 decodes to an option instead of being refused"),
    pinned("env", "p-relic-on-a1", "env/encoding.py",
           "started = state.relic_square(0) >= 0", "started = state.relic_square(0) > 0",
           "with Key's relic on a1 the first-turn planes never show"),
    pinned("env", "p-human-render", "env/aec.py",
           'if self.render_mode == "human":', "if False:",
           "render_mode='human' prints nothing after a step"),
    pinned("ai", "p-default-time", "ai/search.py",
           "default_time: float | None = 1.0", "default_time: float | None = 2.0",
           "the search thinks 2 s a turn by default, not the documented 1 s"),
    pinned("ai", "p-home-step-wraps", "ai/evaluation.py",
           "for dx in (-1, 0, 1) if 0 <= x + dx < n)",
           "for dx in (-1, 0, 1) if -1 <= x + dx < n)",
           "a Skull carrier on file a counts the rank before's last square as its step home"),
    pinned("ai", "p-extension-counted-twice", "ai/search.py",
           "self.extensions += 1", "self.extensions += 2",
           "a think reports twice the threat extensions it made"),
    pinned("ai", "p-pv-roll-dropped", "ai/search.py",
           "if rolled and s.result is None and s.turns_taken == turns:",
           "if rolled and s.result is None and s.turns_taken != turns:",
           "the principal variation drops a roll that ends the turn"),
    pinned("ai", "p-no-hero-threat", "ai/evaluation.py",
           "        if h >= 0:\n            hero = pieces[h]",
           "        if True:\n            hero = pieces[h]",
           "a position without the other Hero takes another piece for it (made positions)"),
    pinned("ai", "p-killer-never-first", "ai/search.py",
           "elif killers[0] != option:", "elif killers[0] == option:",
           "a new cut-off option never becomes the ply's first killer"),
    pinned("printing", "l-sheet-title-unbounded", "printing/sheets.py",
           'align="center", max_width=width - 2 * MIN_MARGIN)', 'align="center")',
           "a long sheet title below the cards runs past the margins"),
    pinned("printing", "l-tokens-title-regular", "printing/tokens.py",
           'height - margin, 8, bold=True,', 'height - margin, 8, bold=False,',
           "the token pages' title in the regular face"),
    # Fresh sample M's survivors (seed 13), pinned after it ran.
    pinned("web", "m-worker-many-processes", "web/ai_pool.py",
           "ProcessPoolExecutor(\n                max_workers=1,\n",
           "ProcessPoolExecutor(\n",
           "a worker's pool starts a process per core, so its kept agents are split"),
    pinned("lab", "m-fault-kind-unchecked", "lab/runner.py",
           'if kind not in ("kill", "memory"):', "if False:",
           "a mistyped RELIQUARY_LAB_FAULT kind tests nothing, silently"),
    # Fresh sample N's survivor (seed 14), pinned after it ran.
    pinned("lab", "n-run-games-drops-failures", "lab/runner.py",
           "run_local(jobs, workers, on_failure=on_failure)", "run_local(jobs, workers)",
           "a local run's failed games are never reported to its caller"),
    # Fresh sample O's survivors (seed 15), pinned after it ran.
    pinned("web", "o-nice-fraction-taken", "web/ai_pool.py",
           'env_number("RELIQUARY_AI_NICE", 10, whole=True)',
           'env_number("RELIQUARY_AI_NICE", 10, whole=False)',
           "RELIQUARY_AI_NICE=2.5 is taken as 2 instead of refused"),
    pinned("ai", "o-root-ply-minus-one", "ai/search.py",
           "v = searcher.value(state, end, -math.inf, math.inf, 0)",
           "v = searcher.value(state, end, -math.inf, math.inf, -1)",
           "the root counted as ply -1: a win scores a ply sooner, its first replies "
           "are never repetitions and the root reads its own table entry"),
    pinned("ai", "o-iteration-a-turn-deeper", "ai/search.py",
           "end = root_turns + depth - (1 if between else 0)",
           "end = root_turns + depth - (1 if between else -1)",
           "every iteration from a turn start searches a turn deeper than asked"),
    # Practice sample P's printing survivors, pinned after it ran (the class tests
    # test_tokens_art.py, test_sheets_contract.py, test_export_contract.py).
    pinned("printing", "p-hero-drawn-as-minion", "printing/tokens.py",
           'ctx.label("hero_letter"), hero=True)', 'ctx.label("hero_letter"), hero=False)',
           "each side's Hero token is drawn as a Minion"),
    pinned("printing", "p-group-heading-regular", "printing/tokens.py",
           "y - 3.5 * mm, 7, bold=True, color=MUTED)", "y - 3.5 * mm, 7, bold=False, color=MUTED)",
           "the token groups' headings in the regular face"),
    pinned("printing", "p-relic-seal-half", "printing/tokens.py",
           "cy - d * 0.32, d * 0.26,", "cy - d * 0.32, d * 0.13,",
           "a relic token's seal at half its size"),
    pinned("printing", "p-markers-without-veil", "printing/tokens.py",
           "if veil and aegis:", "if aegis:",
           "a content without a Veil card prints 'None and Aegis' markers"),
    pinned("printing", "p-ruin-stones-outlined", "printing/tokens.py",
           "w * d, h * d, stroke=0, fill=1)", "w * d, h * d, fill=1)",
           "a Ruin's stones get dark outlines"),
    pinned("printing", "p-piece-letter-colour", "printing/tokens.py",
           'bold=True,\n                  color=fg, align="center")',
           'bold=True,\n                  align="center")',
           "a Hero's letter in ink on its dark disc instead of white"),
    pinned("printing", "p-piece-seal-low", "printing/tokens.py",
           "cy + d * 0.2, d * 0.36,", "cy + d * 0.1, d * 0.36,",
           "a piece's seal drawn low, onto its letter"),
    pinned("printing", "p-side-title-on-marks", "printing/sheets.py",
           "c.translate(width - side + clear + 2.2 * mm,",
           "c.translate(width - side - clear + 2.2 * mm,",
           "Letter's sheet title up the side runs over the crop marks"),
    pinned("printing", "p-exact-fit-lost", "printing/sheets.py",
           "page[0] - 2 * MIN_MARGIN + 1e-6", "page[0] - 2 * MIN_MARGIN - 1e-06",
           "a column that fits exactly (Letter at 1.925 mm of bleed) is lost"),
    pinned("printing", "p-bleed-too-large-accepted", "printing/sheets.py",
           "if cols < 1 or rows < 1:", "if rows < 1:",
           "a bleed no card fits with gives a grid of no cards, not an error"),
    pinned("printing", "p-single-pages-numbered", "printing/sheets.py",
           "if len(pages) > len(sheets)", "if len(pages) >= len(sheets)",
           "sheets of a page each are numbered 1/4 … 4/4"),
    pinned("printing", "p-tts-folder-parents", "printing/export.py",
           "out.mkdir(parents=True, exist_ok=True)\n    size = (pixel_size(63.5, dpi),",
           "out.mkdir(parents=False, exist_ok=True)\n    size = (pixel_size(63.5, dpi),",
           "--tts into a folder whose parent does not exist fails"),
)

# ---------------------------------------------------------------------- generated faults
# Faults nobody chose: a seeded AST mutator picks sites in the modules and one
# small change at each (`--generate N --seed S`). A list written by hand tends to follow
# what its author already tests; a sample drawn by a seed does not, so a seed the tests
# were never written against gives the honest, fresh figure (docs/testing.md).

#: The modules each area's generated faults land in (issue 31's areas).
MUTATED: dict[str, tuple[str, ...]] = {
    "web": ("web/guard.py", "web/schemas.py", "web/games.py", "web/clock.py", "web/live.py",
            "web/ai_pool.py"),
    "lab": ("lab/metrics.py", "lab/sprt.py", "lab/spec.py", "lab/runner.py"),
    "printing": ("printing/tokens.py", "printing/sheets.py", "printing/export.py",
                 "web/print_routes.py"),
    "env": ("env/encoding.py", "env/aec.py"),
    "variants": ("engine/state.py",),
    "ai": ("ai/evaluation.py", "ai/search.py"),
}

#: Where only part of a module belongs to its area: the lines a site must touch. In the
#: engine's state that is the variants' code (the settings VAR1–VAR4 read).
FOCUS: dict[str, re.Pattern[str]] = {
    "engine/state.py": re.compile(
        r"VAR\d|regroup|_vigil_start|vigil_start|_round_cap|round_cap|first_turn"
        r"|_no_damage_first|_no_attack_first|_vigil_reset_any|_pool_killed"),
}
#: ... and the lines it must not touch: there, the rule modules' hooks (M-…), which
#: their own tests cover (tests/modules), not the variants'.
UNFOCUS: dict[str, re.Pattern[str]] = {"engine/state.py": re.compile(r"_rules\.|M-[A-Z]+-\d")}

_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
    ast.IsNot: ast.Is}
_SWAPPED: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
#: Calls whose arguments only reach a log or a message, never a result.
_QUIET = {"debug", "info", "warning", "error", "exception", "critical", "log"}


@dataclass(frozen=True)
class Site:
    """A place one small change can go: the source bytes ``start:end`` of ``module``
    (``old``) and the changes a slip of the pen could make there (``news``)."""

    module: str
    start: int
    end: int
    line: int
    where: str  # the function or class it is in
    kind: str  # compare, number, boolean, default, arithmetic, sign, condition, field, min/max
    old: str
    news: tuple[str, ...]


def _text(node: ast.AST) -> str:
    """Source for ``node``, in brackets unless it is an atom (it replaces an expression
    whose brackets, if any, stay outside it)."""
    text = ast.unparse(node)
    atom = isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List,
                             ast.Dict, ast.Tuple)) or (
        isinstance(node, ast.Constant) and not (isinstance(node.value, (int, float))
                                                and node.value < 0))
    return text if atom else f"({text})"


def _changed(node: ast.AST, **fields: object) -> ast.AST:
    new = shallow_copy(node)
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def _numbers(value: int | float) -> tuple[int | float, ...]:
    if isinstance(value, int):
        return (value + 1, value - 1)
    return (1.0,) if value == 0 else (value * 2, value / 2)


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, (str, bytes)))


def _changes(node: ast.AST) -> list[tuple[str, ast.expr | ast.stmt, list[str]]]:
    """(kind, the node replaced, its replacements) for the changes that fit ``node``."""
    out: list[tuple[str, ast.expr | ast.stmt, list[str]]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _FLIPPED:
                ops = [*node.ops]
                ops[i] = _FLIPPED[type(op)]()
                out.append(("compare", node, [_text(_changed(node, ops=ops))]))
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        out.append(("boolean", node, [repr(not node.value)]))
    elif isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        out.append(("number", node, [_text(ast.Constant(v)) for v in _numbers(node.value)]))
    elif isinstance(node, ast.BinOp) and type(node.op) in _SWAPPED and not (
            _is_text(node.left) or _is_text(node.right)):
        out.append(("arithmetic", node, [_text(_changed(node, op=_SWAPPED[type(node.op)]()))]))
    elif (isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub)
          and not _is_text(node.value)):
        plain = ast.Assign(targets=[node.target], value=node.value, lineno=0)
        out.append(("arithmetic", node, [
            ast.unparse(_changed(node, op=_SWAPPED[type(node.op)]())), ast.unparse(plain)]))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        out.append(("sign", node, [_text(node.operand)]))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("condition", node, [_text(node.operand)]))
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        dropped = [_text(ast.BoolOp(node.op, [*node.values[:i], *node.values[i + 1:]])
                         if len(node.values) > 2 else node.values[1 - i])
                   for i in range(len(node.values))]
        out.append(("condition", node, [*dropped, _text(_changed(node, op=other))]))
    elif isinstance(node, (ast.If, ast.IfExp)):
        out.append(("condition", node.test, ["True", "False"]))
    elif isinstance(node, ast.comprehension):
        out += [("condition", test, ["True"]) for test in node.ifs]
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            name = "max" if node.func.id == "min" else "min"
            out.append(("min/max", node.func, [name]))
        named = [k for k in node.keywords if k.arg is not None]
        if named:
            out.append(("field", node, [_text(_changed(node, keywords=[
                k for k in node.keywords if k is not gone])) for gone in named]))
    elif isinstance(node, ast.Dict) and None not in node.keys and node.keys:
        out.append(("field", node, [_text(ast.Dict(
            [k for j, k in enumerate(node.keys) if j != i],
            [v for j, v in enumerate(node.values) if j != i])) for i in range(len(node.keys))]))
    return out


def _quiet(node: ast.AST) -> bool:
    """Code whose change no user could meet: type-checking imports, a log line, a
    module's export list, a docstring."""
    if isinstance(node, ast.If):
        test = ast.unparse(node.test)
        return test in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "__name__ == '__main__'")
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr in _QUIET
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id in ("__all__", "__slots__")
                   for t in node.targets)
    return isinstance(node, ast.Expr) and _is_text(node.value)


def sites(module: str, source: str) -> list[Site]:
    """Every site of ``module`` (in ``source``) where a generated fault may go."""
    data = source.encode()
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    lines = source.splitlines()
    focus, unfocus = FOCUS.get(module), UNFOCUS.get(module)
    found: list[Site] = []

    def offset(line: int, col: int) -> int:  # ast's columns count UTF-8 bytes
        return starts[line - 1] + col

    def walk(node: ast.AST, where: str, default: bool) -> None:
        if isinstance(node, ast.JoinedStr) or _quiet(node):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            where = f"{where}.{node.name}" if where else node.name
        for kind, target, news in _changes(node):
            first, last = target.lineno, target.end_lineno or target.lineno
            # A long node is in focus by its first lines, not by a name far inside it.
            near = "\n".join(lines[first - 1:min(last, first + 2)])
            if (focus is not None and not focus.search(near)) or (
                    unfocus is not None and unfocus.search(near)):
                continue
            start = offset(first, target.col_offset)
            end = offset(last, target.end_col_offset or 0)
            if kind in ("number", "boolean") and default:
                kind = "default"
            found.append(Site(module, start, end, first, where or "<module>", kind,
                              data[start:end].decode(), tuple(news)))
        defaults: set[int] = set()
        if isinstance(node, ast.arguments):
            defaults = {id(d) for d in (*node.defaults, *node.kw_defaults) if d is not None}
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    walk(child, where, id(child) in defaults
                         or (default and isinstance(child, ast.Constant)))

    walk(ast.parse(source), "", False)
    return found


def _normal(source: str) -> str:
    return ast.dump(ast.parse(source))


def generate(copy: Path, count: int, seed: int, areas: Sequence[str] | None = None,
             avoid: Sequence[int | tuple[int, int]] = ()) -> list[Fault]:
    """``count`` generated faults per area, drawn with ``seed`` from the sites of the
    area's modules (in the package at ``copy``); the sites another seed in ``avoid``
    would draw are left out, so that a second sample shares no fault with the first.
    An avoided seed is drawn at ``count`` too, or at its own as ``(seed, count)`` (a
    larger practice sample). A change that leaves the module's syntax tree as it was,
    or breaks its syntax, is passed over for the next site."""
    avoided = [(a, count) if isinstance(a, int) else a for a in avoid]
    faults: list[Fault] = []
    for area, modules in MUTATED.items():
        if areas and area not in areas:
            continue
        sources = {m: (copy / m).read_text(encoding="utf-8") for m in modules}
        normal = {m: _normal(text) for m, text in sources.items()}
        pool = [s for m in modules for s in sites(m, sources[m])]
        # Each seed avoided is taken as it was drawn: avoiding the smaller seeds among
        # those given (A: 1; B: 2 avoiding 1; C: 3 avoiding 1 and 2 ...), so that a chain
        # of samples shares no site with any sample before it.
        taken = {(f.module, f.at) for other, size in avoided
                 for f in _drawn(copy, size, other, area,
                                 tuple(a for a in avoided if a[0] < other))}
        rng = random.Random(f"{seed}/{area}")
        order = rng.sample(pool, len(pool))
        chosen: list[Fault] = []
        for site in order:
            if len(chosen) == count:
                break
            if (site.module, site.start) in taken:
                continue
            new = rng.choice(site.news)
            data = sources[site.module].encode()
            text = (data[:site.start] + new.encode() + data[site.end:]).decode()
            try:
                if _normal(text) == normal[site.module]:
                    continue
            except SyntaxError:
                continue
            stem = Path(site.module).stem
            chosen.append(Fault(area, f"{stem}:{site.line}:{site.kind}", site.module,
                                ((site.old, new),), f"{site.where}: {_short(site.old)} → "
                                f"{_short(new)}", batch=0, at=site.start))
        faults += chosen
    return faults


#: The draws of avoided seeds, worked out once each: a chain of avoids draws the smaller
#: seeds again and again (seed 6 avoiding 1-5 asked for seed 1's draw 16 times).
_DRAWN: dict[tuple[str, int, int, str, tuple[tuple[int, int], ...]], list[Fault]] = {}


def _drawn(copy: Path, count: int, seed: int, area: str,
           avoid: tuple[tuple[int, int], ...]) -> list[Fault]:
    key = (str(copy), count, seed, area, avoid)
    if key not in _DRAWN:
        _DRAWN[key] = generate(copy, count, seed, [area], avoid)
    return _DRAWN[key]


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


# ---------------------------------------------------------------------- running
@dataclass
class Outcome:
    fault: Fault
    status: str  # caught, missed, stale, timeout
    seconds: float
    detail: str = ""


def copy_package(into: Path) -> Path:
    """A copy of ``src/reliquary`` (sources and data; no bytecode, no compiled engine)."""
    target = into / "reliquary"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "*.pyc"))
    return target


def environment(copy_root: Path) -> dict[str, str]:
    # No plugins loaded from entry points (Hypothesis, Schemathesis, Playwright …):
    # loading them costs more than most runs' tests, and these tests need none.
    return {**os.environ, "PYTHONPATH": str(copy_root), "RELIQUARY_PURE": "1",
            "PYTHONWARNINGS": "ignore", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


_STAMPS = iter(range(1_000_000_000, 2_000_000_000))


def write_source(path: Path, text: str) -> None:
    """Write a module of the copy with a modification time never used before, so that
    Python never takes its bytecode cached for another text of the same size."""
    path.write_text(text, encoding="utf-8")
    stamp = next(_STAMPS)
    os.utime(path, (stamp, stamp))


def pytest_command(tests: Sequence[str], deselect: Iterable[str]) -> list[str]:
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
               "-q", "-x", "--no-header", "-rf", "-W", "ignore", *tests]
    for node in deselect:
        command += ["--deselect", node]
    return command


#: A failed test in pytest's short summary: ``FAILED <node id> - <message>``.
FAILED = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", re.MULTILINE)


#: Libraries the tests import, loaded once here so that each forked run starts with
#: them (the package itself is never imported here: each run imports its copy afresh).
HEAVY = ("pytest", "numpy", "polars", "scipy.stats", "statsmodels.api", "pyarrow", "fastapi",
         "starlette.testclient", "httpx", "sqlalchemy", "pydantic", "websockets.sync.client",
         "reportlab.pdfgen.canvas", "pdfplumber", "pymupdf", "PIL.Image", "gymnasium",
         "pettingzoo")


def preload() -> None:
    import importlib

    for name in HEAVY:
        with contextlib.suppress(Exception):  # an extra not installed: its tests say so
            importlib.import_module(name)


def run_tests(tests: Sequence[str], env: dict[str, str], deselect: Iterable[str],
              timeout: float, measure: Path | None = None) -> tuple[int | None, str]:
    """pytest's exit code (None: it ran past ``timeout``) and its output, from a forked
    child of this process (the libraries already loaded; the package from the copy).
    With ``measure``, every test runs (no ``-x``) under coverage, and the child writes
    there which tests ran each line of the copy (:func:`_measured`)."""
    args = [a for a in pytest_command(tests, deselect)[3:] if not (measure and a == "-x")]
    with tempfile.TemporaryFile() as out:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: a session of its own, so a hang is killed whole
            exit_code = 3
            try:
                os.setsid()
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                os.chdir(ROOT)
                os.environ.clear()
                os.environ.update(env)
                sys.path.insert(0, env["PYTHONPATH"])
                import pytest

                if measure is None:
                    exit_code = int(pytest.main(args))
                else:
                    exit_code = _measured(args, Path(env["PYTHONPATH"]), measure)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(exit_code)
        deadline = time.monotonic() + timeout
        code: int | None
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                code = None
                break
            time.sleep(0.1)
        out.seek(0)
        return code, out.read().decode(errors="replace")


def _measured(args: list[str], copy_root: Path, into: Path) -> int:
    """Run pytest under coverage, each test in a context of its own; write
    ``{module: {line: [node ids]}}`` for the copy's modules to ``into`` as JSON (lines
    run only while importing, outside any test, are left out)."""
    import coverage
    import pytest

    cov = coverage.Coverage(data_file=None, include=[f"{copy_root}/*"], config_file=False)

    class Contexts:
        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_setup(self, item: pytest.Item) -> None:
            cov.switch_context(item.nodeid)

        @pytest.hookimpl(trylast=True)
        def pytest_runtest_teardown(self, item: pytest.Item) -> None:
            cov.switch_context("")

    cov.start()
    try:
        code = int(pytest.main(args, plugins=[Contexts()]))
    finally:
        cov.stop()
    data = cov.get_data()
    package = copy_root / "reliquary"
    lines: dict[str, dict[int, list[str]]] = {}
    for name in data.measured_files():
        by_line = {n: [c for c in ctx if c] for n, ctx in data.contexts_by_lineno(name).items()}
        lines[Path(name).relative_to(package).as_posix()] = {
            n: tests for n, tests in by_line.items() if tests}
    into.write_text(json.dumps(lines), encoding="utf-8")
    return code


def check_copy_is_imported(copy_root: Path, env: dict[str, str]) -> None:
    out = subprocess.run([sys.executable, "-c", "import reliquary; print(reliquary.__file__)"],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    if not out.stdout.strip().startswith(str(copy_root)):
        raise SystemExit(f"the tests would import {out.stdout.strip()}, not the copy")


class Baseline:
    """What the unchanged copy's tests do, asked only when a fault's run depends on it:
    a test that fails without any fault cannot catch one (someone's work in progress),
    so it is left out of every later run."""

    def __init__(self, env: dict[str, str], timeout: float) -> None:
        self.env, self.timeout = env, timeout
        self.good: set[str] = set()
        self.broken: set[str] = set()
        self.unimportable: dict[str, bool] = {}

    def fails_unchanged(self, node: str) -> bool:
        if node not in self.good and node not in self.broken:
            code, _ = run_tests([node], self.env, (), self.timeout)
            (self.broken if code == 1 else self.good).add(node)
        return node in self.broken

    def collects_unchanged(self, module: str) -> bool:
        if module not in self.unimportable:
            command = [*pytest_command(TESTS[module], ()), "--collect-only"]
            done = subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True,
                                  check=False, timeout=self.timeout)
            self.unimportable[module] = done.returncode not in (0, 5)
        return not self.unimportable[module]


#: Modules whose code the tests also run in other processes (workers, a server started
#: by the test), which coverage here does not see: when the tests that ran a fault's
#: line pass, the rest run too.
SPAWNED = frozenset({"web/ai_pool.py", "lab/runner.py", "web/live.py"})


class Reach:
    """Which tests run each line of the unchanged copy, measured once (all the tests of
    the modules chosen, under coverage), so that a fault runs only the tests that reach
    it, as mutation tools do. A line no test runs (or only its import runs) gets the
    module's whole set, and so does a fault in :data:`SPAWNED` that its own tests miss;
    a test that fails on the unchanged copy is left out from the start."""

    def __init__(self, modules: Iterable[str], baseline: Baseline) -> None:
        tests = sorted({t for m in modules for t in TESTS[m]})
        with tempfile.TemporaryDirectory() as tmp:
            into = Path(tmp) / "reach.json"
            started = time.perf_counter()
            code, out = run_tests(tests, baseline.env, (), 20 * baseline.timeout, into)
            if code not in (0, 1) or not into.exists():
                raise SystemExit(f"measuring the tests' reach failed (pytest exit {code}):\n"
                                 + out[-3000:])
            raw = json.loads(into.read_text(encoding="utf-8"))
        self.lines = {m: {int(n): t for n, t in by_line.items()} for m, by_line in raw.items()}
        failing = set(FAILED.findall(out))
        baseline.broken |= failing
        self.summary = (f"the tests' reach measured in {time.perf_counter() - started:.0f} s"
                        + (f"; failing without any fault: {', '.join(sorted(failing))}"
                           if failing else ""))

    def tests_for(self, module: str, first: int, last: int,
                  broken: set[str]) -> list[str] | None:
        """The tests that run lines ``first``–``last`` of ``module`` (None: not known)."""
        by_line = self.lines.get(module, {})
        found = {t for n in range(first, last + 1) for t in by_line.get(n, ())} - broken
        wanted = [t for t in found if any(t == x or t.startswith((f"{x}::", f"{x}[", f"{x}/"))
                                          for x in TESTS[module])]
        return sorted(wanted) or None


def changed_lines(fault: Fault, original: str) -> tuple[int, int] | None:
    """The first and last line of ``original`` that ``fault`` edits (None: not found)."""
    data = original.encode()
    spans: list[tuple[int, int]] = []
    for old, _ in fault.edits:
        at = fault.at if fault.at is not None else data.find(old.encode())
        if at < 0:
            return None
        spans.append((at, at + len(old.encode())))
    start, end = min(a for a, _ in spans), max(b for _, b in spans)
    return data.count(b"\n", 0, start) + 1, data.count(b"\n", 0, end) + 1


def inject(fault: Fault, copy: Path, baseline: Baseline, timeout: float,
           reach: Reach | None = None) -> Outcome:
    path = copy / fault.module
    original = path.read_text(encoding="utf-8")
    text = original
    if fault.at is not None:  # generated: its place, not its text, says where
        [(old, new)] = fault.edits
        data, at = original.encode(), fault.at
        if data[at:at + len(old.encode())] != old.encode():
            return Outcome(fault, "stale", 0.0, f"{old!r} is no longer at byte {at}")
        text = (data[:at] + new.encode() + data[at + len(old.encode()):]).decode()
    for old, new in fault.edits if fault.at is None else ():
        if text.count(old) != 1:
            return Outcome(fault, "stale", 0.0, f"{old!r} occurs {text.count(old)} times")
        text = text.replace(old, new)
    lines = changed_lines(fault, original)
    chosen = (reach.tests_for(fault.module, *lines, baseline.broken)
              if reach is not None and lines is not None else None)
    runs = [chosen] if chosen is not None else []
    if chosen is None or fault.module in SPAWNED:
        runs.append(list(TESTS[fault.module]))
    start = time.perf_counter()
    for tests in runs:
        while True:
            try:
                write_source(path, text)
                code, out = run_tests(tests, baseline.env, baseline.broken, timeout)
            finally:
                write_source(path, original)
            failed = FAILED.findall(out)
            if code == 1 and failed and baseline.fails_unchanged(failed[0]):
                tests = [t for t in tests if t != failed[0]] or list(TESTS[fault.module])
                continue  # that test fails without the fault too: run again without it
            break
        if code != 0:
            break
    seconds = time.perf_counter() - start
    if code is None:
        return Outcome(fault, "timeout", seconds, "the tests ran past the time limit")
    if code == 0:
        return Outcome(fault, "missed", seconds)
    if code == 1:
        return Outcome(fault, "caught", seconds, failed[0] if failed else "")
    if not baseline.collects_unchanged(fault.module):
        return Outcome(fault, "stale", seconds, "the tests do not even load without the fault")
    return Outcome(fault, "caught", seconds, f"pytest exit {code}: the tests do not load")


def report(outcomes: Sequence[Outcome]) -> str:
    areas = sorted({o.fault.area for o in outcomes}, key=[f.area for f in FAULTS].index)
    lines = ["", "| area | faults | caught | missed | stale |", "|---|---|---|---|---|"]
    total = caught = 0
    for area in areas:
        mine = [o for o in outcomes if o.fault.area == area]
        counted = [o for o in mine if o.status != "stale"]
        hit = sum(o.status in ("caught", "timeout") for o in counted)
        lines.append(f"| {area} | {len(counted)} | {hit} | {len(counted) - hit} | "
                     f"{len(mine) - len(counted)} |")
        total += len(counted)
        caught += hit
    share = 100.0 * caught / total if total else 0.0
    lines.append(f"| **all** | {total} | {caught} ({share:.0f}%) | {total - caught} | "
                 f"{sum(o.status == 'stale' for o in outcomes)} |")
    missed = [o for o in outcomes if o.status == "missed"]
    if missed:
        lines += ["", "Missed:"]
        lines += [f"- {o.fault.area}/{o.fault.name}: {o.fault.why}" for o in missed]
    stale_ones = [o for o in outcomes if o.status == "stale"]
    if stale_ones:
        lines += ["", "Stale (the source moved on; update the fault):"]
        lines += [f"- {o.fault.name}: {o.detail}" for o in stale_ones]
    return "\n".join(lines)


def _avoided(text: str) -> int | tuple[int, int]:
    seed, _, size = text.partition(":")
    try:
        return (int(seed), int(size)) if size else int(seed)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed, or SEED:N") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--area", action="append", help="only this area (repeatable)")
    parser.add_argument("--only", action="append",
                        help="only faults whose name contains this (repeatable)")
    parser.add_argument("--batch", type=int, choices=(1, 2, 3),
                        help="only the first list, the second (written after its tests), "
                             "or the third (the generated samples' pinned survivors)")
    parser.add_argument("--generate", type=int, metavar="N",
                        help="instead of the list: N faults per area drawn by the mutator")
    parser.add_argument("--seed", type=int, default=1, help="the mutator's seed (default 1)")
    parser.add_argument("--avoid", type=_avoided, action="append", default=[],
                        metavar="SEED[:N]",
                        help="leave out the sites this seed draws (repeatable): a fresh "
                             "sample; with :N, the seed's sample of N per area")
    parser.add_argument("--every-test", action="store_true",
                        help="run each fault's whole set of tests, not only those that "
                             "reach its lines (slower; no coverage needed)")
    parser.add_argument("--list", action="store_true", help="list the faults and stop")
    parser.add_argument("--timeout", type=float, default=180.0,
                        help="seconds a fault's tests may run (past it: caught, as a hang)")
    parser.add_argument("--json", type=Path, help="also write the outcomes to this file")
    args = parser.parse_args(argv)
    if args.generate is not None:
        if args.generate < 1:
            parser.error("--generate needs at least one fault per area")
        unknown = set(args.area or ()) - set(MUTATED)
        if unknown:
            parser.error(f"no such area: {', '.join(sorted(unknown))} "
                         f"(areas: {', '.join(MUTATED)})")

    def chosen_from(package: Path) -> list[Fault]:
        listed = (generate(package, args.generate, args.seed, args.area, args.avoid)
                  if args.generate is not None
                  else [f for f in (*FAULTS, *PINNED)
                        if args.batch is None or f.batch == args.batch])
        return [f for f in listed if (not args.area or f.area in args.area)
                and (not args.only or any(s in f.name for s in args.only))]

    chosen = chosen_from(PACKAGE)
    if not chosen:
        parser.error("no fault matches --area/--only")
    if args.list:
        for f in chosen:
            print(f"{f.area:9} {f.name:34} {f.module:22} {f.why}")
        return 0
    with tempfile.TemporaryDirectory(prefix="reliquary-faults-") as tmp:
        copy_root = Path(tmp)
        copy = copy_package(copy_root)
        chosen = chosen_from(copy)  # generated faults: their places in the copy's text
        env = environment(copy_root)
        check_copy_is_imported(copy_root, env)
        preload()
        print(f"{len(chosen)} faults; the copy: {copy}", flush=True)
        started = time.perf_counter()
        baseline = Baseline(env, args.timeout)
        reach = None
        if not args.every_test:
            reach = Reach({f.module for f in chosen}, baseline)
            print(reach.summary, flush=True)
        outcomes = []
        for number, f in enumerate(chosen, start=1):
            outcome = inject(f, copy, baseline, args.timeout, reach)
            outcomes.append(outcome)
            print(f"[{number:2}/{len(chosen)}] {outcome.status:7} {f.area:9} {f.name:34} "
                  f"{outcome.seconds:5.1f} s  {outcome.detail}", flush=True)
    print(report(outcomes))
    if baseline.broken:
        print("\nFailing without any fault, so left out: " + ", ".join(sorted(baseline.broken)))
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    if args.json:
        args.json.write_text(json.dumps([
            {"area": o.fault.area, "name": o.fault.name, "module": o.fault.module,
             "status": o.status, "seconds": round(o.seconds, 1), "why": o.fault.why,
             "detail": o.detail} for o in outcomes], indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
