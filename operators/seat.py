"""Make Seat: each selected chair gets a seat whose back, knee and foot points come from its bounds (the
character faces the file's +Z, Blender's -Y): back and knee at seat height (half the chair's height) at the
back and the front of the seat, the foot on the floor in front of it; and a box trigger around the chair when
it has no physics yet."""

from __future__ import annotations

import bpy
from mathutils import Vector

from ..properties import object_physics
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


def give_trigger(obj: bpy.types.Object, low: Vector, high: Vector) -> bool:
    """A box trigger around the chair's bounds (players reach a seat through its trigger; Godot with omi-godot
    makes a Seat3D of a seat on a trigger), unless the object already has physics; True when one was added."""
    physics = object_physics(obj)
    if physics.use_motion or physics.use_collider or physics.use_trigger:
        return False
    physics.use_trigger = True
    shape = physics.trigger.shape
    shape.shape_type = 'BOX'
    shape.size = high - low
    centre = (low + high) / 2
    if centre.length > 1e-6:
        shape.offset_location = centre
        shape.use_offset = True
    return True


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
        reachable = 0
        for obj in objects:
            settings = unit_settings(obj, "seat")
            low, high = local_bounds(obj)
            for name, point in seat_points(low, high).items():
                setattr(settings, name, point)
            reachable += give_trigger(obj, low, high)
        self.report({'INFO'}, f"Made {plural(len(objects), 'seat')}"
                              + (f"; {reachable} with a box trigger around it, for players to reach" if reachable
                                 else ""))
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_make_seat,)
