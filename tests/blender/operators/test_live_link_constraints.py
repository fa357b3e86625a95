"""The live link and Blender's Rigid Body Constraint panel: an edit of the constraint the build made for a
joint comes back into the joint's settings where the constraint reads back as them, and is named and
rebuilt from the settings where it does not."""

from __future__ import annotations

import bpy
import pytest
from export_support import export, select
from live_hinge import live_hinge


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def hinge(**options):
    """The live hinge (tests/blender/live_hinge.py) and the constraints its build made."""
    link, joint = live_hinge(**options)
    made = [obj for obj in bpy.data.objects if obj.get("omi_owner") == joint and obj.rigid_body_constraint]
    return link, joint, made


def hinge_range(made):
    found = [obj.rigid_body_constraint for obj in made if obj.rigid_body_constraint.type == 'HINGE']
    assert len(found) == 1
    return found[0].limit_ang_z_lower, found[0].limit_ang_z_upper


def test_a_hinge_limit_edited_on_its_constraint_comes_back_into_the_joint(clean_scene):
    link, joint, made = hinge()
    assert len(made) == 1 and hinge_range(made) == pytest.approx((-1.0, 1.0))
    made[0].rigid_body_constraint.limit_ang_z_upper = 0.5  # a script, or the Rigid Body Constraint panel
    bpy.context.view_layer.update()
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}  # the constraint made again from the settings
    link.flush(bpy.context.scene)
    made = [obj for obj in bpy.data.objects if obj.get("omi_owner") == joint and obj.rigid_body_constraint]
    assert hinge_range(made) == pytest.approx((-1.0, 0.5), abs=1e-5)


def test_an_edit_of_a_constraint_that_does_not_read_back_is_named_and_rebuilt(clean_scene, caplog):
    link, joint, made = hinge()
    settings = joint.omi_physics.joint
    settings.limits[0].max_linear = 0.5  # linear XYZ: a distance limit, which Blender holds per axis
    link.flush(bpy.context.scene)
    made = [obj for obj in bpy.data.objects if obj.get("omi_owner") == joint and obj.rigid_body_constraint]
    assert made
    constraint = made[0].rigid_body_constraint
    name, value = next((name, getattr(constraint, name)) for name in ("limit_ang_z_upper", "limit_lin_z_upper")
                       if hasattr(constraint, name))
    setattr(constraint, name, value + 0.25)
    bpy.context.view_layer.update()
    assert any("is not taken back" in message for message in caplog.messages)
    link.flush(bpy.context.scene)
    made = [obj for obj in bpy.data.objects if obj.get("omi_owner") == joint and obj.rigid_body_constraint]
    assert getattr(made[0].rigid_body_constraint, name) == pytest.approx(value)  # the settings' value again


def joint_constraints(joint):
    return [obj for obj in bpy.data.objects if obj.get("omi_owner") == joint and obj.rigid_body_constraint]


def post(name="Post", location=(0.0, 2.0, 1.0)):
    """A third body, static, for a constraint's end to be set to."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
    obj = bpy.context.active_object
    obj.name = name
    select(obj, active=obj)
    assert bpy.ops.omi.make_body(motion_type='STATIC') == {'FINISHED'}
    assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
    return obj


def body_of(obj):
    while obj is not None and not obj.omi_physics.use_motion:
        obj = obj.parent
    return obj


def test_object_2_set_in_the_constraint_panel_connects_the_joint_to_that_body(clean_scene, caplog):
    link, joint, made = hinge()
    other = post()
    link.flush(bpy.context.scene)
    bpy.data.objects["Frame"].name = "Wall"  # a rename is no change of body
    made[0].rigid_body_constraint.object2 = other  # the Rigid Body Constraint panel's Object 2
    bpy.context.view_layer.update()
    connected = joint.omi_physics.joint.connected_object
    assert body_of(connected) == other
    assert connected.name == "Frame.anchor"  # the joint's own frame, moved into the post where it stands
    assert tuple(connected.matrix_world.translation) == pytest.approx((0.0, 0.0, 1.0), abs=1e-6)
    assert not [message for message in caplog.messages if "Wall" in message or "is no body" in message]
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(joint)
    assert (rebuilt.rigid_body_constraint.object1, rebuilt.rigid_body_constraint.object2) == \
        (bpy.data.objects["Door"], other)
    assert hinge_range([rebuilt]) == pytest.approx((-1.0, 1.0), abs=1e-5)  # the limits as the settings say


def test_object_1_set_in_the_constraint_panel_moves_the_joint_into_that_body(clean_scene):
    link, joint, made = hinge()
    other = post()
    link.flush(bpy.context.scene)
    where = joint.matrix_world.copy()
    made[0].rigid_body_constraint.object1 = other
    bpy.context.view_layer.update()
    assert joint.parent == other and joint.omi_physics.joint.connected_object.parent.name == "Frame"
    assert [v for row in joint.matrix_world for v in row] == pytest.approx([v for row in where for v in row], abs=1e-6)
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(joint)
    assert (rebuilt.rigid_body_constraint.object1, rebuilt.rigid_body_constraint.object2) == \
        (other, bpy.data.objects["Frame"])


@pytest.mark.parametrize("end", ["object1", "object2"])
def test_a_body_the_settings_cannot_say_is_named_and_the_settings_kept(clean_scene, caplog, end):
    link, joint, made = hinge()
    bpy.ops.object.empty_add(location=(0.0, 3.0, 0.0))
    lamp = bpy.context.active_object
    lamp.name = "Lamp"
    link.flush(bpy.context.scene)
    anchor = joint.omi_physics.joint.connected_object
    setattr(made[0].rigid_body_constraint, end, lamp)
    bpy.context.view_layer.update()
    said = [message for message in caplog.messages if "'Lamp'" in message]
    assert len(said) == 1 and said[0].startswith("OMI physics: ") and "is no body" in said[0]
    assert joint.omi_physics.joint.connected_object == anchor and joint.parent.name == "Door"
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(joint)
    assert (rebuilt.rigid_body_constraint.object1.name, rebuilt.rigid_body_constraint.object2.name) == \
        ("Door", "Frame")


def test_both_ends_one_body_is_named_and_the_settings_kept(clean_scene, caplog):
    _link, joint, made = hinge()
    made[0].rigid_body_constraint.object2 = bpy.data.objects["Door"]
    bpy.context.view_layer.update()
    assert any("both ends were set to 'Door'" in message for message in caplog.messages)
    assert body_of(joint.omi_physics.joint.connected_object).name == "Frame"


def test_undo_and_redo_of_a_body_edit_keep_joint_and_constraint_in_step(clean_scene):
    link, _joint, made = hinge()
    other = post()
    link.flush(bpy.context.scene)
    bpy.ops.ed.undo_push(message="joint built")
    made[0].rigid_body_constraint.object2 = other
    bpy.ops.ed.undo_push(message="Object 2")  # a click in the panel pushes its step before the update
    bpy.context.view_layer.update()
    link.flush(bpy.context.scene)

    def ends():
        joint = bpy.data.objects["Door.joint"]
        [made] = joint_constraints(joint)
        link.flush(bpy.context.scene)
        [made] = joint_constraints(joint)
        return body_of(joint.omi_physics.joint.connected_object).name, made.rigid_body_constraint.object2.name

    assert ends() == ("Post", "Post")
    assert bpy.ops.ed.undo() == {'FINISHED'}
    bpy.context.view_layer.update()
    assert ends() == ("Frame", "Frame")
    assert bpy.ops.ed.redo() == {'FINISHED'}
    bpy.context.view_layer.update()
    assert ends() == ("Post", "Post")


def test_the_export_writes_the_body_set_in_the_constraint_panel(clean_scene, tmp_path):
    link, joint, made = hinge()
    other = post()
    link.flush(bpy.context.scene)
    made[0].rigid_body_constraint.object2 = other
    bpy.context.view_layer.update()
    link.flush(bpy.context.scene)
    result = export(tmp_path)
    connected = result.joint(joint.name)["connectedNode"]
    parents = {name: result.parent(index) for name, index in (("connected", connected),
                                                              ("joint", result.index(joint.name)))}
    assert {name: None if index is None else result.nodes[index]["name"] for name, index in parents.items()} == \
        {"connected": "Post", "joint": "Door"}


def test_object_2_set_to_an_empty_body_connects_the_joint_to_it(clean_scene, caplog):
    link, joint, made = hinge()
    bpy.ops.object.empty_add(location=(0.0, 2.0, 1.0))
    planet = bpy.context.active_object
    planet.name = "Planet"
    select(planet, active=planet)
    assert bpy.ops.omi.make_body(motion_type='STATIC') == {'FINISHED'}
    planet.omi_physics.use_collider = True
    planet.omi_physics.collider.shape.shape_type = 'SPHERE'
    link.flush(bpy.context.scene)
    assert planet.rigid_body is None  # its rigid body is a generated stand-in's
    made[0].rigid_body_constraint.object2 = planet  # picked in the panel's list: the artist's empty
    bpy.context.view_layer.update()
    assert not [message for message in caplog.messages if "'Planet'" in message and "no body" in message]
    assert body_of(joint.omi_physics.joint.connected_object) == planet
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(joint)
    stand_in = rebuilt.rigid_body_constraint.object2
    assert stand_in is not None and stand_in.get("omi_owner") == planet


def test_a_joint_connected_to_a_body_itself_gets_an_anchor_in_the_new_body(clean_scene):
    link, joint, made = hinge()
    frame = bpy.data.objects["Frame"]
    joint.omi_physics.joint.connected_object = frame  # the body itself, not a frame of its own
    other = post()
    link.flush(bpy.context.scene)
    [made] = joint_constraints(joint)
    made.rigid_body_constraint.object2 = other
    bpy.context.view_layer.update()
    anchor = joint.omi_physics.joint.connected_object
    assert anchor.parent == other and anchor.type == 'EMPTY' and frame.parent is None  # the body stays put
    assert tuple(anchor.matrix_world.translation) == pytest.approx(tuple(frame.matrix_world.translation), abs=1e-6)
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(joint)
    assert rebuilt.rigid_body_constraint.object2 == other


def test_object_1_of_a_joint_on_a_body_itself_moves_its_settings_onto_an_empty_in_the_new_body(clean_scene):
    link, joint, _made = hinge()
    joint.omi_physics.use_joint = False
    door, frame = bpy.data.objects["Door"], bpy.data.objects["Frame"]
    door.omi_physics.use_joint = True  # a ball joint on the door's own frame, as Make Ragdoll puts a part's
    door.omi_physics.joint.connected_object = frame
    door.omi_physics.joint.limits.add()  # linear X, Y and Z held at 0
    other = post()
    link.flush(bpy.context.scene)
    [made] = joint_constraints(door)  # one: the door is both a changed body and the one above its own joint
    made.rigid_body_constraint.object1 = other
    bpy.context.view_layer.update()
    [held] = [obj for obj in bpy.data.objects if obj.omi_physics.use_joint]
    assert held.parent == other and held.type == 'EMPTY' and not door.omi_physics.use_joint
    assert held.omi_physics.joint.connected_object == frame and len(held.omi_physics.joint.limits) == 1
    assert tuple(held.matrix_world.translation) == pytest.approx((1.0, 0.0, 1.0), abs=1e-6)  # the door's frame
    link.flush(bpy.context.scene)
    assert not joint_constraints(door)
    [rebuilt] = joint_constraints(held)
    assert (rebuilt.rigid_body_constraint.object1, rebuilt.rigid_body_constraint.object2) == (other, frame)


def test_both_ends_set_at_once_by_a_script_move_both_frames(clean_scene):
    link, joint, made = hinge()
    door, frame = bpy.data.objects["Door"], bpy.data.objects["Frame"]
    door.omi_physics.use_joint = True  # the joint on the door itself: Object 1 moves its settings
    door.omi_physics.joint.connected_object = frame
    door.omi_physics.joint.limits.add()
    joint.omi_physics.use_joint = False
    first, second = post("First", (0.0, 2.0, 1.0)), post("Second", (0.0, -2.0, 1.0))
    link.flush(bpy.context.scene)
    [made] = joint_constraints(door)
    made.rigid_body_constraint.object1, made.rigid_body_constraint.object2 = first, second
    bpy.context.view_layer.update()
    [held] = [obj for obj in bpy.data.objects if obj.omi_physics.use_joint]
    assert held.parent == first and body_of(held.omi_physics.joint.connected_object) == second
    link.flush(bpy.context.scene)
    [rebuilt] = joint_constraints(held)
    assert (rebuilt.rigid_body_constraint.object1, rebuilt.rigid_body_constraint.object2) == (first, second)


def test_a_body_edit_after_save_and_reopen_is_taken_too(clean_scene, tmp_path):
    link, _joint, _made = hinge()
    post()
    link.flush(bpy.context.scene)
    path = str(tmp_path / "door.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    bpy.ops.wm.open_mainfile(filepath=path)  # the build records' body references come back with the file
    joint, other = bpy.data.objects["Door.joint"], bpy.data.objects["Post"]
    joint_constraints(joint)[0].rigid_body_constraint.object2 = other
    bpy.context.view_layer.update()
    assert body_of(joint.omi_physics.joint.connected_object) == other


def test_a_joint_frame_moved_into_another_body_rebuilds_the_joint_to_join_it(clean_scene):
    link, joint, _made = hinge()
    first, second = post("First", (0.0, 2.0, 1.0)), post("Second", (0.0, -2.0, 1.0))
    link.flush(bpy.context.scene)
    for frame, body in ((joint, first), (joint.omi_physics.joint.connected_object, second)):
        world = frame.matrix_world.copy()
        frame.parent = body  # dragged onto another body in the Outliner
        frame.matrix_world = world
        bpy.context.view_layer.update()
        link.flush(bpy.context.scene)
        [made] = joint_constraints(joint)
        assert body in (made.rigid_body_constraint.object1, made.rigid_body_constraint.object2)
    assert (made.rigid_body_constraint.object1, made.rigid_body_constraint.object2) == (first, second)
