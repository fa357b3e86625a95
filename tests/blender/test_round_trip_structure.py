"""Import then export keeps a file's node structure: every spec example (current and legacy), through the
command-line tool, comes back with the same nodes, names, parents and the same OMI extensions on the same
nodes, or each node that differs is named in the import or export report (with why). Also the cases the
export restructures on purpose: a collider on a scaled node, a slider whose connected body's frame is not
the joint's."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import schema_check
from cli_support import blender_cli, write_gltf

OMI_PREFIX = "OMI_"
SPEC_EXAMPLES = sorted(schema_check.SPEC_DIR.rglob("*.gltf")) if schema_check.SPEC_DIR.is_dir() else []


def _load(path: Path) -> dict:
    data = path.read_bytes()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + length])
    return json.loads(data)


def _structure(document: dict, exact: bool = True) -> dict[str, tuple]:
    """node name -> (parent name, {OMI extension: its keys}) for every node; not `exact`: (parent name,
    whether it has OMI physics), for legacy files, which the export writes in the current revision (the
    import report says so once per revision)."""
    nodes = document.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    found = {}
    for index, node in enumerate(nodes):
        owner = parent.get(index)
        extensions = {name: sorted(value) for name, value in (node.get("extensions") or {}).items()
                      if name.startswith(OMI_PREFIX) and isinstance(value, dict)}
        found[node.get("name", f"#{index}")] = (nodes[owner].get("name") if owner is not None else None,
                                                json.dumps(extensions, sort_keys=True) if exact else bool(extensions))
    return found


def _unreported(source: Path, tmp_path: Path) -> tuple[list[str], list[str]]:
    """(the nodes whose structure changed on import -> export, those of them neither report names)."""
    blend, exported = tmp_path / "scene.blend", tmp_path / "scene.gltf"
    imported = blender_cli("import", source, "--out", blend, "--verbose")
    assert imported.returncode in (0, 1) and blend.exists(), imported.stdout + imported.stderr
    written = blender_cli("export", blend, "--out", exported, "--verbose", "--gltf-option", "export_cameras=true",
                          "--gltf-option", "export_lights=true")
    assert written.returncode == 0, written.stdout + written.stderr
    reports = imported.stdout + imported.stderr + written.stdout + written.stderr
    exact = "legacy" not in source.parts
    before, after = _structure(_load(source), exact), _structure(_load(exported), exact)
    changed = [name for name in before if after.get(name) != before[name]]
    changed += [name for name in after if name not in before]
    return changed, [name for name in changed if f"'{name}'" not in reports and f"{name!r}" not in reports]


@pytest.mark.parametrize("source", SPEC_EXAMPLES, ids=lambda path: str(path.relative_to(schema_check.SPEC_DIR)))
def test_spec_examples_keep_their_structure_or_say_what_changed(source, tmp_path):
    _changed, unreported = _unreported(source, tmp_path)
    assert unreported == []


def _box_document(nodes: list[dict], joints: list | None = None) -> dict:
    document = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
                "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
                "nodes": nodes, "scenes": [{"nodes": [0, 1]}], "scene": 0}
    if joints:
        document["extensionsUsed"].append("OMI_physics_joint")
        document["extensions"]["OMI_physics_joint"] = {"physicsJoints": joints}
    return document


def test_restructuring_on_export_is_named(tmp_path):
    scaled = _box_document([
        {"name": "Scaled", "scale": [2, 2, 2], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"name": "Body", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}}])
    assert _unreported(write_gltf(tmp_path / "scaled.gltf", scaled), tmp_path) == (["Scaled", "Scaled.collider"], [])
    slider = _box_document([
        {"name": "Rail", "extensions": {"OMI_physics_body": {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
        {"name": "Carriage", "translation": [0.5, 2, 0], "children": [2],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Slider", "translation": [-0.5, 0, 0],
         "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 0}}}],
        joints=[{"limits": [{"linearAxes": [0], "min": -1, "max": 1}, {"linearAxes": [1, 2], "min": 0, "max": 0},
                            {"angularAxes": [0, 1, 2], "min": 0, "max": 0}]}])
    # The limits are measured from the Slider to the Rail's own frame: the Rail stays the connected node.
    assert _unreported(write_gltf(tmp_path / "slider.gltf", slider), tmp_path) == ([], [])
