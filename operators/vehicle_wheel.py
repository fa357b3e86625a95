"""Add Wheel: each selected object becomes a wheel of the vehicle body above it, its radius and width from
its size (the largest two dimensions are the diameter, the smallest the width)."""

from __future__ import annotations

import bpy

from .common import OperatorResult, names, plural, selected_objects
from .units import is_enabled, unit_settings

WHEEL_NAMES = ("wheel", "tire", "tyre")
ROUND_TOLERANCE = 0.15  # how much the two large dimensions of a wheel-shaped object may differ (relative)


def vehicle_above(obj: bpy.types.Object) -> bpy.types.Object | None:
    parent = obj.parent
    while parent is not None and not is_enabled(parent, "vehicle_body"):
        parent = parent.parent
    return parent


def wheel_like(obj: bpy.types.Object) -> bool:
    """Named like a wheel, or shaped like one: two equal large dimensions and a smaller third."""
    if any(word in obj.name.lower() for word in WHEEL_NAMES):
        return True
    if obj.type != 'MESH':
        return False
    small, middle, large = sorted(obj.dimensions[:])
    return large > 0 and (large - middle) <= ROUND_TOLERANCE * large and small < 0.7 * middle


def make_wheel(obj: bpy.types.Object) -> None:
    settings = unit_settings(obj, "vehicle_wheel")
    small, middle, large = sorted(obj.dimensions[:])
    if large > 0:
        settings.radius = (middle + large) / 4
        settings.width = small if small > 0 else settings.width


class OMI_OT_add_wheel(bpy.types.Operator):
    """Make each selected object a wheel (of the vehicle body above it), sized from its dimensions"""

    bl_idname = "omi.add_wheel"
    bl_label = "Add Wheel"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return bool(selected_objects(context))

    def execute(self, _context: bpy.types.Context) -> OperatorResult:
        objects = selected_objects(_context)
        for obj in objects:
            make_wheel(obj)
        self.report({'INFO'}, f"Made {plural(len(objects), 'wheel')}")
        orphans = [obj for obj in objects if vehicle_above(obj) is None]
        if orphans:
            self.report({'WARNING'}, f"{names(orphans)}: not below a vehicle body; engines will not drive it")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_add_wheel,)
