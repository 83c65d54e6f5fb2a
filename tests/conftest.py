"""Shared fixtures: the package's content and a Builder factory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reliquary import default_content
from reliquary.engine import Builder, Content


@pytest.fixture(scope="session")
def content() -> Content:
    """The package's default content (cards, factions, rites)."""
    return default_content()


BuildFactory = Callable[..., Builder]


@pytest.fixture
def build(content: Content) -> BuildFactory:
    """``build(size=8, factions=("pyre-choir", "pyre-choir"), **settings)`` → Builder."""

    def make(size: int = 8, factions: tuple[str, str] = ("pyre-choir", "pyre-choir"),
             **settings: Any) -> Builder:
        return Builder(content, size, factions=factions, **settings)

    return make
