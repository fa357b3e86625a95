"""The command-line tool's pure parts: io/omi/gltf_file.py (containers written back byte for byte) and
io/omi/checks/schema.py (ERRATA-tolerated forms, pointers, finding the spec folder)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from glb_support import glb_bytes
from omi_core import gltf_file
from omi_core.checks import schema
from present import present

DOCUMENT = {"asset": {"version": "2.0"}, "nodes": [{"name": "Grüße", "extras": {"list": [1, 2.5, None]}}]}


def test_glb_round_trip_is_byte_exact() -> None:
    data = glb_bytes(DOCUMENT, bytes(range(7)), ((b"ABCD", b"\x01\x02\x03\x04"),))
    parsed = gltf_file.parse(data)
    assert parsed.is_glb and parsed.document == DOCUMENT
    assert parsed.binary == bytes(range(7)) + b"\x00"  # stored as read, padding included
    rewritten = gltf_file.dumps(parsed)
    assert json.loads(rewritten[20:20 + struct.unpack_from("<I", rewritten, 12)[0]]) == DOCUMENT
    assert rewritten[-24:] == data[-24:]  # BIN and the unknown chunk: same bytes, same order
    assert gltf_file.parse(rewritten).chunks == parsed.chunks
    changed = gltf_file.dumps(parsed, {**DOCUMENT, "scene": 0})
    assert len(changed) % 4 == 0 and struct.unpack_from("<I", changed, 8)[0] == len(changed)
    assert gltf_file.parse(changed).document["scene"] == 0 and gltf_file.parse(changed).chunks == parsed.chunks


@pytest.mark.parametrize(("indent", "ascii_only", "newline"), [(4, True, True), (2, False, False), (None, True, False),
                                                               ("\t", False, True)])
def test_gltf_text_layout_is_kept(indent: Any, ascii_only: bool, newline: bool) -> None:
    text = json.dumps(DOCUMENT, indent=indent, ensure_ascii=ascii_only) + ("\n" if newline else "")
    parsed = gltf_file.parse(text.encode("utf-8"))
    assert not parsed.is_glb and parsed.chunks == ()
    assert gltf_file.dumps(parsed) == text.encode("utf-8")


@pytest.mark.parametrize(("data", "message"), [
    (b"glTF" + struct.pack("<II", 2, 12), "too short"),
    (glb_bytes(DOCUMENT)[:8] + struct.pack("<I", 999) + glb_bytes(DOCUMENT)[12:], "header says 999 bytes"),
    (b"glTF" + struct.pack("<II", 1, 20) + struct.pack("<I4s", 0, b"JSON"), "version 1"),
    (b"glTF" + struct.pack("<II", 2, 24) + struct.pack("<I4s", 4, b"BIN\x00") + b"\x00" * 4, "first GLB chunk"),
    (b"glTF" + struct.pack("<II", 2, 28) + struct.pack("<I4s", 12, b"JSON") + b"{}      ", "runs past the end"),
    (b'{"asset": }', "not valid JSON: Expecting value (line 1, column 11)"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100000 + b"]" * 100000, "nests JSON too deeply"),
])
def test_unreadable_content_raises_one_error_type(data: Any, message: Any) -> None:
    with pytest.raises(gltf_file.GltfFileError) as caught:
        gltf_file.parse(data)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_write_is_atomic_and_relative_uris(tmp_path: Path) -> None:
    target = tmp_path / "a.gltf"
    gltf_file.write(target, gltf_file.parse(b'{"asset": {"version": "2.0"}}'))
    assert json.loads(target.read_text()) == {"asset": {"version": "2.0"}}
    assert [path.name for path in tmp_path.iterdir()] == ["a.gltf"]
    document = {"buffers": [{"uri": "a%20b.bin"}, {"uri": "data:application/octet-stream;base64,AA=="},
                            {"uri": "https://example.com/x.bin"}, {"byteLength": 4}],
                "images": [{"uri": "tex/albedo.png"}, {"uri": "a%20b.bin"}, {"bufferView": 0}]}
    assert [(found.pointer, found.path) for found in gltf_file.resources(document)] == [
        ("/buffers/0/uri", "a b.bin"), ("/images/0/uri", "tex/albedo.png"), ("/images/1/uri", "a b.bin")]


def _shapes(*shapes: dict[str, Any]) -> dict[str, Any]:
    return {"extensionsUsed": ["OMI_physics_shape"], "extensions": {"OMI_physics_shape": {"shapes": list(shapes)}}}


def test_schema_findings_have_pointers_and_severities(spec_dir: Path) -> None:
    found = schema.schema_errors(_shapes({"type": "box", "box": {"size": [1, 0, 1]}}, {"type": "sphere"},
                                         {"type": "blob"}))
    by_pointer = {(issue.pointer, issue.severity) for issue in found}
    assert ("/extensions/OMI_physics_shape/shapes/0/box/size/1", "error") in by_pointer  # the branch's own error
    assert ("/extensions/OMI_physics_shape/shapes/1", "warning") in by_pointer  # ERRATA: no sub-object
    assert ("/extensions/OMI_physics_shape/shapes/2/type", "error") in by_pointer
    assert len(found) == 3  # the unknown type is not also reported as "matches no branch"
    trigger = {"extensionsUsed": ["OMI_physics_body"],
               "nodes": [{"extensions": {"OMI_physics_body": {"trigger": {}}}},
                         {"extensions": {"OMI_physics_body": {"trigger": {"shape": 0, "nodes": [1]}}}}]}
    assert [(issue.pointer, issue.severity) for issue in schema.schema_errors(trigger)] == [
        ("/nodes/0/extensions/OMI_physics_body/trigger", "warning"),
        ("/nodes/1/extensions/OMI_physics_body/trigger", "error")]
    repeated = {"extensionsUsed": ["OMI_physics_body"],
                "nodes": [{"extensions": {"OMI_physics_body": {"collider": {"shape": -1}}}} for _ in range(3)]}
    assert [issue.pointer for issue in schema.schema_errors(repeated)] == [
        f"/nodes/{index}/extensions/OMI_physics_body/collider/shape" for index in range(3)]  # checked once, said thrice
    long_value = _shapes({"type": "box", "box": {"size": ["x" * 500, 1, 1]}})
    assert all(len(issue.message) <= schema.MESSAGE_LIMIT for issue in schema.schema_errors(long_value))
    escaped = {"extensionsUsed": ["OMI_physics_body"], "nodes": [{"extensions": {"OMI_physics_body": {
        "collider": {"shape": 0, "extras": {"a/b~c": float("inf")}}}}}]}
    assert [issue.pointer for issue in schema.schema_errors(escaped)] == [
        "/nodes/0/extensions/OMI_physics_body/collider/extras/a~1b~0c"]


def test_spec_folder_is_found_from_argument_environment_or_checkout(spec_dir: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(schema.SPEC_DIR_VARIABLE, raising=False)
    # the add-on carries its schemas (io/omi/schemas), so an installed copy (the zip) finds them too
    assert schema.find_spec_dir() == schema.default_spec_dir()
    assert schema.default_spec_dir().parts[-3:] == ("omi", "schemas", "omi-spec")
    assert schema.unavailable_reason() is None
    monkeypatch.setenv(schema.SPEC_DIR_VARIABLE, str(tmp_path))
    assert schema.find_spec_dir() is None and str(tmp_path) in present(schema.unavailable_reason())
    assert schema.validators() is None
    only_json = schema.schema_errors(_shapes({"type": "blob"}, {"type": "box", "box": {"size": [float("nan"), 1, 1]}}))
    assert [(issue.pointer, issue.message) for issue in only_json] == [
        ("/extensions/OMI_physics_shape/shapes/1/box/size/0", "not strict JSON: nan is not a JSON number")]
    assert schema.find_spec_dir(spec_dir) == spec_dir and schema.validators(spec_dir) is not None
    assert schema.schema_errors(_shapes({"type": "blob"}), spec_dir)[0].pointer.endswith("/type")
