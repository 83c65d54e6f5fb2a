"""Property-based tests: random legal games on every board size and rule setting.

Each example plays one whole game from ``new_game`` with random legal choices and
random chance outcomes (from a Hypothesis-drawn seed) and checks the position's
invariants after every decision; the finished game's record must replay exactly, and
positions must round-trip through JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reliquary.engine import (
    Content,
    Event,
    Game,
    Option,
    Play,
    Settings,
    State,
    position_from_dict,
    position_to_dict,
    replay,
)
from reliquary.engine.state import EMPTY, RUIN

SIZES = (8, 9, 10, 11, 12)
LOS = ("geometric", "straight")
FIRST_TURN = ("no_damage", "no_attack")
#: Every decision of a game is bounded: a round is two turns of a few decisions each.
MAX_DECISIONS = 20_000

PROPERTY_SETTINGS = settings(max_examples=12, deadline=None, derandomize=False,
                             suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: State) -> None:
    """The position invariants that must hold after every decision."""
    geo = state.geometry
    area = geo.area
    # no two pieces on one square, the board agrees with the pieces
    squares = [p.sq for p in state.pieces.values()]
    assert len(squares) == len(set(squares)), "two pieces on one square"
    for pid, piece in state.pieces.items():
        assert 0 <= piece.sq < area
        assert state.board[piece.sq] == pid, f"board and piece {pid} disagree"
        # no piece on a Ruin
        assert not (state.ruins >> piece.sq) & 1, f"piece on a Ruin at {geo.name(piece.sq)}"
        # HP within 1..max
        assert 1 <= piece.hp <= piece.max_hp, f"HP {piece.hp}/{piece.max_hp}"
    on_board = [sq for sq in range(area) if state.board[sq] >= 0]
    assert len(on_board) == len(state.pieces)
    for sq in range(area):
        assert (state.board[sq] == RUIN) == bool((state.ruins >> sq) & 1)
        assert state.board[sq] >= EMPTY or state.board[sq] == RUIN
    # relics: carried only by an enemy piece, each by at most one piece
    carriers = [c for c in state.relic_carrier if c >= 0]
    assert len(carriers) == len(set(carriers)), "one piece carries two relics"
    placed = state.stack[-1][0] not in ("ruin", "faction", "deal", "rite", "deploy", "relic") \
        if state.stack else True
    for relic in (0, 1):
        carrier = state.relic_carrier[relic]
        ground = state.relic_sq[relic]
        if carrier >= 0:
            assert carrier in state.pieces, "a removed piece carries a relic"
            assert state.pieces[carrier].owner != relic, "a piece carries its own relic"
            assert ground == -1
        elif placed:
            # once placed, each relic is carried or on the ground, never on a Ruin
            assert 0 <= ground < area and not (state.ruins >> ground) & 1
    # hands + waiting card = 7 distinct cards once dealt
    if state.waiting is not None:
        cards = [*state.hands[0], *state.hands[1], state.waiting]
        assert len(state.hands[0]) == len(state.hands[1]) == 3
        assert len(cards) == 7 and len(set(cards)) == 7, cards
    assert 0 <= state.vigil <= state.settings.vigil_start
    if state.settings.killed_minions == "removed":  # VAR4: nothing ever waits in a pool
        assert state.pool == [0, 0]
    assert state.rounds <= state.settings.round_cap


def check_options_apply(state: State, content: Content) -> None:
    """Every listed option applies without error on a clone, and on the position read back
    from JSON with the same result; the state itself is unchanged."""
    before = position_to_dict(state)
    restored = position_from_dict(json.loads(json.dumps(before)), content)
    options = state.legal_options()
    compared = set(range(0, len(options), max(1, len(options) // 3)))  # a few, for speed
    for index, option in enumerate(options):
        clone = state.clone()
        clone.apply(option)
        if index in compared:
            twin = restored.clone()
            twin.apply(option)
            assert position_to_dict(twin) == position_to_dict(clone), option
    assert position_to_dict(state) == before


def check_json_round_trip(state: State, content: Content) -> None:
    """json.dumps/loads → position_from_dict gives the identical dict and options."""
    data = position_to_dict(state)
    again = position_from_dict(json.loads(json.dumps(data)), content)
    assert position_to_dict(again) == data
    assert again.legal_options() == state.legal_options()
    assert again.current_player == state.current_player


_STEP_KINDS = frozenset({"destination", "lunge", "rapture_step", "after_step", "lantern_step",
                         "gale_step", "kill_step"})


def choose(state: State, rng: random.Random, drive: float) -> Option:
    """A random legal option; with probability ``drive`` a purposeful one instead: attack
    when possible, and step towards the enemy relic (or home with it), so that games
    reach kills, pickups, drops and relic wins more often than uniform play does."""
    options = state.legal_options()
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    if rng.random() >= drive:
        return rng.choice(options)
    kind = state.stack[-1][0]
    if kind == "play":
        attacks = [o for o in options if isinstance(o, Play) and o.mode == "attack"]
        return rng.choice(attacks or options)
    squares = [o for o in options if isinstance(o, int)]
    if kind in _STEP_KINDS and squares:
        me = state.current_player
        geo = state.geometry
        carrier = state.carrier_of(1 - me)
        if carrier is not None and carrier.owner == me:
            home = geo.row_of(me, 0)[geo.size // 2]
            goal = home
        else:
            goal = state.relic_square(1 - me)
        if goal >= 0:
            return min(squares, key=lambda sq: (geo.distance(sq, goal), rng.random()))
    return rng.choice(options)


class RuleWatch:
    """Independent checks of T1, T8, V1, V2 and V3 from the events of each decision, under
    the variants VAR1–VAR4 too."""

    def __init__(self, state: State) -> None:
        self.rules = state.settings
        self.vigil = self.rules.vigil_start  # VAR3
        self.eventful = False
        self.regroups = [0, 0]
        self.turn: tuple[int, list[str], str | None, Play] | None = None
        self.first_turn = False

    def before(self, state: State, option: Option) -> None:
        if state.stack and state.stack[-1][0] == "play" and isinstance(option, Play):
            player = state.current_player
            self.turn = (player, state.hands[player][:], state.waiting, option)
            self.first_turn = state.turns_taken[player] == 0
            if self.first_turn and state.settings.first_turn == "no_attack":
                assert option.mode != "attack", "T8: ATTACK on a first turn"

    def after(self, state: State, events: tuple[Event, ...]) -> None:
        for event in events:
            data = event.data
            if event.kind == "damage" and self.first_turn \
                    and state.settings.first_turn == "no_damage":
                assert data["prevented"] in ("first_turn", "aegis"), "T8: first-turn damage"
            hero_or_any = self.rules.vigil_reset == "any" or data.get("hero")  # VAR2
            if (event.kind == "damage" and not data["prevented"] and hero_or_any) \
                    or event.kind in ("pickup", "drop") \
                    or (event.kind == "play" and data["mode"] == "rite"):
                self.eventful = True
            if event.kind == "play" and data["mode"] == "regroup":  # VAR1
                self.regroups[data["player"]] += 1
                limit = self.rules.regroup_limit
                assert limit is None or self.regroups[data["player"]] <= limit
            if event.kind == "vigil":  # V1: the end of a round
                expected = self.rules.vigil_start if self.eventful else self.vigil - 1
                assert data["value"] == expected, (data, self.vigil, self.eventful)
                self.vigil, self.eventful = expected, False
        if not state.is_terminal and state.stack[-1][0] == "play" and self.turn is not None \
                and state.current_player != self.turn[0]:
            player, hand, waiting, play = self.turn  # T1: the card cycle of that turn
            assert state.waiting == play.card
            assert state.hands[player] == [c for c in hand if c != play.card] + [waiting]
            self.turn = None
        if state.is_terminal:
            self.check_end(state)

    def check_end(self, state: State) -> None:
        result = state.result
        assert result is not None
        if result.reason == "hero_killed":  # V3
            assert state.hero(1 - result.winner) is None and state.hero(result.winner)
        elif result.reason == "relic_home":  # V3
            carrier = state.carrier_of(1 - result.winner)
            assert carrier is not None and carrier.owner == result.winner
            assert carrier.sq in state.geometry.row_of(result.winner, 0)
        elif result.reason == "vigil":  # V2
            assert self.vigil == 0 and state.vigil == 0
            scores = [0, 0]
            for piece in state.pieces.values():
                if state.carried_relic(piece) >= 0:
                    half = state.geometry.half_of(piece.sq)
                    scores[piece.owner] += 1 if half == 1 - piece.owner else \
                        -1 if half == piece.owner else 0
            assert result.scores == tuple(scores)
            if scores[0] != scores[1]:
                assert result.winner == (0 if scores[0] > scores[1] else 1)


def play_random_game(content: Content, game_settings: Settings, seed: int,
                     deep_every: int, drive: float = 0.0) -> Game:
    """Play one random game, checking the invariants after every decision; the costlier
    checks (every option on a clone, JSON round trip) run every ``deep_every`` decisions."""
    rng = random.Random(seed)
    game = Game(content, game_settings)
    state = game.state
    watch = RuleWatch(state)
    check_invariants(state)
    for count in range(MAX_DECISIONS):
        if state.is_terminal:
            break
        if count % deep_every == 0:
            check_options_apply(state, content)
            check_json_round_trip(state, content)
        option = choose(state, rng, drive)
        watch.before(state, option)
        entry = game.apply(option)
        state = game.state
        check_invariants(state)
        watch.after(state, entry.events)
    assert state.is_terminal, "the game did not end"
    assert state.result is not None
    if state.result.reason == "round_cap":
        assert state.rounds == game_settings.round_cap
    check_json_round_trip(state, content)
    return game


def check_replay(game: Game, content: Content) -> None:
    record: dict[str, Any] = json.loads(json.dumps(game.record()))
    again = replay(record, content)
    assert position_to_dict(again.state) == position_to_dict(game.state)
    assert again.state.result == game.state.result


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("los", LOS)
@pytest.mark.parametrize("first_turn", FIRST_TURN)
@PROPERTY_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       drive=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_games_keep_every_invariant_and_replay(content, size, los, first_turn, seed,
                                                      drive):
    """Random legal games on every size and setting: invariants after every decision,
    every game ends, records replay exactly and positions round-trip through JSON."""
    game_settings = Settings(size=size, los=los, first_turn=first_turn)  # type: ignore[arg-type]
    game = play_random_game(content, game_settings, seed, deep_every=5, drive=drive)
    check_replay(game, content)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       size=st.sampled_from(SIZES), cap=st.integers(min_value=1, max_value=4))
def test_random_games_end_within_a_small_round_cap(content, seed, size, cap):
    """D19: with a small round cap every game still ends, at the latest as a draw at the
    cap; every option is tried on a clone at every decision."""
    game = play_random_game(content, Settings(size=size, round_cap=cap), seed, deep_every=1)
    assert game.state.rounds <= cap
    check_replay(game, content)


VARIANTS = st.fixed_dictionaries({}, optional={
    "regroup_limit": st.integers(min_value=0, max_value=3),
    "vigil_reset": st.sampled_from(["any", "hero"]),
    "vigil_start": st.integers(min_value=1, max_value=6),
    "killed_minions": st.sampled_from(["pool", "removed"]),
})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), size=st.sampled_from(SIZES),
       variants=VARIANTS, drive=st.sampled_from([0.5, 0.9]))
def test_VAR1_to_VAR4_random_games_keep_every_invariant_and_replay(content, seed, size,
                                                                   variants, drive):
    """Random games under any mix of the §11 variants: the invariants (Vigil within its
    start value, regroups within the limit, no pool with removed Minions) after every
    decision, and exact replay."""
    game_settings = Settings(size=size, round_cap=80, **variants)
    game = play_random_game(content, game_settings, seed, deep_every=7, drive=drive)
    check_replay(game, content)
