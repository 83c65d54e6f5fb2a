"""The server's settings from the environment (``RELIQUARY_*``), read one way.

Each setting is a number with a default and a range; a bad value stops the server at
start with a message naming the variable, rather than being read as something else.
"""

from __future__ import annotations

import os


def env_number(name: str, default: float, *, whole: bool = False, low: float = 0.0,
               high: float | None = None, unit: str = "") -> float:
    """``name`` from the environment as a number in ``low..high`` (``default`` when unset).

    >>> env_number("RELIQUARY_DOCTEST_UNSET", 2.5)
    2.5
    >>> os.environ["RELIQUARY_DOCTEST_BAD"] = "soon"
    >>> env_number("RELIQUARY_DOCTEST_BAD", 1.0, unit="seconds")
    Traceback (most recent call last):
    ...
    ValueError: RELIQUARY_DOCTEST_BAD must be a number of seconds, not 'soon'
    """
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    what = "a whole number" if whole else "a number"
    if unit:
        what += f" of {unit}"
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        raise ValueError(f"{name} must be {what}, not {raw!r}") from None
    if value < low or (high is not None and value > high):
        bounds = f"at least {low:g}" if high is None else f"{low:g} to {high:g}"
        raise ValueError(f"{name} must be {bounds}, not {value:g}")
    return value
