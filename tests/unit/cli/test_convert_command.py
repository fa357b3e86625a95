"""The command-line `convert` (OMI <-> KHR) and `validate` on KHR files, run in-process through the pure
commands (io/omi/cli/commands.py) without bpy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import schema_check
from cli_run import run
from omi_core.read import reader
from property_inputs import omi_held

KHR_DATA = Path(__file__).resolve().parents[2] / "data" / "khr"



def test_khr_to_omi_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = KHR_DATA / "joints.gltf"
    assert run("convert", str(source), "--to", "OMI", "--out", str(tmp_path / "omi.gltf")) == 0
    omi = json.loads((tmp_path / "omi.gltf").read_text(encoding="utf-8"))
    assert not [name for name in omi["extensionsUsed"] if name.startswith("KHR_")]
    if schema_check.schemas_available():
        assert schema_check.omi_schema_errors(omi) == []
    # what OMI cannot hold (a centre of mass left to the engine: OMI reads the origin) is as omi_held says
    source_nodes = reader.read_document(json.loads(source.read_text("utf-8"))).nodes
    assert reader.read_document(omi).nodes == omi_held(source_nodes)
    assert run("convert", str(tmp_path / "omi.gltf"), "--to", "KHR", "--out", str(tmp_path / "khr.gltf")) == 0
    back = json.loads((tmp_path / "khr.gltf").read_text(encoding="utf-8"))
    assert reader.read_document(back).nodes == reader.read_document(omi).nodes
    assert "converted from OMI to KHR" in capsys.readouterr().out


def test_refuses_to_lose_meaning_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = KHR_DATA / "khr_differences.gltf"
    out = tmp_path / "omi.gltf"
    assert run("convert", str(source), "--to", "OMI", "--out", str(out)) == 1
    assert not out.exists()
    text = capsys.readouterr().out
    assert "error /nodes/2/extensions/OMI_physics_body/motion/mass: mass: infinite (KHR's 0), which OMI cannot" in text
    assert "NOT written" in text
    assert run("convert", str(source), "--to", "OMI", "--out", str(out), "--force") == 1
    assert out.exists()


def test_validate_covers_khr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = json.loads((KHR_DATA / "shapes_and_motion.gltf").read_text(encoding="utf-8"))
    broken["extensions"]["KHR_implicit_shapes"]["shapes"][0]["sphere"]["radius"] = -1.0
    broken["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["physicsMaterial"] = 9
    path = tmp_path / "broken.gltf"
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert run("validate", str(path)) == 1
    text = capsys.readouterr().out
    assert "/nodes/0/extensions/KHR_physics_rigid_bodies/collider/physicsMaterial" in text
    assert "/extensions/KHR_implicit_shapes/shapes/0/sphere/radius" in text
    shutil.copy(KHR_DATA / "mesh_geometry.gltf", tmp_path / "ok.gltf")
    assert run("validate", str(tmp_path / "ok.gltf"), "--strict") == 0
