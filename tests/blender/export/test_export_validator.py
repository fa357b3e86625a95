"""The Khronos glTF validator finds no error in exported physics scenes (.glb and .gltf).

Needs Node.js; the `gltf-validator` npm package is installed once into a temporary directory (never the
repository). Skips when Node.js, npm or the package cannot be had.
"""

from __future__ import annotations

import bpy
import pytest
from export_support import (
    export,
)
from khronos_validator import physics_scene, validate  # noqa: F401 - validate is a fixture

pytestmark = pytest.mark.usefixtures("omi_addon")



@pytest.mark.parametrize("fmt", ["GLB", "GLTF_SEPARATE"])
def test_khronos_validator_reports_no_error(clean_scene, tmp_path, validate, fmt):  # noqa: F811
    physics_scene()
    bpy.context.view_layer.update()
    result = export(tmp_path, fmt=fmt)
    assert result.root("OMI_physics_joint", "physicsJoints")
    report = validate(result.path)
    issues = report["issues"]
    errors = [message for message in issues.get("messages", []) if message.get("severity") == 0]
    assert issues["numErrors"] == 0, errors
