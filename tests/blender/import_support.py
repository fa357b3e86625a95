"""Import test support: write glTF documents, import them with the real importer, read the file's own
transforms in Blender axes, step the Blender simulation.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import addon_loader
import bpy
from mathutils import Matrix, Quaternion, Vector

BODY = "OMI_physics_body"
SHAPE = "OMI_physics_shape"
JOINT = "OMI_physics_joint"
PREFIX = "OMI physics"

# glTF (x, y, z) -> Blender (x, -z, y), as a matrix acting on column vectors.
TO_BLENDER = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))


class Imported:
    """The scene an import made, with the importer's log."""

    def __init__(self, result: set[str], messages: list[tuple[int, str]]) -> None:
        self.result = result
        self.messages = messages

    @property
    def warnings(self) -> list[str]:
        return [text for level, text in self.messages if level >= logging.WARNING and text.startswith(PREFIX)]

    @property
    def notes(self) -> list[str]:
        """Info-level messages: what Blender cannot express, legacy forms read (not problems in the file)."""
        return [text for level, text in self.messages if level == logging.INFO and text.startswith(PREFIX)]

    @property
    def failures(self) -> list[str]:
        return [text for text in self.warnings if "failed" in text]

    def obj(self, name: str) -> bpy.types.Object:
        found = bpy.data.objects.get(name)
        assert found is not None, f"no object {name!r}: {[o.name for o in bpy.data.objects]}"
        return found


@contextlib.contextmanager
def captured_log() -> Iterator[list[tuple[int, str]]]:
    messages: list[tuple[int, str]] = []
    handler = logging.Handler(level=logging.DEBUG)
    handler.emit = lambda record: messages.append((record.levelno, record.getMessage()))  # type: ignore[method-assign]  # the handler collects instead
    loggers = [logging.getLogger(name) for name in ("glTFImporter", "glTFImporter_errors")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield messages
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def import_gltf(path: Path | str, *, physics: bool = True, rigid_bodies: bool = True, empty: bool = True) -> Imported:
    """Import a file with bpy.ops.import_scene.gltf (into an empty scene unless `empty` is False)."""
    if empty:
        bpy.ops.wm.read_homefile(use_empty=True)
    options = bpy.context.scene.omi_physics
    options.import_physics = physics
    options.import_rigid_bodies = rigid_bodies
    with captured_log() as messages:
        result = bpy.ops.import_scene.gltf(filepath=str(path))
    bpy.context.view_layer.update()
    return Imported(result, messages)


def write_gltf(directory: Path, name: str, document: dict) -> Path:
    path = Path(directory) / f"{name}.gltf"
    path.write_text(json.dumps(document, indent=1))
    return path


def document(nodes: list[Any], shapes: list[Any] | None = None, *, roots: list[int] | None = None,
             joints: list[Any] | None = None, materials: list[Any] | None = None,
             filters: list[Any] | None = None, meshes: bool = False) -> dict[str, Any]:
    """A current-revision glTF document; `meshes` adds mesh 0, a unit box, for nodes to use."""
    children = {child for node in nodes for child in node.get("children", [])}
    extensions: dict[str, Any] = {}
    used = [BODY]
    if shapes:
        extensions[SHAPE] = {"shapes": shapes}
        used.append(SHAPE)
    if joints:
        extensions[JOINT] = {"physicsJoints": joints}
        used.append(JOINT)
    if materials or filters:
        extensions[BODY] = {}
        if materials:
            extensions[BODY]["physicsMaterials"] = materials
        if filters:
            extensions[BODY]["collisionFilters"] = filters
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": used,
        "extensions": extensions,
        "nodes": nodes,
        "scenes": [{"nodes": roots if roots is not None else [i for i in range(len(nodes)) if i not in children]}],
        "scene": 0,
    }
    if meshes:
        gltf.update(box_mesh_arrays())
    return gltf


def box_mesh_arrays() -> dict:
    """buffers/bufferViews/accessors/meshes/materials with mesh 0: a unit box with a material."""
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    faces = ((0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3))
    positions = struct.pack("<24f", *(c for corner in corners for c in corner))
    indices = struct.pack("<36H", *(i for face in faces for i in face))
    data = base64.b64encode(positions + indices).decode("ascii")
    return {
        "buffers": [{"byteLength": len(positions) + len(indices),
                     "uri": f"data:application/octet-stream;base64,{data}"}],
        "bufferViews": [{"buffer": 0, "byteLength": len(positions)},
                        {"buffer": 0, "byteOffset": len(positions), "byteLength": len(indices)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
        "materials": [{"name": "Crate paint", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.1, 1.0]}}],
        "meshes": [{"name": "Crate", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
    }


def node_matrix(node: dict) -> Matrix:
    """A glTF node's local matrix (glTF axes)."""
    if "matrix" in node:
        m = node["matrix"]
        return Matrix([m[0:4], m[4:8], m[8:12], m[12:16]]).transposed()
    x, y, z, w = node.get("rotation", (0.0, 0.0, 0.0, 1.0))
    return Matrix.LocRotScale(Vector(node.get("translation", (0.0, 0.0, 0.0))), Quaternion((w, x, y, z)),
                              Vector(node.get("scale", (1.0, 1.0, 1.0))))


def gltf_world_matrices(gltf: dict) -> dict[int, Matrix]:
    """Every node's world matrix as the file says, in glTF axes (which are Godot's)."""
    nodes = gltf.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    found: dict[int, Matrix] = {}

    def world(index: int) -> Matrix:
        if index not in found:
            local = node_matrix(nodes[index])
            found[index] = world(parent[index]) @ local if index in parent else local
        return found[index]

    return {index: world(index) for index in range(len(nodes))}


def world_matrices(gltf: dict) -> dict[int, Matrix]:
    """Every node's world matrix as the file says, converted to Blender axes."""
    to_gltf = TO_BLENDER.inverted()
    return {index: TO_BLENDER @ matrix @ to_gltf for index, matrix in gltf_world_matrices(gltf).items()}


def matrices_close(a: Matrix, b: Matrix, tolerance: float = 1e-4) -> bool:
    return all(abs(a[i][j] - b[i][j]) <= tolerance for i in range(4) for j in range(4))


def shape_bounds(shape: Any) -> tuple[float, float, float]:
    """The extents of a model Shape in its node's local Blender axes."""
    if shape.type == "box":
        x, y, z = shape.size
        return (x, z, y)
    if shape.type == "sphere":
        return (2 * shape.radius,) * 3
    radius = max(shape.radius_top, shape.radius_bottom)
    height = shape.effective_height
    if shape.type == "capsule":
        height += shape.radius_top + shape.radius_bottom
    return (2 * radius, 2 * radius, height)


def world_extents(obj: bpy.types.Object) -> tuple[float, float, float]:
    """The object's bounding box edge lengths along its own axes, in world units."""
    scale = obj.matrix_world.to_scale()
    return tuple(obj.dimensions[i] * (scale[i] / obj.scale[i] if obj.scale[i] else 1.0) for i in range(3))


def constraints_of(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """The generated constraint objects made for a joint object (the builder's owner marker)."""
    return [other for other in bpy.context.scene.objects
            if other.rigid_body_constraint is not None and other.get("omi_owner") == obj]


def step(frames: int = 120) -> None:
    """Run the simulation from the start frame, one frame after the other."""
    scene = bpy.context.scene
    scene.frame_start = 1
    scene.frame_end = frames
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 1, max(cache.frame_end, frames)
    for frame in range(1, frames + 1):
        scene.frame_set(frame)


def rotation_angle(a: Matrix, b: Matrix) -> float:
    return a.to_quaternion().rotation_difference(b.to_quaternion()).angle


def scene_settings(bl_scene: bpy.types.Scene | None = None) -> Any:
    """What the rigid-body build reads from the settings layer (library entries, joint limits), as model values."""
    return addon_loader.module("properties.convert_build").SettingsPhysics(bl_scene or bpy.context.scene)


def shape_carrier(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object whose Blender rigid body shape stands for `obj`'s collider (hierarchy read from the settings)."""
    return addon_loader.module("io.blender.builder.plan").shape_carrier(
        obj, addon_loader.module("properties.convert_build").settings_parts)


def to_gltf(matrix: Matrix) -> Matrix:
    return TO_BLENDER.inverted() @ matrix @ TO_BLENDER


def position(obj) -> Vector:
    return to_gltf(obj.matrix_world).translation


NEWER = Path(__file__).resolve().parents[1] / "data" / "newer" / "newer_keys.gltf"  # a newer revision's keys
