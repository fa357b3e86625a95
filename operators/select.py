"""Select one object by name: the joint panel's buttons for the two bodies a joint joins."""

from __future__ import annotations

import bpy
from bpy.props import StringProperty

from .common import OperatorResult, scene_of, view_layer_of


def select_only(view_layer: bpy.types.ViewLayer, obj: bpy.types.Object) -> bool:
    """Make `obj` the only selected object and the active one; False when it is not in the view layer."""
    for other in view_layer.objects:
        if other.select_get(view_layer=view_layer):
            other.select_set(False, view_layer=view_layer)
    if obj.name not in view_layer.objects:
        return False
    obj.select_set(True, view_layer=view_layer)
    view_layer.objects.active = obj
    return True


class OMI_OT_select_object(bpy.types.Operator):
    """Select this object and make it active"""

    bl_idname = "omi.select_object"
    bl_label = "Select Object"
    bl_options = {'REGISTER', 'UNDO'}

    name: StringProperty(name="Object", description="Name of the object to select")

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        obj = scene_of(context).objects.get(self.name)
        if obj is None or not select_only(view_layer_of(context), obj):
            self.report({'WARNING'}, f"No object {self.name!r} in the view layer")
            return {'CANCELLED'}
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_select_object,)
