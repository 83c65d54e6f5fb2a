"""Plain-text drawing of positions and cards, for the terminal.

Board legend: ``H``/``M`` a Key Hero/Minion, ``h``/``m`` a Skull Hero/Minion, followed
by its HP; ``+`` after a piece: it carries the enemy relic; ``#`` a Ruin; ``K``/``S``
Key's/Skull's relic on the ground; ``.`` an empty square. Rank 1 (Key's back row) is
at the bottom. ``v``/``a`` after a piece: Veiled/Aegis; with rule modules, their
conditions follow, a letter and any value (:data:`CONDITION_MARKS`: ``b2`` Burning 2).
Modules also add marks after a square (``Hooks.text_marks``) and lines under the board
(``Hooks.text_lines``): Keepers' Relics writes a token as its type's initial and value
(``i2``; ``i?`` face down), ``*`` before a carried one, ``@`` and the type's initial
after a Wayshrine (whose condition mark is ``w``).
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
        if len(piece.conds) > len(flags):  # a module's conditions (none in the base game)
            flags += "".join(_condition_mark(c[0], c[1]) for c in piece.conds
                             if c[0] not in ("veil", "aegis"))
        return f"{letter}{piece.hp}{mark}{flags}{relic_mark}"
    if state.is_ruin(sq):
        return "#"
    return relic_mark or "."


#: The letters of the conditions on the text board (others: their first letter).
CONDITION_MARKS: dict[str, str] = {
    "burning": "b", "poison": "p", "fast": "f", "slow": "s", "paralyzed": "z", "focus": "o",
    "defensive": "d"}


def _condition_mark(name: str, value: int) -> str:
    return CONDITION_MARKS.get(name, name[:1]) + (str(value) if value else "")


def render_conditions(state: State) -> list[str]:
    """One line per piece with a module's condition: where, whose, and each by name."""
    lines = []
    for p in sorted(state.pieces.values(), key=lambda p: p.sq):
        conds = [f"{c[0].capitalize()}{f' {c[1]}' if c[1] else ''}" for c in p.conds
                 if c[0] not in ("veil", "aegis")]
        if conds:
            kind = "Hero" if p.hero else "Minion"
            lines.append(f"  {state.geometry.name(p.sq)} {PLAYER_NAMES[p.owner]} {kind}: "
                         f"{', '.join(conds)}")
    return lines


def _module_marks(state: State) -> dict[int, str]:
    marks: dict[int, str] = {}
    for h in state._rules.hooks:
        for sq, mark in h.text_marks(state).items():
            marks[sq] = marks.get(sq, "") + mark
    return marks


def render_board(state: State) -> str:
    """The board as text, Key's back row at the bottom."""
    n = state.geometry.size
    cells = [[_cell(state, r * n + f) for f in range(n)] for r in range(n)]
    if state.settings.modules:  # a module's marks after the square's own (tokens, ...)
        for sq, mark in _module_marks(state).items():
            cell = cells[sq // n][sq % n]
            cells[sq // n][sq % n] = ("" if cell == "." else cell) + mark
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
    if state.settings.modules:
        for h in state._rules.hooks:
            out.extend(h.text_lines(state))
        conditions = render_conditions(state)
        if conditions:
            out.append("conditions:")
            out.extend(conditions)
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
