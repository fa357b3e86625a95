"""A gravity volume on a trigger object (OMI_physics_gravity), in the object's local Blender axes.

The trigger's shape is where the volume acts; these settings say which way gravity points inside it and how
strongly (`gravity_type`), and how it combines with overlapping volumes (priority, replace, stop). Only a
base trigger may carry one (a trigger without motion or collider that is not a compound trigger's member):
validation says so, and export leaves a misplaced one out with a warning.

Blender's rigid bodies have one gravity for the whole scene (`scene.gravity`): they cannot feel a volume's
mass-independent acceleration, and force fields apply forces (mass-dependent, with their own falloff laws),
so these settings are kept, drawn and exported, never simulated by Blender (panels say so once).
"""

from __future__ import annotations

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..io.omi import model
from .shape import OMIShapeSettings

GRAVITY_TYPE_ITEMS = [  # explicit, stable numbers: files store them
    ('DIRECTIONAL', "Directional", "Uniform gravity along one direction of the object: pads, wind tunnels",
     'EMPTY_SINGLE_ARROW', 0),
    ('POINT', "Point", "Towards the object's origin: round planets", 'PIVOT_CURSOR', 1),
    ('DISC', "Disc", "Towards the nearest point of a filled circle in the local XY plane: flat worlds",
     'MESH_CIRCLE', 2),
    ('TORUS', "Torus", "Towards the nearest point of a circle in the local XY plane: ring worlds", 'MESH_TORUS', 3),
    ('LINE', "Line", "Towards the nearest point of a polyline: capsule, cylinder and snake-like worlds",
     'IPO_LINEAR', 4),
    ('SHAPED', "Shaped", "Towards the nearest point of a physics shape: cube planets, walkable walls",
     'MESH_CUBE', 5),
]
GRAVITY_TYPE_TO_OMI = {item[0]: model.gravity_type(item[0].lower()) for item in GRAVITY_TYPE_ITEMS}
GRAVITY_TYPE_FROM_OMI = {value: key for key, value in GRAVITY_TYPE_TO_OMI.items()}
DEFAULT_STRENGTH = 9.80665  # standard gravity; the spec has no default (the file always states it)


class OMIGravityPoint(bpy.types.PropertyGroup):
    """One point of a line gravity, in the object's local axes."""

    co: FloatVectorProperty(name="Point", subtype='TRANSLATION', unit='LENGTH', size=3, precision=3)


class OMIGravitySettings(bpy.types.PropertyGroup):
    """A gravity volume: its type's values, its strength and how it combines with others."""

    gravity_type: EnumProperty(
        name="Gravity",
        description="Which way gravity points inside the trigger's shape",
        items=GRAVITY_TYPE_ITEMS,
        default='DIRECTIONAL',
    )
    strength: FloatProperty(
        name="Strength",
        description="Gravity in m/s² (at the unit distance, when that is not 0); negative pushes away",
        default=DEFAULT_STRENGTH,
        soft_min=-100.0,
        soft_max=100.0,
        unit='ACCELERATION',
        precision=3,
    )
    direction: FloatVectorProperty(
        name="Direction",
        description="Which way directional gravity pulls, in the object's local axes (should be normalised)",
        subtype='DIRECTION',
        size=3,
        default=(0.0, 0.0, -1.0),  # glTF's [0, -1, 0]
    )
    unit_distance: FloatProperty(
        name="Unit Distance",
        description="Distance from the nearest point at which the gravity equals Strength, falling off with the "
                    "inverse square beyond; 0 keeps it constant",
        default=model.DEFAULT_UNIT_DISTANCE,
        min=0.0,
        soft_max=1000.0,
        unit='LENGTH',
        precision=3,
    )
    radius: FloatProperty(
        name="Radius",
        description="Radius of the circle disc and torus gravity pull towards",
        default=model.DEFAULT_GRAVITY_RADIUS,
        min=0.0,
        soft_max=1000.0,
        unit='LENGTH',
        precision=3,
    )
    points: CollectionProperty(type=OMIGravityPoint)
    shape: PointerProperty(type=OMIShapeSettings)
    priority: IntProperty(
        name="Priority",
        description="Higher priority volumes are applied first; the world gravity always comes last. Leave gaps "
                    "(thousands) to insert volumes later",
        default=0,
    )
    replace: BoolProperty(
        name="Replace",
        description="Discard the gravity of the higher priority volumes already applied",
        default=False,
    )
    stop: BoolProperty(
        name="Stop",
        description="Ignore lower priority volumes and the world gravity",
        default=False,
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys kept from an imported file (the gravity object's)
    type_unknown_json: StringProperty(options={'HIDDEN'})  # ... and its per-type object's, by type


CLASSES: tuple[type, ...] = (OMIGravityPoint, OMIGravitySettings)
