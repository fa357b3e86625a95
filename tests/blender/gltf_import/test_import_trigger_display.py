"""An imported trigger's own mesh shows the volume as wire and is not rendered, and still exports as its mesh."""

from __future__ import annotations

import bpy
import export_support
import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_an_imported_trigger_is_wire_and_not_rendered(clean_scene, tmp_path):
    nodes = [{"name": "Zone", "mesh": 0, "extensions": {support.BODY: {"trigger": {"shape": 0}}}},
             {"name": "Crate", "mesh": 0, "translation": [3, 0, 0],
              "extensions": {support.BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}]
    path = support.write_gltf(tmp_path, "zone", support.document(nodes, [{"type": "box", "box": {"size": [1, 1, 1]}}],
                                                                 meshes=True))
    support.import_gltf(path)
    zone, crate = bpy.data.objects["Zone"], bpy.data.objects["Crate"]
    assert zone.display_type == 'WIRE' and not zone.visible_camera and not zone.visible_shadow
    assert crate.display_type != 'WIRE' and crate.visible_camera  # a body's mesh is what the scene shows
    exported = export_support.export(tmp_path, "again")
    assert "mesh" in exported.node("Zone")  # still the node's mesh in the file
