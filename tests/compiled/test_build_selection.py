"""One source, two builds: choosing the compiled or the pure engine, and never a stale one.

See docs/compiled.md. The stale-build tests work on a copy of the package in a temporary
folder, imported by a fresh interpreter, so the package under test is never touched.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from reliquary._engine_build import (
    COMPILED_MODULES,
    RECORD_NAME,
    StaleBuildWarning,
    source_hashes,
)
from reliquary.cli.main import cli

from .helpers import REPORT, clean_env, copy_package, need_compiled, python

ROOT = Path(__file__).resolve().parents[2]


def report(path: Path | None = None, **env: str) -> tuple[dict[str, object], str]:
    proc = python(REPORT, env=env, path=path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_the_version_names_the_running_build() -> None:
    out = CliRunner().invoke(cli, ["--version"]).output
    from reliquary import engine_build
    assert f"engine: {engine_build().label}" in out
    assert engine_build().label in ("compiled (mypyc)", "pure Python")


def test_reliquary_pure_forces_the_pure_engine() -> None:
    data, stderr = report(RELIQUARY_PURE="1")
    assert data["compiled"] is False and data["label"] == "pure Python"
    assert "RELIQUARY_PURE" in str(data["reason"])
    assert str(data["state_file"]).endswith("state.py")
    assert data["shared_library_loaded"] is False  # the extensions are never loaded
    assert "StaleBuildWarning" not in stderr
    proc = subprocess.run([sys.executable, "-m", "reliquary.cli.main", "--version"],
                          capture_output=True, text=True, check=False,
                          env={**clean_env(), "RELIQUARY_PURE": "1"})
    assert "engine: pure Python" in proc.stdout


def test_the_compiled_engine_runs_when_built() -> None:
    need_compiled()
    data, stderr = report()
    assert data["compiled"] is True and data["label"] == "compiled (mypyc)"
    assert not str(data["state_file"]).endswith(".py")
    assert data["shared_library_loaded"] is True
    assert "Warning" not in stderr


def test_an_edited_source_falls_back_to_pure_with_one_warning(tmp_path: Path) -> None:
    """Without a compiler: a build record and stand-in extension files are enough to
    exercise the check, which runs before anything compiled is loaded."""
    copy_package(tmp_path, with_build=False)
    package = tmp_path / "reliquary"
    hashes = source_hashes(tmp_path)
    (package / RECORD_NAME).write_text(json.dumps({"modules": hashes, "mypy": "test"}))
    for module in COMPILED_MODULES:  # stand-ins: never loaded, the check says stale first
        parts = module.split(".")
        package.joinpath(*parts[1:-1], parts[-1] + ".cpython-311-x86_64-linux-gnu.so")\
            .write_bytes(b"")
    state_py = package / "engine" / "state.py"
    state_py.write_text(state_py.read_text() + "\n# an edit after the build\n")
    data, stderr = report(tmp_path)
    assert data["package"] == str(package / "__init__.py")
    assert data["compiled"] is False
    assert "state.py changed since the engine was compiled" in str(data["reason"])
    assert str(data["state_file"]).endswith("state.py")
    assert stderr.count(StaleBuildWarning.__name__) == 1, stderr
    assert "pip install -e ." in stderr


def test_extensions_without_a_record_are_not_trusted(tmp_path: Path) -> None:
    copy_package(tmp_path, with_build=False)
    (tmp_path / "reliquary" / "engine" / "geometry.cpython-311-x86_64-linux-gnu.so")\
        .write_bytes(b"")
    data, stderr = report(tmp_path)
    assert data["compiled"] is False and "without a build record" in str(data["reason"])
    assert stderr.count(StaleBuildWarning.__name__) == 1, stderr


def test_no_build_at_all_is_the_pure_engine_without_a_warning(tmp_path: Path) -> None:
    copy_package(tmp_path, with_build=False)
    data, stderr = report(tmp_path)
    assert data["compiled"] is False and "not compiled" in str(data["reason"])
    assert "Warning" not in stderr


def test_a_real_compiled_build_goes_stale_when_a_source_changes(tmp_path: Path) -> None:
    need_compiled()
    copy_package(tmp_path, with_build=True)
    data, stderr = report(tmp_path)
    assert data["compiled"] is True and "Warning" not in stderr, stderr
    geometry = tmp_path / "reliquary" / "engine" / "geometry.py"
    geometry.write_text(geometry.read_text() + "\n# edited\n")
    data, stderr = report(tmp_path)
    assert data["compiled"] is False
    assert "geometry.py changed since the engine was compiled" in str(data["reason"])
    assert str(data["state_file"]).endswith("state.py")  # and a game still plays
    assert data["shared_library_loaded"] is False
    assert stderr.count(StaleBuildWarning.__name__) == 1, stderr


def test_clone_copies_every_field_of_a_state() -> None:
    """``State._copy_fields`` names each field (compiled classes have no ``__dict__``);
    in the pure build, a field added to ``__init__`` but not copied shows here."""
    code = ("import reliquary, random\n"
            "s = reliquary.new_game()\n"
            "rng = random.Random(3)\n"
            "for _ in range(60): s.apply(rng.choice(s.legal_options()))\n"
            "c = s.clone()\n"
            "assert sorted(vars(c)) == sorted(vars(s)), set(vars(s)) ^ set(vars(c))\n"
            "print('ok')")
    proc = python(code, env={"RELIQUARY_PURE": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


@pytest.mark.slow
def test_the_package_builds_without_a_c_compiler(tmp_path: Path) -> None:
    """CC=/bin/false: the build (as pip runs it) still succeeds, pure, and says why."""
    source = tmp_path / "project"
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", RECORD_NAME))
    wheels = tmp_path / "wheels"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(wheels),
         str(source)], capture_output=True, text=True, check=False, timeout=900,
        env={**clean_env(), "CC": "/bin/false"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "no working C compiler" in proc.stdout + proc.stderr
    (wheel,) = wheels.glob("reliquary-*.whl")
    assert wheel.name.endswith("py3-none-any.whl")  # a pure wheel
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "installed")
    assert not [n for n in names if n.endswith((".so", ".pyd", RECORD_NAME))]
    data, stderr = report(tmp_path / "installed")
    assert data["compiled"] is False and "not compiled" in str(data["reason"])
    assert "Warning" not in stderr


def test_the_engine_doctests_run_under_the_pure_build() -> None:
    """pytest's doctest finder sees no docstrings in compiled modules, so under the
    compiled build the engine's examples would silently not run: run them pure here."""
    engine = Path(__file__).resolve().parents[2] / "src" / "reliquary" / "engine"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
         "--import-mode=importlib", str(engine)],
        capture_output=True, text=True, check=False, timeout=600,
        env={**clean_env(), "RELIQUARY_PURE": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:]
    passed = int(proc.stdout.strip().splitlines()[-1].split(" passed")[0].split()[-1])
    assert passed >= 9, proc.stdout[-500:]
