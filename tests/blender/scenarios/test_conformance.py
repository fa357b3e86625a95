"""Conformance: every example of the spec (current and legacy revisions) goes import -> export -> import ->
export, every export is schema-valid, and the second export is the first one again.

"The same" is checked on the whole file, not only its physics: the JSON must be equal value for value and
the binary data accessor for accessor, except for two things Blender's own glTF import and export change
on each round trip, with or without this add-on (reproduced with the add-on disabled):
- node transforms: the importer stores a node's rotation as a float32 quaternion and the exporter reads
  it back through a float32 matrix, so a rotation (and the translation of its children) moves by about
  one float32 step per round trip. Compared within 1e-6.
- vertex normals: the importer stores them as Blender custom normals, whose encoding is lossy.
  Compared within 1e-3. Where that lossiness splits a visual mesh's vertices once more on the second round
  (OMI_physics_gravity's ramp: 146 vertices, then 148 for good), the files differ only in the sizes of
  mesh data; the test then takes one more round and compares the second and third exports.
Everything else, every OMI extension in particular, must be identical.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import export_support
import import_support
import numpy as np
import pytest
import schema_check

EXAMPLES = sorted(str(path.relative_to(schema_check.SPEC_DIR)) for path in schema_check.SPEC_DIR.rglob("*.gltf")) \
    if schema_check.SPEC_DIR.is_dir() else []
TRANSFORM_KEYS = ("translation", "rotation", "scale", "matrix")
MESH_DATA = ("/accessors/", "/bufferViews/", "/buffers/")  # sizes the normals' encoding may change once more
TRANSFORM_TOLERANCE = 1e-6
NORMAL_TOLERANCE = 1e-3


def json_differences(first: Any, second: Any, path: str = "") -> list[str]:
    """Each place where two JSON values differ, by JSON pointer; node transforms within a float32 step."""
    if isinstance(first, dict) and isinstance(second, dict):
        differences = []
        for key in sorted(set(first) | set(second)):
            if key not in first or key not in second:
                differences.append(f"{path}/{key}: only in the {'second' if key not in first else 'first'} export")
            else:
                differences += json_differences(first[key], second[key], f"{path}/{key}")
        return differences
    if isinstance(first, list) and isinstance(second, list):
        if len(first) != len(second):
            return [f"{path}: {len(first)} items != {len(second)} items"]
        return [found for index, (a, b) in enumerate(zip(first, second, strict=True))
                for found in json_differences(a, b, f"{path}/{index}")]
    parts = path.split("/")
    is_transform = len(parts) == 5 and parts[1] == "nodes" and parts[3] in TRANSFORM_KEYS
    if is_transform and isinstance(first, int | float) and isinstance(second, int | float):
        return [] if math.isclose(first, second, rel_tol=0.0, abs_tol=TRANSFORM_TOLERANCE) \
            else [f"{path}: {first!r} != {second!r}"]
    if type(first) is not type(second) or first != second:
        return [f"{path}: {first!r} != {second!r}"]
    return []


def normal_accessors(gltf: dict) -> set[int]:
    return {primitive["attributes"]["NORMAL"] for mesh in gltf.get("meshes", []) for primitive in mesh["primitives"]
            if "NORMAL" in primitive.get("attributes", {})}


def binary_differences(first: export_support.Exported, second: export_support.Exported) -> list[str]:
    """Accessors whose data differ (the JSON already matched, so the layouts are the same)."""
    normals = normal_accessors(first.gltf)
    differences = []
    for index in range(len(first.gltf.get("accessors", []))):
        a, b = first.accessor(index), second.accessor(index)
        if index in normals:
            if not np.allclose(a, b, rtol=0.0, atol=NORMAL_TOLERANCE):
                differences.append(f"accessor {index} (normals): off by {np.abs(a - b).max()}")
        elif not np.array_equal(a, b):
            differences.append(f"accessor {index}: {np.count_nonzero(a != b)} values differ")
    return differences


def test_the_comparison_finds_differences():
    first = {"nodes": [{"name": "A", "rotation": [0.0, 0.0, 0.1736480, 0.98], "extensions": {"X": {"mass": 1}}}]}
    same = {"nodes": [{"name": "A", "rotation": [0.0, 0.0, 0.1736481, 0.98], "extensions": {"X": {"mass": 1}}}]}
    assert json_differences(first, same) == []
    other = {"nodes": [{"name": "A", "rotation": [0.0, 0.0, 0.18, 0.98], "extensions": {"X": {"mass": 1.0000001}}}]}
    assert json_differences(first, other) == ["/nodes/0/extensions/X/mass: 1 != 1.0000001",
                                              "/nodes/0/rotation/2: 0.173648 != 0.18"]
    assert json_differences({"a": 1}, {"a": 1.0}) == ["/a: 1 != 1.0"]  # written differently is different
    assert json_differences({"a": [1]}, {"b": [1]}) == ["/a: only in the first export", "/b: only in the second export"]


@pytest.mark.parametrize("file_format", ['GLTF_SEPARATE', 'GLB'])
@pytest.mark.parametrize("name", EXAMPLES)
def test_import_export_twice_gives_the_same_file(spec_dir, omi_addon, tmp_path, name, file_format):
    for folder in ("first", "second"):  # one file name in two folders: the .bin file is named after it
        (tmp_path / folder).mkdir()
    import_support.import_gltf(Path(spec_dir) / name)
    first = export_support.export(tmp_path / "first", "scene", file_format)  # schema-valid, no dangling index
    import_support.import_gltf(first.path)
    second = export_support.export(tmp_path / "second", "scene", file_format)
    assert schema_check.omi_schema_errors(first.gltf) == [] and schema_check.omi_schema_errors(second.gltf) == []
    differences = json_differences(first.gltf, second.gltf)
    if differences and all(difference.startswith(MESH_DATA) for difference in differences):
        (tmp_path / "third").mkdir()  # normals split a visual mesh's vertices once more; settled from here
        import_support.import_gltf(second.path)
        first, second = second, export_support.export(tmp_path / "third", "scene", file_format)
        differences = json_differences(first.gltf, second.gltf)
    assert differences == []
    assert binary_differences(first, second) == []
