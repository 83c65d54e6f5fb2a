"""M-COND's evaluation terms (MODULES.md §4.8), added to :func:`~.evaluation.evaluate`
when the module is on (module-aware play; ``Weights.module_terms = 0`` plays blind).

- **Upkeep.** The HP each piece will lose at the next Upkeep (Burning, none while Aegis
  holds past the round's end, less Defensive that holds; plus Poison), at a Hero HP's
  worth, or a Minion's worth when it dies of it; for Heroes, Poison beyond the next
  Upkeep as future HP.
- **Stalled carriers.** A Slow or Paralyzed carrier loses a turn of ``carry_progress``.
- **Threats.** The side to move's reach on the other Hero as the base evaluation sees it
  (``_reach_damage``), corrected: Focus adds its value to a piece's line damage, Defensive
  takes its value off, and a Dread test scales the threat by its pass chance (7 − TN)/6;
  the enemies around a Dread carrier count that much less.
- **Ready conditions.** Focus held, and Defensive held, are worth a little.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..engine import State
from ..engine.modules.conditions import ConditionsHooks, cond_state
from ..engine.state import Piece


@dataclass(frozen=True)
class ConditionsWeights:
    """Points, on the base evaluation's scale (ai/evaluation.py's Weights; not imported,
    since the evaluation imports these terms)."""

    upkeep_hero: float = 40.0    # per Hero HP the next Upkeep takes (hero_hp)
    upkeep_minion: float = 25.0  # a Minion the next Upkeep kills (minion)
    poison_future: float = 20.0  # per HP of a Hero's Poison after the next Upkeep
    stalled_carrier: float = 22.0  # a Slow or Paralyzed carrier (carry_progress)
    focus: float = 4.0           # per point of Focus held
    defensive: float = 3.0       # per point of Defensive held
    hero_en_prise: float = 250.0  # as the base terms of the same names
    hero_exposed: float = 15.0
    carrier_threat: float = 12.0


WEIGHTS: Final = ConditionsWeights()


def rules_of(state: State) -> ConditionsHooks:
    for h in state._rules.hooks:
        if isinstance(h, ConditionsHooks):
            return h
    raise ValueError("the conditions module is off in this game")


def _holds(state: State, piece: Piece) -> bool:
    """Whether an "until the owner's next turn" condition of ``piece`` is still in force
    at this round's Upkeep (no turn of its owner starts before it)."""
    return piece.owner == state.first or state.current != state.first


def upkeep_loss(state: State, rules: ConditionsHooks, piece: Piece) -> tuple[int, int]:
    """(HP lost at the next Upkeep, HP of Poison left after it) as things stand."""
    hit, lose = rules._upkeep_damage(piece)
    holds = _holds(state, piece)
    if hit and piece.aegis and holds:
        hit = 0
    elif hit and holds:
        hit = max(0, hit - rules.reduction(state, piece))
    poison_left = 0
    for cond in rules.upkeep:
        if cond.upkeep is not None and cond.upkeep.then == "decrement":
            poison_left += max(0, piece.value(cond.id) - 1)
    return hit + lose, poison_left


def conditions_terms(state: State, player: int, w: ConditionsWeights = WEIGHTS) -> float:
    """M-COND's terms for ``player`` (positive is better), the other side's subtracted."""
    rules = rules_of(state)
    value = 0.0
    for p in state.pieces.values():
        if not p.conds:
            continue
        sign = 1.0 if p.owner == player else -1.0
        loss, poison_left = upkeep_loss(state, rules, p)
        if p.hero:
            value -= sign * (w.upkeep_hero * min(loss, p.hp) + w.poison_future * poison_left)
        elif loss >= p.hp:
            value -= sign * w.upkeep_minion
        if state.relic_carrier[1 - p.owner] == p.id and (
                p.has(rules.paralyzed) or any(p.has(c.id) for c in rules.conds.values()
                                              if "step" in c.bans and c.id != rules.paralyzed)):
            value -= sign * w.stalled_carrier
        for name, _ in rules.on_attack:
            value += sign * w.focus * p.value(name)
        for name, _ in rules.reducers:
            value += sign * w.defensive * p.value(name)
    for pid, name, _, turn in cond_state(state).pending:  # a Paralyzed still to come
        held = state.pieces.get(pid)
        if held is not None and turn >= 0 and name == rules.paralyzed and \
                state.relic_carrier[1 - held.owner] == pid:
            value -= (1.0 if held.owner == player else -1.0) * w.stalled_carrier
    return value + _threat_correction(state, player, rules, w)


def _pass_chance(rules: ConditionsHooks) -> float:
    return (7 - rules.dread_tn) / 6


def _threat_correction(state: State, player: int, rules: ConditionsHooks,
                       base: ConditionsWeights) -> float:
    """The base threat terms corrected for Focus, Defensive and Dread (see the module
    docstring); positive is better for ``player``."""
    value = 0.0
    mover = state.current_player
    if mover in (0, 1) and not (state.settings.first_turn == "no_damage"
                                and state.turns_taken[mover] == 0):
        hero = state.hero(1 - mover)
        if hero is not None and _shaped(state, rules, mover, hero):
            plain, shaped = _reach(state, rules, mover, hero)
            if plain != shaped:
                def cost(damage: float) -> float:
                    return base.hero_en_prise if damage >= hero.hp else \
                        base.hero_exposed * damage
                change = cost(shaped) - cost(plain)  # more threat: worse for the Hero's side
                value += -change if hero.owner == player else change
    if rules.dread != "none":  # fewer real threats around a Dread carrier
        fail = 1 - _pass_chance(rules)
        for q in (0, 1):
            carrier = state.pieces.get(state.relic_carrier[1 - q]) \
                if state.relic_carrier[1 - q] >= 0 else None
            if carrier is None or rules.dread != "carrier":
                continue
            near = sum(1 for p in state._own[1 - q] if state.geometry.distance(
                p.sq, carrier.sq) <= 2 and (p.hero is False or not rules.dread_minions_only))
            value += (1.0 if q == player else -1.0) * base.carrier_threat * fail * near
    return value


def _shaped(state: State, rules: ConditionsHooks, mover: int, hero: Piece) -> bool:
    """Whether Focus, Defensive or Dread can change ``mover``'s reach on ``hero`` (the
    evaluation runs at every node: the reach is worked out only then)."""
    if hero.conds and rules.reduction(state, hero):
        return True
    if rules.dread == "hero" or (rules.dread == "carrier"
                                 and state.relic_carrier[mover] == hero.id):
        return True
    return any(p.conds and any(p.has(name) for name, _ in rules.on_attack)
               for p in state._own[mover])


def _reach(state: State, rules: ConditionsHooks, mover: int, hero: Piece
           ) -> tuple[float, float]:
    """The most damage ``mover`` reaches on ``hero`` this turn: as the base evaluation
    counts it, and with Focus, Defensive and Dread."""
    geo = state.geometry
    defensive = rules.reduction(state, hero)
    plain = shaped = 0.0
    for p in state._own[mover]:
        d = geo.distance(p.sq, hero.sq)
        if d > 3:
            continue
        focus = sum(p.value(name) for name, _ in rules.on_attack)
        odds = _pass_chance(rules) if rules.tests(state, p, hero) else 1.0
        for card in state.hands[mover]:
            reach, damage = _line_reach(state, card, p)
            if reach < d:
                continue
            plain = max(plain, damage)
            if damage or focus:
                shaped = max(shaped, odds * max(0, damage + focus - defensive))
    return plain, shaped


def _line_reach(state: State, card: str, piece: Piece) -> tuple[int, int]:
    """(reach, most damage) of a piece's attack with a card, as the base evaluation's
    function of that name counts it (a lunge adds 1; Ordeal's best row; Gale's crush)."""
    line = state.line_for(card, piece)
    if line.effect == "strike":
        return line.range + (1 if line.adjacent else 0), line.damage
    if line.effect == "ordeal":
        return line.range, max(row.damage for row in line.table)
    if line.effect == "gale":
        return 2, 1
    return 0, 0
