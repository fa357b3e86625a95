"""Mesh problems that make a convex or trimesh shape unusable or unportable, found from the file (no bpy).

Run by `validate` and by the import (on the importer's data), so neither waits for the export to say "no
triangles". Each finding sits at the mesh's (or primitive's) JSON pointer and names the node(s) whose
shape uses it: primitives without POSITION, POINTS/LINES primitives, meshes without a triangle (an error:
the shape has no geometry), several primitives (the spec asks for one), hulls over the vertex limit many
engines accept, hulls without volume (all points on a plane, a line or one point), and triangle meshes
on dynamic bodies or triggers (the spec: most engines cannot move them, triggers need an interior).
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from ..conventions import HULL_VERTEX_LIMIT
from ..json_types import pointer
from ..model import MESH_SHAPE_TYPES, Issue, PhysicsDocument
from .gltf_structure import MODE_NAMES

GEOMETRY_POINT_LIMIT = 65_536  # hulls with more points are not checked for volume (pure Python, one pass each)
FLAT_TOLERANCE = 1e-6  # of the hull's extent: thinner than this is no volume
_TRIANGLE_MODES = (4, 5, 6)
_FLOAT, _VEC3_BYTES = 5126, 12

ReadBuffer = Callable[[int], "bytes | memoryview | None"]


def check(document: Any, doc: PhysicsDocument, read_buffer: ReadBuffer | None = None) -> list[Issue]:
    """The findings for every mesh a convex/trimesh shape uses; `read_buffer` (buffer index -> its bytes)
    lets hulls be checked for volume."""
    if not isinstance(document, dict):
        return []
    issues: list[Issue] = []
    for (mesh, shape_type), users in _users(document, doc).items():
        meshes = _list(document, "meshes")
        if 0 <= mesh < len(meshes) and isinstance(meshes[mesh], dict):
            issues += _mesh_findings(document, mesh, shape_type, users, read_buffer)
    return issues


def _users(document: dict[str, Any], doc: PhysicsDocument) -> dict[tuple[int, str], list[tuple[int, str, str]]]:
    """(mesh, shape type) -> [(node, node label, role)], role 'dynamic', 'trigger' or ''."""
    nodes = _list(document, "nodes")
    users: dict[tuple[int, str], list[tuple[int, str, str]]] = {}
    for index, node in sorted(doc.nodes.items()):
        name = nodes[index].get("name") if index < len(nodes) and isinstance(nodes[index], dict) else None
        label = f"node {index} {name!r}" if isinstance(name, str) else f"node {index}"
        dynamic = node.motion is not None and node.motion.type == "dynamic"
        for role, part in (("dynamic" if dynamic else "", node.collider), ("trigger", node.trigger)):
            shape = part.shape if part is not None else None
            if shape is not None and shape.type in MESH_SHAPE_TYPES and isinstance(shape.mesh, int):
                users.setdefault((shape.mesh, shape.type), []).append((index, label, role))
    return users


def _list(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    return value if isinstance(value, list) else []


def _names(users: list[tuple[int, str, str]]) -> str:
    labels = [label for _index, label, _role in users]
    return ", ".join(labels[:3]) + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")


def _mesh_findings(document: dict[str, Any], mesh: int, shape_type: str, users: list[tuple[int, str, str]],
                   read_buffer: ReadBuffer | None) -> list[Issue]:
    what = f"the {shape_type} shape of {_names(users)}"
    accessors = _list(document, "accessors")
    primitives = document["meshes"][mesh].get("primitives")
    issues, usable = [], []
    for position, primitive in enumerate(primitives if isinstance(primitives, list) else []):
        at = pointer("meshes", mesh, "primitives", position)
        attributes = primitive.get("attributes") if isinstance(primitive, dict) else None
        positions = attributes.get("POSITION") if isinstance(attributes, dict) else None
        mode = primitive.get("mode", 4) if isinstance(primitive, dict) else 4
        if not isinstance(positions, int) or not 0 <= positions < len(accessors):
            issues.append(Issue(at, f"primitive has no POSITION: {what} cannot use it", "warning"))
        elif mode not in _TRIANGLE_MODES:
            issues.append(Issue(at, f"{MODE_NAMES.get(mode, mode)} primitive has no triangles: {what} uses only "
                                    "triangle primitives", "warning"))
        elif _triangles(primitive, accessors, positions):
            usable.append(positions)
    at = pointer("meshes", mesh)
    if not usable:
        issues.append(Issue(at, f"mesh {mesh} has no triangles: {what} is unusable (the spec needs at least one "
                                "triangle; export writes no mesh for it)", "error"))
        return issues
    if len(primitives) > 1:
        issues.append(Issue(at, f"mesh {mesh} has {len(primitives)} primitives, the spec asks for one: {what} uses "
                                "the triangles of all of them", "warning"))
    if shape_type == "convex":
        issues += _hull_findings(at, mesh, what, [accessors[index] for index in usable], document=document,
                                 read_buffer=read_buffer)
    for _index, label, role in users:
        if shape_type == "trimesh" and role:
            kind = "a dynamic body" if role == "dynamic" else "a trigger"
            issues.append(Issue(at, f"trimesh shape on {kind} ({label}): most engines cannot move a triangle mesh "
                                    "or find its inside; the spec advises a convex shape", "warning"))
    return issues


def _triangles(primitive: dict[str, Any], accessors: list[Any], positions: int) -> int:
    counted = primitive.get("indices", positions)
    count = accessors[counted].get("count") if isinstance(counted, int) and 0 <= counted < len(accessors) \
        and isinstance(accessors[counted], dict) else None
    if not isinstance(count, int):
        return 0
    return count // 3 if primitive.get("mode", 4) == 4 else max(0, count - 2)


def _hull_findings(at: str, mesh: int, what: str, position_accessors: list[Any], *, document: dict[str, Any],
                   read_buffer: ReadBuffer | None) -> list[Issue]:
    counts = [accessor.get("count", 0) if isinstance(accessor, dict) else 0 for accessor in position_accessors]
    total = sum(count for count in counts if isinstance(count, int))
    issues = []
    if total > HULL_VERTEX_LIMIT:
        issues.append(Issue(at, f"mesh {mesh} has {total} vertices: {what} is over the {HULL_VERTEX_LIMIT} many "
                                "engines accept in a convex hull (they simplify it or refuse it)", "warning"))
    if read_buffer is None or total > GEOMETRY_POINT_LIMIT:
        return issues
    points: list[float] = []
    for accessor in position_accessors:
        decoded = _floats(accessor, document, read_buffer)
        if decoded is None:
            return issues  # not plain floats, or unreadable (the structure check says so): no volume check
        points.extend(decoded)
    dimension = hull_dimension(points)
    if dimension < 3:
        shape = ("a single point", "a line", "flat (all its points in one plane)")[dimension]
        issues.append(Issue(at, f"mesh {mesh}'s hull is {shape}: {what} has no volume (the spec recommends at "
                                "least four points not in one plane)", "warning"))
    return issues


def _floats(accessor: Any, document: dict[str, Any], read_buffer: ReadBuffer) -> Sequence[float] | None:
    """The x, y, z floats of a float VEC3 accessor (not sparse), flat; None when it cannot be read so."""
    if not isinstance(accessor, dict) or accessor.get("componentType") != _FLOAT or accessor.get("type") != "VEC3" \
            or "sparse" in accessor or not isinstance(accessor.get("bufferView"), int):
        return None
    views = _list(document, "bufferViews")
    view = views[accessor["bufferView"]] if 0 <= accessor["bufferView"] < len(views) else None
    if not isinstance(view, dict) or not isinstance(view.get("buffer"), int):
        return None
    data = read_buffer(view["buffer"])
    count, stride = accessor.get("count", 0), view.get("byteStride") or _VEC3_BYTES
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    if data is None or not isinstance(count, int) or start + stride * (count - 1) + _VEC3_BYTES > len(data):
        return None
    if stride == _VEC3_BYTES:
        floats = array("f", bytes(data[start:start + _VEC3_BYTES * count]))
        if sys.byteorder != "little":
            floats.byteswap()
        return floats
    return [value for offset in range(start, start + stride * count, stride)
            for value in struct.unpack_from("<3f", data, offset)]


def hull_dimension(flat: Sequence[float]) -> int:
    """0 (one point or none), 1 (a line), 2 (a plane) or 3: how many dimensions the points span, from the
    farthest point from a point, from a line and from a plane (three linear passes)."""
    points = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
    if not points:
        return 0
    first = points[0]
    far = max(points, key=lambda point: _sub_len2(point, first))
    extent = math.sqrt(_sub_len2(far, first))
    tolerance = FLAT_TOLERANCE * extent
    if extent == 0 or not math.isfinite(extent):
        return 0
    axis = _scaled(_sub(far, first), 1 / extent)

    def off_line(point: tuple[float, float, float]) -> float:
        offset = _sub(point, first)
        return _len2(_sub(offset, _scaled(axis, _dot(offset, axis))))

    third = max(points, key=off_line)
    if math.sqrt(off_line(third)) <= tolerance:
        return 1
    normal = _cross(axis, _sub(third, first))
    normal = _scaled(normal, 1 / math.sqrt(_len2(normal)))
    if max(abs(_dot(_sub(point, first), normal)) for point in points) <= tolerance:
        return 2
    return 3


Vec = tuple[float, float, float]


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _scaled(a: Vec, factor: float) -> Vec:
    return (a[0] * factor, a[1] * factor, a[2] * factor)


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _len2(a: Vec) -> float:
    return _dot(a, a)


def _sub_len2(a: Vec, b: Vec) -> float:
    return _len2(_sub(a, b))


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
