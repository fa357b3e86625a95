"""Imports point down the layers of DESIGN.md, read from the source with `ast` (no bpy needed).

    io/omi         pure: no Blender module, nothing outside io/omi
    io/blender     no properties, operators or panels, and not the hook modules above it (io/*.py)
    properties     no operators or panels
    panels         no operator module (operators are called by bl_idname)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLENDER_MODULES = {"bpy", "bmesh", "mathutils", "gpu", "gpu_extras", "bl_math", "io_scene_gltf2", "addon_utils"}


def module_name(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def imports(path: Path) -> list[tuple[int, tuple[str, ...] | None, str]]:
    """(line, add-on module imported or None, top-level name of an absolute import) for each import;
    `from . import a, b` gives the package and each of a and b (either may be a module)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path)[:-1]
    found: list[tuple[int, tuple[str, ...] | None, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, None, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, None, (node.module or "").split(".")[0]))
                continue
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = (*base, *node.module.split(".")) if node.module else base
            found.append((node.lineno, target, ""))
            found += [(node.lineno, (*target, alias.name), "") for alias in node.names]
    return found


def violation(importer: tuple[str, ...], imported: tuple[str, ...] | None, absolute: str) -> str | None:
    """Why this import points up (None: it does not)."""
    layer = importer[:2] if importer[:1] == ("io",) else importer[:1]
    if layer == ("io", "omi"):
        if absolute in BLENDER_MODULES:
            return f"io/omi is pure Python: it imports {absolute}"
        if imported is not None and imported[:2] != ("io", "omi"):
            return "io/omi imports nothing outside io/omi"
    if imported is None:
        return None
    if layer == ("io", "blender"):
        if imported[:1] in (("properties",), ("operators",), ("panels",)):
            return f"io/blender takes and returns model values: it must not import {imported[0]}"
        if imported[:1] == ("io",) and len(imported) > 1 and imported[1] not in ("omi", "blender"):
            return "io/blender must not import the hook modules above it (io/*.py)"
    if layer == ("properties",) and imported[:1] in (("operators",), ("panels",)):
        return f"properties must not import {imported[0]}"
    if layer == ("panels",) and imported[:1] == ("operators",) and len(imported) > 1:
        return "panels call operators by bl_idname, never an operator module's internals"
    return None


SOURCES = sorted(path for path in ROOT.glob("**/*.py")
                 if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
                 and path.relative_to(ROOT).parts[0] in ("io", "properties", "operators", "panels", "viewport"))


def test_the_rules_catch_upward_imports():
    assert violation(("io", "omi", "reader"), None, "bpy")
    assert violation(("io", "omi", "reader"), ("io", "blender", "axes"), "")
    assert violation(("io", "blender", "adopt"), ("properties", "convert"), "")
    assert violation(("io", "blender", "adopt"), ("io", "gltf_export"), "")
    assert violation(("panels", "sidebar"), ("operators", "state"), "")
    assert violation(("properties", "convert"), ("operators", "common"), "")
    assert violation(("io", "blender", "adopt"), ("io", "omi", "model"), "") is None
    assert violation(("properties", "convert"), ("io", "blender", "axes"), "") is None


def test_relative_imports_are_resolved(tmp_path):
    assert module_name(ROOT / "io" / "blender" / "__init__.py") == ("io", "blender")
    found = imports(ROOT / "io" / "blender" / "export" / "scene.py")
    assert (("io", "omi", "model") in {target for _line, target, _name in found})


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_point_down(path):
    importer = module_name(path)
    problems = [f"line {line}: {'.'.join(target) if target else name}: {why}"
                for line, target, name in imports(path)
                if (why := violation(importer, target, name)) is not None]
    assert problems == []


def test_every_layer_is_walked():
    layers = {module_name(path)[:2] if module_name(path)[:1] == ("io",) else module_name(path)[:1]
              for path in SOURCES}
    assert {("io", "omi"), ("io", "blender"), ("properties",), ("operators",), ("panels",)} <= layers


# --- the import graph: no cycles, TYPE_CHECKING imports included --------------------------------------

ADDON_SOURCES = sorted({*SOURCES, ROOT / "__init__.py"})
MODULES = {module_name(path): path for path in ADDON_SOURCES}


def imported_modules(path: Path) -> set[tuple[str, ...]]:
    """The add-on modules one module imports: `from X import a` is X.a when that is a module, else X (whose
    `__init__` holds `a`); every import counts, wherever it stands."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path)[:-1]
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = (*base, *node.module.split(".")) if node.module else base
            for alias in node.names:
                found.add((*target, alias.name) if (*target, alias.name) in MODULES else target)
    return {name for name in found if name in MODULES}


def import_graph() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    """Each add-on module -> the add-on modules it imports (a package's `__init__` counts as a module)."""
    return {name: imported_modules(path) - {name} for name, path in MODULES.items()}


def cycles(graph: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[set[tuple[str, ...]]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    stack: list[tuple[str, ...]] = []
    on_stack: set[tuple[str, ...]] = set()
    found: list[set[tuple[str, ...]]] = []
    for start, targets in graph.items():
        if start in index:
            continue
        work = [(start, iter(sorted(targets)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_cycle_finder_finds_cycles():
    graph = {("a",): {("b",)}, ("b",): {("c",)}, ("c",): {("a",)}, ("d",): {("a",)}, ("e",): set()}
    assert cycles(graph) == [{("a",), ("b",), ("c",)}]
    assert cycles({("a",): {("b",)}, ("b",): set()}) == []


def test_the_import_graph_sees_every_import():
    graph = import_graph()
    assert ("io", "omi", "write", "export_writer") in graph[("io", "blender", "export", "output")]
    assert ("io", "omi", "model") in graph[("io", "omi", "read", "state")]  # `from ..model import ...`
    assert ("io", "omi", "dialects", "registry") in graph[("io", "omi", "dialects", "builtin")]  # `from . import`


# Cycles allowed while someone takes them apart; each must go from this list the moment it is gone (the export
# session's and the animation modules' went with issue 20 items 4 and 5).
KNOWN_CYCLES: list[set[str]] = []


def test_no_import_cycles():
    """Every import counts, `if TYPE_CHECKING:` ones too: a cycle hidden there is still two modules that each
    need the other to be understood."""
    found = [{".".join(name) or "(add-on)" for name in component} for component in cycles(import_graph())]
    assert [sorted(component) for component in found if component not in KNOWN_CYCLES] == []
    assert [sorted(known) for known in KNOWN_CYCLES if known not in found] == [], "gone: remove from KNOWN_CYCLES"


# --- packages that must not need each other ----------------------------------------------------------

# Pairs of packages of which at most one may import the other (a cycle between them, module by module acyclic or
# not, is two packages that each need the other to be understood): the export session uses the animation's
# export half; the animation never imports the export (the session hands its placement functions in); the
# animation's import and export halves share only the package's own modules.
NO_PACKAGE_CYCLE = [(("io", "blender", "export"), ("io", "blender", "animation")),
                    (("io", "blender", "animation", "imports"), ("io", "blender", "animation", "exports"))]


def package_edges(graph: dict[tuple[str, ...], set[tuple[str, ...]]], first: tuple[str, ...],
                  second: tuple[str, ...]) -> list[str]:
    """'importer -> imported' for every import from inside `first` into `second`."""
    return sorted(f"{'.'.join(name)} -> {'.'.join(target)}" for name, targets in graph.items()
                  if name[:len(first)] == first for target in targets if target[:len(second)] == second)


def test_the_package_check_sees_both_directions():
    graph = {("p", "a"): {("q", "b")}, ("q", "b"): {("p", "c")}, ("p", "c"): set()}
    assert package_edges(graph, ("p",), ("q",)) == ["p.a -> q.b"]
    assert package_edges(graph, ("q",), ("p",)) == ["q.b -> p.c"]


@pytest.mark.parametrize(("first", "second"), NO_PACKAGE_CYCLE, ids=".".join)
def test_no_cycle_between_packages(first, second):
    graph = import_graph()
    forward, backward = package_edges(graph, first, second), package_edges(graph, second, first)
    assert not (forward and backward), f"{'.'.join(first)} and {'.'.join(second)} import each other: {backward}"


# --- module size ------------------------------------------------------------------------------------------

MAX_LINES = 400


@pytest.mark.parametrize("path", ADDON_SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_over_400_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES
