"""The AI with Glory & Support (issue 25): the module-aware terms (MODULES.md §5.8) and the
module-blind switch, the marker heuristic at setup, the objective draw as a (sampled)
chance node, and End-phase decisions chosen by search."""

from __future__ import annotations

import random

from reliquary import default_content
from reliquary.ai import get_agent
from reliquary.ai.evaluation import evaluate
from reliquary.ai.glory_eval import glory_terms
from reliquary.ai.search import SearchAgent
from reliquary.engine import KEY, SKULL, Builder, Settings, State
from reliquary.engine.modules import glory as g
from reliquary.engine.notation import parse_option
from reliquary.engine.types import PASS

CONTENT = default_content()


def position() -> State:
    return (Builder(CONTENT, 8, factions=("pyre-choir", "bone-wardens"), modules=("glory",))
            .hero(KEY, "d4").hero(SKULL, "d8").minion(KEY, "c4").minion(SKULL, "f7")
            .hands(skull=["Pilgrim", "Vault", "Litany"]).set(rounds=4).to_move(SKULL).build())


def test_glory_terms_reward_glory_markers_and_met_objectives() -> None:
    s = position()
    base = glory_terms(s, KEY)
    g.glory_state(s).glory = [3, 1]
    ahead = glory_terms(s, KEY)
    assert ahead > base and glory_terms(s, SKULL) == -ahead
    s.rounds = 14  # the clock: the same lead is worth more near the last End phase
    assert glory_terms(s, KEY) > ahead
    s.rounds = 4
    g.glory_state(s).markers = [s.geometry.parse("c4")]
    held = glory_terms(s, KEY)
    assert held > ahead
    g.glory_state(s).hands = [["Muster"], []]  # not met: one Minion each
    assert glory_terms(s, KEY) == held
    g.glory_state(s).hands = [["ForwardBanner"], []]
    g.glory_state(s).markers = [s.geometry.parse("f7")]  # Skull's piece holds it
    assert glory_terms(s, KEY) < held


def test_module_blind_evaluation_leaves_the_terms_out() -> None:
    s = position()
    g.glory_state(s).glory = [5, 0]
    aware = get_agent("greedy", module_eval="aware")
    blind = get_agent("greedy", module_eval="blind")
    assert isinstance(aware, SearchAgent) and isinstance(blind, SearchAgent)
    assert blind.weights.module_terms == 0 and aware.weights.module_terms == 1
    assert evaluate(s, KEY, aware.weights) - evaluate(s, KEY, blind.weights) \
        == glory_terms(s, KEY)


def test_markers_at_setup_are_chosen_by_a_heuristic_among_the_legal_squares() -> None:
    s = State(CONTENT, Settings.from_dict({"modules": ["glory"]}))
    rng = random.Random(1)
    agent = get_agent("greedy", seed=1)
    while s.decision().kind != g.MARKER:
        d = s.decision()
        s.apply(rng.choice(d.options) if d.player < 0 else agent.choose(s))
    for _ in range(3):
        d = s.decision()
        assert d.kind == g.MARKER
        choice = agent.choose(s)
        assert choice in d.options
        s.apply(choice)
    assert len(g.glory_state(s).markers) == 3


def test_end_phase_decisions_are_chosen_by_search_within_the_budget() -> None:
    s = position()
    g.glory_state(s).glory = [5, 3]
    g.glory_state(s).hands = [["HoldTheLine", "Cull"], ["Muster", "Breach"]]
    s.apply(parse_option(s, "Pilgrim:move"))
    s.apply(parse_option(s, "f7"))
    s.apply(s.decision().options[0])
    while s.decision().kind == "escort":
        s.apply(PASS)
    assert s.decision().kind == g.DISCARD and s.decision().player == KEY
    agent = get_agent("search", seed=1, nodes=400)
    assert isinstance(agent, SearchAgent)
    line, _, depth, searcher = agent.analyse(s, None, 400)
    assert line and line[0] in s.decision().options
    assert depth >= 1 and searcher.nodes > len(s.decision().options)  # it looked ahead
