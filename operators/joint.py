"""Joints: create one between two bodies from a preset, re-apply presets, edit limits and drives."""

from __future__ import annotations

import math
from typing import Literal, cast

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty
from mathutils import Matrix

from ..properties import object_physics
from ..properties.body import OMITriggerSettings
from ..properties.joint import AXIS_ITEMS, DRIVE_KIND_ITEMS, JOINT_PRESET_ITEMS, OMIJointSettings
from .common import (
    OperatorMixin,
    OperatorResult,
    body_object,
    in_object_mode,
    link_like,
    remove_active,
    selected_objects,
)
from .hierarchy import Descendants
from .joint_place import LOCATION_ITEMS, joint_frame
from .joint_presets import LimitSpec, preset_limits, ranged_axis, write_limits


class _PresetProperties:
    """The preset and its parameters, shared by 'create joint' and 'apply preset'."""

    preset: EnumProperty(name="Preset", items=JOINT_PRESET_ITEMS, default='HINGE')
    axis: EnumProperty(name="Axis", description="The hinge's or slider's axis, in the joint's local axes",
                       items=AXIS_ITEMS, default='Z')
    angle_min: FloatProperty(name="Minimum Angle", subtype='ANGLE', default=-math.pi / 2)
    angle_max: FloatProperty(name="Maximum Angle", subtype='ANGLE', default=math.pi / 2)
    distance_min: FloatProperty(name="Minimum Offset", subtype='DISTANCE', default=-0.5)
    distance_max: FloatProperty(name="Maximum Offset", subtype='DISTANCE', default=0.5)
    slider_turns: BoolProperty(
        name="Turns",
        description="The slider may also turn around its axis, between the minimum and maximum angle",
    )

    def limits(self) -> list[LimitSpec]:
        if self.preset == 'HINGE':
            return preset_limits(self.preset, self.axis, self.angle_min, self.angle_max)
        turn = (self.angle_min, self.angle_max) if self.slider_turns else None
        return preset_limits(self.preset, self.axis, self.distance_min, self.distance_max, turn)

    def draw_preset(self, layout: bpy.types.UILayout) -> None:
        layout.prop(self, "preset")
        if self.preset == 'HINGE':
            layout.prop(self, "axis")
            layout.prop(self, "angle_min")
            layout.prop(self, "angle_max")
        elif self.preset == 'SLIDER':
            layout.prop(self, "axis")
            layout.prop(self, "distance_min")
            layout.prop(self, "distance_max")
            layout.prop(self, "slider_turns")
            if self.slider_turns:
                layout.prop(self, "angle_min")
                layout.prop(self, "angle_max")


def _new_empty(context: bpy.types.Context, name: str, parent: bpy.types.Object, world: Matrix, *,
               display: Literal['ARROWS', 'PLAIN_AXES'], size: float) -> bpy.types.Object:
    """An empty parented to `parent` whose world matrix is `world` (parent inverse left at identity)."""
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = display
    empty.empty_display_size = size
    link_like(empty, parent, context)
    empty.parent = parent
    empty.matrix_parent_inverse = Matrix.Identity(4)
    empty.matrix_basis = parent.matrix_world.inverted_safe() @ world
    return empty


class OMI_OT_create_joint(_PresetProperties, bpy.types.Operator):
    """Join the two selected bodies with a joint where they meet, at the active object or at the 3D cursor"""

    bl_idname = "omi.create_joint"
    bl_label = "Create Joint"
    bl_options = {'REGISTER', 'UNDO'}

    location: EnumProperty(name="Location", items=LOCATION_ITEMS, default='BETWEEN')
    enable_collision: BoolProperty(name="Collide Connected", description="Let the two bodies collide")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if len(selected_objects(context)) != 2 or context.active_object not in selected_objects(context):
            cls.poll_message_set("Select exactly two bodies, one of them active")
            return False
        if not in_object_mode(context):
            cls.poll_message_set("Switch to Object Mode")
            return False
        return True

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        assert layout is not None, "Blender draws an operator's options in its layout"
        layout.use_property_split = True
        layout.prop(self, "location")
        layout.prop(self, "enable_collision")
        self.draw_preset(layout)

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        active = context.active_object
        assert active is not None, "poll: two selected objects, one of them active"
        other = next(obj for obj in selected_objects(context) if obj != active)
        bodies = {obj: body_object(obj) for obj in (active, other)}
        missing = [obj.name for obj, body in bodies.items() if body is None]
        if missing:
            self.report({'ERROR'}, f"{', '.join(missing)}: not a body; use Make Body first")
            return {'CANCELLED'}
        if bodies[active] == bodies[other]:
            self.report({'ERROR'}, "Both objects belong to the same body")
            return {'CANCELLED'}
        # The joint lives under the dynamic body where there is one (ERRATA); the active object wins ties.
        def is_dynamic(obj: bpy.types.Object) -> bool:
            body = cast(bpy.types.Object, bodies[obj])  # none is missing (above)
            return object_physics(body).motion.motion_type == 'DYNAMIC'

        host, connected = (other, active) if is_dynamic(other) and not is_dynamic(active) else (active, other)
        frame = joint_frame(context, self.location, active, other)

        joint_obj = _new_empty(context, f"{host.name}.joint", host, frame, display='ARROWS', size=0.25)
        anchor = _new_empty(context, f"{connected.name}.anchor", connected, frame, display='PLAIN_AXES', size=0.15)
        settings = object_physics(joint_obj)
        settings.use_joint = True
        settings.joint.connected_object = anchor
        settings.joint.enable_collision = self.enable_collision
        settings.joint.preset = self.preset
        write_limits(settings.joint, self.limits())
        if not (is_dynamic(host) or is_dynamic(connected)):
            self.report({'WARNING'}, "Neither body is dynamic: the joint will not move anything")
        self.report({'INFO'}, f"{self.preset.title()} joint {joint_obj.name} joins {host.name} to {connected.name}")
        return {'FINISHED'}


def _active_joint(context: bpy.types.Context) -> OMIJointSettings | None:
    obj = context.active_object
    return object_physics(obj).joint if obj is not None and object_physics(obj).use_joint else None


class _JointOperator(OperatorMixin):
    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if _active_joint(context) is None:
            cls.poll_message_set("The active object is not a joint")
            return False
        return True


class OMI_OT_joint_apply_preset(_PresetProperties, _JointOperator, bpy.types.Operator):
    """Replace the active joint's limits with a preset (fixed, pin, hinge, slider)"""

    bl_idname = "omi.joint_apply_preset"
    bl_label = "Apply Joint Preset"
    bl_options = {'REGISTER', 'UNDO'}

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        assert layout is not None, "Blender draws an operator's options in its layout"
        layout.use_property_split = True
        self.draw_preset(layout)

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        obj, joint = context.active_object, _active_joint(context)
        assert obj is not None and joint is not None, "poll: the active object is a joint"
        joint.preset = self.preset
        if self.preset != 'CUSTOM':
            write_limits(joint, self.limits())
        self.report({'INFO'}, f"{obj.name} is now a {self.preset.lower()} joint")
        return {'FINISHED'}


class OMI_OT_joint_limit_add(_JointOperator, bpy.types.Operator):
    """Add a limit to the active joint (the joint becomes custom)"""

    bl_idname = "omi.joint_limit_add"
    bl_label = "Add Joint Limit"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        joint = _active_joint(context)
        assert joint is not None, "poll: the active object is a joint"
        joint.limits.add()
        joint.limits_active_index = len(joint.limits) - 1
        joint.preset = 'CUSTOM'
        return {'FINISHED'}


class OMI_OT_joint_limit_remove(_JointOperator, bpy.types.Operator):
    """Remove the active limit of the active joint"""

    bl_idname = "omi.joint_limit_remove"
    bl_label = "Remove Joint Limit"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        joint = _active_joint(context)
        assert joint is not None, "poll: the active object is a joint"
        if not remove_active(joint.limits, joint, "limits_active_index"):
            return {'CANCELLED'}
        joint.preset = 'CUSTOM'
        return {'FINISHED'}


class OMI_OT_joint_drive_add(_JointOperator, bpy.types.Operator):
    """Add a motor (target velocity) or spring (target position) on the joint's free axis"""

    bl_idname = "omi.joint_drive_add"
    bl_label = "Add Joint Drive"
    bl_options = {'REGISTER', 'UNDO'}

    kind: EnumProperty(name="Kind", items=DRIVE_KIND_ITEMS, default='MOTOR')

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        joint = _active_joint(context)
        assert joint is not None, "poll: the active object is a joint"
        drive = joint.drives.add()
        ranged = ranged_axis(joint)
        if ranged is not None:  # drive what the hinge turns or the slider slides on
            drive.drive_type = ranged[0]
            drive.axis = AXIS_ITEMS[ranged[1]][0]
        if self.kind == 'MOTOR':
            drive.use_velocity_target = True
            drive.velocity_target = 1.0
            drive.damping = 10.0
        else:
            drive.use_position_target = True
            drive.stiffness = 100.0
            drive.damping = 1.0
        joint.drives_active_index = len(joint.drives) - 1
        self.report({'INFO'}, f"Added a {self.kind.lower()} on {drive.drive_type.lower()} {drive.axis}")
        return {'FINISHED'}


class OMI_OT_joint_drive_remove(_JointOperator, bpy.types.Operator):
    """Remove the active drive of the active joint"""

    bl_idname = "omi.joint_drive_remove"
    bl_label = "Remove Joint Drive"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        joint = _active_joint(context)
        assert joint is not None, "poll: the active object is a joint"
        return {'FINISHED'} if remove_active(joint.drives, joint, "drives_active_index") else {'CANCELLED'}


def _active_compound_trigger(context: bpy.types.Context) -> OMITriggerSettings | None:
    obj = context.active_object
    if obj is None:
        return None
    settings = object_physics(obj)
    return settings.trigger if settings.use_trigger and settings.trigger.is_compound else None


class _CompoundTriggerOperator(OperatorMixin):
    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if _active_compound_trigger(context) is None:
            cls.poll_message_set("The active object is not a compound trigger")
            return False
        return True


class OMI_OT_trigger_node_add(_CompoundTriggerOperator, bpy.types.Operator):
    """Add the selected descendant triggers (or an empty row) to the active compound trigger"""

    bl_idname = "omi.trigger_node_add"
    bl_label = "Add Trigger Part"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        active, trigger = context.active_object, _active_compound_trigger(context)
        assert active is not None and trigger is not None, "poll: the active object is a compound trigger"
        present = {node.target for node in trigger.nodes}
        descendants = set(Descendants().of(active))
        parts: list[bpy.types.Object | None] = [obj for obj in selected_objects(context)
                 if obj in descendants and object_physics(obj).use_trigger and obj not in present]
        for obj in parts or [None]:
            trigger.nodes.add().target = obj
        trigger.nodes_active_index = len(trigger.nodes) - 1
        return {'FINISHED'}


class OMI_OT_trigger_node_remove(_CompoundTriggerOperator, bpy.types.Operator):
    """Remove the active part of the active compound trigger"""

    bl_idname = "omi.trigger_node_remove"
    bl_label = "Remove Trigger Part"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        trigger = _active_compound_trigger(context)
        assert trigger is not None, "poll: the active object is a compound trigger"
        return {'FINISHED'} if remove_active(trigger.nodes, trigger, "nodes_active_index") else {'CANCELLED'}


CLASSES: tuple[type, ...] = (
    OMI_OT_create_joint, OMI_OT_joint_apply_preset, OMI_OT_joint_limit_add, OMI_OT_joint_limit_remove,
    OMI_OT_joint_drive_add, OMI_OT_joint_drive_remove, OMI_OT_trigger_node_add, OMI_OT_trigger_node_remove,
)
