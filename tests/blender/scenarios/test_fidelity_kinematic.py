"""A kinematic body moves at its file's constant velocity in Blender (KHR: "its velocity will be constant
during simulation"): the import drives the object's delta transforms with the frame, Bullet follows the
object, a box resting on the moving platform is carried along, and Clear / a rebuild take the drivers back.
"""

from __future__ import annotations

import math

import addon_loader
import export_support
import import_support as support
import pytest
from mathutils import Quaternion, Vector

pytestmark = pytest.mark.usefixtures("omi_addon")

KHR_BODY = "KHR_physics_rigid_bodies"
KHR_SHAPES = "KHR_implicit_shapes"
FPS = 24


def khr_file(tmp_path, motion: dict, *, rotation: list[float] | None = None, rider: bool = False):
    shapes = [{"type": "box", "box": {"size": [4.0, 0.2, 4.0]}}, {"type": "box", "box": {"size": [0.5, 0.5, 0.5]}}]
    lift: dict = {"name": "Lift", "translation": [0.0, 1.0, 0.0],
                  "extensions": {KHR_BODY: {"motion": {"isKinematic": True, **motion},
                                            "collider": {"geometry": {"shape": 0}}}}}
    if rotation is not None:
        lift["rotation"] = rotation
    nodes = [lift]
    if rider:
        nodes.append({"name": "Rider", "translation": [0.0, 1.36, 0.0],
                      "extensions": {KHR_BODY: {"motion": {}, "collider": {"geometry": {"shape": 1}}}}})
    doc = {"asset": {"version": "2.0"}, "extensionsUsed": [KHR_BODY, KHR_SHAPES],
           "extensions": {KHR_SHAPES: {"shapes": shapes}},
           "nodes": nodes, "scenes": [{"nodes": list(range(len(nodes)))}], "scene": 0}
    return support.import_gltf(support.write_gltf(tmp_path, "kinematic", doc))


def step_to(frame: int) -> None:
    scene = support.bpy.context.scene
    scene.frame_end = max(scene.frame_end, frame)
    scene.rigidbody_world.point_cache.frame_end = max(scene.rigidbody_world.point_cache.frame_end, frame)
    for each in range(scene.frame_start, frame + 1):  # the simulation needs every frame in turn
        scene.frame_set(each)


def test_a_kinematic_lift_moves_and_turns_at_its_velocity_every_frame(tmp_path):
    """Up at 0.5 m/s and turning 1 rad/s about the vertical, in the node's space of a node turned 90 degrees
    about the vertical: the velocity along the node's X is world -Z in glTF (Blender +Y). Exact at each frame."""
    quarter = [0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)]
    imported = khr_file(tmp_path, {"linearVelocity": [1.0, 0.5, 0.0], "angularVelocity": [0.0, 1.0, 0.0]},
                        rotation=quarter)
    lift = imported.obj("Lift")
    start = lift.matrix_world.copy()
    assert any("constant velocity" in note and "'Lift'" in note for note in imported.notes), imported.notes
    velocity = Vector((0.0, 1.0, 0.5))  # Blender axes: node X (turned to world -Z in glTF: Blender +Y), up 0.5
    for frame in (1, 12, 24, 48):
        step_to(frame)
        seconds = (frame - 1) / FPS
        moved = lift.matrix_world.translation - start.translation
        assert (moved - velocity * seconds).length < 1e-5, frame
        turned = start.to_quaternion().rotation_difference(lift.matrix_world.to_quaternion())
        expected = Quaternion((0.0, 0.0, 1.0), seconds)
        off = turned.rotation_difference(expected).angle
        assert min(off, 2 * math.pi - off) < 1e-4, frame  # q and -q are one rotation


def test_a_box_on_a_moving_lift_is_carried_up(tmp_path):
    """A dynamic box resting on a lift going up at 1 m/s is 1 m higher after a second (Bullet pushes it
    with the kinematic body it follows)."""
    imported = khr_file(tmp_path, {"linearVelocity": [0.0, 1.0, 0.0]}, rider=True)
    rider = imported.obj("Rider")
    start = rider.matrix_world.translation.z
    step_to(1 + FPS)
    assert rider.matrix_world.translation.z - start == pytest.approx(1.0, abs=0.05)


def build(objects) -> list:
    """Sync to Blender for these objects (the operator's build), returning what it reported."""
    issues: list = []
    scene = support.bpy.context.scene
    addon_loader.module("io.blender.builder.rigid_body").build_rigid_bodies(
        scene, objects, addon_loader.module("properties.convert_build").SettingsPhysics(scene, issues), issues)
    return issues


def test_an_euler_object_turns_about_its_own_axis_and_reports_an_axis_off_them(tmp_path):
    """Sync to Blender on an Euler-mode object: a spin about a world axis of an unturned object is exact;
    about a slanted axis it cannot be (a delta Euler turns about fixed axes only): not driven, and said."""
    imported = khr_file(tmp_path, {"angularVelocity": [0.0, 2.0, 0.0]})
    lift = imported.obj("Lift")
    lift.rotation_mode = 'XYZ'
    assert not any("rotation mode" in issue.message for issue in build([lift]))
    step_to(13)
    assert lift.matrix_world.to_euler().z == pytest.approx(2.0 * 12 / FPS, abs=1e-5)
    support.bpy.context.scene.frame_set(1)
    lift.omi_physics.motion.angular_velocity = (1.0, 0.0, 1.0)
    issues = build([lift])
    assert any("rotation mode" in issue.message and "'Lift'" in issue.message for issue in issues), issues
    assert not lift.animation_data or not lift.animation_data.drivers


def test_clear_and_rebuild_take_the_drivers_back(tmp_path):
    """A rebuild leaves one set of drivers; clearing the rigid bodies removes them and zeroes the deltas,
    so the lift stands where the file put it; the velocity stays in its settings."""
    imported = khr_file(tmp_path, {"linearVelocity": [1.0, 0.0, 0.0]})
    lift = imported.obj("Lift")
    build([lift])
    assert sorted(curve.array_index for curve in lift.animation_data.drivers) == [0, 1, 2]
    step_to(24)
    assert lift.delta_location.length > 0.9
    addon_loader.module("io.blender.builder.rigid_body").clear_rigid_bodies([lift])
    assert not lift.animation_data or not lift.animation_data.drivers
    assert lift.delta_location.length == 0.0
    assert tuple(lift.omi_physics.motion.linear_velocity) == pytest.approx((1.0, 0.0, 0.0))


def test_an_export_mid_play_writes_where_the_lift_starts(tmp_path):
    """Exported at frame 24 (the lift 1 m on): the file still puts the lift where it starts, with its
    velocity, and the drivers go on moving it afterwards."""
    imported = khr_file(tmp_path, {"linearVelocity": [1.0, 0.0, 0.0]})
    lift = imported.obj("Lift")
    step_to(24)
    moved = lift.delta_location.copy()
    exported = export_support.export(tmp_path, "mid_play")
    node = exported.node("Lift")
    assert node.get("translation", [0.0, 0.0, 0.0]) == pytest.approx([0.0, 1.0, 0.0], abs=1e-6)
    assert node["extensions"]["OMI_physics_body"]["motion"]["linearVelocity"] == pytest.approx([1.0, 0.0, 0.0])
    assert (lift.delta_location - moved).length < 1e-9
    support.bpy.context.scene.frame_set(25)
    assert lift.delta_location.x == pytest.approx(24 / FPS, abs=1e-6)
