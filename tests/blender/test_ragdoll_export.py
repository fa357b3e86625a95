"""Physics on skin joints (issue #23): import then export writes it back on the same joint nodes.

The character of ragdoll_files.py is imported (its bone physics becomes ragdoll parts) and exported in the
same dialect: the physics compares equal node by node path (io.omi.checks.canonical), it sits on the
skin's joint nodes, and neither the parts nor the bones' target empties become nodes of their own.
"""

from __future__ import annotations

import bpy
import export_support
import import_support
import pytest
import ragdoll_files

PHYSICS = {"OMI": "OMI_physics_body", "KHR": "KHR_physics_rigid_bodies"}


def _joint_nodes(gltf: dict) -> dict[str, dict]:
    nodes = gltf["nodes"]
    return {nodes[index]["name"]: nodes[index] for skin in gltf.get("skins", []) for index in skin["joints"]}


@pytest.mark.parametrize("dialect", ["OMI", "KHR"])
def test_import_then_export_keeps_the_physics_on_the_joint_nodes(tmp_path, canonical, dialect):
    original = ragdoll_files.document(dialect)
    path = ragdoll_files.write(tmp_path, dialect)
    import_support.import_gltf(path)
    bpy.context.scene.omi_physics.export_dialect = dialect
    exported = export_support.export(tmp_path, "first", check=dialect == "OMI")
    assert not [text for text in exported.messages if "outside it" in text]
    first = exported.gltf
    assert canonical.diff_physics(original, first) == []
    joints = _joint_nodes(first)
    assert set(joints) == {"Upper", "Lower"}
    for name in ("Upper", "Lower"):
        assert "motion" in joints[name]["extensions"][PHYSICS[dialect]], name
    assert sorted(node["name"] for node in first["nodes"]) == sorted(node["name"] for node in original["nodes"])

    import_support.import_gltf(exported.path)  # and once more: stable
    bpy.context.scene.omi_physics.export_dialect = dialect
    again = export_support.export(tmp_path, "second", check=dialect == "OMI").gltf
    assert canonical.diff_physics(first, again) == []
