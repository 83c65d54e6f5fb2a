"""Build the package, compiling the engine with mypyc when a C compiler is available.

Everything else about the package is in ``pyproject.toml``; this file only adds the
extension modules. One source, two builds (``docs/compiled.md``): when mypyc or the C
compiler is missing or fails, the install still succeeds with the pure-Python engine
and says so. A successful build writes ``reliquary/_native_build.json`` with the
SHA-256 of every compiled source, so that an edited source is never shadowed by an
older compiled module (``reliquary/_engine_build.py`` checks it at import).

    pip install -e .                      # editable: extensions built in src/reliquary
    RELIQUARY_NO_COMPILE=1 pip install .  # skip the compiled build
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _load_build_module() -> Any:
    """``reliquary/_engine_build.py`` by path (the package is not importable yet)."""
    path = SRC / "reliquary" / "_engine_build.py"
    spec = importlib.util.spec_from_file_location("_reliquary_engine_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    print(f"reliquary build: {message}", file=sys.stderr)


BUILD = _load_build_module()
#: Hashes taken before compiling: the record describes exactly the sources mypyc read.
HASHES = BUILD.source_hashes(SRC)


class BuildEngine(build_ext):
    """build_ext that falls back to the pure package instead of failing."""

    def run(self) -> None:
        self._forget_record()  # whatever happens next, an old record no longer holds
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as err:  # no compiler, a compiler error: the pure build it is
            self._remove_outputs()
            _say(f"compiling the engine failed ({type(err).__name__}: {err}); "
                 "installed the pure-Python engine")
            return
        record = {"modules": HASHES, "mypy": _mypy_version(),
                  "python": sys.version.split()[0]}
        self._record_path().write_text(json.dumps(record, indent=1, sort_keys=True) + "\n",
                                       encoding="utf-8")
        _say(f"compiled {len(HASHES)} modules (engine; AI evaluation, hashing, search) with mypyc")

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":  # gcc or clang
            for ext in self.extensions:
                # The compiled modules are one shared library that exports only its
                # PyInit functions: calls between them then go direct instead of through
                # the PLT (about 4% faster random self-play).
                ext.extra_compile_args += ["-fvisibility=hidden",
                                           "-fno-semantic-interposition"]
        super().build_extensions()

    def _record_path(self) -> Path:
        # The folder that receives reliquary.* extensions: src/reliquary in place
        # (editable installs), build/lib*/reliquary otherwise.
        return Path(self.get_ext_fullpath("reliquary._record")).parent / BUILD.RECORD_NAME

    def _forget_record(self) -> None:
        self._record_path().unlink(missing_ok=True)

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)

    def get_source_files(self) -> list[str]:
        # Relative to setup.py, as setuptools requires (egg_info lists them).
        return [BUILD.source_path(m, SRC).relative_to(HERE).as_posix()
                for m in BUILD.COMPILED_MODULES]


def _mypy_version() -> str:
    try:
        from mypy.version import __version__
    except ImportError:
        return "?"
    return str(__version__)


def _c_compiler_works() -> bool:
    """Whether the C compiler Python would use (``CC`` or sysconfig's) compiles a file
    against Python's headers (Debian: ``gcc`` and ``python3-dev``).

    Checked before mypyc runs, so that a machine without them installs in seconds.
    """
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint reliquary_probe(void) { return 0; }\n",
                         encoding="utf-8")
        try:
            compiler.compile([str(probe)], output_dir=tmp,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as err:  # CompileError, a missing executable or header
            _say(f"no working C compiler with Python's headers ({type(err).__name__}: {err})")
            return False
    return True


def _extensions() -> list[Any]:
    if os.environ.get("RELIQUARY_NO_COMPILE", "").strip() in ("1", "true", "yes"):
        _say("RELIQUARY_NO_COMPILE is set: installing the pure-Python engine")
        return []
    if not _c_compiler_works():
        _say("installing the pure-Python engine")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not available: installing the pure-Python engine")
        return []
    paths = [str(BUILD.source_path(m, SRC).relative_to(HERE)) for m in BUILD.COMPILED_MODULES]
    try:
        # Type-checks with the project's mypy settings (pyproject.toml) and writes C.
        return list(mypycify(paths, opt_level="3", group_name=BUILD.GROUP_NAME))
    except (Exception, SystemExit) as err:  # a type error stops mypyc: say so, stay pure
        _say(f"mypyc could not translate the engine ({err!r}); "
             "installing the pure-Python engine")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildEngine})
