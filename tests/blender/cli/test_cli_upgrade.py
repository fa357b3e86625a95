"""`omi_physics_cli.py upgrade` through a subprocess: every legacy example becomes a schema-valid current file
with the same physics meaning, and nothing outside the OMI extensions changes (a GLB's binary chunk and
extra chunks stay byte for byte)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import schema_check
from cli_support import glb_bytes, glb_chunks, lines, run_cli, without_omi, write_gltf

LEGACY = sorted((schema_check.SPEC_DIR / "legacy").rglob("*.gltf")) if schema_check.SPEC_DIR.is_dir() else []
ERRATA_FORMS = ["OMI_physics_joint/examples/weld_joint.gltf", "OMI_physics_body/examples/complex/two_boxes.gltf",
                "OMI_physics_shape/examples/default_box.gltf", "OMI_physics_joint/examples/simple_joint.gltf"]


def _check_upgraded(canonical, original: dict, upgraded: dict) -> None:
    assert schema_check.omi_schema_errors(upgraded) == []
    assert canonical.diff_physics(original, upgraded) == []
    assert without_omi(upgraded) == without_omi(original)


def test_legacy_examples_become_current(spec_dir, canonical, tmp_path):
    result = run_cli("upgrade", spec_dir / "legacy", *(spec_dir / name for name in ERRATA_FORMS),
                     "--out-dir", tmp_path, "--jobs", 1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert lines(result.stdout)[-1].startswith(f"{len(LEGACY) + len(ERRATA_FORMS)} files, "
                                               f"{len(LEGACY) + len(ERRATA_FORMS)} written, 0 errors")
    outputs = [tmp_path / path.relative_to(spec_dir / "legacy") for path in LEGACY]
    outputs += [tmp_path / Path(name).name for name in ERRATA_FORMS]
    for source, output in zip([*LEGACY, *(spec_dir / name for name in ERRATA_FORMS)], outputs, strict=True):
        original, upgraded = schema_check.load_gltf(source), schema_check.load_gltf(output)
        _check_upgraded(canonical, original, upgraded)
        assert f"{source} -> {output}: " in result.stdout
    assert f"{LEGACY[0]} -> {outputs[0]}: upgraded from OMI_collider" in result.stdout
    # a buffer the output refers to goes next to it
    assert (tmp_path / "weld_joint0.bin").read_bytes() == (spec_dir / ERRATA_FORMS[0]).with_name(
        "weld_joint0.bin").read_bytes()
    check = run_cli("validate", tmp_path, "--strict", "--no-progress")
    assert check.returncode == 0, check.stdout


def test_glb_keeps_its_binary_chunk_byte_for_byte(spec_dir, canonical, tmp_path):
    document = json.loads((spec_dir / "legacy/OMI_physics_body_type_enum/examples/two_boxes.gltf").read_text())
    binary = bytes(range(256)) * 3 + b"\x07"  # 769 bytes: padded to 772 in the file
    document["buffers"] = [{"byteLength": len(binary)}]
    document["bufferViews"] = [{"buffer": 0, "byteOffset": 4, "byteLength": 12}]
    document["asset"]["extras"] = {"note": "Grüße"}
    extra_chunk = (b"XTRA", b"\xde\xad\xbe\xef")
    source = tmp_path / "two_boxes.glb"
    source.write_bytes(glb_bytes(document, binary, (extra_chunk,)))
    target = tmp_path / "out" / "two_boxes.glb"
    target.parent.mkdir()
    result = run_cli("upgrade", source, "--out", target)
    assert result.returncode == 0, result.stdout + result.stderr
    before, after = glb_chunks(source.read_bytes()), glb_chunks(target.read_bytes())
    assert [kind for kind, _data in after] == [b"JSON", b"BIN\x00", b"XTRA"]
    assert after[1:] == before[1:]  # binary and unknown chunks untouched, in order
    assert len(after[0][1]) % 4 == 0 and after[0][1].rstrip(b" ") == after[0][1].rstrip()
    _check_upgraded(canonical, document, json.loads(after[0][1]))
    assert f"{source} -> {target}: upgraded from OMI_physics_body.type, OMI_physics_shape.flat" in result.stdout


def test_gltf_text_layout_and_key_order_are_kept(spec_dir, tmp_path):
    source = spec_dir / "legacy/OMI_collider/examples/box_collider.gltf"
    target = tmp_path / "box_collider.gltf"
    assert run_cli("upgrade", source, "--out", target).returncode == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith('{\n    "asset": {\n        "version": "2.0"\n    },\n    "extensions": {')
    node = json.loads(text)["nodes"][0]
    assert list(node) == ["extensions", "name"]  # the rewritten key stays where it was


def test_in_place_and_current_files(spec_dir, canonical, tmp_path):
    current = spec_dir / "OMI_physics_body/examples/basic/dynamic_box.gltf"
    copy = tmp_path / "dynamic_box.gltf"
    copy.write_bytes(current.read_bytes())
    os.chmod(copy, 0o640)
    result = run_cli("upgrade", copy, "--in-place")
    assert result.returncode == 0
    assert f"{copy} -> {copy}: nothing to upgrade, left unchanged" in result.stdout
    assert copy.read_bytes() == current.read_bytes()
    assert copy.stat().st_mode & 0o777 == 0o640
    assert [path.name for path in tmp_path.iterdir()] == ["dynamic_box.gltf"]  # no temporary file left


def test_errors_stop_the_write_unless_forced(tmp_path):
    document = json.loads(json.dumps({
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "box", "size": [1, 1, 1]},
                                                       {"type": "blob", "radius": 1}]}},
        "nodes": [{"name": "Good", "extensions": {"OMI_collider": {"collider": 0}}},
                  {"name": "Bad", "extensions": {"OMI_collider": {"collider": 1}}}]}))
    source = write_gltf(tmp_path / "bad.gltf", document)
    target = tmp_path / "out.gltf"
    refused = run_cli("upgrade", source, "--out", target)
    assert refused.returncode == 1 and not target.exists()
    assert f"{source}: error /extensions/OMI_collider/colliders/1/type: unknown shape type 'blob'" in refused.stdout
    assert "NOT written" in refused.stdout
    forced = run_cli("upgrade", source, "--out", target, "--force")
    assert forced.returncode == 1 and target.exists()
    written = schema_check.load_gltf(target)
    assert schema_check.omi_schema_errors(written) == []
    assert "extensions" not in written["nodes"][1] and written["nodes"][0]["extensions"]["OMI_physics_body"]


def test_members_the_model_does_not_read_are_carried_over(tmp_path):
    """Names, extras and extensions inside OMI objects, which the model does not read, are carried over by the
    upgrade unchanged (kept with the items they belong to); each is named as kept where it is."""
    document = {
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "VENDOR_x"],
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "box", "name": "CrateShape", "box": {"size": [1, 2, 3]}}],
                                  "extras": {"kept": True}},
            "OMI_physics_body": {"physicsMaterials": [{"restitution": 0.5, "name": "Bouncy", "extras": {"m": 1}}]}},
        "nodes": [{"name": "A", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "extensions": {"VENDOR_x": {"name": "inner"}}},
            "collider": {"shape": 0, "physicsMaterial": 0}}}}],
    }
    source, target = write_gltf(tmp_path / "named.gltf", document), tmp_path / "out.gltf"
    result = run_cli("upgrade", source, "--out", target)
    assert result.returncode == 0, result.stdout
    warned = sorted(line.split(" ")[2][:-1] for line in lines(result.stdout) if " warning " in line)
    assert warned == ["/extensions/OMI_physics_body/physicsMaterials/0/extras", "/extensions/OMI_physics_shape/extras",
                      "/nodes/0/extensions/OMI_physics_body/motion/extensions"]
    assert all("kept as it is" in line for line in lines(result.stdout) if " warning " in line)
    written = schema_check.load_gltf(target)
    assert written["extensions"] == document["extensions"]
    assert written["nodes"] == document["nodes"]


def test_usage_and_io_errors(spec_dir, tmp_path):
    legacy = spec_dir / "legacy/OMI_collider/examples/box_collider.gltf"
    two = run_cli("upgrade", legacy, legacy, "--out", tmp_path / "x.gltf")
    assert two.returncode == 2 and "--out takes one input file" in two.stderr
    assert run_cli("upgrade", legacy).returncode == 2  # an output is required
    missing = run_cli("upgrade", tmp_path / "nope.gltf", "--out", tmp_path / "x.gltf")
    assert missing.returncode == 2 and "cannot read: No such file or directory" in missing.stdout
    container = run_cli("upgrade", legacy, "--out", tmp_path / "x.glb")
    assert container.returncode == 2 and "upgrade keeps the container" in container.stdout
    assert lines(container.stdout)[-1] == "1 file, 0 written, 0 errors, 0 warnings, 1 failed"
    assert not (tmp_path / "x.glb").exists() and not (tmp_path / "x.gltf").exists()
    same_names = run_cli("upgrade", spec_dir / "legacy/OMI_collider/examples/trigger_box.gltf",
                         spec_dir / "legacy/OMI_physics_body_type_enum/examples/trigger_box.gltf",
                         "--out-dir", tmp_path)
    assert same_names.returncode == 2 and "same name" in same_names.stderr


def test_json_output(spec_dir, tmp_path):
    result = run_cli("upgrade", spec_dir / "legacy/OMI_collider", "--out-dir", tmp_path, "--json", "--jobs", 1)
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert [Path(entry["out"]).name for entry in report["files"]] == ["box_collider.gltf", "sphere_collider.gltf",
                                                                       "trigger_box.gltf"]
    assert all(entry["status"] == "written" and entry["converted"] == ["OMI_collider"] for entry in report["files"])
    assert report["summary"]["written"] == 3
