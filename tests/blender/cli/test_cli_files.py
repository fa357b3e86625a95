"""The command-line tool's `validate` and `upgrade`, in-process, on the project's own fixture files in
tests/data/cli, also with the schemas out of reach ($OMI_SPEC_DIR naming a folder without them: the schema
part then falls back to the rules, which the tool says); test_cli_blender.py runs `import` and `export` on them:

- legacy_collider.gltf: OMI_collider with a full-height capsule and an isTrigger sphere, plus non-OMI extras;
- legacy_body_type.glb: the body `type` enum with flat shapes on shape nodes, a mesh in the binary chunk;
- current_scene.gltf: the current revision: static floor with a material, a door on a hinge, a trigger;
- broken.gltf: a valid body next to an out-of-range shape index, an unknown motion type and a negative mass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import schema_check
from cli_support import REPO_ROOT, glb_chunks, lines, run_cli, without_omi

DATA = REPO_ROOT / "tests" / "data" / "cli"
LEGACY_COLLIDER = DATA / "legacy_collider.gltf"
LEGACY_BODY = DATA / "legacy_body_type.glb"
CURRENT = DATA / "current_scene.gltf"
BROKEN = DATA / "broken.gltf"
BROKEN_POINTERS = ("/nodes/1/extensions/OMI_physics_body/collider/shape",
                   "/nodes/2/extensions/OMI_physics_body/motion/mass",
                   "/nodes/2/extensions/OMI_physics_body/motion/type")
NO_SCHEMAS = {"OMI_SPEC_DIR": "/nonexistent/omi-spec"}


def _uses_legacy(gltf: dict) -> bool:
    nodes = gltf.get("nodes", [])
    return ("OMI_collider" in json.dumps(gltf) or any("type" in node.get("extensions", {}).get("OMI_physics_body", {})
                                                      for node in nodes)
            or any("OMI_physics_shape" in node.get("extensions", {}) for node in nodes))


@pytest.mark.parametrize("env", [None, NO_SCHEMAS], ids=["with schemas if present", "rules only"])
def test_validate_a_folder_names_each_error_by_pointer(env):
    result = run_cli("validate", DATA, "--jobs", 1, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    output = lines(result.stdout)
    errors = [line for line in output if ": error " in line]
    assert [line.split(" ")[2].rstrip(":") for line in errors] == list(BROKEN_POINTERS)
    assert all(line.startswith(f"{BROKEN}: error ") for line in errors)
    assert "shape 5 is out of range" in errors[0] and "'flying'" in errors[2]
    assert any(line.startswith(f"{LEGACY_COLLIDER}: warning /: legacy OMI content (OMI_collider)") for line in output)
    assert not any(line.startswith(str(CURRENT)) for line in output)  # clean: no line of its own
    assert output[-1].startswith("4 files, 3 errors, ")
    progress = [line for line in lines(result.stderr) if line.startswith("[")]
    assert progress[:2] == [f"[1/4] {BROKEN}: 3 errors", f"[2/4] {CURRENT}: ok"] and len(progress) == 4
    if env is NO_SCHEMAS:
        assert "note: schemas not checked, rules only" in result.stderr


def test_validate_strict_and_json(tmp_path):
    assert run_cli("validate", CURRENT, "--strict").returncode == 0
    assert run_cli("validate", LEGACY_COLLIDER, "--strict").returncode == 1  # the legacy warning fails it
    assert run_cli("validate", LEGACY_COLLIDER).returncode == 0
    result = run_cli("validate", DATA, "--json", "--no-progress")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    by_name = {Path(item["file"]).name: item for item in report["files"]}
    assert {name: item["status"] for name, item in by_name.items()} == {
        "broken.gltf": "errors", "current_scene.gltf": "ok", "legacy_body_type.glb": "warnings",
        "legacy_collider.gltf": "warnings"}
    assert [issue["pointer"] for issue in by_name["broken.gltf"]["issues"] if issue["severity"] == "error"] == \
        list(BROKEN_POINTERS)
    assert report["summary"]["files"] == 4 and report["summary"]["errors"] == 3


def test_upgrade_gltf_rewrites_only_the_physics(canonical, tmp_path):
    out = tmp_path / "upgraded.gltf"
    result = run_cli("upgrade", LEGACY_COLLIDER, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{LEGACY_COLLIDER} -> {out}: upgraded from OMI_collider" in result.stdout
    source, upgraded = json.loads(LEGACY_COLLIDER.read_text()), json.loads(out.read_text())
    assert not _uses_legacy(upgraded)
    assert without_omi(upgraded) == without_omi(source)  # extras, scene names, asset: untouched
    assert canonical.diff_physics(source, upgraded) == []
    shapes = upgraded["extensions"]["OMI_physics_shape"]["shapes"]
    capsule = next(shape["capsule"] for shape in shapes if shape["type"] == "capsule")
    assert capsule == {"radiusTop": 0.25, "radiusBottom": 0.25}  # mid-height 1.5 - 2 * 0.25: the default 1
    assert "trigger" in upgraded["nodes"][2]["extensions"]["OMI_physics_body"]
    checked = run_cli("validate", out, "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    if schema_check.schemas_available():
        assert schema_check.omi_schema_errors(upgraded) == []


def test_upgrade_glb_keeps_the_binary_chunk(canonical, tmp_path):
    out = tmp_path / "upgraded.glb"
    result = run_cli("upgrade", LEGACY_BODY, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    before, after = glb_chunks(LEGACY_BODY.read_bytes()), glb_chunks(out.read_bytes())
    assert [kind for kind, _data in after] == [b"JSON", b"BIN\x00"]
    assert after[1][1] == before[1][1]
    source, upgraded = json.loads(before[0][1]), json.loads(after[0][1])
    assert not _uses_legacy(upgraded)
    assert without_omi(upgraded) == without_omi(source)
    assert canonical.diff_physics(source, upgraded) == []
    assert upgraded["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]["type"] == "dynamic"
    assert run_cli("validate", out, "--strict").returncode == 0


def test_upgrade_refuses_a_file_with_errors(tmp_path):
    out = tmp_path / "broken_upgraded.gltf"
    result = run_cli("upgrade", BROKEN, "--out", out)
    assert result.returncode == 1
    assert f"{BROKEN} -> {out}: NOT written" in result.stdout
    assert all(pointer in result.stdout for pointer in BROKEN_POINTERS)
    assert not out.exists()
    assert run_cli("upgrade", BROKEN, "--out", tmp_path / "wrong.glb").returncode == 2  # .gltf stays .gltf
