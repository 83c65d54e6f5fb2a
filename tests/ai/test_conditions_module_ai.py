"""The AI with Conditions (issue 23): the §4.8 evaluation terms (module-aware, and off
when blind), the Dread test as a chance node of the search, conditions in both position
keys, and the hint's words for INTERACT and its actions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from reliquary.ai import get_agent
from reliquary.ai.conditions_eval import conditions_terms, rules_of, upkeep_loss
from reliquary.ai.evaluation import DEFAULT_WEIGHTS, evaluate
from reliquary.ai.hashing import position_key, repetition_key
from reliquary.ai.hint import analyse
from reliquary.engine import Builder, Content, State

KEY, SKULL = 0, 1


def position(content: Content) -> State:
    return Builder(content, 8, modules=("conditions",)).hero(KEY, "a1").minion(KEY, "b2") \
        .hero(SKULL, "h8").minion(SKULL, "g7").relic(KEY, "c3").relic(SKULL, "f6") \
        .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build()


def test_upkeep_losses_count_against_their_side(content: Content) -> None:
    s = position(content)
    before = conditions_terms(s, KEY)
    skull_hero = s.hero(SKULL)
    assert skull_hero is not None
    s.add_condition(skull_hero, "burning", 2)
    assert upkeep_loss(s, rules_of(s), skull_hero) == (2, 0)
    assert conditions_terms(s, KEY) == pytest.approx(before + 2 * 40.0)
    s.add_condition(skull_hero, "poison", 3)  # 1 now, 2 more to come
    assert upkeep_loss(s, rules_of(s), skull_hero) == (3, 2)
    aware = evaluate(s, KEY)
    blind = evaluate(s, KEY, replace(DEFAULT_WEIGHTS, module_terms=0.0))
    assert aware > blind  # the module-aware evaluation sees the coming Upkeep


def test_aegis_that_holds_past_the_round_end_stops_the_burning_term(content: Content) -> None:
    s = position(content)
    hero = s.hero(KEY)
    assert hero is not None
    s.add_condition(hero, "burning", 1)
    assert upkeep_loss(s, rules_of(s), hero)[0] == 1
    hero.aegis = True  # Key moves first: its Aegis lasts to Key's next turn, past Upkeep
    assert upkeep_loss(s, rules_of(s), hero)[0] == 0


def test_focus_raises_the_threat_on_the_enemy_hero(content: Content) -> None:
    s = Builder(content, 8, modules=("conditions",)).hero(KEY, "d4").minion(KEY, "e6") \
        .hero(SKULL, "d7").hands(key=["Smite", "Crossroads", "Sidewind"]).build()
    minion = s.piece_at(s.geometry.parse("e6"))
    assert minion is not None
    plain = conditions_terms(s, KEY)
    s.add_condition(minion, "focus", 3)  # Smite's Minion push + Focus 3 reaches 3 damage
    assert conditions_terms(s, KEY) > plain + 3 * 4.0  # more than Focus held alone


def test_the_search_takes_the_dread_roll_as_a_chance_node(content: Content) -> None:
    s = Builder(content, 8, modules=("conditions",)).hero(KEY, "d4").hero(SKULL, "h8") \
        .minion(SKULL, "d5").relic(KEY, "b2").carry(KEY, "d5") \
        .hands(key=["Bolt", "Smite", "Hook"]).build()
    from reliquary.engine import parse_option

    for token in ("Bolt:attack", "d4", "d5"):
        s.apply(parse_option(s, token))
    assert s.is_chance and s.decision().kind == "dread"
    outcomes = s.chance_outcomes()
    assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)
    # Faces 3 to 6 kill the carrier alike: the search merges them (§4.8).
    keys = {position_key(_after(s, face)) for face in (3, 4, 5, 6)}
    assert len(keys) == 1 and position_key(_after(s, 1)) != position_key(_after(s, 3))
    agent = get_agent("search", seed=1, nodes=200)
    while s.is_chance:
        s.apply(outcomes[0][0])
    if not s.is_terminal and s.current_player in (0, 1):
        assert s.legal_options()
        assert agent.choose(s) in s.legal_options()


def _after(s: State, face: int) -> State:
    child = s.clone()
    child.apply(face)
    return child


def test_conditions_enter_both_position_keys(content: Content) -> None:
    s = position(content)
    a, b = position_key(s), repetition_key(s)
    minion = s.piece_at(s.geometry.parse("b2"))
    assert minion is not None
    s.add_condition(minion, "slow")
    assert position_key(s) != a and repetition_key(s) != b


def test_a_module_aware_game_between_agents_ends(content: Content) -> None:
    from reliquary.ai import sample_chance
    from reliquary.engine import Settings

    rng = random.Random(4)
    agents = [get_agent("greedy", seed=1), get_agent("greedy", seed=2, module_eval="blind")]
    s = State(content, Settings(modules=("conditions",), round_cap=40))
    while not s.is_terminal:
        s.apply(sample_chance(s, rng) if s.is_chance else agents[s.current_player].choose(s))
    assert s.result is not None


def test_the_hint_explains_interact_and_its_actions(content: Content) -> None:
    s = position(content)
    hint = analyse(s, agent="greedy")
    for note in hint["explain"]:  # whatever the line, each module option is explained
        assert note["token"] in hint["pv"] and note["en"] and note["es"]
    s2 = position(content)
    from reliquary.engine import parse_option

    s2.apply(parse_option(s2, "Pilgrim:interact"))
    hint = analyse(s2, agent="greedy")
    [note] = hint["explain"][:1]
    assert note["token"] == hint["best"] and note["token"] in ("focus", "guard")
    assert note["en"].startswith(note["token"].upper()) and note["es"]


def test_the_search_never_samples_a_die(content: Content) -> None:
    """A module chance node wider than WIDE_CHANCE is sampled, but a die (the Dread
    test) is searched whole, its faces merged by position (§4.8)."""
    from reliquary.ai.search import WIDE_CHANCE, _is_die
    from reliquary.engine import parse_option

    s = Builder(content, 8, modules=("conditions",)).hero(KEY, "d4").hero(SKULL, "h8") \
        .minion(SKULL, "d5").relic(KEY, "b2").carry(KEY, "d5") \
        .hands(key=["Bolt", "Smite", "Hook"]).build()
    for token in ("Bolt:attack", "d4", "d5"):
        s.apply(parse_option(s, token))
    outcomes = s.chance_outcomes()
    assert len(outcomes) > WIDE_CHANCE and _is_die(outcomes)
    assert not _is_die([("a", 0.5), ("b", 0.5)])
