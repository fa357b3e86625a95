"""The OMI physics data model: plain, immutable values in glTF space (Y-up, metres, radians).

The model is index-free: a collider holds its `Shape`, `PhysicsMaterial` and `CollisionFilter`
themselves, not indices into document arrays. The reader resolves indices into values and the writer
deduplicates values back into arrays, so every other layer compares and copies settings by value.
Only references to *nodes* (compound trigger members, a joint's connected node) and to *meshes*
(convex/trimesh shapes) stay references, typed `NodeRef`/`MeshRef`: a glTF index when read from a
file, a Blender object or mesh in the Blender layer.

No bpy here: this module is shared by the add-on, the command-line validator and the unit tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard, TypeVar

from .unit_values import NO_UNIT_VALUES, UnitValues

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # glTF order: x, y, z, w
NodeRef = Any  # glTF node index in files; bpy Object in the Blender layer
MeshRef = Any  # glTF mesh index in files; bpy Mesh or Object in the Blender layer

ShapeType = Literal["box", "sphere", "capsule", "cylinder", "convex", "trimesh"]
MotionType = Literal["static", "kinematic", "dynamic"]
CombineMode = Literal["average", "minimum", "maximum", "multiply"]
DriveType = Literal["linear", "angular"]
DriveMode = Literal["force", "acceleration"]  # drives hold `str`: an unknown type or mode of a KHR file is kept as-is
GravityType = Literal["directional", "point", "disc", "torus", "line", "shaped"]
_Choice = TypeVar("_Choice", bound=str)

SHAPE_TYPES: tuple[ShapeType, ...] = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
PRIMITIVE_SHAPE_TYPES: tuple[str, ...] = ("box", "sphere", "capsule", "cylinder")
ROUND_SHAPE_TYPES: tuple[str, ...] = ("capsule", "cylinder")  # height and radiusTop/radiusBottom
MESH_SHAPE_TYPES: tuple[str, ...] = ("convex", "trimesh")
MOTION_TYPES: tuple[MotionType, ...] = ("static", "kinematic", "dynamic")
COMBINE_MODES: tuple[CombineMode, ...] = ("average", "minimum", "maximum", "multiply")
DRIVE_TYPES: tuple[str, ...] = ("linear", "angular")
DRIVE_MODES: tuple[str, ...] = ("force", "acceleration")

GRAVITY_TYPES: tuple[GravityType, ...] = ("directional", "point", "disc", "torus", "line", "shaped")



def is_shape_type(value: object) -> TypeGuard[ShapeType]:
    return value in SHAPE_TYPES


def is_motion_type(value: object) -> TypeGuard[MotionType]:
    return value in MOTION_TYPES


def _member(value: str, choices: tuple[_Choice, ...], what: str) -> _Choice:
    for choice in choices:
        if choice == value:
            return choice
    raise ValueError(f"{value!r} is no {what} ({', '.join(choices)})")


def shape_type(value: str) -> ShapeType:
    """`value` as a ShapeType (ValueError for any other string): for tables built from other spellings."""
    return _member(value, SHAPE_TYPES, "shape type")


def motion_type(value: str) -> MotionType:
    return _member(value, MOTION_TYPES, "motion type")


def combine_mode(value: str) -> CombineMode:
    return _member(value, COMBINE_MODES, "combine mode")


def gravity_type(value: str) -> GravityType:
    return _member(value, GRAVITY_TYPES, "gravity type")


ZERO3: Vec3 = (0.0, 0.0, 0.0)
IDENTITY_QUAT: Quat = (0.0, 0.0, 0.0, 1.0)

# Spec defaults, one home each. Capsule `height` is the mid-height (distance between hemisphere
# centres); cylinder `height` is the full height.
DEFAULT_BOX_SIZE: Vec3 = (1.0, 1.0, 1.0)
DEFAULT_RADIUS = 0.5
DEFAULT_CAPSULE_HEIGHT = 1.0
DEFAULT_CYLINDER_HEIGHT = 2.0
DEFAULT_MASS = 1.0
DEFAULT_GRAVITY_FACTOR = 1.0
DEFAULT_FRICTION = 0.6
DEFAULT_RESTITUTION = 0.0
DEFAULT_COMBINE: CombineMode = "average"
DEFAULT_GRAVITY_DIRECTION: Vec3 = (0.0, -1.0, 0.0)  # world gravity and directional volumes
DEFAULT_UNIT_DISTANCE = 0.0  # 0: constant strength, else inverse-square, equal to `gravity` at this distance
DEFAULT_GRAVITY_RADIUS = 1.0  # disc and torus


class Unknown(Mapping[str, Any]):
    """What one object of a file held that the model has no field for, kept to be written back (a newer file
    must not lose its newer data in our hands): the keys the dialect's Field tables do not declare (with
    `extras` and `extensions`), and the file's own spelling of enum values the tables do not know (under
    the enum's key; the model holds the Field's `fallback` then, and the writer puts the file's spelling
    back only while the model still holds that fallback: a value the user chose wins).

    `dialect` is the dialect that read them (the registry's `kept_keys_dialect()`, named by whoever keeps
    keys: the model is below the dialects): another dialect's writer does not write them (its namespaces differ)
    and says so. Immutable and hashable (compared by its JSON text), so model values
    stay comparable and usable as dict keys; `fresh()` gives a copy to write into a document.
    """

    __slots__ = ("_text", "_values", "dialect")

    def __init__(self, values: Mapping[str, Any] | None = None, dialect: str = "") -> None:
        self._values = dict(values or {})
        if self._values and not dialect:
            raise ValueError("kept keys need the dialect that spells them")
        self._text = json.dumps(self._values, ensure_ascii=False, separators=(",", ":")) if self._values else ""
        self.dialect = dialect

    @classmethod
    def from_text(cls, text: str, dialect: str) -> Unknown:
        """The value `text` holds (see `text`); nothing kept when it is empty or not a JSON object."""
        try:
            values = json.loads(text) if text else {}
        except ValueError:
            values = {}
        return cls(values if isinstance(values, dict) else {}, dialect)

    @property
    def text(self) -> str:
        """The kept keys as JSON object text ("" when nothing is kept): what Blender stores."""
        return self._text

    def fresh(self) -> dict[str, Any]:
        """A deep copy of the kept keys, safe to put into a document that may be changed later."""
        return json.loads(self._text) if self._text else {}

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unknown):
            return NotImplemented
        return self._text == other._text and (not self._text or self.dialect == other.dialect)

    def __hash__(self) -> int:
        return hash((self._text, self.dialect if self._text else ""))

    def __repr__(self) -> str:
        return f"Unknown({self._text or '{}'}, {self.dialect!r})" if self._text else "Unknown()"


NOTHING_UNKNOWN = Unknown()


def default_height(shape_type: str) -> float:
    """The spec's default height, which differs between capsule (mid-height) and cylinder."""
    return DEFAULT_CYLINDER_HEIGHT if shape_type == "cylinder" else DEFAULT_CAPSULE_HEIGHT


@dataclass(frozen=True)
class Shape:
    """One OMI_physics_shape entry. Fields that do not apply to `type` keep their defaults."""

    type: ShapeType
    size: Vec3 = DEFAULT_BOX_SIZE
    radius: float = DEFAULT_RADIUS  # sphere
    height: float | None = None  # capsule/cylinder; None means the type's default
    radius_top: float = DEFAULT_RADIUS
    radius_bottom: float = DEFAULT_RADIUS
    mesh: MeshRef = None  # convex/trimesh; None means no mesh (-1 in the spec)
    unknown: Unknown = NOTHING_UNKNOWN  # the shape object's keys the model does not read (its `name` too)
    # the per-type sub-object's unknown keys, by the type they were read with: {"box": {"margin": 0.01}};
    # written only while the shape keeps that type
    type_unknown: Unknown = NOTHING_UNKNOWN

    @property
    def effective_height(self) -> float:
        return default_height(self.type) if self.height is None else self.height


@dataclass(frozen=True)
class Motion:
    """`motion` of a node: the node is a body whose transform physics drives."""

    type: MotionType = "dynamic"
    mass: float = DEFAULT_MASS  # math.inf: infinite (KHR's mass 0)
    # None: the engine computes it from the colliders (KHR's absent key); OMI's absent key is the origin
    center_of_mass: Vec3 | None = ZERO3
    inertia_diagonal: Vec3 = ZERO3  # zero means "let the engine compute it"; math.inf: infinite (KHR's 0)
    inertia_orientation: Quat = IDENTITY_QUAT
    linear_velocity: Vec3 = ZERO3
    angular_velocity: Vec3 = ZERO3
    gravity_factor: float = DEFAULT_GRAVITY_FACTOR
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class PhysicsMaterial:
    static_friction: float = DEFAULT_FRICTION
    dynamic_friction: float = DEFAULT_FRICTION
    restitution: float = DEFAULT_RESTITUTION
    friction_combine: CombineMode = DEFAULT_COMBINE
    restitution_combine: CombineMode = DEFAULT_COMBINE
    name: str = ""  # glTFChildOfRootProperty name; not part of the physics meaning
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class CollisionFilter:
    collision_systems: tuple[str, ...] = ()
    collide_with_systems: tuple[str, ...] = ()
    not_collide_with_systems: tuple[str, ...] = ()
    name: str = ""
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class Collider:
    """`collider` of a node. shape None: a grouping node that merges its descendants' colliders."""

    shape: Shape | None = None
    physics_material: PhysicsMaterial | None = None
    collision_filter: CollisionFilter | None = None
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class Trigger:
    """`trigger` of a node: a single shape, or a compound made of descendant trigger nodes."""

    shape: Shape | None = None
    nodes: tuple[NodeRef, ...] = ()
    collision_filter: CollisionFilter | None = None
    unknown: Unknown = NOTHING_UNKNOWN

    @property
    def is_compound(self) -> bool:
        return self.shape is None


@dataclass(frozen=True)
class JointLimit:
    """One limit. None for min/max means unbounded; None for stiffness means infinitely stiff."""

    linear_axes: tuple[int, ...] = ()
    angular_axes: tuple[int, ...] = ()
    min: float | None = None
    max: float | None = None
    stiffness: float | None = None
    damping: float = 0.0
    unknown: Unknown = NOTHING_UNKNOWN  # written into each limits[] entry the limit becomes


@dataclass(frozen=True)
class JointDrive:
    """One drive on one degree of freedom. None for max_force means unlimited."""

    type: str = "angular"
    mode: str = "force"
    axis: int = 0
    max_force: float | None = None
    position_target: float | None = None
    velocity_target: float | None = None
    stiffness: float = 0.0
    damping: float = 0.0
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class JointSettings:
    """A document-level physicsJoints entry, shareable between joint nodes."""

    limits: tuple[JointLimit, ...] = ()
    drives: tuple[JointDrive, ...] = ()
    name: str = ""
    unknown: Unknown = NOTHING_UNKNOWN


@dataclass(frozen=True)
class Joint:
    """The node-level OMI_physics_joint: this node is an attachment frame joined to `connected_node`."""

    settings: JointSettings
    connected_node: NodeRef
    enable_collision: bool = False
    unknown: Unknown = NOTHING_UNKNOWN  # of the node-level joint object


@dataclass(frozen=True)
class WorldGravity:
    """The document-level OMI_physics_gravity: always directional, `gravity` m/s^2 along `direction`."""

    gravity: float
    direction: Vec3 = DEFAULT_GRAVITY_DIRECTION
    unknown: Unknown = NOTHING_UNKNOWN

    @property
    def vector(self) -> Vec3:
        """The acceleration in glTF space (Y up)."""
        return (self.gravity * self.direction[0], self.gravity * self.direction[1], self.gravity * self.direction[2])


@dataclass(frozen=True)
class GravityVolume:
    """The node-level OMI_physics_gravity of a base trigger node: which way gravity points inside the trigger's
    shapes and how strongly (`type`), and how it combines with overlapping volumes (priority/replace/stop).
    Fields that do not apply to `type` keep their defaults."""

    type: GravityType
    gravity: float
    direction: Vec3 = DEFAULT_GRAVITY_DIRECTION  # directional, in the node's frame
    unit_distance: float = DEFAULT_UNIT_DISTANCE  # every other type
    radius: float = DEFAULT_GRAVITY_RADIUS  # disc, torus
    points: tuple[float, ...] = ()  # line: x, y, z of each point, in the node's frame
    shape: Shape | None = None  # shaped: gravity points to its nearest point
    priority: int = 0
    replace: bool = False
    stop: bool = False
    unknown: Unknown = NOTHING_UNKNOWN  # the gravity object's keys the model does not read
    type_unknown: Unknown = NOTHING_UNKNOWN  # the per-type sub-object's, by type (as Shape.type_unknown)


@dataclass(frozen=True)
class NodePhysics:
    """Everything OMI says about one node. All None means the node has no physics."""

    motion: Motion | None = None
    collider: Collider | None = None
    trigger: Trigger | None = None
    joint: Joint | None = None
    unknown: Unknown = NOTHING_UNKNOWN  # of the node-level body extension object (beside motion, collider, ...)
    gravity: GravityVolume | None = None  # only on a base trigger (OMI_physics_gravity)
    extensions: UnitValues = NO_UNIT_VALUES  # extension units' values (vehicles, seats, spawn points, ...)

    @property
    def is_empty(self) -> bool:
        return self.motion is None and self.collider is None and self.trigger is None and self.joint is None \
            and self.gravity is None and not self.extensions


# Every message the add-on writes to the glTF log starts with LOG_PREFIX; one that reports a failed
# hook step (an exception caught at a hook boundary) continues with HOOK_FAILURE, so scripts can tell
# "the add-on broke" from "the file has problems" without parsing prose.
LOG_PREFIX = "OMI physics: "
HOOK_FAILURE = "hook failed: "

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Issue:
    """A problem found in input, located by a JSON pointer (RFC 6901) into the glTF document."""

    pointer: str
    message: str
    severity: Severity = "warning"
    kind: str = field(default="", compare=False)  # the rulebook.NOTES entry it was made from, if any

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"


@dataclass
class PhysicsDocument:
    """The physics of a whole glTF document: node index -> NodePhysics, plus what was found wrong."""

    nodes: dict[int, NodePhysics] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    revisions: set[str] = field(default_factory=set)  # which spec revisions the file used
    unknown: dict[str, Unknown] = field(default_factory=dict)  # extension name -> its document-level unknown keys
    gravity: WorldGravity | None = None  # the document-level OMI_physics_gravity
    extensions: dict[str, Any] = field(default_factory=dict)  # extension units' document-level values, by unit

    def warn(self, pointer: str, message: str, severity: Severity = "warning") -> None:
        self.issues.append(Issue(pointer, message, severity))
