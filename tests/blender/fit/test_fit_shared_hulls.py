"""Objects that show one mesh unchanged share one fitted hull (issue #27: fitting 1,000 instances of one
mesh took 6.5 s and wrote 1,000 identical hull meshes). An instance whose mesh a modifier changes gets a
hull of its own. The time at 1,000 instances is measured by benchmarks/authoring_benchmark.py, not asserted."""

from __future__ import annotations

import bpy
import export_support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def _instances(count: int) -> list[bpy.types.Object]:
    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3)
    source = bpy.context.active_object
    objects = [source]
    for index in range(count - 1):
        obj = bpy.data.objects.new(f"Rock{index}", source.data)
        bpy.context.scene.collection.objects.link(obj)
        obj.location = (3.0 * (index + 1), 0.0, 0.0)
        objects.append(obj)
    return objects


def test_instances_of_one_mesh_share_one_hull(clean_scene, tmp_path):
    objects = _instances(12)
    bent = objects[-1]
    bent.data = bent.data.copy()  # a mesh of its own, changed by a modifier: its own hull
    bent.modifiers.new("Bend", 'SIMPLE_DEFORM').deform_axis = 'Z'
    for obj in objects:
        obj.select_set(True)
        obj.omi_physics.use_motion = True
    bpy.context.view_layer.objects.active = objects[0]
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX', use_vertex_budget=True, vertex_budget=32) == {'FINISHED'}
    hulls = [obj.omi_physics.collider.shape.mesh_object for obj in objects]
    assert all(hull is not None and hull.parent is obj for hull, obj in zip(hulls, objects, strict=True))
    assert len({hull.data for hull in hulls[:-1]}) == 1  # one mesh for the eleven unchanged instances
    assert hulls[-1].data is not hulls[0].data
    assert len(hulls[0].data.vertices) <= 32
    exported = export_support.export(tmp_path, "rocks")
    shapes = exported.gltf["extensions"]["OMI_physics_shape"]["shapes"]
    hull_meshes = {shape["convex"]["mesh"] for shape in shapes if shape["type"] == "convex"}
    assert len(hull_meshes) == 2, shapes
