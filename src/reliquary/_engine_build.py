"""Which build of the engine runs: compiled by mypyc, or the pure-Python source.

The package is one source with two builds (see ``docs/compiled.md``). ``setup.py``
compiles the modules in :data:`COMPILED_MODULES` with mypyc when a C compiler is
available; the extension modules then sit next to their ``.py`` files, and Python's
import system prefers an extension to a source file. It also writes a build record
(:data:`RECORD_NAME`, next to this file) with the SHA-256 of every source it compiled.

This module runs first when ``reliquary`` is imported, before any engine module, and
decides once per process:

- ``RELIQUARY_PURE=1`` in the environment forces the pure build;
- no build record and no extension modules: the pure build (nothing was compiled);
- a record whose hashes all match the sources, with every extension present and its
  shared library loadable: the compiled build;
- anything else (a source edited since the build, a missing extension, extensions
  without a record): the pure build, with exactly one :class:`StaleBuildWarning`.

Choosing the pure build installs :class:`PureSourceFinder` at the front of
``sys.meta_path``: for the compiled modules it returns the ``.py`` file, so the
extension modules (and their shared library) are never loaded. The choice is all or
nothing: compiled modules call each other's native classes directly, so a mix of
compiled and pure engine modules would hold two different ``State`` classes.

This file imports nothing from the package: ``setup.py`` loads it by path.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules compiled by mypyc, all in one group (one shared library). Not
#: ``engine.types``: a compiled dataclass turns ``True`` into ``1`` in an ``int`` field
#: before ``__post_init__`` can refuse it, so Settings would validate differently.
COMPILED_MODULES: tuple[str, ...] = (
    "reliquary.engine.geometry",
    "reliquary.engine.hooks",
    "reliquary.engine.effects",
    "reliquary.engine.state",
    "reliquary.engine.notation",
    "reliquary.engine.record",
    "reliquary.engine.serialize",
    "reliquary.engine.builder",
    # The built-in rule modules' rules (their pydantic data models, which mypyc cannot
    # compile, live apart in the *_data modules).
    "reliquary.engine.modules.conditions",
    "reliquary.engine.modules.glory",
    "reliquary.engine.modules.keepers",
    # The AI's hot paths: the search and what its agents share.
    "reliquary.ai.hashing",
    "reliquary.ai.evaluation",
    "reliquary.ai.planning",
    "reliquary.ai.search",
)
#: The mypyc group name; its shared library is ``reliquary/_native__mypyc*.so``.
GROUP_NAME = "reliquary._native"
SHARED_LIBRARY = GROUP_NAME + "__mypyc"
#: The build record written by ``setup.py`` next to this file.
RECORD_NAME = "_native_build.json"
#: Set to 1 (or true/yes) to force the pure-Python engine.
PURE_ENV = "RELIQUARY_PURE"

COMPILED_LABEL = "compiled (mypyc)"
PURE_LABEL = "pure Python"

_PACKAGE_DIR = Path(__file__).resolve().parent


class StaleBuildWarning(RuntimeWarning):
    """The compiled engine does not match its sources: the pure build runs instead."""


@dataclass(frozen=True)
class EngineBuild:
    """The build chosen for this process and why."""

    compiled: bool
    reason: str

    @property
    def label(self) -> str:
        """``compiled (mypyc)`` or ``pure Python``, as ``reliquary --version`` prints."""
        return COMPILED_LABEL if self.compiled else PURE_LABEL

    def __str__(self) -> str:
        return f"{self.label} ({self.reason})" if self.reason else self.label


def source_path(module: str, root: Path) -> Path:
    """The ``.py`` file of a ``reliquary.*`` module under ``root`` (the folder of ``reliquary``)."""
    parts = module.split(".")
    return root.joinpath(*parts[:-1], parts[-1] + ".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_hashes(root: Path, modules: Sequence[str] = COMPILED_MODULES) -> dict[str, str]:
    """module -> SHA-256 of its source, as the build record stores them."""
    return {module: source_hash(source_path(module, root)) for module in modules}


def _extension_path(module: str, root: Path) -> Path | None:
    """The compiled extension of a module, if one is there."""
    source = source_path(module, root)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def _pure_forced() -> bool:
    return os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def check_build(package_dir: Path = _PACKAGE_DIR) -> tuple[bool, str, bool]:
    """(compiled?, reason, warn?) for the package at ``package_dir`` (``.../reliquary``)."""
    root = package_dir.parent
    if _pure_forced():
        return False, f"{PURE_ENV} is set", False
    present = [m for m in COMPILED_MODULES if _extension_path(m, root) is not None]
    record_file = package_dir / RECORD_NAME
    if not record_file.exists():
        if present:
            return False, (f"compiled modules without a build record ({', '.join(present)}); "
                           "rebuild with `pip install -e .`"), True
        return False, ("not compiled (no C compiler at install, or installed before the "
                       "compiled build existed: `pip install -e .` builds it)"), False
    try:
        record = json.loads(record_file.read_text(encoding="utf-8"))
        built: dict[str, str] = dict(record["modules"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        return False, f"unreadable build record {record_file}: {err}", True
    if sorted(built) != sorted(COMPILED_MODULES):
        return False, ("the build compiled other modules than this source lists; "
                       "rebuild with `pip install -e .`"), True
    for module in COMPILED_MODULES:
        source = source_path(module, root)
        if not source.exists() or source_hash(source) != built[module]:
            return False, (f"{source} changed since the engine was compiled; "
                           "rebuild with `pip install -e .`"), True
        if _extension_path(module, root) is None:
            return False, f"the compiled module of {module} is missing", True
    return True, f"built with mypy {record.get('mypy', '?')}", False


class PureSourceFinder(MetaPathFinder):
    """Finds the ``.py`` source of the compiled modules, so their extensions stay unused."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.modules or not path:
            return None
        name = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            candidate = os.path.join(entry, name)
            if os.path.isfile(candidate):
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def _select() -> EngineBuild:
    compiled, reason, warn = check_build()
    if compiled:
        try:  # the shared library holds the code; a broken one means the pure build
            importlib.import_module(SHARED_LIBRARY)
        except ImportError as err:
            compiled, reason, warn = False, f"the compiled engine cannot load: {err}", True
    if not compiled:
        sys.meta_path.insert(0, PureSourceFinder(COMPILED_MODULES))
        if warn:
            warnings.warn(f"reliquary: using the pure-Python engine: {reason}",
                          StaleBuildWarning, stacklevel=2)
    return EngineBuild(compiled, reason)


#: The build chosen when ``reliquary`` was imported (``setup.py`` loads this file by
#: path, under another name, for its constants only: no choice is made there).
BUILD = (_select() if __name__ == "reliquary._engine_build"
         else EngineBuild(False, "build tooling, not the package"))


def engine_build() -> EngineBuild:
    """The engine build this process runs, checked against the loaded modules."""
    state = sys.modules.get("reliquary.engine.state")
    if state is not None:
        loaded = not str(getattr(state, "__file__", "")).endswith(".py")
        if loaded != BUILD.compiled:  # cannot happen unless someone edited sys.meta_path
            return EngineBuild(loaded, "loaded modules differ from the build chosen")
    return BUILD
