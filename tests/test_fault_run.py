"""``benchmarks/faults.py``'s mutator (issue 31): each kind of slip it makes, a seed that
always draws the same faults, each a real change of its module, and a fresh sample that
shares no site with the seeds it avoids."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "faults.py"


@pytest.fixture(scope="module")
def faults() -> ModuleType:
    spec = importlib.util.spec_from_file_location("faults_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SOURCE = '''"""A docstring, left alone."""
LIMIT = 8


def f(a: int, b: int = 3, flag: bool = True) -> object:
    if a < b and not flag:
        return -a + b * 2
    log.debug("spent %d", a + 1)
    total += a
    return max(a, b), {"x": a, "y": b}, [a for a in range(b) if a % 2]
'''


def test_the_mutator_makes_each_kind_of_slip(faults: ModuleType) -> None:
    found = {(s.kind, s.old): s.news for s in faults.sites("m.py", SOURCE)}
    assert found[("number", "8")] == ("9", "7")
    assert found[("default", "3")] == ("4", "2") and found[("default", "True")] == ("False",)
    assert found[("compare", "a < b")] == ("(a <= b)",)
    assert found[("condition", "a < b and not flag")] == (
        "(not flag)", "(a < b)", "(a < b or not flag)")
    assert found[("condition", "not flag")] == ("flag",)
    assert found[("condition", "a < b and not flag")]
    assert found[("sign", "-a")] == ("a",)
    assert found[("arithmetic", "-a + b * 2")] == ("(-a - b * 2)",)
    assert found[("arithmetic", "b * 2")] == ("(b / 2)",)
    assert found[("arithmetic", "total += a")] == ("total -= a", "total = a")
    assert found[("min/max", "max")] == ("min",)
    assert found[("field", '{"x": a, "y": b}')] == ("{'y': b}", "{'x': a}")
    assert found[("condition", "a % 2")] == ("True",)
    assert all(s.line != 1 for s in faults.sites("m.py", SOURCE))  # not the docstring
    assert not [s for s in faults.sites("m.py", SOURCE) if s.line == 8]  # not a log line
    assert not [s for s in faults.sites("m.py", SOURCE) if s.old in ("int", "bool", "object")]


@pytest.fixture(scope="module")
def package(faults: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mutated modules as they are now (the working tree may change meanwhile)."""
    root = tmp_path_factory.mktemp("package")
    for modules in faults.MUTATED.values():
        for module in modules:
            (root / module).parent.mkdir(parents=True, exist_ok=True)
            (root / module).write_bytes((faults.PACKAGE / module).read_bytes())
    return root


def test_a_seed_always_draws_the_same_faults_each_a_real_change(
        faults: ModuleType, package: Path) -> None:
    drawn = faults.generate(package, 2, 7)
    again = faults.generate(package, 2, 7)
    assert [(f.module, f.at, f.edits) for f in drawn] == [
        (f.module, f.at, f.edits) for f in again]
    assert sorted({f.area for f in drawn}) == sorted(faults.MUTATED)
    assert len(drawn) == 2 * len(faults.MUTATED)
    for f in drawn:
        assert f.module in faults.MUTATED[f.area] and f.module in faults.TESTS
        source = (package / f.module).read_text(encoding="utf-8")
        data = source.encode()
        [(old, new)] = f.edits
        assert data[f.at:f.at + len(old.encode())] == old.encode()
        changed = data[:f.at] + new.encode() + data[f.at + len(old.encode()):]
        assert ast.dump(ast.parse(changed)) != ast.dump(ast.parse(source)), f.name


def test_a_fresh_sample_shares_no_site_with_the_seeds_it_avoids(
        faults: ModuleType, package: Path) -> None:
    first = faults.generate(package, 4, 1)
    fresh = faults.generate(package, 4, 2, avoid=[1])
    assert len(fresh) == len(first)
    assert not {(f.module, f.at) for f in first} & {(f.module, f.at) for f in fresh}
    # a chain: the third avoids the second as it was drawn (avoiding the first) too
    third = faults.generate(package, 4, 3, avoid=[1, 2])
    assert not {(f.module, f.at) for f in [*first, *fresh]} & {(f.module, f.at) for f in third}


def test_a_larger_practice_sample_is_avoided_whole(faults: ModuleType, package: Path) -> None:
    practice = faults.generate(package, 6, 9, ["lab"], avoid=[1])
    first = faults.generate(package, 2, 1, ["lab"])
    assert {(f.module, f.at) for f in practice[:2]} == {
        (f.module, f.at) for f in faults.generate(package, 2, 9, ["lab"], avoid=[1])}
    fresh = faults.generate(package, 2, 2, ["lab"], avoid=[1, (9, 6)])
    assert len(fresh) == 2
    assert not {(f.module, f.at) for f in [*practice, *first]} & {
        (f.module, f.at) for f in fresh}
    with pytest.raises(SystemExit):
        faults.main(["--generate", "2", "--avoid", "9:x", "--list"])


def test_in_the_engine_only_the_variants_code_is_mutated(faults: ModuleType) -> None:
    source = (faults.PACKAGE / "engine/state.py").read_text(encoding="utf-8")
    lines = source.splitlines()
    found = faults.sites("engine/state.py", source)
    assert found and len(found) < len(faults.sites("engine/other.py", source)) / 4
    focus = faults.FOCUS["engine/state.py"]
    assert all(focus.search("\n".join(lines[s.line - 1:s.line + 2])) for s in found)
