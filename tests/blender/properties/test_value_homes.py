"""One value, one home: a body's mass lives in Blender's rigid body once the object has one (the add-on's
panel draws Blender's Rigid Body > Mass), in the add-on's settings only while no rigid body can hold it;
rebuilds, stand-ins, Blender's own Remove and older files keep it."""

from __future__ import annotations

import addon_loader
import bpy
import pytest
from export_support import select
from ui_recorder import Recorder


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


@pytest.fixture
def link(omi):
    return omi("operators.live_link")


def crate(link, mass=2.0, location=(0.0, 0.0, 3.0)):
    """A cube tagged Dynamic with a fitted box, as from the sidebar, its rigid body built by the live link."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
    obj = bpy.context.active_object
    obj.name = "Crate"
    select(obj)
    assert bpy.ops.omi.make_body(motion_type='DYNAMIC') == {'FINISHED'}
    assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
    obj.omi_physics.motion.mass = mass
    link.flush(bpy.context.scene)
    assert obj.rigid_body is not None
    return obj


def drawn_mass(obj):
    """(struct, property) the add-on's body panel draws for the mass."""
    layout = Recorder()
    addon_loader.module("panels.draw").draw_motion(layout, obj.omi_physics.motion)
    found = [(call.data, call.prop_name) for call in layout.walk() if call.prop_name == "mass"]
    assert len(found) == 1
    return found[0]


def test_the_mass_is_stored_once_in_blenders_rigid_body(link, clean_scene):
    body = crate(link, 2.0)
    motion = body.omi_physics.motion
    assert "mass" not in motion  # no second copy in the settings
    assert body.rigid_body.mass == pytest.approx(2.0)
    motion.mass = 5.0  # a script through the settings: Blender's value is the one written
    assert "mass" not in motion and body.rigid_body.mass == pytest.approx(5.0)
    body.rigid_body.mass = 7.5  # a script or a driver on Blender's property, the object not even selected
    assert motion.mass == pytest.approx(7.5)


def test_the_panel_draws_blenders_mass_once_the_body_has_one(link, clean_scene):
    bpy.context.scene.omi_physics.live_rigid_bodies = False
    bpy.ops.mesh.primitive_cube_add(size=1.0)
    body = bpy.context.active_object
    select(body)
    assert bpy.ops.omi.make_body(motion_type='DYNAMIC') == {'FINISHED'}
    assert drawn_mass(body) == (body.omi_physics.motion, "mass")  # no rigid body yet: the settings hold it
    bpy.context.scene.omi_physics.live_rigid_bodies = True
    link.flush(bpy.context.scene)
    assert drawn_mass(body) == (body.rigid_body, "mass")


def test_a_mass_below_blenders_floor_stays_in_the_settings(link, clean_scene):
    body = crate(link, 2.0)
    body.omi_physics.motion.mass = 0.0  # OMI allows it; Blender simulates its 0.001 kg floor
    link.flush(bpy.context.scene)
    assert body.omi_physics.motion.mass == 0.0 and body.rigid_body.mass == pytest.approx(0.001)
    assert drawn_mass(body) == (body.omi_physics.motion, "mass")


def test_blenders_mass_survives_a_stand_in_and_a_type_change(link, clean_scene):
    body = crate(link, 2.0)
    body.rigid_body.mass = 7.0  # edited in Blender's panel: the home
    motion = body.omi_physics.motion
    motion.center_of_mass = (0.2, 0.0, 0.0)  # off the origin: a generated stand-in simulates the body
    link.flush(bpy.context.scene)
    assert motion.mass == pytest.approx(7.0)
    stand_ins = [obj for obj in bpy.data.objects if obj.get("omi_owner") == body and obj.get("omi_generated") == "body"]
    assert stand_ins and stand_ins[0].rigid_body.mass == pytest.approx(7.0)
    motion.center_of_mass = (0.0, 0.0, 0.0)
    motion.motion_type = 'STATIC'
    link.flush(bpy.context.scene)
    motion.motion_type = 'DYNAMIC'
    link.flush(bpy.context.scene)
    assert motion.mass == pytest.approx(7.0) and body.rigid_body.mass == pytest.approx(7.0)
    assert "mass" not in motion


def test_blenders_own_remove_keeps_the_mass(link, clean_scene):
    body = crate(link, 2.0)
    body.rigid_body.mass = 6.0
    bpy.context.view_layer.update()  # the depsgraph update after an edit in Blender's panel
    select(body)
    assert bpy.ops.rigidbody.object_remove() == {'FINISHED'}
    bpy.context.view_layer.update()
    link.flush(bpy.context.scene)  # the link builds the tagged body again
    assert body.rigid_body is not None and body.rigid_body.mass == pytest.approx(6.0)
    assert body.omi_physics.motion.mass == pytest.approx(6.0)


@pytest.mark.parametrize(("stored", "blender", "mass", "kept"), [
    (2.0, 2.0, 2.0, False),  # both copies agreed: Blender's stays
    (2.0, 7.5, 7.5, False),  # edited in Blender's panel (the older files' settings read it): Blender's stays
    (0.0, 0.001, 0.0, True),  # below Blender's floor: the settings' stays
])
@pytest.mark.usefixtures("clean_scene")
def test_older_files_keep_one_copy_of_the_mass(omi, stored, blender, mass, kept):
    migrate = omi("properties.migrate")
    bpy.ops.mesh.primitive_cube_add(size=1.0)
    body = bpy.context.active_object
    bpy.context.scene.omi_physics.live_rigid_bodies = False
    select(body)
    assert bpy.ops.rigidbody.object_add() == {'FINISHED'}
    settings = body.omi_physics
    settings.use_motion = True
    settings["version"] = 3
    settings.motion["mass"] = stored  # the older layout: the settings' own copy, and Blender's
    body.rigid_body.mass = blender
    assert migrate.migrate_group(body, settings)
    assert settings.motion.mass == pytest.approx(mass)
    assert ("mass" in settings.motion) == kept


def material_of(obj):
    name = obj.omi_physics.collider.physics_material
    return bpy.context.scene.omi_physics.physics_materials[name] if name else None


def test_a_script_edit_of_an_unselected_body_comes_back(link, clean_scene):
    edited = crate(link, 2.0)
    edited.name = "Edited"
    active = crate(link, 2.0, (3.0, 0.0, 3.0))
    select(active)  # the edited body is neither active nor selected
    edited.rigid_body.friction = 0.2
    edited.rigid_body.type = 'PASSIVE'
    bpy.context.view_layer.update()
    assert edited.omi_physics.motion.motion_type == 'STATIC'
    assert material_of(edited).dynamic_friction == pytest.approx(0.2)
    assert material_of(active) is None  # the other body is not touched


def test_copy_attributes_to_selected_comes_back_for_each(link, clean_scene):
    source = crate(link, 2.0)
    source.name = "Source"
    targets = [crate(link, 2.0, (3.0 * index, 0.0, 3.0)) for index in (1, 2)]
    source.rigid_body.restitution = 0.6  # a script: the source is neither active nor selected
    bpy.context.view_layer.update()
    assert material_of(source).restitution == pytest.approx(0.6)
    select(source, *targets)
    assert bpy.ops.rigidbody.object_settings_copy() == {'FINISHED'}
    bpy.context.view_layer.update()
    for target in targets:
        assert material_of(target) is not None and material_of(target).restitution == pytest.approx(0.6)


def test_an_edit_of_a_generated_stand_in_comes_back_to_its_object(link, clean_scene):
    body = crate(link, 2.0)
    body.omi_physics.motion.center_of_mass = (0.2, 0.0, 0.0)  # a generated stand-in simulates it
    link.flush(bpy.context.scene)
    [stand_in] = [obj for obj in bpy.data.objects
                  if obj.get("omi_owner") == body and obj.get("omi_generated") == "body"]
    stand_in.rigid_body.mass = 9.0
    stand_in.rigid_body.friction = 0.3
    bpy.context.view_layer.update()
    assert body.omi_physics.motion.mass == pytest.approx(9.0)
    assert material_of(body).dynamic_friction == pytest.approx(0.3)
    assert body.omi_physics.motion.center_of_mass[0] == pytest.approx(0.2)  # the stand-in stays a stand-in


@pytest.mark.parametrize(("keyed", "sag"), [(None, 0.098), ("settings", 1.93)])
def test_the_settings_mass_f_curve_alone_plays_in_blenders_simulation(link, clean_scene, keyed, sag):
    """The import keys an animated mass on the settings only: its F-curve writes Blender's mass as it plays.
    A body hanging on a spring (100 N/m) sags m g / k: 0.098 m at 1 kg, 1.93 m once keyed to 20 kg."""
    body = crate(link, 1.0, (0.0, 0.0, 0.0))
    scene = bpy.context.scene
    scene.omi_physics.live_rigid_bodies = False
    bpy.ops.mesh.primitive_cube_add(size=0.2, location=(3.0, 0.0, 0.0))
    fixed = bpy.context.active_object
    assert bpy.ops.rigidbody.object_add() == {'FINISHED'}
    fixed.rigid_body.type = 'PASSIVE'
    fixed.rigid_body.collision_collections = [index == 1 for index in range(20)]
    bpy.ops.object.empty_add(location=(0.0, 0.0, 0.0))
    assert bpy.ops.rigidbody.constraint_add() == {'FINISHED'}
    spring = bpy.context.active_object.rigid_body_constraint
    spring.type, spring.spring_type = 'GENERIC_SPRING', 'SPRING2'
    spring.object1, spring.object2 = fixed, body
    spring.use_spring_z, spring.spring_stiffness_z, spring.spring_damping_z = True, 100.0, 5.0
    if keyed:
        for frame, mass in ((1, 1.0), (2, 20.0)):
            body.omi_physics.motion.mass = mass
            body.keyframe_insert("omi_physics.motion.mass", frame=frame)
    scene.frame_start, scene.frame_end = 1, 120
    scene.rigidbody_world.point_cache.frame_end = 120
    for frame in range(1, 121):
        scene.frame_set(frame)
    assert -body.matrix_world.translation.z == pytest.approx(sag, rel=0.02)


def test_blenders_mass_survives_undo_save_reopen_and_append(link, clean_scene, tmp_path):
    body = crate(link, 2.0)
    bpy.ops.ed.undo_push(message="crate")
    body.rigid_body.mass = 7.0  # the home: no copy in the settings
    bpy.ops.ed.undo_push(message="mass")
    assert bpy.ops.ed.undo() == {'FINISHED'}
    assert bpy.context.scene.objects["Crate"].omi_physics.motion.mass == pytest.approx(2.0)
    assert bpy.ops.ed.redo() == {'FINISHED'}
    assert bpy.context.scene.objects["Crate"].omi_physics.motion.mass == pytest.approx(7.0)
    path = tmp_path / "home.blend"
    assert bpy.ops.wm.save_as_mainfile(filepath=str(path)) == {'FINISHED'}
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {'FINISHED'}
    body = bpy.context.scene.objects["Crate"]
    assert body.omi_physics.motion.mass == pytest.approx(7.0) and body.rigid_body.mass == pytest.approx(7.0)
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(path), link=False) as (_source, target):
        target.objects = ["Crate"]
    bpy.context.scene.collection.objects.link(target.objects[0])
    bpy.context.view_layer.update()  # appended objects arrive in a depsgraph update
    link.flush(bpy.context.scene)
    body = bpy.context.scene.objects["Crate"]
    assert body.rigid_body is not None and body.rigid_body.mass == pytest.approx(7.0)
    assert body.omi_physics.motion.mass == pytest.approx(7.0) and "mass" not in body.omi_physics.motion
