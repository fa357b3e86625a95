"""The extension zip holds the add-on and nothing else (issue 25): built by Blender's own `blender_ext.py build`
from a copy of the checkout after a demo run (out/demo with its pictures and files), its entries listed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import bpy
import pytest
from cli_support import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import zip_contents


def _blender_ext() -> Path:
    found = Path(bpy.utils.system_resource("SCRIPTS")) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"
    if not found.is_file():
        pytest.skip(f"Blender's extension builder is not at {found}")
    return found


def _source_copy(tmp_path: Path, manifest: str | None = None) -> Path:
    """The checkout's files (what git would commit), a demo's outputs beside them, and the manifest without
    its wheels (the build would fetch them; the test is about what else goes in)."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the checkout's files")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO_ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    source = tmp_path / "source"
    for name in filter(None, listed):
        if (REPO_ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO_ROOT / name, source / name)
    for stray in ("out/demo/contact_sheet.png", "out/demo/demo.glb", "out/demo/demo.bin", "__pycache__/x.pyc"):
        (source / stray).parent.mkdir(parents=True, exist_ok=True)
        (source / stray).write_bytes(b"\x00" * 1024)
    text = manifest if manifest is not None else (source / "blender_manifest.toml").read_text(encoding="utf-8")
    (source / "blender_manifest.toml").write_text(re.sub(r"wheels = \[.*?\]\n", "", text, flags=re.S),
                                                   encoding="utf-8")
    return source


def _build(source: Path, tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    dist.mkdir()
    built = subprocess.run([sys.executable, str(_blender_ext()), "build", "--source-dir", str(source),
                            "--output-dir", str(dist)], capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    [zip_path] = dist.glob("*.zip")
    return zip_path


def test_the_zip_holds_only_the_add_on(tmp_path):
    zip_path = _build(_source_copy(tmp_path), tmp_path)
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
    assert zip_contents.strays(zip_path) == []
    assert "__init__.py" in names and "blender_manifest.toml" in names
    assert "io/omi/schemas/omi-spec/OMI_physics_shape/schema/glTF.OMI_physics_shape.schema.json" in names
    assert "io/omi/schemas/khr-spec/LICENSE-KhronosSpecCopyright.txt" in names
    python_files = {name for name in names if name.endswith(".py")}
    checkout_files = {str(path.relative_to(REPO_ROOT)) for folder in ("io", "operators", "panels", "properties",
                                                                    "viewport") for path in
                      (REPO_ROOT / folder).rglob("*.py") if "__pycache__" not in path.parts}
    assert checkout_files <= python_files


def test_a_stray_file_in_the_zip_is_refused(tmp_path):
    """A manifest that forgets to exclude the demo's output: the check names each entry and fails."""
    manifest = (REPO_ROOT / "blender_manifest.toml").read_text(encoding="utf-8").replace('  "/out/",\n', "")
    zip_path = _build(_source_copy(tmp_path, manifest), tmp_path)
    assert sorted(zip_contents.strays(zip_path)) == ["out/demo/contact_sheet.png", "out/demo/demo.bin",
                                                     "out/demo/demo.glb"]
    checked = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "zip_contents.py"), str(zip_path)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 1 and "not part of the add-on: out/demo/demo.glb" in checked.stderr
