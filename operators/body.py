"""Make bodies of the selection, and clear OMI physics from it."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty

from ..io.blender.builder import rigid_body
from ..properties import homes, object_physics
from ..properties.body import MOTION_TYPE_ITEMS
from .common import OperatorResult, names, plural, selected_objects
from .hierarchy import Descendants

# An ENUM_FLAG set: the numbers are bit values (a 0 would never be selected).
PART_ITEMS = [
    ('MOTION', "Body", "Motion settings", 1),
    ('COLLIDER', "Collider", "Solid shape", 2),
    ('TRIGGER', "Trigger", "Non-solid shape", 4),
    ('JOINT', "Joint", "Joint settings", 8),
]
PART_SETTINGS = {'MOTION': "motion", 'COLLIDER': "collider", 'TRIGGER': "trigger", 'JOINT': "joint"}


def has_collider_below(obj: bpy.types.Object, descendants: Descendants | None = None) -> bool:
    """True when the object or a descendant carries a collider (the body has something to collide with)."""
    if object_physics(obj).use_collider:
        return True
    return any(object_physics(child).use_collider for child in (descendants or Descendants()).of(obj))


def clear_parts(obj: bpy.types.Object, parts: set[str]) -> bool:
    """Turn the parts off and reset them to defaults; True when anything was on."""
    settings = object_physics(obj)
    changed = False
    for part in parts:
        name = PART_SETTINGS[part]
        changed |= bool(getattr(settings, f"use_{name}"))
        setattr(settings, f"use_{name}", False)
        # Reset the group itself (property_unset on the whole `omi_physics` pointer crashes Blender 5.0.1).
        settings.property_unset(name)
    if 'TRIGGER' in parts:  # a gravity volume lives on a trigger: it goes with it
        changed |= settings.use_gravity
        settings.use_gravity = False
        settings.property_unset("gravity")
    return changed


class OMI_OT_make_body(bpy.types.Operator):
    """Make every selected object a physics body of the chosen motion type"""

    bl_idname = "omi.make_body"
    bl_label = "Make Body"
    bl_options = {'REGISTER', 'UNDO'}

    motion_type: EnumProperty(name="Motion", items=MOTION_TYPE_ITEMS, default='DYNAMIC')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not selected_objects(context):
            cls.poll_message_set("Select the objects to make bodies of")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = selected_objects(context)
        for obj in objects:
            settings = object_physics(obj)
            settings.use_motion = True
            settings.motion.motion_type = self.motion_type
        descendants = Descendants()
        bare = [obj for obj in objects if not has_collider_below(obj, descendants)]
        label = self.motion_type.lower()
        self.report({'INFO'}, f"Made {plural(len(objects), label + ' body')}")
        if bare:
            self.report({'WARNING'}, f"{names(bare)}: no collider yet; use Fit Collider to add one")
        return {'FINISHED'}


class OMI_OT_clear_physics(bpy.types.Operator):
    """Remove OMI physics settings from every selected object"""

    bl_idname = "omi.clear_physics"
    bl_label = "Clear Physics"
    bl_options = {'REGISTER', 'UNDO'}

    parts: EnumProperty(
        name="Parts",
        description="Which settings to clear",
        items=PART_ITEMS,
        options={'ENUM_FLAG'},
        default={'MOTION', 'COLLIDER', 'TRIGGER', 'JOINT'},
    )
    rigid_bodies: BoolProperty(
        name="Blender Rigid Bodies",
        description="Also remove the Blender rigid bodies and constraints of these objects",
        default=False,
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not selected_objects(context):
            cls.poll_message_set("Select the objects to clear")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = selected_objects(context)
        homes.release(objects)  # the rigid bodies may go: their masses stay
        cleared = [obj for obj in objects if clear_parts(obj, set(self.parts))]
        if self.rigid_bodies:
            rigid_body.clear_rigid_bodies(objects)
        self.report({'INFO'}, f"Cleared OMI physics from {plural(len(cleared), 'object')}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_make_body, OMI_OT_clear_physics)
