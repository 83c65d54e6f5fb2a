"""What the compiled-build tests share: where the package is, and running Python apart."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import reliquary
from reliquary import engine_build

PACKAGE_DIR = Path(reliquary.__file__).resolve().parent
#: scripts/test.sh sets this after building: then a missing compiled build is a failure,
#: not a skip (a machine without a C compiler runs the pure build and skips).
REQUIRE_COMPILED = os.environ.get("RELIQUARY_REQUIRE_COMPILED", "") == "1"


def need_compiled() -> None:
    """Skip (or fail, under RELIQUARY_REQUIRE_COMPILED=1) unless the compiled build runs."""
    if engine_build().compiled:
        return
    message = f"the compiled engine is not running here: {engine_build()}"
    if REQUIRE_COMPILED:
        pytest.fail(message)
    pytest.skip(message)


def clean_env() -> dict[str, str]:
    """This environment without RELIQUARY_PURE (each test says which build it wants)."""
    return {k: v for k, v in os.environ.items() if k != "RELIQUARY_PURE"}


def python(code: str, *, env: dict[str, str] | None = None,
           path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter; ``path`` (a folder holding a ``reliquary``
    package) goes first on sys.path. RELIQUARY_PURE is unset unless ``env`` sets it."""
    base = clean_env()
    if path is not None:
        base["PYTHONPATH"] = os.pathsep.join([str(path), base.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True,
                          text=True, env={**base, **(env or {})}, check=False, timeout=300)


def copy_package(dest: Path, with_build: bool) -> Path:
    """A copy of the installed ``reliquary`` package under ``dest`` (returns ``dest``);
    with or without the compiled extensions and build record."""
    skip = ["__pycache__", "printing", "web", "lab"]
    if not with_build:
        skip += ["*.so", "*.pyd", "_native_build.json"]
    shutil.copytree(PACKAGE_DIR, dest / "reliquary", ignore=shutil.ignore_patterns(*skip))
    return dest


REPORT = """
import sys, json, warnings
import reliquary
from reliquary import engine_build, new_game
import reliquary.engine.state as state_module
state = new_game()
state.apply(state.legal_options()[0])
print(json.dumps({"compiled": engine_build().compiled, "label": engine_build().label,
                  "reason": engine_build().reason, "state_file": state_module.__file__,
                  "shared_library_loaded": any(m.endswith("__mypyc") for m in sys.modules),
                  "package": reliquary.__file__}))
"""
