"""A file's static values and its animation of them both survive import and export (issue #27): a node with
mass 2 and a mass channel starting at 5 exports mass 2 beside the channel, not the first key's 5; and the
keys the import itself made on Blender's rigid bodies are not warned about at every later export."""

from __future__ import annotations

import bpy
import pytest
from animation_support import channels, with_channels
from export_support import BODY, export
from import_support import document, import_gltf, write_gltf

pytestmark = pytest.mark.usefixtures("omi_addon")
MASS = "/nodes/0/extensions/OMI_physics_body/motion/mass"
GRAVITY = "/nodes/0/extensions/OMI_physics_body/motion/gravityFactor"


def _file(tmp_path):
    """A crate of mass 2 (gravityFactor 1, the default) whose mass and gravityFactor are animated from other
    values (5 -> 7 and 0.5 -> 2)."""
    nodes = [{"name": "Crate", "translation": [0, 1, 0],
              "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}}]
    gltf = document(nodes, [{"type": "box", "box": {"size": [1, 2, 3]}}])
    fps = bpy.context.scene.render.fps
    times = [1 / fps, 11 / fps]
    gltf = with_channels(gltf, [(MASS, times, [5.0, 7.0], "SCALAR"), (GRAVITY, times, [0.5, 2.0], "SCALAR")])
    return write_gltf(tmp_path, "static", gltf)


def _motion(result) -> dict:
    return result.node("Crate")["extensions"][BODY]["motion"]


def _not_exported(result) -> list[str]:
    return [message for message in result.messages if "are not exported" in message]


@pytest.mark.parametrize("frame", [1, 6, 11])
def test_round_trip_keeps_the_static_values_and_the_channels(clean_scene, tmp_path, frame):
    imported = import_gltf(_file(tmp_path))
    assert not imported.failures
    bpy.context.scene.frame_set(frame)  # wherever the playhead is, the static value is the file's
    result = export(tmp_path, "out", export_extras=True)
    assert "omi_static_values" not in result.path.read_text()  # kept out of the extras
    motion = _motion(result)
    assert motion["mass"] == 2.0
    assert "gravityFactor" not in motion  # 1, the spec default
    found = {pointer.rsplit("/", 1)[-1]: channel["values"] for pointer, channel in channels(result).items()}
    assert found == {"mass": [5.0, 7.0], "gravityFactor": [0.5, 2.0]}
    assert _not_exported(result) == []


def test_the_static_value_is_dropped_with_the_animation(clean_scene, tmp_path):
    """Removing the animation makes the setting's own value the static one again (the user's)."""
    import_gltf(_file(tmp_path))
    crate = bpy.data.objects["Crate"]
    crate.animation_data_clear()
    crate.omi_physics.motion.mass = 3.0
    crate.omi_physics.motion.gravity_factor = 0.25
    result = export(tmp_path, "out")
    assert _motion(result)["mass"] == 3.0
    assert _motion(result)["gravityFactor"] == 0.25
    assert channels(result) == {}


@pytest.mark.parametrize("reopened", [False, True])
def test_exports_after_import_name_no_keys_the_import_made(clean_scene, tmp_path, reopened):
    """Import, (save and open the .blend,) Sync to Blender, export twice: no warning about the import's own
    keys (the settings' mass is Blender's rigid body's), and the static values still the file's."""
    imported = import_gltf(_file(tmp_path))
    assert not imported.failures
    if reopened:
        bpy.ops.wm.save_as_mainfile(filepath=str(tmp_path / "imported.blend"))
        bpy.ops.wm.open_mainfile(filepath=str(tmp_path / "imported.blend"))
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    for name in ("first", "second"):
        result = export(tmp_path, name)
        assert _not_exported(result) == [], result.messages
        assert len(channels(result)) == 2
        assert _motion(result)["mass"] == 2.0

