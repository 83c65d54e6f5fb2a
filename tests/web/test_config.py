"""The server's RELIQUARY_* settings: read one way, bad values refused by name."""

from __future__ import annotations

import pytest

from reliquary.web.ai_pool import default_max_thinking
from reliquary.web.config import env_number


def test_unset_or_empty_takes_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RELIQUARY_WS_IDLE", raising=False)
    assert env_number("RELIQUARY_WS_IDLE", 900.0) == 900.0
    monkeypatch.setenv("RELIQUARY_WS_IDLE", "  ")
    assert env_number("RELIQUARY_WS_IDLE", 900.0) == 900.0
    monkeypatch.setenv("RELIQUARY_WS_IDLE", "12.5")
    assert env_number("RELIQUARY_WS_IDLE", 900.0) == 12.5


@pytest.mark.parametrize(("raw", "kwargs", "message"), [
    ("soon", {"unit": "seconds"}, "must be a number of seconds, not 'soon'"),
    ("1.5", {"whole": True}, "must be a whole number, not '1.5'"),
    ("-1", {}, "must be at least 0, not -1"),
    ("0.1", {"low": 0.5, "high": 3600}, "must be 0.5 to 3600, not 0.1"),
])
def test_bad_values_name_the_variable(monkeypatch: pytest.MonkeyPatch, raw: str,
                                      kwargs: dict[str, object], message: str) -> None:
    monkeypatch.setenv("RELIQUARY_AI_LEASE", raw)
    with pytest.raises(ValueError, match="RELIQUARY_AI_LEASE " + message):
        env_number("RELIQUARY_AI_LEASE", 15.0, **kwargs)  # type: ignore[arg-type]


def test_ai_workers_default_and_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "3")
    assert default_max_thinking() == 3
    monkeypatch.setenv("RELIQUARY_AI_WORKERS", "0")
    with pytest.raises(ValueError, match="RELIQUARY_AI_WORKERS must be at least 1"):
        default_max_thinking()
