"""Add Spawn Point: a new empty at the 3D cursor, an arrow whose +Y (the file's +Z, where characters face
after the import's axis conversion) points forward, holding a spawn point."""

from __future__ import annotations

import bpy
from bpy.props import StringProperty

from .common import OperatorResult, scene_of
from .units import unit_settings


class OMI_OT_add_spawn_point(bpy.types.Operator):
    """Add an empty at the 3D cursor that is a spawn point"""

    bl_idname = "omi.add_spawn_point"
    bl_label = "Add Spawn Point"
    bl_options = {'REGISTER', 'UNDO'}

    title: StringProperty(name="Title", default="Spawn Point", maxlen=128)
    team: StringProperty(name="Team", maxlen=128)

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        scene = scene_of(context)
        empty = bpy.data.objects.new(self.title or "Spawn Point", None)
        empty.empty_display_type = 'SINGLE_ARROW'
        empty.location = scene.cursor.location
        empty.rotation_euler = (-1.5707963, 0.0, 0.0)  # the arrow (+Z) along Blender's -Y: the file's +Z
        scene.collection.objects.link(empty)
        settings = unit_settings(empty, "spawn_point")
        settings.title, settings.team = self.title, self.team
        for obj in context.selected_objects or ():
            obj.select_set(False)
        empty.select_set(True)
        context.view_layer.objects.active = empty  # type: ignore[union-attr]  # an operator runs in a view layer
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_add_spawn_point,)
