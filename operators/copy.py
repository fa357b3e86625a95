"""Copy OMI settings from the active object to the other selected objects."""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty

from ..properties import object_physics
from .body import PART_ITEMS, PART_SETTINGS
from .common import plural, selected_objects


def copy_group(source: bpy.types.PropertyGroup, target: bpy.types.PropertyGroup) -> None:
    """Copy every property of a PropertyGroup, nested groups and collections included, by RNA."""
    for prop in source.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        if prop.type == 'POINTER' and isinstance(prop.fixed_type, bpy.types.PropertyGroup):
            copy_group(getattr(source, name), getattr(target, name))
        elif prop.type == 'COLLECTION':
            items = getattr(target, name)
            items.clear()
            for item in getattr(source, name):
                copy_group(item, items.add())
        elif not prop.is_readonly:
            value = getattr(source, name)
            setattr(target, name, value[:] if getattr(prop, "is_array", False) else value)


class OMI_OT_copy_settings(bpy.types.Operator):
    """Copy the active object's OMI settings to the other selected objects"""

    bl_idname = "omi.copy_settings"
    bl_label = "Copy Physics from Active"
    bl_options = {'REGISTER', 'UNDO'}

    parts: EnumProperty(
        name="Parts",
        description="Which settings to copy",
        items=PART_ITEMS,
        options={'ENUM_FLAG'},
        default={'MOTION', 'COLLIDER', 'TRIGGER'},
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        active = context.active_object
        if active is None or len(selected_objects(context)) < 2:
            cls.poll_message_set("Select the targets, then the object to copy from (active)")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        active = context.active_object
        source = object_physics(active)
        targets = [obj for obj in selected_objects(context) if obj != active]
        for obj in targets:
            settings = object_physics(obj)
            for part in self.parts:
                name = PART_SETTINGS[part]
                setattr(settings, f"use_{name}", getattr(source, f"use_{name}"))
                copy_group(getattr(source, name), getattr(settings, name))
        self.report({'INFO'}, f"Copied physics of {active.name} to {plural(len(targets), 'object')}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_copy_settings,)
