"""The AI with Keepers' Relics on (MODULES.md §6.8): the evaluation's terms, module-aware
and module-blind; the search through reveal chance nodes; tokens and points in the keys."""

from __future__ import annotations

import random
from dataclasses import replace

from reliquary.ai import get_agent, sample_chance
from reliquary.ai.evaluation import DEFAULT_WEIGHTS, evaluate
from reliquary.ai.keepers_eval import keepers_terms
from reliquary.engine import Builder, Content, Settings, State
from reliquary.engine.modules.keepers import DATA, Token, kstate

KEY, SKULL = 0, 1


def position(content: Content) -> State:
    s = (Builder(content, 8, modules=("keepers",)).hero(KEY, "d1").hero(SKULL, "e8")
         .minion(KEY, "c3").minion(KEY, "e3").minion(SKULL, "f6").ruins("d4").build())
    kstate(s).tokens.append(Token(DATA.type_index("icon"), 0, s.geometry.parse("d4")))
    kstate(s).box[0] -= 1
    return s


def test_relic_points_and_carried_tokens_count_for_their_side(content: Content) -> None:
    s = position(content)
    base = keepers_terms(s, KEY)
    kstate(s).points[KEY] = 2
    assert keepers_terms(s, KEY) > base and keepers_terms(s, SKULL) == -keepers_terms(s, KEY)
    lead = keepers_terms(s, KEY)
    token = kstate(s).tokens[0]
    token.sq, token.carrier, token.value = -1, s.board[s.geometry.parse("c3")], 3
    assert keepers_terms(s, KEY) > lead  # a carried 3, two rows from home


def test_a_face_down_token_is_worth_its_expected_value_where_you_rule(
        content: Content) -> None:
    s = position(content)  # Key rules d4 (two pieces to none)
    ruled = keepers_terms(s, KEY)
    assert ruled > 0
    kstate(s).tokens[0].kind = DATA.type_index("scroll")
    kstate(s).recovered[SKULL][DATA.type_index("scroll")] = 0
    kstate(s).tokens.append(Token(DATA.type_index("scroll"), 3, -1, recovered=SKULL))
    assert keepers_terms(s, KEY) < ruled  # a Scroll 3 seen: its mean drops from 2.25 to 2


def test_module_blind_evaluation_ignores_the_terms(content: Content) -> None:
    s = position(content)
    blind = replace(DEFAULT_WEIGHTS, module_terms=0.0)
    before_aware, before_blind = evaluate(s, KEY), evaluate(s, KEY, blind)
    kstate(s).points[KEY] = 3
    assert evaluate(s, KEY) > before_aware
    assert evaluate(s, KEY, blind) == before_blind


def test_tokens_and_points_are_in_both_position_keys(content: Content) -> None:
    s = position(content)
    other = s.clone()
    kstate(other).points[KEY] = 1
    assert other.key() != s.key() and other.shared_key() != s.shared_key()
    other = s.clone()
    kstate(other).tokens[0].value = 2
    assert other.key() != s.key() and other.shared_key() != s.shared_key()


def test_the_search_plays_through_reveals_and_greedy_games_end(content: Content) -> None:
    s = position(content)
    agent = get_agent("search", nodes=200)
    option = agent.choose(s)
    assert option in s.legal_options()
    rng = random.Random(4)
    game = State(content, Settings(size=8, modules=("keepers",)))
    greedy = get_agent("greedy")
    steps = 0
    while not game.is_terminal and steps < 3000:
        game.apply(sample_chance(game, rng) if game.is_chance else greedy.choose(game))
        steps += 1
    assert game.is_terminal


def test_the_hint_explains_a_delve_in_both_languages(content: Content) -> None:
    from reliquary.ai.hint import _explain
    from reliquary.engine.types import Play

    s = position(content)
    play = next(o for o in s.legal_options() if isinstance(o, Play) and o.mode == "interact")
    lines = _explain(s, [play, "delve"])
    assert [line["token"] for line in lines] == [f"{play.card}:interact", "delve"]
    assert lines[1]["en"].startswith("DELVE") and lines[1]["es"].startswith("EXCAVAR")
