"""The shape of a collider or trigger, in the object's local Blender axes (Z-up).

A capsule or cylinder stands along the object's local Z (glTF's local Y after export). The shape may
sit off the object's origin (`offset_location`/`offset_rotation`): export writes a child node for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty, PointerProperty, StringProperty
from mathutils import Euler, Vector

from ..io.omi import model
from . import display

SHAPE_TYPE_ITEMS = [
    ('BOX', "Box", "A box of the given size, centred on the shape's origin", 'MESH_CUBE', 0),
    ('SPHERE', "Sphere", "A ball of the given radius", 'MESH_UVSPHERE', 1),
    ('CAPSULE', "Capsule", "A pill standing along the local Z axis", 'MESH_CAPSULE', 2),
    ('CYLINDER', "Cylinder", "A cylinder standing along the local Z axis", 'MESH_CYLINDER', 3),
    ('CONVEX', "Convex Hull", "The convex hull of a mesh: fast, for props of any shape", 'MESH_ICOSPHERE', 4),
    ('TRIMESH', "Triangle Mesh", "The exact triangles of a mesh: slow, for static level geometry", 'MESH_MONKEY', 5),
]

# The model's shape groups as shape type identifiers (the upper-case model names).
PRIMITIVE_SHAPES = frozenset(name.upper() for name in model.PRIMITIVE_SHAPE_TYPES)
ROUND_SHAPES = frozenset(name.upper() for name in model.ROUND_SHAPE_TYPES)
MESH_SHAPES = frozenset(name.upper() for name in model.MESH_SHAPE_TYPES)

MESH_SOURCE_ITEMS = [
    ('SELF', "This Object", "Use this object's evaluated mesh (modifiers applied)", 0),
    ('OBJECT', "Collision Mesh", "Use another mesh object, written for the shape but not rendered", 1),
]

SHAPE_TYPE_TO_OMI = {item[0]: model.shape_type(item[0].lower()) for item in SHAPE_TYPE_ITEMS}
SHAPE_TYPE_FROM_OMI = {value: key for key, value in SHAPE_TYPE_TO_OMI.items()}


# An offset smaller than this share of the shape's size (and at least OFFSET_MIN_LENGTH), or a rotation
# below OFFSET_MIN_ANGLE, is rounding from a fit, not a placement: it makes no child node on export.
OFFSET_RELATIVE = 1e-5
OFFSET_MIN_LENGTH = 1e-6  # metres
OFFSET_MIN_ANGLE = 1e-6  # radians


def shape_extent(shape: OMIShapeSettings) -> float:
    """The largest dimension of a primitive shape in its object's local units (0 for mesh shapes)."""
    if shape.shape_type == 'BOX':
        return max(abs(value) for value in shape.size)
    if shape.shape_type == 'SPHERE':
        return 2.0 * shape.radius
    if shape.shape_type in ROUND_SHAPES:
        return max(shape.height, 0.0) + 2.0 * max(shape.radius_top, shape.radius_bottom)
    return 0.0


def offset_matters(location: Vector | Sequence[float], rotation: Euler | Sequence[float], extent: float) -> bool:
    """Whether a shape's offset is a placement rather than a fit's rounding (see OFFSET_RELATIVE)."""
    limit = max(OFFSET_MIN_LENGTH, OFFSET_RELATIVE * extent)
    return (any(abs(value) > limit for value in location[:])
            or any(abs(angle) > OFFSET_MIN_ANGLE for angle in rotation[:]))


def _is_mesh_object(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == 'MESH'


class OMIShapeSettings(bpy.types.PropertyGroup):
    """Geometry of one physics shape."""

    shape_type: EnumProperty(
        name="Shape",
        description="The geometric shape used for collision or overlap detection",
        items=SHAPE_TYPE_ITEMS,
        default='BOX',
    )
    size: FloatVectorProperty(
        name="Size",
        description="Full width, depth and height of the box along the object's local axes",
        subtype='XYZ_LENGTH',
        size=3,
        default=model.DEFAULT_BOX_SIZE,
        min=0.0,
        soft_min=0.001,
        soft_max=100.0,
        unit='LENGTH',
        precision=display.LENGTH,
    )
    radius: FloatProperty(
        name="Radius",
        description="Radius of the sphere",
        subtype='DISTANCE',
        precision=display.LENGTH,
        default=model.DEFAULT_RADIUS,
        min=0.0,
        soft_max=100.0,
    )
    height: FloatProperty(
        name="Height",
        description=(
            "Capsule: distance between the centres of the two hemispheres (full height minus both radii). "
            "Cylinder: full height"
        ),
        subtype='DISTANCE',
        precision=display.LENGTH,
        default=model.DEFAULT_CAPSULE_HEIGHT,
        min=0.0,
        soft_max=100.0,
    )
    radius_top: FloatProperty(
        name="Top Radius",
        description="Radius at the top (+Z); equal radii are the most portable",
        subtype='DISTANCE',
        precision=display.LENGTH,
        default=model.DEFAULT_RADIUS,
        min=0.0,
        soft_max=100.0,
    )
    radius_bottom: FloatProperty(
        name="Bottom Radius",
        description="Radius at the bottom (-Z); equal radii are the most portable",
        subtype='DISTANCE',
        precision=display.LENGTH,
        default=model.DEFAULT_RADIUS,
        min=0.0,
        soft_max=100.0,
    )
    mesh_source: EnumProperty(
        name="Mesh",
        description="Which mesh a convex hull or triangle mesh shape is made from",
        items=MESH_SOURCE_ITEMS,
        default='SELF',
    )
    mesh_object: PointerProperty(
        name="Collision Mesh",
        description="Mesh object whose geometry makes the shape; it is exported as collision-only data",
        type=bpy.types.Object,
        poll=_is_mesh_object,
    )
    offset_location: FloatVectorProperty(
        name="Offset",
        description="Position of the shape's centre in the object's local space",
        subtype='TRANSLATION',
        size=3,
        unit='LENGTH',
        precision=display.LENGTH,
    )
    offset_rotation: FloatVectorProperty(
        name="Rotation",
        description="Rotation of the shape relative to the object",
        subtype='EULER',
        size=3,
        unit='ROTATION',
        precision=display.ANGLE,
    )
    use_offset: BoolProperty(
        name="Offset Shape",
        description="The shape is moved or rotated relative to the object; export writes it on a child node",
        default=False,
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)
    type_unknown_json: StringProperty(options={'HIDDEN'})  # the per-type object's, by type: {"box": {...}}


def is_untouched(pg: OMIShapeSettings) -> bool:
    """True while none of the shape's settings was ever set (all at their defaults, never fitted). A group that
    stores nothing is untouched without asking each setting (an import switches thousands of colliders on)."""
    if not pg.keys():
        return True
    return not any(pg.is_property_set(prop.identifier) for prop in pg.bl_rna.properties
                   if prop.identifier != "rna_type")


def copy_shape(source: OMIShapeSettings, target: OMIShapeSettings) -> None:
    """Give `target` every setting of `source` (a collider's fitted shape becoming a trigger's, or back); the
    keys a file kept on `source` stay its own."""
    for prop in source.bl_rna.properties:
        name = prop.identifier
        if name in ("rna_type", "unknown_json", "type_unknown_json") or prop.is_readonly:
            continue
        value = getattr(source, name)
        setattr(target, name, value[:] if getattr(prop, "is_array", False) else value)


CLASSES: tuple[type, ...] = (OMIShapeSettings,)
