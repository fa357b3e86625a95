"""canonical_physics / diff_physics: the meaning of a file, independent of index order and revision; and the
schema checker itself (ERRATA patches, legacy flags, .glb loading)."""

from __future__ import annotations

import copy
import json
import struct
from pathlib import Path
from typing import Any

import schema_check
from omi_core.checks import canonical


def _document(shapes: Any, nodes: Any, **extra: Any) -> dict[str, Any]:
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
            "extensions": {"OMI_physics_shape": {"shapes": shapes}, **extra}, "nodes": nodes}


BODY_FILE = _document(
    [{"type": "box", "box": {"size": [1, 2, 3]}}, {"type": "sphere", "sphere": {"radius": 0.3}}],
    [{"name": "Root", "children": [1, 2]},
     {"name": "Ball", "children": [3], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 3}}}},
     {"name": "Floor", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
     {"name": "BallShape", "extensions": {"OMI_physics_body": {"collider": {"shape": 1, "physicsMaterial": 0}}}}],
    OMI_physics_body={"physicsMaterials": [{"restitution": 0.9}]},
)


def test_canonical_is_keyed_by_name_path_and_inlines_values() -> None:
    meaning = canonical.canonical_physics(BODY_FILE)
    assert sorted(meaning["nodes"]) == ["Root/Ball", "Root/Ball/BallShape", "Root/Floor"]
    shape = meaning["nodes"]["Root/Ball/BallShape"]["collider"]
    assert shape["shape"] == {"type": "sphere", "radius": 0.3}
    assert shape["material"]["restitution"] == 0.9
    assert meaning["nodes"]["Root/Ball"]["motion"]["mass"] == 3.0


def test_index_order_does_not_matter() -> None:
    reordered = copy.deepcopy(BODY_FILE)
    reordered["extensions"]["OMI_physics_shape"]["shapes"].reverse()
    reordered["nodes"][2]["extensions"]["OMI_physics_body"]["collider"]["shape"] = 1
    reordered["nodes"][3]["extensions"]["OMI_physics_body"]["collider"]["shape"] = 0
    nodes = reordered["nodes"]
    reordered["nodes"] = [nodes[0], nodes[2], nodes[1], nodes[3]]  # swap Ball and Floor
    reordered["nodes"][0]["children"] = [2, 1]
    assert canonical.canonical_physics(reordered) == canonical.canonical_physics(BODY_FILE)
    assert canonical.diff_physics(reordered, BODY_FILE) == []


def test_diff_names_the_path_and_honours_the_tolerance() -> None:
    changed = copy.deepcopy(BODY_FILE)
    changed["extensions"]["OMI_physics_shape"]["shapes"][0]["box"]["size"][1] = 2.5
    changed["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["mass"] = 3.00001  # within 1e-4
    assert canonical.diff_physics(BODY_FILE, changed) == ["Root/Floor.collider.shape.size[1]: 2.0 != 2.5"]
    del changed["nodes"][2]["extensions"]
    assert canonical.diff_physics(BODY_FILE, changed) == ["Root/Floor: only in the first"]
    assert canonical.diff_physics(canonical.canonical_physics(BODY_FILE), BODY_FILE) == []


def test_same_meaning_in_different_forms() -> None:
    """Default material = no material; one limit on both axis kinds = two limits; float32 noise ignored."""
    plain = copy.deepcopy(BODY_FILE)
    plain["extensions"]["OMI_physics_body"]["physicsMaterials"].append({})
    plain["nodes"][2]["extensions"]["OMI_physics_body"]["collider"]["physicsMaterial"] = 1
    plain["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["mass"] = 3.0000001192092896
    assert canonical.canonical_physics(plain) == canonical.canonical_physics(BODY_FILE)
    joint: dict[str, Any] = {"extensions": {"OMI_physics_joint": {"physicsJoints": [
        {"limits": [{"linearAxes": [0], "angularAxes": [2], "min": 0, "max": 0}]}]}},
        "nodes": [{"name": "A", "children": [1], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
                  {"name": "J", "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 2}}},
                  {"name": "B", "extensions": {"OMI_physics_body": {"motion": {"type": "static"}}}}]}
    split = copy.deepcopy(joint)
    split["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"] = [
        {"angularAxes": [2], "min": 0, "max": 0}, {"linearAxes": [0], "min": 0, "max": 0}]
    assert canonical.diff_physics(joint, split) == []
    meaning = canonical.canonical_physics(joint)["nodes"]["A/J"]["joint"]
    assert meaning["connected"] == "B"
    assert sorted(limit["kind"] for limit in meaning["settings"]["limits"]) == ["angular", "linear"]


def test_revisions_with_the_same_meaning_are_equal() -> None:
    legacy = {"extensions": {"OMI_collider": {"colliders": [{"type": "capsule", "radius": 0.5, "height": 3}]}},
              "nodes": [{"name": "Pill", "extensions": {"OMI_collider": {"collider": 0}}}]}
    current = _document([{"type": "capsule", "capsule": {"height": 2, "radiusTop": 0.5, "radiusBottom": 0.5}}],
                        [{"name": "Pill", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}])
    assert canonical.diff_physics(legacy, current) == []


def test_mesh_fingerprint_and_name_paths() -> None:
    gltf: dict[str, Any] = {
        "meshes": [{"name": "Hull", "primitives": [{"attributes": {"POSITION": 1}}, {"attributes": {}}]},
                       {"name": "NoAccessor", "primitives": []}],
            "accessors": [{"count": 3}, {"count": 24}],
            "nodes": [{"name": "a/b"}, {"children": [2]}, {"name": "x"}, {"name": "x"}]}
    assert canonical.mesh_fingerprint(gltf, 0) == "vertices:24"
    assert canonical.mesh_fingerprint(gltf, 1) == "mesh:NoAccessor"
    assert canonical.node_paths(gltf) == {0: "a\\/b", 1: "#1", 2: "#1/x", 3: "x"}
    gltf["nodes"].append({"name": "x"})
    assert canonical.node_paths(gltf)[4] == "x[1]"


def test_schema_check_applies_the_errata(spec_dir: Path) -> None:
    joint: dict[str, Any] = {"extensionsUsed": ["OMI_physics_joint"],
             "extensions": {"OMI_physics_joint": {"physicsJoints": [{"limits": [{"linearAxes": [0], "max": 1}]}]}}}
    assert schema_check.omi_schema_errors(joint) == []  # `constraints` is not required (ERRATA)
    joint["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["angularAxes"] = [1]
    assert len(schema_check.omi_schema_errors(joint)) == 1  # both axis kinds in one limit: still rejected
    node: dict[str, Any] = {"extensionsUsed": ["OMI_physics_body"],
            "nodes": [{"extensions": {"OMI_physics_body": {"collider": {"shape": -1}}}}]}
    assert [error.split(":")[0] for error in schema_check.omi_schema_errors(node)] == [
        "/nodes/0/extensions/OMI_physics_body/collider/shape"]  # glTFid stand-in: integer >= 0
    node["nodes"][0]["extensions"]["OMI_physics_body"]["collider"]["shape"] = 0
    del node["extensionsUsed"]
    assert schema_check.omi_schema_errors(node) == ["/extensionsUsed: OMI_physics_body is used but not listed"]


def test_schema_check_flags_legacy_content(spec_dir: Path) -> None:
    legacy = json.loads((spec_dir / "legacy/OMI_collider/examples/box_collider.gltf").read_text())
    assert schema_check.omi_schema_errors(legacy, allow_legacy=True) == []
    assert len(schema_check.omi_schema_errors(legacy)) == 2
    typed = json.loads((spec_dir / "legacy/OMI_physics_body_type_enum/examples/static_box.gltf").read_text())
    errors = schema_check.omi_schema_errors(typed)
    assert any("legacy body type" in error for error in errors)
    assert any("node-level OMI_physics_shape" in error for error in errors)


def test_load_gltf_reads_gltf_and_glb(tmp_path: Path) -> None:
    document = {"asset": {"version": "2.0"}, "nodes": [{"name": "Ü"}]}
    (tmp_path / "a.gltf").write_text(json.dumps(document), encoding="utf-8")
    assert schema_check.load_gltf(tmp_path / "a.gltf") == document
    chunk = json.dumps(document).encode("utf-8")
    chunk += b" " * (-len(chunk) % 4)
    binary = b"\x00" * 8
    glb = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(chunk) + 8 + len(binary))
    glb += struct.pack("<I4s", len(chunk), b"JSON") + chunk + struct.pack("<I4s", len(binary), b"BIN\x00") + binary
    (tmp_path / "a.glb").write_bytes(glb)
    assert schema_check.load_gltf(tmp_path / "a.glb") == document
