"""What Godot built, checked against the scene the artist made, as the `omi` export of that scene says it
(that export's meaning is checked against Blender by the Blender and engine tests): a mesh instance at every
node with a mesh, the right body class and mass, shapes of the same sizes at the same places (1e-4 m)."""

from __future__ import annotations

from typing import Any

from godot_runner import GodotNode, GodotScene
from import_support import gltf_world_matrices
from mathutils import Matrix, Vector

TOLERANCE = 1e-4  # metres; Godot keeps float32 (1e-7 relative), the exporter writes float32 too
CLASSES = {"static": "StaticBody3D", "kinematic": "AnimatableBody3D", "dynamic": "RigidBody3D"}


def godot_matrix(node: GodotNode) -> Matrix:
    columns = node.basis
    matrix = Matrix.Identity(4)
    for column in range(3):
        for row in range(3):
            matrix[row][column] = columns[column][row]
    matrix.translation = Vector(node.origin)
    return matrix


def close(a: Matrix, b: Matrix, tolerance: float = TOLERANCE) -> bool:
    return all(abs(a[i][j] - b[i][j]) <= tolerance for i in range(4) for j in range(4))


def mesh_bounds(gltf: dict, mesh: int) -> tuple[Vector, Vector]:
    """The mesh's bounding box from its POSITION accessors' min/max."""
    low, high = Vector((1e30,) * 3), Vector((-1e30,) * 3)
    for primitive in gltf["meshes"][mesh]["primitives"]:
        accessor = gltf["accessors"][primitive["attributes"]["POSITION"]]
        low = Vector(min(a, b) for a, b in zip(low, accessor["min"], strict=True))
        high = Vector(max(a, b) for a, b in zip(high, accessor["max"], strict=True))
    return low, high


def expected_shape(shape: Any, default_height, gltf: dict | None = None) -> dict[str, Any]:
    """The Godot shape resource that equals the model's shape (a mesh shape: its class and, given the file,
    the bounds of its mesh)."""
    if shape.type == "box":
        return {"class": "BoxShape3D", "size": list(shape.size)}
    if shape.type == "sphere":
        return {"class": "SphereShape3D", "radius": shape.radius}
    height = default_height(shape.type) if shape.height is None else shape.height
    radius = max(shape.radius_top, shape.radius_bottom)
    if shape.type == "capsule":
        return {"class": "CapsuleShape3D", "radius": radius, "height": height + shape.radius_top + shape.radius_bottom}
    if shape.type == "cylinder":
        return {"class": "CylinderShape3D", "radius": radius, "height": height}
    wanted: dict[str, Any] = {"class": "ConvexPolygonShape3D" if shape.type == "convex" else "ConcavePolygonShape3D"}
    if gltf is not None and isinstance(shape.mesh, int):
        wanted["bounds"] = [list(corner) for corner in mesh_bounds(gltf, shape.mesh)]
    return wanted


def in_world(shape: dict[str, Any], matrix: Matrix) -> tuple[dict[str, Any], Matrix]:
    """A shape and its place with the place's scale moved into the shape's sizes (Godot's bodies lose
    theirs, so the `godot` target bakes it: the sizes in the world are what must agree)."""
    scale = matrix.to_scale()
    sized = dict(shape)
    if "size" in shape:
        sized["size"] = [v * f for v, f in zip(shape["size"], scale, strict=True)]
    if "radius" in shape:
        sized["radius"] = shape["radius"] * max(scale[0], scale[2]) if "height" in shape else \
            shape["radius"] * max(scale)
    if "height" in shape:
        sized["height"] = shape["height"] * scale[1]
    if shape.get("bounds"):
        sized["bounds"] = [[v * f for v, f in zip(corner, scale, strict=True)] for corner in shape["bounds"]]
    place = matrix.to_quaternion().to_matrix().to_4x4()
    place.translation = matrix.translation
    return sized, place


def same_shape(built: dict[str, Any], wanted: dict[str, Any]) -> bool:
    if built.get("class") != wanted["class"]:
        return False
    for key, value in wanted.items():
        if key == "class":
            continue
        got = built.get(key)
        values = [v for corner in value for v in corner] if key == "bounds" else value if isinstance(value, list) \
            else [value]
        gots = [v for corner in got for v in corner] if key == "bounds" and got else got if isinstance(got, list) \
            else [got]
        if len(values) != len(gots):
            return False
        if any(g is None or abs(g - v) > TOLERANCE for g, v in zip(gots, values, strict=True)):
            return False
    return True


def problems(gltf: dict, doc: Any, scene: GodotScene, default_height, *, meshes: bool = True) -> list[str]:
    """Every way Godot's scene differs from the scene the `omi` export `gltf` (read as `doc`) describes.
    Node indices of the `omi` export are those of the `godot` export (which only appends nodes)."""
    found: list[str] = []
    world = gltf_world_matrices(gltf)
    instances = scene.of_class("MeshInstance3D")
    for index, node in enumerate(gltf.get("nodes", [])):
        if not meshes or "mesh" not in node:
            continue
        low, high = mesh_bounds(gltf, node["mesh"])
        match = [m for m in instances if m.data.get("mesh") and close(godot_matrix(m), world[index])
                 and (Vector(m.mesh_aabb[0]) - low).length < TOLERANCE
                 and (Vector(m.mesh_aabb[0]) + Vector(m.mesh_aabb[1]) - high).length < TOLERANCE]
        if not match:
            found.append(f"node {index} {node.get('name')!r}: no MeshInstance3D of its mesh at its place")
    for index, physics in doc.nodes.items():
        name = gltf["nodes"][index].get("name")
        built = scene.of(index)
        if built is None:
            found.append(f"node {index} {name!r}: Godot built no node")
            continue
        if physics.motion is not None:
            wanted = CLASSES[physics.motion.type]
            if built.data["class"] != wanted:
                found.append(f"node {index} {name!r}: {built.data['class']}, not {wanted}")
            elif wanted == "RigidBody3D" and abs(built.mass - physics.motion.mass) > 1e-6 * max(1, physics.motion.mass):
                found.append(f"node {index} {name!r}: mass {built.mass}, not {physics.motion.mass}")
        elif physics.trigger is not None and physics.trigger.shape is None and built.data["class"] != "Area3D":
            found.append(f"node {index} {name!r}: {built.data['class']}, not Area3D")
        # the shapes under other nodes of the scene are theirs; the nodes the `godot` target appended (a moved
        # mesh, a mesh-shaped collider on a scaled child) belong to the node they were made for
        appended = len(gltf.get("nodes", []))
        own = {scene.gltf_nodes[other] for other in range(min(len(scene.gltf_nodes), appended)) if other != index}
        shapes = [n for n in scene.below(built.path) if n.data["class"] == "CollisionShape3D"
                  and not any(n.path == p or n.path.startswith(f"{p}/") for p in own if p and p != built.path
                              and p.startswith(f"{built.path}/"))]
        for part in (physics.collider, physics.trigger):
            if part is None or part.shape is None:
                continue
            wanted_shape, place = in_world(expected_shape(part.shape, default_height, gltf), world[index])
            seen = [in_world(n.shape, godot_matrix(n)) for n in shapes]
            placed = [where for shape, where in seen if same_shape(shape, wanted_shape)]
            if not placed:
                found.append(f"node {index} {name!r}: no {wanted_shape} among {[shape for shape, _ in seen]}")
            elif not any(close(where, place) for where in placed):
                found.append(f"node {index} {name!r}: its {wanted_shape['class']} is not at the node's place")
    return found
