"""Copy OMI settings from the active object to the other selected objects."""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty
from mathutils import Vector

from ..properties import object_physics
from ..properties.body import OMIColliderSettings, OMITriggerSettings
from ..properties.shape import PRIMITIVE_SHAPES, shape_extent
from .body import PART_ITEMS, PART_SETTINGS
from .common import MESH_LIKE_TYPES, OperatorResult, plural, selected_objects
from .shaping import fit_primitive, set_offset


def copy_group(source: bpy.types.PropertyGroup, target: bpy.types.PropertyGroup) -> None:
    """Copy every property of a PropertyGroup, nested groups and collections included, by RNA."""
    for prop in source.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        if isinstance(prop, bpy.types.PointerProperty) and isinstance(prop.fixed_type, bpy.types.PropertyGroup):
            copy_group(getattr(source, name), getattr(target, name))
        elif prop.type == 'COLLECTION':
            items = getattr(target, name)
            items.clear()
            for item in getattr(source, name):
                copy_group(item, items.add())
        elif not prop.is_readonly:
            value = getattr(source, name)
            setattr(target, name, value[:] if getattr(prop, "is_array", False) else value)


def _fit_own_shape(obj: bpy.types.Object, part: OMIColliderSettings | OMITriggerSettings, source: bpy.types.Object,
                   depsgraph: bpy.types.Depsgraph) -> int:
    """Fit the copied shape's type to the target's own mesh (1), or leave the copy (0: no mesh to fit to)."""
    shape = part.shape
    if part.is_compound or obj.type not in MESH_LIKE_TYPES:
        return 0
    if shape.shape_type in PRIMITIVE_SHAPES:
        try:
            fitted = fit_primitive(obj, shape, shape.shape_type, depsgraph)
        except ValueError:  # no vertices: the copied sizes stay
            return 0
        set_offset(shape, fitted.center, fitted.rotation, shape_extent(shape))
        return 1
    if shape.mesh_source == 'OBJECT' and shape.mesh_object is not None and shape.mesh_object.parent == source:
        shape.mesh_source, shape.mesh_object = 'SELF', None  # the source's own hull is not this object's
        set_offset(shape, Vector(), None)
        return 1
    return 0


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

    shape_sizes: EnumProperty(
        name="Shape Sizes",
        description="What the copied collider and trigger shapes measure on each target",
        items=[
            ('FIT', "Fit Each Object", "Each target's shape of the copied type is fitted to its own mesh (objects "
                                       "without a mesh keep the copied sizes)", 0),
            ('COPY', "Copy", "Every target gets the active object's sizes and offset", 1),
        ],
        default='FIT',
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        active = context.active_object
        if active is None or len(selected_objects(context)) < 2:
            cls.poll_message_set("Select the targets, then the object to copy from (active)")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        active = context.active_object
        assert active is not None, "poll: an active object to copy from"
        source = object_physics(active)
        targets = [obj for obj in selected_objects(context) if obj != active]
        depsgraph = context.evaluated_depsgraph_get()
        fitted = 0
        for obj in targets:
            settings = object_physics(obj)
            for part in self.parts:
                name = PART_SETTINGS[part]
                setattr(settings, f"use_{name}", getattr(source, f"use_{name}"))
                copy_group(getattr(source, name), getattr(settings, name))
                if self.shape_sizes == 'FIT' and name in {"collider", "trigger"} and getattr(settings, f"use_{name}"):
                    fitted += _fit_own_shape(obj, getattr(settings, name), active, depsgraph)
        sizes = f"; {plural(fitted, 'shape')} fitted to their own meshes" if fitted else ""
        self.report({'INFO'}, f"Copied physics of {active.name} to {plural(len(targets), 'object')}{sizes}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_copy_settings,)
