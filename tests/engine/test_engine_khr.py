"""The second engine's loader on KHR_physics_rigid_bodies + KHR_implicit_shapes files written here from
the spec text (the add-on's KHR writer is tested against Blender in test_engine_vs_blender.py once it
exports KHR). Each file is simulated and checked against what it means, analytically.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path

import pytest

BODY = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"
G = 9.81
REST = 0.01  # Rapier's resting contacts sink about a millimetre


def pack(meshes: list[tuple[list, list]]) -> tuple[bytes, dict]:
    """Meshes (positions, triangles) as one buffer and their glTF arrays; mesh i uses accessors 2i, 2i+1."""
    binary = b""
    arrays: dict = {"bufferViews": [], "accessors": [], "meshes": []}
    for positions, triangles in meshes:
        points = struct.pack(f"<{3 * len(positions)}f", *(c for p in positions for c in p))
        indices = struct.pack(f"<{3 * len(triangles)}I", *(i for t in triangles for i in t))
        for data, kind, count, component in ((points, "VEC3", len(positions), 5126),
                                             (indices, "SCALAR", 3 * len(triangles), 5125)):
            arrays["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": len(data)})
            accessor = {"bufferView": len(arrays["bufferViews"]) - 1, "componentType": component, "count": count,
                        "type": kind}
            if kind == "VEC3":
                accessor["min"] = [min(p[i] for p in positions) for i in range(3)]
                accessor["max"] = [max(p[i] for p in positions) for i in range(3)]
            arrays["accessors"].append(accessor)
            binary += data
        first = len(arrays["accessors"]) - 2
        arrays["meshes"].append({"primitives": [{"attributes": {"POSITION": first}, "indices": first + 1}]})
    return binary, arrays


def octahedron(radius: float) -> tuple[list, list]:
    """A closed octahedron: it lies on a face with its centre radius / sqrt(3) above the ground."""
    r = radius
    positions = [(r, 0, 0), (-r, 0, 0), (0, r, 0), (0, -r, 0), (0, 0, r), (0, 0, -r)]
    triangles = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
    return positions, triangles


def square(size: float) -> tuple[list, list]:
    """A flat square at y = 0 facing up, two triangles."""
    h = size / 2
    return [(-h, 0, -h), (h, 0, -h), (h, 0, h), (-h, 0, h)], [(0, 2, 1), (0, 3, 2)]


def document(nodes: list[dict], shapes: list[dict] | None = None, *, meshes: list | None = None,
             **root: list[dict]) -> tuple[dict, bytes | None]:
    """A KHR physics document; `root` holds physicsMaterials, collisionFilters or physicsJoints."""
    children = {c for node in nodes for c in node.get("children", [])}
    gltf: dict = {
        "asset": {"version": "2.0"},
        "extensionsUsed": [BODY, SHAPES],
        "extensions": {SHAPES: {"shapes": shapes or []}, **({BODY: root} if root else {})},
        "nodes": nodes,
        "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
        "scene": 0,
    }
    binary = None
    if meshes:
        binary, arrays = pack(meshes)
        gltf.update(arrays)
        gltf["buffers"] = [{"byteLength": len(binary)}]
    return gltf, binary


def write_gltf(path: Path, gltf: dict, binary: bytes | None) -> Path:
    if binary is not None:
        encoded = base64.b64encode(binary).decode("ascii")
        gltf["buffers"][0]["uri"] = f"data:application/octet-stream;base64,{encoded}"
    path.write_text(json.dumps(gltf))
    return path


def write_glb(path: Path, gltf: dict, binary: bytes | None) -> Path:
    text = json.dumps(gltf).encode("utf-8")
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary is not None:
        binary += b"\0" * (-len(binary) % 4)
        chunks += struct.pack("<II", len(binary), 0x004E4942) + binary
    path.write_bytes(struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks)
    return path


def node(name: str, translation=(0.0, 0.0, 0.0), **physics) -> dict:
    found = {"name": name, "translation": list(translation)}
    if physics:
        found["extensions"] = {BODY: physics}
    return found


PLANE = {"type": "plane", "plane": {}}
UNIT_BOX = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}


def shape(index: int, **geometry) -> dict:
    return {"geometry": {"shape": index, **geometry}}


def test_gravity_factor_scales_free_fall_and_a_plane_stops_it(engine, tmp_path):
    """gravityFactor 0.5 falls g t^2 / 4 in the first second; 0 floats; both then meet an infinite plane."""
    nodes = [node("Ground", collider=shape(0)),
             node("Half", (0.0, 10.0, 0.0), motion={"gravityFactor": 0.5}, collider=shape(1)),
             node("Float", (3.0, 10.0, 0.0), motion={"gravityFactor": 0.0}, collider=shape(1)),
             node("Full", (-3.0, 10.0, 0.0), motion={}, collider=shape(1))]
    path = write_gltf(tmp_path / "fall.gltf", *document(nodes, [PLANE, UNIT_BOX]))
    result = engine.simulate(path, (1.0, 5.0))
    assert result.dialect == "khr"
    assert 10.0 - result.position("Half", 1.0)[1] == pytest.approx(G / 4, rel=0.02)
    assert 10.0 - result.position("Full", 1.0)[1] == pytest.approx(G / 2, rel=0.02)
    assert result.position("Float", 5.0)[1] == pytest.approx(10.0, abs=1e-6)
    for name in ("Half", "Full"):
        assert result.position(name, 5.0)[1] == pytest.approx(0.5, abs=REST)


def test_shape_defaults_are_the_dialects(engine, tmp_path):
    """A KHR capsule with no sizes is 0.5 high between its sphere centres with radius 0.25: standing on
    the plane its centre rests at 0.5 m; a default KHR cylinder (full height 0.5) rests at 0.25 m."""
    nodes = [node("Ground", collider=shape(0)),
             node("Capsule", (0.0, 2.0, 0.0), motion={}, collider=shape(1)),
             node("Cylinder", (2.0, 2.0, 0.0), motion={}, collider=shape(2))]
    shapes = [PLANE, {"type": "capsule", "capsule": {}}, {"type": "cylinder", "cylinder": {}}]
    result = engine.simulate(write_gltf(tmp_path / "defaults.gltf", *document(nodes, shapes)), (3.0,))
    assert result.position("Capsule", 3.0)[1] == pytest.approx(0.5, abs=REST)
    assert result.position("Cylinder", 3.0)[1] == pytest.approx(0.25, abs=REST)


def test_node_scale_sizes_the_shape(engine, tmp_path):
    """A unit box on a node scaled by 2 (and one scaled by -2 on Y: KHR takes the absolute value) is a 2 m
    box: it rests with its centre 1 m up."""
    scaled = node("Scaled", (0.0, 3.0, 0.0), motion={}, collider=shape(1))
    scaled["scale"] = [2.0, 2.0, 2.0]
    mirrored = node("Mirrored", (4.0, 3.0, 0.0), motion={}, collider=shape(1))
    mirrored["scale"] = [2.0, -2.0, 2.0]
    nodes = [node("Ground", collider=shape(0)), scaled, mirrored]
    result = engine.simulate(write_gltf(tmp_path / "scale.gltf", *document(nodes, [PLANE, UNIT_BOX])), (3.0,))
    for name in ("Scaled", "Mirrored"):
        assert result.position(name, 3.0)[1] == pytest.approx(1.0, abs=REST)


OFFSET = 0.3  # the hull sits this far above its body's origin
TILT = [math.sin(0.15), 0.0, 0.0, math.cos(0.15)]  # 0.3 rad about X


def hull_scene(form: str) -> list[dict]:
    """A floor that is a triangle mesh (geometry.mesh 1, no convexHull) and a body whose collider is the
    convex hull of an octahedron (mesh 0) 0.3 m above the body's origin: in the current revision a child
    collider node at that offset with geometry.mesh; in the older one the body's own collider naming a
    node that carries the mesh at that offset (geometry.node). The body starts tilted so that the hull
    lands on a vertex and tips over onto a face."""
    floor = node("Floor", collider={"geometry": {"mesh": 1}})
    if form == "mesh":
        body = node("Body", (0.2, 3.0, -0.1), motion={})
        body["children"] = [2]
        body["rotation"] = TILT
        part = node("Hull", (0.0, OFFSET, 0.0), collider={"geometry": {"mesh": 0, "convexHull": True}})
        return [floor, body, part]
    body = node("Body", (0.2, 3.0, -0.1), motion={}, collider={"geometry": {"node": 2, "convexHull": True}})
    body["children"] = [2]
    body["rotation"] = TILT
    return [floor, body, {"name": "Hull", "mesh": 0, "translation": [0.0, OFFSET, 0.0]}]


@pytest.mark.parametrize("container", ["gltf", "glb"])
@pytest.mark.parametrize("form", ["mesh", "node"])
def test_both_geometry_revisions_rest_a_hull_on_a_triangle_mesh(engine, tmp_path, form, container):
    """The hull falls onto the triangle-mesh floor and lies on a face: its centre (the node carrying the
    mesh, followed through the body) r / sqrt(3) above the floor, whichever revision placed it."""
    gltf, binary = document(hull_scene(form), meshes=[octahedron(0.5), square(20.0)])
    write = write_glb if container == "glb" else write_gltf
    result = engine.simulate(write(tmp_path / f"hull-{form}.{container}", gltf, binary), (4.0,), nodes=["Hull"])
    assert result.notes == []
    assert result.position("Hull", 4.0)[1] == pytest.approx(0.5 / math.sqrt(3), abs=REST)
