"""The command line used the way a hostile (or hurried) user does (issue 27's command line, issue 25's help
text): outputs that cannot be written, options the tool sets itself, file names starting with '-'. Each is a
one-line message and an exit status, never a traceback or a flag the user never typed."""

from __future__ import annotations

import re
import shutil
import sys

import bpy
import pytest
from cli_support import REPO_ROOT, blender_cli, run_cli, run_cli_subprocess

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

SOURCE = REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf"


def _no_traceback(result) -> None:
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize(("verb", "operator"), [("import", "import_scene"), ("export", "export_scene")])
def test_help_suggests_only_options_the_operator_takes(verb, operator, capsys):
    help_text = run_cli(verb, "--help").stdout
    suggested = re.findall(r"e\.g\.\s+(\w+)=", " ".join(help_text.split()))
    assert suggested, help_text
    known = {prop.identifier for prop in getattr(bpy.ops, operator).gltf.get_rna_type().properties}
    assert [key for key in suggested if key not in known] == []


@pytest.mark.parametrize("option", ["filepath=/tmp/elsewhere.glb", "export_format=GLB"])
def test_options_the_tool_sets_are_refused_by_name(tmp_path, option):
    blend = tmp_path / "scene.blend"
    assert blender_cli("import", SOURCE, "--out", blend).returncode == 0
    result = blender_cli("export", blend, "--out", tmp_path / "x.glb", "--gltf-option", option)
    assert result.returncode == 2
    assert f"--gltf-option {option.split('=')[0]} is set by the tool" in result.stderr
    _no_traceback(result)
    assert not (tmp_path / "x.glb").exists()


def test_outputs_that_cannot_be_written_are_usage_errors(tmp_path):
    (tmp_path / "a_file").write_text("in the way", encoding="utf-8")
    through_file = blender_cli("import", SOURCE, "--out", tmp_path / "a_file" / "x.blend")
    assert through_file.returncode == 2 and "a file of that name is in the way" in through_file.stderr
    _no_traceback(through_file)
    deeper = blender_cli("import", SOURCE, "--out", tmp_path / "a_file" / "sub" / "x.blend")
    assert deeper.returncode == 2 and "a part of its path is a file" in deeper.stderr
    blend = tmp_path / "new" / "folder" / "scene.blend"  # a missing folder is made
    assert blender_cli("import", SOURCE, "--out", blend).returncode == 0 and blend.is_file()
    export = blender_cli("export", blend, "--out", tmp_path / "a_file" / "x.glb")
    assert export.returncode == 2 and "a file of that name is in the way" in export.stderr
    _no_traceback(export)
    if sys.platform.startswith("linux"):
        proc = blender_cli("import", SOURCE, "--out", "/proc/omi_cli_test.blend")
        assert proc.returncode == 2 and "error: cannot write /proc/omi_cli_test.blend: " in proc.stderr
        _no_traceback(proc)


def test_a_file_named_like_an_option_goes_after_two_dashes(tmp_path):
    dashed = tmp_path / "-v.gltf"
    shutil.copy(SOURCE, dashed)
    result = run_cli_subprocess("import", "--out", tmp_path / "d.blend", "--", "-v.gltf", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "--in-process" not in result.stderr and "--blender-log" not in result.stderr
    assert (tmp_path / "d.blend").is_file()
    refused = run_cli("validate", "-v.gltf")
    assert refused.returncode == 2
    assert "hint: a file whose name starts with '-' goes after '--', as in: omi_physics_cli validate [options] " \
           "-- -v.gltf" in refused.stderr


def test_the_usage_text_lists_every_command():
    import omi_physics_cli

    usage = omi_physics_cli.__doc__ or ""
    for command in omi_physics_cli.COMMANDS:
        assert f"omi_physics_cli.py {command} " in usage
    assert "--in-process" in usage and "--target" in usage

