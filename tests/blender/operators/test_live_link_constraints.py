"""The live link and Blender's Rigid Body Constraint panel: an edit of the constraint the build made for a
joint comes back into the joint's settings where the constraint reads back as them, and is named and
rebuilt from the settings where it does not."""

from __future__ import annotations

import addon_loader
import bpy
import pytest


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def select(*objects, active):
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in objects)
    bpy.context.view_layer.objects.active = active


def hinge(**options):
    """A dynamic door hinged to a static frame with Create Joint (at the frame's origin), built live."""
    bodies = []
    for name, location, motion in (("Door", (1.0, 0.0, 1.0), 'DYNAMIC'), ("Frame", (0.0, 0.0, 1.0), 'STATIC')):
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
        obj = bpy.context.active_object
        obj.name = name
        select(obj, active=obj)
        assert bpy.ops.omi.make_body(motion_type=motion) == {'FINISHED'}
        assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
        bodies.append(obj)
    door, frame = bodies
    select(door, frame, active=frame)
    assert bpy.ops.omi.create_joint(preset='HINGE', axis='Z', angle_min=-1.0, angle_max=1.0, location='ACTIVE',
                                    **options) == {'FINISHED'}
    link = addon_loader.module("operators.live_link")
    link.flush(bpy.context.scene)
    [joint] = [obj for obj in bpy.context.scene.objects if obj.omi_physics.use_joint]
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
