"""Edits in Blender's Rigid Body Constraint panel come back into the joint's settings where the build's mapping
runs backwards unambiguously (`io/blender/builder/joint_readback.py`): limits the build shifted because the
connected body starts off the joint's frame get the shift back, and a joint built as its limits' constraint plus
a motor takes the motor's velocity and force back into its drive."""

from __future__ import annotations

import bpy
import pytest
from live_hinge import live_hinge

pytestmark = pytest.mark.usefixtures("omi_addon")


def hinge(axis='Z', door="Door"):
    return live_hinge(door, axis)


def made_for(joint) -> dict[str, bpy.types.RigidBodyConstraint]:
    return {obj.rigid_body_constraint.type: obj.rigid_body_constraint for obj in bpy.data.objects
            if obj.get("omi_owner") == joint and obj.rigid_body_constraint is not None}


def limits(joint) -> list[tuple]:
    """The joint's limits as (kind, axes, min, max), rounded."""
    found = []
    for limit in joint.omi_physics.joint.limits:
        axes = "".join(name for name in "xyz" if getattr(limit, f"axis_{name}"))
        low, high = (limit.min_angular, limit.max_angular) if limit.kind == 'ANGULAR' \
            else (limit.min_linear, limit.max_linear)
        found.append((limit.kind, axes, round(low, 4), round(high, 4)))
    return sorted(found)


def edited(link, caplog) -> None:
    """Blender evaluates the edit (the live link's handler reads it), then the link builds what changed."""
    bpy.context.view_layer.update()
    link.flush(bpy.context.scene)
    assert not [message for message in caplog.messages if "not taken back" in message]


def test_limits_shifted_by_the_connected_bodys_start_come_back_unshifted(clean_scene, caplog):
    link, joint = hinge()
    settings = joint.omi_physics.joint
    settings.connected_object.location.z += 0.2  # starts 0.2 m up the hinge's axis
    settings.limits[0].min_linear = settings.limits[0].min_linear  # an edit of the joint: built again
    link.flush(bpy.context.scene)
    piston = made_for(joint)['PISTON']  # the hinge axis, and along it the 0.2 m the limits now hold
    assert (piston.limit_lin_x_lower, piston.limit_lin_x_upper) == pytest.approx((-0.2, -0.2), abs=1e-6)
    assert (piston.limit_ang_x_lower, piston.limit_ang_x_upper) == pytest.approx((-1.0, 1.0), abs=1e-6)

    piston.limit_ang_x_upper = 1.25  # the Rigid Body Constraint panel
    edited(link, caplog)
    assert limits(joint) == [('ANGULAR', 'xy', 0.0, 0.0), ('ANGULAR', 'z', -1.0, 1.25), ('LINEAR', 'xyz', 0.0, 0.0)]
    assert made_for(joint)['PISTON'].limit_ang_x_upper == pytest.approx(1.25)  # kept, not rebuilt from before

    made_for(joint)['PISTON'].limit_lin_x_upper = 0.3  # slides 0.5 m up the axis from the joint's frame
    edited(link, caplog)
    assert limits(joint) == [('ANGULAR', 'xy', 0.0, 0.0), ('ANGULAR', 'z', -1.0, 1.25), ('LINEAR', 'xy', 0.0, 0.0),
                             ('LINEAR', 'z', 0.0, 0.5)]
    piston = made_for(joint)['PISTON']
    assert (piston.limit_lin_x_lower, piston.limit_lin_x_upper) == pytest.approx((-0.2, 0.3), abs=1e-6)


def test_a_motor_edit_comes_back_into_the_joint_drive(clean_scene, caplog):
    link, joint = hinge()
    drive = joint.omi_physics.joint.drives.add()
    drive.drive_type, drive.axis = 'ANGULAR', 'Z'
    drive.use_velocity_target, drive.velocity_target = True, 2.0
    drive.use_max_force, drive.max_force = True, 5.0
    drive.damping = 1000.0  # at least a Blender motor's (max force / its speed tolerance)
    link.flush(bpy.context.scene)
    made = made_for(joint)
    assert sorted(made) == ['HINGE', 'MOTOR']  # the limits' constraint, and a motor on the hinge's axis
    motor = made['MOTOR']
    assert motor.use_motor_ang and motor.motor_ang_max_impulse == pytest.approx(5.0)
    sign = motor.motor_ang_target_velocity / 2.0  # Bullet's sign for a motor (tables.bullet)

    motor.motor_ang_target_velocity = 3.0 * sign
    edited(link, caplog)
    drive = joint.omi_physics.joint.drives[0]
    assert drive.velocity_target == pytest.approx(3.0)
    assert (drive.damping, drive.max_force, drive.mode) == (1000.0, 5.0, 'FORCE')  # what Blender holds not: kept

    made_for(joint)['MOTOR'].motor_ang_max_impulse = 8.0
    edited(link, caplog)
    drive = joint.omi_physics.joint.drives[0]
    assert (drive.velocity_target, drive.max_force) == pytest.approx((3.0, 8.0))
    assert limits(joint) == [('ANGULAR', 'xy', 0.0, 0.0), ('ANGULAR', 'z', -1.0, 1.0), ('LINEAR', 'xyz', 0.0, 0.0)]
    assert made_for(joint)['MOTOR'].motor_ang_target_velocity == pytest.approx(3.0 * sign)


@pytest.mark.parametrize("axis", ['X', 'Y'])
def test_a_hinge_turned_onto_its_axis_reads_back(clean_scene, caplog, axis):
    """Blender's hinge turns about its own Z: the build turns it onto the joint's axis, and an edit of its range
    comes back about that axis; a rebuild from the settings then gives the edited constraint again."""
    link, joint = hinge(axis)
    made_for(joint)['HINGE'].limit_ang_z_upper = 0.5
    made_for(joint)['HINGE'].limit_ang_z_lower = -0.25
    edited(link, caplog)
    ranged = [limit for limit in limits(joint) if limit[2:] != (0.0, 0.0)]
    assert len(ranged) == 1 and ranged[0][:2] == ('ANGULAR', axis.lower())
    assert sorted(map(abs, ranged[0][2:])) == [0.25, 0.5]
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}  # made again from the settings
    rebuilt = made_for(joint)['HINGE']
    assert (rebuilt.limit_ang_z_lower, rebuilt.limit_ang_z_upper) == pytest.approx((-0.25, 0.5), abs=1e-6)


def test_a_constraint_switched_off_in_blender_is_named_and_made_again(clean_scene, caplog):
    """The settings have no off switch for a joint: reading one back would drop it silently."""
    link, joint = hinge(door="Gate")
    made_for(joint)['HINGE'].enabled = False
    bpy.context.view_layer.update()
    link.flush(bpy.context.scene)
    assert [message for message in caplog.messages if "disabled" in message]
    assert [message for message in caplog.messages if "not taken back" in message]
    assert made_for(joint)['HINGE'].enabled


def test_a_spring_edit_comes_back_into_the_joint_drive(clean_scene, caplog):
    """A position drive is a spring of Blender's generic spring constraint, which also holds the limits (here
    shifted: the connected body starts 0.2 m up the hinge's axis)."""
    link, joint = hinge(door="Flap")
    joint.omi_physics.joint.connected_object.location.z += 0.2
    drive = joint.omi_physics.joint.drives.add()
    drive.drive_type, drive.axis = 'ANGULAR', 'Z'
    drive.use_position_target, drive.stiffness, drive.damping = True, 10.0, 0.5
    link.flush(bpy.context.scene)
    spring = made_for(joint)['GENERIC_SPRING']
    assert spring.use_spring_ang_z and spring.spring_stiffness_ang_z == pytest.approx(10.0)
    assert (spring.limit_lin_z_lower, spring.limit_lin_z_upper) == pytest.approx((-0.2, -0.2), abs=1e-6)

    spring.spring_stiffness_ang_z, spring.spring_damping_ang_z = 25.0, 0.75
    edited(link, caplog)
    drive = joint.omi_physics.joint.drives[0]
    assert (drive.stiffness, drive.damping, drive.position_target_angular) == pytest.approx((25.0, 0.75, 0.0))
    assert drive.use_position_target and not drive.use_velocity_target
    assert limits(joint) == [('ANGULAR', 'xy', 0.0, 0.0), ('ANGULAR', 'z', -1.0, 1.0), ('LINEAR', 'xyz', 0.0, 0.0)]
    assert made_for(joint)['GENERIC_SPRING'].spring_stiffness_ang_z == pytest.approx(25.0)


def test_a_range_shifted_by_the_connected_bodys_starting_turn_comes_back(clean_scene, caplog):
    """Blender measures a hinge's angle from the starting pose: a connected body starting turned 0.3 rad about the
    hinge's axis shifts the range Blender holds by as much, and an edit there comes back without it."""
    link, joint = hinge(door="Hatch")
    joint.omi_physics.joint.connected_object.rotation_euler.z += 0.3
    joint.omi_physics.joint.limits[0].min_linear = 0.0  # an edit of the joint: built again
    link.flush(bpy.context.scene)
    made = made_for(joint)['HINGE']
    low, high = made.limit_ang_z_lower, made.limit_ang_z_upper
    assert sorted((abs(low), abs(high))) == pytest.approx([0.7, 1.3], abs=1e-5)  # -1..1 shifted by 0.3

    made.limit_ang_z_upper = high + 0.25
    edited(link, caplog)
    ranged = [limit for limit in limits(joint) if limit[2:] != (0.0, 0.0)]
    assert ranged in ([('ANGULAR', 'z', -1.0, 1.25)], [('ANGULAR', 'z', -1.25, 1.0)])
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}  # made again from the settings
    rebuilt = made_for(joint)['HINGE']
    assert (rebuilt.limit_ang_z_lower, rebuilt.limit_ang_z_upper) == pytest.approx((low, high + 0.25), abs=1e-5)
