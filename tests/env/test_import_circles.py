"""No import circles in reliquary.ai and reliquary.env (issue 29): neither between their
modules, counting imports inside functions too, nor between the two packages (the
environments use the AI; the AI never imports the environments)."""

from __future__ import annotations

import ast
from pathlib import Path

import reliquary

ROOT = Path(reliquary.__file__).resolve().parent
WATCHED = ("reliquary.ai", "reliquary.env")


def _module_name(path: Path) -> str:
    parts = ["reliquary", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every reliquary module ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` where c is a name
                target = target.rpartition(".")[0]
            if target.startswith("reliquary") and target != name:
                found.add(target)
                # Importing a module runs its package first: count that package too,
                # unless the importer lives inside it (a sibling import, not a circle).
                parent = target.rpartition(".")[0]
                if parent in known and not name.startswith(parent + "."):
                    found.add(parent)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_ai_and_env_modules_have_no_import_circle() -> None:
    graph = _graph()
    watched = [group for group in _circles(graph)
               if any(m.startswith(WATCHED) for m in group)]
    assert watched == []


def test_the_ai_never_imports_the_environments() -> None:
    graph = _graph()
    ai_to_env = sorted(f"{m} -> {t}" for m, targets in graph.items() if m.startswith(WATCHED[0])
                       for t in targets if t.startswith(WATCHED[1]))
    assert ai_to_env == []


def test_the_checker_finds_a_circle() -> None:
    graph = {"reliquary.ai.base": {"reliquary.ai.mcts"}, "reliquary.ai.mcts":
             {"reliquary.ai.base"}, "reliquary.env.aec": {"reliquary.ai.base"}}
    assert _circles(graph) == [["reliquary.ai.base", "reliquary.ai.mcts"]]
