"""Node trees deeper than Blender's glTF importer and exporter recurse through unaided (about 980 levels):
the add-on raises Python's recursion limit for the import and the export (io/blender/recursion_room), so
the whole tree imports with its world transforms and exports again; the limit is put back afterwards.
Past gltf_structure.MAX_DEPTH the import builds nothing and says why, instead of failing with a traceback.
The 20,000-deep chain of the hostile corpus runs in tests/blender/test_hostile_files.py."""

from __future__ import annotations

import sys

import bpy
import export_support
import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

DEPTH = 2_500  # more than twice what Blender's importer recurses through unaided


def chain(depth: int) -> dict:
    """Nodes N0..N{depth-2} and a dynamic box body 'Leaf', each turned a little and raised 1 cm."""
    nodes = [{"name": f"N{i}", "children": [i + 1], "translation": [0.0, 0.01, 0.0],
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
    while current_index is not None:
        levels, current_index = levels + 1, exported.parent(current_index)
    assert levels == DEPTH


def test_a_chain_past_the_add_ons_depth_builds_nothing_and_says_why(tmp_path, omi, monkeypatch):
    structure = omi("io.omi.checks.gltf_structure")
    monkeypatch.setattr(structure, "MAX_DEPTH", 40)  # the real one (100,000) takes minutes to import
    limit = sys.getrecursionlimit()
    imported = support.import_gltf(support.write_gltf(tmp_path, "too_deep", chain(41)))
    assert imported.result == {'FINISHED'}
    assert [text for text in imported.warnings if "41 levels deep" in text and "nothing imported" in text]
    assert len(bpy.data.objects) == 0
    assert sys.getrecursionlimit() == limit
