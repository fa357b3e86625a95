"""What KHR cannot hold is named by the object it comes from at export (issue #27: a capsule of radius 0
set from Python exported KHR that the add-on's own check rejects, and the messages pointed into the
output file only)."""

from __future__ import annotations

import bpy
import export_support
import pytest
import schema_check
from cli_support import run_cli

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_a_capsule_without_radius_is_named_and_the_khr_file_stays_valid(clean_scene, tmp_path):
    pillar = export_support.mesh_object("Pillar")
    export_support.tag_shape(pillar, "collider", 'CAPSULE', radius_top=0.0, radius_bottom=0.0)
    export_support.tag_motion(pillar)
    bpy.context.scene.omi_physics.export_dialect = "KHR"
    exported = export_support.export(tmp_path, "pillar", check=False)
    named = [text for text in exported.messages if "radii are both 0" in text]
    assert len(named) == 1 and "object 'Pillar'" in named[0] and "dropped" in named[0], exported.messages
    assert "KHR_implicit_shapes" not in schema_check.load_gltf(exported.path).get("extensions", {})
    checked = run_cli("validate", exported.path)
    assert checked.returncode == 0 and "0 errors" in checked.stdout, checked.stdout
