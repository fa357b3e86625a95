"""The physics MEANING of a glTF file, independent of index order, array layout and revision.

Round-trip tests compare two files with this: nodes are keyed by their name path ("Root/Body/Shape"),
shapes, materials, filters and joint settings are inlined by value, node references become name paths
and mesh references a mesh fingerprint (vertex count, which survives re-export; else the mesh name).
Values that mean the same are written the same: a default material equals no material, a limit on
linear and angular axes equals two limits, an inertia quaternion equals its negation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from ..dialects import gravity as gravity_unit
from ..dialects import registry
from ..dialects.fields import Field
from ..dialects.omi import OMI
from ..json_types import get, sequence_items
from ..model import (
    MESH_SHAPE_TYPES,
    Collider,
    CollisionFilter,
    GravityVolume,
    Joint,
    JointSettings,
    Motion,
    PhysicsMaterial,
    Shape,
    Trigger,
    WorldGravity,
)
from ..read import reader
from .rulebook import Hierarchy

MARKER = "omi_canonical"
SIGNIFICANT_DIGITS = 5  # about 1e-4 relative: float32 round trips compare equal


def _round(value: float | None) -> float | None:
    if value is None:
        return None
    rounded = float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    return 0.0 if rounded == 0.0 else rounded  # no -0.0


def _vec(values: Any) -> list[float | None] | None:
    """Rounded numbers; None stays None (a value the engine computes)."""
    return None if values is None else [_round(value) for value in values]


def node_paths(gltf: Mapping[str, Any]) -> dict[int, str]:
    """Node index -> "Root/Child/Node" (names, '#<index>' for unnamed nodes, '[k]' for repeated paths)."""
    nodes = sequence_items(get(gltf, "nodes"))
    hierarchy = Hierarchy(nodes, [])

    def name(index: int) -> str:
        value = get(nodes[index], "name")
        return value.replace("/", "\\/") if isinstance(value, str) and value else f"#{index}"

    paths: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index in range(len(nodes)):
        chain = [name(ancestor) for ancestor in hierarchy.ancestors_or_self(index)]
        path = "/".join(reversed(chain))
        count = seen.get(path, 0)
        seen[path] = count + 1
        paths[index] = path if count == 0 else f"{path}[{count}]"
    return paths


def mesh_fingerprint(gltf: Mapping[str, Any], mesh: object) -> str:
    """Vertex count of the mesh's POSITION accessors, else its name (or index)."""
    meshes = sequence_items(get(gltf, "meshes"))
    accessors = sequence_items(get(gltf, "accessors"))
    if not (isinstance(mesh, int) and 0 <= mesh < len(meshes)):
        return f"mesh:{mesh!r}"
    total = 0
    found = False
    for primitive in sequence_items(get(meshes[mesh], "primitives")):
        position = get(get(primitive, "attributes"), "POSITION")
        if isinstance(position, int) and 0 <= position < len(accessors):
            count = get(accessors[position], "count")
            if isinstance(count, int):
                total += count
                found = True
    if found:
        return f"vertices:{total}"
    mesh_name = get(meshes[mesh], "name")
    return f"mesh:{mesh_name}" if isinstance(mesh_name, str) else f"mesh:#{mesh}"


def _values(fields: Iterable[Field], item: object) -> dict[str, Any]:
    """attr -> rounded value for the fields of a table that carry meaning (not names, not special keys)."""
    found: dict[str, Any] = {}
    for spec in fields:
        if spec.kind in ("name", "special"):
            continue
        value = getattr(item, spec.attr)
        if spec.kind == "vector":
            found[spec.attr] = _vec(value)
        elif spec.kind == "strings":
            found[spec.attr] = sorted(value)
        elif spec.kind in ("number", "infinity"):
            found[spec.attr] = _round(value)
        else:
            found[spec.attr] = value
    return found


def _shape(shape: Shape | None, gltf: Mapping[str, Any]) -> dict[str, Any] | None:
    if shape is None:
        return None
    if shape.type in MESH_SHAPE_TYPES:
        return {"type": shape.type, "mesh": None if shape.mesh is None else mesh_fingerprint(gltf, shape.mesh)}
    values = _values(OMI.shape_fields.get(shape.type, ()), shape)
    if "height" in values:
        values["height"] = _round(shape.effective_height)
    return {"type": shape.type, **values}


def _motion(motion: Motion | None) -> dict[str, Any] | None:
    if motion is None:
        return None
    orientation = list(motion.inertia_orientation)
    if orientation[3] < 0.0:
        orientation = [-value for value in orientation]
    return {"type": motion.type, **_values(OMI.motion_fields, motion), "inertia_orientation": _vec(orientation)}


def _material(material: PhysicsMaterial | None) -> dict[str, Any] | None:
    if material is None or material == PhysicsMaterial(name=material.name):
        return None
    return _values(OMI.material_fields, material)


def _filter(collision_filter: CollisionFilter | None) -> dict[str, Any] | None:
    if collision_filter is None:
        return None
    values = _values(OMI.filter_fields, collision_filter)
    return values if any(values.values()) else None


def _collider(collider: Collider | None, gltf: Mapping[str, Any]) -> dict[str, Any] | None:
    if collider is None:
        return None
    return {"shape": _shape(collider.shape, gltf), "material": _material(collider.physics_material),
            "filter": _filter(collider.collision_filter)}


def _trigger(trigger: Trigger | None, gltf: Mapping[str, Any], paths: dict[int, str]) -> dict[str, Any] | None:
    if trigger is None:
        return None
    members = sorted(paths.get(member, f"#{member}") for member in trigger.nodes)
    return {"shape": _shape(trigger.shape, gltf), "nodes": members, "filter": _filter(trigger.collision_filter)}


def _sorted(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def _settings(settings: JointSettings) -> dict[str, Any]:
    limits = []
    for limit in settings.limits:
        common = _values(OMI.limit_fields, limit)
        for kind, axes in (("linear", limit.linear_axes), ("angular", limit.angular_axes)):
            if axes:
                limits.append({"kind": kind, "axes": sorted(axes), **common})
    drives = [{"type": drive.type, "mode": drive.mode, "axis": drive.axis, **_values(OMI.drive_fields, drive)}
              for drive in settings.drives]
    return {"limits": _sorted(limits), "drives": _sorted(drives)}


def _joint(joint: Joint | None, paths: dict[int, str]) -> dict[str, Any] | None:
    if joint is None:
        return None
    return {"settings": _settings(joint.settings), "connected": paths.get(joint.connected_node, "?"),
            "enable_collision": joint.enable_collision}


def _volume(volume: GravityVolume | None, gltf: Mapping[str, Any]) -> dict[str, Any] | None:
    """A gravity volume's values that apply to its type (the others keep their defaults, unread)."""
    if volume is None:
        return None
    found = {"type": volume.type, **_values(gravity_unit.VOLUME_FIELDS, volume), "priority": volume.priority,
             **_values(gravity_unit.TYPE_FIELDS.get(volume.type, ()), volume)}
    if volume.type == "line":
        found["points"] = _vec(volume.points)
    if volume.type == "shaped":
        found["shape"] = _shape(volume.shape, gltf)
    return found


def _world(world: WorldGravity | None) -> dict[str, Any] | None:
    """The acceleration itself: 9.8 along [0, -1, 0] means what -9.8 along [0, 1, 0] does."""
    return None if world is None else {"vector": _vec(world.vector)}


def canonical_physics(gltf: Mapping[str, Any]) -> dict[str, Any]:
    """{"omi_canonical": 1, "nodes": {name path: {"motion", "collider", "trigger", "joint", "gravity"}}}, and
    "gravity" (the world gravity) when the file has one."""
    doc = reader.read_document(gltf)
    paths = node_paths(gltf)
    nodes: dict[str, dict[str, Any]] = {}
    for index, physics in doc.nodes.items():
        if physics.is_empty:
            continue  # a body of kept unknown keys only: no physics meaning
        entry = {"motion": _motion(physics.motion), "collider": _collider(physics.collider, gltf),
                 "trigger": _trigger(physics.trigger, gltf, paths), "joint": _joint(physics.joint, paths),
                 "gravity": _volume(physics.gravity, gltf)}
        for name, value in physics.extensions.items():  # each extension unit's own form
            unit = registry.extension_unit(name)
            if unit is not None and unit.canonical is not None:
                entry[name] = unit.canonical(value, paths)
        nodes[paths.get(index, f"#{index}")] = {key: value for key, value in entry.items() if value is not None}
    found: dict[str, Any] = {MARKER: 1, "nodes": dict(sorted(nodes.items()))}
    world = _world(doc.gravity)
    if world is not None:
        found["gravity"] = world
    return found


def diff_physics(a: Mapping[str, Any], b: Mapping[str, Any], tol: float = 1e-4) -> list[str]:
    """Each difference in physics meaning between two glTF documents (or their canonical forms), by path."""
    left = a if get(a, MARKER) == 1 else canonical_physics(a)
    right = b if get(b, MARKER) == 1 else canonical_physics(b)
    differences: list[str] = []
    _diff(left["nodes"], right["nodes"], "", tol, differences)
    _diff({"world gravity": left.get("gravity")}, {"world gravity": right.get("gravity")}, "", tol, differences)
    return differences


def _diff(left: Any, right: Any, path: str, tol: float, out: list[str]) -> None:
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        for key in sorted(set(left) | set(right), key=str):
            key_path = f"{path}.{key}" if path else str(key)
            if key not in right:
                out.append(f"{key_path}: only in the first")
            elif key not in left:
                out.append(f"{key_path}: only in the second")
            else:
                _diff(left[key], right[key], key_path, tol, out)
        return
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            out.append(f"{path}: {len(left)} items != {len(right)} items ({left!r} != {right!r})")
            return
        for position, (left_item, right_item) in enumerate(zip(left, right, strict=True)):
            _diff(left_item, right_item, f"{path}[{position}]", tol, out)
        return
    numbers = all(isinstance(value, int | float) and not isinstance(value, bool) for value in (left, right))
    if numbers:
        if not math.isclose(left, right, rel_tol=tol, abs_tol=tol):
            out.append(f"{path}: {left!r} != {right!r}")
        return
    if left != right:
        out.append(f"{path}: {left!r} != {right!r}")
