"""The JSON dialects of glTF physics as data: keys, defaults, bounds, enum spellings, where things live.

One model (`model.py`), several spellings. A `Dialect` holds one table of `fields.Field` per model item
plus the extension names and the home of each document-level array; the reader, the writer, the
canonical form and the tests all read these tables, so a key or a default is written down once.
`OMI` is the current OMI revision (read and written); the legacy OMI revisions differ in structure
only and are read by `reader_legacy.py` with the same tables; `KHR` (KHR_physics_rigid_bodies with
KHR_implicit_shapes) is in `dialects_khr.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import model
from ..json_types import get, sequence_items
from .fields import Field

# --- items whose spelling every dialect shares -----------------------------------------------------

MATERIAL_FIELDS: tuple[Field, ...] = (
    Field("static_friction", "staticFriction", default=model.DEFAULT_FRICTION, minimum=0.0),
    Field("dynamic_friction", "dynamicFriction", default=model.DEFAULT_FRICTION, minimum=0.0),
    Field("restitution", "restitution", default=model.DEFAULT_RESTITUTION, minimum=0.0),
    Field("friction_combine", "frictionCombine", "choice", model.DEFAULT_COMBINE, choices=model.COMBINE_MODES),
    Field("restitution_combine", "restitutionCombine", "choice", model.DEFAULT_COMBINE, choices=model.COMBINE_MODES),
    Field("name", "name", "name"),
)

FILTER_FIELDS: tuple[Field, ...] = (
    Field("collision_systems", "collisionSystems", "strings", ()),
    Field("collide_with_systems", "collideWithSystems", "strings", ()),
    # the spec forbids both masks at once: the allow-list wins when a model holds both
    Field("not_collide_with_systems", "notCollideWithSystems", "strings", (), excludes="collideWithSystems"),
    Field("name", "name", "name"),
)

LIMIT_FIELDS: tuple[Field, ...] = (
    Field("linear_axes", "linearAxes", "special"),
    Field("angular_axes", "angularAxes", "special"),
    Field("min", "min"),
    Field("max", "max"),
    Field("stiffness", "stiffness", "infinity", minimum=0.0),  # absent: infinitely stiff
    Field("damping", "damping", default=0.0, minimum=0.0),
)
LIMIT_RANGE_KEYS = ("min", "max")  # written by limit_to_json itself: an empty range drops both

DRIVE_FIELDS: tuple[Field, ...] = (
    Field("type", "type", "special", choices=model.DRIVE_TYPES, open=True),  # required; other strings kept (warned)
    Field("mode", "mode", "special", choices=model.DRIVE_MODES, open=True),  # required; other strings kept (warned)
    Field("axis", "axis", "special"),  # required, 0..2
    Field("max_force", "maxForce", "infinity", minimum=0.0),  # absent: unlimited
    Field("position_target", "positionTarget"),
    Field("velocity_target", "velocityTarget"),
    Field("stiffness", "stiffness", default=0.0, minimum=0.0),
    Field("damping", "damping", default=0.0, minimum=0.0),
)

JOINT_SETTINGS_FIELDS: tuple[Field, ...] = (
    Field("limits", "limits", "special"),
    Field("drives", "drives", "special"),
    Field("name", "name", "name"),
)

JOINT_FIELDS: tuple[Field, ...] = (  # the node-level joint
    Field("settings", "joint", "special"),
    Field("connected_node", "connectedNode", "special"),
    Field("enable_collision", "enableCollision", "bool", False),
)

# --- OMI (current revision) ------------------------------------------------------------------------

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
    Field("type", "type", "special", "dynamic", choices=model.MOTION_TYPES),  # aliases: rules.MOTION_TYPE_ALIASES
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


@dataclass(frozen=True)
class Dialect:
    """One JSON spelling of the model: its tables and where each part lives."""

    name: str
    body_extension: str  # node level: motion, collider, trigger (and, in KHR, the joint)
    shape_extension: str  # document level: shapes
    joint_extension: str  # node level joint and document level physicsJoints
    homes: Mapping[str, str]  # document-level array -> the extension that holds it
    shape_fields: Mapping[str, tuple[Field, ...]]
    motion_fields: tuple[Field, ...]
    collider_fields: tuple[Field, ...]
    trigger_fields: tuple[Field, ...]
    material_fields: tuple[Field, ...] = MATERIAL_FIELDS
    filter_fields: tuple[Field, ...] = FILTER_FIELDS
    limit_fields: tuple[Field, ...] = LIMIT_FIELDS
    drive_fields: tuple[Field, ...] = DRIVE_FIELDS
    joint_settings_fields: tuple[Field, ...] = JOINT_SETTINGS_FIELDS
    joint_fields: tuple[Field, ...] = JOINT_FIELDS
    body_parts: tuple[str, ...] = ("motion", "collider", "trigger")  # node-level keys of the body extension
    paired_drive_gains: bool = False  # a drive's stiffness/damping only with its position/velocity target
    degenerate_shapes_dropped: bool = False  # a capsule/cylinder with no radius at all is invalid
    keeps_unknown: bool = False  # the reader keeps keys its tables do not declare (`unknown_keys`), written back
    required_arrays: tuple[str, ...] = ("shapes", "physicsJoints")  # an extension holding one needs it (schema)
    unit_extensions: tuple[str, ...] = ()  # extension units written beside the core three (OMI_physics_gravity)

    @property
    def extensions(self) -> tuple[str, ...]:
        """Every extension the dialect writes, in the order extensionsUsed lists them."""
        names = (self.shape_extension, self.body_extension, self.joint_extension, *self.unit_extensions)
        return tuple(name for position, name in enumerate(names) if name not in names[:position])

    def arrays_of(self, extension: str) -> tuple[str, ...]:
        """The document-level arrays one extension holds, in the order they are written."""
        return tuple(kind for kind, home in self.homes.items() if home == extension)


OMI = Dialect(
    name="OMI",
    body_extension=model.BODY_EXTENSION,
    shape_extension=model.SHAPE_EXTENSION,
    joint_extension=model.JOINT_EXTENSION,
    homes={"shapes": model.SHAPE_EXTENSION, "physicsMaterials": model.BODY_EXTENSION,
           "collisionFilters": model.BODY_EXTENSION, "physicsJoints": model.JOINT_EXTENSION},
    shape_fields=OMI_SHAPE_FIELDS,
    motion_fields=OMI_MOTION_FIELDS,
    collider_fields=OMI_COLLIDER_FIELDS,
    trigger_fields=OMI_TRIGGER_FIELDS,
    keeps_unknown=True,
    unit_extensions=(model.GRAVITY_EXTENSION,),
)



def explicit_shape_default(shape_type: str, dialect: Dialect = OMI) -> dict[str, object]:
    """The first value of a shape type's per-type object at its default, e.g. {"size": [1.0, 1.0, 1.0]}:
    stated where an empty object would be dropped (Blender's exporter drops empty dicts; ERRATA)."""
    for spec in dialect.shape_fields.get(shape_type, ()):
        if spec.kind == "vector":
            return {spec.key: [float(value) for value in spec.default]}
        if spec.kind == "number" and spec.default is not None:
            return {spec.key: float(spec.default)}
    return {}


# --- which dialect a document speaks ---------------------------------------------------------------

def dialects_used(gltf: object) -> set[str]:
    """"OMI" and/or "KHR": the physics dialects whose extensions a document holds (document or nodes)."""
    names = set(_names(get(gltf, "extensions")))
    for node in sequence_items(get(gltf, "nodes")):
        extensions = node.get("extensions") if type(node) is dict else get(node, "extensions")
        if type(extensions) is dict:  # one call per node: a large file has many
            names.update(extensions)
        elif extensions is not None:
            names.update(_names(extensions))
    return {_OWNERS[name] for name in names if isinstance(name, str) and name in _OWNERS}


_OWNERS = dict.fromkeys(model.ALL_EXTENSIONS, "OMI") | dict.fromkeys(model.KHR_EXTENSIONS, "KHR")


def _names(extensions: object) -> list[str]:
    return [name for name in extensions if isinstance(name, str)] if isinstance(extensions, Mapping) else []


def document_dialect(gltf: object) -> str:
    """The one dialect to read a document in: KHR when it holds only KHR physics, else OMI (a document
    with both is read in both by `read.mixed`)."""
    return "KHR" if dialects_used(gltf) == {"KHR"} else "OMI"



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


def all_keys(dialect: Dialect) -> tuple[str, ...]:
    """Every JSON key a dialect's tables declare (object keys, array homes, shape type names), sorted."""
    tables = (*dialect.shape_fields.values(), dialect.motion_fields, dialect.collider_fields,
              dialect.trigger_fields, dialect.material_fields, dialect.filter_fields, dialect.limit_fields,
              dialect.drive_fields, dialect.joint_settings_fields, dialect.joint_fields)
    found = {spec.key for table in tables for spec in table}
    found |= set(dialect.homes) | set(dialect.shape_fields) | set(dialect.body_parts)
    return tuple(sorted(found))
