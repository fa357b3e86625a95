"""Check Export lists what the chosen target will drop or change for this scene, before any file is kept."""

from __future__ import annotations

import bpy
import export_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_check_export_lists_what_khr_drops_and_writes_no_file(clean_scene, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    zone = support.empty("Zone")
    support.tag_shape(zone, "trigger", 'BOX', size=(4.0, 4.0, 4.0))
    zone.omi_physics.use_gravity = True  # KHR has no gravity volumes
    bpy.context.scene.omi_physics.export_dialect = 'KHR'
    assert bpy.ops.omi.check_export() == {'FINISHED'}
    listed = [(problem.name, problem.message) for problem in bpy.context.window_manager.omi_authoring.problems]
    assert any(name == "Zone" and "gravity" in message.lower() for name, message in listed), listed
    assert list(tmp_path.iterdir()) == []
    bpy.context.scene.omi_physics.export_dialect = 'OMI'
    assert bpy.ops.omi.check_export() == {'FINISHED'}
    messages = [problem.message for problem in bpy.context.window_manager.omi_authoring.problems]
    assert not any("gravity" in message.lower() for message in messages), messages
