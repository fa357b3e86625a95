"""What a JSON dialect of glTF physics is, as data: keys, defaults, bounds, enum spellings, where things live.

One model (`model.py`), several spellings. A `Dialect` holds one table of `fields.Field` per model item
plus the extension names and the home of each document-level array; the reader, the writer, the
canonical form and the tests all read these tables, so a key or a default is written down once. The
tables every dialect shares are here; each dialect's own are in its module (`omi.py`, `khr.py`), and
`registry.py` joins them to the functions of their structure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import model
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

# Where a node's body or joint extension references each document-level array (key paths below it).
ITEM_REFERENCES: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "shapes": (("collider", "shape"), ("trigger", "shape")),
    "physicsMaterials": (("collider", "physicsMaterial"),),
    "physicsJoints": (("joint",),),
}

JOINT_FIELDS: tuple[Field, ...] = (  # the node-level joint
    Field("settings", "joint", "special"),
    Field("connected_node", "connectedNode", "special"),
    Field("enable_collision", "enableCollision", "bool", False),
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
    joint_ends_in_bodies: bool = False  # both ends of a joint want a body (OMI); else an end in none holds to the world
    keeps_unknown: bool = False  # the reader keeps keys its tables do not declare (`unknown_keys`), written back
    required_arrays: tuple[str, ...] = ("shapes", "physicsJoints")  # an extension holding one needs it (schema)
    legacy_extensions: tuple[str, ...] = ()  # read, never written (removed when the dialect is rewritten)
    item_references: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=lambda: ITEM_REFERENCES)

    @property
    def extensions(self) -> tuple[str, ...]:
        """Every extension the dialect writes, in the order extensionsUsed lists them."""
        names = (self.shape_extension, self.body_extension, self.joint_extension)
        return tuple(name for position, name in enumerate(names) if name not in names[:position])

    def referencing(self, array: str) -> str:
        """The node-level extension whose objects reference the items of a document-level array (`item_references`)."""
        return self.joint_extension if array == "physicsJoints" else self.body_extension

    def arrays_of(self, extension: str) -> tuple[str, ...]:
        """The document-level arrays one extension holds, in the order they are written."""
        return tuple(kind for kind, home in self.homes.items() if home == extension)

    @property
    def owns(self) -> tuple[str, ...]:
        """Every extension name the dialect reads: those it writes, then the legacy ones."""
        return (*self.extensions, *self.legacy_extensions)


def explicit_shape_default(shape_type: str, dialect: Dialect) -> dict[str, object]:
    """The first value of a shape type's per-type object at its default, e.g. {"size": [1.0, 1.0, 1.0]}:
    stated where an empty object would be dropped (Blender's exporter drops empty dicts; ERRATA)."""
    for spec in dialect.shape_fields.get(shape_type, ()):
        if spec.kind == "vector":
            return {spec.key: [float(value) for value in spec.default]}
        if spec.kind == "number" and spec.default is not None:
            return {spec.key: float(spec.default)}
    return {}


def field_tables(dialect: Dialect) -> tuple[tuple[Field, ...], ...]:
    """Every Field table of a dialect: the shape types', then each item's."""
    return (*dialect.shape_fields.values(), dialect.motion_fields, dialect.collider_fields, dialect.trigger_fields,
            dialect.material_fields, dialect.filter_fields, dialect.limit_fields, dialect.drive_fields,
            dialect.joint_settings_fields, dialect.joint_fields)


def all_keys(dialect: Dialect) -> tuple[str, ...]:
    """Every JSON key a dialect's tables declare (object keys, array homes, shape type names), sorted."""
    found = {spec.key for table in field_tables(dialect) for spec in table}
    found |= set(dialect.homes) | set(dialect.shape_fields) | set(dialect.body_parts)
    return tuple(sorted(found))
