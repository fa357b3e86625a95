"""The command line inside the add-on: enabling it registers `blender --command omi_physics`, whose function
runs the same tool as scripts/omi_physics_cli.py (the real-Blender job runs the command itself from the
installed zip: scripts/ci/smoke_installed.py)."""

from __future__ import annotations

import json

import bpy
import omi_core.cli.batch
import pytest
from cli_support import write_gltf
from test_cli_validate import _current


@pytest.fixture
def command(omi):
    return omi("io.cli_blender")


def test_enabling_the_addon_registers_the_command(command):
    assert len(command._handle) == 1
    assert type(command._handle[0]).__name__ == "PyCapsule"
    with pytest.raises(ValueError, match="identifier"):  # why the command's name has no dash
        bpy.utils.register_cli_command("omi-physics", command.execute)


def test_validate_through_the_registered_command(command, tmp_path, capsys):
    good = write_gltf(tmp_path / "good.gltf", _current())
    bad = _current()
    bad["extensions"]["OMI_physics_shape"]["shapes"][0]["box"]["size"] = [1, -2, 3]
    broken = write_gltf(tmp_path / "broken.gltf", bad)
    assert command.execute(["validate", str(good)]) == 0
    assert capsys.readouterr().out.strip() == "1 file, 0 errors, 0 warnings"
    assert command.execute(["validate", "--json", str(broken)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["files"][0]["errors"] == 1
    assert command.execute(["validate"]) == 2  # a usage error is an exit status, never a SystemExit in Blender
    assert "blender --command omi_physics validate" in capsys.readouterr().err


def test_help_and_version_return_zero(command, capsys):
    assert command.execute(["--help"]) == 0
    assert "blender --command omi_physics" in capsys.readouterr().out
    assert command.execute(["--version"]) == 0
    assert capsys.readouterr().out.split()[-1].count(".") == 2


def test_import_through_the_registered_command(command, tmp_path, capsys):
    source = write_gltf(tmp_path / "crate.gltf", _current())
    blend = tmp_path / "crate.blend"
    status = command.execute(["import", str(source), "--out", str(blend), "--in-process"])
    printed = capsys.readouterr()
    assert status == 0, printed.out + printed.err
    assert blend.is_file()
    assert printed.out.strip().splitlines()[-1].endswith("2 with OMI physics, 0 errors, 0 warnings")


def test_validate_with_spawned_workers_through_the_registered_command(command, omi, tmp_path, capsys, monkeypatch):
    """As on macOS and Windows: the workers are fresh Pythons that load the add-on's core (named
    bl_ext.<repository>.omi_physics.io.omi here) by path."""
    files = [str(write_gltf(tmp_path / f"{name}.gltf", _current())) for name in ("a", "b")]
    monkeypatch.setattr(omi_core.cli.batch.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert command.execute(["validate", "--jobs", "2", "--no-progress", *files]) == 0
    assert capsys.readouterr().out.strip() == "2 files, 0 errors, 0 warnings"
