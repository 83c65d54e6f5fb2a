"""``reliquary.web`` has no import circles (issue 30): its modules form layers, each
importing only those below it. Every import counts, at module level, inside functions
and under ``TYPE_CHECKING`` alike: a circle hidden in a function is still a circle in
the design."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "reliquary" / "web"


def imports_of(path: Path) -> set[str]:
    """The ``reliquary.web`` modules that ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                found.update([node.module.split(".")[0]] if node.module
                             else [alias.name for alias in node.names])
            elif node.level == 0 and (node.module or "").startswith("reliquary.web."):
                found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[2] for alias in node.names
                         if alias.name.startswith("reliquary.web."))
    return found - {path.stem}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module from which an import path leads back to itself, with that path."""
    found = []
    for start in sorted(graph):
        paths = [[start]]
        seen = set()
        while paths:
            path = paths.pop()
            for nxt in sorted(graph.get(path[-1], ())):
                if nxt == start:
                    found.append([*path, start])
                    paths = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    paths.append([*path, nxt])
    return found


def test_the_web_package_has_no_import_circle() -> None:
    graph = {path.stem: imports_of(path) for path in WEB.glob("*.py")}
    assert {"app", "games", "clock", "ai_pool"} <= set(graph)
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c", "a"], ["b", "c", "a", "b"], ["c", "a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
