"""KHR_physics_rigid_bodies + KHR_implicit_shapes -> the same model as OMI.

The OMI reader does the work (`reader._Reader`: compound triggers, joints, bodies, every rule); this
subclass overrides only what KHR spells differently, and the values go through the KHR tables
(`dialects_khr.KHR`). Where the model cannot hold a KHR value, a finding with its pointer says what
was read instead (`rules.NOTES`, the "khr_" entries):
- `isKinematic` -> motion type kinematic; a collider with no motion above it is static, as in OMI;
- `mass` absent (the engine computes it) -> OMI's 1 kg (info); `mass` 0 (infinite) -> `math.inf`;
- `inertiaDiagonal` components of 0 (infinite) -> `math.inf` (the model's zero means computed, as OMI's);
- `geometry.shape` -> the shape; `geometry.mesh` (newest revision) and `geometry.node` (first revision,
  that node's mesh) -> convex with `convexHull`, else trimesh; a plane -> a thin box (`reader_items`);
- the joint inside the body extension; its placement rules of OMI (own node, no mesh) do not apply.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .. import model
from ..checks import rules
from ..dialects.khr import BODY_EXTENSION, GEOMETRY_FIELDS, KHR, SHAPE_EXTENSION
from ..json_types import MISSING, ROOT, Where, bool_or, get, index_or_none, is_number, join, obj_or_none, report
from ..model import Collider, Motion, PhysicsDocument, Shape
from .items import ItemReader
from .reader import _Reader

REV_KHR_BODY = BODY_EXTENSION
REV_KHR_SHAPES = SHAPE_EXTENSION
REV_KHR_GEOMETRY_NODE = f"{BODY_EXTENSION}.geometry_node"  # the first revision: geometry refers to a node
REV_KHR_GEOMETRY_MESH = f"{BODY_EXTENSION}.geometry_mesh"  # the newest revision: geometry refers to a mesh
_IDENTITY_TRS = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}


class KhrReader(_Reader):
    body_extension = BODY_EXTENSION
    joint_what = "joint"
    joint_placement_rules = False

    def __init__(self, gltf: object, doc: PhysicsDocument, tree_mended: bool = False) -> None:
        super().__init__(gltf, doc, tree_mended)
        self.items = ItemReader(self.issues, self.items.mesh_count, self.revision, KHR)
        self.current_node = -1

    def read_document_arrays(self) -> None:
        at, raw = self.document_array(SHAPE_EXTENSION, "shapes")
        if raw:
            self.revision(REV_KHR_SHAPES, at)
        self.shapes = [self.items.read_shape(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY_EXTENSION, "physicsMaterials")
        self.materials = [self.items.read_material(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY_EXTENSION, "collisionFilters")
        self.filters = [self.items.read_filter(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY_EXTENSION, "physicsJoints")
        self.joint_settings = [self.items.read_joint_settings(item, join(at, i)) for i, item in enumerate(raw)]
        self.colliders = []
        for name in KHR.extensions:  # the document-level keys beside the arrays: named (not kept yet)
            content = get(self.extensions, name)
            if isinstance(content, Mapping):
                self.items.kept((), content, join(ROOT, "extensions", name), f"{name} extension",
                                known=KHR.arrays_of(name))

    def read_node(self, index: int, node_json: object) -> None:
        extensions = self.node_extensions(index, node_json)
        if BODY_EXTENSION not in extensions:
            return
        at = join(ROOT, "nodes", index, "extensions", BODY_EXTENSION)
        body = obj_or_none(get(extensions, BODY_EXTENSION), at, self.issues, BODY_EXTENSION)
        if body is None:
            return
        self.revision(REV_KHR_BODY, at)
        self.current_node = index
        if "joint" in body:
            self.joint_nodes.append(index)  # read once every body is known
        self.read_parts(index, body, at)

    def joint_json(self, index: int) -> tuple[object, Where]:
        body = get(get(self.nodes_json[index], "extensions"), BODY_EXTENSION)
        return get(body, "joint"), join(ROOT, "nodes", index, "extensions", BODY_EXTENSION, "joint")

    def extensions_read(self) -> set[str]:
        return {name for name in (BODY_EXTENSION, SHAPE_EXTENSION) if name in self.doc.revisions}

    # --- motion ----------------------------------------------------------------------------------

    def read_motion(self, raw: object, at: Where) -> Motion | None:
        motion = obj_or_none(raw, at, self.issues, "motion")
        if motion is None:
            return None
        values: dict[str, Any] = dict(motion)
        kinematic = bool_or(get(motion, "isKinematic"), False, join(at, "isKinematic"), self.issues, "isKinematic")
        infinite: dict[str, Any] = {}
        mass = get(motion, "mass")
        if mass is MISSING:
            self.issues.append(rules.note(at, "khr_mass_absent", mass=model.DEFAULT_MASS))
        elif is_number(mass) and mass == 0:
            self.issues.append(rules.note(join(at, "mass"), "khr_infinite_mass"))
            infinite["mass"] = math.inf
            del values["mass"]
        inertia = get(motion, "inertiaDiagonal")
        if isinstance(inertia, list) and len(inertia) == 3 \
                and any(is_number(value) and value == 0 for value in inertia):
            self.issues.append(rules.note(join(at, "inertiaDiagonal"), "khr_infinite_inertia"))
            values["inertiaDiagonal"] = [1.0 if is_number(value) and value == 0 else value for value in inertia]
            infinite["inertia_diagonal"] = tuple(value == 0 for value in inertia)
        self.items.kept(self.items.dialect.motion_fields, motion, at, "motion")  # named: KHR's are not kept yet
        read = self.items.motion_values(values, at)
        zeros = infinite.pop("inertia_diagonal", None)
        numbers = read.get("inertia_diagonal", model.ZERO3)
        if zeros is not None and numbers != model.ZERO3:  # ZERO3: the other components were unusable (reported)
            read["inertia_diagonal"] = tuple(math.inf if zero else value
                                             for zero, value in zip(zeros, numbers, strict=True))
        read.update(infinite)
        return Motion("kinematic" if kinematic else "dynamic", **read)

    def read_trigger(self, index: int, raw: object, at: Where) -> None:
        if isinstance(raw, Mapping) and "geometry" not in raw and "nodes" not in raw and "shape" not in raw:
            self.issues.append(rules.note(at, "trigger_needs_geometry"))
            return
        super().read_trigger(index, raw, at)

    def read_collider(self, raw: object, at: Where) -> Collider | None:
        """A KHR collider needs its geometry (there is no shape-less grouping collider in KHR)."""
        collider = super().read_collider(raw, at)
        if collider is not None and collider.shape is None:
            if get(raw, "geometry") is MISSING and get(raw, "shape") is MISSING:
                report(self.issues, at, "collider has no geometry; dropped")
            return None
        return collider

    # --- geometry --------------------------------------------------------------------------------

    def shape_of(self, container: Mapping[str, Any], at: Where) -> tuple[Shape | None, object]:
        raw = get(container, "geometry")
        if raw is MISSING:
            if "shape" in container:  # the README's first example puts `shape` on the collider itself
                self.issues.append(rules.note(join(at, "shape"), "khr_shape_without_geometry"))
                return super().shape_of(container, at)
            return None, MISSING
        at = join(at, "geometry")
        geometry = obj_or_none(raw, at, self.issues, "geometry")
        if geometry is None:
            return None, raw
        self.items.kept(GEOMETRY_FIELDS, geometry, at, "geometry")  # named: KHR's are not kept yet
        convex = bool_or(get(geometry, "convexHull"), False, join(at, "convexHull"), self.issues, "convexHull")
        present = [key for key in ("shape", "mesh", "node") if key in geometry]
        if not present:
            report(self.issues, at, "geometry has none of shape, mesh and node; dropped")
            return None, raw
        if len(present) > 1:
            report(self.issues, at, f"geometry has {' and '.join(present)} (one is allowed); {present[0]} used",
                   "warning")
        key = present[0]
        if key == "shape":
            return self.resolve(geometry["shape"], self.shapes, join(at, "shape"), "shape"), raw
        if key == "mesh":
            self.revision(REV_KHR_GEOMETRY_MESH, at)
            mesh = index_or_none(geometry["mesh"], self.items.mesh_count, join(at, "mesh"), self.issues, "mesh")
        else:
            self.revision(REV_KHR_GEOMETRY_NODE, at)
            mesh = self.node_mesh(geometry["node"], join(at, "node"))
        if mesh is None:
            return None, raw
        return Shape("convex" if convex else "trimesh", mesh=mesh), raw

    def node_mesh(self, value: object, at: Where) -> int | None:
        """The mesh of a geometry node (first KHR revision), with what the model cannot keep warned."""
        node = index_or_none(value, len(self.nodes_json), at, self.issues, "geometry node")
        if node is None:
            return None
        node_json = self.nodes_json[node]
        mesh = index_or_none(get(node_json, "mesh"), self.items.mesh_count, at, self.issues, "geometry node mesh")
        if mesh is None:
            report(self.issues, at, f"geometry node {node} has no mesh; dropped")
            return None
        placed = any(key in node_json and node_json[key] != _IDENTITY_TRS.get(key) for key in
                     ("translation", "rotation", "scale", "matrix"))
        if node != self.current_node and placed:
            self.issues.append(rules.note(at, "khr_geometry_node_transform", node=node))
        if get(node_json, "children") not in (MISSING, []):
            self.issues.append(rules.note(at, "khr_geometry_node_children", node=node))
        return mesh
