"""The command line explains itself (io/omi/cli/front.py and the parsers it gathers): every command and
argument described, one case for target names, `--version`, old option names kept as hidden aliases, and
the messages of the mistakes a new user makes. Pure: `import`/`export` stop before Blender would start."""

from __future__ import annotations

import argparse
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from omi_core.cli import front
from omi_core.dialects import registry
from omi_core_loader import CORE_DIR, TESTS_DATA
from present import present

PROG = "omi_physics_cli"


class NoBlender:
    """A host that must never be reached: these command lines fail or finish before Blender."""

    def child_command(self) -> list[str] | None:
        raise AssertionError("Blender would start")

    def run(self, args: argparse.Namespace) -> int:
        raise AssertionError("Blender would run")


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    try:
        status = front.main([str(word) for word in argv], NoBlender(), PROG)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 0
    printed = capsys.readouterr()
    return status, printed.out, printed.err


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = front.build_parser(PROG)
    action = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_and_argument_is_described() -> None:
    parser = front.build_parser(PROG)
    assert parser.description is not None and "convert" in parser.description
    commands = subcommands()
    assert set(commands) == set(front.COMMANDS)
    for name, command in commands.items():
        assert command.description, name
        undescribed = [action.dest for action in command._actions if not action.help]
        assert undescribed == [], name


def test_the_top_level_help_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(capsys, "--help")
    assert status == 0
    for name in front.COMMANDS:
        assert f"    {name} " in out
    assert "Check, upgrade, convert, import and export" in out


def test_validate_help_names_both_dialects(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _err = run(capsys, "validate", "--help")
    text = " ".join(out.split())
    assert "(OMI, with the fixes of ERRATA.md; KHR_physics_rigid_bodies and KHR_implicit_shapes)" in text
    _status, out, _err = run(capsys, "--help")
    assert "check the physics (OMI and KHR)" in " ".join(out.split())


def test_version_comes_from_the_manifest(capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tomllib.loads((CORE_DIR.parent.parent / "blender_manifest.toml").read_text(encoding="utf-8"))
    status, out, _err = run(capsys, "--version")
    assert (status, out.strip()) == (0, f"{PROG} {manifest['version']}")


def test_target_names_are_lower_case_in_any_case_and_convert_has_both() -> None:
    commands = subcommands()
    for command, flag in (("convert", "--to"), ("export", "--target")):
        action = next(action for action in commands[command]._actions if flag in action.option_strings)
        names = [target.name.lower() for target in registry.targets()]
        assert list(present(action.choices)) == names and "both" in names, command
    parser = front.build_parser(PROG)
    assert parser.parse_args(["convert", "a.gltf", "--to", "KHR", "--out", "b.gltf"]).to == "khr"
    assert parser.parse_args(["export", "a.blend", "--out", "b.glb", "--target", "Both"]).target == "both"
    assert parser.parse_args(["export", "a.blend", "--out", "b.glb", "--dialect", "GODOT"]).target == "godot"


def test_the_rigid_body_options_have_one_meaning_each() -> None:
    """import: build no Blender rigid bodies; export: leave out objects with only a Blender rigid body. The old
    shared spelling still works on both, hidden from the help."""
    parser = front.build_parser(PROG)
    imported = parser.parse_args(["import", "a.gltf", "--out", "a.blend", "--no-rigid-bodies"])
    assert imported.no_blender_rigid_bodies
    assert parser.parse_args(["import", "a.gltf", "--out", "a.blend", "--no-blender-rigid-bodies"]) \
        .no_blender_rigid_bodies
    exported = parser.parse_args(["export", "a.blend", "--out", "a.glb", "--no-rigid-bodies"])
    assert exported.no_untagged_rigid_bodies
    commands = subcommands()
    for name in ("import", "export"):
        assert "--no-rigid-bodies" not in commands[name].format_help()
    physics = {name: present(next(action.help for action in commands[name]._actions if action.dest == "no_physics"))
               for name in ("import", "export")}
    assert "--target" in physics["export"] and "OMI or KHR" in physics["import"]


def test_an_export_to_another_format_is_told_the_gltf_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scene = tmp_path / "scene.blend"
    scene.write_bytes(b"BLENDER")
    status, _out, err = run(capsys, "export", scene, "--out", tmp_path / "x.obj")
    assert status == 2
    assert err.strip() == "error: --out 'x.obj' is no glTF file name: name it .glb (one binary file) or .gltf " \
                          "(JSON with a .bin beside it)"
    status, _out, err = run(capsys, "export", scene, "--out", tmp_path / "x.gltf", "--format", "glb")
    assert (status, err.strip()) == (2, "error: --out 'x.gltf' does not fit --format glb (name it .glb)")


def test_a_buffer_is_not_a_gltf(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "demo.bin").write_bytes(bytes(range(40)))
    (tmp_path / "demo.gltf").write_text(json.dumps({"asset": {"version": "2.0"},
                                                    "buffers": [{"uri": "demo.bin", "byteLength": 40}]}))
    status, out, _err = run(capsys, "validate", "--no-progress", tmp_path / "demo.bin")
    assert status == 2
    assert f"{tmp_path / 'demo.bin'}: error: cannot read: a .bin file is a glTF buffer (the binary data a .gltf " \
           "refers to), not a glTF; validate demo.gltf, which names it" in out


def test_a_pure_khr_file_lists_only_khr_revisions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(capsys, "validate", "--json", TESTS_DATA / "khr" / "joints.gltf")
    revisions = json.loads(out)["files"][0]["revisions"]
    assert status == 0 and revisions and all(name.startswith("KHR_") for name in revisions), revisions


def test_both_dialects_in_one_file_do_not_warn_about_each_other(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    """convert --to both writes OMI and KHR on every node; validate --strict passes it: a bare static motion
    (KHR's collider without motion) and a cylinder's default height are the same physics in both."""
    source = tmp_path / "scene.gltf"
    shutil.copy(TESTS_DATA / "cli" / "current_scene.gltf", source)
    status, out, err = run(capsys, "convert", source, "--to", "both", "--out", tmp_path / "both.gltf",
                           "--jobs", "1", "--no-progress")
    assert status == 0, out + err
    written = json.loads((tmp_path / "both.gltf").read_text(encoding="utf-8"))
    assert {"OMI_physics_body", "KHR_physics_rigid_bodies"} <= set(written["extensionsUsed"])
    status, out, err = run(capsys, "validate", "--strict", tmp_path / "both.gltf")
    assert (status, out.strip()) == (0, "1 file, 0 errors, 0 warnings"), out + err
