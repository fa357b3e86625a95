"""Model -> glTF JSON, current revision only.

Per-item functions return plain JSON dicts with every spec default omitted and never NaN, Infinity or
-1 (ERRATA: glTFid has minimum 0, JSON has no Infinity), so `json.dumps(..., allow_nan=False)` always
works. A value that could not be written schema-valid (a non-finite number, a zero box side) is left
out, which means the spec default.

`node_extensions` builds one node's extensions and hands every document-level item (shape, physics
material, collision filter, joint settings) to a `ref` callback that decides what stands for its index,
and every node or mesh reference to `node_ref`/`mesh_ref`. `write_document` below deduplicates equal items
into arrays (compared as canonical JSON) and maps references to the document's own indices. The glTF
export hook (io/blender/export_physics.py) resolves indices itself: its `ref` also deduplicates into
arrays of its own and returns ints, and its node/mesh references are placeholders that it replaces with
the exporter's indices once every node and mesh has one, before it writes the arrays and extensionsUsed.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import model
from .json_types import join
from .model import (
    Collider,
    CollisionFilter,
    Issue,
    Joint,
    JointDrive,
    JointLimit,
    JointSettings,
    MeshRef,
    Motion,
    NodePhysics,
    NodeRef,
    PhysicsDocument,
    PhysicsMaterial,
    Shape,
    Trigger,
)

BODY = model.BODY_EXTENSION
SHAPE = model.SHAPE_EXTENSION
JOINT = model.JOINT_EXTENSION
LEGACY_COLLIDER = model.LEGACY_COLLIDER_EXTENSION
OMI_EXTENSIONS = model.CURRENT_EXTENSIONS
ALL_OMI_EXTENSIONS = model.ALL_EXTENSIONS

Ref = Callable[[str, dict], Any]


# --- number helpers ------------------------------------------------------------------------------

def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _number(value: float) -> float | int:
    """A JSON number: integral floats stay floats (1.0), so written files read the same everywhere."""
    return float(value)


def _put_number(out: dict, key: str, value: float | None, default: float | None, *,
                minimum: float | None = None, exclusive_minimum: float | None = None) -> None:
    """out[key] = value unless it is the default, absent, non-finite or outside the bounds."""
    if value is None or not _finite(value):
        return
    if minimum is not None and value < minimum:
        return
    if exclusive_minimum is not None and value <= exclusive_minimum:
        return
    if default is not None and value == default:
        return
    out[key] = _number(value)


def _put_vec(out: dict, key: str, value: Iterable[float] | None, size: int, default: tuple[float, ...] | None, *,
             minimum: float | None = None, exclusive_minimum: float | None = None) -> None:
    if value is None:
        return
    numbers = tuple(value)
    if len(numbers) != size or not all(_finite(number) for number in numbers):
        return
    if minimum is not None and any(number < minimum for number in numbers):
        return
    if exclusive_minimum is not None and any(number <= exclusive_minimum for number in numbers):
        return
    if default is not None and numbers == tuple(default):
        return
    out[key] = [_number(number) for number in numbers]


def _put_name(out: dict, name: object) -> None:
    if isinstance(name, str) and name:
        out["name"] = name


# --- per-item functions --------------------------------------------------------------------------

def shape_to_json(shape: Shape, mesh_index: Any = None) -> dict:
    """A shapes[] entry. The per-type sub-object is always written (ERRATA), `{}` when all defaults.

    `mesh_index` is what stands for the mesh of a convex/trimesh shape (an int, or in the export hook a
    placeholder it later replaces with the mesh's index); None leaves `mesh` out.
    """
    shape_type = shape.type if shape.type in model.SHAPE_TYPES else "box"
    details: dict[str, Any] = {}
    if shape_type == "box":
        _put_vec(details, "size", shape.size, 3, model.DEFAULT_BOX_SIZE, exclusive_minimum=0.0)
    elif shape_type == "sphere":
        _put_number(details, "radius", shape.radius, model.DEFAULT_RADIUS, minimum=0.0)
    elif shape_type in ("capsule", "cylinder"):
        _put_number(details, "height", shape.height, model.default_height(shape_type), exclusive_minimum=0.0)
        _put_number(details, "radiusBottom", shape.radius_bottom, model.DEFAULT_RADIUS, minimum=0.0)
        _put_number(details, "radiusTop", shape.radius_top, model.DEFAULT_RADIUS, minimum=0.0)
    elif mesh_index is not None and not (isinstance(mesh_index, int) and mesh_index < 0):
        details["mesh"] = mesh_index
    return {"type": shape_type, shape_type: details}


def motion_to_json(motion: Motion) -> dict:
    motion_type = motion.type if motion.type in model.MOTION_TYPES else "dynamic"
    out: dict[str, Any] = {"type": motion_type}
    _put_number(out, "mass", motion.mass, model.DEFAULT_MASS, minimum=0.0)
    _put_vec(out, "centerOfMass", motion.center_of_mass, 3, model.ZERO3)
    _put_vec(out, "inertiaDiagonal", motion.inertia_diagonal, 3, model.ZERO3, minimum=0.0)
    _put_vec(out, "inertiaOrientation", motion.inertia_orientation, 4, model.IDENTITY_QUAT)
    _put_vec(out, "linearVelocity", motion.linear_velocity, 3, model.ZERO3)
    _put_vec(out, "angularVelocity", motion.angular_velocity, 3, model.ZERO3)
    _put_number(out, "gravityFactor", motion.gravity_factor, model.DEFAULT_GRAVITY_FACTOR)
    return out


def material_to_json(material: PhysicsMaterial) -> dict:
    out: dict[str, Any] = {}
    _put_number(out, "staticFriction", material.static_friction, model.DEFAULT_FRICTION, minimum=0.0)
    _put_number(out, "dynamicFriction", material.dynamic_friction, model.DEFAULT_FRICTION, minimum=0.0)
    _put_number(out, "restitution", material.restitution, model.DEFAULT_RESTITUTION, minimum=0.0)
    for key, mode in (("frictionCombine", material.friction_combine),
                      ("restitutionCombine", material.restitution_combine)):
        if mode in model.COMBINE_MODES and mode != model.DEFAULT_COMBINE:
            out[key] = mode
    _put_name(out, material.name)
    return out


def filter_to_json(collision_filter: CollisionFilter) -> dict:
    """A collisionFilters[] entry. The spec forbids both masks at once; the allow-list wins then."""
    out: dict[str, Any] = {}
    systems = _strings(collision_filter.collision_systems)
    collide_with = _strings(collision_filter.collide_with_systems)
    not_collide_with = _strings(collision_filter.not_collide_with_systems)
    if systems:
        out["collisionSystems"] = systems
    if collide_with:
        out["collideWithSystems"] = collide_with
    elif not_collide_with:
        out["notCollideWithSystems"] = not_collide_with
    _put_name(out, collision_filter.name)
    return out


def _strings(values: Iterable[object]) -> list[str]:
    kept: list[str] = []
    for value in values or ():
        if isinstance(value, str) and value not in kept:
            kept.append(value)
    return kept


def _axes(values: Iterable[object]) -> list[int]:
    kept: list[int] = []
    for value in values or ():
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2 and value not in kept:
            kept.append(value)
    return kept


def limit_to_json(limit: JointLimit) -> list[dict]:
    """One limit as 0, 1 or 2 limits[] entries: linear and angular axes are written apart (ERRATA)."""
    common: dict[str, Any] = {}
    low = limit.min if limit.min is not None and _finite(limit.min) else None
    high = limit.max if limit.max is not None and _finite(limit.max) else None
    if low is not None and high is not None and low > high:
        low, high = None, None  # an empty range cannot be written; the reader reports such limits
    if low is not None:
        common["min"] = _number(low)
    if high is not None:
        common["max"] = _number(high)
    _put_number(common, "stiffness", limit.stiffness, None, minimum=0.0)  # None/negative: infinite
    _put_number(common, "damping", limit.damping, 0.0, minimum=0.0)
    entries = []
    for key, axes in (("linearAxes", _axes(limit.linear_axes)), ("angularAxes", _axes(limit.angular_axes))):
        if axes:
            entries.append({key: axes, **common})
    return entries


def drive_to_json(drive: JointDrive) -> dict:
    out: dict[str, Any] = {
        "type": drive.type if isinstance(drive.type, str) and drive.type else "angular",
        "mode": drive.mode if isinstance(drive.mode, str) and drive.mode else "force",
        "axis": drive.axis if drive.axis in (0, 1, 2) and not isinstance(drive.axis, bool) else 0,
    }
    _put_number(out, "maxForce", drive.max_force, None, minimum=0.0)  # None/negative: unlimited
    _put_number(out, "positionTarget", drive.position_target, None)
    _put_number(out, "velocityTarget", drive.velocity_target, None)
    _put_number(out, "stiffness", drive.stiffness, 0.0, minimum=0.0)
    _put_number(out, "damping", drive.damping, 0.0, minimum=0.0)
    return out


def joint_settings_to_json(settings: JointSettings) -> dict:
    out: dict[str, Any] = {}
    limits = [entry for limit in settings.limits for entry in limit_to_json(limit)]
    if limits:
        out["limits"] = limits
    if settings.drives:
        out["drives"] = [drive_to_json(drive) for drive in settings.drives]
    _put_name(out, settings.name)
    return out


# --- one node ------------------------------------------------------------------------------------

def _shape_ref(shape: Shape, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: str,
               issues: list[Issue] | None) -> tuple[bool, Any]:
    """(usable, index) for a shape; not usable when its mesh is not exported."""
    mesh_value = None
    if shape.type in model.MESH_SHAPE_TYPES:
        if shape.mesh is None:
            _note(issues, at, f"{shape.type} shape has no mesh; written without one", "warning")
        else:
            mesh_value = mesh_ref(shape.mesh)
            if mesh_value is None:
                _note(issues, at, f"the mesh of the {shape.type} shape is not exported; dropped")
                return False, None
    return True, ref("shapes", shape_to_json(shape, mesh_value))


def _note(issues: list[Issue] | None, at: str, message: str, severity: str = "error") -> None:
    if issues is not None:
        issues.append(Issue(at, message, severity))  # type: ignore[arg-type]


def _optional_ref(ref: Ref, kind: str, item: dict) -> Any:
    """Index of a material/filter, or None for one that means the same as no item at all."""
    return ref(kind, item) if item else None


def _collider_json(collider: Collider, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: str,
                   issues: list[Issue] | None) -> dict | None:
    out: dict[str, Any] = {}
    if collider.shape is not None:
        usable, index = _shape_ref(collider.shape, ref, mesh_ref, join(at, "collider", "shape"), issues)
        if not usable:
            return None
        out["shape"] = index
    if collider.physics_material is not None:
        index = _optional_ref(ref, "physicsMaterials", material_to_json(collider.physics_material))
        if index is not None:
            out["physicsMaterial"] = index
    if collider.collision_filter is not None:
        index = _optional_ref(ref, "collisionFilters", filter_to_json(collider.collision_filter))
        if index is not None:
            out["collisionFilter"] = index
    return out


def _trigger_json(trigger: Trigger, ref: Ref, node_ref: Callable[[NodeRef], Any],
                  mesh_ref: Callable[[MeshRef], Any], *, at: str, issues: list[Issue] | None) -> dict | None:
    out: dict[str, Any] = {}
    if trigger.shape is not None:
        usable, index = _shape_ref(trigger.shape, ref, mesh_ref, join(at, "trigger", "shape"), issues)
        if not usable:
            return None
        out["shape"] = index
        if trigger.collision_filter is not None:
            index = _optional_ref(ref, "collisionFilters", filter_to_json(trigger.collision_filter))
            if index is not None:
                out["collisionFilter"] = index
        return out
    members = []
    for position, member in enumerate(trigger.nodes):
        value = node_ref(member)
        if value is None:
            _note(issues, join(at, "trigger", "nodes", position), "compound trigger member is not exported; dropped")
        elif value not in members:
            members.append(value)
    if not members:
        _note(issues, join(at, "trigger"), "compound trigger has no exported member; dropped")
        return None
    if trigger.collision_filter is not None and filter_to_json(trigger.collision_filter):
        _note(issues, join(at, "trigger", "collisionFilter"),
              "a compound trigger cannot carry a collision filter (schema); set it on its members; dropped")
    out["nodes"] = members
    return out


def _joint_json(joint: Joint, ref: Ref, node_ref: Callable[[NodeRef], Any], at: str,
                issues: list[Issue] | None) -> dict | None:
    connected = node_ref(joint.connected_node) if joint.connected_node is not None else None
    if connected is None:
        _note(issues, join(at, "connectedNode"), "the joint's connected node is not exported; joint dropped")
        return None
    out: dict[str, Any] = {"joint": ref("physicsJoints", joint_settings_to_json(joint.settings)),
                           "connectedNode": connected}
    if joint.enable_collision:
        out["enableCollision"] = True
    return out


def node_extensions(
    node: NodePhysics,
    ref: Ref,
    node_ref: Callable[[NodeRef], Any],
    mesh_ref: Callable[[MeshRef], Any],
    issues: list[Issue] | None = None,
    *,
    at: str = "",
) -> dict[str, dict]:
    """The node-level OMI extensions of one node: {"OMI_physics_body": ..., "OMI_physics_joint": ...}.

    Only the keys that apply are present. A grouping collider is written as `{}`. Targets that
    node_ref/mesh_ref report as not exported (None) are dropped and noted in `issues` (pointers are
    relative to `at`, e.g. "/nodes/3/extensions/OMI_physics_body").
    """
    result: dict[str, dict] = {}
    body: dict[str, Any] = {}
    body_at = join(at, "extensions", BODY) if at else ""
    if node.motion is not None:
        body["motion"] = motion_to_json(node.motion)
    if node.collider is not None:
        collider = _collider_json(node.collider, ref, mesh_ref, body_at, issues)
        if collider is not None:
            body["collider"] = collider
    if node.trigger is not None:
        trigger = _trigger_json(node.trigger, ref, node_ref, mesh_ref, at=body_at, issues=issues)
        if trigger is not None:
            body["trigger"] = trigger
    if body:
        result[BODY] = body
    if node.joint is not None:
        joint = _joint_json(node.joint, ref, node_ref, join(at, "extensions", JOINT) if at else "", issues)
        if joint is not None:
            result[JOINT] = joint
    return result


# --- whole document ------------------------------------------------------------------------------

class ItemArrays:
    """Document-level arrays filled by `ref`, equal items stored once (compared as canonical JSON)."""

    def __init__(self) -> None:
        self.arrays: dict[str, list[dict]] = {"shapes": [], "physicsMaterials": [], "collisionFilters": [],
                                              "physicsJoints": []}
        self._seen: dict[tuple[str, str], int] = {}

    def ref(self, kind: str, item: dict) -> int:
        key = (kind, json.dumps(item, sort_keys=True, allow_nan=False))
        if key not in self._seen:
            self._seen[key] = len(self.arrays[kind])
            self.arrays[kind].append(item)
        return self._seen[key]


def _clean_node_extensions(node: dict) -> None:
    extensions = node.get("extensions")
    if not isinstance(extensions, dict):
        return
    touched = False
    for name in ALL_OMI_EXTENSIONS:
        if name in extensions:
            del extensions[name]
            touched = True
    if touched and not extensions:
        del node["extensions"]


def _set_document_extension(gltf: dict, name: str, arrays: dict[str, list], keys: Iterable[str]) -> bool:
    """Replace the OMI arrays of one document-level extension, keep its other members; True if written."""
    extensions = gltf.get("extensions") if isinstance(gltf.get("extensions"), dict) else None
    previous = extensions.get(name) if extensions is not None else None
    kept = {key: value for key, value in previous.items() if key in ("extensions", "extras")} \
        if isinstance(previous, dict) else {}
    content = {key: arrays[key] for key in keys if arrays.get(key)}
    if not content:
        if extensions is not None:
            extensions.pop(name, None)
        return False
    if extensions is None:
        extensions = gltf["extensions"] = {}
    extensions[name] = {**content, **kept}
    return True


def write_document(doc: PhysicsDocument, gltf: Mapping) -> dict:
    """A deep copy of `gltf` whose OMI content is `doc` in the current revision; nothing else changes."""
    out: dict = _copy_json(gltf) if isinstance(gltf, Mapping) else {}
    nodes = out.get("nodes") if isinstance(out.get("nodes"), list) else []
    meshes = out.get("meshes") if isinstance(out.get("meshes"), list) else []
    for node in nodes:
        if isinstance(node, dict):
            _clean_node_extensions(node)

    items = ItemArrays()

    def node_ref(value: NodeRef) -> int | None:
        valid = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(nodes)
        return value if valid else None

    def mesh_ref(value: MeshRef) -> int | None:
        valid = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(meshes)
        return value if valid else None

    used: set[str] = set()
    for index in sorted(key for key in doc.nodes if isinstance(key, int)):
        if not 0 <= index < len(nodes) or not isinstance(nodes[index], dict):
            continue
        extensions = node_extensions(doc.nodes[index], items.ref, node_ref, mesh_ref)
        if not extensions:
            continue
        node_json = nodes[index]
        if not isinstance(node_json.get("extensions"), dict):
            node_json["extensions"] = {}
        node_json["extensions"].update(extensions)
        used.update(extensions)

    extensions = out.get("extensions")
    if isinstance(extensions, dict):
        extensions.pop(LEGACY_COLLIDER, None)
    if _set_document_extension(out, SHAPE, items.arrays, ("shapes",)):
        used.add(SHAPE)
    if _set_document_extension(out, BODY, items.arrays, ("physicsMaterials", "collisionFilters")):
        used.add(BODY)
    if _set_document_extension(out, JOINT, items.arrays, ("physicsJoints",)):
        used.add(JOINT)
    if isinstance(out.get("extensions"), dict) and not out["extensions"] and "extensions" not in gltf:
        del out["extensions"]
    _update_extension_lists(out, used)
    return out


def _copy_json(value: Any) -> Any:
    """A copy of JSON-like data in which no two places share an object (unlike copy.deepcopy, which keeps
    aliasing: two nodes given as one dict must not receive each other's extensions). Iterative, so any
    depth json.loads accepts is fine; a cycle (Python-made input only) is kept as a shared reference."""
    containers = (Mapping, list, tuple)
    if not isinstance(value, containers):
        return value
    root: Any = {} if isinstance(value, Mapping) else [None] * len(value)
    stack = [(value, root, frozenset({id(value)}))]
    while stack:
        source, target, path = stack.pop()
        items = source.items() if isinstance(source, Mapping) else enumerate(source)
        for key, item in items:
            if isinstance(item, containers) and id(item) not in path:
                child: Any = {} if isinstance(item, Mapping) else [None] * len(item)
                stack.append((item, child, path | {id(item)}))
                target[key] = child
            else:
                target[key] = copy.copy(item) if isinstance(item, containers) else item
    return root


def _update_extension_lists(out: dict, used: set[str]) -> None:
    """extensionsUsed lists exactly the OMI extensions written; extensionsRequired loses the others."""
    previous = out.get("extensionsUsed")
    names = [name for name in previous if isinstance(name, str)] if isinstance(previous, list) else []
    names = [name for name in names if name not in ALL_OMI_EXTENSIONS or name in used]
    names += [name for name in OMI_EXTENSIONS if name in used and name not in names]
    if names:
        out["extensionsUsed"] = names
    else:
        out.pop("extensionsUsed", None)
    required = out.get("extensionsRequired")
    if isinstance(required, list):
        kept = [name for name in required if name not in ALL_OMI_EXTENSIONS or name in used]
        if kept:
            out["extensionsRequired"] = kept
        else:
            del out["extensionsRequired"]
