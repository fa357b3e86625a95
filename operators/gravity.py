"""Make gravity volumes from the selection, and edit a line gravity's points.

A gravity volume must be a base trigger (no motion, no collider, not a compound trigger's member). A
selected object that is one gets the volume itself; any other (a planet's body, a pad's collider) gets a new
empty child at its origin that carries a sphere trigger `reach` times the object's size and the volume, with
the unit distance at the object's surface (the gravity there is the strength).
"""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty, FloatProperty
from mathutils import Matrix

from ..properties import object_physics
from ..properties.gravity import GRAVITY_TYPE_ITEMS
from .common import OperatorResult, names, plural, scene_of, selected_objects


def is_base_trigger(obj: bpy.types.Object) -> bool:
    settings = object_physics(obj)
    return settings.use_trigger and not settings.use_motion and not settings.use_collider


def _radius(obj: bpy.types.Object) -> float:
    """Half the object's largest world-space dimension (1 for an object without extent)."""
    return max(obj.dimensions[:]) / 2 if max(obj.dimensions[:]) > 0 else 1.0


def _volume_child(context: bpy.types.Context, obj: bpy.types.Object, reach: float) -> bpy.types.Object:
    """A new empty at the object's origin, its child, with a sphere trigger `reach` times its size."""
    empty = bpy.data.objects.new(f"{obj.name} Gravity", None)
    empty.empty_display_type = 'SPHERE'
    for collection in obj.users_collection or (scene_of(context).collection,):
        collection.objects.link(empty)
    empty.parent = obj
    empty.matrix_parent_inverse = obj.matrix_world.inverted_safe()
    # the newest stubs' Matrix.Translation takes no Vector
    empty.matrix_world = Matrix.Translation(obj.matrix_world.translation)  # type: ignore[arg-type]  # the newest stubs' Translation takes no Vector
    settings = object_physics(empty)
    settings.use_trigger = True
    settings.trigger.shape.shape_type = 'SPHERE'
    settings.trigger.shape.radius = reach * _radius(obj)
    empty.empty_display_size = settings.trigger.shape.radius
    return empty


class OMI_OT_gravity_volume_from_selection(bpy.types.Operator):
    """Give each selected object a gravity volume: on itself when it is a plain trigger, else on a new trigger
    child reaching around it"""

    bl_idname = "omi.gravity_volume_from_selection"
    bl_label = "Make Gravity Volume"
    bl_options = {'REGISTER', 'UNDO'}

    gravity_type: EnumProperty(name="Gravity", items=GRAVITY_TYPE_ITEMS, default='POINT')
    reach: FloatProperty(name="Reach (× Size)", description="The new trigger's radius, in object sizes", default=3.0,  # noqa: RUF001 - the multiplication sign
                         min=1.0, soft_max=20.0)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return bool(selected_objects(context))

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        made = []
        for obj in selected_objects(context):
            volume = obj if is_base_trigger(obj) else _volume_child(context, obj, self.reach)
            settings = object_physics(volume)
            settings.use_gravity = True
            settings.gravity.gravity_type = self.gravity_type
            if self.gravity_type != 'DIRECTIONAL' and volume is not obj:
                settings.gravity.unit_distance = _radius(obj)
            made.append(volume)
        self.report({'INFO'}, f"{plural(len(made), 'gravity volume')}: {names(made)}")
        return {'FINISHED'}


class OMI_OT_gravity_point_add(bpy.types.Operator):
    """Add a point to the active object's line gravity (one metre on from the last)"""

    bl_idname = "omi.gravity_point_add"
    bl_label = "Add Point"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and object_physics(context.object).use_gravity

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        obj = context.object
        assert obj is not None, "poll: an active object"
        points = object_physics(obj).gravity.points
        last = points[-1].co.copy() if len(points) else None
        points.add().co = (0.0, 0.0, 0.0) if last is None else (last.x, last.y, last.z + 1.0)
        return {'FINISHED'}


class OMI_OT_gravity_point_remove(bpy.types.Operator):
    """Remove the last point of the active object's line gravity"""

    bl_idname = "omi.gravity_point_remove"
    bl_label = "Remove Point"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and len(object_physics(context.object).gravity.points) > 0

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        obj = context.object
        assert obj is not None, "poll: an active object"
        points = object_physics(obj).gravity.points
        points.remove(len(points) - 1)
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_gravity_volume_from_selection, OMI_OT_gravity_point_add,
                             OMI_OT_gravity_point_remove)
