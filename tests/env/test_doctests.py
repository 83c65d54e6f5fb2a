"""The examples in the docstrings of the research modules run (they are outside the
suite's doctest paths because the environments need the optional extras)."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")
pytest.importorskip("gymnasium", reason="the 'env' extra is not installed")


@pytest.mark.parametrize("module", ["reliquary.env.encoding", "reliquary.env.policy",
                                    "reliquary.env.aec", "reliquary.env.single_agent",
                                    "reliquary.ai.hint"])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
