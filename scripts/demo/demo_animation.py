"""The demo's animated property: the door's motor, keyed to swing the door open ahead of the ball, hold it
and close it behind, and the checks that the keys travel through glTF (`KHR_animation_pointer`) and play.

Kept apart from demo_scene.build_scene(), whose scene is also a byte-for-byte reference export.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import addon_loader
import bpy
import demo_scene
import numpy as np
from demo_measure import Check, HingeRun

# (frame, target velocity in rad/s about the hinge's Z), each held until the next key: open to the limit,
# hold open while the ball passes, close, hold closed.
DOOR_KEYS = ((1, 1.5), (41, 0.0), (90, -1.5), (111, 0.0))
DOOR_MAX_TORQUE = 50.0  # N m: ample for a 1 kg door, the motor reaches its target at once
POINTER_TAIL = "/drives/0/velocityTarget"
DATA_PATH = "omi_physics.joint.drives[0].velocity_target"
BLENDER_PATH = "rigid_body_constraint.motor_ang_target_velocity"
MEASURED_FRAMES = (11, 41, 90, 100)  # half open, open, still open after the ball, half closed; and the end
FOLLOW_TOLERANCE = math.radians(7.0)  # the motor's and the soft limit's lag behind the ideal turn


def animate_door() -> None:
    """Add a motor to the door's hinge (the sidebar's Add Joint Drive) and key its target velocity."""
    joint_obj = bpy.context.scene.objects[demo_scene.ROLES.door_joint]
    demo_scene.select(joint_obj)
    demo_scene.run(bpy.ops.omi.joint_drive_add, kind='MOTOR')
    drive = joint_obj.omi_physics.joint.drives[0]
    drive.use_max_force, drive.max_force = True, DOOR_MAX_TORQUE
    drive.damping = addon_loader.module("io.blender.tables.bullet").motor_damping(DOOR_MAX_TORQUE)  # a Blender motor
    for frame, velocity in DOOR_KEYS:
        drive.velocity_target = velocity
        joint_obj.keyframe_insert(DATA_PATH, frame=frame)
    for curve in addon_loader.module("io.blender.animation.curves").fcurves(joint_obj):
        for point in curve.keyframe_points:
            point.interpolation = 'CONSTANT'
    bpy.context.scene.frame_set(DOOR_KEYS[0][0])


def channel_problems(path: Path, fps: float) -> list[str]:
    """What is wrong with the file's door-motor channel: the Object Model check of every physics channel
    (pointer resolves, accessor types), then one channel at the door joint settings' drive velocity, STEP,
    its times the keys' and its values the keys (in the sign the still export wrote the first one)."""
    pointers = addon_loader.module("io.omi.dialects.pointers")
    parsed = addon_loader.module("io.omi.gltf_file").read(path)
    gltf = parsed.document
    problems = [f"{issue.pointer}: {issue.message}" for issue in pointers.check_animation(gltf)]
    channels = [(animation, channel) for animation in gltf.get("animations", []) for channel in animation["channels"]
                if channel["target"].get("extensions", {}).get("KHR_animation_pointer", {})
                .get("pointer", "").endswith(POINTER_TAIL)]
    if len(channels) != 1:
        return [*problems, f"{len(channels)} channels point at a drive's velocityTarget (1 expected)"]
    animation, channel = channels[0]
    pointer = channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
    found = pointers.match(pointer)
    if found is None or found.index != _door_joint_settings(gltf) or not pointers.resolve(gltf, found)[0]:
        return [*problems, f"{pointer}: not the drive of {demo_scene.ROLES.door_joint}'s joint settings"]
    still = float(pointers.resolve(gltf, found)[1])
    sampler = animation["samplers"][channel["sampler"]]
    buffers = addon_loader.module("io.omi.cli.validate_file").buffer_reader(parsed, str(path))
    times, values = (_floats(gltf, buffers, sampler[key]) for key in ("input", "output"))
    sign = math.copysign(1.0, still * DOOR_KEYS[0][1])
    if values.size and abs(still - values[0]) > 1e-5:
        problems.append(f"{pointer}: the still value {still} is not the first key's {values[0]}")
    if "KHR_animation_pointer" not in gltf.get("extensionsUsed", []):
        problems.append("KHR_animation_pointer missing from extensionsUsed")
    if sampler.get("interpolation") != "STEP":
        problems.append(f"{pointer}: interpolation {sampler.get('interpolation')} (STEP expected)")
    if not np.allclose(times, [frame / fps for frame, _ in DOOR_KEYS], atol=1e-4):
        problems.append(f"{pointer}: times {times.tolist()}")
    if not np.allclose(values, [sign * velocity for _, velocity in DOOR_KEYS], atol=1e-5):
        problems.append(f"{pointer}: values {values.tolist()}")
    return problems


def _door_joint_settings(gltf: dict) -> int | None:
    """The physicsJoints index the door's joint node uses, in either dialect."""
    node = next(node for node in gltf["nodes"] if node.get("name") == demo_scene.ROLES.door_joint)
    extensions = node.get("extensions", {})
    if "OMI_physics_joint" in extensions:
        return extensions["OMI_physics_joint"].get("joint")
    return extensions.get("KHR_physics_rigid_bodies", {}).get("joint", {}).get("joint")


def _floats(gltf: dict, buffers, index: int) -> np.ndarray:
    """A float SCALAR accessor's values (tightly packed, as the exporter writes them)."""
    accessor = gltf["accessors"][index]
    view = gltf["bufferViews"][accessor["bufferView"]]
    data = buffers(view["buffer"], gltf["buffers"][view["buffer"]])
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    return np.frombuffer(data, dtype="<f4", count=accessor["count"], offset=start).astype(float)


def imported_keys(scene: bpy.types.Scene) -> dict[str, list[tuple[float, float]]]:
    """The imported keyframes (frame, value) on the door joint's setting and on Blender's motor constraint."""
    curves = addon_loader.module("io.blender.animation.curves")
    found: dict[str, list[tuple[float, float]]] = {}
    for obj in scene.objects:
        for curve in curves.fcurves(obj):
            if curve.data_path in (DATA_PATH, BLENDER_PATH):
                found[f"{obj.name}.{curve.data_path}"] = [tuple(point.co) for point in curve.keyframe_points]
    return found


def expected_angles(count: int, fps: float, limits: tuple[float, float]) -> np.ndarray:
    """The joint's turn relative to its connected node per frame for a motor reaching each held velocity at
    once, stopped by the hinge's limits. The drive's velocity is the connected node's relative to the joint
    (OMI_physics_joint), so the joint turns the other way."""
    angles, angle, keys = [], 0.0, list(DOOR_KEYS)
    for index in range(count):
        angles.append(angle)
        frame = 1 + index
        velocity = next(velocity for start, velocity in reversed(keys) if start <= frame)
        angle = min(max(angle - velocity / fps, limits[0]), limits[1])
    return np.array(angles)


@dataclass
class DoorAnimation:
    channels: dict[str, list[str]]  # file name -> problems with its channel
    keys: dict[str, list[tuple[float, float]]]  # imported keyframes by object.data_path
    measured: dict[int, float]  # keyed frame -> measured angle, radians
    expected: dict[int, float]


def door_animation(files: list[Path], scene: bpy.types.Scene, door: HingeRun, fps: float) -> DoorAnimation:
    ideal = expected_angles(len(door.angles), fps, door.limits)
    frames = [*MEASURED_FRAMES, len(door.angles)]
    return DoorAnimation({path.name: channel_problems(path, fps) for path in files}, imported_keys(scene),
                         {frame: float(door.angles[frame - 1]) for frame in frames},
                         {frame: float(ideal[frame - 1]) for frame in frames})


def door_animation_check(found: DoorAnimation) -> Check:
    """The channel in every file, the keys on the setting and on Blender's motor, the door following them."""
    keyed = [(float(frame), float(velocity)) for frame, velocity in DOOR_KEYS]
    on_setting = [keys for name, keys in found.keys.items() if name.endswith(DATA_PATH)]
    on_motor = [keys for name, keys in found.keys.items() if name.endswith(BLENDER_PATH)]
    # Blender's motor turns the other body than OMI's drive: its keys may carry the opposite sign (the
    # simulation below shows which way the door really goes).
    keys_ok = len(on_setting) == 1 and len(on_motor) == 1 and np.allclose(on_setting[0], keyed, atol=1e-4) \
        and any(np.allclose(on_motor[0], [(frame, sign * value) for frame, value in keyed], atol=1e-4)
                for sign in (1.0, -1.0))
    files_ok = all(not problems for problems in found.channels.values())
    follows = all(abs(found.measured[frame] - found.expected[frame]) < FOLLOW_TOLERANCE for frame in found.measured)
    problems = "; ".join(problem for problems in found.channels.values() for problem in problems)
    imported = "setting and Blender motor" if keys_ok else f"MISSING: {sorted(found.keys)}"
    frames = list(found.measured)

    def joined(values) -> str:
        return "/".join(f"{value:g}" for value in values)

    return Check("door motor plays its keyed target velocity", files_ok and keys_ok and follows,
                 f"{joined(velocity for _, velocity in DOOR_KEYS)} rad/s from frames "
                 f"{joined(frame for frame, _ in DOOR_KEYS)}: STEP KHR_animation_pointer channel in "
                 f"{len(found.channels)} files{f' ({problems})' if problems else ''}, keyed on import ({imported}); "
                 f"door at frames {joined(frames)}: {joined(round(math.degrees(found.measured[f])) for f in frames)} "
                 f"deg (keys say {joined(round(math.degrees(found.expected[f])) for f in frames)})")
