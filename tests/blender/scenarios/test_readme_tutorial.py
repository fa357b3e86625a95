"""The README's one-minute tutorial, step by step with the buttons it names: a crate and a floor tagged in
the sidebar, played at once, exported for Godot and imported back. The labels it quotes are the add-on's own."""

from __future__ import annotations

import bpy
import import_support
import omi_core.dialects.registry
import pytest
import schema_check
import tutorial_scene
from cli_support import REPO_ROOT

FRAMES = 48  # two seconds: the crate falls 2 m in 0.64 s and settles


def _tutorial() -> str:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## One minute")
    return text[start:text.index("\n## ", start + 4)]


def _play(scene: bpy.types.Scene) -> None:
    """Press play, frame by frame: the first frame builds what is tagged (the rigid body world too)."""
    scene.frame_start, scene.frame_end = 1, FRAMES
    scene.frame_set(1)
    scene.rigidbody_world.point_cache.frame_end = FRAMES
    for frame in range(2, FRAMES + 1):
        scene.frame_set(frame)


def test_the_readme_quotes_the_add_ons_labels(omi):
    text = " ".join(_tutorial().split())
    shapes = {item[0]: item[1] for item in omi("properties.shape").SHAPE_TYPE_ITEMS}
    motions = {item[0]: item[1] for item in omi("properties.body").MOTION_TYPE_ITEMS}
    targets = {target.name: target.label for target in omi_core.dialects.registry.targets()}
    assert f"*Fit Collider > {shapes['BOX']}*" in text
    assert f"*Body > {motions['DYNAMIC']}*" in text and f"*Body > {motions['STATIC']}*" in text
    assert f"*Target* to *{targets['GODOT']}*" in text


def test_a_crate_on_a_floor_into_godot_and_back(omi_addon, tmp_path):
    crate, _floor = tutorial_scene.build()
    scene = bpy.context.scene
    _play(scene)  # no Sync: what is tagged is what Blender plays
    rest = crate.matrix_world.translation.z
    assert rest == pytest.approx(1.0, abs=0.03)  # the 2 m crate rests on the floor's face

    scene.frame_set(1)
    scene.omi_physics.export_dialect = 'GODOT'
    path = tmp_path / "crate.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB') == {'FINISHED'}
    bodies = {node["name"]: node["extensions"]["OMI_physics_body"] for node in schema_check.load_gltf(path)["nodes"]
              if "OMI_physics_body" in node.get("extensions", {})}  # the godot target's mesh children carry none
    assert bodies["Crate"]["motion"]["type"] == "dynamic"  # Godot builds a RigidBody3D from it
    assert bodies["Floor"]["motion"]["type"] == "static"

    import_support.import_gltf(path)
    scene = bpy.context.scene
    back = {obj.name: obj for obj in scene.objects}
    assert back["Crate"].omi_physics.motion.motion_type == 'DYNAMIC' and back["Crate"].rigid_body.type == 'ACTIVE'
    assert back["Floor"].rigid_body.type == 'PASSIVE'
    _play(scene)
    assert back["Crate"].matrix_world.translation.z == pytest.approx(rest, abs=0.03)
