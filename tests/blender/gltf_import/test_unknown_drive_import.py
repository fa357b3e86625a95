"""A KHR drive whose type or mode the spec does not know: the import stores what its one message says, and
the export writes that (issue #27: the message said 'linear' while the export wrote 'angular')."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import import_support as support
import pytest
import schema_check

pytestmark = pytest.mark.usefixtures("omi_addon")

KHR_JOINTS = Path(__file__).resolve().parents[2] / "data" / "khr" / "joints.gltf"


def test_unknown_drive_values_export_as_the_import_said(tmp_path):
    document = json.loads(KHR_JOINTS.read_text(encoding="utf-8"))
    drives = document["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"]
    assert drives[0]["type"] == "angular"  # the file's own value differs from what an unknown one becomes
    drives[0]["type"], drives[1]["mode"] = "spinny", "weird"
    source = tmp_path / "unknown_drive.gltf"
    source.write_text(json.dumps(document), encoding="utf-8")
    imported = support.import_gltf(source)
    said = [text for _level, text in imported.messages if "spinny" in text or "weird" in text]
    assert len(said) == 2 and "reads it as 'linear'" in said[0] and "reads it as 'force'" in said[1], said
    assert not any("OMI_physics_joint" in text for text in said)  # the file's own pointers, not OMI's
    bpy.context.scene.omi_physics.export_dialect = "KHR"
    out = tmp_path / "out.gltf"
    bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE")
    written = schema_check.load_gltf(out)["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"]
    assert (written[0]["type"], written[1]["mode"]) == ("linear", "force")
