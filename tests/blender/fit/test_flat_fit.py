"""A plane floor keeps working: Fit Box gives flat meshes a visible minimum thickness (issue 26, item 1),
and offsets within a fit's rounding are no offsets, so round trips add no nodes (item 4)."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from export_support import SHAPE, export
from import_support import import_gltf, step
from mathutils import Matrix, Vector


def plane(size: float = 16.0, location=(0.0, 0.0, 0.0)) -> bpy.types.Object:
    bpy.ops.mesh.primitive_plane_add(size=size, location=location)
    return bpy.context.active_object


def select(*objects):
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]


def test_fit_box_on_a_plane_gives_the_minimum_thickness_below_its_faces(omi, clean_scene):
    floor = plane()
    select(floor)
    result = bpy.ops.omi.fit_collider(shape_type='BOX', min_thickness=0.05)
    assert result == {'FINISHED'}
    shape = floor.omi_physics.collider.shape
    assert tuple(shape.size) == pytest.approx((16.0, 16.0, 0.05))
    # The top face stays where the plane is: the box hangs below it.
    assert shape.use_offset and tuple(shape.offset_location) == pytest.approx((0.0, 0.0, -0.025))


def test_a_flipped_plane_grows_the_other_way_and_a_scaled_one_in_world_metres(omi, clean_scene):
    floor = plane(4.0)
    floor.rotation_euler = (3.14159265, 0.0, 0.0)  # looks down: the box grows above the faces in local -Z
    floor.data.transform(Matrix.Diagonal((1.0, 1.0, -1.0, 1.0)))  # faces now look along local -Z
    floor.data.flip_normals()
    floor.scale = (1.0, 1.0, 4.0)
    bpy.context.view_layer.update()
    select(floor)
    bpy.ops.omi.fit_collider(shape_type='BOX', min_thickness=0.02)
    shape = floor.omi_physics.collider.shape
    assert shape.size[2] * 4.0 == pytest.approx(0.02)  # 2 cm in the world, whatever the object's scale
    assert shape.offset_location[2] == pytest.approx(0.0025)  # behind faces that look along -Z


def test_the_thickening_is_said_when_fitting(omi, clean_scene, capfd):
    floor = plane()
    floor.name = "Floor"
    select(floor)
    bpy.ops.omi.fit_collider(shape_type='BOX')
    printed = capfd.readouterr()
    text = printed.out + printed.err  # in background mode Blender prints the operator's reports
    assert "Floor: flat or thin" in text and "Min Thickness" in text, text
    assert floor.omi_physics.collider.shape.size[2] == pytest.approx(omi("io.blender.fit").DEFAULT_MIN_THICKNESS)


def test_a_thick_box_is_fitted_exactly(omi, clean_scene):
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    cube = bpy.context.active_object
    select(cube)
    bpy.ops.omi.fit_collider(shape_type='BOX')
    shape = cube.omi_physics.collider.shape
    assert tuple(shape.size) == pytest.approx((2.0, 2.0, 2.0)) and not shape.use_offset


def test_a_fitted_offset_within_rounding_is_no_offset(omi, clean_scene):
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    cube = bpy.context.active_object
    cube.data.transform(Matrix.Translation((1e-8, -2e-7, 3e-8)))
    select(cube)
    bpy.ops.omi.fit_collider(shape_type='BOX')
    shape = cube.omi_physics.collider.shape
    assert not shape.use_offset and tuple(shape.offset_location) == (0.0, 0.0, 0.0)
    cube.data.transform(Matrix.Translation((0.01, 0.0, 0.0)))  # a real offset stays one
    bpy.ops.omi.fit_collider(shape_type='BOX')
    assert shape.use_offset and shape.offset_location[0] == pytest.approx(0.01, abs=1e-6)


def test_export_writes_no_node_for_an_offset_within_rounding(omi, clean_scene, tmp_path: Path):
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    cube = bpy.context.active_object
    cube.name = "Crate"
    settings = cube.omi_physics
    settings.use_collider = True
    shape = settings.collider.shape
    shape.size = (2.0, 2.0, 2.0)
    shape.use_offset = True
    shape.offset_location = (1e-8, 0.0, 0.0)
    exported = export(tmp_path, "tiny_offset")
    names = [node.get("name") for node in exported.nodes]
    assert names == ["Crate"], names
    assert "collider" in exported.body("Crate")


def test_export_of_a_flat_box_writes_a_thin_box_and_says_so(omi, clean_scene, tmp_path: Path):
    floor = plane()
    floor.name = "Floor"
    settings = floor.omi_physics
    settings.use_collider = True
    settings.collider.shape.size = (16.0, 16.0, 0.0)  # authored flat (by hand, or by an older fit)
    exported = export(tmp_path, "flat_box")
    [shape] = exported.shapes()
    thickness = omi("io.blender.fit").DEFAULT_MIN_THICKNESS
    assert shape["box"]["size"] == pytest.approx([16.0, thickness, 16.0])  # glTF Y is Blender's Z
    assert exported.warnings("Floor", "no thickness"), exported.messages
    assert SHAPE in exported.gltf["extensionsUsed"]


def test_a_floor_fitted_from_a_plane_holds_a_body_after_the_round_trip(omi, clean_scene, tmp_path: Path):
    floor = plane(16.0)
    floor.name = "Floor"
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(5.0, 5.0, 2.0))
    crate = bpy.context.active_object
    crate.name = "Crate"
    select(floor, crate)
    bpy.ops.omi.fit_collider(shape_type='BOX')
    select(crate)
    bpy.ops.omi.make_body(motion_type='DYNAMIC')
    export(tmp_path, "floor", "GLB")
    import_gltf(tmp_path / "floor.glb")
    step(60)
    height = bpy.data.objects["Crate"].matrix_world.translation.z
    assert height == pytest.approx(0.5, abs=0.06), height  # resting on the floor, 5 m from its middle
    assert Vector(bpy.data.objects["Crate"].matrix_world.translation.xy).length > 7.0


def test_the_shape_helpers_an_import_makes_are_hidden_and_still_simulate(omi, markers, clean_scene, tmp_path: Path):
    """A collider under a grouping node needs a generated shape object: it lives in the hidden
    'OMI Rigid Bodies' collection (not drawn over the artist's objects), and the body still rests on it."""
    crate = plane(1.0, (0.0, 0.0, 0.0))
    crate.name = "Floor"
    select(crate)
    bpy.ops.omi.fit_collider(shape_type='BOX', min_thickness=0.2)
    crate.scale = (20.0, 20.0, 1.0)
    body = bpy.data.objects.new("Table", None)
    body.location = (0.0, 0.0, 4.0)
    group = bpy.data.objects.new("Group", None)
    leg = bpy.data.objects.new("Leg", None)
    for obj in (body, group, leg):
        bpy.context.scene.collection.objects.link(obj)
    group.parent, leg.parent = body, group
    group.location = (0.0, 0.0, -1.0)
    body.omi_physics.use_motion = True
    leg.omi_physics.use_collider = True
    export(tmp_path, "helpers", "GLB")
    import_gltf(tmp_path / "helpers.glb")
    helpers = [obj for obj in bpy.context.scene.objects if markers.is_generated(obj)]
    assert helpers, "the grouped collider needs a generated shape object"
    assert all(not obj.visible_get() for obj in helpers), [obj.name for obj in helpers if obj.visible_get()]
    step(90)
    table = bpy.data.objects["Table"]
    assert table.matrix_world.translation.z == pytest.approx(1.5, abs=0.06)  # the leg stands on the floor
