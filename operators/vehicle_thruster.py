"""Add Thruster: each selected object becomes a thruster (or a hover thruster) of the vehicle body above it,
pushing along its own +Z of the file (Blender's -Y of the object)."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, FloatProperty

from .common import OperatorResult, names, plural, selected_objects
from .units import unit_settings
from .vehicle_wheel import vehicle_above


class OMI_OT_add_thruster(bpy.types.Operator):
    """Make each selected object a thruster of the vehicle body above it"""

    bl_idname = "omi.add_thruster"
    bl_label = "Add Thruster"
    bl_options = {'REGISTER', 'UNDO'}

    hover: BoolProperty(name="Hover", description="A hover thruster (its force grows near the ground)")
    strength: FloatProperty(name="Strength", description="Maximum force (N), or hover energy (N m) of a hover "
                            "thruster", default=1000.0, min=0.0)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return bool(selected_objects(context))

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = selected_objects(context)
        for obj in objects:
            if self.hover:
                unit_settings(obj, "vehicle_hover_thruster").max_hover_energy = self.strength
            else:
                unit_settings(obj, "vehicle_thruster").max_force = self.strength
        self.report({'INFO'}, f"Made {plural(len(objects), 'hover thruster' if self.hover else 'thruster')}")
        orphans = [obj for obj in objects if vehicle_above(obj) is None]
        if orphans:
            self.report({'WARNING'}, f"{names(orphans)}: not below a vehicle body; engines will not fire it")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_add_thruster,)
