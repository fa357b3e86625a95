"""Keyframed Blender rigid bodies and constraints (no OMI settings) export as pointer channels whose values
are what the still export writes at each keyed frame (Bullet's signs and axes included)."""

from __future__ import annotations

import math

import bpy
import pytest
from animation_support import named_channels, set_interpolation
from export_support import BODY, JOINT, SHAPE, add_constraint, add_rigid_body, export, mesh_object

pytestmark = pytest.mark.usefixtures("omi_addon")


def keyed_blender_scene() -> None:
    door = mesh_object("Door", location=(0, 0, 1))
    add_rigid_body(door, 'ACTIVE')
    post = mesh_object("Post", location=(0, 1.5, 1))
    add_rigid_body(post, 'PASSIVE')
    motor = add_constraint("Motor", 'MOTOR', door, post, location=(0, 0.5, 1), rotation=(0.3, 0.0, 0.0),
                           use_motor_ang=True, motor_ang_max_impulse=5.0)
    spring = add_constraint("Spring", 'GENERIC_SPRING', door, post, location=(0, 0.5, 1), use_spring_z=True)
    for frame, (friction, restitution, mass, velocity, stiffness) in ((1, (0.5, 0.1, 1.0, 0.0, 10.0)),
                                                                       (11, (0.1, 0.6, 3.0, 2.0, 40.0))):
        body = door.rigid_body
        body.friction, body.restitution, body.mass = friction, restitution, mass
        for name in ("friction", "restitution", "mass"):
            door.keyframe_insert(f"rigid_body.{name}", frame=frame)
        motor.rigid_body_constraint.motor_ang_target_velocity = velocity
        motor.keyframe_insert("rigid_body_constraint.motor_ang_target_velocity", frame=frame)
        spring.rigid_body_constraint.spring_stiffness_z = stiffness
        spring.keyframe_insert("rigid_body_constraint.spring_stiffness_z", frame=frame)


def still_value(gltf: dict, key: tuple):
    """The still export's value for a named channel key (what it concerns, by node names), or None when the
    value is left out as the spec default."""
    owner, names, path = key
    if owner == "node":
        [index] = [i for i, node in enumerate(gltf["nodes"]) if node["name"] == names]
        current = gltf["nodes"][index]["extensions"]
    else:
        [index] = [i for i, node in enumerate(gltf["nodes"]) if node["name"] == names[0]]
        extensions = gltf["nodes"][index]["extensions"]
        if owner == "physicsJoints":
            item = extensions[JOINT]["joint"]
        else:
            collider = extensions[BODY]["collider"]
            item = collider["shape" if owner == "shapes" else "physicsMaterial"]
        home = {"shapes": SHAPE, "physicsMaterials": BODY, "physicsJoints": JOINT}[owner]
        current = gltf["extensions"][home][owner][item]
    for token in path.split("/"):
        if isinstance(current, list):
            current = current[int(token)]
        elif token in current:
            current = current[token]
        else:
            return None
    return current


def test_keyed_blender_settings_export_as_the_still_export_writes_them(clean_scene, tmp_path):
    keyed_blender_scene()
    set_interpolation('LINEAR')
    animated = export(tmp_path, "animated")
    found = named_channels(animated)
    keys = [key[2].rsplit("/", 1)[-1] for key in found]
    for wanted in ("dynamicFriction", "restitution", "mass", "velocityTarget", "stiffness"):
        assert wanted in keys, sorted(found)
    fps = bpy.context.scene.render.fps * bpy.context.scene.render.fps_base
    compared = 0
    for position, frame in enumerate((1, 11)):
        bpy.context.scene.frame_set(frame)
        still = export(tmp_path, f"still{frame}", export_current_frame=True)
        for key, channel in found.items():
            assert math.isclose(channel["times"][position], frame / fps, rel_tol=1e-6)
            value = still_value(still.gltf, key)
            if value is not None:
                assert channel["values"][position] == pytest.approx(value, abs=1e-5), (key, frame)
                compared += 1
    assert compared >= len(found)


def test_keys_no_pointer_follows_are_named(clean_scene, tmp_path):
    keyed_blender_scene()
    door = bpy.data.objects["Door"]
    door.keyframe_insert("rigid_body.kinematic", frame=1)  # the Animated toggle: OMI's motion type, no pointer
    door.keyframe_insert("rigid_body.linear_damping", frame=1)  # no OMI value at all
    result = export(tmp_path)
    assert result.warnings("'Door'", "rigid_body.kinematic", "not exported")
    assert result.warnings("'Door'", "rigid_body.linear_damping", "not exported")
    assert not result.warnings("rigid_body.friction", "not exported")
