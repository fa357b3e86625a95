"""The extension zip holds the add-on and nothing else, whichever way it is built: by Blender's own
`blender_ext.py build` (what scripts/build.sh runs) and, in a real Blender, by `blender --command extension
build` (what Blender's manual tells extension authors), from a copy of the checkout with a demo run's outputs,
caches and a folder of notes beside the add-on; the manifest's [build] list decides, its entries listed."""

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

sys.path.insert(0, str(REPO_ROOT / "scripts" / "ci"))
import zip_contents


def _blender_ext() -> Path:
    found = Path(bpy.utils.system_resource("SCRIPTS")) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"
    if not found.is_file():
        pytest.skip(f"Blender's extension builder is not at {found}")
    return found


STRAYS = ("out/demo/contact_sheet.png", "out/demo/demo.glb", "out/demo/demo.bin")
ADD_ON = ("__init__.py", "LICENSE", "io/", "operators/", "panels/", "properties/", "viewport/")


def _source_copy(tmp_path: Path, manifest: str | None = None) -> Path:
    """The checkout's files less what .gitignore names (git itself is not in every Blender's root), a demo's
    outputs and notes beside them, and the manifest without its wheels (the build would fetch them; the test
    is about what else goes in)."""
    ignored = shutil.ignore_patterns(".git", ".venv*", "dist", "build", "out", "wheels", "node_modules", "*.zip",
                                     "__pycache__", "*.pyc", "*.blend1", ".*_cache", ".hypothesis")
    source = tmp_path / "source"
    shutil.copytree(REPO_ROOT, source, ignore=ignored)
    for stray in (*STRAYS, "__pycache__/x.pyc", "io/omi/__pycache__/x.pyc", "notes/todo.md", "TODO.txt"):
        (source / stray).parent.mkdir(parents=True, exist_ok=True)
        (source / stray).write_bytes(b"\x00" * 1024)
    text = manifest if manifest is not None else (source / "blender_manifest.toml").read_text(encoding="utf-8")
    (source / "blender_manifest.toml").write_text(re.sub(r"wheels = \[.*?\]\n", "", text, flags=re.S),
                                                   encoding="utf-8")
    return source


def _build(source: Path, tmp_path: Path, command: list[str] | None = None) -> Path:
    dist = tmp_path / "dist"
    dist.mkdir()
    builder = command if command is not None else [sys.executable, str(_blender_ext()), "build"]
    built = subprocess.run([*builder, "--source-dir", str(source), "--output-dir", str(dist)],
                           capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    [zip_path] = dist.glob("*.zip")
    return zip_path


def _names(zip_path: Path) -> set[str]:
    with zipfile.ZipFile(zip_path) as archive:
        return {name for name in archive.namelist() if not name.endswith("/")}


def _add_on_files(source: Path) -> set[str]:
    """The files the manifest names: the add-on's entries of the copy, less caches, and the manifest."""
    return {"blender_manifest.toml"} | {
        str(path.relative_to(source)) for path in source.rglob("*") if path.is_file()
        and str(path.relative_to(source)).startswith(ADD_ON) and "__pycache__" not in path.parts}


def test_the_zip_holds_only_the_add_on(tmp_path):
    source = _source_copy(tmp_path)
    zip_path = _build(source, tmp_path)
    names = _names(zip_path)
    assert zip_contents.strays(zip_path) == []
    assert names == _add_on_files(source)
    assert "__init__.py" in names and "blender_manifest.toml" in names and "LICENSE" in names
    assert "io/omi/schemas/omi-spec/OMI_physics_shape/schema/glTF.OMI_physics_shape.schema.json" in names
    assert "io/omi/schemas/khr-spec/LICENSE-KhronosSpecCopyright.txt" in names
    python_files = {name for name in names if name.endswith(".py")}
    checkout_files = {str(path.relative_to(REPO_ROOT)) for folder in ("io", "operators", "panels", "properties",
                                                                    "viewport") for path in
                      (REPO_ROOT / folder).rglob("*.py") if "__pycache__" not in path.parts}
    assert checkout_files <= python_files


def test_blender_command_builds_the_same_zip(tmp_path):
    """`blender --command extension build`, in a real Blender only (the bpy wheel has no executable)."""
    if not bpy.app.binary_path:
        pytest.skip("needs a Blender executable: the real-Blender job (scripts/real_blender.sh) runs this")
    source = _source_copy(tmp_path)
    zip_path = _build(source, tmp_path, [bpy.app.binary_path, "--factory-startup", "--command", "extension", "build"])
    assert _names(zip_path) == _add_on_files(source)


def test_a_stray_file_in_the_zip_is_refused(tmp_path):
    """A manifest that lets the demo's output in: the check names each entry and fails."""
    manifest = (REPO_ROOT / "blender_manifest.toml").read_text(encoding="utf-8").replace('  "!/io",\n',
                                                                                        '  "!/io",\n  "!/out",\n')
    zip_path = _build(_source_copy(tmp_path, manifest), tmp_path)
    assert sorted(zip_contents.strays(zip_path)) == ["out/demo/contact_sheet.png", "out/demo/demo.bin",
                                                     "out/demo/demo.glb"]
    checked = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "ci" / "zip_contents.py"), str(zip_path)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 1 and "not part of the add-on: out/demo/demo.glb" in checked.stderr
