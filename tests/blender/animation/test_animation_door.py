"""A door opened by an animated motor: authored in Blender with the OMI settings, exported, imported into a
fresh scene and simulated by Blender; the door's angle follows the keyed target velocity."""

from __future__ import annotations

import math

import addon_loader
import bpy
import omi_core.dialects.pointers
import pytest
from export_support import empty, export, mesh_object, tag_motion, tag_shape
from import_support import import_gltf

pytestmark = pytest.mark.usefixtures("omi_addon")
KEYS = ((1, 0.0), (20, 1.5), (60, 0.0))  # (frame, target velocity in rad/s), held until the next key
MAX_FORCE = 200.0


def door_scene() -> bpy.types.Object:
    bpy.context.scene.use_gravity = False
    door = mesh_object("Door", location=(0.5, 0.0, 1.0))
    tag_motion(door, 'DYNAMIC', mass=2.0)
    tag_shape(door, "collider", 'BOX', size=(1.0, 0.1, 2.0))
    post = mesh_object("Post", location=(-0.6, 0.0, 1.0))
    tag_shape(post, "collider", 'BOX', size=(0.1, 0.1, 2.0))
    hinge = empty("Hinge", location=(-0.5, 0.0, 0.0), parent=door)
    settings = hinge.omi_physics
    settings.use_joint = True
    joint = settings.joint
    joint.connected_object = post
    fixed = joint.limits.add()
    fixed.kind, fixed.axis_x, fixed.axis_y, fixed.axis_z = 'LINEAR', True, True, True
    turned = joint.limits.add()
    turned.kind, turned.axis_x, turned.axis_y, turned.axis_z = 'ANGULAR', True, True, False
    drive = joint.drives.add()
    drive.drive_type, drive.axis = 'ANGULAR', 'Z'
    drive.use_max_force, drive.max_force = True, MAX_FORCE
    drive.damping = addon_loader.module("io.blender.tables.bullet").motor_damping(MAX_FORCE)
    drive.use_velocity_target = True
    for frame, velocity in KEYS:
        drive.velocity_target = velocity
        hinge.keyframe_insert("omi_physics.joint.drives[0].velocity_target", frame=frame)
    for curve in addon_loader.module("io.blender.animation.curves").fcurves(hinge):
        for point in curve.keyframe_points:
            point.interpolation = 'CONSTANT'
    return hinge


def expected_angle(frame: float, fps: float) -> float:
    """The turn a motor reaching its keyed velocity at once gives: the integral of the held velocities."""
    angle = 0.0
    for (start, velocity), (end, _next) in zip(KEYS, (*KEYS[1:], (math.inf, 0.0)), strict=True):
        angle += velocity * max(0.0, min(frame, end) - start) / fps
    return angle


def test_door_follows_its_animated_motor_after_export_and_import(clean_scene, tmp_path, omi):
    door_scene()
    result = export(tmp_path, fmt="GLB")
    assert omi_core.dialects.pointers.check_animation(result.gltf) == []
    [pointer] = [channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
                 for animation in result.gltf["animations"] for channel in animation["channels"]]
    assert pointer.endswith("/drives/0/velocityTarget")

    imported = import_gltf(result.path)
    assert imported.result == {'FINISHED'}
    scene = bpy.context.scene
    scene.use_gravity = False
    door = imported.obj("Door")
    motors = [obj for obj in scene.objects if obj.rigid_body_constraint is not None
              and obj.rigid_body_constraint.type == 'MOTOR']
    assert len(motors) == 1
    curves = addon_loader.module("io.blender.animation.curves").fcurves(motors[0])
    assert [curve.data_path for curve in curves] == ["rigid_body_constraint.motor_ang_target_velocity"]

    fps = scene.render.fps / scene.render.fps_base
    scene.frame_start, scene.frame_end = 1, 90
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 1, 90
    start = door.matrix_world.to_quaternion()
    measured = {}
    for frame in range(1, 91):
        scene.frame_set(frame)
        measured[frame] = start.rotation_difference(door.matrix_world.to_quaternion()).angle
    for frame in (15, 30, 45, 60, 75, 90):
        assert measured[frame] == pytest.approx(expected_angle(frame, fps), abs=0.12), (frame, measured)
    assert measured[90] == pytest.approx(measured[65], abs=0.05)  # the motor stopped: the door stays
