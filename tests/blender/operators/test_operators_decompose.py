"""Convex decomposition through bpy.ops with the real CoACD: convex parts that rebuild the mesh."""

from __future__ import annotations

import bpy

# isort: split
# (bmesh is a module of bpy's: importable only once bpy is, and conftest no longer imports bpy)
import bmesh
import numpy as np
import pytest

L_OUTLINE = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]  # an L: area 3


def l_prism(name="Bracket"):
    """A closed L-shaped prism (concave), 1 high: volume 3."""
    bm = bmesh.new()
    bottom = [bm.verts.new((x, y, 0.0)) for x, y in L_OUTLINE]
    face = bm.faces.new(bottom)
    result = bmesh.ops.extrude_face_region(bm, geom=[face])
    top = [v for v in result["geom"] if isinstance(v, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, vec=(0, 0, 1), verts=top)
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces[:])
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def volume_and_hull_volume(mesh):
    bm = bmesh.new()
    bm.from_mesh(mesh)
    volume = abs(bm.calc_volume())
    bm.free()
    hull = bmesh.new()
    for v in mesh.vertices:
        hull.verts.new(v.co)
    out = bmesh.ops.convex_hull(hull, input=hull.verts[:])
    loose = {v for v in out["geom_interior"] + out["geom_unused"] if isinstance(v, bmesh.types.BMVert)}
    bmesh.ops.delete(hull, geom=list(loose), context='VERTS')
    hull_volume = abs(hull.calc_volume())
    hull.free()
    return volume, hull_volume


def select(*objects):
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]


def test_decomposition_makes_convex_children_that_rebuild_the_mesh(omi, clean_scene):
    if omi("operators.decompose").load_coacd() is None:
        pytest.skip("coacd is not installed in this environment")
    obj = l_prism()
    obj.location, obj.rotation_euler, obj.scale = (3, -1, 2), (0.2, 0.1, 0.7), (2.0, 2.0, 2.0)
    obj.omi_physics.use_motion = True
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.shape.shape_type = 'TRIMESH'
    select(obj)
    result = bpy.ops.omi.convex_decomposition(max_hulls=4, vertex_budget=32, quality='DRAFT')
    assert result == {'FINISHED'}
    parts = sorted(obj.children, key=lambda o: o.name)
    assert 2 <= len(parts) <= 4
    assert not obj.omi_physics.use_collider  # the convex parts replace the concave shape
    bpy.context.view_layer.update()
    total = 0.0
    source = np.array([obj.matrix_world @ v.co for v in obj.data.vertices])
    low, high = source.min(axis=0), source.max(axis=0)
    for part in parts:
        shape = part.omi_physics.collider.shape
        assert part.omi_physics.use_collider and shape.shape_type == 'CONVEX' and shape.mesh_source == 'SELF'
        assert omi("io.blender.tables.markers").is_shape_mesh(part)
        assert tuple(part.matrix_world.to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=1e-5)
        assert len(part.data.vertices) <= 32
        volume, hull_volume = volume_and_hull_volume(part.data)
        assert volume == pytest.approx(hull_volume, rel=1e-3)  # each part is convex
        total += volume
        world = np.array([part.matrix_world @ v.co for v in part.data.vertices])
        assert np.all(world >= low - 0.05) and np.all(world <= high + 0.05)
    assert total == pytest.approx(3.0 * 8.0, rel=0.1)  # the L's volume, scaled by 2 in every axis
    # Running again replaces the parts instead of piling up more.
    assert bpy.ops.omi.convex_decomposition(max_hulls=2, quality='DRAFT') == {'FINISHED'}
    assert 1 <= len(obj.children) <= 2


def test_without_coacd_the_operator_says_so_and_changes_nothing(omi, clean_scene, monkeypatch):
    decompose = omi("operators.decompose")
    monkeypatch.setattr(decompose, "load_coacd", lambda: None)
    obj = l_prism()
    select(obj)
    with pytest.raises(RuntimeError, match="CoACD"):
        bpy.ops.omi.convex_decomposition()
    assert not obj.children and not obj.omi_physics.has_physics
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX') == {'FINISHED'}  # the rest still works
