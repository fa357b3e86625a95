"""OMI_physics_gravity through Blender: the spec's examples import and export with the same gravity (canonical
form) and validate; the file's world gravity becomes the scene's gravity (glTF -> Blender axes) and back; a
volume's settings are written where the spec allows them and left out, said so, where it does not."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import export_support
import import_support
import pytest
import schema_check

GRAVITY = "OMI_physics_gravity"
EXAMPLES = sorted(str(path.relative_to(schema_check.SPEC_DIR))
                  for path in (schema_check.SPEC_DIR / GRAVITY / "examples").glob("*/*.gltf"))


def _gravity_meaning(canonical, gltf: dict) -> dict:
    """The canonical form's gravity: the world gravity and each node's volume (with its trigger's shape)."""
    found = canonical.canonical_physics(gltf)
    volumes = {path: entry["gravity"] for path, entry in found["nodes"].items() if "gravity" in entry}
    return {"world": found.get("gravity"), "volumes": volumes}


@pytest.mark.parametrize("name", EXAMPLES)
def test_spec_examples_keep_their_gravity_through_blender(spec_dir, canonical, tmp_path, name):
    source = json.loads((Path(spec_dir) / name).read_text(encoding="utf-8"))
    import_support.import_gltf(Path(spec_dir) / name)
    exported = export_support.export(tmp_path, "scene", "GLTF_SEPARATE")
    assert schema_check.omi_schema_errors(exported.gltf) == []
    assert _gravity_meaning(canonical, exported.gltf) == _gravity_meaning(canonical, source)
    assert _gravity_meaning(canonical, source)["volumes"]  # every example has a volume


def test_world_gravity_sets_the_scene_gravity(spec_dir, omi_addon, tmp_path):
    earth = Path(spec_dir) / GRAVITY / "examples/earth_millionth_scale/earth_millionth_scale.gltf"
    imported = import_support.import_gltf(earth)  # into a new scene: Blender's -9.81 Z
    scene = bpy.context.scene
    assert tuple(scene.gravity) == (0.0, 0.0, 0.0) and scene.use_gravity  # the file's 0 m/s^2
    notes = [text for _level, text in imported.messages]
    assert any("sets the scene's gravity to (0, 0, 0)" in text for text in notes), notes
    named = [text for text in imported.notes if "gravity volumes (" in text]  # Blender simulates none of them
    assert len(named) == 1 and "pull nothing" in named[0], imported.notes
    exported = export_support.export(tmp_path, "scene", "GLTF_SEPARATE")
    assert exported.gltf["extensions"][GRAVITY] == {"gravity": 0.0}


def test_world_gravity_axes_both_ways(omi_addon, tmp_path):
    """glTF +X at 3 m/s^2 is Blender +X; glTF -Z is Blender +Y."""
    document = {"asset": {"version": "2.0"}, "extensionsUsed": [GRAVITY], "scene": 0,
                "scenes": [{"nodes": [0]}], "nodes": [{"name": "Empty"}],
                "extensions": {GRAVITY: {"gravity": 3.0, "direction": [0.0, 0.0, -1.0]}}}
    path = tmp_path / "world.gltf"
    path.write_text(json.dumps(document), encoding="utf-8")
    import_support.import_gltf(path)
    assert tuple(round(value, 6) for value in bpy.context.scene.gravity) == (0.0, 3.0, 0.0)
    (tmp_path / "out").mkdir()  # Blender 4.2's exporter makes no folder
    exported = export_support.export(tmp_path / "out", "scene", "GLTF_SEPARATE")
    written = exported.gltf["extensions"][GRAVITY]
    assert written["gravity"] == pytest.approx(3.0) and written["direction"] == pytest.approx([0.0, 0.0, -1.0])


def test_default_scene_gravity_is_not_written_and_gravity_off_is_zero(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    scene.gravity, scene.use_gravity = (0.0, 0.0, -9.81), True
    bpy.ops.mesh.primitive_cube_add()
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()  # Blender 4.2's exporter makes no folder
    first = export_support.export(tmp_path / "a", "scene", "GLTF_SEPARATE")
    assert GRAVITY not in first.gltf.get("extensions", {})
    scene.use_gravity = False
    second = export_support.export(tmp_path / "b", "scene", "GLTF_SEPARATE")
    assert second.gltf["extensions"][GRAVITY] == {"gravity": 0.0}
    scene.use_gravity = True


def test_a_volume_on_a_collider_is_left_out_and_named(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.mesh.primitive_cube_add()
    cube = bpy.context.active_object
    settings = cube.omi_physics
    settings.use_collider, settings.use_gravity = True, True
    settings.gravity.gravity_type = 'POINT'
    exported = export_support.export(tmp_path, "scene", "GLTF_SEPARATE")
    assert all(GRAVITY not in node.get("extensions", {}) for node in exported.gltf["nodes"])
    assert any("not a trigger" in message for message in exported.messages), exported.messages


def test_a_khr_export_names_the_gravity_it_drops(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    scene.gravity = (0.0, 0.0, -3.0)
    bpy.ops.object.empty_add()
    pad = bpy.context.active_object
    pad.omi_physics.use_trigger = pad.omi_physics.use_gravity = True
    scene.omi_physics.export_dialect = 'KHR'
    try:
        exported = export_support.export(tmp_path, "scene", "GLTF_SEPARATE")
    finally:
        scene.omi_physics.export_dialect = 'OMI'
    assert GRAVITY not in json.dumps(exported.gltf)
    assert "KHR_physics_rigid_bodies" in exported.gltf["extensionsUsed"]
    lost = [message for message in exported.messages if "KHR cannot hold" in message]
    assert any("world gravity" in message for message in lost) and any("directional" in message for message in lost)
