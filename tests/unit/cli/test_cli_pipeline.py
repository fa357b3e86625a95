"""The pipeline user's day with the pure commands (issue 25, and the command line of issue 27): `convert` and
`upgrade` carry animation channels along, write working files into other folders, leave a file with nothing
to upgrade alone, refuse a wrong --spec-dir, make missing output folders, and name what they cannot read.
Run in-process through io/omi/cli/commands.py (no bpy), or as the real script where blocking is the risk."""

from __future__ import annotations

import base64
import copy
import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_run import run
from omi_core.checks import schema, schema_khr
from omi_core.read import reader
from omi_core_loader import CORE_DIR, KHR_DIR, SPEC_DIR
from present import present

CLI = CORE_DIR.parent.parent / "scripts" / "omi_physics_cli.py"
DRIVE = "/extensions/OMI_physics_joint/physicsJoints/0/drives/0/velocityTarget"
SHAPE = "/extensions/OMI_physics_shape/shapes/1/box/size"
MASS = "/nodes/1/extensions/OMI_physics_body/motion/mass"



def animated_scene(buffer_uri: str | None = None) -> tuple[dict[str, Any], bytes]:
    """A floor, a door and a post with equal box colliders (three equal shapes in the file), a hinge, and
    three channels: the hinge drive's velocity, the door's box size and the door's mass."""
    data = struct.pack("<2f", 0.0, 1.0) + struct.pack("<2f", 1.0, 2.0) + struct.pack("<6f", 1, 1, 1, 2, 2, 2)
    box = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}

    def channel(sampler: int, pointer: str) -> dict[str, Any]:
        return {"sampler": sampler, "target": {"path": "pointer",
                                               "extensions": {"KHR_animation_pointer": {"pointer": pointer}}}}

    document = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "KHR_animation_pointer"],
        "scene": 0, "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": [
            {"name": "floor", "children": [3], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
            {"name": "door", "translation": [0.0, 0.0, 0.0], "extensions": {"OMI_physics_body": {
                "motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 1}}}},
            {"name": "post", "translation": [4.0, 0.0, 0.0],
             "extensions": {"OMI_physics_body": {"collider": {"shape": 2}}}},
            {"name": "hinge", "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 1}}},
        ],
        "extensions": {
            "OMI_physics_shape": {"shapes": [copy.deepcopy(box) for _ in range(3)]},
            "OMI_physics_joint": {"physicsJoints": [{
                "limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}],
                "drives": [{"type": "angular", "mode": "force", "axis": 0, "velocityTarget": 1.0, "damping": 1.0}]}]},
        },
        "buffers": [{"byteLength": len(data), "uri": buffer_uri or
                     "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": offset, "byteLength": length}
                        for offset, length in ((0, 8), (8, 8), (16, 24))],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0],
                       "max": [1.0]},
                      {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR"},
                      {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"}],
        "animations": [{"name": "physics",
                        "samplers": [{"input": 0, "output": 1}, {"input": 0, "output": 2}, {"input": 0, "output": 1}],
                        "channels": [channel(0, DRIVE), channel(1, SHAPE), channel(2, MASS)]}],
    }
    return document, data


def write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def pointers_of(document: dict[str, Any]) -> list[str]:
    return [channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
            for channel in document["animations"][0]["channels"]]


def validated(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Validate a file: it must have no errors; the printed text."""
    capsys.readouterr()
    status = run("validate", path)
    text = capsys.readouterr().out
    assert status == 0, text
    return text


def test_convert_carries_animation_channels_both_ways(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path / "omi.gltf", animated_scene()[0])
    assert run("convert", source, "--to", "KHR", "--out", tmp_path / "khr.gltf") == 0
    khr = json.loads((tmp_path / "khr.gltf").read_text(encoding="utf-8"))
    shapes = khr["extensions"]["KHR_implicit_shapes"]["shapes"]
    door_shape = khr["nodes"][1]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"]
    assert pointers_of(khr) == ["/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/velocityTarget",
                                f"/extensions/KHR_implicit_shapes/shapes/{door_shape}/box/size",
                                "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/mass"]
    others = [khr["nodes"][index]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"]
              for index in (0, 2)]
    assert door_shape not in others and len(shapes) == 2  # the animated box is the door's alone
    validated(tmp_path / "khr.gltf", capsys)
    assert run("convert", tmp_path / "khr.gltf", "--to", "OMI", "--out", tmp_path / "back.gltf") == 0
    back = json.loads((tmp_path / "back.gltf").read_text(encoding="utf-8"))
    door_shape = back["nodes"][1]["extensions"]["OMI_physics_body"]["collider"]["shape"]
    assert pointers_of(back) == [DRIVE, f"/extensions/OMI_physics_shape/shapes/{door_shape}/box/size", MASS]
    validated(tmp_path / "back.gltf", capsys)


def test_convert_refuses_a_channel_with_no_place_in_the_target(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path / "omi.gltf", animated_scene()[0])
    assert run("convert", source, "--to", "KHR", "--out", tmp_path / "khr.gltf") == 0
    khr = json.loads((tmp_path / "khr.gltf").read_text(encoding="utf-8"))
    khr["animations"][0]["channels"][2]["target"]["extensions"]["KHR_animation_pointer"]["pointer"] = \
        "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/isKinematic"  # OMI spells it as a motion type
    write(tmp_path / "khr.gltf", khr)
    capsys.readouterr()
    assert run("convert", tmp_path / "khr.gltf", "--to", "OMI", "--out", tmp_path / "omi_again.gltf") == 1
    text = capsys.readouterr().out
    assert "error /animations/0/channels/2/target/extensions/KHR_animation_pointer/pointer: " \
           "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/isKinematic has no single place" in text
    assert not (tmp_path / "omi_again.gltf").exists()


def test_upgrade_carries_channels_when_items_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document, _data = animated_scene()
    document["nodes"][0]["extensions"]["OMI_physics_body"] = {"type": "static", "collider": {"shape": 0}}  # legacy
    source = write(tmp_path / "legacy.gltf", document)
    assert run("upgrade", source, "--out", tmp_path / "new.gltf") == 0
    new = json.loads((tmp_path / "new.gltf").read_text(encoding="utf-8"))
    door_shape = new["nodes"][1]["extensions"]["OMI_physics_body"]["collider"]["shape"]
    assert pointers_of(new)[1] == f"/extensions/OMI_physics_shape/shapes/{door_shape}/box/size"
    assert door_shape != new["nodes"][2]["extensions"]["OMI_physics_body"]["collider"]["shape"]
    assert "new.gltf: upgraded" in capsys.readouterr().out
    validated(tmp_path / "new.gltf", capsys)


def test_convert_into_another_folder_writes_a_working_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document, data = animated_scene("scene.bin")
    source = write(tmp_path / "in" / "scene.gltf", document)
    (tmp_path / "in" / "scene.bin").write_bytes(data)
    out = tmp_path / "elsewhere" / "deeper" / "scene_khr.gltf"  # a folder that does not exist yet
    assert run("convert", source, "--to", "KHR", "--out", out) == 0
    assert (out.parent / "scene.bin").read_bytes() == data
    validated(out, capsys)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "scene.bin").write_bytes(b"not the same")
    assert run("convert", source, "--to", "KHR", "--out", tmp_path / "other" / "x.gltf") == 1
    assert "a different file of that name" in capsys.readouterr().out
    assert not (tmp_path / "other" / "x.gltf").exists()
    (tmp_path / "in" / "scene.bin").unlink()
    assert run("convert", source, "--to", "KHR", "--out", tmp_path / "third" / "x.gltf") == 1
    assert "not next to the input either" in capsys.readouterr().out


@pytest.mark.parametrize("command", [("upgrade",), ("convert", "--to", "OMI")])
def test_a_missing_output_folder_is_made_and_a_file_in_the_way_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]) -> None:
    source = write(tmp_path / "scene.gltf", animated_scene()[0])
    assert run(*command, source, "--out", tmp_path / "new" / "folder" / "x.gltf") == 0
    assert (tmp_path / "new" / "folder" / "x.gltf").is_file()
    (tmp_path / "a_file").write_text("x")
    capsys.readouterr()
    assert run(*command, source, "--out", tmp_path / "a_file" / "x.gltf") == 2
    assert "a file of that name is in the way" in capsys.readouterr().err
    assert run(*command, source, "--out-dir", tmp_path / "a_file" / "sub") == 2
    assert "a part of its path is a file" in capsys.readouterr().err


def test_upgrade_with_nothing_to_upgrade_leaves_the_file_byte_for_byte(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(animated_scene()[0], indent=3)
    text = text.replace('"damping": 1.0', '"damping": 1.0, "stiffness": 0.0')  # an explicit default
    source = tmp_path / "current.gltf"
    source.write_text(text, encoding="utf-8")
    assert run("upgrade", source, "--out", tmp_path / "out" / "copy.gltf") == 0
    assert (tmp_path / "out" / "copy.gltf").read_bytes() == source.read_bytes()
    assert run("upgrade", source, "--in-place") == 0
    assert source.read_text(encoding="utf-8") == text
    assert "nothing to upgrade" in capsys.readouterr().out


def test_upgrade_of_a_pure_khr_file_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "joints.gltf"
    source.write_bytes((KHR_DATA / "joints.gltf").read_bytes())
    assert run("upgrade", source, "--in-place") == 0
    assert source.read_bytes() == (KHR_DATA / "joints.gltf").read_bytes()
    assert "OMI_physics" not in source.read_text(encoding="utf-8")
    assert "nothing to upgrade, left unchanged" in capsys.readouterr().out


KHR_DATA = Path(__file__).resolve().parents[2] / "data" / "khr"


@pytest.mark.parametrize("command", [("validate",), ("upgrade", "--in-place"),
                                     ("convert", "--to", "KHR", "--in-place")])
def test_a_wrong_spec_dir_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[Any,
                                           ...]) -> None:
    source = write(tmp_path / "scene.gltf", animated_scene()[0])
    assert run(*command, source, "--spec-dir", tmp_path / "no-such-folder") == 2
    assert "--spec-dir" in capsys.readouterr().err


def test_the_add_on_carries_the_schemas_it_checks_with(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(schema.SPEC_DIR_VARIABLE, raising=False)
    monkeypatch.delenv(schema_khr.KHR_DIR_VARIABLE, raising=False)
    bundled = Path(schema.__file__).resolve().parents[1] / "schemas"  # the loaded core's (an installed add-on's)
    assert schema.find_spec_dir() == bundled / "omi-spec" and schema_khr.khr_dir_candidate() == bundled / "khr-spec"
    assert (bundled / "omi-spec" / "LICENSE-W3C-spec.md").is_file()
    assert (bundled / "khr-spec" / "LICENSE-KhronosSpecCopyright.txt").is_file()
    for copy_dir, spec in ((bundled / "omi-spec", SPEC_DIR), (bundled / "khr-spec", KHR_DIR)):
        copies = sorted(path.relative_to(copy_dir) for path in copy_dir.rglob("*.schema.json"))
        assert copies == sorted(path.relative_to(spec) for path in spec.rglob("*.schema.json"))
        assert all((copy_dir / name).read_bytes() == (spec / name).read_bytes() for name in copies)


def test_a_file_named_glb_that_is_not_glb_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "json.glb").write_text(json.dumps(animated_scene()[0]), encoding="utf-8")
    (tmp_path / "noise.glb").write_bytes(b"\x00\x01garbage")
    assert run("validate", tmp_path / "json.glb", tmp_path / "noise.glb") == 2
    text = capsys.readouterr().out
    assert "json.glb: error: cannot read: named .glb but not a GLB file" in text and "name it .gltf" in text
    assert "noise.glb: error: cannot read: named .glb but not a GLB file" in text
    assert "not valid JSON" not in text


def test_folder_entries_that_are_not_files_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "real.gltf", animated_scene()[0])
    os.mkfifo(tmp_path / "pipe.gltf")
    (tmp_path / "folder.gltf").mkdir()
    (tmp_path / "gone.glb").symlink_to(tmp_path / "missing.glb")
    assert run("validate", tmp_path) == 0
    captured = capsys.readouterr()
    assert f"{tmp_path / 'pipe.gltf'}: skipped: not a regular file but a FIFO (named pipe)" in captured.err
    assert f"{tmp_path / 'folder.gltf'}: skipped: not a regular file but a folder" in captured.err
    assert f"{tmp_path / 'gone.glb'}: skipped: a symbolic link to a missing file" in captured.err
    assert captured.out.strip().splitlines()[-1] == "1 file, 0 errors, 0 warnings"


def test_validate_never_waits_on_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.gltf")
    result = subprocess.run([sys.executable, str(CLI), "validate", str(tmp_path / "pipe.gltf")],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "pipe.gltf: error: cannot read: not a regular file but a FIFO (named pipe)" in result.stdout


OMI_PHYSICS = Path(__file__).resolve().parents[2] / "data" / "omi_physics"  # made by its make_files.py


def test_files_of_the_omi_physics_engine_are_read_as_it_meant() -> None:
    """tests/data/omi_physics: written by the PyPI package omi_physics 0.4.0 (make_files.py). Its capsule is
    mid-height + radius, its joints sit in the body extension, its limits list an empty other axis kind."""
    shapes = json.loads((OMI_PHYSICS / "omi_physics_shapes.gltf").read_text(encoding="utf-8"))
    assert shapes["asset"]["generator"].startswith("omi_physics ")
    capsule = present(present(reader.read_document(shapes).nodes[0].collider).shape)
    assert (capsule.type, capsule.height, capsule.radius_top, capsule.radius_bottom) == ("capsule", 1.0, 0.5, 0.5)
    notes = [found for found in reader.read_document(shapes).issues if "asset.generator" in found.message]
    assert [(found.pointer, found.severity) for found in notes] == [
        ("/extensions/OMI_physics_shape/shapes/0/capsule", "info")]
    anonymous = copy.deepcopy(shapes)
    del anonymous["asset"]["generator"]  # the spec's reading: the old full-height form, a sphere here
    assert present(present(reader.read_document(anonymous).nodes[0].collider).shape).type == "sphere"

    joints = json.loads((OMI_PHYSICS / "omi_physics_joints.gltf").read_text(encoding="utf-8"))
    doc = reader.read_document(joints)
    door, carriage = present(doc.nodes[1].joint), present(doc.nodes[2].joint)
    assert (door.connected_node, carriage.connected_node, carriage.enable_collision) == (0, 0, True)
    hinge = present(door).settings.limits
    assert [(tuple(limit.linear_axes), tuple(limit.angular_axes), limit.min, limit.max) for limit in hinge] == [
        ((0, 1, 2), (), 0.0, 0.0), ((), (1, 2), 0.0, 0.0), ((), (0,), -1.5, 1.5)]
    assert joints["nodes"][1]["extensions"]["OMI_physics_body"]["joint"] == {  # the reading changed no JSON
        "joint": 0, "connectedNode": 0, "enableCollision": False}


def test_validate_names_each_assumption_and_finds_nothing_else(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("validate", OMI_PHYSICS, "-v") == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "2 files, 0 errors, 0 warnings"
    assert "asset.generator is 'omi_physics 0.4.0': its capsule `height` is the mid-height" in out
    assert "/nodes/1/extensions/OMI_physics_body/joint: asset.generator is 'omi_physics 0.4.0': a body's `joint`" \
        in out
