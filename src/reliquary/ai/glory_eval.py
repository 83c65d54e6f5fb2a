"""M-GLORY's evaluation terms (MODULES.md §5.8), added to :func:`~.evaluation.evaluate`
when the module is on (module-aware play; ``Weights.module_terms = 0`` plays blind).

- **The Glory race as a clock.** Each point of Glory lead is worth ``glory`` points,
  growing by ``glory_clock`` as the last End phase nears (``(R + 1 − r) / R`` with ``r``
  rounds left of ``R``, like the Vigil clock); with no fixed end (``glory.phases = 0``)
  it stays at ``glory``.
- **Markers.** Each marker held now is worth ``marker``; each unheld marker costs
  ``marker_distance`` per square between it and the side's nearest piece.
- **Objectives close to scoring.** Each held End-phase objective met now is worth its
  Glory times ``objective_met``, more as its End phase nears.
- **Upgrades.** Unspent Glory that buys an upgrade is worth ``unspent`` per point of its
  best affordable cost; each upgrade on a piece is worth ``upgrade``.
- **Support in reach.** An enemy Hero with two or more of the mover's pieces next to
  it is closer to a supported (+1) hit: ``support`` per such piece beyond the first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..engine import Option, State
from ..engine.modules import glory as g


@dataclass(frozen=True)
class GloryWeights:
    glory: float = 30.0
    glory_clock: float = 120.0
    marker: float = 9.0
    marker_distance: float = 1.5
    objective_met: float = 10.0
    unspent: float = 8.0
    upgrade: float = 14.0
    support: float = 5.0


WEIGHTS: Final = GloryWeights()


def glory_terms(state: State, player: int, w: GloryWeights = WEIGHTS) -> float:
    """M-GLORY's terms for ``player`` (positive is better), the other side's subtracted."""
    rules = g.rules_of(state)
    gs = g.glory_state(state)
    geo = state.geometry
    lead = gs.glory[player] - gs.glory[1 - player]
    value = 0.0
    if lead:
        scale = w.glory
        last = rules.last_round
        if last:
            left = max(0, last - state.rounds)
            scale += w.glory_clock * (last + 1 - left) / last
        value += scale * lead
    # markers: held, and the distance to those not held
    n = geo.size
    for sq in gs.markers:
        pid = state.board[sq]
        holder = state.pieces[pid].owner if pid >= 0 and g.is_unit(state.pieces[pid]) else -1
        if holder >= 0:
            value += w.marker if holder == player else -w.marker
            continue
        mx, my = sq % n, sq // n
        near = [n, n]
        for p in state.pieces.values():
            d = max(abs(p.sq % n - mx), abs(p.sq // n - my))
            if d < near[p.owner]:
                near[p.owner] = d
        value -= w.marker_distance * (near[player] - near[1 - player])
    # End-phase objectives met now, weighed by how soon their End phase comes
    soon = 1.0 - (g.rounds_to_end_phase(state, rules) - 1) / rules.phase_rounds
    for q in (0, 1):
        sign = 1.0 if q == player else -1.0
        for oid in gs.hands[q]:
            obj = rules.objectives[oid]
            if obj.timing == "end_phase" and rules.met(state, q, obj):
                value += sign * w.objective_met * obj.glory * (0.5 + 0.5 * soon)
        # unspent Glory that buys something, and upgrades held
        if rules.upgrades_on:
            costs = [rules.upgrades[u].cost for u in rules.buyable(state, q)]
            if costs:
                value += sign * w.unspent * max(costs)
        for p in state._own[q]:
            if p.conds and any(p.has(c) for c in rules.upgrade_conds):
                value += sign * w.upgrade
    # Support in reach of the Heroes
    if rules.support_mode != "off":
        for q in (0, 1):
            hero = state.hero(1 - q)
            if hero is None:
                continue
            around = rules.supporters(state, q, hero.sq, -1)
            if around > 1:
                value += (1.0 if q == player else -1.0) * w.support * (around - 1)
    return value


def marker_choice(state: State, rng: random.Random) -> Option:
    """M-GLORY-3 at setup: a marker where the placer's pieces can reach and hold it
    sooner than the enemy's (nearest own piece minus nearest enemy), seeded tie-breaks.
    With the Shrine (the first marker), the same rule on the central rows."""
    decision = state.decision()
    me = decision.player
    n = state.geometry.size

    def score(sq: Option) -> float:
        assert isinstance(sq, int)
        x, y = sq % n, sq // n
        near = [n, n]
        for p in state.pieces.values():
            d = max(abs(p.sq % n - x), abs(p.sq // n - y))
            near[p.owner] = min(near[p.owner], d)
        return near[me] - near[1 - me] + rng.random() * 0.5

    return min(decision.options, key=score)
