"""The import asks every registered target whether a file has its mesh-child layout (`Target.mesh_children`)
and folds what one recognises (io/mesh_child_fold.py): a target registered from the tests is folded back
with no change to the add-on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bpy
import import_support
import omi_core.dialects.registry
import pytest


def _toy_layout(document: Mapping[str, Any]) -> dict[int, int]:
    """A toy engine's layout: a body's render mesh on a child named '<body> render'."""
    nodes = document.get("nodes") or []
    return {0: 1} if len(nodes) > 1 and nodes[1].get("name") == f"{nodes[0].get('name')} render" else {}


@pytest.fixture
def toy_target(omi_addon):
    registry = omi_core.dialects.registry
    registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                      mesh_children=_toy_layout))
    yield
    registry.unregister("TOY_ENGINE")


def test_a_registered_targets_layout_is_folded_back(tmp_path, clean_scene, toy_target):
    gltf = import_support.document(
        [{"name": "Crate", "children": [1], "extensions": {import_support.BODY: {"motion": {"type": "dynamic"},
                                                                                  "collider": {"shape": 0}}}},
         {"name": "Crate render", "mesh": 0}], [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}], meshes=True)
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "toy", gltf))
    assert imported.result == {'FINISHED'} and imported.failures == [], imported.warnings
    made = sorted(obj.name for obj in bpy.data.objects if not obj.get("omi_generated"))
    crate = imported.obj("Crate")
    assert made == ["Crate"] and crate.type == 'MESH' and crate.omi_physics.use_motion
