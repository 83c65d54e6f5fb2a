"""The PettingZoo environment is turn-based, and says so (issue 31, sample F: its
metadata claiming it could run as a Parallel environment passed every test): one agent
acts at a time, the state changes after every step, so PettingZoo's AEC-to-Parallel
conversion, which is only safe for an environment that updates once a cycle, refuses
it; and the metadata names it and its render modes."""

from __future__ import annotations

import pytest
from pettingzoo.utils.conversions import aec_to_parallel

from reliquary.env import raw_env
from reliquary.env.aec import ReliquaryAECEnv


def test_the_environment_is_not_offered_as_a_parallel_one() -> None:
    assert ReliquaryAECEnv.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(raw_env())


def test_the_metadata_names_the_environment_and_its_render_modes() -> None:
    meta = ReliquaryAECEnv.metadata
    assert meta["name"] == "reliquary_v0"
    assert meta["render_modes"] == ["ansi", "human"]
