"""The position keys: equal for equal positions, different when anything differs, also
for pieces whose HP does not fit the packed form (built or loaded positions)."""

from __future__ import annotations

import pytest

from reliquary.ai.hashing import position_key, repetition_key
from reliquary.engine import KEY, SKULL, State


def _position(build, hp: int, max_hp: int = 4, minion: str = "d5") -> State:
    return (build(factions=("lantern-bearers", "pyre-choir"))
            .hero(KEY, "d2", hp=hp, max_hp=max_hp).hero(SKULL, "h8").minion(SKULL, minion)
            .relic(KEY, "a1").relic(SKULL, "h6").build())


@pytest.mark.parametrize("hp,max_hp", [(3, 4), (0, 4), (-1, 4), (300, 300), (3, 256)])
def test_keys_tell_apart_what_differs_and_match_what_does_not(build, hp: int,
                                                              max_hp: int) -> None:
    state = _position(build, hp, max_hp)
    for key in (position_key, repetition_key):
        assert key(state) == key(_position(build, hp, max_hp))
        assert key(state) == key(state.clone())
        assert key(state) != key(_position(build, hp + 1, max_hp))
        assert key(state) != key(_position(build, hp, max_hp + 1))
        assert key(state) != key(_position(build, hp, max_hp, minion="e5"))
