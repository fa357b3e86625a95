"""A dynamic body whose node is keyed (translation, rotation) beside a physics channel exports the file's keys,
not Blender's simulation of them (issue #27: y = 0.5 at t = 1 where the file said 5, a 90 degree turn lost).
The rigid-body world is off while the exporter samples, and on again after."""

from __future__ import annotations

import base64
import math
import struct

import bpy
import export_support
import import_support as support
import pytest
from export_support import BODY, SHAPE

pytestmark = pytest.mark.usefixtures("omi_addon")


def _floats(values: list[float]) -> bytes:
    return b"".join(struct.pack("<f", value) for value in values)


def keyed_crate() -> dict:
    """Crate (dynamic) keyed from the origin to y = 5 with a 90 degree turn about Y in 1 s, its mass 2 -> 6;
    a floor 3 m below that the simulation would drop it on."""
    half = math.sqrt(0.5)
    parts = [_floats([0.0, 1.0]), _floats([0, 0, 0, 0, 5, 0]), _floats([0, 0, 0, 1, 0, half, 0, half]),
             _floats([2.0, 6.0])]
    data = b"".join(parts)
    offsets = [sum(len(part) for part in parts[:index]) for index in range(len(parts))]
    kinds = ["SCALAR", "VEC3", "VEC4", "SCALAR"]
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "extensionsUsed": [SHAPE, BODY, "KHR_animation_pointer"],
        "extensions": {SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}},
                                          {"type": "box", "box": {"size": [20, 1, 20]}}]}},
        "nodes": [{"name": "Crate", "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2},
                                                          "collider": {"shape": 0}}}},
                  {"name": "Floor", "translation": [0, -3, 0], "extensions": {BODY: {"collider": {"shape": 1}}}}],
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")}],
        "bufferViews": [{"buffer": 0, "byteOffset": offset, "byteLength": len(part)}
                        for offset, part in zip(offsets, parts, strict=True)],
        "accessors": [{"bufferView": index, "componentType": 5126, "count": 2, "type": kind,
                       **({"min": [0], "max": [1]} if index == 0 else {})} for index, kind in enumerate(kinds)],
        "animations": [{"name": "Move", "samplers": [{"input": 0, "output": output} for output in (1, 2, 3)],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                                     {"sampler": 1, "target": {"node": 0, "path": "rotation"}},
                                     {"sampler": 2, "target": {"path": "pointer", "extensions": {
                                         "KHR_animation_pointer": {
                                             "pointer": f"/nodes/0/extensions/{BODY}/motion/mass"}}}}]}],
    }


def _last_key(exported: export_support.Exported, path: str) -> list[float]:
    gltf = exported.gltf
    animation = gltf["animations"][0]
    channel = next(channel for channel in animation["channels"] if channel["target"].get("path") == path)
    accessor = gltf["accessors"][animation["samplers"][channel["sampler"]]["output"]]
    view = gltf["bufferViews"][accessor["bufferView"]]
    data = (exported.path.parent / gltf["buffers"][view["buffer"]]["uri"]).read_bytes()
    width = {"VEC3": 3, "VEC4": 4}[accessor["type"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0) + 4 * width * (accessor["count"] - 1)
    return list(struct.unpack_from(f"<{width}f", data, start))


def test_keyed_transforms_of_a_dynamic_body_export_as_keyed(tmp_path):
    imported = support.import_gltf(support.write_gltf(tmp_path, "keyed", keyed_crate()))
    assert imported.result == {'FINISHED'}
    world = bpy.context.scene.rigidbody_world
    assert world is not None and world.enabled and imported.obj("Crate").rigid_body.type == 'ACTIVE'
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()  # Blender 4.2's exporter makes no folder
    first = export_support.export(tmp_path / "one", "keyed")
    assert _last_key(first, "translation") == pytest.approx([0.0, 5.0, 0.0], abs=1e-4)
    assert _last_key(first, "rotation") == pytest.approx([0.0, math.sqrt(0.5), 0.0, math.sqrt(0.5)], abs=1e-4)
    assert world.enabled  # switched on again after the export
    second = export_support.export(tmp_path / "two", "keyed")
    assert second.gltf["animations"] == first.gltf["animations"]
