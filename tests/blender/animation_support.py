"""Animation test support: a scene that keyframes every Object Model value of the OMI specs, and the
exported channels read back (sampler times and values, pointers named by the nodes they concern)."""

from __future__ import annotations

import base64
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import addon_loader
import bpy
from export_support import BODY, JOINT, SHAPE, Exported, empty, export, tag_motion, tag_shape

POINTER = "KHR_animation_pointer"
FRAMES = (1, 11)


def to_gltf(v) -> list[float]:
    return [v[0], v[2], -v[1]]


def size_to_gltf(v) -> list[float]:
    return [v[0], v[2], v[1]]


def quat_to_gltf(q) -> list[float]:
    return [q[1], q[3], -q[2], q[0]]


@dataclass(frozen=True)
class Keyed:
    """One keyframed setting: its datablock and RNA path, its values at FRAMES, and where it lands in the
    file: ('node', object name, path below the node's extension) or (array, object name, path below the
    item the object's part references), with the test's own Blender -> glTF conversion."""

    id_name: str
    data_path: str
    values: tuple[Any, Any]
    owner: str  # 'node' or the document array
    obj: str
    path: str
    convert: Callable[[Any], Any] = lambda value: value


def _key(id_data, data_path: str, values) -> None:
    for frame, value in zip(FRAMES, values, strict=True):
        owner, name = data_path.rsplit(".", 1)
        struct = id_data.path_resolve(owner)
        setattr(struct, name, value)
        id_data.keyframe_insert(data_path, frame=frame)


def animated_scene() -> list[Keyed]:
    """Every OMI Object Model value keyframed (LINEAR) between frame 1 and 11, plus still twins that start
    equal to the animated shapes. Returns what was keyed."""
    scene = bpy.context.scene
    scene.frame_set(FRAMES[0])
    keyed: list[Keyed] = []

    def key(id_data, data_path, values, *target, convert=lambda value: value):
        """Keyframe `data_path` and note where it lands: target = (owner, object name, path)."""
        _key(id_data, data_path, values)
        owner, obj, path = target
        keyed.append(Keyed(id_data.name, data_path, tuple(values), owner, obj, path, convert))

    body = empty("Body", location=(0, 0, 2))
    tag_motion(body, 'DYNAMIC', use_center_of_mass=True)  # a centre of mass left to the engine has no value to key
    tag_shape(body, "collider", 'BOX')
    motion = "omi_physics.motion."
    key(body, motion + "mass", (2.0, 6.0), "node", "Body", f"{BODY}/motion/mass")
    key(body, motion + "center_of_mass", ((0.1, 0.2, 0.3), (0.5, -0.2, 0.0)), "node", "Body",
        f"{BODY}/motion/centerOfMass", convert=to_gltf)
    key(body, motion + "inertia_diagonal", ((1.0, 2.0, 3.0), (2.0, 2.0, 5.0)), "node", "Body",
        f"{BODY}/motion/inertiaDiagonal", convert=size_to_gltf)
    half = math.sqrt(0.5)
    key(body, motion + "inertia_orientation", ((1.0, 0.0, 0.0, 0.0), (half, 0.0, 0.0, half)), "node", "Body",
        f"{BODY}/motion/inertiaOrientation", convert=quat_to_gltf)
    key(body, motion + "linear_velocity", ((0.0, 1.0, 0.0), (3.0, 1.0, -2.0)), "node", "Body",
        f"{BODY}/motion/linearVelocity", convert=to_gltf)
    key(body, motion + "angular_velocity", ((0.0, 0.0, 1.0), (1.0, 0.0, 4.0)), "node", "Body",
        f"{BODY}/motion/angularVelocity", convert=to_gltf)
    key(body, motion + "gravity_factor", (1.0, 0.25), "node", "Body", f"{BODY}/motion/gravityFactor")
    key(body, "omi_physics.collider.shape.size", ((1.0, 2.0, 3.0), (2.0, 2.0, 1.0)), "shapes", "Body",
        "box/size", convert=size_to_gltf)
    twin = empty("Twin", location=(5, 0, 0))
    tag_shape(twin, "collider", 'BOX', size=(1.0, 2.0, 3.0))  # equal to Body's shape at frame 1

    library = scene.omi_physics.physics_materials
    ice = library.add()
    ice.name = "Ice"
    ball = empty("Ball", location=(0, 3, 0))
    tag_motion(ball, 'DYNAMIC')
    tag_shape(ball, "collider", 'SPHERE')
    ball.omi_physics.collider.physics_material = "Ice"
    key(ball, "omi_physics.collider.shape.radius", (0.5, 1.5), "shapes", "Ball", "sphere/radius")
    for name, json_key, values in (("static_friction", "staticFriction", (0.6, 0.1)),
                                   ("dynamic_friction", "dynamicFriction", (0.5, 0.05)),
                                   ("restitution", "restitution", (0.0, 0.75))):
        key(scene, ice.path_from_id(name), values, "physicsMaterials", "Ball", json_key)
    marble = empty("Marble", location=(0, 6, 0))
    tag_shape(marble, "collider", 'SPHERE', radius=0.5)  # equal to Ball's shape at frame 1

    for name, shape_type in (("Pill", 'CAPSULE'), ("Can", 'CYLINDER')):
        obj = empty(name, location=(0, -3 if name == "Pill" else -6, 0))
        tag_shape(obj, "collider", shape_type)
        kind = shape_type.lower()
        key(obj, "omi_physics.collider.shape.height", (1.0, 2.5), "shapes", name, f"{kind}/height")
        key(obj, "omi_physics.collider.shape.radius_top", (0.5, 0.25), "shapes", name, f"{kind}/radiusTop")
        key(obj, "omi_physics.collider.shape.radius_bottom", (0.5, 0.75), "shapes", name, f"{kind}/radiusBottom")

    joint_keys(key)
    set_interpolation('LINEAR')
    return keyed


def set_interpolation(interpolation: str) -> None:
    """Every keyframe of the scene and its objects gets this interpolation."""
    fcurves = addon_loader.module("io.blender.animation.curves").fcurves
    for id_data in (bpy.context.scene, *bpy.data.objects):
        for curve in fcurves(id_data):
            for point in curve.keyframe_points:
                point.interpolation = interpolation


def joint_keys(key: Callable[..., None]) -> None:
    """A hinge on Blender's Y axis (glTF axis 2, pointing the other way: ranges and targets negate)."""
    door = empty("Door", location=(10, 0, 1))
    tag_motion(door, 'DYNAMIC')
    tag_shape(door, "collider", 'BOX', size=(1.0, 0.1, 2.0))
    frame = empty("Frame", location=(10, 0, 0))
    tag_shape(frame, "collider", 'BOX')
    hinge = empty("Hinge", location=(0.5, 0, 0), parent=door)
    settings = hinge.omi_physics
    settings.use_joint = True
    settings.joint.connected_object = frame
    limit = settings.joint.limits.add()
    limit.kind, limit.axis_x, limit.axis_y, limit.axis_z = 'ANGULAR', False, True, False
    limit.use_stiffness = True
    drive = settings.joint.drives.add()
    drive.drive_type, drive.axis = 'ANGULAR', 'Y'
    drive.use_max_force = drive.use_position_target = drive.use_velocity_target = True
    path = "omi_physics.joint."
    negate = lambda value: -value  # noqa: E731
    key(hinge, path + "limits[0].min_angular", (-0.5, -1.0), "physicsJoints", "Hinge", "limits/0/max", convert=negate)
    key(hinge, path + "limits[0].max_angular", (0.5, 1.0), "physicsJoints", "Hinge", "limits/0/min", convert=negate)
    key(hinge, path + "limits[0].stiffness", (100.0, 50.0), "physicsJoints", "Hinge", "limits/0/stiffness")
    key(hinge, path + "limits[0].damping", (1.0, 3.0), "physicsJoints", "Hinge", "limits/0/damping")
    key(hinge, path + "drives[0].max_force", (10.0, 40.0), "physicsJoints", "Hinge", "drives/0/maxForce")
    key(hinge, path + "drives[0].position_target_angular", (0.0, 0.5), "physicsJoints", "Hinge",
        "drives/0/positionTarget", convert=negate)
    key(hinge, path + "drives[0].velocity_target", (0.0, 2.0), "physicsJoints", "Hinge",
        "drives/0/velocityTarget", convert=negate)
    key(hinge, path + "drives[0].stiffness", (5.0, 15.0), "physicsJoints", "Hinge", "drives/0/stiffness")
    key(hinge, path + "drives[0].damping", (0.5, 2.5), "physicsJoints", "Hinge", "drives/0/damping")


def item_index(result: Exported, obj: str, array: str) -> int:
    """The index of the item of `array` that the object's node references."""
    node = result.node(obj)
    extensions = node.get("extensions", {})
    if array == "physicsJoints":
        return extensions[JOINT]["joint"]
    collider = extensions[BODY]["collider"]
    return collider["shape"] if array == "shapes" else collider["physicsMaterial"]


def pointer_of(result: Exported, keyed: Keyed) -> str:
    if keyed.owner == "node":
        return f"/nodes/{result.index(keyed.obj)}/extensions/{keyed.path}"
    extension = {"shapes": SHAPE, "physicsMaterials": BODY, "physicsJoints": JOINT}[keyed.owner]
    return f"/extensions/{extension}/{keyed.owner}/{item_index(result, keyed.obj, keyed.owner)}/{keyed.path}"


def channels(result: Exported) -> dict[str, dict]:
    """Pointer -> {interpolation, times, values} of every KHR_animation_pointer channel of the file."""
    found = {}
    for animation in result.gltf.get("animations", []):
        for channel in animation["channels"]:
            target = channel["target"]
            if target.get("path") != "pointer":
                continue
            sampler = animation["samplers"][channel["sampler"]]
            pointer = target["extensions"][POINTER]["pointer"]
            assert pointer not in found, f"two channels for {pointer}"
            found[pointer] = {"interpolation": sampler.get("interpolation", "LINEAR"),
                              "times": result.accessor(sampler["input"]).tolist(),
                              "values": result.accessor(sampler["output"]).tolist(),
                              "input": result.gltf["accessors"][sampler["input"]]}
    return found


def named_channels(result: Exported) -> dict[tuple, dict]:
    """The channels keyed by what they concern (node names, not indices), to compare two exports."""
    names: dict[tuple[str, int], set[str]] = {}
    for node in result.nodes:
        extensions = node.get("extensions", {})
        refs = [("physicsJoints", extensions.get(JOINT, {}).get("joint"))]
        for part in ("collider", "trigger"):
            content = extensions.get(BODY, {}).get(part, {})
            refs += [("shapes", content.get("shape")), ("physicsMaterials", content.get("physicsMaterial"))]
        for array, item in refs:
            if item is not None:
                names.setdefault((array, item), set()).add(node["name"])
    found = {}
    for pointer, channel in channels(result).items():
        tokens = pointer.split("/")
        if tokens[1] == "nodes":
            key = ("node", result.nodes[int(tokens[2])]["name"], "/".join(tokens[3:]))
        else:
            key = (tokens[3], tuple(sorted(names[(tokens[3], int(tokens[4]))])), "/".join(tokens[5:]))
        found[key] = {name: value for name, value in channel.items() if name != "input"}
    return found


def with_channels(gltf: dict, channels: list[tuple[str, list[float], list[float], str]]) -> dict:
    """The document with one animation: (pointer, times, flat values, output type) per channel."""
    blob = b""
    views, accessors, samplers, targets = [], [], [], []
    for position, (pointer, times, values, kind) in enumerate(channels):
        for numbers, accessor_type in ((times, "SCALAR"), (values, kind)):
            data = struct.pack(f"<{len(numbers)}f", *numbers)
            views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
            width = {"SCALAR": 1, "VEC3": 3}[accessor_type]
            accessor = {"bufferView": len(views) - 1, "componentType": 5126, "count": len(numbers) // width,
                        "type": accessor_type}
            if accessor_type == "SCALAR" and numbers is times:
                accessor.update(min=[min(times)], max=[max(times)])
            accessors.append(accessor)
            blob += data
        samplers.append({"input": 2 * position, "output": 2 * position + 1, "interpolation": "LINEAR"})
        target = {"path": "pointer", "extensions": {POINTER: {"pointer": pointer}}} if pointer.startswith("/") \
            else {"node": 0, "path": pointer}
        targets.append({"sampler": position, "target": target})
    gltf["buffers"] = [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64,"
                        + base64.b64encode(blob).decode("ascii")}]
    gltf["bufferViews"], gltf["accessors"] = views, accessors
    gltf["animations"] = [{"name": "Open", "channels": targets, "samplers": samplers}]
    gltf["extensionsUsed"].append(POINTER)
    return gltf


def counted_snapshots(monkeypatch) -> list[int]:
    """A list that gets an entry per snapshot the animation export takes (its derive-and-write of an object)."""
    sample = addon_loader.module("io.blender.animation.exports.sample")
    calls: list[int] = []
    real = sample.AnimationExport._snapshot

    def counted(self: Any, tracker: Any) -> Any:
        calls.append(1)
        return real(self, tracker)

    monkeypatch.setattr(sample.AnimationExport, "_snapshot", counted)
    return calls


def same_file(a, b) -> bool:
    """The two exports are the same text and the same binary (their buffer names aside)."""
    text = a.path.read_text().replace(f'"{a.path.stem}.bin"', '"BIN"')
    return text == b.path.read_text().replace(f'"{b.path.stem}.bin"', '"BIN"') and \
        a.path.with_suffix(".bin").read_bytes() == b.path.with_suffix(".bin").read_bytes()


def whole_translation(monkeypatch) -> None:
    """The export before the table: every F-curve nudged, every key derived and written."""
    monkeypatch.setattr(addon_loader.module("io.blender.animation.exports.direct"), "map_channel", lambda *_args: None)


def table_and_whole_exports(directory: Path, monkeypatch) -> tuple[Exported, Exported, int, int]:
    """The scene exported through the Object Model table, then by the whole translation per key (the export
    before the table), and the snapshots each took: (table, whole, table's snapshots, whole's snapshots)."""
    calls = counted_snapshots(monkeypatch)
    table = export(directory, "table")
    table_calls = len(calls)
    calls.clear()
    whole_translation(monkeypatch)
    whole = export(directory, "whole")
    return table, whole, table_calls, len(calls)

