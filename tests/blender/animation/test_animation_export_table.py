"""Export maps keyed settings to their pointers through the Object Model table (issue #20 item 5): an F-curve
on a setting that holds its value one-to-one (a body's motion values, a library material's) costs no
derive-and-write of the object's physics, neither to find its pointer nor per key, and the file is the one
the whole translation per key writes, byte for byte, for every interpolation."""

from __future__ import annotations

import addon_loader
import bpy
import pytest
from animation_support import (
    animated_scene,
    channels,
    counted_snapshots,
    same_file,
    set_interpolation,
    table_and_whole_exports,
    whole_translation,
    with_channels,
)
from export_support import empty, export, tag_motion, tag_shape
from import_support import BODY, document, import_gltf, write_gltf

pytestmark = pytest.mark.usefixtures("omi_addon")
KEYS = 40


@pytest.mark.parametrize("interpolation", ['LINEAR', 'BEZIER', 'CONSTANT'])
def test_the_file_is_the_whole_translations_byte_for_byte(clean_scene, tmp_path, monkeypatch, interpolation):
    animated_scene()  # every Object Model value keyed: motion, materials, drives by the table, the rest translated
    set_interpolation(interpolation)
    calls = counted_snapshots(monkeypatch)
    direct = addon_loader.module("io.blender.animation.exports.direct")
    mapped: list[str] = []
    real_map = direct.map_channel

    def recorded(channel, rest):
        found = real_map(channel, rest)
        if found is not None:
            mapped.append(channel.fcurve.data_path)
        return found

    monkeypatch.setattr(direct, "map_channel", recorded)
    table = export(tmp_path, "table")
    assert {path.rsplit(".", 1)[0] for path in mapped} == {
        "omi_physics.motion", "omi_physics.physics_materials[0]", "omi_physics.joint.drives[0]"}, mapped
    assert {path for path in mapped if "drives" in path} == {
        f"omi_physics.joint.drives[0].{name}" for name in ("max_force", "stiffness", "damping")}
    table_calls = len(calls)
    calls.clear()
    whole_translation(monkeypatch)
    whole = export(tmp_path, "whole")
    assert same_file(table, whole)
    assert len(channels(table)) > 20
    assert table_calls < len(calls) - 20  # the motion values and materials took the table's way


def _keyed_body(interpolation: str) -> None:
    """A body whose mass, centre of mass and gravity factor are keyed at KEYS frames, on a keyed material."""
    body = empty("Body", location=(0, 0, 2))
    tag_motion(body, 'DYNAMIC')
    tag_shape(body, "collider", 'BOX')
    library = bpy.context.scene.omi_physics.physics_materials
    entry = library.add()
    entry.name = "Keyed"
    body.omi_physics.collider.physics_material = "Keyed"
    motion = body.omi_physics.motion
    motion.use_center_of_mass = True
    for frame in range(1, KEYS + 1):
        motion.mass = 1.0 + 0.5 * (frame % 7)
        motion.center_of_mass = (0.1 * frame, -0.05 * frame, 0.25)
        motion.gravity_factor = 0.1 * (frame % 3)
        entry.restitution = 0.02 * (frame % 11)
        for name in ("mass", "center_of_mass", "gravity_factor"):
            body.keyframe_insert(f"omi_physics.motion.{name}", frame=frame)
        bpy.context.scene.keyframe_insert(entry.path_from_id("restitution"), frame=frame)
    set_interpolation(interpolation)


@pytest.mark.parametrize("interpolation", ['LINEAR', 'BEZIER', 'CONSTANT'])
def test_keyed_motion_and_materials_cost_no_translation_per_key(clean_scene, tmp_path, monkeypatch, interpolation):
    _keyed_body(interpolation)
    table, whole, table_calls, whole_calls = table_and_whole_exports(tmp_path, monkeypatch)
    assert same_file(table, whole)
    found = {pointer.rsplit("/", 1)[-1]: channel for pointer, channel in channels(table).items()}
    assert set(found) == {"mass", "centerOfMass", "gravityFactor", "restitution"}
    assert len(found["mass"]["values"]) == KEYS * (3 if interpolation == 'BEZIER' else 1)
    assert table_calls <= 2  # the rest snapshot (and nothing per F-curve or per key)
    assert whole_calls > 3 * KEYS  # the whole translation snapshots every key of every value


def test_keys_on_a_setting_that_holds_nothing_are_named_as_before(clean_scene, tmp_path, monkeypatch):
    """A centre of mass left to the engine (use_center_of_mass off): its keys feed no value, in both ways."""
    _keyed_body('LINEAR')
    bpy.data.objects["Body"].omi_physics.motion.use_center_of_mass = False
    table = export(tmp_path, "table")
    whole_translation(monkeypatch)
    whole = export(tmp_path, "whole")
    assert same_file(table, whole)
    said = [[message for message in result.messages if message.startswith("OMI physics")] for result in (table, whole)]
    assert said[0] == said[1]
    assert sum("center_of_mass" in message and "not exported" in message for message in said[0]) == 3
    assert {pointer.rsplit("/", 1)[-1] for pointer in channels(table)} == {"mass", "gravityFactor", "restitution"}


def test_an_imported_mass_channel_exports_from_the_table(clean_scene, tmp_path, monkeypatch):
    """The import keys the mass once, on the settings, whose mass is Blender's rigid body's (properties/homes):
    Blender's Rigid Body > Mass gets no F-curve of its own; the export samples it from the table, as the whole
    translation would."""
    nodes = [{"name": "Crate", "translation": [0, 1, 0],
              "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}}]
    fps = bpy.context.scene.render.fps
    gltf = with_channels(document(nodes, [{"type": "box", "box": {"size": [1, 2, 3]}}]), [
        ("/nodes/0/extensions/OMI_physics_body/motion/mass", [(1 + k) / fps for k in range(KEYS)],
         [1.0 + 0.5 * (k % 5) for k in range(KEYS)], "SCALAR")])
    import_gltf(write_gltf(tmp_path, "mass", gltf))
    curves = addon_loader.module("io.blender.animation.curves")
    assert {curve.data_path for curve in curves.fcurves(bpy.data.objects["Crate"])} == {"omi_physics.motion.mass"}
    table, whole, table_calls, whole_calls = table_and_whole_exports(tmp_path, monkeypatch)
    assert same_file(table, whole)
    [channel] = channels(table).values()
    assert channel["values"] == [1.0 + 0.5 * (k % 5) for k in range(KEYS)]
    assert table_calls <= 2  # the rest snapshot (and nothing per F-curve or per key)
    assert whole_calls > KEYS
