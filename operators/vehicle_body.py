"""Make Vehicle: the active object becomes a dynamic body and a vehicle body; its children named or shaped
like wheels become wheels (the front ones steer, the rear ones drive: the file's +Z, Blender's -Y, is the
front); a child seat, or else a new one above the body's centre, is its pilot seat."""

from __future__ import annotations

import bpy
from mathutils import Vector

from ..properties import object_physics
from .common import OperatorResult
from .seat import give_trigger, seat_points
from .units import is_enabled, local_bounds, unit_settings
from .vehicle_wheel import make_wheel, wheel_like

STEERING_ANGLE = 0.5  # rad, of a front wheel
PROPULSION_PER_KG = 2.0  # N per kg of the body, of each rear wheel


def _pilot_seat(body: bpy.types.Object) -> bpy.types.Object:
    """A child seat of the body, else a new empty child at the top of its bounds holding one."""
    for child in body.children:
        if is_enabled(child, "seat"):
            return child
    low, high = local_bounds(body)
    seat = bpy.data.objects.new(f"{body.name} Pilot Seat", None)
    for collection in body.users_collection:
        collection.objects.link(seat)
    seat.parent = body
    seat.location = Vector(((low.x + high.x) / 2, (low.y + high.y) / 2, high.z))
    size = Vector((0.5, 0.5, 1.0))  # a sitting person's reach around the seat
    for name, point in seat_points(-size, size).items():
        setattr(unit_settings(seat, "seat"), name, point)
    give_trigger(seat, -size, size)
    return seat


class OMI_OT_make_vehicle(bpy.types.Operator):
    """Make the active object a vehicle: a dynamic body with a pilot seat, and wheels from its children named or
    shaped like wheels"""

    bl_idname = "omi.make_vehicle"
    bl_label = "Make Vehicle"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.active_object is not None

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        body = context.active_object
        assert body is not None, "poll: an active object"
        settings = object_physics(body)
        settings.use_motion = True
        settings.motion.motion_type = 'DYNAMIC'
        vehicle = unit_settings(body, "vehicle_body")
        vehicle.pilot_seat = _pilot_seat(body)
        wheels = [child for child in body.children if wheel_like(child)]
        for wheel in wheels:
            make_wheel(wheel)
            front = wheel.location.y < 0  # Blender's -Y is the file's +Z, the vehicle's front
            wheel_settings = unit_settings(wheel, "vehicle_wheel")
            if front:
                wheel_settings.max_steering_angle = STEERING_ANGLE
            else:
                wheel_settings.max_propulsion_force = PROPULSION_PER_KG * settings.motion.mass
        self.report({'INFO'}, f"Made vehicle {body.name!r} with {len(wheels)} wheel(s) and pilot seat "
                              f"{vehicle.pilot_seat.name!r}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_make_vehicle,)
