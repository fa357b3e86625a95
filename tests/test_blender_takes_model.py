"""io/blender takes and returns model values (issue #20, item 3): no PropertyGroup goes in. Read from the source
with `ast` (no bpy needed): no parameter named for a settings group (`pg`, `*_pg`), no reading of an object's
or scene's settings (`.omi_physics`, `getattr(x, "omi_physics")`). F-curve paths that name settings (strings)
are data, not settings access. tests/blender/builder/test_build_from_model.py builds from a document with no
settings."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = "omi_physics"
# Known offences, each with its reason; an entry that no longer offends fails the test (remove it then).
KNOWN: dict[str, str] = {}


def settings_access(source: str, name: str = "<source>") -> list[str]:
    """Where the source takes or reads settings: 'line: what'."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.arg) and (node.arg == "pg" or node.arg.endswith("_pg")):
            found.append(f"{node.lineno}: parameter {node.arg!r}")
        elif isinstance(node, ast.Attribute) and node.attr == SETTINGS:
            found.append(f"{node.lineno}: .{SETTINGS}")
        elif isinstance(node, ast.Attribute) and (node.attr == "pg" or node.attr.endswith("_pg")):
            found.append(f"{node.lineno}: .{node.attr} (a settings group held)")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and f"{SETTINGS}." in node.value:
            found.append(f"{node.lineno}: {node.value[:60]!r} (a settings path)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and node.args[1].value == SETTINGS:
            found.append(f"{node.lineno}: {node.func.id}(..., {SETTINGS!r})")
    return found


def test_the_check_sees_settings_access():
    assert settings_access("def f(pg): pass")
    assert settings_access("def f(motion_pg=None): pass")
    assert settings_access("x = obj.omi_physics.motion")
    assert settings_access("x = getattr(obj, 'omi_physics', None)")
    assert settings_access("kind = shape.pg.shape_type")
    assert settings_access("PATHS = ('omi_physics.', 'rigid_body.')")
    assert settings_access("PATH = 'omi_physics.units.vehicle_wheel'")
    assert settings_access('def f():\n    """Keys `omi_physics.motion.mass`."""')
    assert not settings_access("PATHS = ('rigid_body.', 'rigid_body_constraint.')\ndef f(shape): return shape.size")


def test_io_blender_receives_no_property_group():
    offences = {str(path.relative_to(ROOT)): found for path in sorted((ROOT / "io" / "blender").rglob("*.py"))
                if (found := settings_access(path.read_text(), str(path)))}
    assert {name: found for name, found in offences.items() if name not in KNOWN} == {}
    assert set(KNOWN) <= set(offences), "a known offence is gone: remove it from KNOWN"
