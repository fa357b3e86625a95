"""Shape meshes: exact bounding boxes (Blender derives primitive rigid-body shapes from them), closed
convex surfaces inside the true shape, and triangle meshes from raw data."""

from __future__ import annotations

import math

import bpy

# isort: split
# (bmesh is a module of bpy's: importable only once bpy is, and conftest no longer imports bpy)
import bmesh
import numpy as np
import omi_core.model
import pytest


@pytest.fixture
def meshes(omi):
    return omi("io.blender.builder.shape_data")


def vertex_array(mesh: bpy.types.Mesh) -> np.ndarray:
    coords = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", coords)
    return coords.reshape(-1, 3).astype(np.float64)


def assert_bounds(mesh, low, high, tol=1e-6):
    points = vertex_array(mesh)
    np.testing.assert_allclose(points.min(axis=0), low, atol=tol)
    np.testing.assert_allclose(points.max(axis=0), high, atol=tol)


def assert_closed_convex(mesh):
    """Every edge joins two faces, and no vertex lies outside any face's plane."""
    bm = bmesh.new()
    bm.from_mesh(mesh)
    try:
        assert all(edge.is_manifold for edge in bm.edges)
        bm.normal_update()
        points = np.array([v.co[:] for v in bm.verts])
        center = points.mean(axis=0)
        for face in bm.faces:
            normal = np.array(face.normal[:])
            origin = np.array(face.verts[0].co[:])
            if np.dot(center - origin, normal) > 0:
                normal = -normal
            assert ((points - origin) @ normal).max() < 1e-5
    finally:
        bm.free()
    assert not mesh.validate(verbose=False)


@pytest.mark.parametrize("size", [(1.0, 2.0, 3.0), (0.2, 5.0, 0.7)])
def test_box_bounds(meshes, size):
    mesh = meshes.shape_mesh("box", size, 0.5, 1.0, 0.5, 0.5, "Box")
    half = np.array(size) / 2
    assert_bounds(mesh, -half, half)
    assert len(mesh.vertices) == 8 and len(mesh.polygons) == 6
    assert_closed_convex(mesh)


@pytest.mark.parametrize("radius", [0.5, 1.75])
@pytest.mark.parametrize("segments", [5, 24, 32])
def test_sphere_bounds(meshes, radius, segments):
    mesh = meshes.shape_mesh("sphere", (1, 1, 1), radius, 1.0, 0.5, 0.5, "Sphere", segments=segments)
    assert_bounds(mesh, [-radius] * 3, [radius] * 3)
    assert np.linalg.norm(vertex_array(mesh), axis=1).max() == pytest.approx(radius, abs=1e-6)
    assert_closed_convex(mesh)


def capsule_extent(height, top, bottom):
    """Exact bounds of the convex hull of the two end spheres."""
    half = height / 2
    radial = max(top, bottom)
    return ([-radial, -radial, min(-half - bottom, half - top)], [radial, radial, max(half + top, -half + bottom)])


@pytest.mark.parametrize(("height", "top", "bottom"), [
    (1.0, 0.5, 0.5), (2.0, 0.25, 0.25), (1.0, 0.75, 0.25), (1.0, 0.25, 0.75), (0.0, 0.5, 0.5), (0.2, 0.1, 1.0),
])
@pytest.mark.parametrize("segments", [8, 24])
def test_capsule_bounds_and_surface(meshes, height, top, bottom, segments):
    mesh = meshes.shape_mesh("capsule", (1, 1, 1), 0.5, height, top, bottom, "Capsule", segments=segments)
    low, high = capsule_extent(height, top, bottom)
    assert_bounds(mesh, low, high)
    if height > top + bottom or top == bottom:
        assert high[2] - low[2] == pytest.approx(height + top + bottom, abs=1e-6)
    assert_closed_convex(mesh)
    # Every vertex lies on (or inside) one of the end spheres: the mesh is inscribed in the capsule.
    points = vertex_array(mesh)
    to_top = np.linalg.norm(points - [0, 0, height / 2], axis=1) - top
    to_bottom = np.linalg.norm(points - [0, 0, -height / 2], axis=1) - bottom
    assert np.abs(np.minimum(to_top, to_bottom)).max() < 1e-5


@pytest.mark.parametrize(("height", "top", "bottom"), [(2.0, 0.5, 0.5), (1.0, 0.3, 0.6), (1.0, 0.6, 0.3),
                                                       (1.5, 0.0, 0.4)])
def test_cylinder_bounds_and_radii(meshes, height, top, bottom):
    mesh = meshes.shape_mesh("cylinder", (1, 1, 1), 0.5, height, top, bottom, "Cylinder")
    radial = max(top, bottom)
    assert_bounds(mesh, [-radial, -radial, -height / 2], [radial, radial, height / 2])
    points = vertex_array(mesh)
    radii = np.linalg.norm(points[:, :2], axis=1)
    at_top = np.isclose(points[:, 2], height / 2)
    at_bottom = np.isclose(points[:, 2], -height / 2)
    assert radii[at_top].max() == pytest.approx(top, abs=1e-6)  # the top radius is at +Z
    assert radii[at_bottom].max() == pytest.approx(bottom, abs=1e-6)
    assert np.all(at_top | at_bottom)
    assert_closed_convex(mesh)


def test_segments_round_to_multiples_of_four(meshes):
    coarse = meshes.shape_mesh("cylinder", (1, 1, 1), 0.5, 2.0, 0.5, 0.5, "C", segments=3)
    assert len(coarse.vertices) == 2 * meshes.MIN_SEGMENTS
    odd = meshes.shape_mesh("cylinder", (1, 1, 1), 0.5, 2.0, 0.5, 0.5, "C", segments=13)
    assert len(odd.vertices) == 2 * 16


def test_unknown_type_raises(meshes):
    with pytest.raises(ValueError, match="convex"):
        meshes.shape_mesh("convex", (1, 1, 1), 0.5, 1.0, 0.5, 0.5, "Nope")


def test_mesh_from_triangles(meshes, omi):
    vertices = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    triangles = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    mesh = meshes.mesh_from_triangles("Tetra", vertices, triangles)
    np.testing.assert_allclose(vertex_array(mesh), vertices)
    assert [tuple(p.vertices) for p in mesh.polygons] == triangles
    assert_closed_convex(mesh)

    issues: list = []
    broken = meshes.mesh_from_triangles("Broken", vertices, [*triangles, (0, 1, 9), (2, 2, 3)], issues,
                                        pointer="/meshes/4")
    assert len(broken.polygons) == 4
    assert len(issues) == 1 and issues[0].pointer == "/meshes/4" and "2" in issues[0].message
    assert isinstance(issues[0], omi_core.model.Issue)


def test_capsule_volume_close_to_true_volume(meshes):
    """The inscribed polygonal capsule keeps nearly all of the exact volume."""
    radius, height = 0.5, 1.0
    mesh = meshes.shape_mesh("capsule", (1, 1, 1), 0.5, height, radius, radius, "Capsule", segments=32)
    bm = bmesh.new()
    bm.from_mesh(mesh)
    volume = bm.calc_volume()
    bm.free()
    exact = math.pi * radius**2 * height + 4 / 3 * math.pi * radius**3
    assert 0.97 * exact < volume <= exact
