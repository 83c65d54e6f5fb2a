"""The rules shipped in the package are the specification's own text: RULES.md and
MODULES.md in src/reliquary/data match ../shared/rules byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rules"


@pytest.mark.parametrize("name", ["RULES.md", "MODULES.md"])
def test_the_package_ships_the_specification_unchanged(name: str) -> None:
    shipped = ROOT / "src" / "reliquary" / "data" / name
    assert shipped.is_file(), f"{shipped} is missing"
    spec = SHARED / name
    if not spec.is_file():
        # A clone without the shared folder beside it: the copy must at least be whole.
        assert shipped.read_text(encoding="utf-8").startswith("# Reliquary")
        return
    assert shipped.read_bytes() == spec.read_bytes(), f"{shipped} differs from {spec}"
