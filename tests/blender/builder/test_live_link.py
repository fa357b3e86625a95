"""The live link: what the artist tags with the add-on's own operators is what Blender plays, with no Sync;
edits, Blender's own Rigid Body panel, undo/redo, save/reopen and append keep both in step."""

from __future__ import annotations

import bpy
import pytest
from export_support import select


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


@pytest.fixture
def link(omi):
    return omi("operators.live_link")


def tagged(kind, motion, location=(0.0, 0.0, 0.0), name=None, undo=False):
    """A new mesh tagged with the add-on's operators (Make Body, then a fitted Box), as from the sidebar."""
    (bpy.ops.mesh.primitive_plane_add if kind == "plane" else bpy.ops.mesh.primitive_cube_add)(
        size=10.0 if kind == "plane" else 1.0, location=location)
    obj = bpy.context.active_object
    if name:
        obj.name = name
    select(obj)
    args = ('EXEC_DEFAULT', True) if undo else ()  # True: an undo step, as a click in the UI pushes
    assert bpy.ops.omi.make_body(*args, motion_type=motion) == {'FINISHED'}
    assert bpy.ops.omi.fit_collider(*args, shape_type='BOX') == {'FINISHED'}
    return obj


def play(frames=50):
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + frames):
        scene.frame_set(frame)


def height(obj):
    return obj.matrix_world.to_translation().z


def test_a_tagged_cube_falls_onto_a_tagged_plane_with_no_sync(clean_scene):
    plane = tagged("plane", 'STATIC', name="Ground")
    cube = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    play()
    assert cube.rigid_body.type == 'ACTIVE' and plane.rigid_body.type == 'PASSIVE'
    assert height(cube) == pytest.approx(0.5, abs=0.05)  # fell 2.5 m and rests on the plane


def test_a_cube_tagged_after_the_first_play_falls_too(clean_scene):
    tagged("plane", 'STATIC', name="Ground")
    first = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "First")
    play()
    bpy.context.scene.frame_set(1)
    later = tagged("cube", 'DYNAMIC', (3.0, 0.0, 4.0), "Later")
    play()
    assert height(first) == pytest.approx(0.5, abs=0.05)
    assert height(later) == pytest.approx(0.5, abs=0.05)


def test_an_edit_rebuilds_only_its_object(link, clean_scene):
    tagged("plane", 'STATIC', name="Ground")
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    other = tagged("cube", 'DYNAMIC', (3.0, 0.0, 3.0), "Other")
    link.flush(bpy.context.scene)
    untouched = other.rigid_body.as_pointer()
    crate.omi_physics.motion.motion_type = 'KINEMATIC'
    assert link.flush(bpy.context.scene) == 1
    assert other.rigid_body.as_pointer() == untouched
    play()
    assert height(crate) == pytest.approx(3.0, abs=0.05)  # kinematic: it stays
    assert height(other) == pytest.approx(0.5, abs=0.05)


def test_untagging_removes_the_rigid_body_and_a_hand_made_one_stays(link, clean_scene):
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    bpy.ops.mesh.primitive_cube_add(location=(3.0, 0.0, 3.0))
    hand = bpy.context.active_object
    select(hand)
    bpy.ops.rigidbody.object_add()  # the artist's own rigid body, no OMI settings
    link.flush(bpy.context.scene)
    select(crate)
    assert bpy.ops.omi.clear_physics() == {'FINISHED'}
    link.flush(bpy.context.scene)
    assert crate.rigid_body is None
    assert hand.rigid_body is not None and hand.rigid_body.type == 'ACTIVE'
    assert not hand.omi_physics.has_physics and "omi_edits" not in hand  # looked at, never tagged


def test_an_edit_in_blenders_rigid_body_panel_comes_back_into_the_settings(link, clean_scene):
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    link.flush(bpy.context.scene)
    crate.rigid_body.friction = 0.25
    crate.rigid_body.type = 'PASSIVE'
    bpy.context.view_layer.update()  # the depsgraph update that follows an edit in the panel
    settings = crate.omi_physics
    assert settings.motion.motion_type == 'STATIC'
    material = bpy.context.scene.omi_physics.physics_materials[settings.collider.physics_material]
    assert material.dynamic_friction == pytest.approx(0.25)


def test_undo_and_redo_keep_settings_and_rigid_bodies_in_step(clean_scene):
    bpy.ops.ed.undo_push(message="empty")
    tagged("plane", 'STATIC', name="Ground", undo=True)
    tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate", undo=True)
    assert bpy.ops.ed.undo() == {'FINISHED'}  # the fit of the crate
    crate = bpy.context.scene.objects["Crate"]
    assert crate.omi_physics.use_motion and not crate.omi_physics.use_collider
    assert crate.rigid_body is not None and crate.rigid_body.collision_shape != 'BOX'  # no collider yet
    assert bpy.ops.ed.undo() == {'FINISHED'}  # the crate (added in the step of its Make Body)
    assert "Crate" not in bpy.context.scene.objects
    ground = bpy.context.scene.objects["Ground"]
    assert ground.omi_physics.use_collider and ground.rigid_body is not None
    assert bpy.ops.ed.redo() == {'FINISHED'}
    assert bpy.ops.ed.redo() == {'FINISHED'}
    crate = bpy.context.scene.objects["Crate"]
    assert crate.omi_physics.use_collider and crate.rigid_body is not None
    assert crate.rigid_body.collision_shape == 'BOX'
    play()
    assert height(crate) == pytest.approx(0.5, abs=0.05)


def test_save_reopen_and_append_keep_settings_and_rigid_bodies_in_step(link, clean_scene, tmp_path):
    tagged("plane", 'STATIC', name="Ground")
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    crate.omi_physics.motion.mass = 7.0  # saved before any build: the file holds settings only
    path = tmp_path / "tagged.blend"
    assert bpy.ops.wm.save_as_mainfile(filepath=str(path)) == {'FINISHED'}
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {'FINISHED'}
    crate = bpy.context.scene.objects["Crate"]
    assert crate.rigid_body is not None and crate.rigid_body.mass == pytest.approx(7.0)

    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(path), link=False) as (source, target):
        target.objects = [name for name in source.objects if name in ("Ground", "Crate")]
    for obj in target.objects:
        bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.update()  # appended objects arrive in a depsgraph update
    play()
    crate = bpy.context.scene.objects["Crate"]
    world = bpy.context.scene.rigidbody_world
    assert world is not None and crate.name in world.collection.objects
    assert height(crate) == pytest.approx(0.5, abs=0.05)


def test_with_the_link_off_nothing_is_built(clean_scene):
    bpy.context.scene.omi_physics.live_rigid_bodies = False
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    play()
    assert crate.rigid_body is None


def test_a_library_edit_reaches_the_rigid_bodies_of_its_users(link, clean_scene):
    crate = tagged("cube", 'DYNAMIC', (0.0, 0.0, 3.0), "Crate")
    other = tagged("cube", 'DYNAMIC', (3.0, 0.0, 3.0), "Other")
    assert bpy.ops.omi.library_add_preset(kind='MATERIAL', preset="Rubber") == {'FINISHED'}
    select(crate)
    assert bpy.ops.omi.assign_material(material="Rubber") == {'FINISHED'}
    link.flush(bpy.context.scene)
    assert crate.rigid_body.restitution == pytest.approx(0.8)
    untouched = other.rigid_body.as_pointer()
    bpy.context.scene.omi_physics.physics_materials["Rubber"].restitution = 0.5
    assert link.flush(bpy.context.scene) == 1
    assert crate.rigid_body.restitution == pytest.approx(0.5)
    assert other.rigid_body.as_pointer() == untouched
