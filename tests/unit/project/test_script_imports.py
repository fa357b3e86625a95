"""The tools in scripts/ and its folders (demo/, screenshots/, ci/) import each other one way only: no two of
them (or a longer loop) import each other, counting imports made only for type checking."""

from __future__ import annotations

import ast
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def _imports(path: Path, names: set[str]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found & names - {path.stem}


def test_no_script_imports_one_that_imports_it() -> None:
    modules = {path.stem: path for path in SCRIPTS.rglob("*.py")}  # the tools' folders share one sys.path
    graph = {name: _imports(path, set(modules)) for name, path in modules.items()}
    loops = []

    def visit(name: str, trail: list[str]) -> None:
        for other in sorted(graph[name]):
            if other in trail:
                loops.append(" -> ".join([*trail[trail.index(other):], other]))
            elif len(trail) < len(graph):
                visit(other, [*trail, other])

    for start in sorted(graph):
        visit(start, [start])
    assert loops == []
