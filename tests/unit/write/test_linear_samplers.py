"""`convert --to godot` of physics channels keyed CUBICSPLINE (io/omi/write/linear_samplers.py): Godot 4.6
rejects a CUBICSPLINE sampler (tests/godot measures it), so the targets' form (`form.LinearSamplers`) samples
the curve into LINEAR keys, as the Blender export does. Before, convert left the channels CUBICSPLINE and
said Godot ignores them."""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
from cli_run import run
from omi_core.write import linear_samplers

MOTION = "/nodes/0/extensions/OMI_physics_body/motion"



def _accessor(document: dict[str, Any], numbers: list[float], kind: str) -> int:
    data = struct.pack(f"<{len(numbers)}f", *numbers)
    document["buffers"].append({"byteLength": len(data),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()})
    document["bufferViews"].append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[kind]
    document["accessors"].append({"bufferView": len(document["bufferViews"]) - 1, "componentType": 5126,
                                  "count": len(numbers) // width, "type": kind,
                                  **({"min": [min(numbers)], "max": [max(numbers)]} if kind == "SCALAR" else {})})
    return len(document["accessors"]) - 1


def _numbers(document: dict[str, Any], accessor: int) -> list[float]:
    found = document["accessors"][accessor]
    view = document["bufferViews"][found["bufferView"]]
    data = base64.b64decode(document["buffers"][view["buffer"]]["uri"].split(",", 1)[1])
    count = found["count"] * {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[found["type"]]
    return list(struct.unpack_from(f"<{count}f", data, view.get("byteOffset", 0)))


def test_a_segment_is_sampled_on_its_hermite_curve() -> None:
    """Values 0 -> 4 over 2 s, leaving with slope 1 and arriving with slope 3: the curve is t + t²/2."""
    times, values = linear_samplers.curve([0.0, 2.0], [(9.0, 0.0), (0.0, 0.0), (1.0, 2.0),
                                                       (3.0, 6.0), (4.0, 8.0), (9.0, 9.0)])
    assert len(times) == 121 and times[0] == 0.0 and times[-1] == 2.0  # a key every 1/60 s
    assert [value for value, _double in values] == pytest.approx([t + t * t / 2 for t in times])
    assert [double for _value, double in values] == pytest.approx([2 * (t + t * t / 2) for t in times])


def test_cubicspline_physics_channels_convert_to_linear_keys_for_godot(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    document: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "KHR_animation_pointer"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": [{"name": "Ball", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "mass": 1.0}, "collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0]}], "buffers": [], "bufferViews": [], "accessors": [],
        "animations": [{"name": "Keys", "samplers": [], "channels": []}]}
    times = _accessor(document, [0.0, 0.5], "SCALAR")
    masses = _accessor(document, [0.0, 1.0, 0.0, 0.0, 3.0, 0.0], "SCALAR")  # eased from 1 to 3
    velocities = _accessor(document, [0.0] * 3 + [0.0, 0.0, 0.0] + [2.0, 0.0, 0.0]
                           + [2.0, 0.0, 0.0] + [1.0, 1.0, 1.0] + [0.0] * 3, "VEC3")  # slope 2 in x
    animation = document["animations"][0]
    half = math.sqrt(0.5)
    turns = _accessor(document, [0.0] * 4 + [0.0, 0.0, 0.0, 1.0] + [0.0] * 4
                      + [0.0] * 4 + [0.0, 0.0, half, half] + [0.0] * 4, "VEC4")  # a quarter turn about z
    for pointer, output in (("mass", masses), ("linearVelocity", velocities), ("inertiaOrientation", turns)):
        animation["samplers"].append({"input": times, "output": output, "interpolation": "CUBICSPLINE"})
        animation["channels"].append({"sampler": len(animation["samplers"]) - 1, "target": {
            "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": f"{MOTION}/{pointer}"}}}})
    source, out = tmp_path / "in.gltf", tmp_path / "out.gltf"
    source.write_text(json.dumps(document), encoding="utf-8")

    assert run("convert", str(source), "--to", "godot", "--out", str(out), "--verbose") == 0
    said = capsys.readouterr().out
    written = json.loads(out.read_text(encoding="utf-8"))
    [animation] = written["animations"]
    assert {sampler["interpolation"] for sampler in animation["samplers"]} == {"LINEAR"}
    mass, velocity, turn = (animation["samplers"][channel["sampler"]] for channel in animation["channels"])
    keyed = _numbers(written, mass["input"])
    assert len(keyed) == 31 and keyed == _numbers(written, velocity["input"])  # every 1/60 s over half a second
    assert _numbers(written, mass["output"])[::15] == pytest.approx([1.0, 2.0, 3.0])
    assert _numbers(written, velocity["output"])[::3] == pytest.approx([2.0 * time for time in keyed])  # x = 2t
    quaternions = _numbers(written, turn["output"])
    assert [math.dist(quaternions[at:at + 4], (0.0, 0.0, 0.0, 0.0)) for at in range(0, len(quaternions), 4)] \
        == pytest.approx([1.0] * 31)  # a rotation: of unit length at every key
    assert said.count("channels keyed CUBICSPLINE sampled into LINEAR keys") == 1  # once, naming all three
    assert f"{MOTION}/mass, {MOTION}/linearVelocity, {MOTION}/inertiaOrientation" in said
    assert "its importer rejects them" not in said  # Godot's loss report has nothing left to say
    assert run("validate", str(out)) == 0  # the new keys' buffers and accessors are sound
