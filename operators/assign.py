"""Assign a scene-library physics material or collision filter to every selected collider/trigger."""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty

from ..properties import object_physics, scene_physics
from .common import OperatorResult, plural, scene_of, selected_objects, uses

_NONE = "__OMI_NONE__"  # enum identifier of "no entry"
# Blender keeps only pointers to dynamic enum strings: keep the item tuples alive between calls.
_ITEM_CACHE: dict[str, list[tuple]] = {}


def _library_items(context: bpy.types.Context | None, collection: str, none_text: str) -> list[tuple]:
    entries = getattr(scene_physics(scene_of(context)), collection) if context and context.scene else ()
    items = [(_NONE, none_text, "Use the default", 'X', 0)]
    items += [(entry.name, entry.name, "", 'NONE', index + 1) for index, entry in enumerate(entries)]
    _ITEM_CACHE[collection] = items
    return items


def _material_items(_self: bpy.types.Operator, context: bpy.types.Context | None) -> list[tuple]:
    return _library_items(context, "physics_materials", "Default Material")


def _filter_items(_self: bpy.types.Operator, context: bpy.types.Context | None) -> list[tuple]:
    return _library_items(context, "collision_filters", "Collide With All")


class OMI_OT_assign_material(bpy.types.Operator):
    """Give every selected collider a physics material from the scene library"""

    bl_idname = "omi.assign_material"
    bl_label = "Assign Physics Material"
    bl_options = {'REGISTER', 'UNDO'}
    bl_property = "material"

    material: EnumProperty(name="Material", items=_material_items)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not any(object_physics(obj).use_collider for obj in selected_objects(context)):
            cls.poll_message_set("Select objects that have a collider")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        value = "" if self.material == _NONE else self.material
        colliders = [obj for obj in selected_objects(context) if object_physics(obj).use_collider]
        for obj in colliders:
            object_physics(obj).collider.physics_material = value
        count = len(colliders)
        self.report({'INFO'}, f"{plural(count, 'collider')} now {uses(count)} {value or 'the default material'}")
        return {'FINISHED'}


class OMI_OT_assign_filter(bpy.types.Operator):
    """Give every selected collider and trigger a collision filter from the scene library"""

    bl_idname = "omi.assign_filter"
    bl_label = "Assign Collision Filter"
    bl_options = {'REGISTER', 'UNDO'}
    bl_property = "collision_filter"

    collision_filter: EnumProperty(name="Filter", items=_filter_items)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not any(object_physics(obj).use_collider or object_physics(obj).use_trigger
                   for obj in selected_objects(context)):
            cls.poll_message_set("Select objects that have a collider or trigger")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        value = "" if self.collision_filter == _NONE else self.collision_filter
        count = 0
        for obj in selected_objects(context):
            settings = object_physics(obj)
            for used, part in ((settings.use_collider, settings.collider), (settings.use_trigger, settings.trigger)):
                if used:
                    part.collision_filter = value
                    count += 1
        self.report({'INFO'}, f"{plural(count, 'shape')} now {uses(count)} {value or 'no filter'}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_assign_material, OMI_OT_assign_filter)
