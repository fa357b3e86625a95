"""Body settings on an object: motion, collider and trigger (OMI_physics_body), in Blender axes."""

from __future__ import annotations

import bpy
from bpy.props import (
    BoolProperty,
    BoolVectorProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    PointerProperty,
    StringProperty,
)

from ..io.omi import model
from . import display, homes
from .shape import OMIShapeSettings

MOTION_TYPE_ITEMS = [
    ('STATIC', "Static", "Collides but never moves: level geometry", 'LOCKED', 0),
    ('KINEMATIC', "Kinematic", "Collides and is moved by animation or scripts: moving platforms", 'ANIM', 1),
    ('DYNAMIC', "Dynamic", "Simulated: falls, collides and is pushed around", 'PHYSICS', 2),
]
MOTION_TYPE_TO_OMI = {item[0]: model.motion_type(item[0].lower()) for item in MOTION_TYPE_ITEMS}
MOTION_TYPE_FROM_OMI = {value: key for key, value in MOTION_TYPE_TO_OMI.items()}


class OMIMotionSettings(bpy.types.PropertyGroup):
    """How physics moves the body. Vectors are in the object's local Blender axes."""

    motion_type: EnumProperty(
        name="Motion",
        description="How the body moves in the simulation",
        items=MOTION_TYPE_ITEMS,
        default='DYNAMIC',
    )
    mass: FloatProperty(
        name="Mass",
        description=("Mass of the body in kilograms. Once the object has a Blender rigid body this is its Rigid "
                     "Body Mass (one value: the simulation and the export read it)"),
        subtype='NONE',
        unit='MASS',
        precision=display.MASS,
        default=model.DEFAULT_MASS,
        min=0.0,
        soft_min=0.001,
        soft_max=10000.0,
        get=homes.get_mass,
        set=homes.set_mass,
    )
    infinite_mass: BoolProperty(
        name="Infinite Mass",
        description="Nothing pushes the body (KHR's mass 0); OMI cannot write it",
        default=False,
    )
    use_center_of_mass: BoolProperty(
        name="Set Center of Mass",
        description=("Give the center of mass here (on for new bodies: the origin, where Blender's simulation "
                     "puts it). Off: the engine computes it from the colliders (KHR leaves it out, as a KHR file "
                     "without centerOfMass says; OMI cannot say it and its readers use the origin)"),
        # on: what Blender simulates (the origin) and what every motion meant before version 3 (migrate)
        default=True,
    )
    center_of_mass: FloatVectorProperty(
        name="Center of Mass",
        description=("Offset of the center of mass from the object's origin, used when Set Center of Mass is on; "
                     "not every engine supports it"),
        subtype='TRANSLATION',
        unit='LENGTH',
        precision=display.LENGTH,
        size=3,
    )
    inertia_diagonal: FloatVectorProperty(
        name="Inertia",
        description="Moments of inertia around the principal axes (kg·m²); zero lets the engine compute them",
        subtype='XYZ',
        precision=display.FACTOR,
        size=3,
        min=0.0,
        soft_max=1000.0,
    )
    infinite_inertia: BoolVectorProperty(
        name="Infinite Inertia",
        description="Nothing turns the body about these principal axes (KHR's inertia 0); OMI cannot write it",
        subtype='XYZ',
        size=3,
    )
    inertia_orientation: FloatVectorProperty(
        name="Inertia Orientation",
        description="Rotation of the principal axes of inertia relative to the object",
        subtype='QUATERNION',
        precision=display.FACTOR,
        size=4,
        default=(1.0, 0.0, 0.0, 0.0),
    )
    linear_velocity: FloatVectorProperty(
        name="Linear Velocity",
        description="Velocity the body starts with, in metres per second",
        subtype='VELOCITY',
        unit='VELOCITY',
        precision=display.VELOCITY,
        size=3,
    )
    angular_velocity: FloatVectorProperty(
        name="Angular Velocity",
        description="Spin the body starts with, per second around each local axis (stored in radians per second)",
        subtype='EULER',
        unit='ROTATION',
        precision=display.ANGLE,
        size=3,
    )
    gravity_factor: FloatProperty(
        name="Gravity Factor",
        description="Multiplier of gravity for this body: 0 floats, 1 falls normally",
        precision=display.FACTOR,
        default=model.DEFAULT_GRAVITY_FACTOR,
        soft_min=-10.0,
        soft_max=10.0,
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)


class OMIColliderSettings(bpy.types.PropertyGroup):
    """A solid shape. With no shape of its own (`is_compound`), it groups its children's colliders."""

    is_compound: BoolProperty(
        name="Compound",
        description="This object has no shape itself: the colliders of its children make one collider",
        default=False,
    )
    shape: PointerProperty(type=OMIShapeSettings)
    physics_material: StringProperty(
        name="Physics Material",
        description="Physics material from the scene's library; empty uses the default (friction 0.6, no bounce)",
    )
    collision_filter: StringProperty(
        name="Collision Filter",
        description="Collision filter from the scene's library; empty collides with everything",
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)


class OMITriggerNode(bpy.types.PropertyGroup):
    """One member of a compound trigger: a descendant object with its own trigger shape."""

    target: PointerProperty(name="Object", type=bpy.types.Object)


class OMITriggerSettings(bpy.types.PropertyGroup):
    """A non-solid volume that detects bodies entering it."""

    is_compound: BoolProperty(
        name="Compound",
        description="This object has no shape itself: the listed descendant triggers make one trigger",
        default=False,
    )
    shape: PointerProperty(type=OMIShapeSettings)
    nodes: CollectionProperty(type=OMITriggerNode)
    nodes_active_index: bpy.props.IntProperty(options={'HIDDEN'})
    collision_filter: StringProperty(
        name="Collision Filter",
        description="Collision filter from the scene's library; empty detects everything",
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)


CLASSES: tuple[type, ...] = (OMIMotionSettings, OMIColliderSettings, OMITriggerNode, OMITriggerSettings)
