"""`omi_physics_cli.py validate` in-process: spec examples, broken files, unreadable files, --json, --strict,
schemas missing (test_cli_smoke.py runs a batch in a process pool)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import schema_check
from cli_support import glb_bytes, lines, run_cli, write_gltf

EXAMPLES = sorted([*schema_check.SPEC_DIR.rglob("*.gltf"), *schema_check.SPEC_DIR.rglob("*.glb")]) \
    if schema_check.SPEC_DIR.is_dir() else []  # the gravity examples come as .glb too


def _current(**overrides) -> dict:
    """A small valid current-revision file: a dynamic box on a static floor."""
    document = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}}]}},
        "nodes": [{"name": "Crate", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 2},
                                                                        "collider": {"shape": 0}}}},
                  {"name": "Floor", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0, 1]}],
    }
    document.update(overrides)
    return document


def _broken_files(folder: Path) -> dict[str, tuple[str, str, str]]:
    """file name -> (expected pointer, message fragment, source) of one error each."""
    cases: dict[str, tuple[str, str, str]] = {}

    negative = _current()
    negative["extensions"]["OMI_physics_shape"]["shapes"][0]["box"]["size"] = [1, -2, 3]
    write_gltf(folder / "negative_size.gltf", negative)
    cases["negative_size.gltf"] = ("/extensions/OMI_physics_shape/shapes/0/box/size/1", "must be > 0", "rules")

    dangling = _current()
    dangling["nodes"][1]["extensions"]["OMI_physics_body"]["collider"]["shape"] = 7
    write_gltf(folder / "dangling_shape.gltf", dangling)
    cases["dangling_shape.gltf"] = ("/nodes/1/extensions/OMI_physics_body/collider/shape", "out of range", "rules")

    named = _current()
    named["extensions"]["OMI_physics_shape"]["shapes"][0]["name"] = 5  # only the schema looks at names
    write_gltf(folder / "numeric_name.gltf", named)
    cases["numeric_name.gltf"] = ("/extensions/OMI_physics_shape/shapes/0/name", "is not of type 'string'", "schema")

    unlisted = _current(extensionsUsed=["OMI_physics_shape"])
    (folder / "unlisted.glb").write_bytes(glb_bytes(unlisted, b"\x01\x02\x03"))
    cases["unlisted.glb"] = ("/extensionsUsed", "OMI_physics_body is used but not listed", "schema")

    not_a_number = _current()
    not_a_number["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]["mass"] = math.nan
    (folder / "nan_mass.gltf").write_text(json.dumps(not_a_number), encoding="utf-8")  # Python writes NaN
    cases["nan_mass.gltf"] = ("/nodes/0/extensions/OMI_physics_body/motion/mass", "finite number", "rules")

    nan_extras = _current()
    nan_extras["nodes"][1]["extras"] = {"weight": math.inf}  # not OMI, but no longer JSON either
    (folder / "nan_extras.gltf").write_text(json.dumps(nan_extras), encoding="utf-8")
    cases["nan_extras.gltf"] = ("/nodes/1/extras/weight", "not strict JSON", "schema")
    return cases


def test_every_spec_example_is_clean(spec_dir):
    result = run_cli("validate", spec_dir, "--jobs", 1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert lines(result.stdout)[-1].startswith(f"{len(EXAMPLES)} files, 0 errors, ")
    progress = [line for line in lines(result.stderr) if line.startswith("[")]
    assert len(progress) == len(EXAMPLES)
    assert {line.split("] ", 1)[1].rsplit(": ", 1)[0] for line in progress} == {str(path) for path in EXAMPLES}
    assert "error" not in result.stdout.replace("0 errors", "")
    # the ERRATA forms the spec's own examples use are warnings that say how they are read
    assert "default_box.gltf: warning /extensions/OMI_physics_shape/shapes/0: shape has no `box` object" \
        in result.stdout
    assert "weld_joint.gltf: warning /extensions/OMI_physics_joint/physicsJoints/0/limits/0: limit has both" \
        in result.stdout
    assert "legacy OMI content (OMI_collider)" in result.stdout


def test_broken_files_report_pointer_and_message(spec_dir, tmp_path):
    cases = _broken_files(tmp_path)
    result = run_cli("validate", *sorted(tmp_path.iterdir()), "--no-progress")
    assert result.returncode == 1, result.stdout + result.stderr
    output = lines(result.stdout)
    for name, (pointer, fragment, _source) in cases.items():
        matching = [line for line in output if line.startswith(f"{tmp_path / name}: error {pointer}: ")]
        assert matching and any(fragment in line for line in matching), (name, output)
    assert output[-1].startswith(f"{len(cases)} files, ")
    assert result.stderr == ""  # no progress lines asked for, schemas found


def test_json_output_lists_every_file_and_issue(spec_dir, tmp_path):
    cases = _broken_files(tmp_path)
    write_gltf(tmp_path / "clean.gltf", _current())
    result = run_cli("validate", *sorted(tmp_path.iterdir()), "--json", "--jobs", 1)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    files = {Path(entry["file"]).name: entry for entry in report["files"]}
    assert set(files) == {*cases, "clean.gltf"}
    assert files["clean.gltf"]["status"] == "ok" and files["clean.gltf"]["issues"] == []
    for name, (pointer, fragment, source) in cases.items():
        errors = [issue for issue in files[name]["issues"] if issue["severity"] == "error"]
        assert any(issue["pointer"] == pointer and fragment in issue["message"] and issue["source"] == source
                   for issue in errors), (name, errors)
        assert files[name]["status"] == "errors" and files[name]["errors"] == len(errors)
    assert report["schemas"]["checked"] is True
    assert report["summary"] == {"files": len(files), "errors": sum(entry["errors"] for entry in files.values()),
                                 "warnings": sum(entry["warnings"] for entry in files.values()), "unreadable": 0}


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.gltf", None, "No such file or directory"),
    ("truncated.json.gltf", b'{"asset": {"version": "2.0"}, "nodes": [', "not valid JSON"),
    ("cut.glb", glb_bytes({"asset": {"version": "2.0"}}, b"\x00" * 16)[:-8], "GLB header says"),
    ("latin1.gltf", '{"asset": {"version": "2.0"}, "nodes": [{"name": "Ä"}]}'.encode("latin-1"), "not UTF-8"),
])
def test_unreadable_files_exit_2(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    write_gltf(tmp_path / "fine.gltf", _current())
    result = run_cli("validate", path, tmp_path / "fine.gltf", "--no-progress")
    assert result.returncode == 2
    assert f"{path}: error: cannot read: " in result.stdout and message in result.stdout
    assert lines(result.stdout)[-1] == "2 files, 0 errors, 0 warnings, 1 unreadable"


def test_usage_errors_exit_2(tmp_path):
    assert run_cli("validate").returncode == 2  # argparse: a file is required
    empty = run_cli("validate", tmp_path)  # a folder without glTF files
    assert empty.returncode == 2 and "no .gltf or .glb files" in empty.stderr


def test_strict_fails_on_warnings(spec_dir):
    default_box = spec_dir / "OMI_physics_shape" / "examples" / "default_box.gltf"
    assert run_cli("validate", default_box).returncode == 0
    strict = run_cli("validate", default_box, "--strict")
    assert strict.returncode == 1 and lines(strict.stdout)[-1] == "1 file, 0 errors, 1 warning"
    assert run_cli("validate", default_box, "--quiet").stdout.strip() == "1 file, 0 errors, 1 warning"


def test_without_schemas_the_rules_still_run(tmp_path):
    _broken_files(tmp_path)
    result = run_cli("validate", *sorted(tmp_path.iterdir()), "--json", "--jobs", 1,
                     env={"OMI_SPEC_DIR": str(tmp_path / "no-spec-here")})
    assert result.returncode == 1
    notes = [line for line in lines(result.stderr) if "schemas not checked" in line]
    assert len(notes) == 1 and "no-spec-here" in notes[0]
    report = json.loads(result.stdout)
    assert report["schemas"]["checked"] is False
    by_name = {Path(entry["file"]).name: entry for entry in report["files"]}
    numeric = by_name["numeric_name.gltf"]  # the schema's error; the reader warns it cannot carry the name
    assert numeric["status"] == "warnings"
    assert [issue["pointer"] for issue in numeric["issues"]] == ["/extensions/OMI_physics_shape/shapes/0/name"]
    assert by_name["dangling_shape.gltf"]["status"] == "errors"
    assert [issue["pointer"] for issue in by_name["nan_extras.gltf"]["issues"]] == ["/nodes/1/extras/weight"]
    assert by_name["nan_extras.gltf"]["status"] == "errors"  # strict JSON needs no schema
