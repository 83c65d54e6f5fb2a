"""Keepers' Relics (MODULES.md §6): one test per rule id, M-KEEP-1 to M-KEEP-23 and the
decisions M-KEEP-D1 to D5, with positions and outcomes read from the rule text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reliquary.engine import Builder, Content, Settings, State, position_to_dict
from reliquary.engine.modules.keepers import DATA, Token, kstate, reveal_odds
from reliquary.engine.types import PASS, Play

KEY, SKULL = 0, 1


def board(content: Content, factions: tuple[str, str] = ("pyre-choir", "pyre-choir"),
          **options: Any) -> Builder:
    """A side-8 Builder with the module on; ``options``: keepers options by short name."""
    opts = tuple((f"keepers.{k}", v) for k, v in options.items())
    return Builder(content, 8, factions=factions, modules=("keepers",), module_options=opts)


def put(s: State, square: str, kind: str, value: int = 0, carrier: str | None = None) -> int:
    """A token lying on ``square`` (face down unless ``value``), or carried by the piece
    standing on ``carrier``; taken out of the box. Returns its index."""
    st = kstate(s)
    k = DATA.type_index(kind)
    st.box[k] -= 1
    sq = s.geometry.parse(square)
    if carrier is None:
        st.tokens.append(Token(k, value, sq))
    else:
        st.tokens.append(Token(k, value, carrier=s.board[s.geometry.parse(carrier)]))
    return len(st.tokens) - 1


def at(s: State, name: str) -> int:
    return s.geometry.parse(name)


def interact(s: State, action: str) -> None:
    card = next(o for o in s.legal_options() if isinstance(o, Play) and o.mode == "interact")
    s.apply(card)
    s.apply(action)


def play(s: State, mode: str, card: str | None = None) -> None:
    s.apply(next(o for o in s.legal_options() if isinstance(o, Play) and o.mode == mode
                 and (card is None or o.card == card)))


def attack(s: State, attacker: str, target: str) -> None:
    """Choose the attacker and the target (staying put where a lunge is offered)."""
    s.apply(at(s, attacker))
    if s.decision().kind == "lunge":
        s.apply(PASS)
    s.apply(at(s, target))


def finish_turn(s: State) -> None:
    """Pass what is left of the turn (optional steps) until the other player's play."""
    player = s.current
    while not s.is_terminal and not (s.decision().kind == "play" and s.current != player):
        options = s.legal_options()
        s.apply(PASS if PASS in options else options[0])


# ---------------------------------------------------------------------- M-KEEP-1
def test_mkeep1_twelve_tokens_in_three_types_and_one_wayshrine_each(content: Content) -> None:
    assert [t.id for t in DATA.relic_type] == ["icon", "scroll", "chalice"]
    assert all(t.values == (1, 2, 3, 3) for t in DATA.relic_type)
    s = board(content).hero(KEY, "d1").hero(SKULL, "e8").ruins("d4").build()
    put(s, "d4", "icon")
    st = kstate(s)
    assert st.total() == 12 and st.shrine == [-1, -1]  # each Wayshrine in its supply
    down = position_to_dict(s)["modules"]["keepers"]["tokens"][0]
    assert down == {"type": "icon", "face": "down", "square": at(s, "d4")}  # type only
    st.tokens[0].value = 2
    up = position_to_dict(s)["modules"]["keepers"]["tokens"][0]
    assert up["face"] == "up" and up["value"] == 2


# ---------------------------------------------------------------------- M-KEEP-2
def test_mkeep2_a_face_down_token_on_every_ruin_types_weighted_by_the_box(
        content: Content) -> None:
    s = State(content, Settings(size=8, modules=("keepers",)))
    rng = random.Random(3)
    seen: list[tuple[int, dict[str, float]]] = []
    while s.decision().kind != "play":
        d = s.decision()
        if d.kind == "token_type":
            seen.append((s.stack[-1][1], dict(zip(d.options, d.probabilities, strict=True))))
            s.apply(d.options[0])
        else:
            s.apply(rng.choice(d.options))
    ruins = [sq for sq in range(64) if (s.ruins >> sq) & 1]
    assert [sq for sq, _ in seen] == ruins and len(ruins) == 4  # square order, side 8
    assert seen[0][1] == pytest.approx({"icon": 1 / 3, "scroll": 1 / 3, "chalice": 1 / 3})
    assert seen[1][1] == pytest.approx({"icon": 3 / 11, "scroll": 4 / 11, "chalice": 4 / 11})
    st = kstate(s)
    assert [t.sq for t in st.tokens] == ruins
    assert all(not t.face_up for t in st.tokens)  # no value is drawn
    assert sum(st.box) == 8  # the rest stay out of the game, unseen


# ---------------------------------------------------------------------- M-KEEP-3
def test_mkeep3_the_reveal_draws_from_the_values_not_yet_seen(content: Content) -> None:
    s = board(content).hero(KEY, "d1").hero(SKULL, "e8").ruins("d4", "e5").build()
    st = kstate(s)
    i = put(s, "d4", "icon")
    assert reveal_odds(st, st.tokens[i].kind) == pytest.approx({1: 0.25, 2: 0.25, 3: 0.5})
    put(s, "e5", "icon", value=3)  # a face-up Icon 3 has been seen
    assert reveal_odds(st, st.tokens[i].kind) == pytest.approx({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})
    st.tokens[1].sq, st.tokens[1].recovered = -1, KEY  # recovered counts as seen too
    assert reveal_odds(st, st.tokens[i].kind) == pytest.approx({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})
    put(s, "a3", "scroll", value=1)  # another type changes nothing
    assert reveal_odds(st, st.tokens[i].kind) == pytest.approx({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})


# ---------------------------------------------------------------------- M-KEEP-4
def test_mkeep4_delve_reveals_then_the_lift_test(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .minion(KEY, "e3").minion(SKULL, "c5").ruins("d4").build())
    i = put(s, "d4", "chalice")
    s.events = []
    interact(s, "delve")
    assert s.decision().kind == "delver" and set(s.legal_options()) == {at(s, "c3"), at(s, "e3")}
    s.apply(at(s, "c3"))
    d = s.decision()
    assert d.kind == "reveal" and dict(zip(d.options, d.probabilities, strict=True)) == \
        pytest.approx({"v1": 0.25, "v2": 0.25, "v3": 0.5})
    s.apply("v2")  # two Key pieces next to d4: 2 >= 2, the delver lifts it
    token = kstate(s).tokens[i]
    assert token.carrier == s.board[at(s, "c3")] and token.value == 2
    assert [e.kind for e in s.events if e.kind.startswith("token")] == ["token_reveal",
                                                                        "token_lift"]


def test_mkeep4_a_failed_lift_leaves_the_token_face_up_and_delve_needs_rule(
        content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .ruins("d4").build())
    i = put(s, "d4", "scroll")
    interact(s, "delve")
    s.apply(at(s, "c3"))
    s.apply("v3")  # one piece, value 3: the lift fails
    token = kstate(s).tokens[i]
    assert token.sq == at(s, "d4") and token.face_up and token.carrier == -1
    # An enemy piece next to the Ruin as well: 1 against 1 is no rule, no DELVE.
    s2 = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
          .minion(SKULL, "e5").ruins("d4").build())
    put(s2, "d4", "scroll")
    assert "delve" not in s2.interact_actions(KEY)


def test_mkeep4_a_delver_touching_two_ruins_chooses(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "d4")
         .ruins("c5", "e5").build())
    put(s, "c5", "icon")
    put(s, "e5", "scroll")
    interact(s, "delve")
    s.apply(at(s, "d4"))
    assert s.decision().kind == "delve_ruin"
    assert s.legal_options() == [at(s, "c5"), at(s, "e5")]


# ---------------------------------------------------------------------- M-KEEP-5
def test_mkeep5_an_enemy_push_drops_the_token_where_the_carrier_stood(
        content: Content) -> None:
    s = (board(content, prizes="off").hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "d3")
         .minion(SKULL, "d4").hands(key=["Smite", "Pilgrim", "Crossroads"]).build())
    i = put(s, "a1", "icon", 2, carrier="d4")
    pid = s.board[at(s, "d4")]
    play(s, "attack", "Smite")
    attack(s, "d3", "d4")  # a Minion's Smite: no damage, push 1
    token = kstate(s).tokens[i]
    assert s.pieces[pid].sq == at(s, "d5")
    assert token.sq == at(s, "d4") and token.carrier == -1  # dropped on the square it left


def test_mkeep5_a_killed_carrier_drops_where_it_dies(content: Content) -> None:
    s = (board(content, prizes="off", devout="off").hero(KEY, "d3").hero(SKULL, "h8")
         .minion(SKULL, "d4")
         .hands(key=["Smite", "Pilgrim", "Crossroads"]).build())
    i = put(s, "a1", "icon", 2, carrier="d4")
    play(s, "attack", "Smite")
    attack(s, "d3", "d4")  # Hero's Smite: 1 damage kills the Minion
    token = kstate(s).tokens[i]
    assert at(s, "d4") not in [p.sq for p in s.pieces.values()]  # killed, not pushed
    assert token.sq == at(s, "d4") and token.carrier == -1  # RL3: dropped where it died


def test_mkeep5_a_carrier_keeps_its_token_through_its_own_sides_moves(
        content: Content) -> None:
    s = (board(content).hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "d3")
         .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    i = put(s, "a1", "icon", 2, carrier="d3")
    pid = s.board[at(s, "d3")]
    s._step(s.pieces[pid], at(s, "d4"))
    assert kstate(s).tokens[i].carrier == pid


def test_mkeep5_carrying_pickup_and_one_thing_at_most(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c2")
         .minion(SKULL, "f6").ruins("e4").relic(SKULL, "f4").build())
    st = kstate(s)
    up = put(s, "c3", "chalice", 1)
    # A piece carrying nothing that ends a step on a face-up token picks it up (RL1).
    s._step(s.pieces[s.board[at(s, "c2")]], at(s, "c3"))
    assert st.tokens[up].carrier == s.board[at(s, "c3")]
    # Carrying a token, it takes no enemy relic (at most one thing carried).
    s._step(s.pieces[s.board[at(s, "c3")]], at(s, "d3"))
    s._step(s.pieces[s.board[at(s, "d3")]], at(s, "e3"))
    s._step(s.pieces[s.board[at(s, "e3")]], at(s, "f4"))
    assert s.relic_carrier[SKULL] == -1 and st.tokens[up].carrier == s.board[at(s, "f4")]
    # Where the enemy relic lies with a token, a piece carrying nothing takes the relic.
    s2 = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c2")
          .relic(SKULL, "c3").build())
    t = put(s2, "c3", "icon", 3)
    s2._step(s2.pieces[s2.board[at(s2, "c2")]], at(s2, "c3"))
    assert s2.relic_carrier[SKULL] == s2.board[at(s2, "c3")]
    assert kstate(s2).tokens[t].sq == at(s2, "c3")  # the token stays
    # Placed pieces pick nothing up (RL5); token carriers do not score in V2.
    s3 = board(content).hero(KEY, "d1").hero(SKULL, "h8").build()
    t3 = put(s3, "b1", "icon", 1)
    s3._place_new(KEY, at(s3, "b1"))
    assert kstate(s3).tokens[t3].sq == at(s3, "b1")
    assert s3.vigil_scores() == (0, 0)


def test_mkeep5_no_line_of_sight_exception_for_token_carriers(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(SKULL, "d5")
         .ruins("d3").build())
    put(s, "a1", "icon", 1, carrier="d5")
    # A Ruin between d1 and d5 blocks; the carrier exception is for the relics only.
    assert not s.has_los(at(s, "d1"), at(s, "d5"))


# ---------------------------------------------------------------------- M-KEEP-6
def _bolted(content: Content, **options: Any) -> tuple[State, int]:
    s = (board(content, **options).hero(KEY, "d2").hero(SKULL, "h8")
         .minion(SKULL, "d4", hp=3, max_hp=3).hands(key=["Bolt", "Pilgrim", "Crossroads"])
         .build())
    put(s, "a1", "icon", 1, carrier="d4")
    return s, s.board[at(s, "d4")]


def test_mkeep6_devout_reduces_a_carriers_first_damage_each_round(content: Content) -> None:
    s, pid = _bolted(content)
    s.events = []
    play(s, "attack", "Bolt")
    s.apply(at(s, "d2"))
    s.apply(at(s, "d4"))  # Hero's Bolt: 2 damage, 1 after Devout
    assert s.pieces[pid].hp == 2
    assert any(e.kind == "devout" for e in s.events)
    st = kstate(s)
    assert (pid, s.rounds) in st.devout
    # The allowance is used: a second hit this round is not reduced.
    assert s._reductions(s.pieces[pid]) == 0
    s.rounds += 1
    assert s._reductions(s.pieces[pid]) == 1  # a new round, a new allowance
    off, pid2 = _bolted(content, devout="off")
    play(off, "attack", "Bolt")
    off.apply(at(off, "d2"))
    off.apply(at(off, "d4"))
    assert off.pieces[pid2].hp == 1


# ---------------------------------------------------------------------- M-KEEP-7
def test_mkeep7_recover_on_the_back_row_with_a_set_bonus(content: Content) -> None:
    s = (board(content, target=-1).hero(KEY, "h3").hero(SKULL, "h8").minion(KEY, "c2")
         .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    st = kstate(s)
    st.recovered[KEY] = [1, 1, 0]  # an Icon and a Scroll already home
    i = put(s, "a1", "chalice", 3, carrier="c2")
    s._step(s.pieces[s.board[at(s, "c2")]], at(s, "c1"))  # onto Key's back row
    s.stack = [("end_turn",)]
    s._advance()
    assert st.tokens[i].recovered == KEY and st.points[KEY] == 3 + 2  # value + one set
    assert st.sets[KEY] == 1


def test_mkeep7_recover_next_to_a_matching_wayshrine_only(content: Content) -> None:
    s = (board(content, target=-1).hero(KEY, "h3").hero(SKULL, "h8").minion(KEY, "d4")
         .minion(KEY, "f4").minion(KEY, "e6").build())
    st = kstate(s)
    shrine = s.pieces[s.board[at(s, "e6")]]
    s.add_condition(shrine, "wayshrine")
    st.shrine[KEY], st.shrine_type[KEY] = shrine.id, DATA.type_index("scroll")
    near = put(s, "a1", "scroll", 2, carrier="d4")  # not adjacent to e6
    s._step(s.pieces[s.board[at(s, "d4")]], at(s, "d5"))
    wrong = put(s, "a1", "icon", 1, carrier="f4")
    s._step(s.pieces[s.board[at(s, "f4")]], at(s, "f5"))
    s.stack = [("end_turn",)]
    s._advance()
    assert st.tokens[near].recovered == KEY and st.points[KEY] == 2
    assert st.tokens[wrong].recovered == -1  # the Wayshrine shows a Scroll


# ---------------------------------------------------------------------- M-KEEP-8
def test_mkeep8_a_prize_after_killing_an_enemy_carrier(content: Content) -> None:
    s = (board(content, devout="off").hero(KEY, "d3").hero(SKULL, "h8").minion(SKULL, "d4")
         .ruins("b6", "g3").hands(key=["Smite", "Pilgrim", "Crossroads"]).build())
    st = kstate(s)
    put(s, "g3", "icon")  # g3 holds a token: no Prize goes there
    i = put(s, "a1", "scroll", 2, carrier="d4")
    play(s, "attack", "Smite")
    s.events = []
    attack(s, "d3", "d4")
    d = s.decision()
    assert d.kind == "prize" and d.player == KEY and d.options == (at(s, "b6"), PASS)
    s.apply(at(s, "b6"))
    assert st.tokens[i].sq == at(s, "b6") and st.tokens[i].face_up and st.points[KEY] == 1
    assert [e.kind for e in s.events if e.kind in ("kill", "token_drop", "prize")] == \
        ["kill", "token_drop", "prize"]
    off = (board(content, prizes="off").hero(KEY, "d3").hero(SKULL, "h8")
           .minion(SKULL, "d4").ruins("b6").hands(key=["Smite", "Pilgrim", "Crossroads"])
           .build())
    put(off, "a1", "scroll", 2, carrier="d4")
    play(off, "attack", "Smite")
    attack(off, "d3", "d4")
    assert off.is_terminal or off.decision().kind != "prize"


# ---------------------------------------------------------------------- M-KEEP-9
def test_mkeep9_reaching_the_target_at_t3_wins_at_once(content: Content) -> None:
    s = (board(content).hero(KEY, "h3").hero(SKULL, "h8").minion(KEY, "c1").build())
    st = kstate(s)
    st.points[KEY] = 4  # default target on side 8: 4 Ruins + 1 = 5
    put(s, "a1", "icon", 1, carrier="c1")
    s.stack = [("end_turn",)]
    s._advance()
    assert s.result is not None and s.result.winner == KEY
    assert s.result.reason == "relic_points"
    none = board(content, target=-1).hero(KEY, "h3").hero(SKULL, "h8").minion(KEY, "c1") \
        .build()
    kstate(none).points[KEY] = 29
    put(none, "a1", "icon", 3, carrier="c1")
    none.stack = [("end_turn",)]
    none._advance()
    assert none.result is None and kstate(none).points[KEY] == 32


# ---------------------------------------------------------------------- M-KEEP-10
def test_mkeep10_relic_points_come_first_in_the_verdict(content: Content) -> None:
    s = board(content).hero(KEY, "d1", hp=1).hero(SKULL, "h8").build()
    kstate(s).points[:] = [2, 1]
    result = s.vigil_result()  # Key's Hero is hurt: V2 alone would give Skull the game
    assert result.winner == KEY and result.reason == "points"
    kstate(s).points[:] = [1, 1]
    assert s.vigil_result().reason == "vigil"


# ---------------------------------------------------------------------- M-KEEP-11
def test_mkeep11_lifts_make_the_round_eventful_reveals_and_failed_lifts_do_not(
        content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .ruins("d4").build())
    put(s, "d4", "icon")
    s.eventful = False
    interact(s, "delve")
    s.apply(at(s, "c3"))
    s.apply("v3")  # revealed, the lift fails
    assert not s.eventful
    s2 = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
          .ruins("d4").build())
    put(s2, "d4", "icon")
    s2.eventful = False
    interact(s2, "delve")
    s2.apply(at(s2, "c3"))
    s2.apply("v1")
    assert s2.eventful


# ---------------------------------------------------------------------- Wayshrines
def _encamp(content: Content, **options: Any) -> State:
    s = (board(content, **options).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .build())
    interact(s, "encamp")
    assert s.decision().kind == "encamper" and s.legal_options() == [at(s, "c3")]
    s.apply(at(s, "c3"))
    assert s.decision().kind == "wayshrine_type"
    s.apply("chalice")
    return s


def test_mkeep20_encamp_replaces_a_minion_that_leaves_the_game(content: Content) -> None:
    s = _encamp(content)
    st = kstate(s)
    shrine = s.pieces[st.shrine[KEY]]
    assert shrine.sq == at(s, "c3") and st.shrine_type[KEY] == DATA.type_index("chalice")
    assert s.pool == [0, 0]  # not to the pool
    assert not s.eventful  # Encamp alone is no event (M-KEEP-11)
    assert "encamp" not in s.interact_actions(KEY) and "decamp" in s.interact_actions(KEY)
    off = board(content, wayshrines="off").hero(KEY, "d1").hero(SKULL, "h8") \
        .minion(KEY, "c3").build()
    assert off.interact_actions(KEY) == []


def test_mkeep21_the_wayshrine_never_acts_and_a_push_destroys_it(content: Content) -> None:
    s = _encamp(content)
    st = kstate(s)
    pid = st.shrine[KEY]
    assert s.current == SKULL
    # It never acts: no MOVE, no attack, no INTERACT for Key with it.
    assert all(sq != at(s, "c3") for sq in s._mover_squares("Pilgrim"))
    # Not a Minion for V2's count; an enemy piece for targeting; it blocks no LoS.
    assert s.vigil_verdict()[1] != "more Minions" or s._own[KEY] == []
    s2 = (board(content).hero(KEY, "d1").hero(SKULL, "c4").build())
    shrine = s2._place_new(KEY, at(s2, "c3"))
    s2.add_condition(shrine, "wayshrine")
    kstate(s2).shrine[KEY] = shrine.id
    kstate(s2).shrine_type[KEY] = 0
    assert s2.vigil_verdict() == (None, "tied on every count")
    assert s2._push(at(s2, "c4"), shrine, 1, pull=False)  # pinned: crushed where it stands
    s2._damage(shrine, 1, crush=True)
    assert shrine.id not in s2.pieces and kstate(s2).shrine[KEY] == -1
    assert kstate(s2).points[SKULL] == DATA.wayshrine_kill and s2.pool == [0, 0]
    assert pid in s.pieces


def test_mkeep21_the_wayshrine_blocks_no_line_of_sight(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "d5").build()
         .clone())
    s.settings = Settings(size=8, los="straight", modules=("keepers",))
    shrine = s._place_new(KEY, at(s, "d3"))
    assert not s.has_los(at(s, "d1"), at(s, "d5"))
    s.add_condition(shrine, "wayshrine")
    assert s.has_los(at(s, "d1"), at(s, "d5"))


def test_mkeep22_decamp_puts_a_minion_on_the_wayshrines_square(content: Content) -> None:
    s = _encamp(content)
    finish_turn(s)
    assert s.current == KEY
    interact(s, "decamp")
    piece = s.piece_at(at(s, "c3"))
    assert piece is not None and not piece.hero and not piece.bans
    assert kstate(s).shrine == [-1, -1]


def test_mkeep23_regroup_may_place_next_to_the_wayshrine(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "d4").pools(key=1)
         .build())
    shrine = s.pieces[s.board[at(s, "d4")]]
    s.add_condition(shrine, "wayshrine")
    kstate(s).shrine[KEY], kstate(s).shrine_type[KEY] = shrine.id, 0
    play(s, "regroup")
    squares = set(s.legal_options())
    assert {at(s, n) for n in ("c3", "c5", "e4", "e5")} <= squares
    assert at(s, "a1") in squares  # the back row still


# ---------------------------------------------------------------------- decisions
def test_mkeep_d1_no_value_exists_before_the_reveal(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .minion(KEY, "e3").minion(KEY, "c4").ruins("d4").build())
    put(s, "d4", "icon")
    interact(s, "delve")
    s.apply(at(s, "c3"))
    before = position_to_dict(s)
    outcomes = set()
    for value in ("v1", "v2", "v3"):
        branch = s.clone()
        assert position_to_dict(branch) == before  # one position, every value possible
        branch.apply(value)
        outcomes.add(kstate(branch).tokens[0].value)
    assert outcomes == {1, 2, 3}


def test_mkeep_d2_a_face_up_token_that_would_not_lift_cannot_be_delved(
        content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .ruins("d4").build())
    put(s, "d4", "icon", 2)
    assert "delve" not in s.interact_actions(KEY)
    s2 = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
          .minion(KEY, "e3").ruins("d4").build())
    put(s2, "d4", "icon", 2)
    assert "delve" in s2.interact_actions(KEY)


def test_mkeep_d3_the_lantern_step_stays_with_the_relic_carrier(content: Content) -> None:
    s = (board(content, factions=("lantern-bearers", "pyre-choir")).hero(KEY, "d1")
         .hero(SKULL, "h8").minion(KEY, "c3").build())
    put(s, "a1", "icon", 1, carrier="c3")
    from reliquary.engine.effects import PASSIVES
    assert PASSIVES["lantern_step"].end_step(s, KEY) == []


def test_mkeep_d4_where_several_tokens_lie_the_owner_chooses(content: Content) -> None:
    s = (board(content).hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c2")
         .hands(key=["Pilgrim", "Crossroads", "Sidewind"]).build())
    put(s, "c3", "icon", 1)
    put(s, "c3", "scroll", 3)
    s._step(s.pieces[s.board[at(s, "c2")]], at(s, "c3"))
    s._queue_trigger()
    d = s.decision()
    assert d.kind == "token_pickup" and d.player == KEY and d.options == ("icon1", "scroll3")
    s.apply("scroll3")
    st = kstate(s)
    assert st.tokens[1].carrier == s.board[at(s, "c3")] and st.tokens[0].sq == at(s, "c3")


def test_mkeep_d5_gale_pushes_a_wayshrine_and_so_destroys_it(content: Content) -> None:
    s = (board(content).hero(KEY, "d4").hero(SKULL, "h8")
         .hands(key=["Gale", "Pilgrim", "Crossroads"]).build())
    shrine = s._place_new(SKULL, at(s, "d5"))
    s.add_condition(shrine, "wayshrine")
    kstate(s).shrine[SKULL], kstate(s).shrine_type[SKULL] = shrine.id, 0
    play(s, "attack", "Gale")  # legal: the Wayshrine is an adjacent enemy (D22)
    s.apply(at(s, "d4"))
    while not s.is_terminal and s.decision().kind in ("gale_step", "gale_push"):
        options = s.legal_options()
        s.apply(PASS if PASS in options else options[0])
    assert shrine.id not in s.pieces and kstate(s).points[KEY] == 1


# ---------------------------------------------------------------------- §6.4 data
@pytest.mark.parametrize(("change", "message"), [
    (("values = [1, 2, 3, 3]", "values = [0, 2, 3, 3]", 1), "values must be 1 or more"),
    (("values = [1, 2, 3, 3]", "values = []", 1), "relic_type.0.values"),
    (('target = "ruins+1"', "target = 99", 1), "target 99 cannot be reached"),
    (('id = "scroll"', 'id = "icon"', 1), "relic_type ids must differ"),
])
def test_keepers_data_errors_name_the_file_and_field(tmp_path: Any, change: tuple[str, str, int],
                                                     message: str) -> None:
    from importlib import resources

    from reliquary.engine.content import ContentError
    from reliquary.engine.modules.keepers import KeepersData
    from reliquary.module_data import load_module_data

    text = resources.files("reliquary.data").joinpath("keepers.toml").read_text("utf-8")
    old, new, count = change
    bad = tmp_path / "keepers.toml"
    bad.write_text(text.replace(old, new, count), encoding="utf-8")
    with pytest.raises(ContentError, match=r"keepers\.toml") as err:
        load_module_data(bad, "keepers", KeepersData)
    assert message in str(err.value)


def test_keepers_options_are_checked(content: Content) -> None:
    assert Settings.from_dict({"modules": ["keepers"], "keepers.target": 9}) \
        .option("keepers.target") == 9
    for bad in (2, 31, 0, "ruins"):
        with pytest.raises(ValueError, match=r"keepers\.target"):
            Settings.from_dict({"modules": ["keepers"], "keepers.target": bad})
    with pytest.raises(ValueError, match="belongs to module 'keepers', which is off"):
        Settings.from_dict({"keepers.devout": "off"})


# ---------------------------------------------------------------------- §7 with M-GLORY
def test_mkeep9_with_glory_relic_points_are_glory_and_no_threshold(content: Content) -> None:
    from reliquary.engine.modules.glory import glory_state

    s = (Builder(content, 8, modules=("glory", "keepers")).hero(KEY, "h3").hero(SKULL, "h8")
         .minion(KEY, "c1").build())
    kstate(s).points[KEY] = 4
    before = glory_state(s).glory[KEY]
    put(s, "a1", "icon", 3, carrier="c1")
    s.stack = [("end_turn",)]
    s._advance()
    assert glory_state(s).glory[KEY] == before + 3  # the recovery's points as Glory
    assert s.result is None or s.result.reason != "relic_points"  # the threshold is off


def test_mkeep8_a_prize_and_a_grave_tide_return_are_both_asked(content: Content) -> None:
    s = (board(content, factions=("pyre-choir", "grave-tide"), devout="off").hero(KEY, "d3")
         .hero(SKULL, "h8").minion(SKULL, "d4").ruins("b6")
         .hands(key=["Smite", "Pilgrim", "Crossroads"]).build())
    put(s, "a1", "scroll", 2, carrier="d4")
    play(s, "attack", "Smite")
    attack(s, "d3", "d4")  # the carrier dies: its token drops, and Grave Tide takes it
    kinds = []
    while not s.is_terminal and s.decision().kind in ("prize", "grave_return"):
        kinds.append(s.decision().kind)
        s.apply(s.legal_options()[0])
    assert kinds == ["prize", "grave_return"]  # in the order triggered, none lost


# ---------------------------------------------------------------------- §6.3
def test_desecration_reveals_the_token_which_lies_under_the_new_minion(
        content: Content) -> None:
    s = (board(content).hero(KEY, "a1").hero(SKULL, "h8").ruins("d3")
         .rites(key="Desecration").build())
    i = put(s, "d3", "chalice")
    play(s, "rite")
    s.apply(at(s, "d3"))
    d = s.decision()
    assert d.kind == "reveal" and d.probabilities == pytest.approx((0.25, 0.25, 0.5))
    s.apply("v2")
    token = kstate(s).tokens[i]
    minion = s.piece_at(at(s, "d3"))
    assert not s.is_ruin(at(s, "d3")) and minion is not None and minion.owner == KEY
    assert token.sq == at(s, "d3") and token.value == 2  # face up, not picked up (RL5)
