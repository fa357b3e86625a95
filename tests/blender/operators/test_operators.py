"""Authoring operators through bpy.ops on real scenes: bodies, copy, libraries, joints, naming, validate."""

from __future__ import annotations

import math
from typing import Any

import bpy
import pytest
from mathutils import Matrix, Vector


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def add_cube(name, location=(0.0, 0.0, 0.0), size=1.0):
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    obj = bpy.context.active_object
    obj.name = name
    obj.data.name = name
    return obj


def select(*objects, active=None):
    view_layer = bpy.context.view_layer
    for obj in view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    view_layer.objects.active = active or (objects[0] if objects else None)


def test_make_body_and_clear_physics_on_the_selection(clean_scene):
    cubes = [add_cube(f"Prop{i}", (i * 2.0, 0, 0)) for i in range(4)]
    select(*cubes[:3])
    assert bpy.ops.omi.make_body(motion_type='KINEMATIC') == {'FINISHED'}
    assert [c.omi_physics.use_motion for c in cubes] == [True, True, True, False]
    assert {c.omi_physics.motion.motion_type for c in cubes[:3]} == {'KINEMATIC'}
    cubes[0].omi_physics.motion.mass = 9.0
    cubes[0].omi_physics.use_collider = True
    select(cubes[0], cubes[1])
    assert bpy.ops.omi.clear_physics(parts={'MOTION'}) == {'FINISHED'}
    assert not cubes[0].omi_physics.use_motion and cubes[0].omi_physics.motion.mass == 1.0
    assert cubes[0].omi_physics.use_collider  # only the chosen part is cleared
    assert bpy.ops.omi.clear_physics() == {'FINISHED'}
    assert not cubes[0].omi_physics.has_physics
    assert cubes[2].omi_physics.use_motion
    select()
    assert not bpy.ops.omi.make_body.poll()


def test_copy_settings_from_the_active_object(clean_scene):
    source = add_cube("Source")
    targets = [add_cube(f"Target{i}", (3.0 * (i + 1), 0, 0)) for i in range(2)]
    settings = source.omi_physics
    settings.use_motion = True
    settings.motion.motion_type = 'DYNAMIC'
    settings.motion.mass = 4.5
    settings.motion.linear_velocity = (1.0, 2.0, 3.0)
    settings.use_collider = True
    settings.collider.shape.shape_type = 'CAPSULE'
    settings.collider.shape.height = 1.7
    settings.collider.physics_material = "Rubber"
    settings.use_joint = True
    settings.joint.limits.add().kind = 'ANGULAR'
    select(*targets, source, active=source)
    # default parts: body, collider, trigger; the sizes as the source has them (default: fitted to each target)
    assert bpy.ops.omi.copy_settings(shape_sizes='COPY') == {'FINISHED'}
    for target in targets:
        copied = target.omi_physics
        assert copied.use_motion and copied.motion.mass == pytest.approx(4.5)
        assert tuple(copied.motion.linear_velocity) == pytest.approx((1.0, 2.0, 3.0))
        assert copied.collider.shape.shape_type == 'CAPSULE'
        assert copied.collider.shape.height == pytest.approx(1.7)
        assert copied.collider.physics_material == "Rubber"
        assert not copied.use_joint and not len(copied.joint.limits)
    assert bpy.ops.omi.copy_settings(parts={'JOINT'}) == {'FINISHED'}
    assert [target.omi_physics.joint.limits[0].kind for target in targets] == ['ANGULAR', 'ANGULAR']


def test_libraries_presets_rename_remove_and_assign(clean_scene, omi):
    library = omi("properties.library")
    scene = bpy.context.scene
    materials = scene.omi_physics.physics_materials
    assert bpy.ops.omi.library_add_preset(kind='MATERIAL', preset="Ice") == {'FINISHED'}
    assert bpy.ops.omi.library_add_preset(kind='MATERIAL', preset="Rubber") == {'FINISHED'}
    assert [m.name for m in materials] == ["Ice", "Rubber"]
    ice = library.material_to_model(materials["Ice"])
    assert library.materials_equal(ice, library.MATERIAL_PRESETS["Ice"])
    crates = [add_cube(f"Crate{i}", (2.0 * i, 0, 0)) for i in range(3)]
    for crate in crates[:2]:
        crate.omi_physics.use_collider = True
    crates[2].omi_physics.use_trigger = True
    select(*crates)
    assert bpy.ops.omi.assign_material(material="Ice") == {'FINISHED'}
    assert [c.omi_physics.collider.physics_material for c in crates] == ["Ice", "Ice", ""]
    scene.omi_physics.physics_materials_active_index = 0
    assert bpy.ops.omi.library_rename(kind='MATERIAL', new_name="Frozen Lake") == {'FINISHED'}
    assert [c.omi_physics.collider.physics_material for c in crates[:2]] == ["Frozen Lake"] * 2
    assert bpy.ops.omi.library_rename(kind='MATERIAL', new_name="Rubber") == {'FINISHED'}
    assert materials[0].name == "Rubber.001"  # unique, Blender-style
    assert bpy.ops.omi.library_remove(kind='MATERIAL') == {'FINISHED'}
    assert [m.name for m in materials] == ["Rubber"]
    assert [c.omi_physics.collider.physics_material for c in crates[:2]] == ["", ""]

    assert bpy.ops.omi.library_add_preset(kind='FILTER', preset="Projectile") == {'FINISHED'}
    filters = scene.omi_physics.collision_filters
    assert library.filters_equal(library.filter_to_model(filters["Projectile"]), library.FILTER_PRESETS["Projectile"])
    assert bpy.ops.omi.assign_filter(collision_filter="Projectile") == {'FINISHED'}
    assert [c.omi_physics.collider.collision_filter for c in crates[:2]] == ["Projectile"] * 2
    assert crates[2].omi_physics.trigger.collision_filter == "Projectile"
    assert bpy.ops.omi.library_add(kind='FILTER') == {'FINISHED'}
    assert filters[-1].name == "Filter" and scene.omi_physics.collision_filters_active_index == 1
    assert bpy.ops.omi.filter_system_add(listed=False, system="Debris") == {'FINISHED'}
    assert bpy.ops.omi.filter_system_add(listed=True, system="Player") == {'FINISHED'}
    assert [s.name for s in filters[1].collision_systems] == ["Debris"]
    assert [s.name for s in filters[1].listed_systems] == ["Player"]
    assert bpy.ops.omi.filter_system_remove(listed=True) == {'FINISHED'}
    assert not len(filters[1].listed_systems)
    assert bpy.ops.omi.assign_filter(collision_filter="__OMI_NONE__") == {'FINISHED'}
    assert crates[2].omi_physics.trigger.collision_filter == ""


def two_bodies():
    door = add_cube("Door", (1.0, 0.0, 1.0))
    frame = add_cube("Frame", (0.0, 0.0, 1.0))
    door.rotation_euler = (0.0, 0.0, 0.3)
    frame.scale = (1.0, 2.0, 1.0)
    for obj, motion in ((door, 'DYNAMIC'), (frame, 'STATIC')):
        obj.omi_physics.use_motion = True
        obj.omi_physics.motion.motion_type = motion
        obj.omi_physics.use_collider = True
    bpy.context.view_layer.update()
    return door, frame


def dof_table(limits):
    """(kind, glTF axis) -> (min, max) for every degree of freedom a model limit constrains."""
    table = {}
    for limit in limits:
        for axis in limit.linear_axes:
            table[("linear", axis)] = (limit.min, limit.max)
        for axis in limit.angular_axes:
            table[("angular", axis)] = (limit.min, limit.max)
    return table


FIXED = (0.0, 0.0)


@pytest.mark.parametrize(("preset", "options", "expected"), [
    ('FIXED', {}, {("linear", 0): FIXED, ("linear", 1): FIXED, ("linear", 2): FIXED,
                   ("angular", 0): FIXED, ("angular", 1): FIXED, ("angular", 2): FIXED}),
    ('PIN', {}, {("linear", 0): FIXED, ("linear", 1): FIXED, ("linear", 2): FIXED}),
    # Blender Z is glTF +Y: the hinge turns around glTF axis 1 within its range, everything else fixed.
    ('HINGE', {"axis": 'Z', "angle_min": -0.5, "angle_max": 1.25},
     {("linear", 0): FIXED, ("linear", 1): FIXED, ("linear", 2): FIXED,
      ("angular", 0): FIXED, ("angular", 1): (-0.5, 1.25), ("angular", 2): FIXED}),
    # Blender Y is glTF -Z: the slider's travel flips sign on glTF axis 2.
    ('SLIDER', {"axis": 'Y', "distance_min": -0.25, "distance_max": 1.5},
     {("linear", 0): FIXED, ("linear", 1): FIXED, ("linear", 2): (-1.5, 0.25),
      ("angular", 0): FIXED, ("angular", 1): FIXED, ("angular", 2): FIXED}),
    ('SLIDER', {"axis": 'X', "distance_min": 0.0, "distance_max": 2.0, "slider_turns": True,
                "angle_min": -1.0, "angle_max": 1.0},
     {("linear", 0): (0.0, 2.0), ("linear", 1): FIXED, ("linear", 2): FIXED,
      ("angular", 0): (-1.0, 1.0), ("angular", 1): FIXED, ("angular", 2): FIXED}),
])
def test_joint_presets_give_the_spec_limits(clean_scene, omi, preset, options, expected):
    convert = omi("properties.convert_joint")
    door, frame = two_bodies()
    select(door, frame, active=frame)
    assert bpy.ops.omi.create_joint(preset=preset, location='ACTIVE', **options) == {'FINISHED'}
    joints = [obj for obj in bpy.context.scene.objects if obj.omi_physics.use_joint]
    assert len(joints) == 1
    joint_obj = joints[0]
    assert joint_obj.parent == door  # the dynamic body holds the joint, whichever was active
    anchor = joint_obj.omi_physics.joint.connected_object
    assert anchor.parent == frame
    bpy.context.view_layer.update()
    # Both attachment frames sit at the active object's origin, unscaled, aligned with it.
    for frame_obj in (joint_obj, anchor):
        assert (frame_obj.matrix_world.to_translation() - frame.matrix_world.to_translation()).length < 1e-5
        assert tuple(frame_obj.matrix_world.to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=1e-5)
    assert joint_obj.omi_physics.joint.preset == preset
    issues: list[Any] = []
    joint = convert.joint_to_model(joint_obj.omi_physics.joint, joint_obj, issues)
    assert not issues
    table = dof_table(joint.settings.limits)
    assert set(table) == set(expected)
    for dof, (low, high) in expected.items():
        assert table[dof] == pytest.approx((low, high), abs=1e-6), dof
    assert all(limit.stiffness is None and limit.damping == 0.0 for limit in joint.settings.limits)
    assert convert.joint_preset(joint.settings.limits) == preset


def test_joint_at_the_cursor_with_drives_and_preset_changes(clean_scene, omi):
    door, frame = two_bodies()
    bpy.context.scene.cursor.location = (0.5, 0.25, 2.0)
    bpy.context.scene.cursor.rotation_euler = (0.0, 0.0, math.pi / 2)
    select(door, frame, active=door)
    assert bpy.ops.omi.create_joint(preset='HINGE', location='CURSOR', axis='X', enable_collision=True) == {'FINISHED'}
    joint_obj = next(obj for obj in door.children if obj.omi_physics.use_joint)
    bpy.context.view_layer.update()
    assert tuple(joint_obj.matrix_world.to_translation()) == pytest.approx((0.5, 0.25, 2.0), abs=1e-5)
    x_axis = joint_obj.matrix_world.to_3x3() @ Vector((1, 0, 0))
    assert tuple(x_axis) == pytest.approx((0.0, 1.0, 0.0), abs=1e-5)
    assert joint_obj.omi_physics.joint.enable_collision
    select(joint_obj)
    assert bpy.ops.omi.joint_drive_add(kind='MOTOR') == {'FINISHED'}
    assert bpy.ops.omi.joint_drive_add(kind='SPRING') == {'FINISHED'}
    motor, spring = joint_obj.omi_physics.joint.drives
    assert (motor.drive_type, motor.axis, motor.use_velocity_target, motor.use_position_target) == (
        'ANGULAR', 'X', True, False)
    assert (spring.use_position_target, spring.stiffness > 0) == (True, True)
    drive = omi("properties.convert_joint").drive_to_model(motor)
    assert (drive.type, drive.axis, drive.velocity_target) == ("angular", 0, pytest.approx(1.0))
    assert bpy.ops.omi.joint_drive_remove() == {'FINISHED'}
    assert len(joint_obj.omi_physics.joint.drives) == 1
    assert bpy.ops.omi.joint_apply_preset(preset='PIN') == {'FINISHED'}
    assert len(joint_obj.omi_physics.joint.limits) == 1
    assert bpy.ops.omi.joint_limit_add() == {'FINISHED'}
    assert joint_obj.omi_physics.joint.preset == 'CUSTOM'
    assert bpy.ops.omi.joint_limit_remove() == {'FINISHED'}
    assert len(joint_obj.omi_physics.joint.limits) == 1


def test_create_joint_refuses_objects_that_are_not_bodies(clean_scene):
    a, b = add_cube("A"), add_cube("B", (2, 0, 0))
    select(a)
    assert not bpy.ops.omi.create_joint.poll()
    select(a, b)
    with pytest.raises(RuntimeError, match="not a body"):
        bpy.ops.omi.create_joint(preset='FIXED')
    assert not any(obj.omi_physics.use_joint for obj in bpy.context.scene.objects)


def test_compound_trigger_parts(clean_scene):
    zone = bpy.data.objects.new("Zone", None)
    bpy.context.scene.collection.objects.link(zone)
    parts = [add_cube(f"ZonePart{i}", (i * 2.0, 0, 0)) for i in range(2)]
    for part in parts:
        part.parent = zone
        part.omi_physics.use_trigger = True
    stranger = add_cube("Stranger", (9, 0, 0))
    stranger.omi_physics.use_trigger = True
    zone.omi_physics.use_trigger = True
    zone.omi_physics.trigger.is_compound = True
    select(zone, *parts, stranger, active=zone)
    assert bpy.ops.omi.trigger_node_add() == {'FINISHED'}
    assert [node.target for node in zone.omi_physics.trigger.nodes] == parts
    assert bpy.ops.omi.trigger_node_remove() == {'FINISHED'}
    assert [node.target for node in zone.omi_physics.trigger.nodes] == parts[:1]


@pytest.mark.parametrize(("name", "expected"), [
    ("UBX_Crate", ('UNREAL', 'BOX', "Crate", True)),
    ("USP_Ball_01", ('UNREAL', 'SPHERE', "Ball_01", True)),
    ("UCP_Pillar", ('UNREAL', 'CAPSULE', "Pillar", True)),
    ("UCX_Rock_00", ('UNREAL', 'CONVEX', "Rock_00", True)),
    ("Wall-col", ('GODOT', 'TRIMESH', "Wall", False)),
    ("Wall_colonly.001", ('GODOT', 'TRIMESH', "Wall", True)),
    ("Barrel-convcolonly", ('GODOT', 'CONVEX', "Barrel", True)),
    ("Barrel-CONVCOL", ('GODOT', 'CONVEX', "Barrel", False)),
    ("Crate-rigid", ('GODOT', None, "Crate", False)),
])
def test_parse_engine_collision_names(omi, name, expected):
    match = omi("operators.naming").parse_name(name)
    assert (match.convention, match.shape_type, match.base_name, match.collision_only) == expected


@pytest.mark.parametrize("name", ["Column", "UBXCrate", "Collider", "Rock_col_ring", "UCX-Rock"])
def test_ordinary_names_do_not_match(omi, name):
    assert omi("operators.naming").parse_name(name) is None


def test_tag_from_names_adopts_unreal_and_godot_assets(omi, clean_scene):
    crate = add_cube("Crate", (4.0, 0.0, 0.0))
    crate.rotation_euler = (0.0, 0.0, 0.5)
    crate_box = add_cube("UBX_Crate_00", (4.0, 0.0, 0.25), size=1.0)
    crate_box.scale = (1.0, 1.0, 0.5)
    crate_hull = add_cube("UCX_Crate_01", (4.0, 0.0, 1.0), size=0.5)
    wall = add_cube("Wall-colonly", (0.0, 5.0, 0.0))
    barrel = add_cube("Barrel-rigid", (0.0, -5.0, 0.0))
    sensor = bpy.data.objects.new("Sensor-colonly", None)
    sensor.empty_display_type = 'SPHERE'
    sensor.empty_display_size = 1.5
    bpy.context.scene.collection.objects.link(sensor)
    plain = add_cube("Plain", (8.0, 0.0, 0.0))
    bpy.context.view_layer.update()
    world_before = crate_box.matrix_world.copy()

    assert bpy.ops.omi.tag_from_names() == {'FINISHED'}
    bpy.context.view_layer.update()
    assert crate.omi_physics.use_motion and crate.omi_physics.motion.motion_type == 'STATIC'
    assert crate_box.parent == crate and crate_hull.parent == crate
    assert all(abs(a - b) < 1e-5 for row_a, row_b in zip(crate_box.matrix_world, world_before, strict=True)
               for a, b in zip(row_a, row_b, strict=True))
    box = crate_box.omi_physics.collider.shape
    assert box.shape_type == 'BOX' and tuple(box.size) == pytest.approx((1.0, 1.0, 1.0), abs=1e-5)
    shape_mesh = omi("io.blender.tables.markers").is_shape_mesh
    assert shape_mesh(crate_box) and crate_box.display_type == 'WIRE'
    assert crate_hull.omi_physics.collider.shape.shape_type == 'CONVEX'
    assert wall.omi_physics.collider.shape.shape_type == 'TRIMESH' and shape_mesh(wall)
    assert wall.omi_physics.motion.motion_type == 'STATIC'
    assert barrel.omi_physics.motion.motion_type == 'DYNAMIC'
    assert barrel.omi_physics.collider.shape.shape_type == 'CONVEX' and not shape_mesh(barrel)
    assert sensor.omi_physics.collider.shape.shape_type == 'SPHERE'
    assert sensor.omi_physics.collider.shape.radius == pytest.approx(1.5)
    assert not plain.omi_physics.has_physics


def test_validate_lists_problems_and_selects_the_culprit(clean_scene):
    level = add_cube("Level")
    level.scale = (2.0, 2.0, 2.0)
    level.omi_physics.use_collider = True  # scaled box: a warning
    rock = add_cube("Rock", (3, 0, 0))
    rock.omi_physics.use_motion = True
    rock.omi_physics.use_collider = True
    rock.omi_physics.collider.shape.shape_type = 'TRIMESH'  # trimesh on a dynamic body
    rock.omi_physics.collider.physics_material = "Missing"
    hinge = bpy.data.objects.new("Hinge", None)
    bpy.context.scene.collection.objects.link(hinge)
    hinge.parent = level
    hinge.omi_physics.use_joint = True
    hinge.omi_physics.joint.connected_object = level  # no body anywhere, no dynamic body
    zone = bpy.data.objects.new("Zone", None)
    bpy.context.scene.collection.objects.link(zone)
    zone.omi_physics.use_trigger = True
    zone.omi_physics.trigger.is_compound = True
    zone.omi_physics.trigger.nodes.add().target = rock  # not a descendant
    bpy.ops.mesh.primitive_uv_sphere_add(segments=64, ring_count=32, location=(0, 6, 0))
    ball = bpy.context.active_object
    ball.name = "Ball"
    ball.omi_physics.use_collider = True
    ball.omi_physics.collider.shape.shape_type = 'CONVEX'
    assert bpy.ops.omi.validate_scene() == {'FINISHED'}
    state = bpy.context.window_manager.omi_authoring
    found = {(p.name, p.code) for p in state.problems}
    assert {("Level", "scaled_shape"), ("Rock", "trimesh_dynamic"), ("Rock", "missing_material"),
            ("Hinge", "joint_without_body"), ("Hinge", "joint_connected_no_body"),
            ("Zone", "dangling_trigger_node"), ("Ball", "hull_too_large")} <= found
    severities = [p.severity for p in state.problems]
    assert severities == sorted(severities, key=['ERROR', 'WARNING', 'INFO'].index)
    index = next(i for i, p in enumerate(state.problems) if p.name == "Zone")
    assert bpy.ops.omi.select_problem(index=index) == {'FINISHED'}
    assert bpy.context.view_layer.objects.active == zone
    assert [obj.name for obj in bpy.context.selected_objects] == ["Zone"]
    # Fixing the scene empties the list.
    for obj in (level, rock, hinge, zone, ball):
        obj.omi_physics.use_collider = obj.omi_physics.use_trigger = obj.omi_physics.use_joint = False
        obj.omi_physics.use_motion = False
    assert bpy.ops.omi.validate_scene() == {'FINISHED'}
    assert not len(state.problems)


def test_matrix_helpers_are_not_left_scaled(clean_scene):
    """A child made at an unscaled frame under a scaled parent keeps a unit world scale."""
    door, frame = two_bodies()
    select(frame, door, active=frame)
    assert bpy.ops.omi.create_joint(preset='FIXED') == {'FINISHED'}
    bpy.context.view_layer.update()
    children = [obj for obj in bpy.context.scene.objects if obj.parent is not None]
    under_scaled = [obj for obj in children if tuple(obj.parent.scale) != (1.0, 1.0, 1.0)]
    assert {obj.parent.name for obj in children} == {"Door", "Frame"}  # the joint frame and its anchor
    assert [obj.parent.name for obj in under_scaled] == ["Frame"]  # the case this test is about
    for obj in children:
        assert tuple(Matrix(obj.matrix_world).to_scale()) == pytest.approx((1.0, 1.0, 1.0), abs=1e-5), obj.name


@pytest.mark.parametrize(("count", "expected"), [(1, "1 shape uses"), (2, "2 shapes use")])
def test_report_wording_agrees_with_the_count(omi, count, expected):
    common = omi("operators.common")
    assert f"{common.plural(count, 'shape')} {common.uses(count)}" == expected
