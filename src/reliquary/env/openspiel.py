"""Reliquary as an OpenSpiel game (the optional ``openspiel`` extra).

Importing this module registers ``python_reliquary`` with :mod:`pyspiel`, so
OpenSpiel's own algorithms (MCTSBot, random rollouts, …) run on it::

    import pyspiel
    import reliquary.env.openspiel  # registers the game
    game = pyspiel.load_game("python_reliquary", {"size": 8})

Game type: sequential, explicit stochastic (the deal and the die are chance nodes with
their probabilities), perfect information, zero-sum, terminal rewards (+1/−1/0).

The one hidden move of the rules, the simultaneous secret faction choice (S3), is
handled by making it public chance: unless the ``key_faction``/``skull_faction``
parameters fix them, a first chance node draws an ordered pair of different factions
uniformly. Every later choice — Ruins, rites, deployment, relics, every decision of
every turn — is the players'.

Player actions are those of :class:`reliquary.env.encoding.ActionSpace`, the fixed
action space the PettingZoo and Gymnasium environments use, relative to the player
who acts (Skull sees the board turned half a turn); ``state.action_of(option)`` and
``state.option_of(action)`` map them to engine options. Chance actions have their own
range (faction pairs, dealt cards, die faces). Observation and information-state
tensors are the same planes as the environments' observations
(:class:`reliquary.env.encoding.Observer`), from the observing player's point of view,
channels first like OpenSpiel's own board games (``[planes, n, n]``; the parameter
``layout="channels_last"`` gives the older ``[n, n, planes]``), so that
``game.observation_tensor_shape()`` is the planes' shape that AlphaZero-style networks
read. ``make_observation(game)``'s ``dict`` holds that tensor as ``observation``;
``make_observation(game, params={"planes": "named"})`` holds instead every plane by
name (``dict["own_hero"]``, ``dict["hand_own:Bolt"]`` …, views of one flat tensor, as
OpenSpiel's games with named observation pieces do);
the game has perfect information, so the position is all a player needs and the
information-state tensor is the observation tensor, while the information-state
string is the full action history (perfect recall).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from .. import default_content
from ..engine import Option, Settings, State, format_option
from .encoding import LAYOUTS, ActionSpace, Observer

SHORT_NAME = "python_reliquary"
_CONTENT = default_content()
_FACTIONS = tuple(f.id for f in _CONTENT.factions)
_CARDS = tuple(c.id for c in _CONTENT.cards)
_PAIRS = tuple((a, b) for a in _FACTIONS for b in _FACTIONS if a != b)
_MAX_SIZE = 12
#: Game parameters and their defaults; ``regroup_limit`` −1 means no limit (VAR1).
_DEFAULTS: dict[str, Any] = {"size": 8, "los": "geometric", "first_turn": "no_damage",
                             "round_cap": 100, "regroup_limit": -1, "vigil_reset": "any",
                             "vigil_start": 6, "killed_minions": "pool",
                             "key_faction": "", "skull_faction": "",
                             "layout": "channels_first", "modules": ""}

# Chance action ranges: a faction pair, a dealt card, a die face.
_CH_PAIR, _CH_DEAL = 0, len(_PAIRS)
_CH_ROLL = _CH_DEAL + len(_CARDS)
_MAX_CHANCE = _CH_ROLL + 6


def _settings(params: dict[str, Any]) -> Settings:
    if str(params.get("modules", "")):
        # Its action and chance ranges are fixed when the game is registered; a module's
        # decisions and chance kinds would need ranges of their own (docs/modules.md).
        raise ValueError("python_reliquary does not take rule modules yet (parameter "
                         f"modules={params['modules']!r}); the PettingZoo and Gymnasium "
                         "environments do")
    size = int(params["size"])
    if not 8 <= size <= _MAX_SIZE:
        raise ValueError(f"size must be 8 to {_MAX_SIZE}, not {size}")
    limit = int(params["regroup_limit"])
    return Settings.from_dict({
        "size": size, "los": params["los"], "first_turn": params["first_turn"],
        "round_cap": int(params["round_cap"]),
        "regroup_limit": None if limit < 0 else limit, "vigil_reset": params["vigil_reset"],
        "vigil_start": int(params["vigil_start"]), "killed_minions": params["killed_minions"]})


def _fixed_factions(params: dict[str, Any]) -> tuple[str, str] | None:
    fixed = (str(params["key_faction"]), str(params["skull_faction"]))
    if not any(fixed):
        return None
    if fixed not in _PAIRS:
        raise ValueError(f"key_faction and skull_faction must be two different factions "
                         f"of {', '.join(_FACTIONS)}; got {fixed}")
    return fixed


_ACTIONS: dict[int, ActionSpace] = {}


def action_space(size: int) -> ActionSpace:
    """The players' action space on a board of side ``size`` (shared, built once)."""
    if size not in _ACTIONS:
        _ACTIONS[size] = ActionSpace(_CONTENT, size)
    return _ACTIONS[size]


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Reliquary",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type()


class ReliquaryGame(pyspiel.Game):
    """Reliquary for OpenSpiel. Parameters: ``size`` (8–12), ``los``, ``first_turn``,
    ``round_cap`` (D19, default 100 to bound the game length), the variants
    ``regroup_limit`` (−1: none), ``vigil_reset``, ``vigil_start``, ``killed_minions``
    (RULES.md §11), ``key_faction`` and ``skull_faction`` (empty: drawn by chance)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        settings = _settings(params)
        _fixed_factions(params)  # check them now
        if params["layout"] not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, "
                             f"not {params['layout']!r}")
        actions = action_space(settings.size)
        # Setup takes under 60 decisions; a turn under 12 (a Rapture has the most).
        max_length = 80 + settings.round_cap * 2 * 12
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.size,
            max_chance_outcomes=_MAX_CHANCE,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_length,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> ReliquaryState:
        return ReliquaryState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of the environments' planes; with perfect recall its string is
        the action history (see the module doc)."""
        planes = dict(params or {}).pop("planes", "whole")
        if set(params or {}) - {"planes"} or planes not in ("whole", "named"):
            raise ValueError("python_reliquary's observation takes one parameter, planes: "
                             f"'whole' (default) or 'named'; got {params}")
        game = {**_DEFAULTS, **self.get_parameters()}
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ReliquaryObserver(int(game["size"]), perfect_recall, str(game["layout"]),
                                 named=planes == "named")


class _EngineHolder:
    """Holds a state's engine. OpenSpiel clones a Python state by deep-copying its
    attributes; this makes that copy the engine's own clone (exact, and it shares the
    content instead of copying it: about 100 times faster)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _EngineHolder:
        return _EngineHolder(self.state.clone())


class ReliquaryState(pyspiel.State):
    """An OpenSpiel state around an engine :class:`State` (``.engine``)."""

    def __init__(self, game: ReliquaryGame, engine: State | None = None,
                 factions: tuple[str, str] | None = None) -> None:
        super().__init__(game)
        # Only what the parameters say is kept from the game: OpenSpiel may hand a
        # clone a game object rebuilt from its parameters.
        params = {**_DEFAULTS, **game.get_parameters()}
        settings = _settings(params)
        self.actions = action_space(settings.size)
        self._engine = _EngineHolder(engine if engine is not None
                                     else State(_CONTENT, settings))
        self.factions = factions or _fixed_factions(params)
        if engine is None:
            self._settle()

    @property
    def engine(self) -> State:
        """The engine state (our agents play it directly)."""
        return self._engine.state

    # -- helpers -----------------------------------------------------------------------
    def _settle(self) -> None:
        """Apply the faction choices (public chance, see the module doc) when asked."""
        s = self.engine
        while (self.factions is not None and not s.is_terminal
               and s.stack and s.stack[-1][0] == "faction"):
            s.apply(self.factions[s.current_player])

    def _factions_pending(self) -> bool:
        s = self.engine
        return self.factions is None and bool(s.stack) and s.stack[-1][0] == "faction"

    # -- the OpenSpiel API ----------------------------------------------------------
    def current_player(self) -> int:
        s = self.engine
        if s.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if s.is_chance or self._factions_pending():
            return int(pyspiel.PlayerId.CHANCE)
        return s.current_player

    def is_chance_node(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        return self.actions.legal_actions(self.engine)

    def action_of(self, option: Option) -> int:
        """The action of an option of the current player's decision."""
        return self.actions.encode(option, self.engine.current_player)

    def option_of(self, action: int) -> Option:
        """The engine option of a player action at the current decision."""
        return self.actions.decode(action, self.engine.current_player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._factions_pending():
            p = 1.0 / len(_PAIRS)
            return [(_CH_PAIR + i, p) for i in range(len(_PAIRS))]
        out = []
        for option, p in self.engine.chance_outcomes():
            if isinstance(option, str):
                out.append((_CH_DEAL + _CARDS.index(option), p))
            else:
                assert isinstance(option, int)
                out.append((_CH_ROLL + option - 1, p))
        return sorted(out)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if self._factions_pending():
                self.factions = _PAIRS[action - _CH_PAIR]
                self._settle()
                return
            if action < _CH_ROLL:
                self.engine.apply(_CARDS[action - _CH_DEAL])
            else:
                self.engine.apply(action - _CH_ROLL + 1)
        else:
            self.engine.apply(self.actions.decode(action, self.engine.current_player))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if action < _CH_DEAL:
                return "factions:" + "/".join(_PAIRS[action - _CH_PAIR])
            if action < _CH_ROLL:
                return "deal:" + _CARDS[action - _CH_DEAL]
            return f"roll:{action - _CH_ROLL + 1}"
        return format_option(self.engine, self.actions.decode(action, player))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal

    def returns(self) -> list[float]:
        winner = self.engine.winner
        if not self.engine.is_terminal or winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __deepcopy__(self, memo: dict[int, Any]) -> ReliquaryState:
        # copy.deepcopy of the whole state: the engine's clone is exact and fast.
        return ReliquaryState(self.get_game(), self.engine.clone(), self.factions)

    def __str__(self) -> str:
        s = self.engine
        n = s.geometry.size
        rows = []
        for y in reversed(range(n)):
            row = []
            for x in range(n):
                sq = y * n + x
                piece = s.piece_at(sq)
                if piece is not None:
                    ch = ("K" if piece.owner == 0 else "S") if piece.hero else \
                        ("k" if piece.owner == 0 else "s")
                    row.append(ch + str(piece.hp))
                elif s.is_ruin(sq):
                    row.append("##")
                elif sq in s.relic_sq:
                    row.append("r" + str(s.relic_sq.index(sq)))
                else:
                    row.append("..")
            rows.append(" ".join(row))
        status = (f"vigil {s.vigil} round {s.rounds} hands {s.hands} waiting {s.waiting} "
                  f"carriers {s.relic_carrier} stack {[f[0] for f in s.stack]}")
        return "\n".join([*rows, status])


class ReliquaryObserver:
    """The PyObserver of the game: the environments' observation planes
    (:class:`reliquary.env.encoding.Observer`) for a player, and as a string the
    position (or, with perfect recall, the history of actions)."""

    def __init__(self, size: int, perfect_recall: bool, layout: str = "channels_first",
                 named: bool = False) -> None:
        self.encoder = Observer(_CONTENT, size, layout)
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(int(np.prod(self.encoder.shape)), np.float32)
        self._whole = self.tensor.reshape(self.encoder.shape)
        #: The tensor as ``observation``, or each plane by name (views of the tensor).
        self.dict = self.encoder.named(self._whole) if named else {"observation": self._whole}

    def set_from(self, state: ReliquaryState, player: int) -> None:
        self.encoder.encode(state.engine, player, out=self._whole)

    def string_from(self, state: ReliquaryState, player: int) -> str:
        if self.perfect_recall:
            return " ".join(str(a) for a in state.history())
        return str(state)


pyspiel.register_game(_GAME_TYPE, ReliquaryGame)

__all__ = ["SHORT_NAME", "ReliquaryGame", "ReliquaryObserver", "ReliquaryState", "action_space"]
