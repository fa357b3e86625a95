"""Shape fitting in the object's local space: object transforms do not matter, mesh data and modifiers do."""

from __future__ import annotations

import itertools
import math
import random

import bpy

# isort: split
# (bmesh is a module of bpy's: importable only once bpy is, and conftest no longer imports bpy)
import bmesh
import numpy as np
import pytest
from mathutils import Euler, Matrix, Vector


@pytest.fixture
def fit(omi):
    return omi("io.blender.fit")


@pytest.fixture
def meshes(omi):
    return omi("io.blender.builder.shape_data")


def link(mesh: bpy.types.Mesh, name: str = "Fitted", *, transformed: bool = True) -> bpy.types.Object:
    """An object holding `mesh`, with a rotation, an offset and a non-uniform scale unless told otherwise."""
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    if transformed:
        obj.location = (5.0, -3.0, 2.0)
        obj.rotation_euler = (0.4, -0.7, 1.1)
        obj.scale = (2.0, 0.5, 3.0)
    return obj


def mesh_of_points(points, name: str = "Cloud") -> bpy.types.Mesh:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(p) for p in points], [], [])
    return mesh


def hull_volume(points) -> float:
    bm = bmesh.new()
    try:
        for point in points:
            bm.verts.new(point)
        result = bmesh.ops.convex_hull(bm, input=bm.verts[:])
        loose = {v for v in result["geom_interior"] + result["geom_unused"] if isinstance(v, bmesh.types.BMVert)}
        bmesh.ops.delete(bm, geom=list(loose), context='VERTS')
        return bm.calc_volume()
    finally:
        bm.free()


def test_fit_box_on_offset_non_uniform_mesh(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("box", (1.0, 2.0, 3.0), 0.5, 1.0, 0.5, 0.5, "Box")
    mesh.transform(Matrix.Translation((0.5, -1.0, 2.0)))
    obj = link(mesh)
    size, center = fit.fit_box(obj)
    assert np.allclose(size, (1.0, 2.0, 3.0), atol=1e-6)
    assert np.allclose(center, (0.5, -1.0, 2.0), atol=1e-6)


def test_fit_box_of_rotated_mesh_data_is_axis_aligned(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("box", (2.0, 1.0, 1.0), 0.5, 1.0, 0.5, 0.5, "Box")
    mesh.transform(Matrix.Rotation(math.pi / 4, 4, 'Z'))
    size, center = fit.fit_box(link(mesh))
    diagonal = 1.5 / math.sqrt(2)  # (2 + 1) / 2 / sqrt(2) half-extent along X and Y
    assert np.allclose(size, (2 * diagonal, 2 * diagonal, 1.0), atol=1e-6)
    assert np.allclose(center, (0.0, 0.0, 0.0), atol=1e-6)


def test_fit_uses_the_evaluated_mesh(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("box", (1.0, 1.0, 1.0), 0.5, 1.0, 0.5, 0.5, "Box")
    obj = link(mesh)
    array = obj.modifiers.new("Array", 'ARRAY')
    array.count = 3
    array.relative_offset_displace = (1.0, 0.0, 0.0)
    size, center = fit.fit_box(obj, bpy.context.evaluated_depsgraph_get())
    assert np.allclose(size, (3.0, 1.0, 1.0), atol=1e-6)
    assert np.allclose(center, (1.0, 0.0, 0.0), atol=1e-6)


def test_fit_sphere_of_sphere_and_box(fit, meshes, clean_scene):
    sphere = meshes.shape_mesh("sphere", (1, 1, 1), 0.8, 1.0, 0.5, 0.5, "Ball")
    sphere.transform(Matrix.Translation((1.0, 2.0, -3.0)))
    radius, center = fit.fit_sphere(link(sphere))
    assert radius == pytest.approx(0.8, abs=1e-6)
    assert np.allclose(center, (1.0, 2.0, -3.0), atol=1e-6)
    box = meshes.shape_mesh("box", (2.0, 4.0, 6.0), 0.5, 1.0, 0.5, 0.5, "Box")
    radius, center = fit.fit_sphere(link(box, "Box"))
    assert radius == pytest.approx(math.sqrt(1 + 4 + 9), abs=1e-6)
    assert np.allclose(center, (0.0, 0.0, 0.0), atol=1e-6)


def test_fit_sphere_is_the_smallest_not_the_circumsphere(fit, clean_scene):
    # An obtuse triangle: the smallest ball has the long edge as diameter.
    obj = link(mesh_of_points([(-1.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.1, 0.0), (0.0, 0.0, 0.2)]))
    radius, center = fit.fit_sphere(obj)
    assert radius == pytest.approx(1.0, abs=1e-6)
    assert np.allclose(center, (0.0, 0.0, 0.0), atol=1e-6)


@pytest.fixture
def fit_ball(omi):
    return omi("io.blender.fit_ball")


def brute_force_ball(points: np.ndarray, fit) -> float:
    """The smallest of all balls spanned by 2, 3 or 4 of the points that contain every point."""
    best = math.inf
    candidates = []
    for a, b in itertools.combinations(points, 2):
        candidates.append(fit._ball_of_two(a, b))
    for a, b, c in itertools.combinations(points, 3):
        candidates.append(fit._ball_of_three(a, b, c))
    for quad in itertools.combinations(points, 4):
        ball = fit._ball_of_four(*quad)
        if ball is not None:
            candidates.append(ball)
    for center, radius_squared in candidates:
        radius = math.sqrt(radius_squared)
        if np.linalg.norm(points - center, axis=1).max() <= radius + 1e-9:
            best = min(best, radius)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_min_enclosing_ball_matches_brute_force(fit_ball, seed):
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(9, 3)) * (1.0, 2.0, 0.5)
    center, radius = fit_ball.min_enclosing_ball(points)
    assert np.linalg.norm(points - center, axis=1).max() <= radius + 1e-9
    assert radius == pytest.approx(brute_force_ball(points, fit_ball), rel=1e-7)


def test_fit_cylinder_along_x_axis(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("cylinder", (1, 1, 1), 0.5, 3.0, 0.4, 0.4, "Log")
    mesh.transform(Matrix.Translation((0.5, 1.0, -2.0)) @ Matrix.Rotation(math.pi / 2, 4, 'Y'))  # Z -> X
    radius, height, center, rotation = fit.fit_cylinder(link(mesh))
    assert radius == pytest.approx(0.4, abs=1e-6)
    assert height == pytest.approx(3.0, abs=1e-6)
    assert np.allclose(center, (0.5, 1.0, -2.0), atol=1e-6)
    assert isinstance(rotation, Euler)
    assert (rotation.to_matrix() @ Vector((0, 0, 1)) - Vector((1, 0, 0))).length < 1e-6


def test_fit_capsule_along_y_axis(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("capsule", (1, 1, 1), 0.5, 2.0, 0.3, 0.3, "Pill")
    mesh.transform(Matrix.Translation((-1.0, 0.25, 0.5)) @ Matrix.Rotation(-math.pi / 2, 4, 'X'))  # Z -> Y
    obj = link(mesh)
    radius, mid_height, center, rotation = fit.fit_capsule(obj)
    assert radius == pytest.approx(0.3, abs=1e-6)
    assert mid_height == pytest.approx(2.0, abs=1e-6)
    assert np.allclose(center, (-1.0, 0.25, 0.5), atol=1e-6)
    assert (rotation.to_matrix() @ Vector((0, 0, 1)) - Vector((0, 1, 0))).length < 1e-6
    # The fitted capsule, built as a mesh and placed by the rotation and center, has the mesh's bounds.
    rebuilt = meshes.shape_mesh("capsule", (1, 1, 1), 0.5, mid_height, radius, radius, "Rebuilt")
    rebuilt.transform(Matrix.LocRotScale(center, rotation, None))
    size, box_center = fit.fit_box(link(rebuilt, "Rebuilt"))
    expected_size, expected_center = fit.fit_box(obj)
    assert np.allclose(size, expected_size, atol=1e-5) and np.allclose(box_center, expected_center, atol=1e-5)


def test_fit_round_shapes_stand_along_z_and_clamp(fit, meshes, clean_scene):
    flat = meshes.shape_mesh("box", (2.0, 1.0, 2.0), 0.5, 1.0, 0.5, 0.5, "Crate")
    radius, mid_height, _center, rotation = fit.fit_capsule(link(flat))
    assert tuple(rotation) == (0.0, 0.0, 0.0)  # a tie between X and Z prefers Z
    assert radius == pytest.approx(math.hypot(1.0, 0.5), abs=1e-6)  # the box's corners are inside
    assert mid_height == 0.0  # length 2 < 2 * radius: clamped
    radius, height, _center, _rotation = fit.fit_cylinder(link(flat, "Crate2"))
    assert height == pytest.approx(2.0, abs=1e-6)


def test_cylinder_fit_contains_every_vertex(fit, clean_scene):
    rng = random.Random(3)
    points = [(rng.uniform(-1, 2), rng.uniform(-0.5, 0.5), rng.uniform(-3, 3)) for _ in range(300)]
    radius, height, center, rotation = fit.fit_cylinder(link(mesh_of_points(points)))
    to_shape = Matrix.LocRotScale(center, rotation, None).inverted()
    for point in points:
        local = to_shape @ Vector(point)
        assert math.hypot(local.x, local.y) <= radius + 1e-6
        assert abs(local.z) <= height / 2 + 1e-6


def test_convex_hull_points_exact_within_budget(fit, meshes, clean_scene):
    mesh = meshes.shape_mesh("box", (1.0, 2.0, 3.0), 0.5, 1.0, 0.5, 0.5, "Box")
    mesh.transform(Matrix.Translation((0.0, 0.0, 1.0)))
    bm = bmesh.new()
    bm.from_mesh(mesh)
    bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=3, use_grid_fill=True)  # points on faces
    bm.to_mesh(mesh)
    bm.free()
    points = fit.convex_hull_points(link(mesh), 255)
    corners = {tuple(round(c, 6) for c in p) for p in points}
    expected = {(x, y, z + 1.0) for x in (-0.5, 0.5) for y in (-1.0, 1.0) for z in (-1.5, 1.5)}
    assert corners == expected


@pytest.mark.parametrize(("budget", "min_ratio"), [(255, 0.96), (64, 0.87), (32, 0.78), (6, 0.3)])
def test_convex_hull_budget(fit, clean_scene, budget, min_ratio):
    mesh = bpy.data.meshes.new("Rock")
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=64, v_segments=32, radius=1.0)
    bmesh.ops.scale(bm, vec=(2.0, 1.0, 0.5), verts=bm.verts[:])
    bm.to_mesh(mesh)
    bm.free()
    obj = link(mesh)
    full = fit.convex_hull_points(obj)
    assert len(full) == len(mesh.vertices)  # every vertex of an ellipsoid is a hull vertex
    reduced = fit.convex_hull_points(obj, budget)
    assert len(reduced) <= budget
    assert len(reduced) == budget  # the budget is used, not wasted
    full_set = {tuple(p) for p in full}
    assert all(tuple(p) in full_set for p in reduced)  # a subset of the true hull: never bigger
    np.testing.assert_allclose(np.min(reduced, axis=0), np.min(full, axis=0), atol=1e-6)  # bounds kept
    np.testing.assert_allclose(np.max(reduced, axis=0), np.max(full, axis=0), atol=1e-6)
    assert hull_volume(reduced) / hull_volume(full) >= min_ratio


def test_convex_hull_budget_too_small_and_empty_mesh(fit, clean_scene):
    cube = bpy.data.meshes.new("Cube")
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bm.to_mesh(cube)
    bm.free()
    with pytest.raises(ValueError, match="at least 4"):
        fit.convex_hull_points(link(cube), 3)
    assert len(fit.convex_hull_points(link(cube, "Cube2"), 4)) == 4
    with pytest.raises(ValueError, match="no mesh vertices"):
        fit.fit_box(link(bpy.data.meshes.new("Empty"), "Empty"))


def test_convex_hull_budget_on_flat_mesh(fit, clean_scene):
    disc = bpy.data.meshes.new("Disc")
    bm = bmesh.new()
    bmesh.ops.create_circle(bm, cap_ends=True, segments=500, radius=1.5)
    bm.to_mesh(disc)
    bm.free()
    points = fit.convex_hull_points(link(disc), 32)
    assert 4 <= len(points) <= 32
    assert np.allclose(np.min(points, axis=0)[:2], (-1.5, -1.5), atol=1e-5)
    assert np.allclose(np.max(points, axis=0)[:2], (1.5, 1.5), atol=1e-5)
    assert all(abs(math.hypot(p.x, p.y) - 1.5) < 1e-5 for p in points)
