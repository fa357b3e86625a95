"""Make Seat: each selected chair gets a seat whose back, knee and foot points come from its bounds (the
character faces the file's +Z, Blender's -Y): back and knee at seat height (half the chair's height) at the
back and the front of the seat, the foot on the floor in front of it."""

from __future__ import annotations

import bpy
from mathutils import Vector

from .common import OperatorResult, plural, selected_objects
from .units import local_bounds, to_file_frame, unit_settings

SEAT_HEIGHT = 0.5  # of the chair's height, from its bottom
FOOT_REACH = 0.25  # of the chair's depth, in front of its front edge


def seat_points(low: Vector, high: Vector) -> dict[str, tuple[float, float, float]]:
    """back, knee and foot (file frame) for a chair with these local bounds."""
    middle_x = (low.x + high.x) / 2
    depth = high.y - low.y
    seat_z = low.z + SEAT_HEIGHT * (high.z - low.z)
    return {"back": to_file_frame(Vector((middle_x, high.y - 0.1 * depth, seat_z))),
            "knee": to_file_frame(Vector((middle_x, low.y + 0.1 * depth, seat_z))),
            "foot": to_file_frame(Vector((middle_x, low.y - FOOT_REACH * depth, low.z)))}


class OMI_OT_make_seat(bpy.types.Operator):
    """Make each selected object a seat, its points placed from the object's bounds"""

    bl_idname = "omi.make_seat"
    bl_label = "Make Seat"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return bool(selected_objects(context))

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = selected_objects(context)
        for obj in objects:
            settings = unit_settings(obj, "seat")
            for name, point in seat_points(*local_bounds(obj)).items():
                setattr(settings, name, point)
        self.report({'INFO'}, f"Made {plural(len(objects), 'seat')}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_make_seat,)
