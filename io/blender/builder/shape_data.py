"""Mesh data for physics shapes, in the shape's local Blender axes (capsule and cylinder along +Z).

Blender derives a rigid body's box, sphere, capsule and cylinder from the mesh's bounding box, so every
mesh made here has the shape's exact extents as its bounds; curved surfaces are polygons inscribed in
the true surface, with vertices on the axis directions so that the bounds stay exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import bmesh
import bpy
from mathutils import Vector

from ...omi import model

MIN_SEGMENTS = 8


def _segments(requested: int) -> int:
    """A multiple of 4 (vertices on +-X and +-Y keep the bounds exact), at least MIN_SEGMENTS."""
    return max(MIN_SEGMENTS, 4 * math.ceil(requested / 4))


def _sphere_points(center_z: float, radius: float, segments: int) -> list[Vector]:
    """UV-sphere vertices (poles, equator and rings) of a sphere centred on (0, 0, center_z)."""
    rings = segments // 2  # even: one ring is the equator
    points = [Vector((0.0, 0.0, center_z + radius)), Vector((0.0, 0.0, center_z - radius))]
    for ring in range(1, rings):
        polar = math.pi * ring / rings
        ring_radius = radius * math.sin(polar)
        z = center_z + radius * math.cos(polar)
        for step in range(segments):
            azimuth = 2.0 * math.pi * step / segments
            points.append(Vector((ring_radius * math.cos(azimuth), ring_radius * math.sin(azimuth), z)))
    return points


def _hull_into(bm: bmesh.types.BMesh, points: Sequence[Vector]) -> None:
    """Replace `bm`'s content with the convex hull of `points`, coplanar triangles merged."""
    verts = [bm.verts.new(point) for point in points]  # type: ignore[arg-type]  # the stubs: a Vector is no Sequence[float]
    bmesh.ops.remove_doubles(bm, verts=verts, dist=1e-7)
    # the stubs type bmesh.ops' element lists as an invariant list[BMVert | BMEdge | BMFace]
    result = bmesh.ops.convex_hull(bm, input=bm.verts[:], use_existing_faces=False)  # type: ignore[arg-type]  # see above
    leftovers = list({v for v in result["geom_interior"] + result["geom_unused"] if isinstance(v, bmesh.types.BMVert)})
    bmesh.ops.delete(bm, geom=leftovers, context='VERTS')  # type: ignore[arg-type]  # the same
    bmesh.ops.dissolve_limit(bm, angle_limit=1e-3, verts=bm.verts[:], edges=bm.edges[:])


def _fill(bm: bmesh.types.BMesh, shape_type: str, *, size: Sequence[float], radius: float, height: float,
          radius_top: float, radius_bottom: float, segments: int) -> None:
    if shape_type == "box":
        bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.scale(bm, vec=Vector(size), verts=bm.verts[:])  # type: ignore[arg-type]  # the stubs: a Vector is no Sequence[float]
    elif shape_type == "sphere":
        # Own vertices rather than create_uvsphere: its single-precision trigonometry misses the bounds.
        _hull_into(bm, _sphere_points(0.0, radius, segments))
    elif shape_type == "cylinder":
        # radius1 is the bottom (-Z) end, radius2 the top (+Z) end.
        bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=segments, radius1=radius_bottom,
                              radius2=radius_top, depth=height)
        bmesh.ops.remove_doubles(bm, verts=bm.verts[:], dist=1e-7)
    elif shape_type == "capsule":
        # The convex hull of the two end spheres is the capsule, tapered or not.
        half = height / 2.0
        _hull_into(bm, _sphere_points(half, radius_top, segments) + _sphere_points(-half, radius_bottom, segments))
    else:
        raise ValueError(f"no mesh for shape type {shape_type!r}")


def shape_mesh(  # noqa: PLR0917 - the shape's fields in model order, a published signature
    shape_type: str, size: Sequence[float], radius: float, height: float, radius_top: float, radius_bottom: float,
    name: str, segments: int = 24,
) -> bpy.types.Mesh:
    """A new mesh of a primitive shape ('box', 'sphere', 'capsule', 'cylinder') in Blender axes.

    `size` is the box's full size in Blender axes; capsule `height` is the mid-height (full height is
    height + radius_top + radius_bottom unless one end sphere swallows the other); cylinder `height` is
    the full height. `segments` is rounded up to a multiple of 4 (at least 8).
    """
    bm = bmesh.new()
    try:
        _fill(bm, shape_type, size=size, radius=radius, height=height, radius_top=radius_top,
              radius_bottom=radius_bottom, segments=_segments(segments))
        mesh = bpy.data.meshes.new(name)
        bm.to_mesh(mesh)
    finally:
        bm.free()
    mesh.update()
    return mesh


def mesh_from_triangles(name: str, vertices: Sequence[Sequence[float]], triangles: Sequence[Sequence[int]],
                        issues: list[model.Issue] | None = None, pointer: str = "") -> bpy.types.Mesh:
    """A new mesh from vertex positions and index triples; triangles with bad indices are dropped.

    When triangles are dropped, one Issue at `pointer` goes to `issues`.
    """
    count = len(vertices)
    valid = [tuple(int(i) for i in tri) for tri in triangles
             if len(tri) == 3 and all(0 <= int(i) < count for i in tri) and len({int(i) for i in tri}) == 3]
    if issues is not None and len(valid) != len(triangles):
        issues.append(model.Issue(pointer, f"mesh {name!r}: dropped {len(triangles) - len(valid)} invalid or "
                                           "degenerate triangles"))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(float(c) for c in v) for v in vertices], [], valid)
    mesh.update()
    return mesh
