"""Reliquary for reinforcement learning (the optional ``env`` extra).

- :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, agents ``"key"`` and
  ``"skull"`` (:mod:`reliquary.env.aec`).
- :class:`ReliquaryGymEnv`: a Gymnasium single-agent environment against any
  registered agent (:mod:`reliquary.env.single_agent`).
- :class:`ActionSpace` and :class:`Observer`: the fixed action space and observation
  planes both share with the OpenSpiel game (:mod:`reliquary.env.encoding`).
- :class:`PolicyAgent`: a policy over that encoding as a Reliquary agent, to play it
  against the ladder's agents (:mod:`reliquary.env.policy`).

The encoding needs only numpy; the environments are imported on first use, so that
``reliquary.env.encoding`` works without PettingZoo or Gymnasium installed.
See ``docs/research.md``.
"""

from __future__ import annotations

from typing import Any

from .encoding import BOARD_PLANES, SCALAR_PLANES, ActionSpace, Observer
from .policy import PolicyAgent

_LAZY = {
    "raw_env": ".aec", "env": ".aec", "ReliquaryAECEnv": ".aec",
    "ReliquaryGymEnv": ".single_agent",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'reliquary.env' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(module, __name__), name)


__all__ = ["BOARD_PLANES", "SCALAR_PLANES", "ActionSpace", "Observer", "PolicyAgent",
           "ReliquaryAECEnv", "ReliquaryGymEnv", "env", "raw_env"]
