"""A keyframe on the body's mass from the add-on's panel keys Blender's Rigid Body > Mass (the mass's home,
properties/homes): the export maps that F-curve from the table like the settings' own, byte for byte what
the whole translation writes, without a snapshot per key."""

from __future__ import annotations

import addon_loader
import bpy
import pytest
from animation_support import channels, same_file, table_and_whole_exports

KEYS = 30


@pytest.mark.parametrize("interpolation", ['LINEAR', 'BEZIER'])
def test_keys_on_blenders_mass_export_from_the_table(omi_addon, clean_scene, tmp_path, monkeypatch, interpolation):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 3.0))
    crate = bpy.context.active_object
    crate.name = "Crate"
    assert bpy.ops.omi.make_body(motion_type='DYNAMIC') == {'FINISHED'}
    assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
    addon_loader.module("operators.live_link").flush(bpy.context.scene)
    for key in range(KEYS):
        crate.rigid_body.mass = 1.0 + 0.5 * (key % 5)
        crate.rigid_body.keyframe_insert("mass", frame=1 + 2 * key)
    for point in addon_loader.module("io.blender.animation.curves").fcurves(crate)[0].keyframe_points:
        point.interpolation = interpolation
    bpy.context.scene.frame_set(1)
    table, whole, table_calls, whole_calls = table_and_whole_exports(tmp_path, monkeypatch)
    assert same_file(table, whole)
    [channel] = channels(table).values()
    values = channel["values"] if interpolation == 'LINEAR' else channel["values"][1::3]
    assert values == [1.0 + 0.5 * (key % 5) for key in range(KEYS)]
    assert table_calls <= 2  # the rest snapshot, nothing per key
    assert whole_calls > KEYS
