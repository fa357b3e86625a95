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
