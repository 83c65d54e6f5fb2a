"""Monte Carlo tree search with explicit chance nodes and an evaluation cut-off.

The tree is the engine's decision tree. Player nodes select children by UCT; a die
roll is a chance node whose outcome is *sampled with its probabilities* on every
descent (each face has its own child), so the value of an Ordeal or Rapture is the
mean over the die, not a fixed roll. A new leaf is played out at random only to the
end of the current turn, then scored by the evaluation function squashed to a win
probability — long random playouts of this game say little.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from ..engine import Option, State
from .chance import sample_chance
from .evaluation import DEFAULT_WEIGHTS, Weights, evaluate
from .planning import PlanningAgent


class Node:
    """A node of the tree; ``wins`` are for the player who chose the move into it."""

    __slots__ = ("children", "mover", "player", "state", "untried", "visits", "wins")

    def __init__(self, state: State, mover: int) -> None:
        self.state = state
        self.mover = mover
        self.player = -2 if state.is_terminal else state.current_player
        self.children: dict[Option, Node] = {}
        self.untried: list[Option] = [] if state.is_chance else state.legal_options()
        self.visits = 0
        self.wins = 0.0


class MctsAgent(PlanningAgent):
    """UCT with chance nodes. Budget: ``time`` seconds per turn (default 1.0) or
    ``nodes`` iterations per turn; ``exploration`` is the UCT constant; ``scale``
    turns evaluation points into a win probability (logistic)."""

    name = "mcts"
    default_time: float | None = 1.0

    def __init__(self, seed: int | None = None, time: float | None = None,
                 nodes: int | None = None, exploration: float = 0.6, scale: float = 60.0,
                 weights: Weights = DEFAULT_WEIGHTS, module_eval: str = "aware",
                 **kwargs: Any) -> None:
        super().__init__(seed=seed, time=time, nodes=nodes, **kwargs)
        self.exploration = exploration
        self.scale = scale
        self.weights = weights
        if module_eval not in ("aware", "blind"):
            raise ValueError(f"module_eval must be 'aware' or 'blind', not {module_eval!r}")
        if module_eval == "blind":  # the rule modules' terms off (MODULES.md §10.2 step 4)
            self.weights = replace(self.weights, module_terms=0.0)

    def _playout_value(self, state: State) -> float:
        """Key's win probability after a random play to the end of the turn."""
        s = state
        if not s.is_terminal:
            s = state.clone()
            turns = s.turns_taken[0] + s.turns_taken[1]
            rng = self.rng
            while not s.is_terminal and s.turns_taken[0] + s.turns_taken[1] == turns:
                s.apply(sample_chance(s, rng) if s.is_chance else rng.choice(s.legal_options()))
        if s.is_terminal:
            return 0.5 if s.winner is None else 1.0 - s.winner
        x = evaluate(s, 0, self.weights) / self.scale
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))

    def search(self, state: State, deadline: float | None,
               iterations: int | None) -> Node:
        root = Node(state.clone(), -1)
        rng = self.rng
        c = self.exploration
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done & 15 == 0 and time.perf_counter() > deadline:
                break
            done += 1
            node = root
            path = [node]
            # Selection and expansion.
            while node.player != -2:
                if node.player == -1:  # chance: sample by the probabilities
                    outcome = sample_chance(node.state, rng)
                    child = node.children.get(outcome)
                    if child is None:
                        s = node.state.clone()
                        s.apply(outcome)
                        child = node.children[outcome] = Node(s, -1)
                        path.append(child)
                        break
                    node = child
                    path.append(node)
                    continue
                if node.untried:
                    option = node.untried.pop(rng.randrange(len(node.untried)))
                    s = node.state.clone()
                    s.apply(option)
                    child = node.children[option] = Node(s, node.player)
                    path.append(child)
                    break
                log_n = math.log(node.visits)
                best, best_score = None, -math.inf
                for ch in node.children.values():
                    score = ch.wins / ch.visits + c * math.sqrt(log_n / ch.visits)
                    if score > best_score:
                        best, best_score = ch, score
                assert best is not None
                node = best
                path.append(node)
            key_wins = self._playout_value(path[-1].state)
            for n in path:
                n.visits += 1
                if n.mover == 0:
                    n.wins += key_wins
                elif n.mover == 1:
                    n.wins += 1.0 - key_wins
                else:  # a chance outcome or the root: kept from the chance parent's view
                    n.wins += key_wins
        self.stats = {"nodes": done, "value": self._root_value(root, state)}
        return root

    @staticmethod
    def _root_value(root: Node, state: State) -> float:
        if not root.children:
            return 0.5
        best = max(root.children.values(), key=lambda ch: ch.visits)
        return best.wins / best.visits

    def plan(self, state: State, deadline: float | None, nodes: int | None) -> list[Option]:
        started = time.perf_counter()
        root = self.search(state, deadline, nodes)
        self.stats["seconds"] = time.perf_counter() - started
        me = state.current_player
        line: list[Option] = []
        node = root
        # Follow the most-visited children through this player's own decisions.
        while node.player == me and node.children:
            option, child = max(node.children.items(), key=lambda kv: kv[1].visits)
            line.append(option)
            if child.visits < 8:
                break  # too few visits to trust the rest: think again there
            node = child
        return line
