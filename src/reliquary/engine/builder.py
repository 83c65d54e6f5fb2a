"""Set up a position directly, for tests, puzzles and analysis.

>>> from reliquary import default_content
>>> from reliquary.engine import KEY, SKULL
>>> state = (Builder(default_content(), factions=("pyre-choir", "bone-wardens"))
...          .hero(KEY, "d4").hero(SKULL, "d6").minion(SKULL, "e5")
...          .hands(key=["Bolt", "Smite", "Hook"]).build())
>>> state.decision().kind, state.current_player
('play', 0)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .content import Content
from .state import EMPTY, RUIN, Piece, State
from .types import Settings


class Builder:
    """A fluent description of a position at the start of a player's turn.

    Defaults: Key to play, Key first, both players past their first turn, the Vigil at
    6, no rites held, empty pools, hands ``Pilgrim Crossroads Sidewind`` (Key) and
    ``Vault Litany Procession`` (Skull), waiting card ``Requiem``.
    """

    def __init__(self, content: Content, size: int = 8,
                 factions: tuple[str, str] = ("pyre-choir", "pyre-choir"),
                 **settings: Any) -> None:
        self.content = content
        self.settings = Settings(size=size, **settings)
        self.state = State(content, self.settings)
        s = self.state
        s.stack = []
        s.factions = list(factions)
        for f in factions:
            content.faction(f)
        s.hands = [["Pilgrim", "Crossroads", "Sidewind"], ["Vault", "Litany", "Procession"]]
        s.waiting = "Requiem"
        s.dealt = 7
        s.first = 0
        s.rites = [None, None]
        s.rite_draft = []
        s.turns_taken = [1, 1]
        s.placed = [99, 99]
        self._to_move = 0
        self._dealt_by_hand: set[str] = set()

    def _sq(self, name: str) -> int:
        return self.state.geometry.parse(name)

    def ruins(self, *names: str) -> Builder:
        for name in names:
            sq = self._sq(name)
            self.state.board[sq] = RUIN
            self.state.ruins |= 1 << sq
        return self

    def piece(self, owner: int, square: str, hero: bool = False, hp: int | None = None,
              max_hp: int | None = None, harrowed: bool = False, veiled: bool = False,
              aegis: bool = False) -> Builder:
        s = self.state
        sq = self._sq(square)
        if s.board[sq] != EMPTY:
            raise ValueError(f"{square} is not empty")
        full = 1
        if hero:
            faction = s.faction(owner)
            full = faction.hero_hp if faction else 4
        full = max_hp or full
        piece = Piece(s.next_id, owner, hero, hp if hp is not None else full, sq, harrowed)
        piece.max_hp = full
        piece.veiled, piece.aegis = veiled, aegis
        s.next_id += 1
        s._add_piece(piece)
        return self

    def hero(self, owner: int, square: str, **kw: Any) -> Builder:
        return self.piece(owner, square, hero=True, **kw)

    def minion(self, owner: int, square: str, **kw: Any) -> Builder:
        return self.piece(owner, square, hero=False, **kw)

    def relic(self, owner: int, square: str) -> Builder:
        """``owner``'s relic lies on the ground at ``square``."""
        self.state.relic_sq[owner] = self._sq(square)
        self.state.relic_carrier[owner] = -1
        return self

    def carry(self, relic_owner: int, square: str) -> Builder:
        """The (enemy) piece at ``square`` carries ``relic_owner``'s relic."""
        pid = self.state.board[self._sq(square)]
        if pid < 0 or self.state.pieces[pid].owner == relic_owner:
            raise ValueError(f"no enemy of the relic's owner at {square}")
        self.state.relic_carrier[relic_owner] = pid
        self.state.relic_sq[relic_owner] = -1
        return self

    def hands(self, key: list[str] | None = None, skull: list[str] | None = None,
              waiting: str | None = None) -> Builder:
        s = self.state
        if key is not None:
            s.hands[0] = list(key)
        if skull is not None:
            s.hands[1] = list(skull)
        if waiting is not None:
            s.waiting = waiting
        for name, given in (("key", key), ("skull", skull), ("waiting", waiting)):
            if given is not None:
                self._dealt_by_hand.add(name)
        for card in [*s.hands[0], *s.hands[1], s.waiting]:
            if card is not None:
                self.content.card(card)
        return self

    def _deal_defaults_apart(self) -> None:
        """Default hands give way to the cards a test chose; then no card is dealt twice."""
        s = self.state
        chosen = ({c for c in s.hands[0]} if "key" in self._dealt_by_hand else set()) | (
            {c for c in s.hands[1]} if "skull" in self._dealt_by_hand else set()) | (
            {s.waiting} if "waiting" in self._dealt_by_hand else set())
        spare = [c.id for c in self.content.cards if c.id not in chosen
                 and c.id not in s.hands[0] + s.hands[1] + [s.waiting]]
        for p, name in ((0, "key"), (1, "skull")):
            if name not in self._dealt_by_hand:
                s.hands[p] = [spare.pop(0) if c in chosen else c for c in s.hands[p]]
        if "waiting" not in self._dealt_by_hand and s.waiting in chosen:
            s.waiting = spare.pop(0)
        cards = [c for c in (*s.hands[0], *s.hands[1], s.waiting) if c is not None]
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        if repeated:
            raise ValueError(f"cards dealt twice (hands and waiting card): {repeated}")

    def rites(self, key: str | None = None, skull: str | None = None) -> Builder:
        self.state.rites = [key, skull]
        return self

    def pools(self, key: int = 0, skull: int = 0) -> Builder:
        self.state.pool = [key, skull]
        return self

    def set(self, **fields: Any) -> Builder:
        """Set other state fields directly: ``vigil``, ``rounds``, ``first``,
        ``turns_taken``, ``spent``, ``eventful``."""
        for name, value in fields.items():
            if not hasattr(self.state, name):
                raise AttributeError(f"a state has no field {name!r}")
            setattr(self.state, name, value)
        return self

    def options(self, **settings: Any) -> Builder:
        """Change rule settings (``los``, ``first_turn``, ``round_cap``)."""
        self.settings = replace(self.settings, **settings)
        self.state.settings = self.settings
        return self

    def to_move(self, player: int) -> Builder:
        self._to_move = player
        return self

    def build(self) -> State:
        """The position, at the ``play`` decision of the player to move."""
        self._deal_defaults_apart()
        s = self.state.clone()
        s._start_turn(self._to_move)
        for p in s.pieces.values():  # Aegis set by the builder lasts into this turn
            orig = self.state.pieces[p.id]
            p.aegis = orig.aegis
        s._advance()
        return s
