"""The search's documented contract piece by piece (issue 31: faults in what the value
tests cannot see — an agent's defaults, the budget's checks, a leaf's noise, a drawn
end's contempt, the figures a think reports — passed the search's tests).

docs/ai.md and the classes' docs: ``SearchAgent`` thinks ``time`` seconds a turn
(default 1.0) or ``nodes`` a turn, at most ``max_depth`` (12) turns deep, with no
noise, no threat extensions, the repetition check, warm starts, partial iterations and
killers on and ``fill_clock`` off; the greedy agent is one turn deep, never extended,
with no time budget of its own; ``module_eval="blind"`` turns the modules' terms off.
A search counts every node and, once interruptible, stops past its node limit or (read
every 128th node) its deadline. A leaf is the evaluation, plus Gaussian noise of the
given spread; a finished game is ±WIN less the plies to it, a draw ``−draw_contempt``;
a turn start repeating the game's positions is ``−contempt``, never at the root."""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import Any

import pytest

import reliquary
from reliquary.ai import sample_chance
from reliquary.ai.evaluation import DEFAULT_WEIGHTS, WIN, WIN_THRESHOLD, Weights, evaluate
from reliquary.ai.hashing import position_key, repetition_key
from reliquary.ai.search import GreedyAgent, SearchAgent, Searcher, _OutOfBudget
from reliquary.engine import KEY, SKULL, Play, State

from .test_round_end_depth import positions_until_the_next_turn


def test_the_search_agent_s_defaults_are_the_documented_ones() -> None:
    agent = SearchAgent()
    assert agent.time == 1.0 and agent.nodes is None
    assert (agent.max_depth, agent.noise, agent.extend) == (12, 0.0, 0)
    assert agent.repetition and agent.warm and agent.partial and agent.killers
    assert not agent.fill_clock
    assert agent.weights == DEFAULT_WEIGHTS and agent.weights.module_terms == 1.0
    assert not agent.one_turn


def test_the_agent_keeps_its_seed_and_budgets() -> None:
    assert SearchAgent(nodes=700).time is None and SearchAgent(nodes=700).nodes == 700
    assert SearchAgent(time=0.25).time == 0.25
    assert SearchAgent(time=0.25, nodes=9).nodes == 9
    first = [SearchAgent(seed=5).rng.random() for _ in range(2)]
    assert first[0] == first[1] == random.Random(5).random()
    assert SearchAgent(seed=6).rng.random() != first[0]
    custom = Weights(hero_hp=41.0, module_terms=0.5)
    agent = SearchAgent(max_depth=4, noise=3.0, extend=2, weights=custom, repetition=False,
                        warm=False, partial=False, killers=False)
    assert (agent.max_depth, agent.noise, agent.extend, agent.weights) == (4, 3.0, 2, custom)
    assert not (agent.repetition or agent.warm or agent.partial or agent.killers)
    assert SearchAgent(fill_clock=True).fill_clock


def test_the_greedy_agent_is_one_turn_deep_never_extended_and_untimed() -> None:
    greedy = GreedyAgent(max_depth=6, extend=3)
    assert greedy.one_turn and (greedy.max_depth, greedy.extend) == (1, 0)
    assert greedy.time is None and greedy.nodes is None
    assert GreedyAgent(time=0.5).time == 0.5


def test_module_eval_blind_turns_only_the_modules_terms_off() -> None:
    custom = Weights(hero_hp=41.0, module_terms=0.5)
    assert SearchAgent(weights=custom, module_eval="aware").weights == custom
    assert SearchAgent(weights=custom, module_eval="blind").weights == replace(
        custom, module_terms=0.0)
    assert SearchAgent(module_eval="blind").weights == replace(DEFAULT_WEIGHTS,
                                                               module_terms=0.0)
    with pytest.raises(ValueError, match="module_eval"):
        SearchAgent(module_eval="half")


def test_a_searcher_starts_empty_and_cold() -> None:
    s = Searcher(KEY)
    assert s.me == KEY and s.weights == DEFAULT_WEIGHTS
    assert (s.deadline, s.node_limit, s.rng, s.seen) == (None, None, None, None)
    assert (s.noise, s.extend) == (0.0, 0)
    assert not s.partial and s.use_killers and not s.interruptible and not s.to_play
    assert (s.nodes, s.extensions, s.repetitions, s.warm_entries) == (0, 0, 0, 0)
    assert s.root_turns == -1 and s.base_end == -1  # no search made yet
    assert s.tt == {} and s.leaves == {} and s.old_tt == {} and s.old_leaves == {}
    assert s.path == {} and s.history == {} and s.killers == {} and s.threats == {}
    assert not Searcher(SKULL, killers=False).use_killers
    assert Searcher(SKULL, partial=True).partial


def test_a_warm_searcher_reads_the_previous_one_s_tables(build: Any) -> None:
    state = _quiet(build)
    before = Searcher(KEY)
    before.value(state, sum(state.turns_taken) + 1, -math.inf, math.inf, 0)
    assert before.tt and before.leaves
    warm = Searcher(KEY, previous=before)
    assert warm.old_tt is before.tt and warm.old_leaves is before.leaves
    assert warm.warm_entries == len(before.tt) and warm.tt == {}
    key = position_key(state)
    assert warm.entry(key) == before.tt[key]
    assert Searcher(KEY).entry(key) is None


def test_the_node_limit_and_the_deadline_stop_only_an_interruptible_search() -> None:
    counted = Searcher(KEY, node_limit=5, deadline=time.perf_counter() - 10)
    for _ in range(300):
        counted._tick()  # the first iteration always finishes
    assert counted.nodes == 300
    limited = Searcher(KEY, node_limit=5)
    limited.interruptible = True
    for _ in range(5):
        limited._tick()
    with pytest.raises(_OutOfBudget):
        limited._tick()  # the 6th node is past a limit of 5
    assert limited.nodes == 6
    late = Searcher(KEY, deadline=time.perf_counter() - 10)
    late.interruptible = True
    for _ in range(127):
        late._tick()  # the clock is read every 128th node, not before
    with pytest.raises(_OutOfBudget):
        late._tick()
    free = Searcher(KEY, deadline=time.perf_counter() + 3600)
    free.interruptible = True
    for _ in range(1000):
        free._tick()
    unlimited = Searcher(KEY)
    unlimited.interruptible = True
    for _ in range(1000):
        unlimited._tick()
    assert free.nodes == unlimited.nodes == 1000


class _Gauss:
    """A stand-in for the search's random source: what ``gauss`` was asked, a known draw."""

    def __init__(self) -> None:
        self.asked: list[tuple[float, float]] = []

    def gauss(self, mu: float, sigma: float) -> float:
        self.asked.append((mu, sigma))
        return mu + 2.0 * sigma


def _quiet(build: Any) -> State:
    return (build().hero(KEY, "a1").minion(KEY, "b2").hero(SKULL, "h8").minion(SKULL, "g7")
            .relic(KEY, "c1").relic(SKULL, "f8").set(turns_taken=[2, 2]).build())


def test_a_leaf_is_the_evaluation_plus_its_noise_once(build: Any) -> None:
    state = _quiet(build)
    key = position_key(state)
    plain = Searcher(KEY, rng=_Gauss())
    assert plain.leaf(state, key) == evaluate(state, KEY)
    assert plain.rng.asked == []  # type: ignore[union-attr]
    rng = _Gauss()
    noisy = Searcher(KEY, noise=5.0, rng=rng)
    assert noisy.leaf(state, key) == pytest.approx(evaluate(state, KEY) + 10.0)
    assert rng.asked == [(0.0, 5.0)]
    assert noisy.leaf(state, key) == pytest.approx(evaluate(state, KEY) + 10.0)
    assert rng.asked == [(0.0, 5.0)]  # kept: the same leaf is not drawn again
    weights = Weights(hero_hp=7.0)
    assert Searcher(SKULL, weights).leaf(state, key) == evaluate(state, SKULL, weights)
    before = Searcher(KEY)
    before.leaves[key] = 123.5
    assert Searcher(KEY, previous=before).leaf(state, key) == 123.5


def _finished(seed: int, **settings: Any) -> State:
    rng = random.Random(seed)
    state = reliquary.new_game(**settings)
    while not state.is_terminal:
        state.apply(sample_chance(state, rng) if state.is_chance
                    else rng.choice(state.legal_options()))
    return state


def test_a_finished_game_in_the_tree_is_won_lost_or_drawn_with_contempt() -> None:
    drawn = next(s for s in (_finished(seed, round_cap=1) for seed in range(40))
                 if s.winner is None)
    won = next(s for s in (_finished(seed, round_cap=60) for seed in range(40))
               if s.winner is not None)
    contempt = Weights(draw_contempt=6.0)
    for me in (KEY, SKULL):
        assert Searcher(me).value(drawn, 99, -math.inf, math.inf, 3) == 0.0
        assert Searcher(me, contempt).value(drawn, 99, -math.inf, math.inf, 3) == -6.0
        sign = 1.0 if won.winner == me else -1.0
        assert Searcher(me, contempt).value(won, 99, -math.inf, math.inf, 4) == sign * (WIN - 4)


def test_a_repetition_counts_past_the_root_only(build: Any) -> None:
    state = _quiet(build)
    end = state.turns_taken[0] + state.turns_taken[1] + 1
    alone = Searcher(KEY).value(state, end, -math.inf, math.inf, 0)
    seen_root = Searcher(KEY, seen={repetition_key(state): 1})
    assert seen_root.value(state, end, -math.inf, math.inf, 0) == alone
    assert seen_root.repetitions == 0
    # One ply down, the same position seen before is a draw with contempt.
    weights = Weights(contempt=17.0)
    again = Searcher(KEY, weights, seen={repetition_key(state): 1})
    assert again.value(state, end, -math.inf, math.inf, 1) == -17.0
    assert again.repetitions == 1
    on_line = Searcher(KEY, weights, seen={})
    on_line.path[repetition_key(state)] = 1
    assert on_line.value(state, end, -math.inf, math.inf, 2) == -17.0
    assert on_line.repetitions == 1
    assert Searcher(KEY, weights).value(state, end, -math.inf, math.inf, 1) == alone


def test_a_think_reports_its_figures(build: Any) -> None:
    state = _quiet(build)
    agent = SearchAgent(seed=1, max_depth=2)
    line, value, depth, searcher = agent.analyse(state)
    stats = agent.stats
    assert set(stats) == {"nodes", "seconds", "value", "depth", "extensions", "warm",
                          "warm_turn", "repetitions"}
    assert stats["nodes"] == searcher.nodes > 0
    assert (stats["value"], stats["depth"]) == (value, depth) and depth == 2
    assert stats["extensions"] == searcher.extensions
    assert (stats["warm"], stats["warm_turn"]) == (0, -1)  # a cold start
    assert stats["repetitions"] == searcher.repetitions
    assert stats["seconds"] > 0
    assert line and line[0] in state.legal_options()
    assert searcher.root_turns == state.turns_taken[0] + state.turns_taken[1]
    # The next think of the same player, later in the game, starts from this one's tables.
    later = state.clone()
    while later.turns_taken == state.turns_taken or later.current_player != KEY:
        later.apply(later.legal_options()[0])
    _, _, _, second = agent.analyse(later)
    assert agent.stats["warm"] == second.warm_entries == len(searcher.tt) > 0
    assert agent.stats["warm_turn"] == searcher.root_turns
    assert second.old_tt == {} and second.old_leaves == {}  # one search back is enough


def test_a_proven_result_ends_the_deepening(build: Any) -> None:
    """Key's Minion carries the Skull relic one step from home: a win this turn, so the
    first iteration proves it and no deeper one is started."""
    state = (build().hero(KEY, "f3").minion(KEY, "c2").carry(SKULL, "c2")
             .hero(SKULL, "f8").hands(key=["Pilgrim", "Crossroads", "Sidewind"])
             .set(turns_taken=[2, 2]).build())
    line, value, depth, _ = SearchAgent(seed=1, max_depth=5).analyse(state)
    assert value >= WIN_THRESHOLD and depth == 1
    # sooner wins score higher: the root is ply 0, so a win after the line's three
    # decisions scores WIN - 3 (sample O: a root counted as ply -1 scored WIN - 2)
    assert len(line) == 3 and value == WIN - len(line)
    _, _, depth, _ = SearchAgent(seed=1, max_depth=3).analyse(_quiet(build))
    assert depth == 3  # nothing proven: every iteration up to the cap


def _turn(build: Any) -> State:
    """Key to play with several options (attacks, moves), past its first turn."""
    return (build().hero(KEY, "d3").minion(KEY, "c4").hero(SKULL, "d5").minion(SKULL, "e5")
            .relic(KEY, "a1").relic(SKULL, "h8")
            .hands(key=["Pilgrim", "Crossroads", "Sidewind"], skull=["Vault"])
            .set(turns_taken=[2, 2]).build())


def test_a_cut_off_makes_its_option_this_ply_s_first_killer_and_adds_to_its_history(
        build: Any) -> None:
    """docs/ai.md: killers are "the last two options that cut off" at a ply, the latest
    first; the history heuristic counts cut-offs, each by the depth left squared. A
    window with beta at -inf makes the first option tried cut off at Key's node."""
    state = _turn(build)
    kind = state.stack[-1][0]
    end = sum(state.turns_taken) + 2  # two turns left: remaining 2
    searcher = Searcher(KEY)
    first = searcher._ordered(state, kind, None, 3)[0]
    searcher.value(state, end, -math.inf, -math.inf, 3)
    assert searcher.killers[3] == [first]
    assert searcher.history[(kind, first)] == 4
    assert min(searcher.killers) == 3  # the line below cut off at its own plies
    key = position_key(state)
    other = next(o for o in state.legal_options() if o != first)
    searcher.tt = {key: (0, 0.0, 0, other)}  # a shallow entry: only its option, tried first
    searcher.value(state, end, -math.inf, -math.inf, 3)
    assert searcher.killers[3] == [other, first]
    assert (searcher.history[(kind, first)], searcher.history[(kind, other)]) == (4, 4)
    searcher.tt = {key: (0, 0.0, 0, other)}
    searcher.value(state, end, -math.inf, -math.inf, 3)
    assert searcher.killers[3] == [other, first]  # the same killer again: kept as it was
    assert searcher.history[(kind, other)] == 8
    quiet = Searcher(KEY, killers=False)
    quiet.value(state, end, -math.inf, -math.inf, 3)
    assert quiet.killers == {} and quiet.history[(kind, first)] == 4
    one_left = Searcher(KEY)
    one_left.value(state, end - 1, -math.inf, -math.inf, 3)
    assert one_left.history[(kind, first)] == 1  # one turn left: 1 squared


def test_the_line_s_turn_starts_are_left_behind_once_searched(build: Any) -> None:
    state = _turn(build)
    searcher = Searcher(KEY, seen={})
    searcher.value(state, sum(state.turns_taken) + 2, -math.inf, math.inf, 0)
    assert searcher.path == {} and searcher.nodes > 1


def _first_chance(kind: str, seed: int, **settings: Any) -> State:
    rng = random.Random(seed)
    state = reliquary.new_game(round_cap=20, **settings)
    while not (state.is_chance and state.stack[-1][0] == kind):
        state.apply(sample_chance(state, rng) if state.is_chance
                    else rng.choice(state.legal_options()))
    return state


def _expectation(state: State, me: int, outcomes: list[tuple[Any, float]]) -> float:
    """The outcomes' mean of the evaluation (remaining 0: each child is a leaf), those
    that lead to the same position merged, the weights made to add up to 1."""
    mass = sum(p for _, p in outcomes)
    merged: dict[int, tuple[float, State]] = {}
    for outcome, p in outcomes:
        child = state.clone()
        child.apply(outcome)
        key = position_key(child)
        weight, first = merged.get(key, (0.0, child))
        merged[key] = (weight + p / mass, first)
    return sum(w * evaluate(child, me) for w, child in merged.values())


@pytest.mark.parametrize("me", [KEY, SKULL])
def test_a_deal_is_searched_whole_and_a_module_s_wide_draw_on_a_sample(me: int) -> None:
    """docs/ai.md: a chance node's value is the probability-weighted mean of its
    outcomes (merged by position); a rule module's wide chance (M-GLORY's objective draw:
    12 outcomes) is searched on a seeded sample of WIDE_CHANCE (3) of them, reweighted.
    The engine's own deal is never sampled."""
    deal = _first_chance("deal", 2)
    end = sum(deal.turns_taken)  # no turn left: the children are leaves
    outcomes = deal.chance_outcomes()
    assert len(outcomes) > 3
    value = Searcher(me, rng=random.Random(1))._chance(deal, end, -math.inf, math.inf, 1)
    assert value == pytest.approx(_expectation(deal, me, outcomes))
    draw = _first_chance("objective_draw", 1, modules=("glory",))
    outcomes = draw.chance_outcomes()
    assert len(outcomes) == 12
    picked = random.Random(1).sample(outcomes, 3)
    value = Searcher(me, rng=random.Random(1))._chance(draw, sum(draw.turns_taken),
                                                        -math.inf, math.inf, 1)
    assert value == pytest.approx(_expectation(draw, me, picked))
    assert value != pytest.approx(_expectation(draw, me, outcomes))


def _ordeal(build: Any) -> State:
    """Key to play with Ordeal against a 2-HP Hero: the line has a die roll in a turn."""
    return (build(factions=("veiled-hand", "veiled-hand"))
            .hero(KEY, "d3", hp=2).minion(KEY, "b2").minion(KEY, "f2")
            .hero(SKULL, "d5", hp=2, veiled=True).minion(SKULL, "b4")
            .minion(SKULL, "f4").minion(SKULL, "h8").relic(KEY, "a2").relic(SKULL, "h6")
            .hands(key=["Ordeal", "Pilgrim", "Sidewind"], skull=["Vault", "Litany", "Serpent"])
            .build())


def test_the_principal_variation_stops_at_its_length_never_on_a_roll_mid_turn(
        build: Any) -> None:
    """``max_plies`` options at most; a line cut just after a die roll in the middle of a
    turn drops the roll (nothing the search saw follows it), one that ends the turn
    keeps it (here Ordeal's roll ends Key's turn)."""
    state = _ordeal(build)
    searcher = Searcher(KEY)
    searcher.value(state.clone(), sum(state.turns_taken) + 2, -math.inf, math.inf, 0)
    full = searcher.principal_variation(state)
    s, rolls, mid_turn_rolls = state.clone(), [], set()
    for i, option in enumerate(full):
        rolled, turns = s.is_chance, s.turns_taken[:]
        s.apply(option)
        if rolled:
            rolls.append(i)
        if rolled and s.result is None and s.turns_taken == turns:
            mid_turn_rolls.add(i)
    assert rolls and len(full) > max(rolls) + 1
    for plies in range(1, len(full) + 1):
        want = full[:plies - 1] if plies - 1 in mid_turn_rolls else full[:plies]
        assert searcher.principal_variation(state, max_plies=plies) == want, plies
    assert searcher.principal_variation(state) == searcher.principal_variation(state, 80)


def _threat(build: Any) -> State:
    """Key, to play, can kill the Skull Hero (2 HP, two squares from Key's Hero)."""
    return (build().hero(KEY, "d3").hero(SKULL, "d5", hp=2).relic(KEY, "b2")
            .relic(SKULL, "g7").hands(key=["Pilgrim", "Crossroads", "Sidewind"])
            .set(turns_taken=[2, 2]).build())


@pytest.mark.parametrize("extend", [0, 1, 2])
def test_a_threatened_leaf_is_searched_one_turn_further(build: Any, extend: int) -> None:
    """A leaf where a player could win on their next turn is searched one turn more
    (counted once), up to ``extend`` turns past the iteration's horizon."""
    state = _threat(build)
    end = sum(state.turns_taken)  # the position itself is the horizon's leaf
    searcher = Searcher(SKULL, extend=extend)
    searcher.base_end = end
    value = searcher.value(state.clone(), end, -math.inf, math.inf, 1)
    if extend == 0:
        assert searcher.extensions == 0
        assert value == evaluate(state, SKULL)
    else:
        assert searcher.extensions >= 1
        deeper = Searcher(SKULL, extend=extend - 1)
        deeper.base_end = end + 1
        assert value == deeper.value(state.clone(), end + 1, -math.inf, math.inf, 1)
        assert searcher.extensions == deeper.extensions + 1
        assert value <= -WIN_THRESHOLD  # Key kills the Hero: seen only one turn further
    quiet = Searcher(SKULL, extend=extend)
    quiet.base_end = sum(_quiet(build).turns_taken)
    quiet.value(_quiet(build), quiet.base_end, -math.inf, math.inf, 1)
    assert quiet.extensions == 0


def _ordeal_roll(build: Any) -> State:
    """Ordeal's die against the 2-HP Skull Hero: some faces kill it (a win), others not."""
    state = _ordeal(build)
    for option in (Play("Ordeal", "attack"), state.geometry.parse("d3"),
                   state.geometry.parse("d5")):
        state.apply(option)
    assert state.is_chance and state.stack[-1][0] == "roll"
    return state


@pytest.mark.parametrize("me", [KEY, SKULL])
@pytest.mark.parametrize("node", ["deal", "roll"])
def test_a_chance_node_cut_off_returns_a_true_bound(build: Any, me: int, node: str) -> None:
    """Star1 (docs/ai.md): a chance node cut off by its window returns a bound of its
    mean — at least beta and at most the mean when it fails high, at most alpha and at
    least the mean when it fails low — and the mean itself otherwise. Windows with
    edges at, near and far from the mean and from each outcome's value; a deal (leaves
    only) and a roll some of whose faces win the game (values near WIN, where Star1 cuts
    before the last outcome)."""
    state = _first_chance("deal", 2) if node == "deal" else _ordeal_roll(build)
    end = sum(state.turns_taken) + (0 if node == "deal" else 1)
    mean = Searcher(me)._chance(state, end, -math.inf, math.inf, 1)
    values = []
    for outcome, _ in state.chance_outcomes():
        child = state.clone()
        child.apply(outcome)
        values.append(Searcher(me).value(child, end, -math.inf, math.inf, 2))
    if node == "roll":
        assert max(abs(v) for v in values) > WIN_THRESHOLD  # a face ends the game
    edges = sorted({mean, mean - 1, mean + 1, mean - 40, mean + 40, mean / 2, mean * 2,
                    *values, *(v / 2 for v in values), -math.inf, math.inf})
    fails = {"high": 0, "low": 0, "exact": 0}
    for i, alpha in enumerate(edges):
        for beta in edges[i + 1:]:
            v = Searcher(me)._chance(state, end, alpha, beta, 1)
            if v >= beta:
                assert mean >= v - 1e-6, (alpha, beta, v, mean)
                fails["high"] += 1
            elif v <= alpha:
                assert mean <= v + 1e-6, (alpha, beta, v, mean)
                fails["low"] += 1
            else:
                assert v == pytest.approx(mean), (alpha, beta, v, mean)
                fails["exact"] += 1
    assert min(fails.values()) > 0, fails


def test_a_warm_start_only_from_the_same_player_s_earlier_think_under_the_same_rules(
        build: Any) -> None:
    """docs/ai.md, warm starts: the next search of the same player in the same game
    reads the last one's tables; another player, an earlier position (another game, an
    undo), other rules or a history given from outside start cold."""
    state = _quiet(build)
    later = state.clone()
    while later.turns_taken == state.turns_taken or later.current_player != KEY:
        later.apply(later.legal_options()[0])
    other_rules = (build(vigil_start=5).hero(KEY, "a1").minion(KEY, "b2").hero(SKULL, "h8")
                   .minion(SKULL, "g7").relic(KEY, "c1").relic(SKULL, "f8")
                   .set(turns_taken=[3, 3]).build())
    assert other_rules.settings != state.settings and other_rules.current_player == KEY
    skull = state.clone()
    while skull.current_player != SKULL:
        skull.apply(skull.legal_options()[0])

    def second(position: State, **kwargs: Any) -> int:
        agent = SearchAgent(seed=1, max_depth=2)
        agent.analyse(state)
        agent.analyse(position, **kwargs)
        return int(agent.stats["warm"])

    assert second(later) > 0  # the same player later in the same game: warm
    assert second(state) > 0  # the same position again
    assert second(later, seen={}) == 0  # a history from outside
    assert second(other_rules) == 0  # other rules
    assert second(skull) == 0  # the other player
    earlier = SearchAgent(seed=1, max_depth=2)
    earlier.analyse(later)
    earlier.analyse(state)
    assert earlier.stats["warm"] == 0  # an earlier position: another game or an undo
    cold = SearchAgent(seed=1, max_depth=2, warm=False)
    cold.analyse(state)
    cold.analyse(later)
    assert cold.stats["warm"] == 0 and cold.stats["warm_turn"] == -1


def test_a_carrier_one_move_from_home_is_a_threat_the_search_extends(build: Any) -> None:
    """The threat check reads both kinds of win: a relic carried home (here Requiem's
    MOVE brings Key's carrier to its back row) as well as a Hero killed."""
    state = (build().hero(KEY, "e1").minion(KEY, "c2").carry(SKULL, "c2").hero(SKULL, "h8")
             .hands(key=["Requiem"], skull=["Pilgrim"]).set(turns_taken=[2, 2]).build())
    end = sum(state.turns_taken)
    searcher = Searcher(SKULL, extend=1)
    searcher.base_end = end
    value = searcher.value(state.clone(), end, -math.inf, math.inf, 1)
    assert searcher.extensions == 1 and value <= -WIN_THRESHOLD


def test_a_search_leaves_the_position_it_was_given_as_it_was(build: Any) -> None:
    """Only a child the search made itself is played on in place (``own``)."""
    for state in (_turn(build), _ordeal(build), _quiet(build)):
        before = position_key(state)
        Searcher(KEY).value(state, sum(state.turns_taken) + 2, -math.inf, math.inf, 0)
        assert position_key(state) == before
        SearchAgent(seed=1, max_depth=2).analyse(state)
        assert position_key(state) == before


def test_with_a_node_budget_the_time_rule_starts_no_fewer_iterations(build: Any) -> None:
    """The rule that starts no iteration the time left cannot finish is for a time budget
    alone: with a node budget too, the next iteration starts, and the deadline (read
    every 128th node) interrupts it."""
    state = _quiet(build)
    one = SearchAgent(seed=1, max_depth=1).analyse(state)[3].nodes
    past = time.perf_counter()
    _, _, depth, timed = SearchAgent(seed=1).analyse(state, deadline=past)
    assert depth == 1 and timed.nodes == one  # time alone: no second iteration
    _, _, depth, both = SearchAgent(seed=1).analyse(state, deadline=past, nodes=10**7)
    assert depth == 1 and one < both.nodes <= one + 128


def test_the_first_iteration_always_finishes_and_time_left_starts_the_next(
        build: Any) -> None:
    """docs/ai.md: the search always finishes one turn deep, whatever its budget; with
    time to spare (a deadline an hour away) it goes on to its depth cap."""
    state = _quiet(build)
    one = SearchAgent(seed=1, max_depth=1).analyse(state)[3].nodes
    assert one > 2
    _, _, depth, searcher = SearchAgent(seed=1).analyse(state, None, 1)
    assert depth == 1 and searcher.nodes > one  # the second iteration ran out at once
    _, _, depth, _ = SearchAgent(seed=1, max_depth=3).analyse(
        state, deadline=time.perf_counter() + 3600)
    assert depth == 3


def _own_turn_positions(state: State, me: int) -> int:
    """The positions from the turn start ``state`` through ``me``'s decisions and chance
    up to the next turn (the leaves of a search one turn deep)."""
    def after(option: Any) -> State:
        child = state.clone()
        child.apply(option)
        return child

    return 1 + sum(positions_until_the_next_turn(after(o), me) for o in state.legal_options())


@pytest.mark.parametrize("seed", [4, 9])
def test_an_iteration_at_a_turn_start_searches_the_turn_and_no_further(seed: int) -> None:
    """docs/ai.md: depth is counted in whole turns. One turn deep from a turn start
    visits this turn's positions only (sample K pinned the round-end case)."""
    rng = random.Random(seed)
    state = reliquary.new_game(round_cap=30)
    while state.is_chance or state.stack[-1][0] != "play" or state.rounds < 2:
        state.apply(sample_chance(state, rng) if state.is_chance
                    else rng.choice(state.legal_options()))
    me = state.current_player
    _, _, depth, searcher = SearchAgent(seed=1, max_depth=1, extend=0).analyse(state.clone())
    assert depth == 1
    assert 0 < searcher.nodes <= _own_turn_positions(state, me)
