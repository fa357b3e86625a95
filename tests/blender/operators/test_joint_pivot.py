"""The joint pivot gizmo and its operator (issue 26 item 9): the artist drags a joint's pivot in the viewport;
the joint and the frame it connects to move together, the bodies stay, one undo step puts it back."""

from __future__ import annotations

import types

import bpy
import pytest
from export_support import select
from mathutils import Vector


def body(name, motion_type, location):
    bpy.ops.mesh.primitive_cube_add(location=location)
    obj = bpy.context.active_object
    obj.name = name
    bpy.ops.omi.make_body(motion_type=motion_type)
    return obj


@pytest.fixture
def door(clean_scene, omi_addon):
    """A door hinged to a post: the joint under the door, its anchor under the post, both at one point."""
    post = body("Post", 'STATIC', (0.0, 0.0, 1.0))
    door = body("Door", 'DYNAMIC', (0.0, 2.5, 1.0))
    select(post, door, active=door)
    assert bpy.ops.omi.create_joint(preset='HINGE', axis='Z') == {'FINISHED'}
    joint = bpy.data.objects["Door.joint"]
    select(joint)
    bpy.context.view_layer.update()
    return types.SimpleNamespace(post=post, door=door, joint=joint, anchor=joint.omi_physics.joint.connected_object)


def world(name):
    return bpy.data.objects[name].matrix_world.translation.copy()


def test_the_gizmo_group_is_registered_and_shows_on_a_selected_joint_only(omi, door):
    gizmo = omi("viewport.joint_gizmo")
    group = bpy.types.GizmoGroup.bl_rna_get_subclass_py("VIEW3D_GGT_omi_joint_pivot")  # what Blender registered
    assert group is gizmo.VIEW3D_GGT_omi_joint_pivot and group.bl_space_type == 'VIEW_3D'
    assert group.poll(bpy.context)
    door.joint.select_set(False)  # active but not selected: no gizmo
    assert not group.poll(bpy.context)
    select(door.door)  # a body: no gizmo
    assert not group.poll(bpy.context)
    select(door.joint)
    door.joint.omi_physics.joint.connected_object = None  # nothing to move with it
    assert not group.poll(bpy.context)


def test_the_ring_follows_the_joint_and_runs_the_pivot_operator(omi, door):
    """setup and draw_prepare on a stand-in for the group (background Blender has no region to make gizmos
    in): the ring is Blender's move gizmo, pressed it runs the operator, drawn where the joint is."""
    gizmo = omi("viewport.joint_gizmo")
    made = []

    class Ring(types.SimpleNamespace):
        def target_set_operator(self, name):
            self.operator = name

    def new(kind):
        made.append(Ring(kind=kind))
        return made[-1]

    group = types.SimpleNamespace(gizmos=types.SimpleNamespace(new=new))
    gizmo.VIEW3D_GGT_omi_joint_pivot.setup(group, bpy.context)
    assert made[0].kind == "GIZMO_GT_move_3d" and made[0].operator == "omi.joint_move_pivot"
    assert hasattr(bpy.ops.omi, "joint_move_pivot") and bpy.ops.omi.joint_move_pivot.poll()
    door.joint.location.z += 0.5
    bpy.context.view_layer.update()
    gizmo.VIEW3D_GGT_omi_joint_pivot.draw_prepare(group, bpy.context)
    assert (made[0].matrix_basis.translation - door.joint.matrix_world.translation).length < 1e-6


def test_moving_the_pivot_moves_joint_and_anchor_together_and_undoes_in_one_step(door):
    bodies = {name: world(name) for name in ("Post", "Door")}
    joint, anchor = door.joint.name, door.anchor.name
    start = world(joint)
    assert (world(anchor) - start).length < 1e-5
    bpy.ops.ed.undo_push(message="before the move")
    offset = Vector((0.0, -0.4, 0.3))
    # 'EXEC_DEFAULT', True: push an undo step as Blender does for an operator run from the UI (the gizmo)
    assert bpy.ops.omi.joint_move_pivot('EXEC_DEFAULT', True, offset=offset) == {'FINISHED'}
    bpy.context.view_layer.update()
    assert (world(joint) - (start + offset)).length < 1e-5
    assert (world(anchor) - (start + offset)).length < 1e-5  # the frames still coincide: nothing pre-stretched
    assert all((world(name) - where).length < 1e-6 for name, where in bodies.items())  # the bodies stay
    assert bpy.ops.ed.undo() == {'FINISHED'}
    bpy.context.view_layer.update()
    assert (world(joint) - start).length < 1e-5 and (world(anchor) - start).length < 1e-5


def test_a_joint_connected_to_a_body_gets_an_anchor_rather_than_moving_the_body(door):
    """An imported joint often connects to the other body's own node: the pivot moves an anchor made under
    it at its frame, never the body."""
    door.joint.omi_physics.joint.connected_object = door.post
    bpy.data.objects.remove(door.anchor)
    post_at = world("Post")
    assert bpy.ops.omi.joint_move_pivot(offset=(0.0, 0.0, 0.5)) == {'FINISHED'}
    bpy.context.view_layer.update()
    anchor = door.joint.omi_physics.joint.connected_object
    assert anchor is not door.post and anchor.parent == door.post and anchor.type == 'EMPTY'
    assert (world("Post") - post_at).length < 1e-6
    assert (anchor.matrix_world.translation - (post_at + Vector((0.0, 0.0, 0.5)))).length < 1e-5


def test_a_drag_keeps_an_axis_and_snaps_to_the_grid(omi):
    constrained = omi("operators.joint_pivot").constrained
    assert tuple(constrained(Vector((0.31, 0.2, -0.04)), 'X', False)) == pytest.approx((0.31, 0.0, 0.0))
    assert tuple(constrained(Vector((0.31, 0.26, -0.04)), '', True)) == pytest.approx((0.3, 0.3, 0.0))


def test_the_operator_refuses_a_joint_on_a_body(door):
    select(door.door)
    door.door.omi_physics.use_joint = True
    door.door.omi_physics.joint.connected_object = door.post
    assert not bpy.ops.omi.joint_move_pivot.poll()
