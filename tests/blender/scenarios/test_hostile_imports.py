"""The third hostile round's import cases: what a file must not be able to do to the objects Blender makes
(set the add-on's own markers through extras), run through the real glTF importer and exporter."""

from __future__ import annotations

import base64
import json
import struct

import bpy
import export_support
import import_support
import pytest

MARKERS = {"omi_generated": "start motion", "omi_shape_mesh": 1, "omi_owner": "x"}


def test_extras_cannot_set_the_add_ons_markers(tmp_path, clean_scene, omi_addon):
    gltf = import_support.document([{"name": "Crate", "mesh": 0, "extras": {**MARKERS, "lod": 2, "author": "me"},
                                     "extensions": {import_support.BODY: {"motion": {"type": "dynamic"}}}},
                                    {"name": "Prop", "mesh": 0, "extras": {"omi_shape_mesh": True}}], meshes=True)
    gltf["meshes"][0]["extras"] = {"omi_generated": 1}
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "markers", gltf))
    crate, prop = imported.obj("Crate"), imported.obj("Prop")
    assert [key for key in MARKERS if key in crate] == []
    assert crate["lod"] == 2 and crate["author"] == "me"  # the file's other extras stay
    assert "omi_shape_mesh" not in prop and "omi_generated" not in crate.data
    said = [text for text in imported.warnings if "the add-on's own markers" in text]
    assert len(said) == 1 and "5 extras key(s)" in said[0] and "/nodes/0/extras/omi_generated" in said[0], \
        imported.warnings
    export_support.select(crate, prop)
    exported = export_support.export(tmp_path, "again", use_selection=True)
    nodes = {node["name"]: node for node in exported.gltf["nodes"]}
    assert "mesh" in nodes["Crate"] and "mesh" in nodes["Prop"], json.dumps(exported.gltf["nodes"])
    assert "omi_generated" not in json.dumps(exported.gltf)
    assert bpy.data.objects["Crate"].rigid_body is not None


def _godot_layout(**child: object) -> dict:
    """A dynamic body 'Ball' whose render mesh sits on a child of the same name (the `godot` target's layout)."""
    return import_support.document(
        [{"name": "Ball", "children": [1], "extensions": {import_support.BODY: {"motion": {"type": "dynamic"},
                                                                                 "collider": {"shape": 0}}}},
         {"name": "Ball", "mesh": 0, **child}],
        [{"type": "sphere", "sphere": {"radius": 0.5}}], meshes=True)


def _skinned(gltf: dict) -> dict:
    """Node 2, a skinned copy of the mesh, whose skin's joint is the mesh child (node 1)."""
    gltf["nodes"].append({"name": "Skinned", "mesh": 0, "skin": 0})
    gltf["scenes"][0]["nodes"].append(2)
    gltf["skins"] = [{"joints": [1]}]
    return gltf


def _pointer_animated(gltf: dict) -> dict:
    """The mesh child's translation keyed through KHR_animation_pointer."""
    data = struct.pack("<2f", 0, 1) + struct.pack("<6f", 0, 0, 0, 0, 1, 0)
    gltf["buffers"].append({"byteLength": len(data),
                            "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()})
    gltf["bufferViews"] += [{"buffer": 1, "byteLength": 8}, {"buffer": 1, "byteOffset": 8, "byteLength": 24}]
    gltf["accessors"] += [{"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0],
                           "max": [1]}, {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"}]
    gltf["animations"] = [{"samplers": [{"input": 2, "output": 3}], "channels": [{"sampler": 0, "target": {
        "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/1/translation"}}}}]}]
    gltf["extensionsUsed"].append("KHR_animation_pointer")
    return gltf


@pytest.mark.parametrize("case", ["plain", "extras", "skin joint", "pointer animated"])
def test_the_godot_fold_folds_only_its_own_layout_and_never_fails_an_import(tmp_path, clean_scene, omi_addon, case):
    gltf = _godot_layout(extras={"lod": 2, "author": "me"}) if case == "extras" else _godot_layout()
    if case == "skin joint":
        gltf = _skinned(gltf)
    elif case == "pointer animated":
        gltf = _pointer_animated(gltf)
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "godot", gltf))
    assert imported.result == {'FINISHED'} and imported.failures == [], imported.warnings
    balls = sorted((obj for obj in bpy.data.objects if obj.name.startswith("Ball") and not obj.get("omi_generated")),
                   key=lambda obj: obj.name)
    ball = balls[0] if case == "plain" else imported.obj("Ball")
    if case == "plain":  # the layout folded back: one object holding the mesh and the body
        assert len(balls) == 1 and ball.type == 'MESH' and ball.omi_physics.use_motion
    else:  # left as the file has it: the body and a child holding the mesh
        children = [obj for obj in balls if obj.parent == ball] or [obj for obj in bpy.data.objects
                                                                     if obj.parent_bone or obj.type == 'ARMATURE']
        assert ball.omi_physics.use_motion and children, [(obj.name, obj.type) for obj in bpy.data.objects]
    if case == "extras":
        child = next(obj for obj in balls if obj.parent == ball)
        assert child["lod"] == 2 and child["author"] == "me"


def test_a_skin_joint_that_is_no_node_is_named_and_nothing_fails(tmp_path, clean_scene, omi_addon):
    gltf = import_support.document([{"name": "Crate", "mesh": 0}, {"name": "Bone"}], meshes=True)
    gltf["skins"] = [{"joints": [1, 99]}]
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "skin", gltf))
    assert imported.result == {'FINISHED'} and imported.failures == []
    said = [text for text in imported.warnings if "/skins/0/joints/1" in text]
    assert len(said) == 1 and "joint 99 is not a node index" in said[0], imported.warnings


def test_a_priority_beyond_32_bits_keeps_the_volume_and_says_so(tmp_path, clean_scene, omi_addon):
    from cli_support import REPO_ROOT
    from hostile.round_three import gravity_volume

    good = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))
    path = tmp_path / "priority.gltf"
    path.write_text(json.dumps(gravity_volume(good, 2 ** 31, strength=1e308)), encoding="utf-8")
    imported = import_support.import_gltf(path)
    assert not [text for text in imported.warnings if "settings not written" in text], imported.warnings
    assert [text for text in imported.warnings if "priority 2147483648 is beyond a 32-bit integer" in text]
    assert [text for text in imported.warnings if "gravity 1e+308 is beyond float32" in text]
    volume = imported.obj("Zone").omi_physics.gravity
    assert volume.priority == 2 ** 31 - 1 and volume.strength > 3e38


def test_nan_inverse_bind_matrices_are_named_at_import(tmp_path, clean_scene, omi_addon):
    from cli_support import REPO_ROOT
    from hostile.round_three import nan_bind_matrices

    good = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))
    path = tmp_path / "nan.gltf"
    path.write_text(json.dumps(nan_bind_matrices(good)), encoding="utf-8")
    imported = import_support.import_gltf(path)
    assert imported.result == {'FINISHED'} and imported.failures == [], imported.warnings
    said = [text for text in imported.warnings if "/skins/0/inverseBindMatrices" in text]
    assert len(said) == 1 and "hold NaN or infinity" in said[0], imported.warnings


def test_a_kinematic_velocity_beyond_float32_makes_no_nan_drivers(tmp_path, clean_scene, omi_addon):
    gltf = import_support.document([{"name": "Belt", "mesh": 0, "extensions": {import_support.BODY: {
        "motion": {"type": "kinematic", "linearVelocity": [1e39, 0, 0]}, "collider": {"shape": 0}}}}],
        [{"type": "box", "box": {"size": [1, 1, 1]}}], meshes=True)
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "belt", gltf))
    belt = imported.obj("Belt")
    expressions = [fcurve.driver.expression for fcurve in (belt.animation_data.drivers if belt.animation_data else [])]
    assert not [text for text in expressions if "nan" in text or "inf" in text], expressions
    said = [text for text in imported.warnings if "linearVelocity" in text and "beyond float32" in text]
    assert len(said) == 1 and "it becomes 3.402823e+38 (float32's largest)" in said[0], imported.warnings
    assert "a kinematic body with it is not moved" in said[0]
