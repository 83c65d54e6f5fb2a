"""M-COND (MODULES.md §4): one test per rule and decision, positions and expected results
taken from the rule text."""

from __future__ import annotations

from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.engine import PASS, Builder, ContentError, Settings, State, Step, parse_option
from reliquary.engine.hooks import BASE_CONDITIONS, NO_STEP
from reliquary.engine.modules import get
from reliquary.engine.modules.conditions import (
    DATA,
    ConditionsData,
    ConditionsHooks,
    check_content,
    cond_state,
)

KEY, SKULL = 0, 1
CONTENT = default_content()


def board(factions: tuple[str, str] = ("pyre-choir", "pyre-choir"), **options: Any) -> Builder:
    """A Builder with the module on; ``options``: module options without the prefix."""
    settings = Settings.from_dict({"modules": ["conditions"],
                                   **{f"conditions.{k}": v for k, v in options.items()}})
    b = Builder(CONTENT, 8, factions=factions, modules=("conditions",))
    return b.options(module_options=settings.module_options)


def go(s: State, *tokens: str | int) -> None:
    for token in tokens:
        if isinstance(token, int):  # a die face
            s.apply(token)
        else:
            s.apply(parse_option(s, token))


def at(s: State, square: str) -> Any:
    piece = s.piece_at(s.geometry.parse(square))
    assert piece is not None, square
    return piece


def give(s: State, square: str, name: str, value: int = 0, earlier: bool = True) -> None:
    """The piece at ``square`` has condition ``name``, gained in an earlier turn (in force
    now) unless ``earlier`` is False."""
    piece = at(s, square)
    stamp = s.turns_taken[0] + s.turns_taken[1] - (1 if earlier else 0)
    piece.set_condition(s._rules.conditions[name], True, value, stamp)


def restart(s: State) -> State:
    """The current player's turn starts again (turn start sees the conditions given)."""
    s._start_turn(s.current)
    s._advance()
    return s


def hooks(s: State) -> ConditionsHooks:
    h = next(h for h in s._rules.hooks if isinstance(h, ConditionsHooks))
    return h


def end_turn(s: State, player: int = KEY) -> None:
    """Decline every optional step of ``player``'s turn, to the other's play decision."""
    while not s.is_terminal and not (s.decision().kind == "play" and s.current != player):
        d = s.decision()
        s.apply(PASS if PASS in d.options else d.options[0])


def run(s: State, runner: str) -> None:
    """The current player MOVEs the piece at ``runner`` (a piece kept out of the test's
    way) and ends the turn."""
    player, sq = s.current, s.geometry.parse(runner)
    for play in s.decision().options:
        if play.mode == "move":  # type: ignore[union-attr]
            trial = s.clone()
            trial.apply(play)
            if sq in trial.decision().options:
                s.apply(play)
                s.apply(sq)
                s.apply(s.decision().options[0])
                break
    else:
        raise AssertionError(f"no MOVE for {runner}")
    end_turn(s, player)


def round_end(s: State, key: str = "h1", skull: str = "a8") -> None:
    """From Key's play decision: each player MOVEs its runner and ends the turn (then
    Upkeep). The runners stand at h1 (Key) and a8 (Skull)."""
    run(s, key)
    if not s.is_terminal and s.decision().kind == "play":
        run(s, skull)


def kinds(s: State) -> list[str]:
    assert s.events is not None
    return [e.kind for e in s.events]


# ---------------------------------------------------------------------- general
def test_mcond1_conditions_are_data_with_seven_and_the_two_core() -> None:
    ids = [c.id for c in DATA.condition]
    assert ids[:7] == ["burning", "poison", "fast", "slow", "paralyzed", "focus", "defensive"]
    assert {c.id for c in DATA.condition if c.core} == set(BASE_CONDITIONS)
    s = board().hero(KEY, "a1").hero(SKULL, "h8").build()
    assert set(s._rules.conditions) == {*ids}
    assert [c.id for c in DATA.condition if c.valued] == ["burning", "poison", "focus",
                                                          "defensive"]


def test_mcond1_a_bad_data_file_names_the_entry_and_field() -> None:
    raw = DATA.model_dump()
    raw["rider"][0]["condition"] = "burnin"
    with pytest.raises(ValueError, match=r"rider 1 \(Bolt\): field 'condition': unknown "
                                         r"condition 'burnin'"):
        ConditionsData.model_validate(raw)
    raw = DATA.model_dump()
    raw["condition"][2]["cancels"] = "poison"
    with pytest.raises(ValueError, match="cancelling is symmetric"):
        ConditionsData.model_validate(raw)
    raw = DATA.model_dump()
    raw["rider"][4]["faces"] = (5, 7)
    with pytest.raises(ContentError, match=r"conditions.toml: rider 5 \(Ordeal\): field "
                                           r"'faces': \[7\]"):
        check_content(ConditionsData.model_validate(raw), CONTENT)


def test_mcond2_a_target_killed_by_the_hit_gains_nothing_and_pushes_keep_conditions() -> None:
    s = board().hero(KEY, "d4").minion(SKULL, "d6").hero(SKULL, "h8").minion(SKULL, "e5") \
        .hands(key=["Bolt", "Smite", "Hook"]).build()
    give(s, "e5", "burning", 2)
    s.events = []
    go(s, "Bolt:attack", "d4", "d6")  # Bolt Hero: 2 damage kills the Minion
    assert "condition" not in kinds(s)
    s2 = board().hero(KEY, "d4").hero(SKULL, "d5").hands(key=["Smite", "Bolt", "Hook"]).build()
    give(s2, "d5", "poison", 2)
    go(s2, "Smite:attack", "d4")
    while s2.decision().kind == "lunge":
        go(s2, PASS)
    go(s2, "d5")  # Smite Hero: 1 damage, push 1
    pushed = at(s2, "d6")
    assert pushed.hero and pushed.value("poison") == 2 and pushed.has("slow")


def test_mcond3_valued_conditions_add_up_and_restart() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Bolt", "Smite", "Hook"]).build()
    give(s, "d6", "burning", 1)
    turn = s.turns_taken[0] + s.turns_taken[1]
    go(s, "Bolt:attack", "d4", "d6")
    target = at(s, "d6")
    assert target.value("burning") == 2  # Burning 1, then Burning 1 more: Burning 2
    [cond] = [c for c in target.conds if c[0] == "burning"]
    assert cond[2] == turn  # restarted in this turn


def test_mcond3_d4_a_restart_never_ends_fast_early() -> None:
    """A Fast piece that rolls Rapture 4-6 again takes its Fast step this turn and the
    next (M-COND-D4)."""
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Rapture", "Bolt", "Hook"]) \
        .build()
    give(s, "d4", "fast")
    restart(s)
    go(s, "Rapture:attack", "d4", 4)
    while s.decision().kind == "rapture_step":
        go(s, PASS)
    assert s.decision().kind == "fast_step"
    go(s, "d4-d5")
    assert s.current == SKULL
    piece = at(s, "d5")
    assert piece.has("fast")  # restarted at step T3: in force in Key's next turn too
    end_turn_skull(s)
    assert cond_state(s).fast_ready == (piece.id,)


def end_turn_skull(s: State) -> None:
    """Skull plays its first MOVE (or pass) and ends its turn."""
    assert s.current == SKULL
    d = s.decision()
    s.apply(next(o for o in d.options if o.mode in ("move", "pass")))  # type: ignore[union-attr]
    end_turn(s, SKULL)


def test_mcond3_d7_an_action_keeps_the_larger_value() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]) \
        .build()
    give(s, "d4", "focus", 2)
    go(s, "Pilgrim:interact", "focus", "d4")
    assert at(s, "d4").value("focus") == 2  # not 3
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]) \
        .build()
    give(s, "d4", "defensive", 1)
    go(s, "Pilgrim:interact", "guard", "d4")
    assert at(s, "d4").value("defensive") == 1


def test_mcond4_fast_and_slow_cancel_each_other() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Rapture", "Bolt", "Hook"]) \
        .build()
    give(s, "d4", "slow")
    s.events = []
    go(s, "Rapture:attack", "d4", 5)  # Slow: no Rapture steps; Fast comes at step T3
    end_turn(s)
    piece = at(s, "d4")
    assert not piece.has("fast") and not piece.has("slow")
    assert "condition_cancelled" in kinds(s)


def test_mcond5_owner_turn_conditions_last_through_the_owners_next_turn() -> None:
    """(b): Slow gained in the enemy's turn is in force in its owner's next turn and ends
    at the end of it."""
    s = board().hero(KEY, "d4").hero(SKULL, "d5").hands(key=["Hook", "Bolt", "Pilgrim"]) \
        .build()
    go(s, "Hook:attack", "d4", "d5")
    target = at(s, "d5")
    assert target.has("slow") and target.bans & NO_STEP
    assert s.current == SKULL and target.has("slow")  # Skull's turn: in force
    end_turn_skull(s)
    assert not s.pieces[target.id].has("slow")


def test_mcond5_owner_turn_condition_gained_in_its_owners_turn_waits_a_turn() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]) \
        .build()
    go(s, "Pilgrim:interact", "focus", "d4")
    piece = at(s, "d4")
    assert s.current == SKULL and piece.has("focus")  # gained in Key's turn: it stays
    end_turn_skull(s)
    assert piece.has("focus")
    go(s, "Requiem:move", "d4", "d5")
    end_turn(s)
    assert not s.pieces[piece.id].has("focus")  # unused: over at the end of that turn


def test_mcond5_until_owner_turn_start_ends_when_the_owners_turn_starts() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]) \
        .build()
    go(s, "Pilgrim:interact", "guard", "d4")
    piece = at(s, "d4")
    assert s.current == SKULL and piece.value("defensive") == 1  # through Skull's turn
    end_turn_skull(s)
    assert s.current == KEY and not piece.has("defensive")


def test_mcond6_upkeep_burning_is_a_hit_poison_is_not() -> None:
    s = board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c3").minion(KEY, "e3") \
        .minion(SKULL, "c6").minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "burning", 2)
    give(s, "a1", "defensive", 1)  # Key's: in force until Key's next turn starts
    give(s, "c6", "burning", 1)
    give(s, "h8", "poison", 2)
    give(s, "h8", "burning", 1)
    give(s, "e3", "burning", 3)
    at(s, "e3").aegis = True  # K-Aegis prevents the tick
    give(s, "c3", "poison", 1)
    at(s, "c3").aegis = True  # but not Poison
    s.events = []
    round_end(s)
    # Burning 2 less Defensive 1.
    assert at(s, "a1").hp == 3 and not at(s, "a1").has("burning")
    skull_hero = s.hero(SKULL)
    assert skull_hero is not None
    # Burning 1 plus Poison's 1: 2 lost; Poison down to 1.
    assert skull_hero.hp == 2 and skull_hero.value("poison") == 1
    assert not skull_hero.has("burning")
    assert s.piece_at(s.geometry.parse("c6")) is None  # killed
    assert at(s, "e3").hp == 1 and not at(s, "e3").has("burning")
    assert s.piece_at(s.geometry.parse("c3")) is None  # Poison through Aegis


def test_mcond6_upkeep_kills_a_carrier_who_drops_the_relic() -> None:
    s = board().hero(KEY, "a1").hero(SKULL, "h8").minion(SKULL, "d3").relic(KEY, "b2") \
        .carry(KEY, "d3").minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "d3", "burning", 1)
    round_end(s)
    assert s.piece_at(s.geometry.parse("d3")) is None
    assert s.relic_carrier[KEY] == -1 and s.relic_sq[KEY] == s.geometry.parse("d3")


def test_mcond6_a_hero_killed_at_upkeep_loses() -> None:
    s = board().hero(KEY, "a1", hp=1).hero(SKULL, "h8") \
        .minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "poison", 1)
    round_end(s)
    assert s.result is not None and s.result.winner == SKULL
    assert s.result.reason == "hero_killed"


def test_mcond6_d1_both_heroes_killed_at_upkeep_is_a_draw() -> None:
    s = board().hero(KEY, "a1", hp=1).hero(SKULL, "h8", hp=2) \
        .minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "poison", 1)
    give(s, "h8", "burning", 2)
    round_end(s)
    assert s.result is not None and s.result.winner is None
    assert s.result.reason == "hero_killed"


def test_mcond6_grave_tide_returns_a_minion_killed_at_upkeep() -> None:
    s = board(factions=("pyre-choir", "grave-tide")).hero(KEY, "a1").hero(SKULL, "h8") \
        .minion(SKULL, "d5").build()
    give(s, "d5", "burning", 1)
    for _ in range(2):
        d = s.decision()
        if d.kind == "grave_return":
            break
        s.apply(next(o for o in d.options if o.mode == "move"))
        while not s.is_terminal and s.decision().kind not in ("play", "grave_return"):
            dd = s.decision()
            s.apply(PASS if PASS in dd.options else dd.options[0])
    d = s.decision()
    assert d.kind == "grave_return" and d.player == SKULL


def test_mcond6_upkeep_hp_loss_makes_the_round_eventful_mcond60() -> None:
    s = board().hero(KEY, "a1").hero(SKULL, "h8").set(vigil=4) \
        .minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "poison", 1)
    round_end(s)
    assert s.vigil == s.settings.vigil_start  # reset by the Upkeep damage (V1)
    s = board().hero(KEY, "a1").hero(SKULL, "h8").set(vigil=4) \
        .minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "slow")
    give(s, "h8", "fast")
    round_end(s)
    assert s.vigil == 3  # conditions alone are not events


def test_mcond6_var2_upkeep_damage_to_a_minion_does_not_reset_under_hero() -> None:
    b = board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "c3").set(vigil=4)
    s = b.options(vigil_reset="hero").minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "c3", "poison", 1)
    round_end(s)
    assert s.vigil == 3


def test_mcond7_tend_lowers_burning_and_removes_it_at_0() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "e5").hero(SKULL, "h8") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    give(s, "e5", "burning", 1)
    go(s, "Pilgrim:interact", "tend")
    assert s.decision().kind == "cond_actor"
    go(s, "d4")
    assert s.decision().kind == "tend_target"
    go(s, "e5")
    assert not at(s, "e5").has("burning")


def test_mcond8_poison_ticks_down() -> None:
    s = board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "h1").minion(SKULL, "a8").build()
    give(s, "a1", "poison", 3)
    round_end(s)
    assert at(s, "a1").value("poison") == 2 and at(s, "a1").hp == 3


def test_mcond9_veil_and_aegis_are_the_core_conditions_unchanged() -> None:
    assert {c.id for c in DATA.condition if c.core} == {"veil", "aegis"}  # checked on load
    s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Veil", "Bolt", "Hook"]).build()
    go(s, "Veil:attack", "d4", "d6")
    assert at(s, "d6").veiled and s._rules.conditions["veil"] is BASE_CONDITIONS["veil"]


def test_mcond10_fast_step_at_turn_end_counts_as_stepped_for_the_lantern() -> None:
    s = board(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "d4") \
        .hero(SKULL, "h8").relic(SKULL, "g7").carry(SKULL, "d4") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    give(s, "d4", "fast")
    restart(s)
    go(s, "Pilgrim:move", "a1", "a2")
    while s.decision().kind == "escort":
        go(s, PASS)
    d = s.decision()
    assert d.kind == "fast_step" and Step(s.geometry.parse("d4"), s.geometry.parse("d5")) \
        in d.options and PASS in d.options
    go(s, "d4-d5")
    assert s.current == SKULL  # no Lantern step after the Fast step


def test_mcond10_several_fast_pieces_step_in_the_owners_order() -> None:
    s = board().hero(KEY, "a1").minion(KEY, "d4").minion(KEY, "f4").hero(SKULL, "h8") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    give(s, "d4", "fast")
    give(s, "f4", "fast")
    restart(s)
    go(s, "Pilgrim:move", "a1", "a2")
    while s.decision().kind == "escort":
        go(s, PASS)
    go(s, "f4-f5")
    d = s.decision()
    assert d.kind == "fast_step" and all(o == PASS or o.frm == s.geometry.parse("d4")
                                         for o in d.options)
    go(s, "d4-d5")
    assert s.current == SKULL


def test_mcond10_d5_no_fast_step_after_a_pass() -> None:
    s = board().hero(KEY, "a1").hero(SKULL, "h8").hands(key=["Bolt", "Hook", "Smite"]) \
        .ruins().build()
    give(s, "a1", "fast")
    # Key can only pass when nothing is legal: make everything illegal by a Paralyzed Hero.
    give(s, "a1", "paralyzed")
    s = restart(s)
    d = s.decision()
    assert all(o.mode == "pass" for o in d.options)
    go(s, f"{d.options[0].card}:pass")
    assert s.current == SKULL


def test_mcond11_slow_forbids_every_step_but_not_move_or_attack() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "b2").hero(SKULL, "d6") \
        .hands(key=["Pilgrim", "Smite", "Hook"]).build()
    give(s, "d4", "slow")
    give(s, "b2", "slow")
    restart(s)
    options = s.decision().options
    assert any(o.card == "Smite" and o.mode == "attack" for o in options) is False
    assert any(o.card == "Pilgrim" and o.mode == "move" for o in options)
    go(s, "Pilgrim:move", "d4", "d5")
    assert s.decision().kind != "escort"  # the Slow Minion takes no Escort step
    s = board().hero(KEY, "d4").hero(SKULL, "d5").hands(key=["Smite", "Bolt", "Hook"]).build()
    give(s, "d4", "slow")
    restart(s)
    go(s, "Smite:attack", "d4")
    assert s.decision().kind == "target"  # no lunge offered


def test_mcond12_paralyzed_cannot_move_attack_or_act_and_heroes_are_immune() -> None:
    s = board().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "d5") \
        .hands(key=["Pilgrim", "Smite", "Hook"]).build()
    give(s, "d4", "paralyzed")
    restart(s)
    go(s, "Pilgrim:move")
    assert s.geometry.parse("d4") not in s.decision().options
    s = board().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "d5") \
        .hands(key=["Pilgrim", "Smite", "Hook"]).build()
    give(s, "d4", "paralyzed")
    restart(s)
    assert not any(o.mode == "attack" and o.card == "Smite" for o in s.decision().options)
    go(s, "Pilgrim:interact", "focus")
    assert s.geometry.parse("d4") not in s.decision().options
    h = hooks(s)
    hero = s.hero(KEY)
    assert hero is not None
    h.gain(s, hero, "paralyzed", 0)
    assert not hero.has("paralyzed")


def test_mcond13_focus_adds_to_the_first_hit_and_is_used_up_when_chosen() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "c4").hero(SKULL, "d5").minion(SKULL, "c5") \
        .hands(key=["Smite", "Bolt", "Hook"]).build()
    give(s, "c4", "focus", 1)
    go(s, "Smite:attack", "c4")
    assert not at(s, "c4").has("focus")  # removed when chosen
    while s.decision().kind == "lunge":
        go(s, PASS)
    skull_hero = at(s, "d5")
    go(s, "d5")  # Smite Minion: no damage, push 1; Focus 1 makes it 1
    assert skull_hero.hp == 3


def test_mcond13_an_attack_with_no_hit_gains_nothing_and_focus_is_still_used() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Aegis", "Bolt", "Hook"]).build()
    give(s, "d4", "focus", 2)
    go(s, "Aegis:attack", "d4")
    assert not at(s, "d4").has("focus")
    assert s.current == SKULL and cond_state(s).focus == (-1, 0)  # no bonus left over


def test_mcond13_t8_prevents_the_focus_damage_on_a_first_turn() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "c4").hero(SKULL, "d5") \
        .hands(key=["Smite", "Bolt", "Hook"]).set(turns_taken=[0, 0]).build()
    give(s, "c4", "focus", 1, earlier=False)
    skull_hero = at(s, "d5")
    go(s, "Smite:attack", "c4")
    while s.decision().kind == "lunge":
        go(s, PASS)
    go(s, "d5")
    assert skull_hero.hp == 4


def test_mcond14_defensive_reduces_each_hit_but_not_poison() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Bolt", "Smite", "Hook"]).build()
    give(s, "d6", "defensive", 1)
    go(s, "Bolt:attack", "d4", "d6")  # 2 damage, 1 less
    assert at(s, "d6").hp == 3


# ---------------------------------------------------------------------- riders
def test_mcond30_riders_apply_after_the_push_once_per_hit() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d5").hands(key=["Smite", "Bolt", "Hook"]).build()
    s.events = []
    go(s, "Smite:attack", "d4")
    while s.decision().kind == "lunge":
        go(s, PASS)
    go(s, "d5")
    seq = [k for k in kinds(s) if k in ("damage", "push", "condition")]
    assert seq == ["damage", "push", "condition"]
    assert at(s, "d6").has("slow")


def test_mcond31_the_default_riders() -> None:
    table = {(r.card, r.line, r.condition, r.value, r.shape, r.faces, r.to) for r in DATA.rider}
    assert table == {
        ("Bolt", "hero", "burning", 1, "target", (), "target"),
        ("Smite", "both", "slow", 0, "target", (), "target"),
        ("Hook", "any", "slow", 0, "target", (), "target"),
        ("Gale", "any", "slow", 0, "pulse", (), "target"),
        ("Ordeal", "any", "poison", 1, "target", (5, 6), "target"),
        ("Rapture", "any", "fast", 0, "target", (4, 5, 6), "attacker"),
    }
    # Bolt's Minion line has no rider.
    s = board().minion(KEY, "d4").hero(KEY, "a1").hero(SKULL, "d5") \
        .hands(key=["Bolt", "Smite", "Hook"]).build()
    go(s, "Bolt:attack", "d4")
    while s.decision().kind == "lunge":
        go(s, PASS)
    go(s, "d5")
    assert not at(s, "d5").conds


def test_mcond31_ordeal_poisons_on_5_and_6_only() -> None:
    for face, poisoned in ((4, False), (5, True)):
        s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Ordeal", "Bolt", "Hook"]) \
            .build()
        go(s, "Ordeal:attack", "d4", "d6", face)
        assert at(s, "d6").has("poison") is poisoned


def test_mcond32_no_rider_on_a_first_turn_under_no_damage() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d5").hands(key=["Hook", "Bolt", "Smite"]) \
        .set(turns_taken=[0, 0]).build()
    go(s, "Hook:attack", "d4", "d5")
    assert not at(s, "d5").has("slow")


def test_mcond33_aegis_does_not_stop_a_rider_but_prevents_the_burning_tick() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "d6").hands(key=["Bolt", "Smite", "Hook"]).build()
    at(s, "d6").aegis = True
    go(s, "Bolt:attack", "d4", "d6")
    target = at(s, "d6")
    assert target.hp == 4 and target.value("burning") == 1
    assert s.current == SKULL  # Skull's turn started: Aegis ended; it is given again
    target.aegis = True
    end_turn_skull(s)
    assert target.hp == 4 and not target.has("burning")


def test_mcond_d6_a_pulse_reaches_every_pushed_enemy_even_under_aegis() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "c5").minion(SKULL, "e5") \
        .hands(key=["Gale", "Bolt", "Hook"]).build()
    at(s, "e5").aegis = True
    give(s, "d4", "slow")  # no Gale step (D22): both stay adjacent
    restart(s)
    at(s, "e5").aegis = True
    go(s, "Gale:attack", "d4")
    while not s.is_terminal and s.decision().kind in ("gale_step", "gale_push"):
        go(s, s.decision().options[0] if isinstance(s.decision().options[0], str)
           else s.geometry.name(s.decision().options[0]))
    slow = [p for p in s.pieces.values() if p.owner == SKULL and p.has("slow")]
    assert len(slow) == 2


def test_mcond_d6_an_attacker_rider_survives_the_first_turn_rule() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Rapture", "Bolt", "Hook"]) \
        .set(turns_taken=[0, 0]).build()
    go(s, "Rapture:attack", "d4", 6)
    while s.decision().kind == "rapture_step":
        go(s, PASS)
    hero = s.hero(KEY)
    assert s.current == SKULL and hero is not None and hero.has("fast")


# ---------------------------------------------------------------------- actions
def test_mcond40_focus_and_mcond41_guard() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "b2").hero(SKULL, "h8") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    go(s, "Pilgrim:interact")
    assert s.decision().options == ("focus", "guard")  # no Burning piece: no TEND
    go(s, "focus", "b2")
    assert at(s, "b2").value("focus") == 1
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    go(s, "Pilgrim:interact", "guard", "d4")
    assert at(s, "d4").value("defensive") == 1
    assert s.waiting == "Pilgrim"  # the played card becomes the waiting card


def test_mcond42_tend_needs_a_burning_friend_in_reach() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "g4").hero(SKULL, "h8").minion(SKULL, "d5") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    give(s, "g4", "burning", 2)
    give(s, "d5", "burning", 1)
    go(s, "Pilgrim:interact", "tend")
    assert s.decision().options == (s.geometry.parse("g4"),)  # only g4 reaches itself
    go(s, "g4", "g4")
    assert at(s, "g4").value("burning") == 1


def test_mcond42_d2_tend_reaches_only_friendly_pieces() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    give(s, "d5", "burning", 1)
    assert "tend" not in hooks(s).interact_actions(s, KEY)


def test_mcond43_the_actions_option_withdraws_actions() -> None:
    s = board(actions=["focus"]).hero(KEY, "d4").hero(SKULL, "h8") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    go(s, "Pilgrim:interact")
    assert s.decision().options == ("focus",)
    s = board(actions=[]).hero(KEY, "d4").hero(SKULL, "h8") \
        .hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    assert not any(o.mode == "interact" for o in s.decision().options)


# ---------------------------------------------------------------------- Dread
def carrier_position(**options: Any) -> State:
    """Skull's Minion at d5 carries Key's relic; Key's Hero at d4 and Minion at e4."""
    return board(**options).hero(KEY, "d4").minion(KEY, "e4").hero(SKULL, "h8") \
        .minion(SKULL, "d5").relic(KEY, "b2").carry(KEY, "d5") \
        .hands(key=["Smite", "Bolt", "Hook"]).build()


def test_mcond50_carriers_have_dread_against_the_relics_owner() -> None:
    s = carrier_position()
    h = hooks(s)
    assert h.dread_holder(s, at(s, "d4"), at(s, "d5"))
    assert not h.dread_holder(s, at(s, "d5"), at(s, "d4"))
    s = carrier_position(dread="hero")
    assert hooks(s).dread_holder(s, at(s, "d5"), at(s, "d4"))
    assert not hooks(s).dread_holder(s, at(s, "d4"), at(s, "d5"))
    s = carrier_position(dread="none")
    assert not hooks(s).tests(s, at(s, "d4"), at(s, "d5"))
    s = carrier_position(dread_affects="minions")
    assert not hooks(s).tests(s, at(s, "d4"), at(s, "d5"))
    assert hooks(s).tests(s, at(s, "e4"), at(s, "d5"))


def test_mcond51_a_passed_test_lets_the_attack_go_on() -> None:
    s = carrier_position()
    go(s, "Bolt:attack", "d4", "d5")
    d = s.decision()
    assert d.kind == "dread" and d.probabilities == (1 / 6,) * 6
    go(s, 3)
    assert s.piece_at(s.geometry.parse("d5")) is None  # Bolt's 2 damage killed it


def test_mcond51_a_failed_test_ends_the_attack_and_paralyzes_next_turn() -> None:
    s = carrier_position()
    go(s, "Smite:attack", "e4")
    while s.decision().kind == "lunge":
        go(s, PASS)
    s.events = []
    go(s, "d5", 2)  # TN 3: 2 fails
    attacker = at(s, "e4")
    assert at(s, "d5").hp == 1 and not at(s, "d5").has("slow")  # nothing happens to it
    assert "dread" in kinds(s) and s.waiting == "Smite"
    # Not in force before Key's next turn (M-COND-5b): nothing forbidden in Skull's.
    assert s.current == SKULL and not attacker.has("paralyzed") and not attacker.bans
    assert cond_state(s).pending == ((attacker.id, "paralyzed", 0, 2),)
    end_turn_skull(s)
    assert attacker.has("paralyzed")  # Key's next turn: in force
    go(s, "Requiem:move")
    assert attacker.sq not in s.decision().options
    s.apply(s.decision().options[0])
    end_turn(s)
    assert not attacker.has("paralyzed")  # over at the end of that turn


def test_mcond51_a_failed_test_on_the_second_target_ends_the_attack() -> None:
    """Two targets: the first is hit; failing on the second ends it (no after-step)."""
    s = board(factions=("veiled-hand", "pyre-choir")).hero(KEY, "d4").hero(SKULL, "h8") \
        .minion(SKULL, "d5").relic(KEY, "b2").carry(KEY, "d5").build()
    h = hooks(s)
    attacker, target = at(s, "d4"), at(s, "d5")
    s.stack.append(("after_step", attacker.id))
    s.stack.append(("second_target", attacker.id, "Bolt", -1))
    assert h.target_declared(s, attacker, target, "Bolt", False)
    s._options = None
    assert s.decision().kind == "dread"
    go(s, 1)
    assert not any(f[0] in ("after_step", "second_target") for f in s.stack)


def test_mcond52_heroes_test_but_are_not_paralyzed() -> None:
    s = carrier_position()
    go(s, "Bolt:attack", "d4", "d5", 1)
    assert at(s, "d5").hp == 1 and s.current == SKULL
    assert not at(s, "d4").has("paralyzed")
    assert cond_state(s).pending == ()
    s = carrier_position(paralysis_immune="none")
    go(s, "Bolt:attack", "d4", "d5", 1)
    end_turn_skull(s)
    assert at(s, "d4").has("paralyzed")


def test_mcond53_no_target_no_test_gale_moves_a_carrier() -> None:
    s = board().hero(KEY, "d4").hero(SKULL, "h8").minion(SKULL, "d5").relic(KEY, "b2") \
        .carry(KEY, "d5").hands(key=["Gale", "Bolt", "Hook"]).build()
    go(s, "Gale:attack", "d4")
    seen = []
    while not s.is_terminal and s.current == KEY and s.decision().kind != "play":
        d = s.decision()
        seen.append(d.kind)
        s.apply(PASS if PASS in d.options else d.options[0])
    assert "dread" not in seen
    assert s.relic_carrier[KEY] == -1  # pushed: the relic dropped


def test_mcond54_friendly_effects_never_test() -> None:
    s = board().hero(KEY, "d4").minion(KEY, "d6").hero(SKULL, "h8").relic(SKULL, "g7") \
        .carry(SKULL, "d6").hands(key=["Passage", "Bolt", "Hook"]).build()
    go(s, "Passage:attack", "d4", "d6")
    assert s.decision().kind != "dread"
    assert at(s, "d6").hero  # swapped


def test_mcond_d3_tn_3_fails_on_1_and_2() -> None:
    for face in range(1, 7):
        s = carrier_position()
        go(s, "Bolt:attack", "d4", "d5", face)
        assert (s.piece_at(s.geometry.parse("d5")) is None) is (face >= 3)
    s = carrier_position(dread_tn=1)
    go(s, "Bolt:attack", "d4", "d5", 1)
    assert s.piece_at(s.geometry.parse("d5")) is None  # 1 always passes


def test_mcond60_conditions_actions_and_failed_dread_are_not_eventful() -> None:
    s = carrier_position()
    s.eventful = False
    go(s, "Bolt:attack", "d4", "d5", 1)
    assert not s.eventful
    s = board().hero(KEY, "d4").hero(SKULL, "h8").hands(key=["Pilgrim", "Bolt", "Hook"]).build()
    s.eventful = False
    go(s, "Pilgrim:interact", "guard", "d4")
    assert not s.eventful


def test_module_is_registered_with_its_options() -> None:
    module = get("conditions")
    assert set(module.options) == {"actions", "dread", "dread_tn", "dread_affects",
                                   "paralysis_immune"}
    assert Settings(modules=("conditions",)).option("conditions.dread_tn") == 3


def test_mcond51_the_paralysis_forbids_nothing_in_the_turn_of_the_test() -> None:
    """Paralyzed is in force in its owner's *next* turn: a Lantern Bearers carrier that
    fails its test still takes this turn's Lantern step."""
    s = board(factions=("lantern-bearers", "pyre-choir")).hero(KEY, "a1").minion(KEY, "e4") \
        .hero(SKULL, "h8").minion(SKULL, "d5").relic(SKULL, "g7").carry(SKULL, "e4") \
        .relic(KEY, "b2").carry(KEY, "d5").hands(key=["Smite", "Bolt", "Hook"]).build()
    go(s, "Smite:attack", "e4")
    while s.decision().kind == "lunge":
        go(s, PASS)
    go(s, "d5", 1)  # fails
    d = s.decision()
    assert d.kind == "lantern_step" and s.geometry.parse("e5") in d.options


def test_mcond12_a_paralyzed_piece_is_never_the_attacker() -> None:
    s = board().hero(KEY, "a1").minion(KEY, "d4").hero(SKULL, "h8") \
        .hands(key=["Aegis", "Bolt", "Hook"]).build()
    give(s, "d4", "paralyzed")
    restart(s)
    go(s, "Aegis:attack")  # always legal for a piece that may attack (T6)
    assert s.decision().options == (s.geometry.parse("a1"),)


def test_mcond5_a_round_condition_ends_at_r2_and_a_permanent_one_stays() -> None:
    """(a) and (e), which no shipped condition uses: a designer's data may."""
    from reliquary.engine.hooks import ConditionDef
    from reliquary.engine.modules.conditions import ConditionData

    s = board().hero(KEY, "a1").hero(SKULL, "h8").minion(KEY, "h1").minion(SKULL, "a8") \
        .build()
    h = hooks(s)
    words = {"en": "x", "es": "x"}
    added = {n: ConditionData(id=n, duration=d, name=words, text=words, ends=words)
             for n, d in (("dazed", "round"), ("marked", "permanent"))}
    try:
        h.conds.update(added)
        # The hooks keep each condition's duration in a plain table for the hot paths.
        h._duration.update({n: c.duration for n, c in added.items()})
        h.has_round = True
        for name in added:
            s._rules.conditions[name] = ConditionDef(name)
            give(s, "a1", name)
        round_end(s)
        hero = s.hero(KEY)
        assert hero is not None and not hero.has("dazed") and hero.has("marked")
    finally:
        for name in added:
            h.conds.pop(name, None)
            h._duration.pop(name, None)
            s._rules.conditions.pop(name, None)
        h.has_round = False
