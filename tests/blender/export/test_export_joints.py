"""Export of joints: every Blender rigid body constraint type, joints from the OMI settings with a drive of
each kind, attachment frames that coincide in the exported pose, a Blender constraint's joint on the dynamic
side, and the signs checked against Blender's own simulation of the same constraints."""

from __future__ import annotations

import json
import math
from typing import Any

import bpy
import pytest
from export_support import (
    add_constraint,
    add_rigid_body,
    blender_world_to_gltf,
    close,
    empty,
    export,
    global_scale,
    matrices_close,
    mesh_object,
    tag_motion,
    tag_shape,
)
from mathutils import Matrix

pytestmark = pytest.mark.usefixtures("omi_addon")


def joint_nodes(result) -> list[int]:
    return [index for index, node in enumerate(result.nodes) if "OMI_physics_joint" in node.get("extensions", {})]


def settings_of(result, joint_index: int) -> dict:
    return result.root("OMI_physics_joint", "physicsJoints")[result.joint(joint_index)["joint"]]


def canonical(items: list[dict]) -> list[str]:
    return sorted(json.dumps(item, sort_keys=True) for item in items)


def body_ancestor(result, index: int) -> str:
    """Name of the nearest node at or above `index` with motion."""
    while index is not None:
        if "motion" in result.body(index):
            return result.nodes[index]["name"]
        index = result.parent(index)
    raise AssertionError("no body above the node")


def pivot_frame(obj: bpy.types.Object) -> Matrix:
    location, rotation, _scale = obj.matrix_world.decompose()
    return blender_world_to_gltf(Matrix.LocRotScale(location, rotation, None))


CONSTRAINTS: dict[str, Any] = {
    'FIXED': ({}, [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}], []),
    'POINT': ({}, [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}], []),
    'HINGE': ({"use_limit_ang_z": True, "limit_ang_z_lower": -0.5, "limit_ang_z_upper": 1.0},
              [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 2], "min": 0, "max": 0},
               {"angularAxes": [1], "min": -1, "max": 0.5}], []),  # Bullet's hinge angle counts the other way
    'SLIDER': ({"use_limit_lin_x": True, "limit_lin_x_lower": -0.25, "limit_lin_x_upper": 0.75},
               [{"linearAxes": [1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0},
                {"linearAxes": [0], "min": -0.25, "max": 0.75}], []),
    'PISTON': ({"use_limit_lin_x": True, "limit_lin_x_lower": -0.25, "limit_lin_x_upper": 0.75,
                "use_limit_ang_x": True, "limit_ang_x_lower": -0.25, "limit_ang_x_upper": 0.5},
               [{"linearAxes": [1, 2], "min": 0, "max": 0}, {"angularAxes": [1, 2], "min": 0, "max": 0},
                {"linearAxes": [0], "min": -0.25, "max": 0.75}, {"angularAxes": [0], "min": -0.25, "max": 0.5}], []),
    'GENERIC': ({"use_limit_lin_y": True, "limit_lin_y_lower": -1.0, "limit_lin_y_upper": 2.0,
                 "use_limit_ang_y": True, "limit_ang_y_lower": -0.125, "limit_ang_y_upper": 0.25,
                 "use_limit_ang_z": True, "limit_ang_z_lower": 0.0, "limit_ang_z_upper": 0.0,
                 "use_limit_lin_z": True, "limit_lin_z_lower": 0.0, "limit_lin_z_upper": 0.0},
                # Blender Y is glTF -Z (axis 2, flipped); Blender Z is glTF Y (axis 1); 6-DOF angles count
                # the other way, so the angular Y range flips twice
                [{"linearAxes": [1], "min": 0, "max": 0}, {"angularAxes": [1], "min": 0, "max": 0},
                 {"linearAxes": [2], "min": -2, "max": 1}, {"angularAxes": [2], "min": -0.125, "max": 0.25}], []),
    'GENERIC_SPRING': ({"spring_type": 'SPRING2', "use_spring_x": True, "spring_stiffness_x": 50.0,
                        "spring_damping_x": 2.0, "use_spring_ang_z": True, "spring_stiffness_ang_z": 5.0,
                        "spring_damping_ang_z": 0.5},
                       [], [{"type": "linear", "mode": "force", "axis": 0, "positionTarget": 0, "stiffness": 50,
                             "damping": 2},
                            {"type": "angular", "mode": "force", "axis": 1, "positionTarget": 0, "stiffness": 5,
                             "damping": 0.5}]),
    'MOTOR': ({"use_motor_ang": True, "motor_ang_target_velocity": 2.0, "motor_ang_max_impulse": 30.0,
               "use_motor_lin": True, "motor_lin_target_velocity": 0.5, "motor_lin_max_impulse": 10.0},
              [], [{"type": "linear", "mode": "force", "axis": 0, "maxForce": 10, "velocityTarget": -0.5,
                    "damping": 1000},
                   {"type": "angular", "mode": "force", "axis": 0, "maxForce": 30, "velocityTarget": -2,
                    "damping": 3000}]),  # a Blender motor drives object1 relative to object2
}


@pytest.mark.parametrize("kind", list(CONSTRAINTS))
def test_every_blender_constraint_type(clean_scene, tmp_path, kind):
    values, limits, drives = CONSTRAINTS[kind]
    wheel = mesh_object("Wheel", "cube", location=(0, 0, 2), rotation=(0.1, 0.2, 0.3))
    add_rigid_body(wheel, 'ACTIVE', 'BOX')
    frame = mesh_object("Frame", "cube", location=(2, 1, 0))
    add_rigid_body(frame, 'PASSIVE', 'BOX')
    pivot = add_constraint("Axle", kind, wheel, frame, location=(1, 0.5, 1), rotation=(0.4, -0.2, 0.7),
                           disable_collisions=False, **values)
    bpy.context.view_layer.update()
    result = export(tmp_path)

    [joint_index] = joint_nodes(result)
    settings = settings_of(result, joint_index)
    assert canonical(settings.get("limits", [])) == canonical(limits)
    assert canonical(settings.get("drives", [])) == canonical(drives)
    joint = result.joint(joint_index)
    assert joint.get("enableCollision") is True
    assert body_ancestor(result, joint_index) == "Wheel"  # object1 is the dynamic one: the joint stays there
    assert body_ancestor(result, joint["connectedNode"]) == "Frame"
    for index in (joint_index, joint["connectedNode"]):
        assert matrices_close(result.world(index), pivot_frame(pivot), 1e-4)
    assert "OMI_physics_joint" not in result.node("Axle").get("extensions", {})


def test_spring_of_the_older_blender_type_is_exported_undamped(clean_scene, tmp_path):
    first = mesh_object("First", "cube")
    add_rigid_body(first, 'ACTIVE', 'BOX')
    second = mesh_object("Second", "cube", location=(2, 0, 0))
    add_rigid_body(second, 'ACTIVE', 'BOX')
    add_constraint("Spring", 'GENERIC_SPRING', first, second, spring_type='SPRING1', use_spring_z=True,
                   spring_stiffness_z=10.0, spring_damping_z=0.5)
    result = export(tmp_path)
    [drive] = settings_of(result, joint_nodes(result)[0])["drives"]
    assert drive == {"type": "linear", "mode": "force", "axis": 1, "positionTarget": 0, "stiffness": 10}
    assert result.warnings("'Spring'", "2.7")


def test_joint_goes_under_the_dynamic_body_and_is_seen_from_there(clean_scene, tmp_path):
    wall = mesh_object("Wall", "cube")
    add_rigid_body(wall, 'PASSIVE', 'BOX')
    door = mesh_object("Door", "cube", location=(1, 0, 0))
    add_rigid_body(door, 'ACTIVE', 'BOX')
    add_constraint("Rail", 'SLIDER', wall, door, location=(0.5, 0, 0), use_limit_lin_x=True,
                   limit_lin_x_lower=-0.25, limit_lin_x_upper=0.75)
    result = export(tmp_path)
    [joint_index] = joint_nodes(result)
    assert body_ancestor(result, joint_index) == "Door"
    assert body_ancestor(result, result.joint(joint_index)["connectedNode"]) == "Wall"
    ranged = [limit for limit in settings_of(result, joint_index)["limits"] if limit["min"] != limit["max"]]
    assert ranged == [{"linearAxes": [0], "min": -0.75, "max": 0.25}]
    assert "enableCollision" not in result.joint(joint_index)


def test_joint_frames_below_unevenly_scaled_turned_bodies(clean_scene, tmp_path):
    arm = mesh_object("Arm", "cube", location=(0, 0, 1), rotation=(0.3, 0.6, 0.9), scale=(1, 2, 3))
    add_rigid_body(arm, 'ACTIVE', 'BOX')
    base = mesh_object("Base", "cube", location=(0, 3, 0), rotation=(0, 0, 0.5), scale=(3, 1, 0.5))
    add_rigid_body(base, 'ACTIVE', 'BOX')
    pivot = add_constraint("Elbow", 'HINGE', arm, base, location=(0.5, 1.5, 0.5), rotation=(1.0, 0.2, -0.4))
    bpy.context.view_layer.update()
    result = export(tmp_path)
    [joint_index] = joint_nodes(result)
    connected = result.joint(joint_index)["connectedNode"]
    for index in (joint_index, connected):
        assert matrices_close(result.world(index), pivot_frame(pivot), 1e-4)
        assert close(global_scale(result.world(index)), (1, 1, 1), 1e-5)


def test_joint_from_the_settings_with_a_drive_of_each_kind(clean_scene, tmp_path):
    crane = empty("Crane", location=(0, 0, 2))
    tag_motion(crane, 'DYNAMIC')
    tag_shape(crane, "collider", 'BOX')
    base = empty("Base", location=(3, 0, 0), rotation=(0, 0, 0.8))
    tag_shape(base, "collider", 'BOX')
    hinge = empty("Hook", location=(1, 0, 0), rotation=(0.0, 0.3, 0.0), parent=crane)
    settings = hinge.omi_physics
    settings.use_joint = True
    joint = settings.joint
    joint.connected_object = base
    limit = joint.limits.add()
    limit.kind, limit.axis_x, limit.axis_y, limit.axis_z = 'LINEAR', True, True, True
    limit = joint.limits.add()
    limit.kind, limit.axis_x, limit.axis_y, limit.axis_z = 'ANGULAR', False, True, False
    limit.min_angular, limit.max_angular = -0.5, 1.0
    kinds = [('LINEAR', 'X', 'FORCE', "motor"), ('ANGULAR', 'Y', 'FORCE', "motor"),
             ('LINEAR', 'Z', 'ACCELERATION', "spring"), ('ANGULAR', 'Z', 'FORCE', "spring")]
    for drive_type, axis, mode, kind in kinds:
        drive = joint.drives.add()
        drive.drive_type, drive.axis, drive.mode = drive_type, axis, mode
        drive.use_max_force, drive.max_force = True, 250.0
        if kind == "motor":
            drive.use_velocity_target, drive.velocity_target, drive.damping = True, 1.5, 40.0
        else:
            drive.use_position_target, drive.stiffness, drive.damping = True, 300.0, 5.0
            drive.position_target_linear, drive.position_target_angular = 0.25, 0.75
    bpy.context.view_layer.update()
    result = export(tmp_path)

    [joint_index] = joint_nodes(result)
    assert result.nodes[joint_index]["name"] == "Hook"  # an empty that carries nothing else is the joint node
    connected = result.joint(joint_index)["connectedNode"]
    # The settings' limits are measured between the joint and Base's own frame (as the rigid body build
    # does, shifting by Base's starting offset and turn): Base, turned against the joint, is the connected node.
    assert connected == result.index("Base")
    written = settings_of(result, joint_index)
    # Blender Y is glTF axis 2 pointing the other way: its single-axis range and targets flip
    assert canonical(written["limits"]) == canonical([{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                                                      {"angularAxes": [2], "min": -1, "max": 0.5}])
    assert canonical(written["drives"]) == canonical([
        {"type": "linear", "mode": "force", "axis": 0, "maxForce": 250, "velocityTarget": 1.5, "damping": 40},
        {"type": "angular", "mode": "force", "axis": 2, "maxForce": 250, "velocityTarget": -1.5, "damping": 40},
        {"type": "linear", "mode": "acceleration", "axis": 1, "maxForce": 250, "positionTarget": 0.25,
         "stiffness": 300, "damping": 5},
        {"type": "angular", "mode": "force", "axis": 1, "maxForce": 250, "positionTarget": 0.75, "stiffness": 300,
         "damping": 5},
    ])


def test_adopted_constraint_exports_like_the_blender_constraint(clean_scene, tmp_path, omi):
    sync = omi("operators.sync")
    lever = mesh_object("Lever", "cube", location=(0, 0, 1))
    add_rigid_body(lever, 'ACTIVE', 'BOX')
    post = mesh_object("Post", "cube", location=(0, 2, 0))
    add_rigid_body(post, 'PASSIVE', 'BOX')
    pivot = add_constraint("Pin", 'GENERIC', lever, post, location=(0, 1, 0.5), rotation=(0.3, 0, 0),
                           use_limit_lin_x=True, limit_lin_x_lower=-0.5, limit_lin_x_upper=0.25,
                           use_limit_ang_z=True, limit_ang_z_lower=-0.75, limit_ang_z_upper=0.5)
    bpy.context.view_layer.update()
    before = export(tmp_path, "constraint")
    assert sync.adopt_constraint(pivot, [])
    assert pivot.omi_physics.use_joint and pivot.omi_physics.joint.connected_object == post
    after = export(tmp_path, "settings")
    [joint_before], [joint_after] = joint_nodes(before), joint_nodes(after)
    assert settings_of(after, joint_after) == settings_of(before, joint_before)
    assert body_ancestor(after, joint_after) == "Lever"
    for result, index in ((before, joint_before), (after, joint_after)):
        assert matrices_close(result.world(index), pivot_frame(pivot), 1e-4)
        assert matrices_close(result.world(result.joint(index)["connectedNode"]), pivot_frame(pivot), 1e-4)


def test_joints_to_objects_that_are_not_exported_are_dropped(clean_scene, tmp_path):
    first = mesh_object("Kept", "cube")
    add_rigid_body(first, 'ACTIVE', 'BOX')
    second = mesh_object("Unselected", "cube", location=(2, 0, 0))
    add_rigid_body(second, 'ACTIVE', 'BOX')
    pivot = add_constraint("Link", 'POINT', first, second, location=(1, 0, 0))
    tagged = empty("TaggedJoint", parent=first)
    tagged.omi_physics.use_joint = True
    tagged.omi_physics.joint.connected_object = second
    for obj in bpy.context.scene.objects:
        obj.select_set(obj in (first, pivot, tagged))
    result = export(tmp_path, use_selection=True)
    assert joint_nodes(result) == []
    assert result.root("OMI_physics_joint", "physicsJoints") == []
    assert result.warnings("'Link'", "'Unselected'", "not exported")
    assert result.warnings("'TaggedJoint'", "'Unselected'", "not exported")


# --- the signs, against Blender's own simulation -----------------------------------------------------


def simulate(frames: int) -> None:
    scene = bpy.context.scene
    scene.rigidbody_world.point_cache.frame_end = frames + 10
    for frame in range(1, frames + 1):
        scene.frame_set(frame)


def relative_after_simulation(result, joint_index: int, frames: int) -> Matrix:
    """Where the connected frame ends up relative to the joint frame after Blender simulated the scene."""
    frames_world = {}
    for index in (joint_index, result.joint(joint_index)["connectedNode"]):
        body = result.index(body_ancestor(result, index))
        frames_world[index] = (body, result.world(body).inverted() @ result.world(index))
    simulate(frames)
    placed = {index: blender_world_to_gltf(bpy.data.objects[result.nodes[body]["name"]].matrix_world) @ local
              for index, (body, local) in frames_world.items()}
    connected = result.joint(joint_index)["connectedNode"]
    return placed[joint_index].inverted() @ placed[connected]


def single_axis_limit(settings: dict, key: str) -> dict:
    [limit] = [limit for limit in settings["limits"] if len(limit.get(key, [])) == 1 and limit["min"] != limit["max"]]
    return limit


def two_blocks(first_type: str, second_type: str, second_location=(0.0, 0.0, 0.0)):
    first = mesh_object("First", "cube", size=0.2)
    add_rigid_body(first, first_type, 'BOX', linear_damping=0.0, angular_damping=0.0)
    second = mesh_object("Second", "cube", location=second_location, size=0.2)
    add_rigid_body(second, second_type, 'BOX', linear_damping=0.0, angular_damping=0.0)
    return first, second


LIMIT_SIMULATIONS = {
    # name: (constraint, rotation, second body's place, settings); gravity turns or pulls the second body the
    # negative way in the constraint's frame, so it comes to rest on one end of the asymmetric range
    "hinge": ('HINGE', (math.pi / 2, 0, 0), (0.5, 0, 0),
              {"use_limit_ang_z": True, "limit_ang_z_lower": -0.3, "limit_ang_z_upper": 0.6}),
    "slider": ('SLIDER', (0, math.pi / 2, 0), (0, 0, 0),
               {"use_limit_lin_x": True, "limit_lin_x_lower": -0.2, "limit_lin_x_upper": 0.5}),
    "piston": ('PISTON', (0, 0, 0), (0, 0.5, 0),
               {"use_limit_ang_x": True, "limit_ang_x_lower": -0.3, "limit_ang_x_upper": 0.6,
                "use_limit_lin_x": True, "limit_lin_x_lower": 0.0, "limit_lin_x_upper": 0.0}),
    "generic rotation": ('GENERIC', (0, 0, 0), (0, 0.5, 0),
                         {**{f"use_limit_{kind}_{axis}": True for kind in ("lin", "ang") for axis in "xyz"},
                          **{f"limit_{kind}_{axis}_{end}": 0.0 for kind in ("lin", "ang") for axis in "xyz"
                             for end in ("lower", "upper")},
                          "limit_ang_x_lower": -0.3, "limit_ang_x_upper": 0.6}),
    "generic translation": ('GENERIC', (0, 0, 0), (0, 0, 0),
                            {**{f"use_limit_{kind}_{axis}": True for kind in ("lin", "ang") for axis in "xyz"},
                             **{f"limit_{kind}_{axis}_{end}": 0.0 for kind in ("lin", "ang") for axis in "xyz"
                                for end in ("lower", "upper")},
                             "limit_lin_z_lower": -0.3, "limit_lin_z_upper": 0.6}),
}


@pytest.mark.parametrize("case", list(LIMIT_SIMULATIONS))
@pytest.mark.parametrize("dynamic_first", [False, True])
def test_exported_limits_hold_where_blender_stops_the_bodies(clean_scene, tmp_path, case, dynamic_first):
    kind, rotation, place, values = LIMIT_SIMULATIONS[case]
    first, second = two_blocks('PASSIVE', 'ACTIVE', place)
    objects = (second, first) if dynamic_first else (first, second)  # swapped: measured from the other side
    add_constraint("Joint", kind, *objects, rotation=rotation, disable_collisions=True, **values)
    result = export(tmp_path, export_current_frame=True)
    [joint_index] = joint_nodes(result)
    angular = case in ("hinge", "piston", "generic rotation")
    limit = single_axis_limit(settings_of(result, joint_index), "angularAxes" if angular else "linearAxes")
    axis = limit["angularAxes" if angular else "linearAxes"][0]
    relative = relative_after_simulation(result, joint_index, 72)
    value = relative.to_euler('XYZ')[axis] if angular else relative.translation[axis]
    assert limit["min"] - 0.02 <= value <= limit["max"] + 0.02, (limit, value)
    assert min(abs(value - limit["min"]), abs(value - limit["max"])) < 0.02, (limit, value)


@pytest.mark.parametrize("angular", [False, True])
def test_exported_motor_turns_the_way_blender_does(clean_scene, tmp_path, angular):
    clean_scene.use_gravity = False
    first, second = two_blocks('PASSIVE', 'ACTIVE')
    prefix = "ang" if angular else "lin"
    add_constraint("Motor", 'MOTOR', first, second, disable_collisions=True, **{
        f"use_motor_{prefix}": True, f"motor_{prefix}_target_velocity": 1.0, f"motor_{prefix}_max_impulse": 100.0})
    result = export(tmp_path, export_current_frame=True)
    [joint_index] = joint_nodes(result)
    [drive] = settings_of(result, joint_index)["drives"]
    relative = relative_after_simulation(result, joint_index, 24)  # one second at 24 fps
    moved = relative.to_euler('XYZ')[drive["axis"]] if angular else relative.translation[drive["axis"]]
    assert moved == pytest.approx(drive["velocityTarget"] * 1.0, abs=0.1)


def test_exported_spring_stiffness_gives_blenders_sag(clean_scene, tmp_path):
    first, second = two_blocks('PASSIVE', 'ACTIVE')
    second.rigid_body.mass = 1.0
    locked: dict[str, Any] = {f"use_limit_{kind}_{axis}": True
                              for kind, axis in (("lin", "x"), ("lin", "y"), ("ang", "x"), ("ang", "y"), ("ang", "z"))}
    locked.update({f"limit_{name[10:]}_{end}": 0.0 for name in locked for end in ("lower", "upper")})
    add_constraint("Spring", 'GENERIC_SPRING', first, second, disable_collisions=True, spring_type='SPRING2',
                   use_spring_z=True, spring_stiffness_z=10.0, spring_damping_z=4.0, **locked)
    result = export(tmp_path, export_current_frame=True)
    [joint_index] = joint_nodes(result)
    [drive] = settings_of(result, joint_index)["drives"]
    relative = relative_after_simulation(result, joint_index, 240)
    sag = abs(relative.translation[drive["axis"]])
    assert sag == pytest.approx(1.0 * 9.81 / drive["stiffness"], rel=0.03)


def test_a_frame_at_a_bodys_own_origin_and_turn_gets_no_helper_node(clean_scene, tmp_path):
    """A helper node only where a frame differs from a node's: a hinge at the connected body's own origin and
    turn uses that body's node as its connected node; the joint itself still gets a node of its own (the spec
    keeps a joint off a body's node)."""
    first = mesh_object("First", "cube", rotation=(0.3, 0.2, 0.1))
    add_rigid_body(first, 'ACTIVE', 'BOX')
    second = mesh_object("Second", "cube", location=(1.0, 0.0, 0.0), rotation=(0.1, 0.5, 0.2))
    add_rigid_body(second, 'ACTIVE', 'BOX')
    add_constraint("Hinge", 'HINGE', first, second, location=(1.0, 0.0, 0.0), rotation=(0.1, 0.5, 0.2))
    result = export(tmp_path)
    [joint_index] = joint_nodes(result)
    assert result.nodes[result.joint(joint_index)["connectedNode"]]["name"] == "Second"
    assert sorted(node["name"] for node in result.nodes) == ["First", "Hinge", "Hinge.joint", "Second"]
