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
range (faction pairs, dealt cards, die faces, then the named outcomes of the rule
modules chosen by the parameters ``modules`` and ``module_options``). Observation and
information-state tensors are the same planes as the environments' observations
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
from ..engine.hooks import Rulebook
from ..engine.modules import parse_option_text
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
                             "layout": "channels_first", "modules": "",
                             "module_options": ""}

# Chance action ranges: a faction pair, a dealt card, a die face.
_CH_PAIR, _CH_DEAL = 0, len(_PAIRS)
_CH_ROLL = _CH_DEAL + len(_CARDS)
_MAX_CHANCE = _CH_ROLL + 6


def _settings(params: dict[str, Any]) -> Settings:
    size = int(params["size"])
    if not 8 <= size <= _MAX_SIZE:
        raise ValueError(f"size must be 8 to {_MAX_SIZE}, not {size}")
    limit = int(params["regroup_limit"])
    modules = [m for m in str(params.get("modules", "")).split("+") if m]
    options = dict(_module_option(text) for text in
                   str(params.get("module_options", "")).split(";") if text.strip())
    return Settings.from_dict({
        "size": size, "los": params["los"], "first_turn": params["first_turn"],
        "round_cap": int(params["round_cap"]),
        "regroup_limit": None if limit < 0 else limit, "vigil_reset": params["vigil_reset"],
        "vigil_start": int(params["vigil_start"]), "killed_minions": params["killed_minions"],
        **({"modules": modules} if modules else {}), **options})


def _module_option(text: str) -> tuple[str, Any]:
    """``module.option:value`` (a list as ``a/b``): OpenSpiel's game strings keep no
    ``=`` or ``,`` inside a parameter's value."""
    key, colon, value = text.partition(":")
    if not colon:
        raise ValueError(f"module_options: {text!r}: write each option as "
                         "module.option:value, separated by ';' (a list as a/b)")
    return parse_option_text(f"{key}={value.replace('/', ',') if '/' in value else value}")


def _fixed_factions(params: dict[str, Any]) -> tuple[str, str] | None:
    fixed = (str(params["key_faction"]), str(params["skull_faction"]))
    if not any(fixed):
        return None
    if fixed not in _PAIRS:
        raise ValueError(f"key_faction and skull_faction must be two different factions "
                         f"of {', '.join(_FACTIONS)}; got {fixed}")
    return fixed


_ACTIONS: dict[tuple[int, Settings | None], ActionSpace] = {}


def action_space(size: int, settings: Settings | None = None) -> ActionSpace:
    """The players' action space on a board of side ``size`` (shared, built once), with
    the actions of ``settings``' rule modules after the base ranges."""
    key = (size, settings if settings is not None and settings.modules else None)
    if key not in _ACTIONS:
        _ACTIONS[key] = ActionSpace(_CONTENT, size, key[1])
    return _ACTIONS[key]


#: Module chance outcomes written as values (notation "value") take ``0 ≤ v < _VALUES``.
_VALUES = 64


def _module_chance(actions: ActionSpace) -> tuple[int, int, int]:
    """Where the modules' chance outcomes start, after the base ones: the names their
    decisions offer (the same list as the players' module actions), then values, then
    squares; and the number of chance outcomes in all."""
    names = _MAX_CHANCE
    values = names + len(actions.names)
    squares = values + _VALUES
    return names, values, squares


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
    (RULES.md §11), ``key_faction`` and ``skull_faction`` (empty: drawn by chance),
    ``modules`` (rule modules joined by ``+``, e.g. ``"conditions+keepers"``) and
    ``module_options`` (``;``-separated ``module.option:value``, a list as ``a/b``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        settings = _settings(params)
        _fixed_factions(params)  # check them now
        if params["layout"] not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, "
                             f"not {params['layout']!r}")
        actions = action_space(settings.size, settings)
        # Setup takes under 60 decisions; a turn under 12 (a Rapture has the most), and
        # a module's steps are bounded by as many again.
        per_turn = 24 if settings.modules else 12
        max_length = (160 if settings.modules else 80) + settings.round_cap * 2 * per_turn
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.size,
            max_chance_outcomes=(_module_chance(actions)[2] + actions.area
                                 if settings.modules else _MAX_CHANCE),
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
                                 named=planes == "named", settings=_settings(game))


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
        self.actions = action_space(settings.size, settings)
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
        return sorted((self._chance_action(option), p)
                      for option, p in self.engine.chance_outcomes())

    def _chance_action(self, option: Option) -> int:
        frame = self.engine.stack[-1][0]
        if frame == "deal":
            assert isinstance(option, str)
            return _CH_DEAL + _CARDS.index(option)
        if frame == "roll":
            assert isinstance(option, int)
            return _CH_ROLL + option - 1
        # A module's chance (M-MOD-8): by how its outcomes are written.
        names, values, squares = _module_chance(self.actions)
        notation = Rulebook.of(_CONTENT, self.engine.settings).decisions[frame].notation
        if notation == "id" and option in self.actions.names:
            return names + self.actions.names.index(str(option))
        if notation == "value" and isinstance(option, int) and 0 <= option < _VALUES:
            return values + option
        if notation == "square" and isinstance(option, int):
            return squares + option
        raise ValueError(f"chance outcome {option!r} of {frame!r} has no chance action: a "
                         f"module's named outcomes must be among its action_names(), its "
                         f"values 0 to {_VALUES - 1}")

    def _chance_option(self, action: int) -> Option:
        if action < _CH_ROLL:
            return _CARDS[action - _CH_DEAL]
        if action < _MAX_CHANCE:
            return action - _CH_ROLL + 1
        names, values, squares = _module_chance(self.actions)
        if action < values:
            return self.actions.names[action - names]
        return action - values if action < squares else action - squares

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if self._factions_pending():
                self.factions = _PAIRS[action - _CH_PAIR]
                self._settle()
                return
            self.engine.apply(self._chance_option(action))
        else:
            self.engine.apply(self.actions.decode(action, self.engine.current_player))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if action < _CH_DEAL:
                return "factions:" + "/".join(_PAIRS[action - _CH_PAIR])
            if action < _CH_ROLL:
                return "deal:" + _CARDS[action - _CH_DEAL]
            if action < _MAX_CHANCE:
                return f"roll:{action - _CH_ROLL + 1}"
            kind = "square" if action >= _module_chance(self.actions)[2] else "chance"
            return f"{kind}:{self._chance_option(action)}"
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
                 named: bool = False, settings: Settings | None = None) -> None:
        self.encoder = Observer(_CONTENT, size, layout, settings)
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
