"""M-GLORY (MODULES.md §5): one test per rule id and decision, positions and outcomes
from the rule text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary import default_content
from reliquary.engine import KEY, SKULL, Builder, Settings, State
from reliquary.engine.content import ContentError
from reliquary.engine.modules import glory as g
from reliquary.engine.modules.glory_data import load_glory_data
from reliquary.engine.notation import format_option, parse_option
from reliquary.engine.types import PASS

CONTENT = default_content()
FACTIONS = ("pyre-choir", "bone-wardens")


def board(**options: Any) -> Builder:
    """A Builder for a glory game; ``options`` are glory options without the prefix."""
    opts = tuple((f"glory.{k}", v) for k, v in options.items())
    return Builder(CONTENT, 8, factions=FACTIONS, modules=("glory",), module_options=opts)


def go(s: State, *tokens: str) -> None:
    """Apply tokens; an attack's optional lunge (D8) is declined on the way."""
    for token in tokens:
        if s.decision().kind == "lunge" and token != PASS:
            s.apply(PASS)
        s.apply(parse_option(s, token))


def end_round(s: State) -> None:
    """Skull, to move second, ends the round with a step of its Minion at f7."""
    d = s.decision()
    assert d.kind == "play" and s.current == SKULL
    go(s, "Pilgrim:move", "f7")
    s.apply(s.decision().options[0])
    while not s.is_terminal and s.decision().kind == "escort":
        s.apply(PASS)


def events(s: State, kind: str) -> list[dict[str, Any]]:
    assert s.events is not None
    return [e.data for e in s.events if e.kind == kind]


def gs(s: State) -> g.GloryState:
    return g.glory_state(s)


def new_game(**options: Any) -> State:
    data: dict[str, Any] = {"modules": ["glory"], **{f"glory.{k}": v for k, v in options.items()}}
    return State(CONTENT, Settings.from_dict(data))


def to_setup_step(s: State, kind: str, rng: random.Random | None = None) -> State:
    """Play random options until the decision is ``kind``."""
    rng = rng or random.Random(0)
    while s.decision().kind != kind:
        d = s.decision()
        s.apply(rng.choice(d.options))
    return s


# ---------------------------------------------------------------- Glory and kills
def test_mglory1_glory_spent_still_counts_and_only_unspent_can_be_spent() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").build()
    state = gs(s)
    state.glory = [3, 0]
    state.spent = [2, 0]
    assert state.unspent(0) == 1
    hooks = s._rules.hooks[0]
    assert isinstance(hooks, g.GloryHooks)
    assert hooks.rules.buyable(s, KEY) == ["HonedEdge", "Warded", "Sundering", "HeavyHand"]
    state.spent = [3, 0]
    assert hooks.rules.buyable(s, KEY) == []
    # the verdict counts the total, spent included
    state.glory = [3, 2]
    assert hooks.verdict(s) == (KEY, g.BY_GLORY)


def test_mglory2_a_kill_gives_the_opponent_1_glory() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "d5").hands(
        key=["Bolt", "Smite", "Hook"]).build()
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert gs(s).glory == [1, 0]
    assert events(s, "glory") == [{"player": KEY, "amount": 1, "why": "kill", "objective": "",
                                   "total": 1}]


def test_mglory2_a_harrowed_minion_pays_the_harrowers_opponent() -> None:
    # A harrowed Minion belongs to the harrower (D10): Key's Hero kills Skull's
    # harrowed Minion (owned by Skull), so Key gains the Glory.
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "d5", harrowed=True).hands(
        key=["Bolt", "Smite", "Hook"]).build()
    go(s, "Bolt:attack", "d4", "d5")
    assert gs(s).glory == [1, 0]


def test_mglory2_crush_and_self_damage_kills_count() -> None:
    # Smite Hero: 1 damage and a push into a Ruin: the crush kills a 2-HP Minion.
    s = board().ruins("d6").hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=2,
                                                                       max_hp=2).hands(
        key=["Smite", "Bolt", "Hook"]).build()
    go(s, "Smite:attack", "d4", "d5")
    assert s.board[s.geometry.parse("d5")] == -1
    assert gs(s).glory == [1, 0]


# ---------------------------------------------------------------- markers
def test_mglory3_markers_alternate_from_the_first_player_on_legal_squares() -> None:
    s = to_setup_step(new_game(), g.MARKER)
    geo = s.geometry
    first = s.first
    placed: list[int] = []
    for i in range(3):
        d = s.decision()
        assert d.kind == g.MARKER
        assert d.player == (first if i % 2 == 0 else 1 - first)
        n = geo.size
        deploy = set(s._tables.deploy[0]) | set(s._tables.deploy[1])
        for sq in d.options:
            assert isinstance(sq, int)
            assert s.board[sq] == -1 and sq not in deploy and sq not in s.relic_sq
            x, y = sq % n, sq // n
            edge = x in (0, n - 1) or y in (0, n - 1)
            assert not edge or i == 2, "only the last marker may be on an edge"
            assert all(geo.distance(sq, m) >= 3 for m in placed)
        choice = d.options[0]
        assert isinstance(choice, int)
        s.apply(choice)
        placed.append(choice)
    assert gs(s).markers == placed
    assert s.decision().kind == g.DRAW  # then the deal (S9g)


def test_mglory3_count_follows_the_table() -> None:
    for size, count in ((8, 3), (9, 4), (10, 4), (11, 5), (12, 5)):
        s = State(CONTENT, Settings.from_dict({"modules": ["glory"], "size": size}))
        s = to_setup_step(s, g.MARKER)
        rng = random.Random(size)
        while s.decision().kind == g.MARKER:
            s.apply(rng.choice(s.decision().options))
        assert len(gs(s).markers) == count


def test_mglory3_distance_limit_drops_when_no_square_qualifies() -> None:
    s = to_setup_step(new_game(), g.MARKER)
    rules = g.rules_of(s)
    # Markers on a ring of squares leave nothing at distance 3 of every one.
    gs(s).markers = [s.geometry.parse(n) for n in ("b3", "e3", "b6", "e6", "g4")]
    squares = rules.marker_squares(s, 1)
    assert squares
    assert all(min(s.geometry.distance(sq, m) for m in gs(s).markers) >= 1 for sq in squares)
    assert min(min(s.geometry.distance(sq, m) for m in gs(s).markers) for sq in squares) < 3


def test_mglory_d1_the_first_player_places_the_majority_of_an_odd_count() -> None:
    s = to_setup_step(new_game(), g.MARKER)
    placers = []
    while s.decision().kind == g.MARKER:
        placers.append(s.decision().player)
        s.apply(s.decision().options[0])
    assert placers == [s.first, 1 - s.first, s.first]


def test_mglory4_holding_needs_a_piece_of_yours_on_the_marker() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "f5").build()
    gs(s).markers = [s.geometry.parse("d4"), s.geometry.parse("f5"), s.geometry.parse("b4")]
    rules = g.rules_of(s)
    assert rules.held(s, KEY) == 1 and rules.held(s, SKULL) == 1
    # f5 is in Skull's own half; d4 is Key's own half: neither is in the enemy half
    assert rules.held(s, KEY, "enemy_half") == 0


# ---------------------------------------------------------------- the deck
def test_mglory5_the_deal_draws_two_each_first_player_first_from_a_uniform_deck() -> None:
    s = to_setup_step(new_game(), g.DRAW)
    drawers: list[int] = []
    while s.decision().kind == g.DRAW:
        d = s.decision()
        assert d.player == -1  # chance
        assert len(d.options) == 12 - len(drawers)
        assert all(p == pytest.approx(1 / len(d.options)) for p in d.probabilities)
        drawn = d.options[0]
        s.apply(drawn)
        drawers.append(next(p for p in (0, 1) if drawn in gs(s).hands[p]))
    assert drawers == [s.first, s.first, 1 - s.first, 1 - s.first]
    assert s.decision().kind == "play"


def test_mglory5_an_empty_deck_deals_nothing() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").build()
    state = gs(s)
    state.gone = [o.id for o in g.DATA.objective[2:]]
    state.hands = [["HoldTheLine"], ["ForwardBanner"]]
    assert g.rules_of(s).deck(s) == []
    kind = s._rules.decisions[g.END_DRAW]
    s.stack.append((g.END_DRAW, KEY))
    before = len(s.stack)
    s.stack.pop()
    kind.run(s, (g.END_DRAW, KEY))
    assert len(s.stack) == before - 1  # no draw frame pushed


# ---------------------------------------------------------------- phases
def test_mglory6_an_end_phase_comes_after_each_phase_of_rounds() -> None:
    rng = random.Random(3)
    s = new_game()
    s.events = []
    while not s.is_terminal:
        d = s.decision()
        s.apply(rng.choices(d.options, weights=d.probabilities or None)[0])
    rounds = [e["round"] for e in events(s, "end_phase")]
    assert rounds, "an End phase was held"
    assert all(r % 5 == 0 or e["final"] for r, e in zip(rounds, events(s, "end_phase"),
                                                         strict=True))


# ---------------------------------------------------------------- surge
def test_mglory7_a_surge_scores_at_the_turn_end_and_its_replacement_cannot() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "d5").hands(
        key=["Bolt", "Smite", "Hook"]).build()
    state = gs(s)
    state.hands = [["FirstBlood", "HoldTheLine"], ["Muster", "Cull"]]
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    # scored at T4: 1 for the kill, 1 for FirstBlood; then a chance draw
    assert state.glory == [2, 0]
    assert "FirstBlood" in state.gone
    assert s.decision().kind == g.DRAW and s.decision().player == -1
    s.apply("CrushingBlow")  # met this turn? no crush: and it could not score anyway
    assert state.hands[0] == ["HoldTheLine", "CrushingBlow"]
    assert s.decision().kind == "play" and s.current == SKULL
    assert events(s, "objective_scored") == [
        {"player": KEY, "objective": "FirstBlood", "timing": "surge"}]


def test_mglory7_only_the_turns_player_scores_a_surge() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "d5").hands(
        key=["Bolt", "Smite", "Hook"]).build()
    gs(s).hands = [["HoldTheLine", "Muster"], ["FirstBlood", "StrikeTheHead"]]
    go(s, "Bolt:attack", "d4", "d5")
    assert gs(s).hands[1] == ["FirstBlood", "StrikeTheHead"]
    assert gs(s).glory == [1, 0]


@pytest.mark.parametrize(("objective", "met"), [
    ("StrikeTheHead", True), ("CrushingBlow", False), ("Scatter", False), ("Seize", False),
])
def test_mglory7_surge_predicates_on_a_bolt_to_the_hero(objective: str, met: bool) -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Bolt", "Smite", "Hook"]).build()
    gs(s).hands = [[objective, "HoldTheLine"], [], ]
    go(s, "Bolt:attack", "d4", "d6")
    assert (objective in gs(s).gone) is met


def test_mglory7_crushing_blow_needs_hp_lost() -> None:
    s = board().ruins("d6").hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=3,
                                                                       max_hp=3).hands(
        key=["Smite", "Bolt", "Hook"]).build()
    gs(s).hands = [["CrushingBlow", "HoldTheLine"], []]
    go(s, "Smite:attack", "d4", "d5")
    assert "CrushingBlow" in gs(s).gone
    s = board().ruins("d6").hero(KEY, "d4").hero(SKULL, "h8").minion(
        SKULL, "d5", hp=3, max_hp=3, aegis=True).hands(key=["Smite", "Bolt", "Hook"]).build()
    gs(s).hands = [["CrushingBlow", "HoldTheLine"], []]
    go(s, "Smite:attack", "d4", "d5")
    assert "CrushingBlow" not in gs(s).gone  # K-Aegis prevented it (M-GLORY-D5)


def test_mglory7_scatter_counts_two_different_enemies_pushed() -> None:
    # Gale pushes every adjacent enemy.
    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5").minion(SKULL, "e4") \
        .hands(key=["Gale", "Bolt", "Hook"]).build()
    gs(s).hands = [["Scatter", "HoldTheLine"], []]
    s.apply(parse_option(s, "Gale:attack"))
    while s.current == KEY and s.decision().kind != "play":
        d = s.decision()
        s.apply(PASS if PASS in d.options else d.options[0])
        if "Scatter" in gs(s).gone:
            break
    assert "Scatter" in gs(s).gone


def test_mglory7_seize_and_breach() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").relic(SKULL, "d5").hands(
        key=["Pilgrim", "Bolt", "Hook"]).build()
    gs(s).hands = [["Seize", "HoldTheLine"], []]
    go(s, "Pilgrim:move", "d4", "d5")
    while not s.is_terminal and s.decision().kind == "escort":
        s.apply(PASS)
    assert "Seize" in gs(s).gone
    s = board().hero(KEY, "d7").hero(SKULL, "a5").hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    gs(s).hands = [["Breach", "HoldTheLine"], []]
    go(s, "Pilgrim:move", "d7", "d8")
    while not s.is_terminal and s.decision().kind == "escort":
        s.apply(PASS)
    assert "Breach" in gs(s).gone


# ---------------------------------------------------------------- the End phase
def end_phase_position(**options: Any) -> State:
    """Skull (second) ends round 5: the End phase follows."""
    s = board(**options).hero(KEY, "d4").hero(SKULL, "d8").minion(KEY, "c4").minion(
        SKULL, "f7").hands(skull=["Pilgrim", "Vault", "Litany"]).set(rounds=4).to_move(
        SKULL).build()
    return s


def test_mglory8_end_phase_scores_discards_buys_and_draws_first_player_first() -> None:
    s = end_phase_position()
    state = gs(s)
    state.markers = [s.geometry.parse("d4"), s.geometry.parse("c4"), s.geometry.parse("e6")]
    state.hands = [["HoldTheLine", "Cull"], ["Muster", "Breach"]]
    s.events = []
    end_round(s)
    # Key (first): HoldTheLine scores 2 at once; Cull does not
    assert state.glory == [2, 0]
    d = s.decision()
    assert (d.kind, d.player) == (g.DISCARD, KEY)
    assert set(d.options) == {"Cull", PASS}
    go(s, "Cull")  # the hand is empty now: no more discards
    d = s.decision()
    assert (d.kind, d.player) == (g.UPGRADE, KEY)
    assert "Fleet" in d.options and PASS in d.options
    go(s, "Fleet")
    d = s.decision()
    assert d.kind == g.UPGRADE_PIECE
    assert sorted(format_option(s, o) for o in d.options) == ["c4", "d4"]
    go(s, "c4")
    assert state.spent == [2, 0] and state.bought[0] == ["Fleet"]
    assert s.pieces[s.board[s.geometry.parse("c4")]].has("fleet")
    # draw back up to 2
    assert s.decision().kind == g.DRAW
    go(s, "Seize")
    assert s.decision().kind == g.DRAW
    go(s, "Scatter")
    assert state.hands[0] == ["Seize", "Scatter"]
    # then Skull: Muster fails (one Minion each), its steps follow
    d = s.decision()
    assert (d.kind, d.player) == (g.DISCARD, SKULL)


def test_mglory8_the_final_end_phase_scores_only() -> None:
    s = end_phase_position(phases=1)
    state = gs(s)
    state.markers = [s.geometry.parse("d4"), s.geometry.parse("c4"), s.geometry.parse("e6")]
    state.hands = [["HoldTheLine", "Cull"], ["Muster", "Breach"]]
    end_round(s)
    assert s.is_terminal
    assert state.glory == [2, 0] and state.hands[0] == ["Cull"]
    assert s.result is not None and s.result.reason == "points" and s.winner == KEY


# ---------------------------------------------------------------- the end of the game
def test_mglory9_the_game_ends_after_the_last_phase() -> None:
    s = end_phase_position(phases=1)
    end_round(s)
    assert s.is_terminal and s.rounds == 5


def test_mglory9_the_vigil_at_0_holds_a_final_end_phase_first() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "f7").hands(
        skull=["Pilgrim", "Vault", "Litany"]).set(rounds=1, vigil=1).to_move(SKULL).build()
    gs(s).markers = [s.geometry.parse("d4")]
    gs(s).hands = [["ForwardBanner", "HoldTheLine"], ["Unbowed", "Cull"]]
    s.events = []
    end_round(s)
    assert s.is_terminal
    assert [e["final"] for e in events(s, "end_phase")] == [True]
    # Skull's Unbowed scored (its Hero lost nothing this phase), and so did Key's
    assert gs(s).glory == [0, 1]
    assert s.result is not None and s.result.reason == "points" and s.winner == SKULL


def test_mglory9_phases_0_has_no_fixed_end() -> None:
    s = end_phase_position(phases=0)
    end_round(s)
    assert not s.is_terminal


def test_mglory9_a_hero_kill_still_ends_the_game_whatever_the_glory() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d5", hp=1).hands(key=["Bolt", "Smite", "Hook"]) \
        .build()
    gs(s).glory = [0, 9]
    go(s, "Bolt:attack", "d4", "d5")
    assert s.result is not None and s.result.reason == "hero_killed" and s.winner == KEY


# ---------------------------------------------------------------- the verdict
def test_mglory10_glory_then_markers_then_v2_then_a_draw() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8", hp=4).build()
    hooks = s._rules.hooks[0]
    assert isinstance(hooks, g.GloryHooks)
    gs(s).glory = [2, 2]
    gs(s).markers = [s.geometry.parse("d4")]
    assert hooks.verdict(s) == (KEY, g.BY_MARKERS)
    assert s.vigil_result().reason == "points"
    gs(s).markers = []
    assert hooks.verdict(s) is None
    result = s.vigil_result()  # V2: Skull's Hero (5 HP, 1 lost) vs Key's unharmed
    assert result.reason == "vigil" and result.winner == KEY
    gs(s).glory = [2, 3]
    assert s.vigil_result().winner == SKULL and s.vigil_result().detail == g.BY_GLORY


# ---------------------------------------------------------------- Support
def support_attack(**options: Any) -> tuple[State, int]:
    """Key's Hero Bolts a 5-HP Skull Minion at d5 with allies around: the damage dealt."""
    s = board(**options).hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=5,
                                                                   max_hp=5).minion(
        KEY, "c5").hands(key=["Bolt", "Smite", "Hook"]).build()
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    return s, events(s, "damage")[0]["amount"]


def test_mglory11_support_adds_1_when_attackers_outnumber() -> None:
    s, dealt = support_attack()
    assert dealt == 3  # Bolt 2 + Support 1
    assert events(s, "support")[0] == {"attacker": 0, "target": 2, "square": 35, "bonus": 1,
                                       "attackers": 1, "defenders": 0} or \
        events(s, "support")[0]["bonus"] == 1


def test_mglory11_defenders_next_to_the_attacker_take_1_off() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=5, max_hp=5).minion(
        SKULL, "e3").hands(key=["Bolt", "Smite", "Hook"]).build()
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 1


def test_mglory11_option_attack_gives_only_the_plus_and_off_nothing() -> None:
    assert support_attack(support="off")[1] == 2
    s = board(support="attack").hero(KEY, "d4").hero(SKULL, "h8").minion(
        SKULL, "d5", hp=5, max_hp=5).minion(SKULL, "e3").hands(key=["Bolt", "Smite", "Hook"]) \
        .build()
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 2


def test_mglory11_push_only_hits_are_not_supported() -> None:
    # a Minion's Smite pushes without damage: no Support, no crush damage bonus
    s = board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "d4").minion(KEY, "c5").minion(
        SKULL, "d5", hp=3, max_hp=3).hands(key=["Smite", "Bolt", "Hook"]).build()
    s.events = []
    go(s, "Smite:attack", "d4", "d5")
    assert events(s, "support") == []
    assert events(s, "damage") == []


def test_mglory_d2_support_is_capped_at_1() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=5, max_hp=5).minion(
        KEY, "c5").minion(KEY, "e5").minion(KEY, "c6").hands(key=["Bolt", "Smite", "Hook"]) \
        .build()
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 3


def test_mglory12_glory_is_not_eventful() -> None:
    s = end_phase_position()
    state = gs(s)
    state.markers = [s.geometry.parse("d4"), s.geometry.parse("c4"), s.geometry.parse("e6")]
    state.hands = [["HoldTheLine", "Cull"], ["Muster", "Breach"]]
    vigil = s.vigil
    end_round(s)
    assert state.glory[0] == 2
    assert s.vigil == vigil - 1


# ---------------------------------------------------------------- upgrades
def upgraded(square: str, condition: str, builder: Builder) -> State:
    s = builder.build()
    s.add_condition(s.pieces[s.board[s.geometry.parse(square)]], condition)
    return s


def test_mglory40_each_upgrade_once_per_player_and_one_per_piece() -> None:
    s = end_phase_position()
    state = gs(s)
    state.glory = [5, 0]
    state.bought = [["HonedEdge"], []]
    rules = g.rules_of(s)
    assert "HonedEdge" not in rules.buyable(s, KEY)
    s.add_condition(s.pieces[s.board[s.geometry.parse("d4")]], "warded")
    assert [p.sq for p in rules.upgradable(s, KEY)] == [s.geometry.parse("c4")]
    s.add_condition(s.pieces[s.board[s.geometry.parse("c4")]], "fleet")
    assert rules.buyable(s, KEY) == []  # no piece can take one: not offered


def test_mglory40_upgrades_off_offers_nothing() -> None:
    s = end_phase_position(upgrades="off")
    gs(s).glory = [5, 5]
    end_round(s)
    while s.decision().kind in (g.DISCARD, g.DRAW):
        d = s.decision()
        s.apply(PASS if PASS in d.options else d.options[0])
    assert s.decision().kind == "play"


def test_mglory40_an_upgrade_is_lost_with_its_piece() -> None:
    s = upgraded("d5", "warded", board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5")
                 .hands(key=["Bolt", "Smite", "Hook"]))
    go(s, "Bolt:attack", "d4", "d5")
    assert s.board[s.geometry.parse("d5")] == -1


def test_mglory41_honed_edge_adds_1_to_hits_with_line_damage() -> None:
    s = upgraded("d4", "honed", board(support="off").hero(KEY, "d4").hero(SKULL, "h8").minion(
        SKULL, "d5", hp=5, max_hp=5).hands(key=["Bolt", "Smite", "Hook"]))
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 3


def test_mglory41_warded_reduces_the_first_hit_each_round() -> None:
    s = upgraded("d5", "warded", board(support="off").hero(KEY, "d4").hero(SKULL, "h8").minion(
        SKULL, "d5", hp=5, max_hp=5).hands(key=["Bolt", "Smite", "Hook"]))
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 1
    assert gs(s).warded_used == [s.board[s.geometry.parse("d5")]]


def test_mglory41_sundering_ignores_warded_and_the_defenders_support() -> None:
    b = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=5, max_hp=5).minion(
        SKULL, "e3").hands(key=["Bolt", "Smite", "Hook"])
    s = b.build()
    s.add_condition(s.pieces[s.board[s.geometry.parse("d4")]], "sundering")
    s.add_condition(s.pieces[s.board[s.geometry.parse("d5")]], "warded")
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 2
    assert gs(s).warded_used == []  # nothing reduced: the allowance is kept


def test_mglory41_heavy_hand_pushes_1_further() -> None:
    s = upgraded("d4", "heavy", board().hero(KEY, "d4").hero(SKULL, "h8").minion(
        SKULL, "d5", hp=3, max_hp=3).hands(key=["Smite", "Bolt", "Hook"]))
    go(s, "Smite:attack", "d4", "d5")
    assert s.board[s.geometry.parse("d7")] >= 0  # pushed 2 squares, not 1


def test_mglory41_fleet_steps_at_the_turn_end_m_glory_d3() -> None:
    s = upgraded("c4", "fleet", board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c4")
                 .hands(key=["Pilgrim", "Bolt", "Hook"]))
    go(s, "Pilgrim:move", "a1", "a2")
    while not s.is_terminal and s.decision().kind == "escort":
        s.apply(PASS)
    d = s.decision()
    assert d.kind == "fast_step" and d.player == KEY
    assert PASS in d.options
    go(s, "c5")
    assert s.board[s.geometry.parse("c5")] >= 0
    assert s.decision().kind == "play" and s.current == SKULL


def test_mglory42_the_shrine_goes_on_a_central_row_and_pays_2_at_the_final_end_phase() -> None:
    s = to_setup_step(new_game(shrine="on"), g.MARKER)
    rows = {sq // 8 for sq in s.decision().options if isinstance(sq, int)}
    assert rows <= {3, 4}
    s = end_phase_position(phases=1, shrine="on")
    gs(s).markers = [s.geometry.parse("d4")]
    # the Shrine at d4 isn't central, but holding the first marker is what pays
    end_round(s)
    assert gs(s).glory[0] == 2


# ---------------------------------------------------------------- D4, D5
def test_mglory_d4_first_blood_only_for_the_first_kill_of_the_game() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(SKULL, "d5").hands(
        key=["Bolt", "Smite", "Hook"]).build()
    gs(s).hands = [["FirstBlood", "HoldTheLine"], []]
    gs(s).any_kill = True  # a piece was killed earlier
    go(s, "Bolt:attack", "d4", "d5")
    assert "FirstBlood" in gs(s).hands[0]


def test_mglory_d5_a_wayshrine_like_object_is_no_piece_for_objectives() -> None:
    from reliquary.engine.hooks import OBJECT, ConditionDef

    s = board().hero(KEY, "d4").hero(SKULL, "d8").minion(KEY, "e4").build()
    obj = s.pieces[s.board[s.geometry.parse("e4")]]
    obj.set_condition(ConditionDef("test_object", OBJECT), True)
    gs(s).markers = [s.geometry.parse("e4")]
    assert g.rules_of(s).held(s, KEY) == 0
    assert g.GloryRules.minions(s, KEY) == 0


def test_objective_texts_say_the_same_numbers_in_both_languages() -> None:
    import re

    for obj in g.DATA.objective:
        assert re.findall(r"\d+", obj.en) == re.findall(r"\d+", obj.es), obj.id
        counted = obj.kind in ("hold_markers", "kills", "crushes", "displaced")
        assert str(obj.count) in obj.en or obj.first_of_game or not counted
    for up in g.DATA.upgrade:
        assert re.findall(r"\d+", up.en) == re.findall(r"\d+", up.es), up.id
    assert len(g.DATA.objective) == 12 and len(g.DATA.upgrade) == 5


def test_bad_data_names_the_file_and_field(tmp_path: Any) -> None:
    from pathlib import Path

    text = (Path(g.__file__).parents[2] / "data" / "glory.toml").read_text()
    bad = tmp_path / "glory.toml"
    bad.write_text(text.replace('kind = "crushes"', 'kind = "hold_markers"'))
    with pytest.raises(ContentError, match=r"glory\.toml.*cannot be checked at timing 'surge'"):
        load_glory_data(str(bad))
    bad.write_text(text.replace('condition = "heavy"', 'condition = "hefty"'))
    with pytest.raises(ContentError, match="unknown condition 'hefty'"):
        load_glory_data(str(bad))
    bad.write_text(text.replace('kind = "more_minions"\nglory = 1',
                                'kind = "more_minions"\nglory = 9'))
    with pytest.raises(ContentError, match=r"objective 'Muster':.*glory"):
        load_glory_data(str(bad))


def test_the_hint_explains_an_end_phase_choice_by_the_cards_text() -> None:
    from reliquary.ai.hint import _explain

    s = end_phase_position()
    state = gs(s)
    state.hands = [["Cull", "Seize"], ["Muster", "Breach"]]
    end_round(s)
    assert s.decision().kind == g.DISCARD
    lines = _explain(s, ["Cull"])
    assert lines and lines[0]["token"] == "Cull"
    assert "2 enemy pieces were killed" in lines[0]["en"] and "Fase final" in lines[0]["es"]


def test_discards_come_one_at_a_time_until_a_pass() -> None:
    s = end_phase_position()
    gs(s).hands = [["Cull", "Seize"], ["Muster", "Breach"]]
    end_round(s)
    go(s, "Seize")
    assert s.decision().kind == g.DISCARD and set(s.decision().options) == {"Cull", PASS}
    go(s, "pass")
    assert s.decision().kind != g.DISCARD or s.decision().player == SKULL
    assert gs(s).gone == ["Seize"]


def test_mglory11_a_piece_that_gives_no_support_does_not_count() -> None:
    """Paralyzed pieces (M-COND-12, the ban NO_SUPPORT) and objects never count."""
    from reliquary.engine.hooks import NO_SUPPORT, ConditionDef

    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5", hp=5, max_hp=5).minion(
        KEY, "c5").hands(key=["Bolt", "Smite", "Hook"]).build()
    ally = s.pieces[s.board[s.geometry.parse("c5")]]
    ally.set_condition(ConditionDef("test_paralyzed", NO_SUPPORT), True)
    s.events = []
    go(s, "Bolt:attack", "d4", "d5")
    assert events(s, "damage")[0]["amount"] == 2
