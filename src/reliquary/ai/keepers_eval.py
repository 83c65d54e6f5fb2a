"""M-KEEP's evaluation terms (MODULES.md §6.8), added to :func:`~.evaluation.evaluate`
when the module is on (module-aware play; ``Weights.module_terms = 0`` plays blind).

- **Relic points.** Each point of lead is worth ``points``, more as the leader nears
  ``keepers.target`` (up to ``points + points_clock`` at the target).
- **Carried tokens.** Each is worth its value times ``carried``, plus ``progress`` per
  square it has come towards home (the back row, or a Wayshrine showing its type), plus
  ``recover_threat`` times its value when it can recover this turn (one step from
  home), minus ``carrier_threat`` times its value while an enemy stands next to it.
- **Face-down tokens.** Each is worth the *expected* value of its type (the mean of the
  values not yet seen, M-KEEP-3) times ``rule`` per piece of lead (up to 2) among the
  pieces next to its Ruin, less ``distance`` per square from the side's nearest piece.
- **Sets and Wayshrines.** ``set_progress`` per type recovered towards the next set;
  ``shrine`` for a Wayshrine on the board, less ``shrine_threat`` while an enemy is next
  to it.

**Ruins at setup (S2).** With the module on, every Ruin will hold a token (M-KEEP-2), so
:func:`ruin_choice` places a module-aware agent's Ruin pairs by :func:`ruin_prospect`:
the face-down token term above, projected onto the opening. The pieces are not deployed
yet, so each side's deployment squares stand for its pieces: the expected token value
times ``rule`` per square of lead among the deployment squares next to the Ruin (up to
2: pieces that rule it and can lift from the first turn), less ``distance`` per square
between the placer's rows and the Ruin, less ``progress`` per square the token must be
carried home. S2's pairs are mirrored through the centre, so the opponent gets the same
prospect from the mirror Ruin: the term cannot favour one side, and the distances of a
pair add up alike; what it rewards is a pair whose tokens each side can delve and carry
home soon (Ruins touching the deployment rows), where a module-blind placement spreads
the Ruins over the middle for lines of sight only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..engine import Option, State
from ..engine.hooks import OBJECT
from ..engine.modules.keepers import DATA, KeepersHooks, expected_value, kstate


@dataclass(frozen=True)
class KeepersWeights:
    points: float = 20.0
    points_clock: float = 40.0
    carried: float = 6.0
    progress: float = 1.5
    recover_threat: float = 8.0
    carrier_threat: float = 4.0
    rule: float = 3.0
    distance: float = 0.8
    set_progress: float = 4.0
    shrine: float = 6.0
    shrine_threat: float = 4.0
    #: At S2, per file a Ruin stands from the centre (the base game's spread, kept as a
    #: small preference among Ruins of equal prospect).
    ruin_file: float = 0.3


WEIGHTS: Final = KeepersWeights()


def _hooks(state: State) -> KeepersHooks:
    for h in state._rules.hooks:
        if isinstance(h, KeepersHooks):
            return h
    raise ValueError("the keepers module is off")


def keepers_terms(state: State, player: int, w: KeepersWeights = WEIGHTS) -> float:
    """M-KEEP's terms for ``player`` (positive is better), the other side's subtracted."""
    return _side(state, player, w) - _side(state, 1 - player, w)


def _side(state: State, player: int, w: KeepersWeights) -> float:
    st = kstate(state)
    hooks = _hooks(state)
    geo = state.geometry
    pieces, board = state.pieces, state.board
    value = 0.0
    # Relic points, worth more as the target nears (a clock, like the Vigil's).
    points = st.points[player]
    scale = w.points
    if hooks.target > 0 and not hooks.glory:
        scale += w.points_clock * min(1.0, points / hooks.target)
    value += scale * points
    shrine = pieces.get(st.shrine[player]) if st.shrine[player] >= 0 else None
    if shrine is not None:
        value += w.shrine
        if any(pieces[board[n]].owner != player for n in geo.neighbours[shrine.sq]
               if board[n] >= 0):
            value -= w.shrine_threat
    size = geo.size
    mine = state._own[player]
    for t in st.tokens:
        if t.carrier >= 0:
            carrier = pieces.get(t.carrier)
            if carrier is None or carrier.owner != player:
                continue
            worth = t.value if t.face_up else expected_value(st, t.kind)
            home = geo.rank_from_back(player, carrier.sq)
            if shrine is not None and st.shrine_type[player] == t.kind:
                home = min(home, max(0, geo.distance(shrine.sq, carrier.sq) - 1))
            value += worth * w.carried + w.progress * (size - 1 - home)
            if home <= 1:
                value += w.recover_threat * worth
            if any(board[n] >= 0 and pieces[board[n]].owner != player
                   and not pieces[board[n]].bans & OBJECT for n in geo.neighbours[carrier.sq]):
                value -= w.carrier_threat * worth
        elif t.sq >= 0 and (state.ruins >> t.sq) & 1 and not t.face_up:
            counts = [0, 0]
            for n in geo.neighbours[t.sq]:
                pid = board[n]
                if pid >= 0 and not pieces[pid].bans & OBJECT:
                    counts[pieces[pid].owner] += 1
            margin = max(0, min(2, counts[player] - counts[1 - player]))  # ruling
            nearest = min((geo.distance(p.sq, t.sq) for p in mine), default=size)
            ev = expected_value(st, t.kind)
            value += ev * (w.rule * margin - w.distance * max(0, nearest - 1))
    # Sets: the types recovered towards the next one.
    recovered = st.recovered[player]
    sets = st.sets[player]
    value += w.set_progress * sum(1 for n in recovered if n > sets) * DATA.set_bonus / 2
    return value


def _mean_token(state: State) -> float:
    """The expected value of a token not yet placed: the mean of every unseen value."""
    st = kstate(state)
    values = [v for kind in range(len(DATA.relic_type)) for v in st.unseen(kind)]
    return sum(values) / len(values) if values else 0.0


def ruin_prospect(state: State, player: int, sq: int, w: KeepersWeights = WEIGHTS) -> float:
    """What the token of a Ruin on ``sq`` promises ``player`` at S2 (before deployment):
    the face-down token term of :func:`keepers_terms`, with each side's deployment
    squares next to the Ruin standing for its pieces, less the carry home (see the
    module docstring)."""
    geo = state.geometry
    rows = state.content.board_row(geo.size).deploy_rows

    def free_deploy(side: int) -> list[int]:
        return [d for r in range(rows) for d in geo.row_of(side, r)
                if d != sq and not (state.ruins >> d) & 1]

    mine, theirs = free_deploy(player), free_deploy(1 - player)
    around = geo.neighbours[sq]
    margin = sum(1 for n in around if n in mine) - sum(1 for n in around if n in theirs)
    approach = min((geo.distance(d, sq) for d in mine), default=geo.size)
    carry = geo.rank_from_back(player, sq)
    ev = _mean_token(state)
    return (ev * (w.rule * max(0, min(2, margin)) - w.distance * max(0, approach - 1))
            - w.progress * carry)


def ruin_choice(state: State, rng: random.Random, w: KeepersWeights = WEIGHTS) -> Option:
    """M-KEEP at S2: the Ruin pair whose tokens promise most (:func:`ruin_prospect` of
    the square and its mirror), nearer the middle files on a tie, seeded tie-breaks."""
    decision = state.decision()
    if decision.kind != "ruin":
        raise ValueError(f"{decision.kind!r} is not a Ruin decision")
    me = decision.player
    geo = state.geometry
    centre = (geo.size - 1) / 2

    def score(option: Option) -> float:
        assert isinstance(option, int)
        pair = (option, geo.mirror(option))
        prospect = sum(ruin_prospect(state, me, r, w) for r in pair)
        return (-prospect + w.ruin_file * abs(option % geo.size - centre)
                + rng.random() * 0.5)

    return min(decision.options, key=score)
