"""What the extension units' operators share: a unit's settings on an object found by its binding's attribute,
and bounds in the object's own frame turned into the file's frame (Y up, +Z forward)."""

from __future__ import annotations

from typing import Any

import bpy
from mathutils import Vector

from ..properties import units


def unit_settings(obj: bpy.types.Object, attr: str) -> Any:
    """The object's settings of the unit bound at `attr` (e.g. "seat"), switched on."""
    binding = next(binding for binding in units.BINDINGS if binding.attr == attr)
    settings = units.settings_of(obj, binding)
    settings.enabled = True
    return settings


def is_enabled(obj: bpy.types.Object | None, attr: str) -> bool:
    binding = next((binding for binding in units.BINDINGS if binding.attr == attr), None)
    return obj is not None and binding is not None and bool(units.settings_of(obj, binding).enabled)


def local_bounds(obj: bpy.types.Object) -> tuple[Vector, Vector]:
    """(min, max) corners of the object's geometry in its own frame (a unit box for an empty)."""
    corners = [Vector(corner) for corner in obj.bound_box] if obj.type != 'EMPTY' else \
        [Vector((-1.0, -1.0, -1.0)), Vector((1.0, 1.0, 1.0))]
    low = Vector((min(c.x for c in corners), min(c.y for c in corners), min(c.z for c in corners)))
    high = Vector((max(c.x for c in corners), max(c.y for c in corners), max(c.z for c in corners)))
    return low, high


def to_file_frame(point: Vector) -> tuple[float, float, float]:
    """A point of Blender's frame (Z up, -Y forward) in the file's (Y up, +Z forward)."""
    return (point.x, point.z, -point.y)
