"""Node trees deeper than Blender's glTF importer and exporter recurse through unaided (about 980 levels):
the add-on raises Python's recursion limit for the import and the export (io/blender/recursion_limit), so
the whole tree imports with its world transforms and exports again; the limit is put back afterwards.
Past gltf_structure.MAX_DEPTH the import builds nothing and says why, instead of failing with a traceback.
The 20,000-deep chain of the hostile corpus runs in tests/blender/scenarios/test_hostile_files.py."""

from __future__ import annotations

import sys
from typing import Any

import bpy
import export_support
import import_support as support
import omi_core.checks.gltf_structure
import pytest

pytestmark = [pytest.mark.usefixtures("omi_addon"), pytest.mark.slow]  # slow: seconds per test (docs/development.md)

DEPTH = 2_500  # more than twice what Blender's importer recurses through unaided


def chain(depth: int) -> dict:
    """Nodes N0..N{depth-2} and a dynamic box body 'Leaf', each turned a little and raised 1 cm."""
    nodes: list[dict[str, Any]] = [{"name": f"N{i}", "children": [i + 1], "translation": [0.0, 0.01, 0.0],
              "rotation": [0.0, 0.0087265, 0.0, 0.9999619]} for i in range(depth - 1)]
    nodes.append({"name": "Leaf", "translation": [0.0, 0.01, 0.0],
                  "extensions": {support.BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}})
    return support.document(nodes, [{"type": "box", "box": {"size": [0.1, 0.1, 0.1]}}], roots=[0])


def test_a_deep_chain_imports_whole_and_exports_again(tmp_path):
    gltf = chain(DEPTH)
    limit = sys.getrecursionlimit()
    imported = support.import_gltf(support.write_gltf(tmp_path, "deep", gltf))
    assert imported.result == {'FINISHED'} and imported.warnings == [], imported.warnings
    assert any(f"{DEPTH} levels deep" in note and "recursion limit" in note for note in imported.notes)
    assert sys.getrecursionlimit() == limit
    leaf = imported.obj("Leaf")
    depth, current = 0, leaf
    while current is not None:
        depth, current = depth + 1, current.parent
    assert depth == DEPTH
    assert support.matrices_close(leaf.matrix_world, support.world_matrices(gltf)[DEPTH - 1])

    exported = export_support.export(tmp_path, "deep_again")
    assert sys.getrecursionlimit() == limit
    leaf_index = exported.index("Leaf")
    assert exported.body(leaf_index)["motion"]["type"] == "dynamic"
    levels, current_index = 0, leaf_index
    at: int | None = current_index
    while at is not None:
        levels, at = levels + 1, exported.parent(at)
    assert levels == DEPTH


def test_a_chain_past_the_add_ons_depth_builds_nothing_and_says_why(tmp_path, omi, monkeypatch):
    structure = omi_core.checks.gltf_structure
    monkeypatch.setattr(structure, "MAX_DEPTH", 40)  # the real one (100,000) takes minutes to import
    limit = sys.getrecursionlimit()
    imported = support.import_gltf(support.write_gltf(tmp_path, "too_deep", chain(41)))
    assert imported.result == {'FINISHED'}
    assert [text for text in imported.warnings if "41 levels deep" in text and "nothing imported" in text]
    assert len(bpy.data.objects) == 0
    assert sys.getrecursionlimit() == limit


def test_make_body_and_validate_walk_a_5000_deep_parent_chain():
    """Blender's children_recursive raises RecursionError on such a chain (issue #27); the operators walk it
    without recursion: the root becomes a body, its collider at the chain's end counts, and Validate
    reports the compound collider's parts from the whole depth."""
    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    objects: list[Any] = []
    for index in range(5_000):
        obj = bpy.data.objects.new(f"N{index}", None)
        scene.collection.objects.link(obj)
        obj.parent = objects[-1] if objects else None
        objects.append(obj)
    with pytest.raises(RecursionError):
        _ = objects[0].children_recursive  # what the operators used to call
    leaf = objects[-1]
    leaf.omi_physics.use_collider = True
    objects[0].select_set(True)
    bpy.context.view_layer.objects.active = objects[0]
    assert bpy.ops.omi.make_body(motion_type='DYNAMIC') == {'FINISHED'}
    assert objects[0].omi_physics.use_motion
    assert bpy.ops.omi.validate_scene() == {'FINISHED'}
    codes = {(item.name, item.code) for item in bpy.context.window_manager.omi_authoring.problems}
    assert ("N0", "body_without_collider") not in codes  # the leaf 4,999 levels down was found


def test_the_depth_of_a_shallow_scene_is_bounded_without_walking_it(omi):
    """Below `SHALLOW` levels the bound (each parented object and bone one level deeper) stands for the depth:
    never less than the tree's real depth; above it the tree is walked."""
    recursion_limit = omi("io.blender.recursion_limit")
    bpy.ops.wm.read_homefile(use_empty=True)
    for name in ("A", "B"):  # two chains of three levels
        chain = [bpy.data.objects.new(f"{name}{index}", None) for index in range(3)]
        for obj in chain:
            bpy.context.scene.collection.objects.link(obj)
        for child, parent in zip(chain[1:], chain[:-1], strict=False):
            child.parent = parent
    # the bound, not walked: 1 + the 4 parented objects, more than the real 3 levels
    assert recursion_limit.object_depth(bpy.data.objects) == 5
    deep = [bpy.data.objects.new(f"Deep{index}", None) for index in range(recursion_limit.SHALLOW + 10)]
    for child, parent in zip(deep[1:], deep[:-1], strict=False):
        child.parent = parent
    assert recursion_limit.object_depth(bpy.data.objects) == recursion_limit.SHALLOW + 10  # walked: exact
