"""The second engine plays KHR_animation_pointer channels on physics values (tests/engine/animation_pointer.mjs):
a drive's target velocity, a body's velocity, mass and gravity factor, and a material's restitution, each
keyed in a file written here and checked against what the keyed value must do (no Blender involved).

Tolerances: Rapier steps at 240 Hz; a value keyed STEP at t changes at the first step ending after t, and a
velocity drive with damping = maxForce / 0.01 reaches its target within a few steps, so positions are
compared to 2 % (or 2 cm) of the analytic motion.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path

import pytest

BODY = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"
POINTER = "KHR_animation_pointer"


class Channels:
    """Animation channels with their samplers and accessors, in one base64 buffer."""

    def __init__(self) -> None:
        self.data = b""
        self.accessors: list[dict] = []
        self.views: list[dict] = []
        self.channels: list[dict] = []
        self.samplers: list[dict] = []

    def _accessor(self, numbers: list[float], kind: str) -> int:
        self.views.append({"buffer": 0, "byteOffset": len(self.data), "byteLength": 4 * len(numbers)})
        self.data += struct.pack(f"<{len(numbers)}f", *numbers)
        width = {"SCALAR": 1, "VEC3": 3}[kind]
        accessor = {"bufferView": len(self.views) - 1, "componentType": 5126, "count": len(numbers) // width,
                    "type": kind}
        if kind == "SCALAR" and len(self.accessors) % 2 == 0:
            accessor |= {"min": [min(numbers)], "max": [max(numbers)]}
        self.accessors.append(accessor)
        return len(self.accessors) - 1

    def add(self, pointer: str, times: list[float], values: list[float], kind: str = "SCALAR",
            interpolation: str = "STEP") -> None:
        self.samplers.append({"input": self._accessor(times, "SCALAR"), "output": self._accessor(values, kind),
                              "interpolation": interpolation})
        self.channels.append({"sampler": len(self.samplers) - 1,
                              "target": {"path": "pointer", "extensions": {POINTER: {"pointer": pointer}}}})

    def into(self, gltf: dict) -> dict:
        uri = "data:application/octet-stream;base64," + base64.b64encode(self.data).decode()
        gltf |= {"buffers": [{"byteLength": len(self.data), "uri": uri}], "bufferViews": self.views,
                 "accessors": self.accessors,
                 "animations": [{"channels": self.channels, "samplers": self.samplers}]}
        gltf["extensionsUsed"].append(POINTER)
        return gltf


def scene(nodes: list[dict], shapes: list[dict], **root: object) -> dict:
    return {"asset": {"version": "2.0"}, "extensionsUsed": [BODY, SHAPES],
            "extensions": {SHAPES: {"shapes": shapes}, BODY: dict(root)},
            "nodes": nodes, "scenes": [{"nodes": [i for i, n in enumerate(nodes) if not n.get("child")]}],
            "scene": 0}


def write(tmp_path: Path, name: str, gltf: dict) -> Path:
    for node in gltf["nodes"]:
        node.pop("child", None)
    path = tmp_path / f"{name}.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


BALL = {"type": "sphere", "sphere": {"radius": 0.5}}


def test_keyed_velocity_gravity_factor_mass_and_drive_target(engine, tmp_path):
    """Without gravity: 'Pushed' gets 3 m/s along X at 1 s. With gravity: 'Floating' has its gravity factor
    keyed 0 (it stays). 'Driven' is pushed by a slider drive of 1 N whose body's mass is keyed to 2 kg (the
    file says 1): x = F t^2 / (2 m) = 0.25 m after 1 s. 'Wheel' has its hinge's velocity target keyed 0 until
    1 s, then 2 rad/s: no turn at 1 s, 2 rad at 2 s. One file, one run (the engine's start is slow)."""
    nodes = [
        {"name": "Pushed", "translation": [0, 0, 0], "extensions": {BODY: {
            "motion": {"mass": 1, "gravityFactor": 0}, "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Floating", "translation": [0, 10, 5], "extensions": {BODY: {
            "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Driven", "translation": [10, 0, 0], "children": [3], "extensions": {BODY: {
            "motion": {"mass": 1, "gravityFactor": 0}, "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Slider", "child": True, "extensions": {BODY: {"joint": {"connectedNode": 4, "joint": 0}}}},
        {"name": "Rail", "translation": [10, 0, 0]},
        {"name": "Wheel", "translation": [-10, 0, 0], "children": [6], "extensions": {BODY: {
            "motion": {"mass": 1, "gravityFactor": 0}, "collider": {"geometry": {"shape": 0}}}}},
        {"name": "Axle", "child": True, "extensions": {BODY: {"joint": {"connectedNode": 7, "joint": 1}}}},
        {"name": "Hub", "translation": [-10, 0, 0]},
    ]
    joints = [{"limits": [{"linearAxes": [1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}],
               "drives": [{"type": "linear", "mode": "force", "axis": 0, "velocityTarget": -1000.0,
                           "damping": 1.0e6, "maxForce": 1.0}]},
              {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 2], "min": 0, "max": 0}],
               "drives": [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 0.0,
                           "damping": 1.0e5, "maxForce": 1000.0}]}]
    channels = Channels()
    channels.add(f"/nodes/0/extensions/{BODY}/motion/linearVelocity", [0.0, 1.0], [0, 0, 0, 3, 0, 0], "VEC3")
    channels.add(f"/nodes/1/extensions/{BODY}/motion/gravityFactor", [0.0], [0.0])
    channels.add(f"/nodes/2/extensions/{BODY}/motion/mass", [0.0], [2.0])
    channels.add(f"/extensions/{BODY}/physicsJoints/1/drives/0/velocityTarget", [0.0, 1.0], [0.0, 2.0])
    path = write(tmp_path, "motion", channels.into(scene(nodes, [BALL], physicsJoints=joints)))
    result = engine.simulate(path, (1.0, 2.0))
    assert result.position("Pushed", 1.0)[0] == pytest.approx(0.0, abs=0.02)
    assert result.position("Pushed", 2.0)[0] == pytest.approx(3.0, rel=0.02)
    assert result.position("Floating", 2.0)[1] == pytest.approx(10.0, abs=1e-3)
    travel = 10.0 - result.position("Driven", 1.0)[0]  # the drive pulls towards -X (the connected node's side)
    assert abs(travel) == pytest.approx(0.25, rel=0.05), travel

    def angle(time: float) -> float:
        x, y, z, w = result.pose("Wheel", time).rotation
        return 2.0 * math.atan2(math.hypot(x, y, z), abs(w))

    assert angle(1.0) == pytest.approx(0.0, abs=0.02)
    assert angle(2.0) == pytest.approx(2.0, rel=0.02)
    assert not [note for note in result.notes if "not played" in note]


def test_keyed_restitution_makes_a_ball_bounce(engine, tmp_path):
    """Two balls dropped on two floors: 'Keyed' and its floor share material 0, whose restitution is keyed 1
    from the start (the file says 0); 'Plain' and its floor have the same material unkeyed (material 1). The
    keyed ball comes back up, the plain one does not."""
    nodes = []
    for index, name in enumerate(("Keyed", "Plain")):
        x = 20.0 * index
        nodes += [{"name": f"{name}Floor", "translation": [x, -0.5, 0], "extensions": {BODY: {
                      "collider": {"geometry": {"shape": 1}, "physicsMaterial": index}}}},
                  {"name": name, "translation": [x, 2.0, 0], "extensions": {BODY: {
                      "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": index}}}}]
    material = {"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 0.0,
                "frictionCombine": "average", "restitutionCombine": "average"}
    floor = {"type": "box", "box": {"size": [10, 1, 10]}}
    channels = Channels()
    channels.add(f"/extensions/{BODY}/physicsMaterials/0/restitution", [0.0], [1.0])
    path = write(tmp_path, "bounce", channels.into(scene(nodes, [BALL, floor], physicsMaterials=[material, material])))
    times = [0.1 * step for step in range(8, 21)]  # the balls land at 0.55 s
    result = engine.simulate(path, times)
    highest = {name: max(result.position(name, t)[1] for t in times[3:]) for name in ("Keyed", "Plain")}
    assert highest["Plain"] < 0.55 and highest["Keyed"] > 1.5, highest
