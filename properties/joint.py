"""Joint settings on an object (OMI_physics_joint): the object is the joint's attachment frame.

Axes are the joint object's local Blender axes (X, Y, Z); conversion to glTF axis indices and signs
happens once, in the model conversion.
"""

from __future__ import annotations

from collections.abc import Callable

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..io.blender.tables import constraints
from ..io.omi import conventions
from . import convert_common, display

AXIS_ITEMS = [(letter, letter, "", index) for index, letter in enumerate(constraints.AXIS_IDS)]

LIMIT_KIND_ITEMS = [
    ('LINEAR', "Linear", "Limits translation along the chosen axes (metres)", 0),
    ('ANGULAR', "Angular", "Limits rotation around the chosen axes (radians)", 1),
]
DRIVE_TYPE_ITEMS = [
    ('LINEAR', "Linear", "Pushes along an axis", 0),
    ('ANGULAR', "Angular", "Turns around an axis", 1),
]
DRIVE_MODE_ITEMS = [
    ('FORCE', "Force", "Stiffness and damping give a force (or torque)", 0),
    ('ACCELERATION', "Acceleration", "Stiffness and damping give an acceleration, independent of mass", 1),
]
DRIVE_KIND_ITEMS = [
    ('MOTOR', "Motor", "Reaches a target velocity", 0),
    ('SPRING', "Spring", "Pulls towards a target position or angle", 1),
]
JOINT_PRESET_ITEMS = [
    ('FIXED', "Fixed", "Welds the two bodies together", 0),
    ('PIN', "Pin", "Keeps the two attachment points together; rotation is free", 1),
    ('HINGE', "Hinge", "Rotation around one axis within a range; everything else fixed", 2),
    ('SLIDER', "Slider", "Translation along one axis within a range; everything else fixed", 3),
    ('CUSTOM', "Custom", "Any combination of limits and drives", 4),
]


def _unit(self: OMIJointLimit) -> str:
    return 'LENGTH' if self.kind == 'LINEAR' else 'ROTATION'


class OMIJointLimit(bpy.types.PropertyGroup):
    """Constrains relative motion on some axes to [min, max], optionally soft."""

    kind: EnumProperty(name="Kind", items=LIMIT_KIND_ITEMS, default='LINEAR')
    axis_x: BoolProperty(name="X", description="Limit along/around the local X axis", default=True)
    axis_y: BoolProperty(name="Y", description="Limit along/around the local Y axis", default=True)
    axis_z: BoolProperty(name="Z", description="Limit along/around the local Z axis", default=True)
    use_min: BoolProperty(name="Use Minimum", description="Bound the range from below", default=True)
    use_max: BoolProperty(name="Use Maximum", description="Bound the range from above", default=True)
    min_linear: FloatProperty(name="Minimum", subtype='DISTANCE', description="Lowest allowed offset", default=0.0,
                              precision=display.LENGTH)
    max_linear: FloatProperty(name="Maximum", subtype='DISTANCE', description="Highest allowed offset", default=0.0,
                              precision=display.LENGTH)
    min_angular: FloatProperty(
        name="Minimum", subtype='ANGLE', description="Lowest allowed angle", default=0.0,
        soft_min=-conventions.ANGULAR_LIMIT_BOUND, precision=display.ANGLE,
    )
    max_angular: FloatProperty(
        name="Maximum", subtype='ANGLE', description="Highest allowed angle", default=0.0,
        soft_max=conventions.ANGULAR_LIMIT_BOUND, precision=display.ANGLE,
    )
    use_stiffness: BoolProperty(
        name="Soft Limit",
        description="Let the limit stretch like a spring instead of holding rigidly",
        default=False,
    )
    stiffness: FloatProperty(
        name="Stiffness",
        description="Spring constant past the limit (N/m, or N·m/rad for angular limits)",
        default=0.0,
        min=0.0,
        soft_max=10000.0,
    )
    damping: FloatProperty(
        name="Damping",
        description="Damping past the limit (N·s/m, or N·m·s/rad for angular limits)",
        default=0.0,
        min=0.0,
        soft_max=1000.0,
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)

    @property
    def axes(self) -> tuple[int, ...]:
        return tuple(i for i, used in enumerate((self.axis_x, self.axis_y, self.axis_z)) if used)


def _chosen(key: str) -> Callable[[OMIJointDrive, bpy.types.Context | None], None]:
    """An enum's update: once the setting is set, the file's own spelling kept for it (a drive mode 'servo'
    shown as Force) is not written back any more: the value chosen wins, even if it is the one shown."""

    def update(self: OMIJointDrive, _context: bpy.types.Context | None) -> None:
        kept = convert_common.kept(self.unknown_json)
        if key in kept:
            rest = {name: value for name, value in kept.items() if name != key}
            self.unknown_json = convert_common.kept_values(rest).text

    return update


class OMIJointDrive(bpy.types.PropertyGroup):
    """A motor (target velocity) or spring (target position) on one degree of freedom."""

    drive_type: EnumProperty(name="Type", items=DRIVE_TYPE_ITEMS, default='ANGULAR', update=_chosen("type"))
    mode: EnumProperty(name="Mode", items=DRIVE_MODE_ITEMS, default='FORCE', update=_chosen("mode"))
    axis: EnumProperty(name="Axis", items=AXIS_ITEMS, default='X')
    use_max_force: BoolProperty(name="Limit Force", description="Cap the force or torque of the drive")
    max_force: FloatProperty(
        name="Max Force",
        description="Largest force (N) or torque (N·m) the drive may apply",
        default=1000.0,
        min=0.0,
        soft_max=100000.0,
    )
    use_position_target: BoolProperty(name="Position Target", description="Act as a spring towards a target")
    position_target_linear: FloatProperty(name="Target", subtype='DISTANCE', description="Target offset",
                                          precision=display.LENGTH)
    position_target_angular: FloatProperty(name="Target", subtype='ANGLE', description="Target angle",
                                           precision=display.ANGLE)
    use_velocity_target: BoolProperty(name="Velocity Target", description="Act as a motor towards a velocity")
    velocity_target: FloatProperty(
        name="Target Velocity",
        description="Target speed (m/s, or rad/s for angular drives)",
        precision=display.VELOCITY,
        default=0.0,
    )
    stiffness: FloatProperty(
        name="Stiffness", description="Spring constant towards the position target", default=0.0, min=0.0
    )
    damping: FloatProperty(name="Damping", description="Strength towards the velocity target", default=0.0, min=0.0)
    # keys the file held that the model does not read, and the file's spelling of a type or mode the
    # settings cannot show (written back while the setting still shows its fallback)
    unknown_json: StringProperty(options={'HIDDEN'})


class OMIJointSettings(bpy.types.PropertyGroup):
    """This object is a joint frame connected to the frame of another object."""

    connected_object: PointerProperty(
        name="Connected To",
        description="The other attachment frame: an object that is, or is inside, another body",
        type=bpy.types.Object,
    )
    enable_collision: BoolProperty(
        name="Collide Connected",
        description="Let the two joined bodies collide with each other",
        default=False,
    )
    preset: EnumProperty(
        name="Preset",
        description="The kind of joint these limits describe (set by the joint operators)",
        items=JOINT_PRESET_ITEMS,
        default='CUSTOM',
    )
    limits: CollectionProperty(type=OMIJointLimit)
    limits_active_index: IntProperty(options={'HIDDEN'})
    drives: CollectionProperty(type=OMIJointDrive)
    drives_active_index: IntProperty(options={'HIDDEN'})
    unknown_json: StringProperty(options={'HIDDEN'})  # the node-level joint object's unknown keys (JSON)
    settings_unknown_json: StringProperty(options={'HIDDEN'})  # its physicsJoints entry's


CLASSES: tuple[type, ...] = (OMIJointLimit, OMIJointDrive, OMIJointSettings)
