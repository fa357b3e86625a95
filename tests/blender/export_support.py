"""Export test support: build scenes, export through the real glTF exporter, read the file back, measure.

Every export made here is checked against the OMI schemas (with ERRATA's fixes) and for strict JSON, so
each test that exports also proves the file valid.
"""

from __future__ import annotations

import base64
import logging
import math
import struct
from pathlib import Path
from typing import Any

import bmesh
import bpy
import numpy as np
import omi_core.model
import schema_check
from import_support import captured_log, node_matrix
from mathutils import Euler, Matrix, Vector

BODY = "OMI_physics_body"
SHAPE = "OMI_physics_shape"
JOINT = "OMI_physics_joint"


class Exported:
    """A written glTF file, its JSON, and the export's log messages."""

    def __init__(self, path: Path, messages: list[str], notes: tuple[str, ...] = ()) -> None:
        self.path = path
        self.gltf = schema_check.load_gltf(path)
        self.messages = messages
        self.notes = notes  # the messages logged as info (e.g. a node the export adds, and why)

    # --- lookups -----------------------------------------------------------------------------------

    @property
    def nodes(self) -> list[dict]:
        return self.gltf.get("nodes", [])

    def index(self, name: str) -> int:
        matches = [i for i, node in enumerate(self.nodes) if node.get("name") == name]
        assert len(matches) == 1, f"{len(matches)} nodes named {name!r}: {[n.get('name') for n in self.nodes]}"
        return matches[0]

    def node(self, name: str) -> dict:
        return self.nodes[self.index(name)]

    def body(self, name_or_index: str | int) -> dict:
        node = self.nodes[name_or_index] if isinstance(name_or_index, int) else self.node(name_or_index)
        return node.get("extensions", {}).get(BODY, {})

    def joint(self, name_or_index: str | int) -> dict:
        node = self.nodes[name_or_index] if isinstance(name_or_index, int) else self.node(name_or_index)
        return node.get("extensions", {}).get(JOINT, {})

    def shapes(self) -> list[dict]:
        return self.gltf.get("extensions", {}).get(SHAPE, {}).get("shapes", [])

    def shape(self, index: int) -> dict:
        return self.shapes()[index]

    def root(self, extension: str, key: str) -> list[dict]:
        return self.gltf.get("extensions", {}).get(extension, {}).get(key, [])

    def parent(self, index: int) -> int | None:
        for candidate, node in enumerate(self.nodes):
            if index in node.get("children", []):
                return candidate
        return None

    def children(self, index: int) -> list[int]:
        return list(self.nodes[index].get("children", []))

    def carrier(self, name: str, part: str) -> int:
        """Index of the node carrying `part` ('collider', 'trigger') for the object `name`: itself or a descendant."""
        stack = [self.index(name)]
        while stack:
            index = stack.pop()
            if part in self.body(index):
                return index
            stack.extend(self.children(index))
        raise AssertionError(f"no {part} on {name!r} or below it")

    def warnings(self, *words: str) -> list[str]:
        """The add-on's warnings that hold every word (its infos left out)."""
        return [m for m in self.said(*words) if m not in self.notes]

    def said(self, *words: str) -> list[str]:
        """The add-on's messages, warnings and infos, that hold every word."""
        return [m for m in self.messages if "OMI physics" in m and all(w in m for w in words)]

    # --- transforms --------------------------------------------------------------------------------

    def local(self, index: int) -> Matrix:
        return node_matrix(self.nodes[index])

    def world(self, index: int) -> Matrix:
        """The node's global transform, as an importer composes it (glTF axes)."""
        matrix = self.local(index)
        parent = self.parent(index)
        while parent is not None:
            matrix = self.local(parent) @ matrix
            parent = self.parent(parent)
        return matrix

    # --- binary data -------------------------------------------------------------------------------

    def _buffer(self, index: int) -> bytes:
        buffer = self.gltf["buffers"][index]
        uri = buffer.get("uri")
        if uri is None:  # GLB: the BIN chunk
            data = self.path.read_bytes()
            json_length = struct.unpack_from("<I", data, 12)[0]
            offset = 20 + json_length
            length = struct.unpack_from("<I", data, offset)[0]
            return data[offset + 8: offset + 8 + length]
        if uri.startswith("data:"):
            return base64.b64decode(uri.split(",", 1)[1])
        return (self.path.parent / uri).read_bytes()

    def accessor(self, index: int) -> np.ndarray:
        accessor = self.gltf["accessors"][index]
        view = self.gltf["bufferViews"][accessor["bufferView"]]
        data = self._buffer(view["buffer"])
        dtype = {5126: np.float32, 5125: np.uint32, 5123: np.uint16, 5121: np.uint8}[accessor["componentType"]]
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[accessor["type"]]
        start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
        values = np.frombuffer(data, dtype=dtype, count=accessor["count"] * width, offset=start)
        return values.reshape(-1, width) if width > 1 else values

    def mesh_world_points(self, mesh_index: int, node_index: int) -> np.ndarray:
        """The mesh's triangle vertices placed by the node's global transform (glTF axes)."""
        primitives = self.gltf["meshes"][mesh_index]["primitives"]
        assert len(primitives) == 1 and primitives[0].get("mode", 4) == 4
        positions = self.accessor(primitives[0]["attributes"]["POSITION"]).astype(np.float64)
        world = np.array(self.world(node_index))
        return positions @ world[:3, :3].T + world[:3, 3]


def to_gltf(vector: Vector | tuple) -> Vector:
    """A Blender world-space point in glTF axes."""
    return Vector((vector[0], vector[2], -vector[1]))


def blender_world_to_gltf(matrix: Matrix) -> Matrix:
    conversion = Matrix(((1, 0, 0, 0), (0, 0, 1, 0), (0, -1, 0, 0), (0, 0, 0, 1)))
    return conversion @ matrix @ conversion.inverted()


def export(directory: Path, name: str = "scene", fmt: str = "GLTF_SEPARATE", *, check: bool = True,
           failures_expected: bool = False, **options: Any) -> Exported:
    """Export the current scene with bpy.ops.export_scene.gltf; the file must be valid OMI, and no hook
    may have failed unless the test provokes it."""
    path = Path(directory) / f"{name}{'.glb' if fmt == 'GLB' else '.gltf'}"
    with captured_log() as records:  # the glTF add-on logs exports under the importer's logger names too
        result = bpy.ops.export_scene.gltf(filepath=str(path), export_format=fmt, **options)
    assert result == {'FINISHED'}
    messages = [text for _level, text in records]
    exported = Exported(path, messages, tuple(text for level, text in records if level < logging.WARNING))
    omi_model = omi_core.model
    failure = omi_model.LOG_PREFIX + omi_model.HOOK_FAILURE
    errors = [m for m in messages if failure in m]
    assert failures_expected or not errors, errors
    if check:
        problems = schema_check.omi_schema_errors(exported.gltf)
        assert problems == [], problems
        assert_no_dangling_indices(exported.gltf)
    return exported


def assert_no_dangling_indices(gltf: dict) -> None:
    """Every OMI index points into its array (nodes, meshes, shapes, materials, filters, joints)."""
    extensions = gltf.get("extensions", {})
    sizes = {
        "nodes": len(gltf.get("nodes", [])), "meshes": len(gltf.get("meshes", [])),
        "shapes": len(extensions.get(SHAPE, {}).get("shapes", [])),
        "physicsMaterials": len(extensions.get(BODY, {}).get("physicsMaterials", [])),
        "collisionFilters": len(extensions.get(BODY, {}).get("collisionFilters", [])),
        "physicsJoints": len(extensions.get(JOINT, {}).get("physicsJoints", [])),
    }

    def check(value: Any, kind: str) -> None:
        assert isinstance(value, int) and 0 <= value < sizes[kind], f"{kind} index {value} of {sizes[kind]}"

    for shape in extensions.get(SHAPE, {}).get("shapes", []):
        if "mesh" in shape.get(shape["type"], {}):
            check(shape[shape["type"]]["mesh"], "meshes")
    for node in gltf.get("nodes", []):
        body = node.get("extensions", {}).get(BODY, {})
        for part in ("collider", "trigger"):
            content = body.get(part, {})
            if "shape" in content:
                check(content["shape"], "shapes")
            if "physicsMaterial" in content:
                check(content["physicsMaterial"], "physicsMaterials")
            if "collisionFilter" in content:
                check(content["collisionFilter"], "collisionFilters")
            for member in content.get("nodes", []):
                check(member, "nodes")
        joint = node.get("extensions", {}).get(JOINT)
        if joint is not None:
            check(joint["joint"], "physicsJoints")
            check(joint["connectedNode"], "nodes")


# --- scene building --------------------------------------------------------------------------------


def mesh_object(name: str, kind: str = "cube", location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), *,
                scale=(1.0, 1.0, 1.0), size: float = 1.0) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    if kind == "cube":
        bmesh.ops.create_cube(bm, size=size)
    elif kind == "ico":
        bmesh.ops.create_icosphere(bm, subdivisions=1, radius=size / 2)
    elif kind == "cone":
        bmesh.ops.create_cone(bm, cap_ends=True, segments=16, radius1=size / 2, radius2=0.0, depth=size)
    elif kind == "cylinder":
        bmesh.ops.create_cone(bm, cap_ends=True, segments=16, radius1=size / 2, radius2=size / 2, depth=size)
    else:
        raise ValueError(kind)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler, obj.scale = location, Euler(rotation), scale
    return obj


def empty(name: str, location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), scale=(1.0, 1.0, 1.0),
          parent: bpy.types.Object | None = None) -> bpy.types.Object:
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.parent = parent
    obj.location, obj.rotation_euler, obj.scale = location, Euler(rotation), scale
    return obj


def tag_shape(obj: bpy.types.Object, part: str, shape_type: str, **values: Any) -> Any:
    """Enable the collider or trigger of `obj` with a shape; returns the shape settings."""
    settings = obj.omi_physics
    setattr(settings, f"use_{part}", True)
    shape = getattr(settings, part).shape
    shape.shape_type = shape_type
    for key, value in values.items():
        setattr(shape, key, value)
    return shape


def tag_motion(obj: bpy.types.Object, motion_type: str = 'DYNAMIC', **values: Any) -> None:
    settings = obj.omi_physics
    settings.use_motion = True
    settings.motion.motion_type = motion_type
    for key, value in values.items():
        setattr(settings.motion, key, value)


def rigid_body_world() -> bpy.types.RigidBodyWorld:
    scene = bpy.context.scene
    if scene.rigidbody_world is None:
        bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new("RigidBodyWorld")
    if world.constraints is None:
        world.constraints = bpy.data.collections.new("RigidBodyConstraints")
    return world


def add_rigid_body(obj: bpy.types.Object, body_type: str = 'ACTIVE', shape: str = 'BOX',
                   **values: Any) -> bpy.types.RigidBodyObject:
    world = rigid_body_world()
    world.collection.objects.link(obj)
    bpy.context.view_layer.update()
    rigid_body = obj.rigid_body
    rigid_body.type = body_type
    rigid_body.collision_shape = shape
    for key, value in values.items():
        setattr(rigid_body, key, value)
    return rigid_body


def add_constraint(name: str, kind: str, object1, object2, *, location=(0.0, 0.0, 0.0),
                   rotation=(0.0, 0.0, 0.0), **values: Any) -> bpy.types.Object:
    world = rigid_body_world()
    obj = empty(name, location, rotation)
    world.constraints.objects.link(obj)
    bpy.context.view_layer.update()
    constraint = obj.rigid_body_constraint
    constraint.type = kind
    constraint.object1, constraint.object2 = object1, object2
    for key, value in values.items():
        setattr(constraint, key, value)
    return obj


def select(*objects: bpy.types.Object, active: bpy.types.Object | None = None) -> None:
    """Select exactly these objects, `active` (else the first) the active one, as a click in the viewport."""
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = active or objects[0]


def close(a, b, tolerance: float = 1e-4) -> bool:
    return all(math.isclose(x, y, abs_tol=tolerance) for x, y in zip(a, b, strict=True))


def matrices_close(a: Matrix, b: Matrix, tolerance: float = 1e-4) -> bool:
    return all(abs(a[row][col] - b[row][col]) <= tolerance for row in range(4) for col in range(4))


def point_sets_close(a: np.ndarray, b: np.ndarray, tolerance: float = 1e-4) -> bool:
    """Same set of points, in any order and with any repetition (rendered meshes split vertices)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size == 0 or b.size == 0:
        return a.size == b.size
    distances = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return bool(np.all(distances.min(axis=1) <= tolerance) and np.all(distances.min(axis=0) <= tolerance))


def box_corners(size) -> np.ndarray:
    half = np.array(size, dtype=np.float64) / 2
    return np.array([[sx * half[0], sy * half[1], sz * half[2]]
                     for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])


def transform(points: np.ndarray, matrix: Matrix) -> np.ndarray:
    m = np.array(matrix)
    return points @ m[:3, :3].T + m[:3, 3]


def global_scale(matrix: Matrix) -> tuple[float, float, float]:
    return tuple(matrix.to_3x3().col[i].length for i in range(3))
