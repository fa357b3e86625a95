"""A newer file must not lose its newer data in our hands (issue 13): the keys a newer revision (or a vendor)
put inside every OMI object and beside the document-level arrays, and a drive mode this revision does not
know ('servo'), survive import -> save .blend -> reopen -> export unchanged, in the OMI dialect; the export
validates against the schemas and the Khronos validator. Where a key cannot be carried (a KHR export, a
shape whose type the user changed) the export names the object and the key.
"""

from __future__ import annotations

import importlib
import json

import bpy
import export_support as support
import import_support
import pytest
import schema_check
from import_support import NEWER
from khronos_validator import validate as khronos_validator  # noqa: F401 - a fixture

OMI = (support.SHAPE, support.BODY, support.JOINT)


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def resolved(gltf: dict) -> dict:
    """The OMI objects of a file by node name, indices replaced by what they point at, and the document-level
    extensions without their arrays: comparable between files whose node and array order differ. The names
    Blender's scene library gives unnamed materials and filters are left out (the import names them)."""
    extensions = gltf.get("extensions", {})
    arrays = {key: extensions.get(name, {}).get(key, [])
              for name, key in ((support.SHAPE, "shapes"), (support.BODY, "physicsMaterials"),
                                (support.BODY, "collisionFilters"), (support.JOINT, "physicsJoints"))}
    names = [node.get("name") for node in gltf["nodes"]]
    found: dict = {name: {key: value for key, value in extensions.get(name, {}).items() if key not in arrays}
                   for name in OMI}
    for node in gltf["nodes"]:
        for name, original in (node.get("extensions") or {}).items():
            if name not in OMI:
                continue
            content = json.loads(json.dumps(original))
            for part in ("collider", "trigger"):
                item = content.get(part, {})
                for key, kind in (("shape", "shapes"), ("physicsMaterial", "physicsMaterials"),
                                  ("collisionFilter", "collisionFilters")):
                    if key in item:
                        item[key] = arrays[kind][item[key]]
                        if kind != "shapes":
                            item[key] = {k: v for k, v in item[key].items() if k != "name"}
            if "joint" in content:
                content["joint"] = arrays["physicsJoints"][content["joint"]]
                content["connectedNode"] = names[content["connectedNode"]]
            found[f"{node.get('name')}/{name}"] = content
    return found


def test_unknown_keys_survive_import_save_reopen_and_export(clean_scene, tmp_path, khronos_validator):  # noqa: F811
    source = json.loads(NEWER.read_text(encoding="utf-8"))
    imported = import_support.import_gltf(NEWER)
    assert imported.result == {'FINISHED'}
    # the log says at most about 20 lines; the Validate list holds every finding
    listed = [problem.message for problem in bpy.context.window_manager.omi_authoring.problems]
    kept = [message for message in listed if "kept as it is" in message]
    assert any("'isSensor'" in message for message in kept) and any("futureArray" in message for message in kept)
    assert any("'servo'" in message and "written back" in message for message in listed)
    assert len([message for message in imported.messages if "OMI physics: " in message]) <= 20
    hinge = bpy.data.objects["Hinge"].omi_physics.joint
    assert hinge.drives[0].mode == 'FORCE'  # what Blender can show; the file's 'servo' is kept beside it

    path = tmp_path / "newer.blend"
    assert bpy.ops.wm.save_as_mainfile(filepath=str(path)) == {'FINISHED'}
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {'FINISHED'}
    exported = support.export(tmp_path, "newer", 'GLB')

    assert resolved(exported.gltf) == resolved(source)
    assert schema_check.omi_schema_errors(exported.gltf) == []
    assert "VENDOR_future" in exported.gltf["extensionsUsed"]
    report = khronos_validator(exported.path)
    errors = [message for message in report["issues"].get("messages", []) if message.get("severity") == 0]
    assert report["issues"]["numErrors"] == 0, errors


def test_a_changed_drive_mode_wins_and_a_changed_shape_type_is_named(clean_scene, tmp_path):
    import_support.import_gltf(NEWER)
    bpy.data.objects["Hinge"].omi_physics.joint.drives[0].mode = 'ACCELERATION'
    bpy.data.objects["Floor"].omi_physics.collider.shape.shape_type = 'SPHERE'
    exported = support.export(tmp_path, "changed")
    drive = exported.root(support.JOINT, "physicsJoints")[0]["drives"][0]
    assert (drive["mode"], drive["gearRatio"]) == ("acceleration", 3.0)
    floor_shape = exported.shape(exported.body("Floor")["collider"]["shape"])
    assert floor_shape["type"] == "sphere" and "margin" not in json.dumps(floor_shape)
    assert floor_shape["roundedCorners"] is True  # the shape object's own kept keys stay
    assert exported.warnings("'Floor'", "box values", "'margin'")


def test_a_khr_export_names_each_key_it_cannot_carry(clean_scene, tmp_path):
    import_support.import_gltf(NEWER)
    bpy.context.scene.omi_physics.export_dialect = 'KHR'
    exported = support.export(tmp_path, "khr", check=False)
    assert exported.warnings("'isSensor'", "KHR") and exported.warnings("'futureArray'", "KHR")
    assert "isSensor" not in json.dumps(exported.gltf) and "OMI_physics_body" not in exported.gltf["extensionsUsed"]


def test_a_body_of_unknown_keys_only_is_named_at_import(clean_scene, tmp_path):
    document = json.loads(NEWER.read_text(encoding="utf-8"))
    document["nodes"][3]["extensions"]["OMI_physics_body"] = {"characterController": {"stepHeight": 0.3}}
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "body_only", document))
    assert imported.result == {'FINISHED'}
    listed = [problem.message for problem in bpy.context.window_manager.omi_authoring.problems]
    assert [message for message in listed if "'Sensor'" in message and "holds only keys" in message]


def test_sync_from_blender_rigid_bodies_keeps_the_kept_keys(clean_scene, tmp_path):
    """Blender -> settings rewrites the values from the rigid bodies the import built; the keys Blender has no
    place for stay with the settings."""
    import_support.import_gltf(NEWER)
    assert bpy.ops.omi.sync_from_rigid_bodies(scope='SCENE') == {'FINISHED'}
    exported = support.export(tmp_path, "synced")
    ball, floor = exported.body("Ball"), exported.body("Floor")
    assert ball["motion"]["linearDamping"] == 0.3 and ball["extras"] == {"body": "ball"}
    assert floor["motion"]["linearDamping"] == 0.1
    assert exported.shape(floor["collider"]["shape"])["roundedCorners"] is True
    assert exported.node("Hinge")["extensions"][support.JOINT]["breakable"] is True


def test_a_key_given_twice_is_named_at_import(clean_scene, tmp_path):
    """Blender's JSON reader keeps the last of two `extensions` on a node silently: the add-on's import names
    the node's pointer (read again, cheaply, from the file)."""
    document = json.loads(NEWER.read_text(encoding="utf-8"))
    text = json.dumps(document)
    inner = json.dumps(document["nodes"][1]["extensions"])
    path = tmp_path / "twice.gltf"
    path.write_text(text.replace(f'"extensions": {inner}', f'"extensions": {inner}, "extensions": {{}}', 1),
                    encoding="utf-8")
    imported = import_support.import_gltf(path)
    assert imported.result == {'FINISHED'}
    assert [message for message in imported.warnings if "/nodes/1/extensions" in message and "duplicate key" in message]
    assert not [message for message in import_support.import_gltf(NEWER).warnings if "duplicate key" in message]


def test_a_joint_made_anew_from_a_constraint_names_the_kept_keys_it_drops(clean_scene, omi_addon):
    import_support.import_gltf(NEWER)
    hinge = bpy.data.objects["Hinge"]
    bpy.context.scene.rigidbody_world.constraints.objects.link(hinge)  # an object in .constraints gets one
    hinge.rigid_body_constraint.type = 'HINGE'
    hinge.rigid_body_constraint.object1 = bpy.data.objects["Ball"]
    hinge.rigid_body_constraint.object2 = bpy.data.objects["Floor"]
    sync = importlib.import_module(f"{omi_addon.__name__}.operators.sync")
    issues: list = []
    assert sync.adopt_constraint(hinge, issues)
    assert [issue.message for issue in issues if "gearRatio" in issue.message and "softness" in issue.message]
    joint = hinge.omi_physics.joint
    assert json.loads(joint.unknown_json) == {"breakable": True, "extras": {"hinge": 1}}  # the joint's own stay


def test_choosing_the_shown_drive_mode_writes_it(clean_scene, tmp_path):
    """The 'servo' drive shows Force; setting Force on purpose is a choice too, and wins (the enum's update
    forgets the file's spelling)."""
    import_support.import_gltf(NEWER)
    drive = bpy.data.objects["Hinge"].omi_physics.joint.drives[0]
    drive.mode = 'FORCE'
    assert json.loads(drive.unknown_json) == {"gearRatio": 3.0}
    exported = support.export(tmp_path, "chosen")
    assert exported.root(support.JOINT, "physicsJoints")[0]["drives"][0]["mode"] == "force"
