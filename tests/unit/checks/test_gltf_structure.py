"""io/omi/checks/gltf_structure: what Blender's glTF importer cannot open, each finding at its JSON pointer with the
repair the add-on's import makes; and `validate` on the project's hostile corpus (tests/hostile/corpus.py)
reporting each kind as an error, without a traceback. Pure: runs without bpy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile.corpus import write_corpus
from omi_core.checks import gltf_structure as structure
from omi_core.cli import validate_file
from present import present


def _nodes(*children: list[Any] | None) -> dict[str, Any]:
    return {"nodes": [{"children": kids} if kids is not None else {} for kids in children],
            "scenes": [{"nodes": [0]}]}


def _found(structure: Any, document: Any, buffer_data: Any=None) -> list[tuple[str, str | None]]:
    return [(found.pointer, found.repair.kind if found.repair else None)
            for found in structure.check(document, buffer_data)]


def test_hierarchy_links_blender_cannot_hold() -> None:
    assert _found(structure, _nodes([1], [0])) == [("/nodes/1/children/0", "drop_child")]  # closing link of a cycle
    assert _found(structure, _nodes([0])) == [("/nodes/0/children/0", "drop_child")]
    assert _found(structure, _nodes([2], [2], None)) == [("/nodes/1/children/0", "drop_child")]
    assert _found(structure, _nodes([7, "x"])) == [("/nodes/0/children/0", "drop_child"),
                                                   ("/nodes/0/children/1", "drop_child")]
    assert _found(structure, _nodes([1], [2], [3], [1])) == [("/nodes/3/children/0", "drop_child")]
    assert _found(structure, _nodes([1], [2], None)) == []


def test_node_tree_keeps_the_first_parent_and_breaks_each_loop_once() -> None:
    links, dropped = structure.node_tree([{"children": [1, 2]}, {"children": [0]}, {"children": [3]},
                                         {"children": [2]}, {"children": [4]}])
    assert links == {1: (0, 0), 2: (0, 1), 3: (2, 0)}
    assert sorted(found.pointer for found in dropped) == ["/nodes/1/children/0", "/nodes/3/children/0",
                                                          "/nodes/4/children/0"]
    assert all(found.as_repaired().endswith("; link ignored") for found in dropped)


def _chain(depth: int) -> dict[str, Any]:
    return {"nodes": [{"children": [index + 1]} for index in range(depth - 1)] + [{}], "scenes": [{"nodes": [0]}]}


@pytest.mark.slow
def test_a_deep_chain_is_allowed_up_to_max_depth_and_checked_without_recursion() -> None:
    deep = structure.check(_chain(50_000))
    repairs = [(found.pointer, found.severity, present(found.repair)) for found in deep]
    assert [(pointer, severity, repair.kind, repair.value) for pointer, severity, repair in repairs] == \
        [("/nodes", "warning", "allow_depth", 50_000)]
    assert "50000 levels deep" in deep[0].message and "stops at about" in deep[0].as_error()
    too_deep = structure.check(_chain(structure.MAX_DEPTH + 1))
    assert [(found.pointer, found.fatal) for found in too_deep] == [("/nodes", True)]
    assert f"{structure.MAX_DEPTH + 1} levels deep" in too_deep[0].message
    assert structure.check(_chain(structure.PLAIN_DEPTH)) == []
    assert [found.fatal for found in structure.check(_chain(structure.MAX_DEPTH))] == [False]


def test_scene_roots_and_mesh_references() -> None:
    document = {"nodes": [{"mesh": 3}, {}], "meshes": [], "scenes": [{"nodes": [0, 9, -1]}]}
    assert _found(structure, document) == [("/scenes/0/nodes/1", "drop_scene_node"),
                                          ("/scenes/0/nodes/2", "drop_scene_node"), ("/nodes/0/mesh", "drop_mesh")]


def _mesh(count: int, mode: int = 4, indexed: bool = False, byte_length: int | None = None) -> dict[str, Any]:
    data_length = 12 * max(count, 1)
    accessors = [{"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3"}]
    primitive = {"attributes": {"POSITION": 0}, "mode": mode}
    if indexed:
        accessors.append({"bufferView": 0, "componentType": 5125, "count": count, "type": "SCALAR"})
        primitive["indices"] = 1
    return {"buffers": [{"byteLength": data_length if byte_length is None else byte_length}],
            "bufferViews": [{"buffer": 0, "byteLength": data_length}], "accessors": accessors,
            "meshes": [{"primitives": [primitive]}]}


@pytest.mark.parametrize(("count", "mode", "indexed", "repair"), [
    (1, 4, False, "trim_primitive"), (2, 4, True, "trim_primitive"), (11, 4, False, "trim_primitive"),
    (3, 1, False, "trim_primitive"), (1, 5, False, "drop_primitive"), (1, 6, True, "drop_primitive"),
    (1, 3, False, "drop_primitive"), (0, 2, False, "drop_primitive"), (1, 9, False, "drop_primitive"),
    (12, 4, False, None), (1, 0, False, None), (2, 5, False, None), (0, 4, False, None),
])
def test_primitive_counts_against_their_mode(count: int, mode: int, indexed: bool, repair: str | None) -> None:
    findings = structure.check(_mesh(count, mode, indexed))
    assert [present(found.repair).kind for found in findings] == ([repair] if repair else [])
    if repair == "trim_primitive":
        assert present(findings[0].repair).value == count - count % (3 if mode == 4 else 2)
        assert findings[0].pointer == "/meshes/0/primitives/0"


def test_buffers_views_and_accessors_past_their_ends() -> None:
    short_view = _mesh(3)
    short_view["bufferViews"][0]["byteLength"] = 20
    assert _found(structure, short_view) == [("/accessors/0", None), ("/meshes/0/primitives/0", "drop_primitive")]
    short_buffer = _mesh(3, byte_length=30)
    assert _found(structure, short_buffer) == [("/bufferViews/0", None), ("/meshes/0/primitives/0", "drop_primitive")]
    strided = _mesh(3)
    strided["bufferViews"][0]["byteStride"] = 16  # 16 * 2 + 12 = 44 > 36
    assert _found(structure, strided)[0] == ("/accessors/0", None)
    missing_view = _mesh(3)
    missing_view["accessors"][0]["bufferView"] = 4
    assert _found(structure, missing_view)[0] == ("/accessors/0", None)


def test_buffer_data_against_byte_length() -> None:
    def from_file(uri: str) -> int:
        if uri == "absent.bin":
            raise FileNotFoundError(2, "No such file or directory")
        return 10

    data = structure.file_buffer_data(b"\x00" * 8, from_file)
    document = _mesh(3)
    document["buffers"] = [{"byteLength": 36}, {"byteLength": 4, "uri": "absent.bin"},
                           {"byteLength": 4, "uri": "data:application/octet-stream;base64,AAAAA"},
                           {"byteLength": 20, "uri": "short.bin"},
                           {"byteLength": 3, "uri": "data:application/octet-stream;base64,AAAA"}]
    findings = {found.pointer: found.message for found in structure.check(document, data)}
    assert "holds 8 bytes, fewer than its byteLength 36" in findings["/buffers/0"]
    assert "'absent.bin' (No such file or directory)" in findings["/buffers/1/uri"]
    assert "not valid base64" in findings["/buffers/2/uri"]
    assert "holds 10 bytes" in findings["/buffers/3"]
    assert "/buffers/4" not in findings and "/buffers/4/uri" not in findings
    assert "/meshes/0/primitives/0" in findings  # it reads buffer 0


def test_names_with_lone_surrogates() -> None:
    document = json.loads('{"nodes": [{"name": "A\\ud800"}], "materials": [{"name": "fine"}]}')
    findings = structure.check(document)
    assert [(found.pointer, present(found.repair).value) for found in findings] == [("/nodes/0/name", "A?")]


@pytest.mark.slow
def test_validate_reports_every_hostile_kind_as_an_error(tmp_path: Path) -> None:
    """Every case of the corpus gives its errors at their pointers, and its words; nothing raises."""
    cases = write_corpus(tmp_path, huge_hull_vertices=0)
    validate_one = validate_file.validate_one
    for name, case in cases.items():
        result = validate_one((str(tmp_path / name), None))
        errors = {item["pointer"] for item in result["issues"] if item["severity"] == "error"}
        assert set(case.validate_errors) <= errors, (name, result["issues"])
        text = " ".join(item["message"] for item in result["issues"])
        assert "Traceback" not in text
        if not case.pending:
            assert all(word in text for word in case.validate_words), (name, result["issues"])
