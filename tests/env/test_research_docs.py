"""The examples of docs/research.md run as written, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the 'env' extra is not installed")
pytest.importorskip("gymnasium", reason="the 'env' extra is not installed")
pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed")
pytest.importorskip("statsmodels", reason="the 'ai' extra is not installed")

from reliquary.ai import AGENTS

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_research_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5  # every example, the encoding's included
    namespace: dict[str, Any] = {"__name__": "research_doc"}
    try:
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), namespace)
    finally:
        AGENTS.pop("trained", None)
    out = capsys.readouterr().out
    # The rollout ended with a reward for each agent, the training loop learned
    # something (the weights moved), the evaluation printed a score per opponent.
    assert out.count(" gets ") == 2 and "decisions;" in out
    assert "mean return" in out and np.abs(namespace["weights"]).sum() > 0
    assert out.count("random ") >= 1 and "easy " in out
    assert set(namespace["summary"]) >= {"score_a", "score_ci95", "elo_diff"}
    assert namespace["state"].is_terminal()
    # The encoding example: channels first, planes by name, the count the text states.
    stated = int(re.search(r"(\d+) planes with the package's content", text).group(1))
    assert len(namespace["names"]) == stated == namespace["encoded"].shape[0]
    assert namespace["by_name"]["own_back_row"].shape == (8, 8)
    assert "Observer.plane_names()" not in text  # a method of an observer, not the class
