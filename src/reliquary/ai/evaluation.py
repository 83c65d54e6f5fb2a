"""An evaluation function that knows the game, from one player's point of view.

Each player's side is scored from what decides Reliquary — Hero HP (G11, V3), pieces,
the enemy relic (carried or not, and how far from home, RL1–RL3, V3), the safety of
carriers, threats to the Hero, pools and rites, and the Vigil score once the Vigil is
low (V1, V2) — and the evaluation is the difference. Terminal positions score
±:data:`WIN` (sooner wins score higher).

The Vigil is also read as a clock (:func:`vigil_clock`): the player who would win if
it ran out now (V2: carriers, then Hero damage, then Minions) gains
``Weights.vigil_clock · (R + 1 − r) / R``, where ``r`` is the number of round ends left
before it runs out if nothing happens and ``R`` the most there can be. So the side
ahead on the Vigil count loses by resetting it (a trade, any damage) unless the trade
is worth more, and the side behind gains by resetting it or by turning the count.
REGROUP (T4) undoes a kill: a killed Minion that can come back at once (an empty square
on its owner's back row) is worth ``Weights.pool_ready`` more, and a lead of one Minion
(V2's last count) that the other side can REGROUP back earns only
``Weights.clock_regroupable`` of the clock (none by default), so the search does not
trade Minions for a lead the next turn takes back.
Everything reads the game's settings (RULES.md §11): the Vigil's reset value (VAR3),
what resets it (VAR2, through the engine's own V1 bookkeeping), and what a killed
Minion is worth (VAR1 regroups left, VAR4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..engine import Piece, State
from ..engine.content import Content
from ..engine.state import BY_MINIONS

WIN = 100_000.0
#: Scores beyond this are proven wins or losses.
WIN_THRESHOLD = WIN - 10_000.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (points; a Minion is worth about 25)."""

    hero_hp: float = 40.0
    hero_last_hp: float = 30.0    # extra for a Hero on 1 HP: one hit from losing
    minion: float = 25.0
    advance: float = 1.5          # per rank a Minion has advanced
    threat_adjacent: float = 9.0  # enemy piece next to your Hero
    threat_near: float = 4.0      # enemy piece at 2 from your Hero
    carry: float = 70.0           # carrying the enemy relic
    carry_progress: float = 22.0  # per rank the carrier has come towards home
    carrier_threat: float = 12.0  # per enemy piece at 2 or less from your carrier
    reach: float = 6.0            # per square your nearest piece is closer to the enemy relic
    ground_progress: float = 4.0  # per rank a dropped enemy relic lies towards your home
    guard: float = 12.0           # a piece of yours on your own relic (RL5)
    pool: float = 8.0             # a killed Minion you can Regroup
    rite: float = 10.0            # a rite still in hand
    vigil: float = 60.0           # per point of Vigil score, scaled as the Vigil runs out
    hero_en_prise: float = 250.0  # the enemy, to move, holds a card that can kill your Hero
    hero_exposed: float = 15.0    # per point of damage the enemy, to move, can deal it
    relic_en_prise: float = 0.0   # the enemy, to move, can carry your relic home (V3);
    # off by default: 300 with threat extensions measured no better (docs/ai.md)
    vigil_clock: float = 300.0    # the side V2 favours now, times (R + 1 − r) / R: r round
    # ends left, R the most there can be (the Vigil's start + 1)
    minion_en_prise: float = 12.0  # the enemy, to move, can strike one of your Minions
    contempt: float = 20.0        # a repeated position is a draw, this much below 0 for
    # the searching side (see search.py): the side ahead avoids repeating
    pool_ready: float = 12.0      # extra when REGROUP can bring a killed Minion back now (an
    # empty square on your back row, T4): a kill the other side can undo at once gains less
    draw_contempt: float = 0.0    # a draw (the Vigil run out tied, the round cap) is this
    # much below 0 for the searching side, and a tied Vigil running out costs it this much
    # times the clock's share: the side that thinks itself stronger plays for a result
    clock_regroupable: float = 0.0  # the share of the Vigil clock a lead of one Minion (V2's
    # last count) keeps when the other side can REGROUP one back: none, it is undone at once
    module_terms: float = 1.0     # the rule modules' own terms (ai/module_terms.py): 1
    # module-aware, 0 module-blind


DEFAULT_WEIGHTS = Weights()


def terminal_value(state: State, player: int, ply: int = 0, draw: float = 0.0) -> float:
    """±WIN (less the plies it took) for a finished game, ``draw`` for a draw."""
    winner = state.winner
    if winner is None:
        return draw
    return WIN - ply if winner == player else -WIN + ply


class _Board:
    """The pieces of a position with their files and ranks (x, y), worked out once for
    all the terms of an evaluation."""

    def __init__(self, state: State) -> None:
        n = state.geometry.size
        self.pieces = list(state.pieces.values())
        self.x = [p.sq % n for p in self.pieces]
        self.y = [p.sq // n for p in self.pieces]


def _distance(x0: int, y0: int, x1: int, y1: int) -> int:
    """The Chebyshev distance (G1)."""
    dx = x0 - x1 if x0 >= x1 else x1 - x0
    dy = y0 - y1 if y0 >= y1 else y1 - y0
    return dx if dx >= dy else dy


class _Score:
    """Each player's points. Two float fields rather than a list of two floats: compiled,
    a list would make a new float object at every addition."""

    def __init__(self) -> None:
        self.key = 0.0
        self.skull = 0.0

    def add(self, player: int, points: float) -> None:
        if player == 0:
            self.key += points
        else:
            self.skull += points

    def of(self, player: int) -> float:
        return self.key if player == 0 else self.skull


def evaluate(state: State, player: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good ``state`` is for ``player``: positive is better, 0 is even."""
    if state.result is not None:
        return terminal_value(state, player, draw=-weights.draw_contempt)
    w = weights
    n = state.geometry.size
    top = n - 1
    score = _Score()
    board = _Board(state)
    pieces, xs, ys = board.pieces, board.x, board.y
    heroes: list[int] = [-1, -1]  # index into pieces
    for i, p in enumerate(pieces):
        q = p.owner
        if p.hero:
            heroes[q] = i
            score.add(q, w.hero_hp * p.hp + (0.0 if p.hp > 1 else -w.hero_last_hp))
        else:
            y = ys[i]
            score.add(q, w.minion + w.advance * (y if q == 0 else top - y))
    # Threats to each Hero: enemies close to it (Chebyshev distance, G1).
    for q in (0, 1):
        h = heroes[q]
        if h < 0:
            continue
        hx, hy = xs[h], ys[h]
        danger = 1.0 if pieces[h].hp > 2 else 1.6
        for i, p in enumerate(pieces):
            if p.owner == q:
                continue
            d = _distance(xs[i], ys[i], hx, hy)
            if d <= 1:
                score.add(q, -(w.threat_adjacent * danger))
            elif d == 2:
                score.add(q, -(w.threat_near * danger))
    # What the player to move can do to the other Hero with the cards in hand (T3).
    mover = state.current_player
    if mover in (0, 1) and not (state.settings.first_turn == "no_damage"
                                and state.turns_taken[mover] == 0):  # T8
        h = heroes[1 - mover]
        if h >= 0:
            hero = pieces[h]
            reach_damage = _reach_damage(state, mover, board, xs[h], ys[h])
            if reach_damage >= hero.hp:
                score.add(hero.owner, -w.hero_en_prise)
            else:
                score.add(hero.owner, -(w.hero_exposed * reach_damage))
        # ... whether it can strike one of the other's Minions (a trade, or a reset) ...
        if w.minion_en_prise and _minion_in_reach(state, mover, board):
            score.add(1 - mover, -w.minion_en_prise)
        # ... and whether it can carry the relic home this turn (V3).
        if w.relic_en_prise and home_threat(state, mover):
            score.add(1 - mover, -w.relic_en_prise)
    # The enemy relic: carry it home (V3), or get close to it (RL1).
    for q in (0, 1):
        relic = 1 - q
        carrier = state.relic_carrier[relic]
        if carrier >= 0:
            c = state.pieces[carrier]
            cx, cy = c.sq % n, c.sq // n
            home = cy if q == 0 else top - cy
            score.add(q, w.carry + w.carry_progress * (top - home))
            for i, p in enumerate(pieces):
                if p.owner != q and _distance(xs[i], ys[i], cx, cy) <= 2:
                    score.add(q, -w.carrier_threat)
            continue
        sq = state.relic_sq[relic]
        if sq < 0:
            continue
        rx, ry = sq % n, sq // n
        home = ry if q == 0 else top - ry
        score.add(q, w.ground_progress * (top - home))
        nearest = n
        guarded = False
        for i, p in enumerate(pieces):
            if p.sq == sq and p.owner == relic:
                guarded = True
            if p.owner == q:
                nearest = min(nearest, _distance(xs[i], ys[i], rx, ry))
        score.add(q, w.reach * (n - nearest))
        if guarded:
            score.add(relic, w.guard)
    for q in (0, 1):
        back = regroupable(state, q)
        score.add(q, w.pool * back
                  + (w.rite if state.rites[q] is not None else 0.0))
        if back and w.pool_ready and state.can_regroup(q):
            score.add(q, w.pool_ready)
    if state.vigil <= 3:  # V2 looms: the carriers' halves start to count
        vigil = state.vigil_scores()
        scale = (4 - state.vigil) / 3
        score.add(0, w.vigil * scale * vigil[0])
        score.add(1, w.vigil * scale * vigil[1])
    contempt = 0.0
    if w.vigil_clock or w.draw_contempt:
        leader, left = vigil_clock(state)
        full = state.settings.vigil_start + 1
        if leader is not None and w.vigil_clock:
            if mover == 1 - leader and can_reset(state, mover, board):
                left = full  # the side behind will reset it
            share = (w.clock_regroupable if w.clock_regroupable != 1.0
                     and _regroup_undoes_lead(state, leader) else 1.0)
            score.add(leader, share * w.vigil_clock * (full + 1 - left) / full)
        elif leader is None and w.draw_contempt:
            contempt = w.draw_contempt * (full + 1 - left) / full  # a draw draws near
    if w.module_terms and state.settings.modules:
        from .module_terms import module_terms

        contempt -= w.module_terms * module_terms(state, player)
    return score.of(player) - score.of(1 - player) - contempt


def can_reset(state: State, player: int, board: _Board | None = None) -> bool:
    """Whether ``player``, to move, can likely make this round eventful (V1): a rite in
    hand, an enemy relic on the ground within a step of one of their pieces (RL1), or
    an attack that could damage an enemy piece — any piece, or only the Hero where
    VAR2's ``vigil_reset=hero`` says a Minion's HP lost does not count. Distances
    only, as in :func:`evaluate`."""
    if state.rites[player] is not None:
        return True
    n = state.geometry.size
    if board is None:
        board = _Board(state)
    relic_sq = state.relic_sq[1 - player]
    if relic_sq >= 0:
        rx, ry = relic_sq % n, relic_sq // n
        for i, p in enumerate(board.pieces):
            if p.owner == player and _distance(board.x[i], board.y[i], rx, ry) <= 1:
                return True
    if state.turns_taken[player] == 0:
        return False  # T8: no damage on the first turn, or no ATTACK at all (no_attack)
    targets = HEROES if state.settings.vigil_reset == "hero" else ANY
    return _in_reach(state, player, board, targets, damaging=False)


def _regroup_undoes_lead(state: State, leader: int) -> bool:
    """Whether ``leader`` leads V2 on its last count alone (the engine's verdict: more
    Minions) by one Minion, and the other side can REGROUP one back (T4), which ties the
    count again."""
    other = 1 - leader
    if not (regroupable(state, other) and state.can_regroup(other)):
        return False
    if state.vigil_verdict()[1] != BY_MINIONS:
        return False
    minions = [0, 0]
    for p in state.pieces.values():
        if not p.hero:
            minions[p.owner] += 1
    return minions[leader] - minions[other] == 1


def regroupable(state: State, player: int) -> int:
    """How many of ``player``'s killed Minions can still come back by REGROUP (T4): none
    when killed Minions leave the game (VAR4 ``removed``), at most the regroups left
    under VAR1's ``regroup_limit``."""
    settings = state.settings
    if settings.killed_minions == "removed":
        return 0
    pool = state.pool[player]
    if settings.regroup_limit is not None:
        pool = min(pool, max(settings.regroup_limit - state.regroups[player], 0))
    return pool


def vigil_clock(state: State) -> tuple[int | None, int]:
    """(who would win if the Vigil ran out now, round ends left until it does if nothing
    happens). The first is the engine's own V2 verdict (carriers, then Hero damage, then
    Minions; ``None`` for a tie). The second counts the end of the current round: if
    something has happened in it, the Vigil goes back to its start (V1, VAR3) there and
    then needs that many quiet rounds."""
    leader = state.vigil_leader()
    if state.eventful:
        return leader, state.settings.vigil_start + 1
    return leader, max(state.vigil, 1)


#: (content id, faction, Hero?) -> (the content, card -> (reach, most damage) of that
#: card's line). The content is kept and compared: a freed content's id is soon another's
#: (``lab tune`` makes a patched content per trial).
_LINE_REACH: dict[tuple[int, str | None, bool],
                  tuple[Content, dict[str, tuple[int, int]]]] = {}


def _line_reach(state: State, card: str, piece: Piece,
                table: dict[str, tuple[int, int]] | None = None) -> tuple[int, int]:
    """(reach, most damage) of a piece's attack with a card: the lunge adds 1 to an
    adjacent strike's reach (D8); Ordeal may deal 2; Gale's push may crush for 1.
    ``table``: the piece's :func:`_reach_table`, when the caller has it."""
    if table is None:
        table = _reach_table(state, piece)
    found = table.get(card)
    if found is None:
        line = state.line_for(card, piece)
        if line.effect == "strike":
            found = (line.range + (1 if line.adjacent else 0), line.damage)
        elif line.effect == "ordeal":
            found = (line.range, max(row.damage for row in line.table))
        elif line.effect == "gale":
            found = (2, 1)
        else:
            found = (0, 0)
        table[card] = found
    return found


def _reach_table(state: State, piece: Piece) -> dict[str, tuple[int, int]]:
    """The memo of :func:`_line_reach` for ``piece``: a piece's lines depend only on
    whether it is a Hero and on its owner's faction (T3)."""
    key = (id(state.content), state.factions[piece.owner], piece.hero)
    found = _LINE_REACH.get(key)
    if found is None or found[0] is not state.content:
        found = _LINE_REACH[key] = (state.content, {})
    return found[1]


def _reach_damage(state: State, player: int, board: _Board, tx: int, ty: int) -> int:
    """The most damage one attack of ``player`` could deal at the square (tx, ty) this
    turn (distances only: lines of sight and blocked lunges are not checked)."""
    best = 0
    hand = state.hands[player]
    # best_at[hero][d]: the most damage a Minion's (0) or the Hero's (1) card deals at
    # distance d (0 to 3); worked out for the first piece of each kind.
    best_at: list[list[int] | None] = [None, None]
    for i, p in enumerate(board.pieces):
        if p.owner != player:
            continue
        d = _distance(board.x[i], board.y[i], tx, ty)
        if d > 3:
            continue
        kind = 1 if p.hero else 0
        at = best_at[kind]
        if at is None:
            table = _reach_table(state, p)
            at = [0, 0, 0, 0]
            for card in hand:
                reach, damage = _line_reach(state, card, p, table)
                for r in range(min(reach, 3) + 1):
                    if damage > at[r]:
                        at[r] = damage
            best_at[kind] = at
        if at[d] > best:
            best = at[d]
    return best


#: (content id, card, player) -> (the content, the card's MOVE offsets); the content
#: is compared as in :data:`_LINE_REACH`.
_DIAGRAM: dict[tuple[int, str, int], tuple[Content, tuple[tuple[int, int], ...]]] = {}


def _diagram(state: State, card: str, player: int) -> tuple[tuple[int, int], ...]:
    """A card's MOVE offsets for ``player`` (D1: turned for Skull)."""
    key = (id(state.content), card, player)
    found = _DIAGRAM.get(key)
    if found is None or found[0] is not state.content:
        sign = 1 if player == 0 else -1
        found = _DIAGRAM[key] = (state.content, tuple(
            (sign * dx, sign * dy) for dx, dy in state.content.card(card).diagram))
    return found[1]


def home_threat(state: State, player: int) -> bool:
    """Whether ``player``, at the start of their turn, can likely end it with their
    carrier of the enemy relic on their own back row (V3): a card's MOVE lands it there,
    or it is one step away and an Escort card (another piece moves, the carrier steps)
    or the Lantern Bearers' passive gives the step. A static check: attacks that move
    the carrier (Gale, Rapture, Passage) are not counted."""
    carrier_id = state.relic_carrier[1 - player]
    if carrier_id < 0:
        return False
    carrier = state.pieces.get(carrier_id)
    if carrier is None or carrier.veiled:
        return False
    geo = state.geometry
    n = geo.size
    home_y = 0 if player == 0 else n - 1
    x, y = carrier.sq % n, carrier.sq // n
    dist = abs(y - home_y)
    if dist > 2:
        return False

    def free(sq: int) -> bool:
        return sq >= 0 and state.piece_at(sq) is None and not state.is_ruin(sq)

    hand = state.hands[player]
    for card in hand:
        for dx, dy in _diagram(state, card, player):
            if y + dy == home_y and 0 <= x + dx < n and free(home_y * n + x + dx):
                return True
    if dist == 1:
        steps = any(free(home_y * n + x + dx) for dx in (-1, 0, 1) if 0 <= x + dx < n)
        if steps:
            faction = state.faction(player)
            if faction is not None and faction.passive == "lantern_step":
                return True
            others = sum(1 for p in state.pieces.values() if p.owner == player) > 1
            if others and any(state.content.card(c).escort for c in hand):
                return True
    return False


def hero_threat(state: State, player: int) -> bool:
    """Whether ``player``, at the start of their turn, can likely kill the enemy Hero
    with one attack (distances only, as in :func:`evaluate`)."""
    if state.turns_taken[player] == 0:
        return False  # T8: no damage on the first turn, or no ATTACK at all (no_attack)
    hero = state.hero(1 - player)
    if hero is None:
        return False
    n = state.geometry.size
    return _reach_damage(state, player, _Board(state), hero.sq % n, hero.sq // n) >= hero.hp


def _minion_in_reach(state: State, player: int, board: _Board) -> bool:
    """Whether one attack of ``player`` could damage an enemy Minion (distances only,
    as the other threat terms)."""
    return _in_reach(state, player, board, MINIONS, damaging=True)


#: Which enemy pieces :func:`_in_reach` looks for.
ANY: Final = 0
HEROES: Final = 1
MINIONS: Final = 2


def _in_reach(state: State, player: int, board: _Board, targets: int,
              damaging: bool) -> bool:
    """Whether a card in ``player``'s hand lets one of their pieces reach an enemy piece
    of the kind ``targets`` names (distances only); ``damaging``: only lines that deal
    damage count."""
    hand = state.hands[player]
    pieces, xs, ys = board.pieces, board.x, board.y
    reaches = [-1, -1]  # a Minion's (0) and the Hero's (1) reach; -1: not worked out yet
    attackers: list[int] = []  # index into pieces
    attacker_reach: list[int] = []
    for i, p in enumerate(pieces):
        if p.owner == player:
            kind = 1 if p.hero else 0
            reach = reaches[kind]
            if reach < 0:
                table = _reach_table(state, p)
                reach = 0
                for card in hand:
                    r, damage = _line_reach(state, card, p, table)
                    if r > reach and (damage > 0 or not damaging):
                        reach = r
                reaches[kind] = reach
            if reach:
                attackers.append(i)
                attacker_reach.append(reach)
    if not attackers:
        return False
    for i, p in enumerate(pieces):
        if p.owner == player or (targets == HEROES and not p.hero) \
                or (targets == MINIONS and p.hero):
            continue
        for k in range(len(attackers)):
            a = attackers[k]
            if _distance(xs[a], ys[a], xs[i], ys[i]) <= attacker_reach[k]:
                return True
    return False
