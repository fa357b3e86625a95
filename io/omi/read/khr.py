"""KHR_physics_rigid_bodies + KHR_implicit_shapes -> the same model as OMI.

The OMI structure's reading does the work (`read/document.py`, `read/bodies.py`: compound triggers, joints,
bodies, every rule); the functions here are KHR's `Spelling`, only what KHR spells differently, and the
values go through the KHR tables (`dialects/khr.py`). Where the model cannot hold a KHR value, a finding
with its pointer says what was read instead (`rulebook.NOTES`, the "khr_" entries):
- `isKinematic` -> motion type kinematic; a collider with no motion above it is static, as in OMI;
- `mass` absent (the engine computes it) -> OMI's 1 kg (info); `mass` 0 (infinite) -> `math.inf`;
- `inertiaDiagonal` components of 0 (infinite) -> `math.inf` (the model's zero means computed, as OMI's);
- `geometry.shape` -> the shape; `geometry.mesh` (newest revision) and `geometry.node` (first revision,
  that node's mesh) -> convex with `convexHull`, else trimesh; a plane -> a thin box (`read/items.py`);
- the joint inside the body extension; its placement rules of OMI (own node, no mesh) do not apply.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .. import model
from ..checks import rulebook
from ..dialects.base import Dialect
from ..dialects.khr import BODY_EXTENSION, GEOMETRY_FIELDS, SHAPE_EXTENSION
from ..json_types import MISSING, ROOT, Where, bool_or, get, index_or_none, is_number, join, obj_or_none, report
from ..model import Collider, Motion, PhysicsDocument, Shape
from . import bodies, triggers
from .document import read_item_arrays, run
from .state import ReadState, Spelling, node_extensions, resolve, revision

REV_KHR_BODY = BODY_EXTENSION
REV_KHR_SHAPES = SHAPE_EXTENSION
REV_KHR_GEOMETRY_NODE = f"{BODY_EXTENSION}.geometry_node"  # the first revision: geometry refers to a node
REV_KHR_GEOMETRY_MESH = f"{BODY_EXTENSION}.geometry_mesh"  # the newest revision: geometry refers to a mesh
_IDENTITY_TRS = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}


def read(gltf: Mapping[str, Any], doc: PhysicsDocument, dialect: Dialect, tree_mended: bool) -> list[Shape | None]:
    """Fill `doc` from a document's KHR physics; the document-level shapes as read."""
    state = ReadState(gltf, doc, dialect, SPELLING, tree_mended)
    run(state)
    return state.shapes


def read_arrays(state: ReadState) -> None:
    read_item_arrays(state, {"shapes": REV_KHR_SHAPES})
    state.colliders = []
    for name in state.dialect.extensions:  # the document-level keys beside the arrays: named (not kept yet)
        content = get(state.extensions, name)
        if isinstance(content, Mapping):
            state.items.kept((), content, join(ROOT, "extensions", name), f"{name} extension",
                            known=state.dialect.arrays_of(name))


def read_node(state: ReadState, index: int, node_json: object) -> None:
    extensions = node_extensions(state, index, node_json)
    if BODY_EXTENSION not in extensions:
        return
    at = join(ROOT, "nodes", index, "extensions", BODY_EXTENSION)
    body = obj_or_none(get(extensions, BODY_EXTENSION), at, state.issues, BODY_EXTENSION)
    if body is None:
        return
    revision(state, REV_KHR_BODY, at)
    state.current_node = index
    if "joint" in body:
        state.joint_nodes.append(index)  # read once every body is known
    bodies.read_parts(state, index, body, at)


def joint_json(state: ReadState, index: int) -> tuple[object, Where]:
    body = get(get(state.nodes_json[index], "extensions"), BODY_EXTENSION)
    return get(body, "joint"), join(ROOT, "nodes", index, "extensions", BODY_EXTENSION, "joint")


def read_motion(state: ReadState, raw: object, at: Where) -> Motion | None:
    motion = obj_or_none(raw, at, state.issues, "motion")
    if motion is None:
        return None
    values: dict[str, Any] = dict(motion)
    kinematic = bool_or(get(motion, "isKinematic"), False, join(at, "isKinematic"), state.issues, "isKinematic")
    infinite: dict[str, Any] = {}
    mass = get(motion, "mass")
    if mass is MISSING:
        state.issues.append(rulebook.note(at, "khr_mass_absent", mass=model.DEFAULT_MASS))
    elif is_number(mass) and mass == 0:
        state.issues.append(rulebook.note(join(at, "mass"), "khr_infinite_mass"))
        infinite["mass"] = math.inf
        del values["mass"]
    inertia = get(motion, "inertiaDiagonal")
    if isinstance(inertia, list) and len(inertia) == 3 \
            and any(is_number(value) and value == 0 for value in inertia):
        state.issues.append(rulebook.note(join(at, "inertiaDiagonal"), "khr_infinite_inertia"))
        values["inertiaDiagonal"] = [1.0 if is_number(value) and value == 0 else value for value in inertia]
        infinite["inertia_diagonal"] = tuple(value == 0 for value in inertia)
    state.items.kept(state.items.dialect.motion_fields, motion, at, "motion")  # named: KHR's are not kept yet
    read = state.items.motion_values(values, at)
    zeros = infinite.pop("inertia_diagonal", None)
    numbers = read.get("inertia_diagonal", model.ZERO3)
    if zeros is not None and numbers != model.ZERO3:  # ZERO3: the other components were unusable (reported)
        read["inertia_diagonal"] = tuple(math.inf if zero else value
                                         for zero, value in zip(zeros, numbers, strict=True))
    read.update(infinite)
    return Motion("kinematic" if kinematic else "dynamic", **read)


def read_trigger(state: ReadState, index: int, raw: object, at: Where) -> None:
    if isinstance(raw, Mapping) and "geometry" not in raw and "nodes" not in raw and "shape" not in raw:
        state.issues.append(rulebook.note(at, "trigger_needs_geometry"))
        return
    triggers.read_trigger(state, index, raw, at)


def read_collider(state: ReadState, raw: object, at: Where) -> Collider | None:
    """A KHR collider needs its geometry (there is no shape-less grouping collider in KHR)."""
    collider = bodies.read_collider(state, raw, at)
    if collider is not None and collider.shape is None:
        if get(raw, "geometry") is MISSING and get(raw, "shape") is MISSING:
            report(state.issues, at, "collider has no geometry; dropped")
        return None
    return collider


# --- geometry --------------------------------------------------------------------------------


def shape_of(state: ReadState, container: Mapping[str, Any], at: Where) -> tuple[Shape | None, object]:
    raw = get(container, "geometry")
    if raw is MISSING:
        if "shape" in container:  # the README's first example puts `shape` on the collider itself
            state.issues.append(rulebook.note(join(at, "shape"), "khr_shape_without_geometry"))
            return bodies.shape_of(state, container, at)
        return None, MISSING
    at = join(at, "geometry")
    geometry = obj_or_none(raw, at, state.issues, "geometry")
    if geometry is None:
        return None, raw
    state.items.kept(GEOMETRY_FIELDS, geometry, at, "geometry")  # named: KHR's are not kept yet
    convex = bool_or(get(geometry, "convexHull"), False, join(at, "convexHull"), state.issues, "convexHull")
    present = [key for key in ("shape", "mesh", "node") if key in geometry]
    if not present:
        report(state.issues, at, "geometry has none of shape, mesh and node; dropped")
        return None, raw
    if len(present) > 1:
        report(state.issues, at, f"geometry has {' and '.join(present)} (one is allowed); {present[0]} used",
               "warning")
    key = present[0]
    if key == "shape":
        return resolve(state, geometry["shape"], state.shapes, join(at, "shape"), "shape"), raw
    if key == "mesh":
        revision(state, REV_KHR_GEOMETRY_MESH, at)
        mesh = index_or_none(geometry["mesh"], state.items.mesh_count, join(at, "mesh"), state.issues, "mesh")
    else:
        revision(state, REV_KHR_GEOMETRY_NODE, at)
        mesh = node_mesh(state, geometry["node"], join(at, "node"))
    if mesh is None:
        return None, raw
    return Shape("convex" if convex else "trimesh", mesh=mesh), raw


def node_mesh(state: ReadState, value: object, at: Where) -> int | None:
    """The mesh of a geometry node (first KHR revision), with what the model cannot keep warned."""
    node = index_or_none(value, len(state.nodes_json), at, state.issues, "geometry node")
    if node is None:
        return None
    node_json = state.nodes_json[node]
    mesh = index_or_none(get(node_json, "mesh"), state.items.mesh_count, at, state.issues, "geometry node mesh")
    if mesh is None:
        report(state.issues, at, f"geometry node {node} has no mesh; dropped")
        return None
    placed = any(key in node_json and node_json[key] != _IDENTITY_TRS.get(key) for key in
                 ("translation", "rotation", "scale", "matrix"))
    if node != state.current_node and placed:
        state.issues.append(rulebook.note(at, "khr_geometry_node_transform", node=node))
    if get(node_json, "children") not in (MISSING, []):
        state.issues.append(rulebook.note(at, "khr_geometry_node_children", node=node))
    return mesh


SPELLING = Spelling(
    read_arrays=read_arrays,
    read_node=read_node,
    joint_json=joint_json,
    read_motion=read_motion,
    read_collider=read_collider,
    read_trigger=read_trigger,
    shape_of=shape_of,
    joint_what="joint",
    joint_placement_rules=False,
)
