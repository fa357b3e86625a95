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


def test_no_target_is_asked_when_no_node_can_be_part_of_a_layout(tmp_path, clean_scene, omi_addon):
    """Only a mesh-less body node with children can hold its mesh on a child: a file without one (a large
    scene of bodies holding their own meshes) asks no target to walk its nodes."""
    asked: list[int] = []

    def counting_layout(document: Mapping[str, Any]) -> dict[int, int]:
        asked.append(len(document.get("nodes") or []))
        return _toy_layout(document)

    registry = omi_core.dialects.registry
    registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                      mesh_children=counting_layout))
    try:
        body = {import_support.BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}
        gltf = import_support.document([{"name": "Crate", "mesh": 0, "children": [1], "extensions": body},
                                        {"name": "Crate render", "mesh": 0}],
                                       [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}], meshes=True)
        imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "own_mesh", gltf))
        assert imported.result == {'FINISHED'} and imported.failures == [], imported.warnings
        assert asked == []
        assert {obj.name for obj in bpy.data.objects} >= {"Crate", "Crate render"}
        gltf["nodes"][0].pop("mesh")  # now the layout's shape: asked, and folded
        imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "layout", gltf))
        assert asked and imported.obj("Crate").type == 'MESH'
    finally:
        registry.unregister("TOY_ENGINE")
