"""Every plane of the observation, by value, at every decision of whole games and from
both points of view (issue 31: faults in the encoder survived wherever one plane had
no test of its own). The expected planes are worked out here from the planes'
definitions in docs/research.md and the encoder's module doc — the board turned half a
turn for Skull, each board plane 1 where its thing is, HP over the largest Hero HP,
scalars broadcast over the board, each in [0, 1] — through the engine's public state,
not through the encoder."""

from __future__ import annotations

import random

import numpy as np

import reliquary
from reliquary.ai import sample_chance
from reliquary.engine import State
from reliquary.engine.visibility import observation_state, pending_secrets
from reliquary.env.encoding import BOARD_PLANES, SCALAR_PLANES, Observer


def expected_planes(state: State, player: int, observer: Observer) -> dict[str, np.ndarray]:
    n = state.geometry.size
    area = n * n
    names = observer.plane_names()
    planes = {name: np.zeros((n, n), np.float32) for name in names}
    if pending_secrets(state):  # S3: only what this player may know
        state = observation_state(state, player)

    def put(name: str, sq: int, value: float = 1.0) -> None:
        seen = sq if player == 0 else area - 1 - sq  # Skull sees the board turned
        planes[name][seen // n, seen % n] = value

    largest_hp = max(f.hero_hp for f in state.content.factions)
    for piece in state.pieces.values():
        side = "own" if piece.owner == player else "enemy"
        put(f"{side}_{'hero' if piece.hero else 'minion'}", piece.sq)
        put("hp", piece.sq, min(piece.hp / largest_hp, 1.0))
        for flag in ("harrowed", "veiled", "aegis", "stepped"):
            put(flag, piece.sq, float(bool(getattr(piece, flag))))
    for sq in range(area):
        if state.ruins >> sq & 1:
            put("ruin", sq)
    for owner, prefix in ((player, "own_relic"), (1 - player, "enemy_relic")):
        sq = state.relic_square(owner)
        if sq >= 0:
            put(prefix, sq)
            if state.relic_carrier[owner] >= 0:
                put(prefix + "_carried", sq)
    planes["own_back_row"][0, :] = 1.0  # every player sees their own back row at row 0
    planes["enemy_back_row"][n - 1, :] = 1.0

    enemy = 1 - player
    minions = state.content.board_row(n).minions
    limit = state.settings.regroup_limit
    relics_down = state.relic_square(0) >= 0 and state.relic_square(1) >= 0
    scalars: dict[str, float] = {
        "goes_first": float(state.first == player),
        "vigil": state.vigil / 6,
        "eventful": float(state.eventful),
        "rounds": state.rounds / state.settings.round_cap,
    }
    for who, side in ((player, "own"), (enemy, "enemy")):
        scalars[f"{side}_first_turn"] = float(relics_down and state.turns_taken[who] == 0)
        scalars[f"{side}_pool"] = state.pool[who] / minions
        scalars[f"{side}_grave_used"] = float(state.is_spent(who, "grave_return"))
        scalars[f"{side}_placed"] = state.placed[who] / (minions + 1)
        scalars[f"{side}_regroups_left"] = (1.0 if limit is None else 0.0 if limit == 0
                                            else max(limit - state.regroups[who], 0) / limit)
        for card in state.hands[who]:
            scalars[f"hand_{side}:{card}"] = 1.0
        if state.rites[who] is not None:
            scalars[f"rite_{side}:{state.rites[who]}"] = 1.0
    if state.waiting is not None:
        scalars["waiting:" + state.waiting] = 1.0
    if state.played is not None:
        scalars["played:" + state.played] = 1.0
    for rite in state.rite_draft:
        scalars["rite_draft:" + rite] = 1.0
    own_faction = state.factions[player] or state.secret_faction[player]
    if own_faction:
        scalars["faction_own:" + own_faction] = 1.0
    if state.factions[enemy]:
        scalars["faction_enemy:" + state.factions[enemy]] = 1.0
    if not state.is_terminal:
        decision = state.decision()
        scalars["to_move"] = float(decision.player == player)
        scalars["decision:" + decision.kind] = 1.0
        if decision.piece >= 0:
            put("subject", decision.piece)
        frame = state.stack[-1]
        if frame[0] == "rapture_step":  # (kind, piece, steps left, up to)
            scalars["rapture_steps"] = frame[2] / 3
            scalars["rapture_up_to"] = float(bool(frame[3]))
    for name, value in scalars.items():
        planes[name][:, :] = min(value, 1.0)
    return planes


GAMES: list[tuple[int, int, dict[str, object]]] = [
    (20, 8, {"regroup_limit": 2, "round_cap": 40}),
    (21, 8, {"round_cap": 40, "first_turn": "no_attack"}),
    (22, 8, {"regroup_limit": 0, "round_cap": 40}),
    (23, 10, {"regroup_limit": None, "round_cap": 15}),
    *((seed, 8, {"regroup_limit": 2, "round_cap": 40}) for seed in range(24, 32)),
]


def test_every_plane_at_every_decision_from_both_sides() -> None:
    seen: set[str] = set()
    for seed, size, variants in GAMES:
        rng = random.Random(seed)
        state = reliquary.new_game(size=size, **variants)  # type: ignore[arg-type]
        observer = Observer(state.content, size)
        last = Observer(state.content, size, layout="channels_last")
        names = observer.plane_names()
        decisions = 0
        while True:
            if state.is_chance:
                state.apply(sample_chance(state, rng))
                continue
            for player in (0, 1):
                expected = expected_planes(state, player, observer)
                want = np.stack([expected[name] for name in names])
                got = observer.encode(state, player)
                if not np.allclose(got, want, rtol=1e-6, atol=0):
                    wrong = [name for i, name in enumerate(names)
                             if not np.allclose(got[i], want[i], rtol=1e-6, atol=0)]
                    raise AssertionError(f"game {seed}: planes {wrong} for player {player} "
                                         f"at decision {decisions}")
                np.testing.assert_array_equal(last.encode(state, player),
                                              got.transpose(1, 2, 0))
                seen.update(names[i] for i in np.flatnonzero(want.any(axis=(1, 2))))
            if state.is_terminal:
                break
            decisions += 1
            state.apply(rng.choice(state.legal_options()))
    # The games went through (nearly) every plane: each was checked where it is not 0.
    rare = {"harrowed"}  # random play seldom harrows a piece
    assert set(BOARD_PLANES) - rare <= seen, set(BOARD_PLANES) - rare - seen
    assert set(SCALAR_PLANES) <= seen, set(SCALAR_PLANES) - seen
