"""The widgets of the terminal app: board, cards, status line, options and log.

They draw what they are given (a :class:`BoardScene` of the engine's state and the
marks around it); none of them decides anything. Pieces are told apart by letters
(``H``/``M`` Key, ``h``/``m`` Skull), never by colour alone, so the board reads in 16
colours and under ``NO_COLOR``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from ..engine import SIDES, Card, State
from ..engine.geometry import FILES
from ..engine.visibility import SPECTATOR, may_see, pending_secrets
from ..text import CONDITION_MARKS
from ..web.text import names_of
from .i18n import side, t
from .modules import (
    UPGRADE_MARK,
    board_marks,
    end_phase_banner,
    module_status,
    upgrade_conditions,
)

KEY_STYLE = "bold bright_cyan"
SKULL_STYLE = "bold bright_red"
PIECE_STYLES = (KEY_STYLE, SKULL_STYLE)
RELIC_STYLES = ("cyan", "red")
RUIN_STYLE = "bright_black"
FRAME_STYLE = "bright_black"
# ANSI colour names: they keep their meaning in 16 colours, and stay apart as greys
# under NO_COLOR (the options are also underlined and dotted, the cursor reversed).
LAST_TURN_BG = " on bright_black"
PREVIEW_BG = " on green"
CURSOR_STYLE = "reverse"
#: Keepers' Wayshrine (M-KEEP-21): a piece with this condition, drawn ``W``/``w``.
WAYSHRINE = "wayshrine"


@dataclass
class BoardScene:
    """What the board shows: a state and its marks (squares as the engine numbers them)."""

    state: State
    cursor: int = -1
    options: set[int] = field(default_factory=set)      # squares the decision offers
    preview: set[int] = field(default_factory=set)      # squares the selected option touches
    last_turn: set[int] = field(default_factory=set)    # squares the last turn touched
    subject: int = -1                                    # the piece the decision is about
    flip: bool = False                                   # Skull's back row at the bottom


def _condition_mark(name: str, value: int) -> str:
    """A condition's mark: the text board's letter (``b2`` Burning 2, ``z`` Paralyzed)."""
    if name in ("veil", "aegis"):
        return name[0]
    return CONDITION_MARKS.get(name, name[:1]) + (str(value) if value else "")


def cell_parts(state: State, sq: int, width: int,
               marks: dict[int, list[tuple[str, str]]] | None = None) -> list[tuple[str, str]]:
    """A square's text (``width`` characters) in styled parts: the piece, the Ruin or
    the relic, then each rule module's marks (:func:`~.modules.board_marks`, worked
    out here unless given)."""
    if marks is None:
        marks = board_marks(state)
    piece = state.piece_at(sq)
    ground = [p for p in (0, 1) if state.relic_carrier[p] < 0 and state.relic_sq[p] == sq]
    relic = "".join("KS"[p] for p in ground)
    extra = marks.get(sq, [])
    parts: list[tuple[str, str]]
    if piece is not None:
        shrine = piece.has(WAYSHRINE) if piece.conds else False
        letter = "W" if shrine else "H" if piece.hero else "M"
        letter = letter if piece.owner == 0 else letter.lower()
        upgrades = upgrade_conditions(state) if piece.conds else frozenset()
        # Marks: + carries a relic, x harrowed, ^ a Glory upgrade, then each condition's
        # initial (v Veil, a Aegis, and any module's conditions), as many as the cell holds.
        mark = ("+" if state.carried_relic(piece) >= 0 else "") + (
            "x" if piece.harrowed else "") + (
            UPGRADE_MARK if any(c[0] in upgrades for c in piece.conds) else "") + "".join(
                _condition_mark(c[0], c[1]) for c in piece.conds
                if c[0] not in upgrades and c[0] != WAYSHRINE)
        parts = [(f"{letter}{piece.hp}{mark}{relic}", PIECE_STYLES[piece.owner])]
    elif state.is_ruin(sq):
        if extra:  # a token on the Ruin: its mark between the Ruin's shading
            text = "".join(m for m, _ in extra)
            left = text.center(width).index(text) if len(text) < width else 0
            return _fit([("░" * left, RUIN_STYLE), *extra,
                         ("░" * max(0, width - len(text) - left), RUIN_STYLE)], width)
        return [("░" * width, RUIN_STYLE)]
    elif relic:
        parts = [(f"({relic})", RELIC_STYLES[ground[0]])]
    else:
        parts = []
    parts += extra
    text = "".join(p for p, _ in parts)
    if len(text) < width:  # centred, as the base game's cells, in the square's style
        left = text.center(width).index(text)  # str.center's split of an odd padding
        style = parts[0][1] if parts else ""
        parts = [(" " * left, style), *parts, (" " * (width - len(text) - left), style)]
    return _fit(parts, width)


def _fit(parts: list[tuple[str, str]], width: int) -> list[tuple[str, str]]:
    """The parts cut to ``width`` characters."""
    out: list[tuple[str, str]] = []
    room = width
    for text, style in parts:
        if room <= 0:
            break
        out.append((text[:room], style))
        room -= len(text[:room])
    return out


def cell_text(state: State, sq: int, width: int,
              marks: dict[int, list[tuple[str, str]]] | None = None) -> tuple[str, str]:
    """A square's text (``width`` characters) and its main style."""
    parts = cell_parts(state, sq, width, marks)
    style = next((st for text, st in parts if text.strip() and st), "")
    return "".join(text for text, _ in parts), style


def board_layout(size: int, width: int, height: int) -> tuple[int, bool]:
    """The cell width (3 to 7) and whether rows get their own separator lines."""
    cell = max(3, min(7, (width - 4) // size - 1))
    spacious = height >= 2 * size + 2
    return cell, spacious


def render_board(scene: BoardScene, width: int = 44, height: int = 12) -> Text:
    """The board with box characters: rank numbers left, files below."""
    state = scene.state
    n = state.geometry.size
    cell, spacious = board_layout(n, width, height)
    ranks = list(range(n)) if scene.flip else list(range(n - 1, -1, -1))
    files = list(range(n - 1, -1, -1)) if scene.flip else list(range(n))
    bar = "─" * cell
    marks = board_marks(state)
    out = Text(no_wrap=True, overflow="crop")
    out.append("   ┌" + "┬".join([bar] * n) + "┐\n", FRAME_STYLE)
    for i, r in enumerate(ranks):
        out.append(f"{r + 1:>2} ", "bold")
        out.append("│", FRAME_STYLE)
        for f in files:
            sq = r * n + f
            parts = cell_parts(state, sq, cell, marks)
            if sq in scene.options and "".join(p for p, _ in parts).strip() == "":
                parts = [("·".center(cell), "green")]
            extra = ""
            if sq in scene.preview:
                extra += PREVIEW_BG
            elif sq in scene.last_turn:
                extra += LAST_TURN_BG
            if sq in scene.options:
                extra += " underline"
            if sq == scene.subject:
                extra += " bold italic"
            if sq == scene.cursor:
                extra += " " + CURSOR_STYLE
            merged: list[tuple[str, str]] = []  # one span per style, as one cell was
            for text, style in parts:
                full = (style + extra).strip()
                if merged and merged[-1][1] == full:
                    merged[-1] = (merged[-1][0] + text, full)
                else:
                    merged.append((text, full))
            for text, style in merged:
                out.append(text, style or None)
            out.append("│", FRAME_STYLE)
        out.append("\n")
        if spacious and i < n - 1:
            out.append("   ├" + "┼".join([bar] * n) + "┤\n", FRAME_STYLE)
    out.append("   └" + "┴".join([bar] * n) + "┘\n", FRAME_STYLE)
    out.append("    " + "".join(FILES[f].center(cell + 1) for f in files).rstrip(), "bold")
    return out


def square_at(scene: BoardScene, width: int, height: int, x: int, y: int) -> int:
    """The square under a point of the board widget (-1 outside the squares)."""
    n = scene.state.geometry.size
    cell, spacious = board_layout(n, width, height)
    col, off = divmod(x - 4, cell + 1)
    if x < 4 or off == cell or not 0 <= col < n:
        return -1
    row = y - 1
    if spacious:
        row, off = divmod(row, 2)
        if off:
            return -1
    if not 0 <= row < n:
        return -1
    r = row if scene.flip else n - 1 - row
    f = n - 1 - col if scene.flip else col
    return r * n + f


class BoardView(Widget):
    """The board; a click on a square posts :class:`BoardView.Clicked`."""

    DEFAULT_CSS = "BoardView { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: clip; }"

    class Clicked(Message):
        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def __init__(self, scene: BoardScene, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.scene = scene

    def show(self, scene: BoardScene) -> None:
        self.scene = scene
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Rows between the squares when the board and the cards' strip both fit."""
        n = self.scene.state.geometry.size
        spacious = 2 * n + 2
        return spacious if container.height - CARDS_HEIGHT >= spacious else n + 3

    def render(self) -> Text:
        return render_board(self.scene, self.size.width or 44, self.size.height or 12)

    @staticmethod
    def min_width(size: int) -> int:
        """The narrowest the board draws in (cells of 3 characters)."""
        return 5 + 4 * size

    def on_click(self, event: events.Click) -> None:
        sq = square_at(self.scene, self.size.width, self.size.height, event.x, event.y)
        if sq >= 0:
            self.post_message(self.Clicked(sq))


# ---------------------------------------------------------------------- cards
def diagram_lines(card: Card, turned: bool, wide: bool) -> list[str]:
    """A card's 5×5 movement diagram as the board shows it (Skull's turned round):
    ``o`` the piece, ``■`` where it may move, ``·`` elsewhere."""
    rows = []
    for y in range(2, -3, -1):
        cells = []
        for x in range(-2, 3):
            dx, dy = (-x, -y) if turned else (x, y)
            cells.append("o" if (x, y) == (0, 0) else "■" if (dx, dy) in card.diagram
                         else "·")
        rows.append((" " if wide else "").join(cells))
    return rows


@dataclass
class CardsScene:
    state: State
    selected: str | None = None   # the card of the selected option
    flip: bool = False


def render_cards(scene: CardsScene, lang: str, width: int = 44) -> Text:
    """Both hands and the waiting card, each with its diagram, in one strip."""
    state = scene.state
    groups: list[tuple[str, list[str], int]] = [
        (side(lang, 0), state.hands[0], 0),
        (t(lang, "waiting"), [state.waiting] if state.waiting else [], -1),
        (side(lang, 1), state.hands[1], 1)]
    count = max(1, sum(len(cards) for _, cards, _ in groups))
    col = max(6, min(12, (width - 2) // max(count, 7)))
    wide = col >= 10
    out = Text(no_wrap=True, overflow="crop")
    head = Text()
    names = Text()
    rows = [Text() for _ in range(5)]
    for g, (label, cards, owner) in enumerate(groups):
        span = max(len(cards), 1) * col
        style = PIECE_STYLES[owner] if owner >= 0 else "bold"
        head.append(label[:span - 1].ljust(span), style)
        for cid in cards or [""]:
            if not cid:
                names.append("-".ljust(col))
                for row in rows:
                    row.append(" " * col)
                continue
            card = state.content.card(cid)
            chosen = cid == scene.selected or cid == state.played
            names.append(cid[:col - 1].ljust(col - 1), "reverse" if chosen else style)
            names.append(" ")
            turned = (owner == 1) != scene.flip
            for row, drawn in zip(rows, diagram_lines(card, turned, wide), strict=True):
                for ch in drawn:
                    row.append(ch, "bold yellow" if ch == "■" else "bold" if ch == "o"
                               else "bright_black")
                row.append(" " * (col - len(drawn)))
        if g < len(groups) - 1:
            for line in (head, names, *rows):
                line.append("│", FRAME_STYLE)
    for line in (head, names, *rows):
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


CARDS_HEIGHT = 7


class CardsView(Widget):
    """Both hands and the waiting card; the board comes first when rows are short."""

    DEFAULT_CSS = """CardsView { height: 1fr; max-height: 7; min-height: 2;
                               text-wrap: nowrap; text-overflow: clip; }"""

    def __init__(self, scene: CardsScene, lang: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.scene = scene
        self.lang = lang

    def show(self, scene: CardsScene) -> None:
        self.scene = scene
        self.refresh()

    def render(self) -> Text:
        return render_cards(self.scene, self.lang, self.size.width or 44)


# ---------------------------------------------------------------------- status
def status_text(state: State, lang: str, *, who: str, prompt: str, extra: str = "",
                viewer: int | None = SPECTATOR) -> Text:
    """Whose turn and what they decide; the Vigil, round, factions, rites and pools.
    A faction chosen in secret shows only to a ``viewer`` who may see it (S3)."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(who, "bold")
    banner = end_phase_banner(state, lang)
    if banner:  # the End phase is its own step (M-GLORY-8)
        out.append(" · ")
        out.append(banner, "bold reverse")
    if prompt:
        out.append(" · " + prompt)
    if extra:
        out.append("  " + extra, "italic")
    out.append("\n")
    out.append(f"{t(lang, 'vigil')} {state.vigil}", "bold yellow")
    out.append(f" · {t(lang, 'round')} {state.rounds + 1}")
    for line in module_status(state, lang):
        out.append(" · " + line, "bold")
    names = names_of(state.content)
    secrets = pending_secrets(state)
    for p in (0, 1):
        fid = state.factions[p]
        if fid:
            fname = names["factions"][fid][lang]
        elif p in secrets:
            fname = (names["factions"][secrets[p]][lang] if may_see(state, viewer, p)
                     else t(lang, "hidden"))
        else:
            fname = "—"
        rite = state.rites[p]
        rite_name = names["rites"].get(rite, {}).get(lang, rite) if rite else "—"
        out.append("\n" if p == 1 else " │ ", FRAME_STYLE)
        out.append(side(lang, p), PIECE_STYLES[p])
        out.append(f": {fname} · {t(lang, 'rite')} {rite_name} · "
                   f"{t(lang, 'pools')} {state.pool[p]}")
    return out


def side_of(player: int) -> str:
    return SIDES[player] if player in (0, 1) else "chance"
