"""An import writes settings and builds the rigid bodies from them itself: the live link's edit notes stay
out of it (each note is a custom property write and a depsgraph tag per object, on every body of a big file)."""

from __future__ import annotations

import bpy
import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_an_import_notes_no_edits_and_leaves_its_bodies_in_step(omi, markers, tmp_path):
    edits = omi("properties.edits")
    built_values = omi("io.blender.builder.built_values")
    nodes = [{"name": f"Crate{index}", "translation": [2.0 * index, 0.0, 0.0],
              "extensions": {support.BODY: {"motion": {"type": "dynamic"},
                                             "collider": {"shape": 0, "physicsMaterial": 0}}}}
             for index in range(3)]
    path = support.write_gltf(tmp_path, "crates", support.document(
        nodes, [{"type": "sphere"}], materials=[{"name": "Rubber", "restitution": 0.8}]))
    edits.EDITED.take()
    imported = support.import_gltf(path)
    assert imported.result == {'FINISHED'}
    crates = [bpy.data.objects[f"Crate{index}"] for index in range(3)]
    assert all(crate.rigid_body is not None for crate in crates)
    assert edits.EDITED.objects == set()
    assert not edits.EDITED.library  # the new library entry is what the rigid bodies were built from
    assert not edits.EDITED.paused
    assert all(markers.EDITS not in crate for crate in crates)
    assert all(built_values.in_step(crate) for crate in crates)
