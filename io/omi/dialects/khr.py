"""The KHR dialect: KHR_physics_rigid_bodies with KHR_implicit_shapes, as tables (see `base.py`).

Where KHR differs from OMI in values, the tables say it: no motion type (`isKinematic`; static is a
collider with no motion above it), no defaults for mass, inertia and the combine modes (the engine
chooses), smaller capsule and cylinder defaults, a `plane` shape. Every size is written explicitly
(`default=None`: never omitted), so a file means the same to readers of either revision. The few
structural differences (collider `geometry`, the joint inside the body extension) are in
`read/khr.py` and `write/khr.py`; the unit is registered by `dialects/builtin.py`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import model
from .base import DRIVE_FIELDS, FILTER_FIELDS, JOINT_FIELDS, JOINT_SETTINGS_FIELDS, LIMIT_FIELDS, Dialect
from .fields import Field

NAME = "KHR"
BODY_EXTENSION = "KHR_physics_rigid_bodies"
SHAPE_EXTENSION = "KHR_implicit_shapes"

# Spec defaults of KHR_implicit_shapes (the schema's); read into the model explicitly.
DEFAULT_RADIUS = 0.25  # capsule and cylinder radii (a sphere's radius is 0.5, as in OMI)
DEFAULT_HEIGHT = 0.5  # capsule: between the sphere centres, as in OMI; cylinder: full height

# A plane has no Blender counterpart: it is read as a thin box (a warning says so), this thick, and
# this wide where the plane is infinite. The box's top face lies THICKNESS / 2 above the plane.
PLANE_BOX_THICKNESS = 0.01
PLANE_BOX_INFINITE_SIZE = 1000.0


def _round(shape_type: str) -> tuple[Field, ...]:
    return (
        Field("height", "height", exclusive_minimum=0.0, absent=DEFAULT_HEIGHT, what=f"{shape_type} height"),
        Field("radius_bottom", "radiusBottom", minimum=0.0, absent=DEFAULT_RADIUS),
        Field("radius_top", "radiusTop", minimum=0.0, absent=DEFAULT_RADIUS),
    )


KHR_SHAPE_FIELDS: Mapping[str, tuple[Field, ...]] = {
    "box": (Field("size", "size", "vector", size=3, exclusive_minimum=0.0, absent=model.DEFAULT_BOX_SIZE,
                  what="box size"),),
    "sphere": (Field("radius", "radius", exclusive_minimum=0.0, absent=model.DEFAULT_RADIUS,
                     what="sphere radius"),),
    "capsule": _round("capsule"),
    "cylinder": _round("cylinder"),
    "plane": (  # read by reader_khr into a thin box
        Field("size_x", "sizeX", exclusive_minimum=0.0, what="plane sizeX"),
        Field("size_z", "sizeZ", exclusive_minimum=0.0, what="plane sizeZ"),
        Field("double_sided", "doubleSided", "bool", False),
    ),
}

KHR_MOTION_FIELDS: tuple[Field, ...] = (
    Field("is_kinematic", "isKinematic", "special"),  # the model's motion type "kinematic"
    # absent: the engine computes; 0: infinite
    Field("mass", "mass", exclusive_minimum=0.0, absent=model.DEFAULT_MASS, zero_is_infinite=True),
    # absent: the engine computes it from the colliders (None in the model); an explicit [0, 0, 0] is written
    Field("center_of_mass", "centerOfMass", "vector", size=3, absent=None),
    # absent: the engine computes (OMI's zero); a zero component means infinite in KHR
    Field("inertia_diagonal", "inertiaDiagonal", "vector", size=3, exclusive_minimum=0.0, absent=model.ZERO3,
          zero_is_infinite=True),
    Field("inertia_orientation", "inertiaOrientation", "vector", model.IDENTITY_QUAT, size=4),
    Field("linear_velocity", "linearVelocity", "vector", model.ZERO3, size=3),
    Field("angular_velocity", "angularVelocity", "vector", model.ZERO3, size=3),
    Field("gravity_factor", "gravityFactor", default=model.DEFAULT_GRAVITY_FACTOR),
)

KHR_MATERIAL_FIELDS: tuple[Field, ...] = (
    Field("static_friction", "staticFriction", default=model.DEFAULT_FRICTION, minimum=0.0),
    Field("dynamic_friction", "dynamicFriction", default=model.DEFAULT_FRICTION, minimum=0.0),
    Field("restitution", "restitution", default=model.DEFAULT_RESTITUTION, minimum=0.0),
    # no default in KHR: always written; absent is read as OMI's average
    Field("friction_combine", "frictionCombine", "choice", None, choices=model.COMBINE_MODES,
          absent=model.DEFAULT_COMBINE),
    Field("restitution_combine", "restitutionCombine", "choice", None, choices=model.COMBINE_MODES,
          absent=model.DEFAULT_COMBINE),
    Field("name", "name", "name"),
)

GEOMETRY_FIELDS: tuple[Field, ...] = (
    Field("shape", "shape", "special"),  # an implicit shape
    Field("mesh", "mesh", "special"),  # the newest revision: a mesh index
    Field("node", "node", "special"),  # the first revision: a node whose mesh it is (read only)
    Field("convex_hull", "convexHull", "bool", False),
)

KHR_COLLIDER_FIELDS: tuple[Field, ...] = (
    Field("geometry", "geometry", "special"),
    Field("shape", "shape", "special"),  # read only: the README's first example puts it on the collider itself
    Field("physics_material", "physicsMaterial", "special"),
    Field("collision_filter", "collisionFilter", "special"),
)

KHR_TRIGGER_FIELDS: tuple[Field, ...] = (
    Field("geometry", "geometry", "special"),
    Field("shape", "shape", "special"),  # read only, as the collider's
    Field("nodes", "nodes", "special"),
    Field("collision_filter", "collisionFilter", "special"),
)

KHR = Dialect(
    name=NAME,
    body_extension=BODY_EXTENSION,
    shape_extension=SHAPE_EXTENSION,
    joint_extension=BODY_EXTENSION,
    homes={"shapes": SHAPE_EXTENSION, "physicsMaterials": BODY_EXTENSION, "collisionFilters": BODY_EXTENSION,
           "physicsJoints": BODY_EXTENSION},
    shape_fields=KHR_SHAPE_FIELDS,
    motion_fields=KHR_MOTION_FIELDS,
    collider_fields=KHR_COLLIDER_FIELDS,
    trigger_fields=KHR_TRIGGER_FIELDS,
    material_fields=KHR_MATERIAL_FIELDS,
    filter_fields=FILTER_FIELDS,
    limit_fields=LIMIT_FIELDS,
    drive_fields=DRIVE_FIELDS,
    joint_settings_fields=JOINT_SETTINGS_FIELDS,
    joint_fields=JOINT_FIELDS,
    body_parts=("motion", "collider", "trigger", "joint"),
    item_references={"shapes": (("collider", "geometry", "shape"), ("trigger", "geometry", "shape")),
                     "physicsMaterials": (("collider", "physicsMaterial"),), "physicsJoints": (("joint", "joint"),)},
    paired_drive_gains=True,
    degenerate_shapes_dropped=True,
    required_arrays=("shapes",),  # KHR_physics_rigid_bodies requires none of its arrays
)
