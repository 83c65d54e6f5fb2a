"""Behaviours of the lab that a fault in their numbers would change (issue 31): the
Bradley–Terry first-move sign, the paired SPRT's α/2 per side, the always-valid
half-width, the spec hash over the faction pairings, and the store's per-seat columns."""

from __future__ import annotations

import math
from typing import Any

import pytest

from reliquary.lab import metrics as M
from reliquary.lab import runner
from reliquary.lab.spec import parse_spec
from reliquary.lab.sprt import ConfidenceSequence, PairedSPRT, WaldSPRT, mixture_half_width

from .tables import game, table


# ---------------------------------------------------------------------- Bradley–Terry
def test_bradley_terry_first_move_term_has_the_first_mover_s_sign() -> None:
    """Equal factions, every seating; whoever moves first wins 3 games in 4. So
    P(Key wins | Key first) = ¾ and P(Key wins | Skull first) = ¼: h = log 3, s = 0."""
    rows = []
    for fk, fs in (("a", "b"), ("b", "a")):
        for first in ("key", "skull"):
            other = "skull" if first == "key" else "key"
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner=first)] * 3
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner=other)]
    bt = M.bradley_terry(table(rows), prior=0.0)
    h, low, high = bt["first_move"]
    assert h == pytest.approx(math.log(3), abs=1e-6)
    assert low < h < high
    assert bt["seat"][0] == pytest.approx(0.0, abs=1e-6)
    theta = dict(zip(bt["factions"]["faction"], bt["factions"]["theta"], strict=True))
    assert theta["a"] == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_seat_term_is_the_key_seat_s() -> None:
    """Key wins 3 in 4 whoever moves first: s = log 3, h = 0."""
    rows = []
    for fk, fs in (("a", "b"), ("b", "a")):
        for first in ("key", "skull"):
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner="key")] * 3
            rows += [game(faction_key=fk, faction_skull=fs, first=first, winner="skull")]
    bt = M.bradley_terry(table(rows), prior=0.0)
    assert bt["seat"][0] == pytest.approx(math.log(3), abs=1e-6)
    assert bt["first_move"][0] == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_counts_a_draw_as_half_a_win() -> None:
    """In every seating and first move: one Key win, one Skull win, two draws: no term
    is away from zero (a draw read as a Skull win would make the Key seat weak)."""
    rows = []
    for fk, fs in (("a", "b"), ("b", "a")):
        for first in ("key", "skull"):
            for winner in ("key", "skull", None, None):
                rows.append(game(faction_key=fk, faction_skull=fs, first=first,
                                 winner=winner))
    bt = M.bradley_terry(table(rows), prior=0.0)
    assert bt["seat"][0] == pytest.approx(0.0, abs=1e-6)
    assert bt["first_move"][0] == pytest.approx(0.0, abs=1e-6)


# ---------------------------------------------------------------------- Wald and paired SPRT
def test_wald_thresholds_use_alpha_and_beta() -> None:
    """H0 p = 0.5 against H1 p = 0.6, α = 0.05, β = 0.2: H1 after ⌈log(0.8/0.05) /
    log 1.2⌉ = 16 straight successes, H0 after ⌈log(0.2/0.95) / log 0.8⌉ = 7 failures."""
    up = WaldSPRT(0.5, 0.6, alpha=0.05, beta=0.2)
    decisions = [up.update(True) for _ in range(16)]
    assert decisions[:15] == [None] * 15 and decisions[15] == "H1" and up.n == 16
    down = WaldSPRT(0.5, 0.6, alpha=0.05, beta=0.2)
    decisions = [down.update(False) for _ in range(7)]
    assert decisions[:6] == [None] * 6 and decisions[6] == "H0"



def _discordant_pairs_to_decide(effect: float, alpha: float, beta: float) -> int:
    """Pairs all won by B (one-sided test at α/2) until Wald's upper bound is reached."""
    upper = math.log((1 - beta) / (alpha / 2))
    return math.ceil(upper / math.log((0.5 + effect) / 0.5))


@pytest.mark.parametrize(("b_wins", "expected"), [(True, "B higher"), (False, "B lower")],
                         ids=["higher", "lower"])
def test_paired_sprt_decides_at_alpha_over_two_per_side(b_wins: bool, expected: str) -> None:
    effect, alpha, beta = 0.15, 0.05, 0.1
    needed = _discordant_pairs_to_decide(effect, alpha, beta)
    assert needed == 14  # at α (not α/2) it would be 12
    test = PairedSPRT(effect=effect, alpha=alpha, beta=beta)
    for _ in range(needed - 1):
        assert test.update(True, True) is None  # concordant pairs carry no evidence
        assert test.update(not b_wins, b_wins) is None
    assert test.pairs == 2 * (needed - 1)
    assert test.update(not b_wins, b_wins) == expected


def test_paired_sprt_says_no_difference_when_b_wins_half() -> None:
    test = PairedSPRT(effect=0.15, alpha=0.05, beta=0.1)
    decision = None
    for i in range(2000):
        decision = test.update(i % 2 == 0, i % 2 == 1)
        if decision is not None:
            break
    assert decision == "no difference"


# ---------------------------------------------------------------------- confidence sequence
def _mixture_ratio(n: int, variance: float, tau: float, gap: float) -> float:
    """Λ_n of the normal mixture at |x̄ − θ| = gap (Robbins)."""
    total = variance + n * tau * tau
    return math.sqrt(variance / total) * math.exp(
        n * n * tau * tau * gap * gap / (2 * variance * total))


@pytest.mark.parametrize(("n", "variance", "tau", "alpha"),
                         [(1, 1.0, 0.5, 0.05), (10, 0.25, 0.05, 0.05), (400, 2.0, 0.1, 0.01)])
def test_half_width_is_where_the_mixture_ratio_reaches_one_over_alpha(
        n: int, variance: float, tau: float, alpha: float) -> None:
    half = mixture_half_width(n, variance, tau, alpha)
    assert _mixture_ratio(n, variance, tau, half) == pytest.approx(1 / alpha, rel=1e-9)


def test_half_width_by_hand() -> None:
    # n = 4, σ² = 1, τ = 0.5: total 2; 2·1·2/(16·0.25) = 1; log 20 + ½ log 2.
    assert mixture_half_width(4, 1.0, 0.5) == pytest.approx(
        math.sqrt(math.log(20) + 0.5 * math.log(2)), rel=1e-12)
    assert mixture_half_width(0, 1.0, 0.5) == math.inf


def test_confidence_sequence_waits_for_its_burn_in() -> None:
    cs = ConfidenceSequence(tau=0.05, margin=0.05, burn_in=20)
    decisions = [cs.update(1.0 if i % 2 else 0.9) for i in range(20)]
    assert decisions[:19] == [None] * 19  # overwhelming, but not yet 20 observations
    assert decisions[19] == "B higher"


def test_confidence_sequence_interval_is_the_mean_plus_minus_the_half_width() -> None:
    cs = ConfidenceSequence(tau=0.5, margin=0.1, variance=1.0, burn_in=1)
    for x in (0.5, 1.5, 1.0, 1.0):
        cs.update(x)
    low, high = cs.interval
    half = mixture_half_width(4, 1.0, 0.5)
    assert (low, high) == pytest.approx((1.0 - half, 1.0 + half))


# ---------------------------------------------------------------------- the spec
SPEC = """
seed = 3
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"]]
[[agents]]
name = "random"
"""


def test_the_spec_hash_covers_the_faction_pairings() -> None:
    one = parse_spec(SPEC, "s.toml")
    same = parse_spec(SPEC, "other-name.toml")
    swapped = parse_spec(SPEC.replace('["pyre-choir", "grave-tide"]',
                                      '["grave-tide", "pyre-choir"]'), "s.toml")
    two = '[["pyre-choir", "grave-tide"], ["storm-sworn", "bone-wardens"]]'
    more = parse_spec(SPEC.replace('[["pyre-choir", "grave-tide"]]', two), "s.toml")
    free = parse_spec(SPEC.replace('[["pyre-choir", "grave-tide"]]', '"free"'), "s.toml")
    other_agent = parse_spec(SPEC.replace('name = "random"', 'name = "greedy"'), "s.toml")
    assert one.spec_hash == same.spec_hash
    assert other_agent.spec_hash != one.spec_hash
    hashes = {one.spec_hash, swapped.spec_hash, more.spec_hash, free.spec_hash}
    assert len(hashes) == 4
    assert {j.spec_hash for j in one.jobs()} == {one.spec_hash}


# ---------------------------------------------------------------------- the store's columns
def _played(monkeypatch: pytest.MonkeyPatch, spec_text: str, count: int
            ) -> list[tuple[dict[str, Any], Any]]:
    """The rows of the spec's first ``count`` games, each with the state it ended in."""
    made: list[Any] = []
    real_state = runner.State

    def capture(*args: Any, **kwargs: Any) -> Any:
        state = real_state(*args, **kwargs)
        made.append(state)
        return state

    monkeypatch.setattr(runner, "State", capture)
    out = []
    for job in parse_spec(spec_text, "cols.toml").jobs()[:count]:
        row = runner.play_game(job)
        out.append((row, made[-1]))
    return out


COLUMNS_SPEC = """
seed = 11
games_per_cell = 6
factions = [["pyre-choir", "grave-tide"]]
[settings]
round_cap = 40
vigil_start = 2
[[agents]]
name = "greedy"
[[agents]]
name = "random"
"""
#: Games that cannot end by the Vigil (it starts above the round cap), so that endings of
#: both kinds are seen whatever the agents' play makes of the games above.
CAPPED_SPEC = COLUMNS_SPEC.replace("round_cap = 40", "round_cap = 5").replace(
    "vigil_start = 2", "vigil_start = 6")


def test_kills_are_credited_to_the_seat_whose_minions_died_and_tiebreaks_to_vigil_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = _played(monkeypatch, COLUMNS_SPEC, 8) + _played(monkeypatch, CAPPED_SPEC, 3)
    kills_seen = vigil_seen = other_seen = damage_seen = 0
    for row, state in games:
        lost = [0, 0]
        for event in state.events:
            if event.kind == "kill" and not event.data["hero"]:
                lost[event.data["owner"]] += 1
        assert (row["killed_key"], row["killed_skull"]) == tuple(lost)
        assert row["drops"] == sum(event.kind == "drop" for event in state.events)
        assert (row["rounds"], row["turns"]) == (state.rounds, sum(state.turns_taken))
        damage = [0, 0]  # Hero damage, by the seat of the Hero that took it
        vigils = [state.settings.vigil_start]
        for event in state.events:
            if event.kind == "damage" and event.data["hero"] and not event.data["prevented"]:
                damage[event.data["owner"]] += event.data["amount"]
            elif event.kind == "vigil":
                vigils.append(event.data["value"])
        assert (row["hero_damage_key"], row["hero_damage_skull"]) == tuple(damage)
        assert row["vigil_min"] == min(vigils)
        damage_seen += damage[0] != damage[1]
        assert row["winner"] == (None if state.winner is None else ("key", "skull")[state.winner])
        kills_seen += lost[0] != lost[1]
        if row["reason"] == "vigil":
            vigil_seen += 1
            assert row["tiebreak"] == state.result.detail and row["tiebreak"]
        else:
            other_seen += 1
            assert row["tiebreak"] is None
    # The games show what is pinned: kills unequal between seats, both kinds of ending.
    assert kills_seen and vigil_seen and other_seen and damage_seen


# ---------------------------------------------------------------------- found by generated faults
def test_bradley_terry_rite_term_favours_the_rite_that_wins() -> None:
    """Equal factions, balanced seats and first moves; the rite "r" beats "s" 3 games in
    4 whichever seat holds it: ρ_r − ρ_s = log 3, so ρ_r = log 3 / 2."""
    rows = []
    for fk, fs in (("a", "b"), ("b", "a")):
        for first in ("key", "skull"):
            for rk, rs in (("r", "s"), ("s", "r")):
                holder = "key" if rk == "r" else "skull"
                other = "skull" if holder == "key" else "key"
                common = {"faction_key": fk, "faction_skull": fs, "first": first,
                          "rite_key": rk, "rite_skull": rs}
                rows += [game(**common, winner=holder)] * 3 + [game(**common, winner=other)]
    bt = M.bradley_terry(table(rows), prior=0.0)
    assert bt["rites"] is not None, bt["rites_note"]
    rho = dict(zip(bt["rites"]["rite"], bt["rites"]["theta"], strict=True))
    assert rho["r"] == pytest.approx(math.log(3) / 2, abs=1e-6)
    assert rho["s"] == pytest.approx(-math.log(3) / 2, abs=1e-6)


def _spread_games(wins_of_a: int, games: int) -> list[dict[str, Any]]:
    """Faction a against b, each side half the time; a wins ``wins_of_a`` of ``games``."""
    rows = []
    for i in range(games):
        fk, fs = ("a", "b") if i % 2 == 0 else ("b", "a")
        a_wins = i < wins_of_a
        rows.append(game(faction_key=fk, faction_skull=fs,
                         winner=("key" if (fk == "a") == a_wins else "skull")))
    return rows


def test_faction_spread_interval_brackets_the_spread_it_measures() -> None:
    """a scores 0.75, b 0.25: a spread of 0.5, inside its bootstrap interval and far
    above what chance gives (the permutation's spreads)."""
    g = table(_spread_games(30, 40))
    out = M.faction_spread_interval(g, samples=400, seed=3)
    assert out["value"] == pytest.approx(0.5)
    assert 0.2 < out["low"] < 0.5 < out["high"] < 0.8
    assert out["null_mean"] < 0.3 and out["null_high"] < 0.5 and out["p"] < 0.05


def test_faction_spread_interval_with_a_rare_faction() -> None:
    """A third faction in one game only (resamples often leave it out): the interval
    still comes out, within 0..1."""
    rows = [*_spread_games(20, 40), game(faction_key="c", faction_skull="a", winner="key")]
    for seed in range(8):  # some resample leaves "c" out of its last row
        out = M.faction_spread_interval(table(rows), samples=50, seed=seed)
        assert 0.0 <= out["low"] <= out["value"] <= out["high"] <= 1.0, seed


def test_the_headline_names_the_faction_spread_when_factions_are_known() -> None:
    assert "faction spread" in M.headline(table(_spread_games(30, 40)))
    assert "faction spread" not in M.headline(table([game(faction_key=None,
                                                          faction_skull=None)] * 4))


def test_play_options_are_the_mean_options_of_each_seat_s_play_decisions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted at every decision of a played game, a row's mean matches: the options a
    seat had over the play decisions it made (several, never the constant 1)."""
    seen: dict[int, list[int]] = {0: [], 1: []}

    class Counting(runner._ForcedSetup):  # the wrapper each seat's agent plays through
        def choose(self, state: Any) -> Any:
            decision = state.decision()
            if decision.kind == "play":
                seen[decision.player].append(len(decision.options))
            return super().choose(state)

    monkeypatch.setattr(runner, "_ForcedSetup", Counting)
    job = parse_spec(COLUMNS_SPEC, "cols.toml").jobs()[0]
    row = runner.play_game(job)
    for seat, column in enumerate(("play_options_key", "play_options_skull")):
        assert seen[seat] and row[column] == pytest.approx(sum(seen[seat]) / len(seen[seat]))
        assert row[column] > 1.0


def test_a_spread_that_chance_always_reaches_has_a_p_value_of_1() -> None:
    """Equal factions: a spread of 0, which every permuted spread reaches (p = 1, not
    more), over exactly the draws asked for."""
    out = M.faction_spread_interval(table(_spread_games(20, 40)), samples=60, seed=2)
    assert out["value"] == pytest.approx(0.0)
    assert out["p"] == pytest.approx(1.0) and out["samples"] == 60


def test_the_throughput_log_records_games_per_hour(tmp_path: Any) -> None:
    runner._note_throughput(tmp_path, played=30, seconds=120.0, workers=2, ray_address=None)
    import json

    [line] = (tmp_path / runner.THROUGHPUT_FILE).read_text(encoding="utf-8").splitlines()
    entry = json.loads(line)
    assert (entry["played"], entry["seconds"], entry["games_per_hour"]) == (30, 120.0, 900.0)


def test_the_spec_hash_covers_the_modules_data(monkeypatch: pytest.MonkeyPatch) -> None:
    # Editing a module's data file (keepers.toml's values, say) changes the games, so a
    # resumed run must not mix games played before and after the edit.
    from reliquary.engine.modules import Module
    base = parse_spec(SPEC, "s.toml")
    keepers_spec = SPEC.replace("[[agents]]", '[settings]\nmodules = ["keepers"]\n[[agents]]')
    keepers = parse_spec(keepers_spec, "s.toml")
    before = keepers.spec_hash
    monkeypatch.setattr(Module, "fingerprint", property(lambda self: f"{self.name}-edited"))
    assert parse_spec(keepers_spec, "s.toml").spec_hash != before
    assert parse_spec(SPEC, "s.toml").spec_hash == base.spec_hash  # no module: unchanged
