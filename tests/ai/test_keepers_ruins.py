"""Ruin placement with Keepers' Relics on (MODULES.md §6.8, M-KEEP-2): every Ruin will
hold a token, so a module-aware agent places its Ruin pairs by the token term
(:func:`reliquary.ai.keepers_eval.ruin_choice`); a module-blind one, or a game without
the module, keeps the base game's placement."""

from __future__ import annotations

import random

from reliquary.ai import get_agent
from reliquary.ai.drafting import drafted, module_aware, setup_choice
from reliquary.ai.keepers_eval import ruin_choice, ruin_prospect
from reliquary.ai.planning import setup_choice as base_setup_choice
from reliquary.engine import Content, Settings, State

KEY, SKULL = 0, 1


def at_ruins(content: Content, modules: tuple[str, ...] = ("keepers",)) -> State:
    return State(content, Settings(size=8, modules=modules))


def pair_prospect(s: State, player: int, sq: int) -> float:
    return sum(ruin_prospect(s, player, r) for r in (sq, s.geometry.mirror(sq)))


def lead_next_to(s: State, player: int, ruin: int) -> int:
    """Deployment squares of ``player`` minus the enemy's next to ``ruin`` (free ones)."""
    geo = s.geometry
    rows = s.content.board_row(geo.size).deploy_rows

    def deploy(side: int) -> set[int]:
        return {d for r in range(rows) for d in geo.row_of(side, r) if not (s.ruins >> d) & 1}

    around = set(geo.neighbours[ruin])
    return len(around & deploy(player)) - len(around & deploy(1 - player))


def test_a_token_the_placer_can_delve_from_its_rows_beats_a_central_one(
        content: Content) -> None:
    s = at_ruins(content)
    s.apply(s.geometry.parse("b2"))  # Key's pair: b2 and its mirror g7
    assert s.decision().kind == "ruin" and s.decision().player == SKULL
    geo = s.geometry
    # c6 stands in front of Skull's rows (its mirror f3 in front of Key's): a token each
    # side rules and lifts from its first turn; d5 / e4 is the contested middle.
    front, middle = geo.parse("c6"), geo.parse("d5")
    assert pair_prospect(s, SKULL, front) > pair_prospect(s, SKULL, middle)
    # The Ruin already on g7 takes a deployment square from Skull: on the edge next to
    # it, h6 is ruled by one square only, a6 on the other edge by two.
    assert ruin_prospect(s, SKULL, geo.parse("h6")) < ruin_prospect(s, SKULL, geo.parse("a6"))
    chosen = ruin_choice(s, random.Random(3))
    assert isinstance(chosen, int) and chosen in s.legal_options()
    pair = (chosen, geo.mirror(chosen))
    # Each side gets a Ruin it rules from its deployment rows by two squares or more.
    assert any(lead_next_to(s, SKULL, r) >= 2 for r in pair)
    assert any(lead_next_to(s, KEY, r) >= 2 for r in pair)
    assert pair_prospect(s, SKULL, chosen) == max(pair_prospect(s, SKULL, o)
                                                   for o in s.legal_options()
                                                   if isinstance(o, int))


def test_the_prospect_is_the_same_for_both_sides_of_a_mirrored_pair(
        content: Content) -> None:
    s = at_ruins(content)
    geo = s.geometry
    for name in ("c3", "d4", "b6", "g2"):
        sq = geo.parse(name)
        assert pair_prospect(s, KEY, sq) == pair_prospect(s, SKULL, sq)


def test_the_aware_agent_places_ruins_by_the_term_and_the_blind_one_as_before(
        content: Content) -> None:
    s = at_ruins(content)
    aware = drafted(get_agent("greedy", seed=5), 5)
    blind = drafted(get_agent("greedy", seed=5, module_eval="blind"), 5)
    assert module_aware(aware) and not module_aware(blind)
    assert aware.choose(s) == ruin_choice(s, random.Random(5))
    assert blind.choose(s) == base_setup_choice(s, random.Random(5))
    # Without the module the aware agent places Ruins as the base game's heuristic does.
    plain = at_ruins(content, ())
    assert drafted(get_agent("greedy", seed=5), 5).choose(plain) \
        == base_setup_choice(plain, random.Random(5))
    # The web's setup choices (drafting.setup_choice) are module-aware by default.
    assert setup_choice(s, random.Random(2)) == ruin_choice(s, random.Random(2))
    assert setup_choice(s, random.Random(2), module_aware=False) \
        == base_setup_choice(s, random.Random(2))


def test_an_aware_agent_gives_each_side_a_ruin_next_to_its_rows(content: Content) -> None:
    s = at_ruins(content)
    agent = drafted(get_agent("greedy", seed=1), 1)
    placed: list[int] = []
    while s.decision().kind == "ruin":
        option = agent.choose(s)
        assert isinstance(option, int)
        placed += [option, s.geometry.mirror(option)]
        s.apply(option)
    assert sorted(placed) == [sq for sq in range(s.geometry.area) if (s.ruins >> sq) & 1]
    for side in (KEY, SKULL):
        assert any(lead_next_to(s, side, r) >= 2 for r in placed)
