"""An imported channel's keys cost no translation each (issue #20 item 5, issue #27): the values that follow a
channel are an affine map of it, found once per channel (`io/omi/animation/linear_keys`), and the keys made
so are exactly the keys the whole translation per key makes, on the settings and on Blender's rigid bodies
and constraints, for scalars and vectors, axes that swap and flip, one-sided ranges and Bézier tangents. (A key
outside its value's bounds would be translated whole; the import now refuses such channels with a message,
io/omi/checks/animation_keys.)"""

from __future__ import annotations

import json
from typing import Any

import addon_loader
import bpy
import import_support as support
import omi_core.animation.linear_keys
import omi_core.read.reader
import pytest
from animation_support import with_channels

pytestmark = pytest.mark.usefixtures("omi_addon")
KEYS = 60


def _file(tmp_path, interpolation: str = "LINEAR"):
    nodes = [
        {"name": "Crate", "translation": [0, 1, 0], "extensions": {support.BODY: {
            "motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}},
        {"name": "Lid", "translation": [0, 2, 0], "extensions": {support.BODY: {
            "motion": {"type": "dynamic"}, "collider": {"shape": 1}}}},
        {"name": "Hinge", "translation": [0, 1.5, 0], "extensions": {support.JOINT: {"joint": 0,
                                                                                     "connectedNode": 1}}},
    ]
    joints = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                          {"angularAxes": [2], "min": -0.5, "max": 1.0}],
               "drives": [{"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 2.0}]}]
    box = {"type": "box", "box": {"size": [1, 2, 3]}}
    gltf = support.document(nodes, [box, dict(box)], roots=[0, 1], joints=joints)
    gltf["nodes"][0]["children"] = [2]
    gltf["nodes"][2]["translation"] = [0, 1, 0]  # on the lid: the joint starts at rest
    fps = bpy.context.scene.render.fps
    times = [(1 + 2 * k) / fps for k in range(KEYS)]
    scalar = [1.0 + 0.25 * (k % 7) for k in range(KEYS)]
    vector = [c for k in range(KEYS) for c in (0.5 * k, -0.25 * k, 1.0 + 0.1 * k)]
    joint = "/extensions/OMI_physics_joint/physicsJoints/0"
    channels = [
        ("/nodes/0/extensions/OMI_physics_body/motion/mass", times, scalar, "SCALAR"),
        ("/nodes/0/extensions/OMI_physics_body/motion/linearVelocity", times, vector, "VEC3"),
        ("/extensions/OMI_physics_shape/shapes/1/box/size", times, [abs(c) + 0.5 for c in vector], "VEC3"),
        (f"{joint}/drives/0/velocityTarget", times, [v - 3.0 for v in scalar], "SCALAR"),
        (f"{joint}/drives/0/damping", times, [v + 1.0 for v in scalar], "SCALAR"),  # from the tables
        (f"{joint}/limits/1/min", times, [-0.1 * (k % 5) for k in range(KEYS)], "SCALAR"),
    ]
    if interpolation == "CUBICSPLINE":  # in-tangent, value, out-tangent per key: the outputs triple
        channels = [(pointer, times, _cubic(values, kind), kind) for pointer, times, values, kind in channels]
    gltf = with_channels(gltf, channels)
    for sampler in gltf["animations"][0]["samplers"]:
        sampler["interpolation"] = interpolation
    return support.write_gltf(tmp_path, f"keys_{interpolation}", gltf)


def _cubic(values: list[float], kind: str) -> list[float]:
    width = 3 if kind == "VEC3" else 1
    rows = [values[k:k + width] for k in range(0, len(values), width)]
    return [c for k, row in enumerate(rows) for c in ([0.5 * (k % 3)] * width + row + [-0.25 * (k % 2)] * width)]


def _keys() -> dict:
    """Every F-curve of every object (and the scene): its keyframes' points, handles and interpolation."""
    found = {}
    curves = addon_loader.module("io.blender.animation.curves")
    for id_data in [*bpy.data.objects, bpy.context.scene]:
        for curve in curves.fcurves(id_data):
            found[(id_data.name, curve.data_path, curve.array_index)] = [
                (tuple(p.co), tuple(p.handle_left), tuple(p.handle_right), p.interpolation)
                for p in curve.keyframe_points]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("interpolation", ["LINEAR", "CUBICSPLINE"])
def test_keys_are_the_keys_of_the_whole_translation(tmp_path, monkeypatch, interpolation):
    path = _file(tmp_path, interpolation)
    reader = omi_core.read.reader
    reads: list[int] = []
    real_read = reader.read_document

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(reader, "read_document", counted)
    support.import_gltf(path)
    fast, fast_reads = _keys(), len(reads)
    linear_keys = omi_core.animation.linear_keys
    monkeypatch.setattr(linear_keys, "fit", lambda *a, **k: None)  # every key translated whole, as before
    monkeypatch.setattr(addon_loader.module("io.blender.animation.imports.table"), "table_map", lambda *a, **k: None)
    reads.clear()
    support.import_gltf(path)
    whole = _keys()
    assert fast == whole
    assert {path for _name, path, _index in fast} >= {
        "omi_physics.motion.mass", "omi_physics.motion.linear_velocity", "omi_physics.collider.shape.size",
        "omi_physics.joint.drives[0].velocity_target", "omi_physics.joint.drives[0].damping",
        "omi_physics.joint.limits[1].max_angular",
        "rigid_body_constraint.limit_ang_y_lower"}
    assert not any(path == "rigid_body.mass" for _name, path, _index in fast)  # the settings' mass writes it
    # the whole translation reads the document at every key of every channel but the joint's (moved_values)
    assert len(reads) > 3 * KEYS
    assert fast_reads < 20 * 6  # a few reads per channel (rest, nudges, checks, its follow), not per key


def test_the_settings_keep_the_files_own_value_under_their_keys(tmp_path):
    imported = support.import_gltf(_file(tmp_path))
    assert imported.obj("Crate").omi_physics.motion.mass == 2.0  # keying it no longer leaves the last key's




def _table_file(tmp_path, interpolation: str):
    """A crate whose mass, linear velocity, material restitution, drive damping and (shared) box size are keyed:
    values a setting holds one-to-one (the Object Model table's `Held`): scalars, axis-swapped vectors, a
    library item, a drive, a shape two bodies use."""
    nodes = [{"name": "Crate", "translation": [0, 1, 0], "extensions": {support.BODY: {
        "motion": {"type": "dynamic", "mass": 2.0, "linearVelocity": [0.5, 0, 0]},
        "collider": {"shape": 0, "physicsMaterial": 0}}}},
        {"name": "Lid", "translation": [0, 2, 0], "extensions": {support.BODY: {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Hinge", "translation": [0, 1.5, 0], "extensions": {support.JOINT: {"joint": 0, "connectedNode": 1}}}]
    joints = [{"drives": [{"type": "angular", "mode": "force", "axis": 2, "stiffness": 1.0, "damping": 2.0}]}]
    gltf = support.document(nodes, [{"type": "box", "box": {"size": [1, 2, 3]}}], roots=[0, 1, 2], joints=joints,
                            materials=[{"restitution": 0.25}])
    fps = bpy.context.scene.render.fps
    times = [(1 + 2 * k) / fps for k in range(KEYS)]
    channels = [
        ("/nodes/0/extensions/OMI_physics_body/motion/mass", times, [1.0 + 0.25 * (k % 7) for k in range(KEYS)],
         "SCALAR"),
        ("/nodes/0/extensions/OMI_physics_body/motion/linearVelocity", times,
         [c for k in range(KEYS) for c in (0.5 * k, -0.25 * k, 1.0 + 0.1 * k)], "VEC3"),
        ("/extensions/OMI_physics_body/physicsMaterials/0/restitution", times,
         [0.3 + 0.05 * (k % 9) for k in range(KEYS)], "SCALAR"),
        ("/extensions/OMI_physics_joint/physicsJoints/0/drives/0/damping", times,
         [2.0 + 0.5 * (k % 4) for k in range(KEYS)], "SCALAR"),
        ("/extensions/OMI_physics_shape/shapes/0/box/size", times,  # both bodies' collider: the keys on both
         [c for k in range(KEYS) for c in (1.0 + 0.1 * k, 2.0, 3.0 - 0.02 * k)], "VEC3"),
    ]
    if interpolation == "CUBICSPLINE":
        channels = [(pointer, times, _cubic(values, kind), kind) for pointer, times, values, kind in channels]
    gltf = with_channels(gltf, channels)
    for sampler in gltf["animations"][0]["samplers"]:
        sampler["interpolation"] = interpolation
    return support.write_gltf(tmp_path, f"table_{interpolation}", gltf)


@pytest.mark.parametrize("interpolation", ["LINEAR", "CUBICSPLINE"])
def test_held_values_are_keyed_from_the_table_without_a_document_read(tmp_path, monkeypatch, interpolation):
    path = _table_file(tmp_path, interpolation)
    reader = omi_core.read.reader
    reads: list[int] = []
    real_read = reader.read_document

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(reader, "read_document", counted)
    support.import_gltf(path, rigid_bodies=False)
    table, table_reads = _keys(), len(reads)
    monkeypatch.setattr(addon_loader.module("io.blender.animation.imports.table"), "table_map", lambda *a, **k: None)
    reads.clear()
    support.import_gltf(path, rigid_bodies=False)
    assert _keys() == table  # the keys the nudged translation finds
    assert {path for _name, path, _index in table} == {
        "omi_physics.motion.mass", "omi_physics.motion.linear_velocity", "omi_physics.physics_materials[0].restitution",
        "omi_physics.joint.drives[0].damping", "omi_physics.collider.shape.size"}
    assert {name for name, path, _index in table if path == "omi_physics.collider.shape.size"} == {"Crate", "Lid"}
    assert len(reads) >= table_reads + 5 * 3  # rest, nudged and checks per channel
    reads.clear()
    support.import_gltf(support.write_gltf(tmp_path, "still", {
        key: value for key, value in json.loads(path.read_text()).items() if key != "animations"}), rigid_bodies=False)
    assert table_reads == len(reads) + 1  # the still import's, and the channels' one read of the whole file
