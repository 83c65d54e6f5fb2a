"""The shared tensor encoding of Reliquary for learning: a fixed action space and
observation planes, both from the point of view of one player.

The PettingZoo and Gymnasium environments (:mod:`reliquary.env`) and the OpenSpiel
game (:mod:`reliquary.env.openspiel`) use this one encoding, so a policy trained
in one runs in the others. Only :mod:`numpy` is needed.

**Point of view.** Both actions and observations are relative to a player: for Key
the board is as the engine numbers it (rank 0 is Key's back row); for Skull it is
turned half a turn (square ``sq`` becomes ``area - 1 - sq``, a direction (dx, dy)
becomes (−dx, −dy)), so every player sees their own back row at row 0 and plays
"up" the board — the same turn the rules give the cards' diagrams (D1).

**Actions** (:class:`ActionSpace`), for a board of side ``n`` (``area = n * n``):

=====================  ==========================  ====================================
range                  size                        options
=====================  ==========================  ====================================
squares                area                        every square decision (Ruins,
                                                   deployment, relic, mover, destination,
                                                   attacker, target, lunge, steps …)
steps                  area × 8                    an Escort step: (from square,
                                                   direction), directions counter-
                                                   clockwise from east
plays                  cards × 5                   card × mode (move, attack, regroup,
                                                   rite, pass)
pass                   1                           decline an optional part (``pass``)
factions               factions                    the faction choice (S3)
rites                  rites                       the rite draft (S5)
=====================  ==========================  ====================================

With the package's content that is 679 actions on side 8. The decision kind is part
of the observation, so a square action means "this square" for whatever the current
decision asks. Chance outcomes (the deal, the die) are not actions: the environments
resolve them.

**Observations** (:class:`Observer`): a float32 array of shape ``(planes, n, n)``
(channels first, like OpenSpiel's board games: chess is ``[20, 8, 8]``), each plane
named (:meth:`Observer.plane_names`, :meth:`Observer.named`). The older layout
``(n, n, planes)`` (channels last) stays available: ``Observer(…, layout="channels_last")``
and the environments' ``layout`` parameter. :data:`BOARD_PLANES` hold the
pieces by side and kind, HP, flags, Ruins, relics, the subject piece of the current
decision and the back rows; the other planes are constant over the board (scalars
broadcast, like AlphaZero's inputs): whose decision it is, the Vigil, rounds, pools,
cards in each hand, the waiting card and the card being played, rites, factions and
the kind of the pending decision (see :meth:`Observer.plane_names`). The opponent's
faction is shown only once both are revealed (S3: the choice is secret); hands,
rites and everything else on the table are public in Reliquary.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine import DECISION_KINDS, MODES, PASS, Content, Option, Play, Settings, State, Step
from ..engine.geometry import DIRECTIONS
from ..engine.hooks import BASE_CONDITIONS, Rulebook
from ..engine.types import INTERACT
from ..engine.visibility import observation_state, pending_secrets

#: Planes that vary over the board, in order.
BOARD_PLANES: tuple[str, ...] = (
    "own_minion", "own_hero", "enemy_minion", "enemy_hero",
    "hp",               # the piece's HP / the largest Hero HP of the content
    "harrowed", "veiled", "aegis", "stepped",
    "ruin",
    "own_relic",        # where the observer's relic is (on the ground or carried)
    "own_relic_carried",
    "enemy_relic", "enemy_relic_carried",
    "subject",          # the piece the current decision is about (mover, attacker …)
    "own_back_row", "enemy_back_row",
)
#: Scalar planes (constant over the board), in order; per-content planes follow.
SCALAR_PLANES: tuple[str, ...] = (
    "to_move",          # the observer takes the current decision
    "goes_first",       # the observer is the first player (S4), once known
    "vigil",            # Vigil / 6
    "eventful",         # something happened this round (V1): the Vigil will reset
    "rounds",           # completed rounds / round cap (D19)
    "own_first_turn", "enemy_first_turn",   # T8: before the player's first turn ends
    "own_pool", "enemy_pool",               # killed Minions that can Regroup / Minions
    "own_grave_used", "enemy_grave_used",   # Grave Tide's passive spent (D11)
    "own_placed", "enemy_placed",           # pieces deployed / pieces to deploy (S6)
    "own_regroups_left", "enemy_regroups_left",  # VAR1: REGROUPs left / limit (1: no limit)
    "rapture_steps",    # Rapture steps left / 3, during its steps
    "rapture_up_to",    # those steps are "up to" (may stop early)
)

_DIRECTION_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}
#: The observation layouts: planes first (the default, OpenSpiel's) or last.
LAYOUTS = ("channels_first", "channels_last")


def _turned(sq: int, area: int, player: int) -> int:
    """A square as ``player`` sees it (the board is turned half a turn for Skull)."""
    return sq if player == 0 else area - 1 - sq


class ActionSpace:
    """The fixed action space for one content and board side (see the module doc).

    >>> from reliquary import new_game
    >>> state = new_game()
    >>> space = ActionSpace(state.content, 8)
    >>> space.size
    679
    >>> option = state.legal_options()[0]
    >>> space.decode(space.encode(option, 0), 0) == option
    True
    """

    def __init__(self, content: Content, size: int, settings: Settings | None = None) -> None:
        self.content = content
        self.board_side = size
        self.area = area = size * size
        self.cards: tuple[str, ...] = tuple(c.id for c in content.cards)
        self.factions: tuple[str, ...] = tuple(f.id for f in content.factions)
        self.rites: tuple[str, ...] = tuple(r.id for r in content.rites)
        self.square_start = 0
        self.step_start = area
        self.play_start = self.step_start + area * len(DIRECTIONS)
        self.pass_action = self.play_start + len(self.cards) * len(MODES)
        self.faction_start = self.pass_action + 1
        self.rite_start = self.faction_start + len(self.factions)
        # With rule modules (docs/modules.md): an INTERACT play per card and the names
        # their decisions offer, after the base ranges (a base-game space is unchanged).
        self.interact_start = self.rite_start + len(self.rites)
        self.names: tuple[str, ...] = ()
        interact = 0
        if settings is not None and settings.modules:
            rules = Rulebook.of(content, settings)
            interact = len(self.cards) if rules.interact else 0
            self.names = tuple(dict.fromkeys(n for h in rules.hooks for n in h.action_names()))
        self.name_start = self.interact_start + interact
        #: The number of actions.
        self.size = self.name_start + len(self.names)
        self._name_index = {n: i for i, n in enumerate(self.names)}
        self._card_index = {c: i for i, c in enumerate(self.cards)}
        self._faction_index = {f: i for i, f in enumerate(self.factions)}
        self._rite_index = {r: i for i, r in enumerate(self.rites)}

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        return self  # immutable: copies of states that hold it share it

    def ranges(self) -> dict[str, tuple[int, int]]:
        """Each kind of action and its range ``[start, stop)``."""
        return {"square": (0, self.step_start), "step": (self.step_start, self.play_start),
                "play": (self.play_start, self.pass_action),
                "pass": (self.pass_action, self.faction_start),
                "faction": (self.faction_start, self.rite_start),
                "rite": (self.rite_start, self.interact_start),
                "interact": (self.interact_start, self.name_start),
                "module_name": (self.name_start, self.size)}

    def encode(self, option: Option, player: int) -> int:
        """The action of a player's option (``player`` is who takes the decision)."""
        area = self.area
        if option == PASS:
            return self.pass_action
        if isinstance(option, Play):
            card = self._card_index.get(option.card)
            if card is not None and option.mode == INTERACT and self.name_start > \
                    self.interact_start:
                return self.interact_start + card
            if card is None or option.mode not in MODES:
                raise ValueError(f"{option!r} is not a play of this content's cards")
            return self.play_start + card * len(MODES) + MODES.index(option.mode)
        if isinstance(option, Step):
            n = self.board_side
            dx = option.to % n - option.frm % n
            dy = option.to // n - option.frm // n
            if player == 1:
                dx, dy = -dx, -dy
            d = _DIRECTION_INDEX.get((dx, dy))
            if d is None or not 0 <= option.frm < area:
                raise ValueError(f"{option!r} is not a step to an adjacent square")
            return self.step_start + _turned(option.frm, area, player) * len(DIRECTIONS) + d
        if isinstance(option, str):
            if option in self._faction_index:
                return self.faction_start + self._faction_index[option]
            if option in self._rite_index:
                return self.rite_start + self._rite_index[option]
            if option in self._name_index:
                return self.name_start + self._name_index[option]
            raise ValueError(f"{option!r} is neither a faction nor a rite of this content, "
                             "nor a name a module of these settings offers")
        if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < area:
            return _turned(option, area, player)
        raise ValueError(f"{option!r} is not a player's option on a side-{self.board_side} "
                         "board (chance outcomes have no action)")

    def decode(self, action: int, player: int) -> Option:
        """The option of an action for the player who takes the decision.

        Raises :class:`ValueError` for an action outside ``[0, size)`` or a step off
        the board; whether the option is legal now is the engine's question.
        """
        action = int(action)
        area, n = self.area, self.board_side
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside the action space [0, {self.size})")
        if action < self.step_start:
            return _turned(action, area, player)
        if action < self.play_start:
            frm_seen, d = divmod(action - self.step_start, len(DIRECTIONS))
            frm = _turned(frm_seen, area, player)
            dx, dy = DIRECTIONS[d]
            if player == 1:
                dx, dy = -dx, -dy
            x, y = frm % n + dx, frm // n + dy
            if not (0 <= x < n and 0 <= y < n):
                raise ValueError(f"action {action} is a step off the board")
            return Step(frm, y * n + x)
        if action < self.pass_action:
            card, mode = divmod(action - self.play_start, len(MODES))
            return Play(self.cards[card], MODES[mode])
        if action == self.pass_action:
            return PASS
        if action < self.rite_start:
            return self.factions[action - self.faction_start]
        if action < self.interact_start:
            return self.rites[action - self.rite_start]
        if action < self.name_start:
            return Play(self.cards[action - self.interact_start], INTERACT)
        return self.names[action - self.name_start]

    def legal_actions(self, state: State) -> list[int]:
        """The sorted actions of the current decision's options (empty at chance or the end)."""
        if state.is_terminal or state.is_chance:
            return []
        player = state.current_player
        return sorted(self.encode(o, player) for o in state.legal_options())

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        """1 for each legal action of the current decision, 0 elsewhere."""
        mask = np.zeros(self.size, np.int8)
        mask[self.legal_actions(state)] = 1
        return mask


class Observer:
    """Writes a state's observation planes for one player (see the module doc).

    >>> from reliquary import new_game
    >>> state = new_game()
    >>> observer = Observer(state.content, 8)
    >>> observer.encode(state, 0).shape == observer.shape == (len(observer.plane_names()), 8, 8)
    True
    >>> int(observer.named(observer.encode(state, 0))["own_back_row"][0].sum())
    8
    """

    def __init__(self, content: Content, size: int, layout: str = "channels_first",
                 settings: Settings | None = None) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.layout = layout
        self.content = content
        self.board_side = size
        self.cards = tuple(c.id for c in content.cards)
        self.factions = tuple(f.id for f in content.factions)
        self.rites = tuple(r.id for r in content.rites)
        self.kinds = tuple(DECISION_KINDS)
        names = [*BOARD_PLANES, *SCALAR_PLANES]
        for prefix in ("hand_own", "hand_enemy", "waiting", "played"):
            names.extend(f"{prefix}:{c}" for c in self.cards)
        for prefix in ("rite_own", "rite_enemy", "rite_draft"):
            names.extend(f"{prefix}:{r}" for r in self.rites)
        for prefix in ("faction_own", "faction_enemy"):
            names.extend(f"{prefix}:{f}" for f in self.factions)
        names.extend(f"decision:{k}" for k in self.kinds)
        # With rule modules: their conditions (a board plane each: the value / 3, or 1),
        # their decision kinds and what each shows of its own state, after the base
        # planes (a base-game observation is unchanged).
        self._rules = Rulebook.of(content, settings) if settings is not None and \
            settings.modules else None
        self._conditions: tuple[str, ...] = ()
        if self._rules is not None:
            self._conditions = tuple(c for c in self._rules.conditions
                                     if c not in BASE_CONDITIONS)
            names.extend(f"condition:{c}" for c in self._conditions)
            if self._rules.interact:
                names.append("decision:interact")
            names.extend(f"decision:{k}" for k in self._rules.decisions)
            names.extend(n for h in self._rules.hooks for n in h.observation_names())
            names.extend(n for h in self._rules.hooks for n in h.board_observation_names())
        self._names = tuple(names)
        self._index = {name: i for i, name in enumerate(names)}
        #: The planes written in the engine's order (channels last), then laid out.
        self._last_shape = (size, size, len(names))
        self.shape = (self._last_shape if layout == "channels_last"
                      else (len(names), size, size))
        self._buffer = np.zeros(self._last_shape, np.float32)
        # HP / the largest Hero HP of the content (docs/research.md), whatever it is: a
        # ruleset's patch may lower every Hero's HP below the package's.
        self._max_hp = max(f.hero_hp for f in content.factions)
        row = content.board_row(size)
        self._minions = row.minions

    def plane_names(self) -> tuple[str, ...]:
        """The name of each plane, in order (the first axis of the observation; the
        last with ``layout="channels_last"``)."""
        return self._names

    def named(self, observation: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """Each plane of ``observation`` by name: ``{name: (n, n) view}``."""
        if observation.shape != self.shape:
            raise ValueError(f"an observation of shape {observation.shape}; this observer's "
                             f"is {self.shape} ({self.layout})")
        if self.layout == "channels_last":
            return {name: observation[:, :, i] for i, name in enumerate(self._names)}
        return {name: observation[i] for i, name in enumerate(self._names)}

    def encode(self, state: State, player: int,
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``state`` for ``player`` (written into ``out`` if given)."""
        if state.geometry.size != self.board_side:
            raise ValueError(f"the state is on a side-{state.geometry.size} board; this "
                             f"observer is for side {self.board_side}")
        result = np.zeros(self.shape, np.float32) if out is None else out
        if result.shape != self.shape:
            raise ValueError(f"out has shape {result.shape}; the observation's is {self.shape}")
        if pending_secrets(state):  # only what this player may know (engine.visibility)
            state = observation_state(state, player)
        # Written channels last (a square's planes side by side), then laid out.
        out = result if self.layout == "channels_last" else self._buffer
        out.fill(0.0)
        idx = self._index
        n = self.board_side
        # Planes are filled in the engine's numbering and turned once at the end.
        for piece in state.pieces.values():
            x, y = piece.sq % n, piece.sq // n
            own = piece.owner == player
            kind = ("own_" if own else "enemy_") + ("hero" if piece.hero else "minion")
            cell = out[y, x]
            cell[idx[kind]] = 1.0
            cell[idx["hp"]] = min(piece.hp / self._max_hp, 1.0)
            cell[idx["harrowed"]] = piece.harrowed
            cell[idx["veiled"]] = piece.veiled
            cell[idx["aegis"]] = piece.aegis
            cell[idx["stepped"]] = piece.stepped
            if self._conditions and piece.conds:
                for c in piece.conds:
                    if c[0] in self._conditions:
                        cell[idx["condition:" + c[0]]] = min(c[1] / 3, 1.0) if c[1] else 1.0
        ruins = state.ruins
        while ruins:
            low = ruins & -ruins
            sq = low.bit_length() - 1
            out[sq // n, sq % n, idx["ruin"]] = 1.0
            ruins ^= low
        for relic_owner, prefix in ((player, "own_relic"), (1 - player, "enemy_relic")):
            sq = state.relic_square(relic_owner)
            if sq >= 0:
                out[sq // n, sq % n, idx[prefix]] = 1.0
                if state.relic_carrier[relic_owner] >= 0:
                    out[sq // n, sq % n, idx[prefix + "_carried"]] = 1.0
        back = 0 if player == 0 else n - 1
        out[back, :, idx["own_back_row"]] = 1.0
        out[n - 1 - back, :, idx["enemy_back_row"]] = 1.0

        scalars: dict[str, float] = {}
        decision = None
        if not state.is_terminal:
            decision = state.decision()
            scalars["to_move"] = float(decision.player == player)
            scalars["decision:" + decision.kind] = 1.0
            if decision.piece >= 0:
                out[decision.piece // n, decision.piece % n, idx["subject"]] = 1.0
            frame = state.stack[-1]
            if frame[0] == "rapture_step":  # (kind, piece, steps left, up to)
                scalars["rapture_steps"] = frame[2] / 3.0
                scalars["rapture_up_to"] = float(bool(frame[3]))
        enemy = 1 - player
        scalars["goes_first"] = float(state.first == player)
        scalars["vigil"] = state.vigil / 6.0
        scalars["eventful"] = float(state.eventful)
        scalars["rounds"] = state.rounds / state.settings.round_cap
        started = state.relic_square(0) >= 0 and state.relic_square(1) >= 0  # after S7
        for who, side in ((player, "own"), (enemy, "enemy")):
            scalars[f"{side}_first_turn"] = float(started and state.turns_taken[who] == 0)
            scalars[f"{side}_pool"] = state.pool[who] / self._minions
            scalars[f"{side}_grave_used"] = float(state.is_spent(who, "grave_return"))
            scalars[f"{side}_placed"] = state.placed[who] / (self._minions + 1)
            limit = state.settings.regroup_limit
            scalars[f"{side}_regroups_left"] = (
                1.0 if limit is None else
                max(limit - state.regroups[who], 0) / limit if limit else 0.0)
        for card in state.hands[player]:
            scalars["hand_own:" + card] = 1.0
        for card in state.hands[enemy]:
            scalars["hand_enemy:" + card] = 1.0
        if state.waiting is not None:
            scalars["waiting:" + state.waiting] = 1.0
        if state.played is not None:
            scalars["played:" + state.played] = 1.0
        if state.rites[player] is not None:
            scalars["rite_own:" + str(state.rites[player])] = 1.0
        if state.rites[enemy] is not None:
            scalars["rite_enemy:" + str(state.rites[enemy])] = 1.0
        for rite in state.rite_draft:  # S5's draft, emptied once both have chosen (D5)
            scalars["rite_draft:" + rite] = 1.0
        # S3: a player's own choice is known to them (the other's is not in the
        # observed state until revealed).
        own_faction = state.factions[player] or state.secret_faction[player]
        if own_faction:
            scalars["faction_own:" + own_faction] = 1.0
        if self._rules is not None:
            for h in self._rules.hooks:
                scalars.update(h.observation(state, player))
                for name, cells in h.board_observation(state, player).items():
                    plane = idx[name]
                    for sq, value in cells:  # a module's board planes (its tokens, ...)
                        out[sq // n, sq % n, plane] = value
        if state.factions[enemy]:
            scalars["faction_enemy:" + str(state.factions[enemy])] = 1.0
        for name, value in scalars.items():
            if value:  # every plane stays in [0, 1] (pools can outgrow the first Minions)
                out[:, :, idx[name]] = min(value, 1.0)
        if player == 1:
            out[:] = out[::-1, ::-1].copy()
        if self.layout == "channels_first":
            np.copyto(result, out.transpose(2, 0, 1))
        return result


__all__ = ["BOARD_PLANES", "LAYOUTS", "SCALAR_PLANES", "ActionSpace", "Observer"]

