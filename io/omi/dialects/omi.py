"""The OMI dialect as tables: OMI_physics_shape, OMI_physics_body and OMI_physics_joint (the current revision),
and the keys of the legacy OMI revisions (read only).

`OMI` is the current revision, read and written; the legacy revisions (OMI_collider, the body `type` enum,
flat shapes, full-height capsules) differ in structure only and are read with the same tables by
`read/legacy.py`. The functions of its structure are `read/omi.py` and `write/omi.py`; the unit is
registered by `dialects/builtin.py`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import model
from .base import Dialect
from .fields import Field

NAME = "OMI"
# Its extension names, one home each (the registry lists them: `registry.owned_names`, `Dialect.owns`).
SHAPE_EXTENSION = "OMI_physics_shape"
BODY_EXTENSION = "OMI_physics_body"
JOINT_EXTENSION = "OMI_physics_joint"
LEGACY_COLLIDER_EXTENSION = "OMI_collider"  # the first revision, read only

OMI_SHAPE_FIELDS: Mapping[str, tuple[Field, ...]] = {
    "box": (Field("size", "size", "vector", model.DEFAULT_BOX_SIZE, size=3, exclusive_minimum=0.0,
                  what="box size"),),
    "sphere": (Field("radius", "radius", default=model.DEFAULT_RADIUS, minimum=0.0, what="sphere radius"),),
    "capsule": (
        Field("height", "height", default=model.DEFAULT_CAPSULE_HEIGHT, exclusive_minimum=0.0,
              what="capsule height", absent=None),  # mid-height: between the hemisphere centres
        Field("radius_bottom", "radiusBottom", default=model.DEFAULT_RADIUS, minimum=0.0),
        Field("radius_top", "radiusTop", default=model.DEFAULT_RADIUS, minimum=0.0),
    ),
    "cylinder": (
        Field("height", "height", default=model.DEFAULT_CYLINDER_HEIGHT, exclusive_minimum=0.0,
              what="cylinder height", absent=None),  # full height
        Field("radius_bottom", "radiusBottom", default=model.DEFAULT_RADIUS, minimum=0.0),
        Field("radius_top", "radiusTop", default=model.DEFAULT_RADIUS, minimum=0.0),
    ),
    "convex": (Field("mesh", "mesh", "special"),),
    "trimesh": (Field("mesh", "mesh", "special"),),
}

OMI_MOTION_FIELDS: tuple[Field, ...] = (
    Field("type", "type", "special", "dynamic", choices=model.MOTION_TYPES),  # aliases: rulebook.MOTION_TYPE_ALIASES
    Field("mass", "mass", default=model.DEFAULT_MASS, minimum=0.0),
    Field("center_of_mass", "centerOfMass", "vector", model.ZERO3, size=3),
    Field("inertia_diagonal", "inertiaDiagonal", "vector", model.ZERO3, size=3, minimum=0.0),  # 0: compute
    Field("inertia_orientation", "inertiaOrientation", "vector", model.IDENTITY_QUAT, size=4),  # normalized
    Field("linear_velocity", "linearVelocity", "vector", model.ZERO3, size=3),
    Field("angular_velocity", "angularVelocity", "vector", model.ZERO3, size=3),
    Field("gravity_factor", "gravityFactor", default=model.DEFAULT_GRAVITY_FACTOR),
)

OMI_COLLIDER_FIELDS: tuple[Field, ...] = (
    Field("shape", "shape", "special"),
    Field("physics_material", "physicsMaterial", "special"),
    Field("collision_filter", "collisionFilter", "special"),
)

OMI_TRIGGER_FIELDS: tuple[Field, ...] = (
    Field("shape", "shape", "special"),
    Field("nodes", "nodes", "special"),
    Field("collision_filter", "collisionFilter", "special"),
)

OMI = Dialect(
    name=NAME,
    body_extension=BODY_EXTENSION,
    shape_extension=SHAPE_EXTENSION,
    joint_extension=JOINT_EXTENSION,
    homes={"shapes": SHAPE_EXTENSION, "physicsMaterials": BODY_EXTENSION,
           "collisionFilters": BODY_EXTENSION, "physicsJoints": JOINT_EXTENSION},
    shape_fields=OMI_SHAPE_FIELDS,
    motion_fields=OMI_MOTION_FIELDS,
    collider_fields=OMI_COLLIDER_FIELDS,
    trigger_fields=OMI_TRIGGER_FIELDS,
    legacy_extensions=(LEGACY_COLLIDER_EXTENSION,),
    keeps_unknown=True,
    joint_ends_in_bodies=True,
)

# Legacy OMI revisions (read only): the structure differs, the values use the tables above.
LEGACY_FLAT_SHAPE_KEYS = ("size", "radius", "radiusTop", "radiusBottom", "height", "mesh")  # on the shape itself
LEGACY_BODY_MOTION_KEYS = ("mass", "linearVelocity", "angularVelocity", "centerOfMass")  # next to body `type`
LEGACY_INERTIA_TENSOR_KEY = "inertiaTensor"  # 3x3, only its diagonal is kept
LEGACY_SHAPE_RADIUS_KEY = "radius"  # capsule/cylinder before radiusTop/radiusBottom
LEGACY_HULL_TYPE = "hull"  # OMI_collider's name of `convex`
LEGACY_IS_TRIGGER_KEY = "isTrigger"
LEGACY_COLLIDERS_KEY = "colliders"  # OMI_collider's document-level array
LEGACY_JOINT_CONSTRAINTS_KEY = "constraints"  # the first OMI_physics_joint revision (not read; reported)
LEGACY_KEYS: tuple[str, ...] = (*LEGACY_FLAT_SHAPE_KEYS, *LEGACY_BODY_MOTION_KEYS, LEGACY_INERTIA_TENSOR_KEY,
                                LEGACY_HULL_TYPE, LEGACY_IS_TRIGGER_KEY, LEGACY_COLLIDERS_KEY,
                                LEGACY_JOINT_CONSTRAINTS_KEY, "type")
