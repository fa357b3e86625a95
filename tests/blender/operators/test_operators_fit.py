"""Fit Collider through bpy.ops on rotated, offset and scaled meshes: sizes and world placement checked."""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest
from mathutils import Euler, Matrix, Vector

TOL = 1e-4


@pytest.fixture
def meshes(omi):
    return omi("io.blender.builder.shape_data")


def add_object(mesh, *, location=(5.0, -3.0, 2.0), rotation=(0.4, -0.7, 1.1), scale=(2.0, 0.5, 3.0)):
    obj = bpy.data.objects.new(mesh.name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler, obj.scale = location, rotation, scale
    return obj


def select(*objects):
    view_layer = bpy.context.view_layer
    for obj in view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    view_layer.objects.active = objects[0] if objects else None
    view_layer.update()


def world_points(obj) -> np.ndarray:
    bpy.context.view_layer.update()
    matrix = np.array(obj.matrix_world)
    local = np.array([(*v.co, 1.0) for v in obj.data.vertices])
    return (local @ matrix.T)[:, :3]


def shape_matrix(obj) -> Matrix:
    """World matrix of the object's shape: the object's, then the shape's offset."""
    bpy.context.view_layer.update()
    shape = obj.omi_physics.collider.shape
    matrix = obj.matrix_world.copy()
    if shape.use_offset:
        matrix = matrix @ Matrix.LocRotScale(Vector(shape.offset_location), Euler(shape.offset_rotation), None)
    return matrix


def box_corners(matrix: Matrix, size) -> np.ndarray:
    half = Vector(size) / 2.0
    corners = [matrix @ Vector((sx * half.x, sy * half.y, sz * half.z))
               for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    return np.array(sorted(tuple(round(c, 4) for c in corner) for corner in corners))


def offset_box(meshes, size=(1.0, 2.0, 3.0), offset=(0.5, -1.0, 2.0)):
    mesh = meshes.shape_mesh("box", size, 0.5, 1.0, 0.5, 0.5, "Crate")
    mesh.transform(Matrix.Translation(offset))
    return mesh


def test_box_on_the_object_matches_the_rotated_offset_scaled_mesh(meshes, clean_scene):
    obj = add_object(offset_box(meshes))
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type='BOX', target='SELF') == {'FINISHED'}
    settings = obj.omi_physics
    assert settings.use_collider and settings.collider.shape.shape_type == 'BOX'
    assert tuple(settings.collider.shape.size) == pytest.approx((1.0, 2.0, 3.0), abs=TOL)
    assert tuple(settings.collider.shape.offset_location) == pytest.approx((0.5, -1.0, 2.0), abs=TOL)
    expected = np.array(sorted(tuple(round(c, 4) for c in p) for p in world_points(obj)))
    np.testing.assert_allclose(box_corners(shape_matrix(obj), settings.collider.shape.size), expected, atol=1e-3)


def test_box_on_a_new_child_is_unscaled_and_covers_the_same_world_box(meshes, clean_scene):
    obj = add_object(offset_box(meshes))
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type='BOX', target='CHILD') == {'FINISHED'}
    (child,) = obj.children
    bpy.context.view_layer.update()
    assert tuple(child.matrix_world.to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=TOL)
    shape = child.omi_physics.collider.shape
    assert tuple(shape.size) == pytest.approx((2.0, 1.0, 9.0), abs=TOL)  # size times the parent's scale
    assert not obj.omi_physics.use_collider
    expected = np.array(sorted(tuple(round(c, 4) for c in p) for p in world_points(obj)))
    np.testing.assert_allclose(box_corners(shape_matrix(child), shape.size), expected, atol=1e-3)


@pytest.mark.parametrize("target", ['SELF', 'CHILD'])
def test_sphere_encloses_tightly_in_world_space(meshes, clean_scene, target):
    mesh = meshes.shape_mesh("sphere", (1, 1, 1), 0.75, 1.0, 0.5, 0.5, "Ball", segments=32)
    mesh.transform(Matrix.Translation((0.3, 0.2, -0.4)))
    obj = add_object(mesh, scale=(1.5, 1.5, 1.5))
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type='SPHERE', target=target) == {'FINISHED'}
    holder = obj.children[0] if target == 'CHILD' else obj
    matrix = shape_matrix(holder)
    world_radius = holder.omi_physics.collider.shape.radius * matrix.to_scale().x
    assert world_radius == pytest.approx(0.75 * 1.5, rel=1e-3)
    distances = np.linalg.norm(world_points(obj) - np.array(matrix.to_translation()), axis=1)
    assert distances.max() == pytest.approx(world_radius, rel=1e-4)
    if target == 'CHILD':
        assert tuple(matrix.to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=TOL)


@pytest.mark.parametrize("shape_type", ['CAPSULE', 'CYLINDER'])
@pytest.mark.parametrize("target", ['SELF', 'CHILD'])
def test_round_shapes_stand_along_the_longest_axis(meshes, clean_scene, shape_type, target):
    # A cylinder of radius 0.4 and height 3 lying along the mesh's local X, off the origin.
    mesh = meshes.shape_mesh("cylinder", (1, 1, 1), 0.5, 3.0, 0.4, 0.4, "Log", segments=32)
    mesh.transform(Matrix.Translation((1.0, 0.5, 0.0)) @ Matrix.Rotation(math.pi / 2, 4, 'Y'))
    obj = add_object(mesh, scale=(2.0, 2.0, 2.0))
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type=shape_type, target=target) == {'FINISHED'}
    holder = obj.children[0] if target == 'CHILD' else obj
    shape = holder.omi_physics.collider.shape
    matrix = shape_matrix(holder)
    scale = matrix.to_scale().x
    world_axis = (matrix.to_3x3().normalized() @ Vector((0, 0, 1))).normalized()
    expected_axis = (obj.matrix_world.to_3x3().normalized() @ Vector((1, 0, 0))).normalized()
    assert abs(world_axis.dot(expected_axis)) == pytest.approx(1.0, abs=1e-5)
    assert shape.radius_top * scale == pytest.approx(0.8, rel=1e-3)
    assert shape.radius_bottom == shape.radius_top
    full_height = shape.height + (2 * shape.radius_top if shape_type == 'CAPSULE' else 0.0)
    assert full_height * scale == pytest.approx(6.0, rel=1e-3)
    expected_center = obj.matrix_world @ Vector((1.0, 0.5, 0.0))
    assert tuple(matrix.to_translation()) == pytest.approx(tuple(expected_center), abs=1e-3)
    if target == 'CHILD':
        assert scale == pytest.approx(1.0, abs=TOL)


def test_convex_hull_respects_the_vertex_budget(meshes, clean_scene, omi):
    mesh = meshes.shape_mesh("sphere", (1, 1, 1), 1.0, 1.0, 0.5, 0.5, "Rock", segments=48)
    obj = add_object(mesh, scale=(1.0, 1.0, 1.0))
    assert len(mesh.vertices) > 255
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX', vertex_budget=64) == {'FINISHED'}
    shape = obj.omi_physics.collider.shape
    assert shape.mesh_source == 'OBJECT'
    hull = shape.mesh_object
    assert hull.parent == obj and omi("io.blender.tables.markers").is_shape_mesh(hull)
    assert 4 <= len(hull.data.vertices) <= 64
    original = {tuple(round(c, 4) for c in v.co) for v in mesh.vertices}
    assert {tuple(round(c, 4) for c in v.co) for v in hull.data.vertices} <= original
    checks = omi("operators.validate_checks")
    assert not [p for p in checks.check_scene(bpy.context.scene) if p.code == "hull_too_large"]
    # Fitting again reuses the hull object; without a budget the object's own mesh is the shape.
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX', vertex_budget=32) == {'FINISHED'}
    assert shape.mesh_object == hull and len(hull.data.vertices) <= 32
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX', use_vertex_budget=False) == {'FINISHED'}
    assert shape.mesh_source == 'SELF'
    assert [p.code for p in checks.check_scene(bpy.context.scene) if p.code == "hull_too_large"] == [
        "hull_too_large"]


@pytest.mark.parametrize("shape_type", ['CONVEX', 'TRIMESH'])
def test_mesh_shapes_on_a_child_bake_the_scale(omi, meshes, clean_scene, shape_type):
    obj = add_object(offset_box(meshes))
    select(obj)
    assert bpy.ops.omi.fit_collider(shape_type=shape_type, target='CHILD') == {'FINISHED'}
    (child,) = obj.children
    assert child.omi_physics.collider.shape.shape_type == shape_type
    assert child.omi_physics.collider.shape.mesh_source == 'SELF'
    assert omi("io.blender.tables.markers").is_shape_mesh(child)  # exported as a shape, not as visible geometry
    assert tuple(child.matrix_world.to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=TOL)
    got = np.array(sorted(tuple(round(c, 3) for c in p) for p in world_points(child)))
    expected = np.array(sorted(tuple(round(c, 3) for c in p) for p in world_points(obj)))
    np.testing.assert_allclose(got, expected, atol=2e-3)


def test_fits_every_selected_mesh_and_skips_the_rest(meshes, clean_scene):
    boxes = [add_object(offset_box(meshes), location=(i * 3.0, 0.0, 0.0)) for i in range(3)]
    empty = bpy.data.objects.new("Marker", None)
    bpy.context.scene.collection.objects.link(empty)
    select(*boxes, empty)
    assert bpy.ops.omi.fit_collider(shape_type='BOX', role='TRIGGER') == {'FINISHED'}
    assert all(obj.omi_physics.use_trigger and not obj.omi_physics.use_collider for obj in boxes)
    assert not empty.omi_physics.use_trigger
    select(empty)
    assert not bpy.ops.omi.fit_collider.poll()
    assert 'UNDO' in bpy.types.OMI_OT_fit_collider.bl_options
