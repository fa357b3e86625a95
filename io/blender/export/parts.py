"""What the export's steps share: index placeholders, the per-object physics to export, the per-node
content, and the reader of the objects' OMI settings that the hook layer passes in (this layer reads no
PropertyGroups itself).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.unit_values import NO_UNIT_VALUES, UnitValues
from ...omi.write.export_writer import NodeSlot, node_ref
from ..adopt.from_constraints import ConstraintJoint

# Collision-only meshes ride in their node's extensions under this key, so that the exporter's traversal
# gives them an index (and moves their data into the buffer); `finish` takes the key off again.
MESH_CARRIER_KEY = "__omi_physics_meshes__"


NO_MESH = object()  # a mesh shape whose mesh could not be made: the writer then drops the shape


@dataclass(slots=True)
class Derived:
    """An object's physics for export. The joint is placed apart (it needs frames of its own), so the
    body part of the export reads `physics` without its `joint`."""

    physics: model.NodePhysics
    collider_offset: Matrix | None = None
    trigger_offset: Matrix | None = None
    joint: model.Joint | None = None
    constraint: ConstraintJoint | None = None


@dataclass(slots=True)
class Carrier:
    """What one glTF node will carry, and which object it speaks for."""

    node: Any
    obj: bpy.types.Object
    motion: model.Motion | None = None
    collider: model.Collider | None = None
    trigger: model.Trigger | None = None
    joint: model.Joint | None = None
    meshes: list[Any] = field(default_factory=list)
    unknown: model.Unknown = model.NOTHING_UNKNOWN  # the body extension object's kept keys (of the object's node)
    gravity: model.GravityVolume | None = None  # on the node that carries the object's trigger
    extensions: UnitValues = NO_UNIT_VALUES  # extension units' values (of the object's node)


def carried(carrier: Carrier, trigger: model.Trigger | None,
            plain: dict[tuple[int, int], model.NodePhysics]) -> model.NodePhysics:
    """What the carrier's node says, as one value (its `trigger` with members resolved). A node carrying only
    a body's motion and collider gets one value per pair of those values (`plain`, by their identities): bodies
    adopted from Blender share them (io/blender/adopt/from_bodies.py), so most nodes reuse one."""
    if trigger is None and carrier.joint is None and carrier.gravity is None \
            and carrier.unknown is model.NOTHING_UNKNOWN and carrier.extensions is NO_UNIT_VALUES:
        motion, collider = carrier.motion, carrier.collider
        key = (id(motion), id(collider))
        part = plain.get(key)
        if part is None or part.motion is not motion or part.collider is not collider:
            part = plain[key] = model.NodePhysics(motion=motion, collider=collider)
        return part
    return model.NodePhysics(motion=carrier.motion, collider=carrier.collider, trigger=trigger, joint=carrier.joint,
                             unknown=carrier.unknown, gravity=carrier.gravity, extensions=carrier.extensions)


class SameValues:
    """Values the placing of shapes makes (a shape given its mesh slot, a collider given its placed shape), one
    object per set of parts: bodies sharing a mesh then share them, and the writer's caches meet them by
    identity instead of hashing each anew. Keyed by the identities of the parts, which each value made holds
    (so no id is reused while this lives, one export's scene)."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], Any] = {}
        # (id(value), name, id(new)) -> (value, new, made): the same value object met again (bodies sharing a
        # mesh share their shape), found without reading its fields
        self._again: dict[tuple[int, str, int], tuple[Any, Any, Any]] = {}

    def replaced(self, value: Any, name: str, new: Any) -> Any:
        """`dataclasses.replace(value, <name>=new)`, the same object for the same parts."""
        again = self._again.get((id(value), name, id(new)))
        if again is not None and again[0] is value and again[1] is new:
            return again[2]
        kind = type(value)
        others = _OTHER_FIELDS.get((kind, name))
        if others is None:
            others = _OTHER_FIELDS[kind, name] = _values_of(
                [each.name for each in dataclasses.fields(kind) if each.name != name])
        key = (kind, name, id(new), *map(id, others(value)))
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = dataclasses.replace(value, **{name: new})
        self._again[id(value), name, id(new)] = (value, new, found)
        return found


def _values_of(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an object's values of `names` as a tuple (read in C: `operator.attrgetter`)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda value: tuple(getattr(value, each) for each in names)


# the values of a dataclass's fields but one, by (class, that one)
_OTHER_FIELDS: dict[tuple[type, str], Callable[[Any], tuple[Any, ...]]] = {}


class SettingsReader(Protocol):
    """The objects' OMI settings as the export reads them (implemented by the hook layer)."""

    export_physics: bool  # the export dialog's options
    export_rigid_bodies: bool

    def is_tagged(self, obj: bpy.types.Object) -> bool:
        """Whether the object has OMI settings of its own (else its Blender rigid body is read)."""
        ...

    def derive(self, obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> Derived:
        """A tagged object's physics, with its shape offsets."""
        ...

    def collision_mesh_objects(self, objects: Iterable[bpy.types.Object]) -> set[bpy.types.Object]:
        """Untagged objects that a tagged object's convex/trimesh shape uses as its collision mesh."""
        ...

    def document_unknown(self, bl_scene: bpy.types.Scene) -> dict[str, model.Unknown]:
        """The document-level keys kept from imported files, by extension name."""
        ...


def object_node_ref(nodes_of: Mapping[Any, Any], slot: Callable[[Any], NodeSlot]) -> Callable[[Any], Any]:
    """`node_ref` that also takes an object (a unit's node reference, e.g. a pilot seat): its node's slot, None
    when the object is not exported."""
    object_type = bpy.types.Object  # looked up once (`bpy.types` finds a type anew on each access)

    def resolve(value: Any) -> Any:
        if isinstance(value, object_type):
            node = nodes_of.get(value)
            return None if node is None else slot(node)
        return node_ref(value)
    return resolve

