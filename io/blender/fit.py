"""Fit physics shapes to a mesh object, in the object's LOCAL space.

Shape settings live in the object's local frame and Blender applies the object's transform (scale
included) to them just as it does to the mesh, so every fit works on the evaluated mesh's local
vertex positions (modifiers applied, object transform not). Results are plain numbers and mathutils
values the authoring operators write into the shape settings (size/radius/height and the offset).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import bmesh
import bpy
import numpy as np
from mathutils import Euler, Vector

from .fit_ball import min_enclosing_ball

# Rotation taking local +Z onto each local axis (a capsule or cylinder stands along +Z).
_Z_TO_AXIS = (Euler((0.0, math.pi / 2.0, 0.0)), Euler((-math.pi / 2.0, 0.0, 0.0)), Euler((0.0, 0.0, 0.0)))


def local_points(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None = None) -> np.ndarray:
    """The evaluated mesh's vertex positions in the object's local space, as an (N, 3) float64 array.

    Raises ValueError when the object yields no vertices.
    """
    depsgraph = depsgraph if depsgraph is not None else bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        coords = np.empty(len(mesh.vertices) * 3, dtype=np.float32) if mesh is not None else np.empty(0, np.float32)
        if mesh is not None:
            mesh.vertices.foreach_get("co", coords)
    finally:
        evaluated.to_mesh_clear()
    if coords.size == 0:
        raise ValueError(f"object {obj.name!r} has no mesh vertices to fit a shape to")
    return coords.reshape(-1, 3).astype(np.float64)


def hull_vertex_indices(points: np.ndarray) -> np.ndarray:
    """Indices of the points that are vertices of their convex hull (bmesh.ops.convex_hull)."""
    bm = bmesh.new()
    try:
        verts = [bm.verts.new(point) for point in points]
        bm.verts.index_update()
        # fake-bpy-module types the element list as an invariant list[BMVert | BMEdge | BMFace]
        result = bmesh.ops.convex_hull(bm, input=verts, use_existing_faces=False)  # type: ignore[arg-type]  # see above
        vert_type = bmesh.types.BMVert
        excluded = {v.index for v in result["geom_interior"] + result["geom_unused"] if isinstance(v, vert_type)}
        indices = sorted({v.index for v in result["geom"] if isinstance(v, vert_type)} - excluded)
    finally:
        bm.free()
    if not indices:  # degenerate input (a point, a segment): every distinct point is extreme enough
        _unique, indices = np.unique(points, axis=0, return_index=True)
        indices = sorted(indices)
    return np.asarray(indices, dtype=np.int64)


# --- flat objects ------------------------------------------------------------------------------------------

DEFAULT_MIN_THICKNESS = 0.02  # metres: what a flat box (a plane) is given, so that it still stops bodies
FLAT_RELATIVE = 1e-6  # a side this small against the largest one has no thickness


def thin_axes(size: Vector | Sequence[float], minimum: float) -> list[int]:
    """The local axes along which a box of `size` is thinner than `minimum` (or flat: 0)."""
    largest = max(abs(value) for value in size[:])
    return [axis for axis in range(3) if abs(size[axis]) < minimum or abs(size[axis]) <= FLAT_RELATIVE * largest]


def facing(obj: bpy.types.Object, axis: int, depsgraph: bpy.types.Depsgraph | None = None) -> float:
    """+1 when the mesh's faces look along +axis on the whole (area-weighted), -1 along -axis, 0 when they
    cancel (a closed thin box) or the object has no faces."""
    depsgraph = depsgraph if depsgraph is not None else bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        if mesh is None or not len(mesh.polygons):
            return 0.0
        normals = np.empty(len(mesh.polygons) * 3, np.float64)
        mesh.polygons.foreach_get("normal", normals)
        areas = np.empty(len(mesh.polygons), np.float64)
        mesh.polygons.foreach_get("area", areas)
    finally:
        evaluated.to_mesh_clear()
    total = float((normals.reshape(-1, 3)[:, axis] * areas).sum())
    scale = float(areas.sum()) or 1.0
    return 0.0 if abs(total) <= 1e-6 * scale else math.copysign(1.0, total)


def thicken(size: Vector, center: Vector, axes: list[int], thickness: tuple[float, float, float],
            sides: tuple[float, float, float]) -> tuple[Vector, Vector]:
    """The box grown to `thickness[axis]` along each of `axes`, behind the faces (`sides[axis]` is where
    they look: the surface the artist sees stays where it is) or evenly when the faces cancel (side 0)."""
    size, center = size.copy(), center.copy()
    for axis in axes:
        grow = thickness[axis] - size[axis]
        if grow <= 0.0:
            continue
        size[axis] = thickness[axis]
        center[axis] -= sides[axis] * grow / 2.0
    return size, center


# --- fits --------------------------------------------------------------------------------------------------


def box_of_points(points: np.ndarray) -> tuple[Vector, Vector]:
    """(size, center) of the axis-aligned bounding box of points (n x 3)."""
    low, high = points.min(axis=0), points.max(axis=0)
    return Vector(high - low), Vector((low + high) / 2.0)


def fit_box(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None = None) -> tuple[Vector, Vector]:
    """(size, center) of the local axis-aligned bounding box of the evaluated mesh."""
    return box_of_points(local_points(obj, depsgraph))


def capsule_along_z(points: np.ndarray) -> tuple[float, float, Vector]:
    """(radius, mid-height, center) of a capsule along Z around points (n x 3): as `fit_capsule` with its axis
    given (a bone's), the smallest circle across it and the points' length along it as the full height."""
    flat = np.zeros_like(points)
    flat[:, :2] = points[:, :2]
    circle_center, radius = min_enclosing_ball(flat)
    low, high = float(points[:, 2].min()), float(points[:, 2].max())
    center = Vector((float(circle_center[0]), float(circle_center[1]), (low + high) / 2.0))
    return radius, max(0.0, high - low - 2.0 * radius), center


def fit_sphere(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None = None) -> tuple[float, Vector]:
    """(radius, center) of the smallest sphere containing the evaluated mesh."""
    center, radius = min_enclosing_ball(local_points(obj, depsgraph))
    return radius, Vector(center)


def _fit_round(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None) -> tuple[float, float, Vector, Euler]:
    """Radius, length along the longest local axis, center and the rotation taking +Z to that axis.

    The radius is the smallest circle containing the mesh seen along the axis; the center lies midway
    along the axis and at that circle's centre across it.
    """
    points = local_points(obj, depsgraph)
    low, high = points.min(axis=0), points.max(axis=0)
    extents = high - low
    axis = max((2, 0, 1), key=lambda i: extents[i])  # ties prefer standing along Z
    across = [i for i in range(3) if i != axis]
    flat = np.zeros_like(points)
    flat[:, :2] = points[:, across]
    circle_center, radius = min_enclosing_ball(flat)
    center = Vector((0.0, 0.0, 0.0))
    center[axis] = (low[axis] + high[axis]) / 2.0
    center[across[0]], center[across[1]] = circle_center[0], circle_center[1]
    return radius, float(extents[axis]), center, _Z_TO_AXIS[axis].copy()


def fit_cylinder(obj: bpy.types.Object,
                 depsgraph: bpy.types.Depsgraph | None = None) -> tuple[float, float, Vector, Euler]:
    """(radius, height, center, rotation) of a cylinder along the longest local axis that contains the mesh.

    Its radius is the smallest possible around that axis direction, its height the mesh's length along
    it; `rotation` takes local +Z (the shape's axis) to that axis.
    """
    radius, length, center, rotation = _fit_round(obj, depsgraph)
    return radius, length, center, rotation


def fit_capsule(obj: bpy.types.Object,
                depsgraph: bpy.types.Depsgraph | None = None) -> tuple[float, float, Vector, Euler]:
    """(radius, mid-height, center, rotation) of a capsule along the longest local axis.

    Same radius as the cylinder fit; mid-height = length - 2 * radius, clamped at 0, so the capsule's
    full height equals the mesh's length along the axis (corners may poke out of the rounded ends).
    """
    radius, length, center, rotation = _fit_round(obj, depsgraph)
    return radius, max(0.0, length - 2.0 * radius), center, rotation


# --- convex hulls ------------------------------------------------------------------------------------------


def _directions(count: int, start: int = 0) -> np.ndarray:
    """Directions number start .. start+count-1 of one fixed sequence: first +-X, +-Y, +-Z, then a
    low-discrepancy spread (the R2 sequence mapped area-preservingly onto the sphere). Prefix-stable:
    taking more directions only ever adds to fewer."""
    index = np.arange(start, start + count)
    axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=np.float64)
    g = 1.32471795724474602596  # plastic number: the R2 sequence's generator
    n = np.maximum(index - len(axes), 0).astype(np.float64)
    z = 1.0 - 2.0 * np.mod(0.5 + n / g, 1.0)
    azimuth = 2.0 * np.pi * np.mod(0.5 + n / (g * g), 1.0)
    ring = np.sqrt(np.maximum(0.0, 1.0 - z * z))
    spread = np.stack([ring * np.cos(azimuth), ring * np.sin(azimuth), z], axis=1)
    return np.where((index < len(axes))[:, None], axes[np.minimum(index, len(axes) - 1)], spread)


def _directional_supports(points: np.ndarray, max_vertices: int, max_directions: int = 1 << 17) -> list[int]:
    """Indices of the points farthest along `_directions`, in order, until `max_vertices` are found."""
    chosen: list[int] = []
    seen: set[int] = set()
    start, chunk = 0, 4096
    while len(chosen) < max_vertices and start < max_directions:
        for index in np.argmax(points @ _directions(chunk, start).T, axis=0).tolist():
            if index not in seen:
                seen.add(index)
                chosen.append(index)
                if len(chosen) == max_vertices:
                    break
        start += chunk
    return chosen


def _hull_faces(points: np.ndarray) -> tuple[list[int], np.ndarray, np.ndarray, float]:
    """Hull of `points`: indices of its vertices, outward unit face normals, plane offsets, volume."""
    bm = bmesh.new()
    try:
        source = bm.verts.layers.int.new("source")
        verts = []
        for index, point in enumerate(points):
            vert = bm.verts.new(point)
            vert[source] = index
            verts.append(vert)
        # fake-bpy-module types the element list as an invariant list[BMVert | BMEdge | BMFace]
        result = bmesh.ops.convex_hull(bm, input=verts, use_existing_faces=False)  # type: ignore[arg-type]  # see above
        loose = {v for v in result["geom_interior"] + result["geom_unused"] if isinstance(v, bmesh.types.BMVert)}
        bmesh.ops.delete(bm, geom=list(loose), context='VERTS')
        bm.normal_update()
        kept = [vert[source] for vert in bm.verts]
        inside = points[kept].mean(axis=0) if kept else np.zeros(3)
        normals = np.array([face.normal[:] for face in bm.faces], dtype=np.float64).reshape(-1, 3)
        anchors = np.array([face.verts[0].co[:] for face in bm.faces], dtype=np.float64).reshape(-1, 3)
        offsets = (normals * anchors).sum(axis=1)
        flip = normals @ inside > offsets  # orient every plane away from the interior
        normals[flip] *= -1.0
        offsets[flip] *= -1.0
        volume = bm.calc_volume() if bm.faces else 0.0
    finally:
        bm.free()
    return kept, normals, offsets, volume


def _tetrahedron(points: np.ndarray) -> list[int]:
    """Four points spanning a large tetrahedron (fewer when the points are flat)."""
    first = int(np.argmin(points[:, 0]))
    second = int(np.argmax(np.linalg.norm(points - points[first], axis=1)))
    edge = points[second] - points[first]
    if not edge.any():
        return [first]
    to_line = np.cross(points - points[first], edge / np.linalg.norm(edge))
    third = int(np.argmax(np.linalg.norm(to_line, axis=1)))
    normal = np.cross(edge, points[third] - points[first])
    if not normal.any():
        return [first, second]
    fourth = int(np.argmax(np.abs((points - points[first]) @ (normal / np.linalg.norm(normal)))))
    return [first, second, third, fourth]


def simplify_hull(points: np.ndarray, max_vertices: int) -> np.ndarray:
    """Indices of at most `max_vertices` of `points` (hull vertices) whose hull keeps most of the volume.

    Greedy in quickhull order: start from a large tetrahedron plus the extreme points along +-X, +-Y,
    +-Z, then repeatedly add, for each face of the current hull, the point farthest outside it (the
    farthest first) while the budget lasts; points that fall inside the grown hull free their slot.
    Flat input, which has no volume to keep, falls back to support points of spread directions.
    """
    if max_vertices < 4:
        raise ValueError("a convex hull needs a budget of at least 4 vertices")
    scale = float(np.abs(points).max()) + 1e-30
    chosen = _tetrahedron(points)
    if len(chosen) < 4 or abs(float(np.dot(
            np.cross(points[chosen[1]] - points[chosen[0]], points[chosen[2]] - points[chosen[0]]),
            points[chosen[3]] - points[chosen[0]]))) <= 1e-12 * scale**3:
        return np.asarray(_directional_supports(points, max_vertices), dtype=np.int64)
    if max_vertices >= 6 + len(chosen):
        extremes = [int(i) for i in np.concatenate([points.argmin(axis=0), points.argmax(axis=0)])]
        chosen = list(dict.fromkeys(chosen + extremes))
    tolerance = 1e-9 * scale
    while True:
        kept, normals, offsets, _volume = _hull_faces(points[chosen])
        chosen = [chosen[i] for i in kept]
        room = max_vertices - len(chosen)
        if room <= 0:
            break
        distance = points @ normals.T - offsets
        face = np.argmax(distance, axis=1)
        farthest = distance[np.arange(len(points)), face]
        outside = np.nonzero(farthest > tolerance)[0]
        if outside.size == 0:
            break
        outside = outside[np.argsort(-farthest[outside], kind="stable")]
        _faces, first = np.unique(face[outside], return_index=True)  # the farthest point of each face
        picks = outside[np.sort(first)][:room]
        chosen.extend(int(i) for i in picks)
    if len(chosen) > max_vertices:  # only when the seeds alone exceed a tiny budget
        chosen = chosen[:max_vertices]
    return np.asarray(chosen, dtype=np.int64)


def convex_hull_points(obj: bpy.types.Object, max_vertices: int | None = None,
                       depsgraph: bpy.types.Depsgraph | None = None) -> list[Vector]:
    """Vertices of the convex hull of the evaluated mesh (local space), at most `max_vertices` of them.

    Without a budget, or within it, these are exactly the hull's vertices. Over budget (255 is the
    usual engine limit), the result guarantees:
      - it has at most `max_vertices` points (which must be >= 4), all of them vertices of the true
        hull, so the simplified hull lies inside the mesh's hull and never collides where it has no
        geometry;
      - it keeps the extreme points along +-X, +-Y and +-Z (budget >= 6), so the bounding box is exact;
      - points are added greedily, each time the ones farthest outside the hull kept so far (quickhull
        order), so the volume left out shrinks fastest first and flat parts cost no points. Measured on
        a 2:1:0.5 ellipsoid of ~2000 vertices (a hard case: no flat parts), 255 points keep ~97% of the
        volume, 64 keep ~88%, 32 keep ~80%; a subdivided cube keeps its 8 corners and 100%.
    """
    points = local_points(obj, depsgraph)
    points = points[hull_vertex_indices(points)]
    if max_vertices is not None and len(points) > max_vertices:
        points = points[simplify_hull(points, max_vertices)]
    return [Vector(point) for point in points]
