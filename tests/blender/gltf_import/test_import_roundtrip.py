"""Import then export gives back the same physics meaning, and import -> export -> import -> export is stable.

Meaning is compared with `io.omi.checks.canonical` (independent of index order, array layout and revision), so
a legacy file exported in the current revision compares equal when it means the same. The Blender rigid
bodies built by the import stay out of the export: the settings are the one source.
"""

from __future__ import annotations

from pathlib import Path

import bpy
import export_support
import import_support as support
import pytest
import schema_check

EXAMPLES = sorted(str(path.relative_to(schema_check.SPEC_DIR)) for path in schema_check.SPEC_DIR.rglob("*.gltf")) \
    if schema_check.SPEC_DIR.is_dir() else []


def export(directory: Path, name: str) -> dict:
    """The exported JSON; the shared export checks the schema, dangling indices and hook failures."""
    return export_support.export(directory, name).gltf


@pytest.mark.parametrize("name", EXAMPLES)
def test_import_then_export_keeps_the_physics(spec_dir, tmp_path, canonical, name):
    original = schema_check.load_gltf(Path(spec_dir) / name)
    support.import_gltf(Path(spec_dir) / name)
    exported = export(tmp_path, "first")
    assert canonical.diff_physics(original, exported) == []
    names = {node.get("name") for node in exported.get("nodes", [])}
    assert not any(name and name.endswith((" shape", " fixed", " generic_spring", " hinge")) for name in names)

    support.import_gltf(tmp_path / "first.gltf")
    again = export(tmp_path, "second")
    assert canonical.diff_physics(exported, again) == []
    assert canonical.canonical_physics(again) == canonical.canonical_physics(exported)


def test_import_without_rigid_bodies_exports_the_same(spec_dir, tmp_path, canonical):
    path = Path(spec_dir) / "OMI_physics_joint" / "examples" / "slider_ball.gltf"
    support.import_gltf(path, rigid_bodies=False)
    assert not any(obj.rigid_body for obj in bpy.context.scene.objects)
    assert canonical.diff_physics(schema_check.load_gltf(path), export(tmp_path, "settings_only")) == []


def test_generated_objects_never_become_nodes(tmp_path, canonical, markers_module):
    """A compound body whose collider sits under a grouping node gets a generated shape object."""
    nodes = [
        {"name": "Cart", "children": [1, 2], "extensions": {support.BODY: {"motion": {"type": "dynamic"}}}},
        {"name": "Bumper", "translation": [1.0, 0.0, 0.0], "extensions": {support.BODY: {"collider": {"shape": 0}}}},
        {"name": "Axle", "translation": [0.0, -0.5, 0.0], "children": [3]},
        {"name": "Wheel", "extensions": {support.BODY: {"collider": {"shape": 1}}}},
    ]
    shapes = [{"type": "box", "box": {"size": [0.2, 0.5, 1.0]}},
              {"type": "cylinder", "cylinder": {"height": 0.2, "radiusTop": 0.3, "radiusBottom": 0.3}}]
    document = support.document(nodes, shapes)
    support.import_gltf(support.write_gltf(tmp_path, "cart", document))
    generated = [obj for obj in bpy.context.scene.objects if markers_module.is_generated(obj)]
    assert [obj.get(markers_module.OWNER).name for obj in generated] == ["Wheel"]
    exported = export(tmp_path, "cart_out")
    assert sorted(node["name"] for node in exported["nodes"]) == ["Axle", "Bumper", "Cart", "Wheel"]
    assert "meshes" not in exported  # the shape stand-ins are not visible geometry
    assert canonical.diff_physics(document, exported) == []


@pytest.fixture
def markers_module(omi):
    return omi("io.blender.tables.markers")
