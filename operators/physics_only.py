"""Physics Only: a collider or trigger object whose mesh is for the physics alone (a collision proxy), drawn
as wire, never rendered, and exported with no render mesh on its node (the shape keeps its values; a convex
or triangle mesh shape still references the mesh)."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty

from ..io.blender.tables import markers
from ..properties import object_physics
from .common import OperatorResult, plural, selected_objects


def _shaped(obj: bpy.types.Object) -> bool:
    settings = object_physics(obj)
    return obj.type == 'MESH' and (settings.use_collider or settings.use_trigger)


class OMI_OT_physics_only(bpy.types.Operator):
    """Make the selected colliders and triggers physics only: wire, not rendered, exported without a render
    mesh (off: their mesh is visible geometry again)"""

    bl_idname = "omi.physics_only"
    bl_label = "Physics Only"
    bl_options = {'REGISTER', 'UNDO'}

    physics_only: BoolProperty(name="Physics Only", default=True,
                               description="The mesh is for the physics alone: never rendered or exported as a "
                                           "visible mesh")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not any(_shaped(obj) for obj in selected_objects(context)):
            cls.poll_message_set("Select mesh objects with a collider or trigger")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = [obj for obj in selected_objects(context) if _shaped(obj)]
        for obj in objects:
            if self.physics_only:
                markers.mark_shape_mesh(obj)
            else:
                markers.unmark_shape_mesh(obj)
        state = "physics only" if self.physics_only else "visible geometry again"
        self.report({'INFO'}, f"{plural(len(objects), 'object')}: {state}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_physics_only,)
