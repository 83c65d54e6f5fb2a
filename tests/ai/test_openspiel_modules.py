"""The OpenSpiel game with rule modules on (M-MOD-1, M-MOD-3, M-MOD-8): the parameters
``modules`` and ``module_options`` choose them, INTERACT plays and the modules' names
join the player actions, and a module's chance outcomes (by name, value or square) get
chance actions with the module's own probabilities; the base game's actions stay put."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")

from reliquary.engine import State  # noqa: E402
from reliquary.engine.hooks import DecisionKind, Hooks  # noqa: E402
from reliquary.engine.modules import Module, OptionSpec, register, unregister  # noqa: E402
from reliquary.engine.state import Frame  # noqa: E402
from reliquary.engine.types import CHANCE, Option  # noqa: E402
from reliquary.env import openspiel as openspiel_game  # noqa: E402

from ..modules import smoulder  # noqa: E402, F401  (registers the worked example)

ODDS = {"fair": 0.25, "foul": 0.75}


class Sign(DecisionKind):
    """A named chance outcome with unequal odds."""

    chance = True
    notation = "id"

    def player(self, s: State, frame: Frame) -> int:
        return CHANCE

    def options(self, s: State, frame: Frame) -> list[Option]:
        return list(ODDS)

    def probabilities(self, s: State, frame: Frame, options: list[Option]) -> list[float]:
        return [ODDS[str(o)] for o in options]


class Count(DecisionKind):
    """A value drawn by chance, past the die's faces."""

    chance = True
    notation = "value"

    def player(self, s: State, frame: Frame) -> int:
        return CHANCE

    def options(self, s: State, frame: Frame) -> list[Option]:
        return [0, 7, 9]


class Spot(DecisionKind):
    """A square drawn by chance: one of the board's corners."""

    chance = True
    notation = "square"

    def player(self, s: State, frame: Frame) -> int:
        return CHANCE

    def options(self, s: State, frame: Frame) -> list[Option]:
        n = s.geometry.size
        return [0, n - 1, n * n - 1]


class AugurHooks(Hooks):
    """INTERACT 'augur' draws a sign, a count and a spot (frames taken last-in first)."""

    def __init__(self, draws: int) -> None:
        self.draws = draws

    def decisions(self) -> dict[str, DecisionKind]:
        return {"augur_sign": Sign(), "augur_count": Count(), "augur_spot": Spot()}

    def action_names(self) -> list[str]:
        return ["augur", *ODDS]

    def interact_actions(self, s: State, player: int) -> list[str]:
        return ["augur"]

    def interact(self, s: State, player: int, action: str) -> None:
        for kind in ("augur_spot", "augur_count", "augur_sign")[-self.draws:]:
            s.stack.append((kind,))


@pytest.fixture(scope="module", autouse=True)
def augur_module() -> Iterator[None]:
    register(Module(name="augur", title="Augur", rules="TEST", summary="draws by chance",
                    options={"draws": OptionSpec(3, lo=1, hi=3, help="chance draws")},
                    hooks=lambda content, settings: AugurHooks(
                        settings.option("augur.draws"))))
    yield
    unregister("augur")


def _play_to(state: object, want: str) -> object:
    """Play (first legal player action, chance by its first outcome) until a chance node
    of the module's kind ``want`` is up."""
    for _ in range(2000):
        engine = state.engine  # type: ignore[attr-defined]
        if engine.is_terminal:
            break
        if engine.stack and engine.stack[-1][0] == want:
            return state
        if state.is_chance_node():  # type: ignore[attr-defined]
            state.apply_action(state.chance_outcomes()[0][0])  # type: ignore[attr-defined]
            continue
        actions = state.legal_actions()  # type: ignore[attr-defined]
        interact = [a for a in actions
                    if openspiel_game.action_space(8, engine.settings).ranges()["interact"][0]
                    <= a < openspiel_game.action_space(8, engine.settings).ranges()[
                        "interact"][1]]
        state.apply_action(interact[0] if interact else actions[0])  # type: ignore[attr-defined]
    raise AssertionError(f"no {want!r} chance node came up")


def test_modules_are_game_parameters_and_mistakes_are_named() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME,
                             {"modules": "augur+smoulder",
                              "module_options": "augur.draws:2;smoulder.damage:2"})
    settings = game.new_initial_state().engine.settings
    assert set(settings.modules) == {"augur", "smoulder"}  # in the registry's order
    assert settings.option("augur.draws") == 2 and settings.option("smoulder.damage") == 2
    with pytest.raises(Exception, match="did you mean 'augur'"):
        pyspiel.load_game(openspiel_game.SHORT_NAME, {"modules": "augr"})
    with pytest.raises(Exception, match=r"module\.option:value"):
        pyspiel.load_game(openspiel_game.SHORT_NAME,
                          {"modules": "augur", "module_options": "draws"})


def test_the_base_game_keeps_its_actions_and_chance_outcomes() -> None:
    base = pyspiel.load_game(openspiel_game.SHORT_NAME, {"size": 8})
    on = pyspiel.load_game(openspiel_game.SHORT_NAME, {"size": 8, "modules": "augur"})
    assert base.num_distinct_actions() == 679
    # INTERACT per card and the module's three names come after the base actions.
    cards = len(openspiel_game._CARDS)
    assert on.num_distinct_actions() == 679 + cards + 3
    assert base.max_chance_outcomes() == openspiel_game._MAX_CHANCE
    assert on.max_chance_outcomes() == openspiel_game._MAX_CHANCE + 3 + 64 + 64


@pytest.mark.parametrize("kind, outcomes", [
    ("augur_sign", {"chance:fair": 0.25, "chance:foul": 0.75}),
    ("augur_count", {"chance:0": 1 / 3, "chance:7": 1 / 3, "chance:9": 1 / 3}),
    ("augur_spot", {"square:0": 1 / 3, "square:7": 1 / 3, "square:63": 1 / 3}),
])
def test_a_module_chance_node_has_its_outcomes_and_odds(kind: str,
                                                        outcomes: dict[str, float]) -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME,
                             {"modules": "augur", "key_faction": "grave-tide",
                              "skull_faction": "lantern-bearers"})
    state = _play_to(game.new_initial_state(), kind)
    chance = state.chance_outcomes()  # type: ignore[attr-defined]
    seen = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p  # type: ignore[attr-defined]
            for a, p in chance}
    assert seen == pytest.approx(outcomes)
    # Each chance action applies its own outcome to the engine.
    for action, _ in chance:
        child = state.child(action)  # type: ignore[attr-defined]
        assert child.engine.stack[-1][0] != kind or child.engine.is_terminal


def test_openspiel_random_simulation_checks_pass_with_modules() -> None:
    """OpenSpiel's own game checks (clones, serialization, tensors of the declared sizes,
    lengths within the maximum) with an INTERACT module of chance draws and a damage
    module on."""
    for params in ({"modules": "augur+smoulder", "round_cap": 20},
                   {"modules": "augur", "module_options": "augur.draws:1", "size": 10,
                    "round_cap": 20}):
        game = pyspiel.load_game(openspiel_game.SHORT_NAME, params)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
