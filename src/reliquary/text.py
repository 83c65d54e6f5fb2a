"""Plain-text drawing of positions and cards, for the terminal.

Board legend: ``H``/``M`` a Key Hero/Minion, ``h``/``m`` a Skull Hero/Minion, followed
by its HP; ``+`` after a piece: it carries the enemy relic; ``#`` a Ruin; ``K``/``S``
Key's/Skull's relic on the ground; ``.`` an empty square. Rank 1 (Key's back row) is
at the bottom.
"""

from __future__ import annotations

from .engine import PLAYER_NAMES, Card, State
from .engine.geometry import FILES


def _cell(state: State, sq: int) -> str:
    piece = state.piece_at(sq)
    ground = [p for p in (0, 1)
              if state.relic_carrier[p] < 0 and state.relic_sq[p] == sq]
    relic_mark = "".join("KS"[p] for p in ground)
    if piece is not None:
        letter = "H" if piece.hero else "M"
        letter = letter if piece.owner == 0 else letter.lower()
        mark = "+" if state.carried_relic(piece) >= 0 else ""
        flags = ("v" if piece.veiled else "") + ("a" if piece.aegis else "")
        return f"{letter}{piece.hp}{mark}{flags}{relic_mark}"
    if state.is_ruin(sq):
        return "#"
    return relic_mark or "."


def render_board(state: State) -> str:
    """The board as text, Key's back row at the bottom."""
    n = state.geometry.size
    cells = [[_cell(state, r * n + f) for f in range(n)] for r in range(n)]
    width = max(4, max(len(c) for row in cells for c in row) + 1)
    lines = []
    for r in range(n - 1, -1, -1):
        lines.append(f"{r + 1:>2} " + "".join(c.ljust(width) for c in cells[r]).rstrip())
    lines.append("   " + "".join(FILES[f].ljust(width) for f in range(n)).rstrip())
    return "\n".join(lines)


def render_state(state: State) -> str:
    """Board plus the facts around it: factions, hands, Vigil, rites, pools, decision."""
    out = [render_board(state), ""]
    for p in (0, 1):
        faction = state.faction(p)
        fname = faction.name if faction else "(no faction yet)"
        hand = " ".join(state.hands[p]) or "-"
        rite = state.rites[p] or "-"
        out.append(f"{PLAYER_NAMES[p]:<5}  {fname:<16} hand: {hand:<30} rite: {rite:<12} "
                   f"pool: {state.pool[p]}")
    first = PLAYER_NAMES[state.first] if state.first >= 0 else "-"
    out.append(f"waiting card: {state.waiting or '-'}   first player: {first}   "
               f"Vigil: {state.vigil}   rounds: {state.rounds}")
    variants = state.settings.variants()
    if variants:
        out.append("variants: " + ", ".join(f"{k}={v}" for k, v in variants.items()))
    if state.result is not None:
        r = state.result
        who = "draw" if r.winner is None else f"{PLAYER_NAMES[r.winner]} wins"
        scores = f" scores {r.scores[0]}–{r.scores[1]}" if r.scores else ""
        out.append(f"result: {who} ({r.reason}{scores}; {r.detail})")
    else:
        d = state.decision()
        who = "chance" if d.is_chance else PLAYER_NAMES[d.player]
        out.append(f"to decide: {d.kind} ({who}), {len(d.options)} options")
    return "\n".join(out)


def render_diagram(card: Card) -> str:
    """A card's 5×5 movement diagram from its owner's point of view (``o`` the piece)."""
    rows = []
    for y in range(2, -3, -1):
        row = []
        for x in range(-2, 3):
            row.append("o" if (x, y) == (0, 0) else "x" if (x, y) in card.diagram else ".")
        rows.append(" ".join(row))
    return "\n".join(rows)


def render_text(state: State, mode: str | None) -> str | None:
    """The environments' render modes (Gymnasium, PettingZoo): ``"ansi"`` returns the
    drawing of :func:`render_state`, ``"human"`` prints it, ``None`` draws nothing."""
    if mode is None:
        return None
    text = render_state(state)
    if mode == "human":
        print(text)
        return None
    return text
