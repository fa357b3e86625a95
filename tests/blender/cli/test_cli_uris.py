"""Buffer and image URIs that name files outside the glTF's folder: `convert`, `upgrade`, `validate` and the
command line's `import` refuse them at their JSON pointer, reading and writing nothing outside the input and
output folders ('..', percent-encoded '..' and '/', absolute paths, symbolic links leading out, in buffers and
images). data: URIs and absolute URLs keep their handling; the interactive import, where Blender's importer
opens the files itself, warns once. The hostile corpus's case: an upload that copied /etc/hostname beside a
public output with exit 0.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import import_support
import pytest
from cli_support import REPO_ROOT, blender_cli, run_cli

GOOD = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))
LEGACY = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "legacy_collider.gltf").read_text(encoding="utf-8"))
SECRET = b"secret bytes outside the upload"
URIS = {
    "dotdot": "../../../secret.bin",
    "percent_dots": "%2E%2E/%2E%2E/%2E%2E/secret.bin",
    "percent_slash": "..%2F..%2F..%2Fsecret.bin",
    "backslash": "..\\..\\..\\secret.bin",
    "inner_dotdot": "textures/../../../../secret.bin",
    "absolute": "{root}/secret.bin",
    "absolute_percent": "%2F{root_quoted}%2Fsecret.bin",
    "symlink": "link.bin",
}


def _upload(tmp_path: Path, uri: str, where: str, document: dict | None = None) -> Path:
    """uploads/u1/job/scene.gltf naming `uri` as buffer 0 or image 0; the secret file three folders up."""
    root = tmp_path
    root.mkdir(parents=True, exist_ok=True)
    (root / "secret.bin").write_bytes(SECRET)
    job = root / "uploads" / "u1" / "job"
    job.mkdir(parents=True)
    (job / "link.bin").symlink_to(root / "secret.bin")
    (job / "kept.bin").write_bytes(b"\0" * 4)
    uri = uri.format(root=root, root_quoted=str(root).lstrip("/").replace("/", "%2F"))
    gltf = json.loads(json.dumps(document or GOOD))
    if where == "buffers":
        gltf["buffers"] = [{"uri": uri, "byteLength": len(SECRET)}, {"uri": "kept.bin", "byteLength": 4}]
    else:
        gltf["images"] = [{"uri": uri}, {"uri": "data:image/png;base64,AA=="}, {"uri": "https://example.com/a.png"}]
    path = job / "scene.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def _nothing_outside(tmp_path: Path, before: set[Path]) -> None:
    """No file outside uploads/ and www/ was made; the secret's bytes are nowhere else."""
    made = {path for path in tmp_path.rglob("*") if path.is_file() and not path.is_symlink()} - before
    assert all(path.is_relative_to(tmp_path / "www") for path in made), made
    assert not [path for path in made if path.read_bytes() == SECRET], made


@pytest.mark.parametrize("where", ["buffers", "images"])
@pytest.mark.parametrize("name", sorted(URIS))
def test_rewriting_commands_refuse_a_uri_outside_the_folder(tmp_path, name, where):
    for command, extra, document in (("convert", ("--to", "KHR", "--force"), GOOD), ("upgrade", ("--force",), LEGACY)):
        case = tmp_path / command
        source = _upload(case, URIS[name], where, document)
        before = {path for path in case.rglob("*") if path.is_file()}
        out = case / "www" / "public" / "jobs" / "42" / "x" / "scene.gltf"
        result = run_cli(command, source, *extra, "--out", out)
        assert result.returncode == 1, result.stdout + result.stderr
        assert f"{source}: error /{where}/0/uri: " in result.stdout, result.stdout
        assert "names a file outside the glTF's folder" in result.stdout
        assert "NOT written (it names files outside its folder: refused, even with --force)" in result.stdout
        assert not out.exists()
        _nothing_outside(case, before)
        in_place = run_cli(command, source, *extra, "--in-place")  # nothing is copied, yet the file is refused
        assert in_place.returncode == 1 and f"error /{where}/0/uri: " in in_place.stdout


@pytest.mark.parametrize("where", ["buffers", "images"])
@pytest.mark.parametrize("name", sorted(URIS))
def test_validate_refuses_it_without_reading_it(tmp_path, name, where):
    source = _upload(tmp_path, URIS[name], where)
    result = run_cli("validate", source, "--json", "--no-progress")
    assert result.returncode == 1
    issues = json.loads(result.stdout)["files"][0]["issues"]
    at_uri = [item for item in issues if item["pointer"] == f"/{where}/0/uri"]
    assert len(at_uri) == 1 and "names a file outside the glTF's folder" in at_uri[0]["message"], issues
    assert at_uri[0]["severity"] == "error"
    if where == "buffers":  # not read: no finding about its length, which the secret's bytes would decide
        assert not [item for item in issues if item["pointer"] == "/buffers/0"], issues


@pytest.mark.parametrize("where", ["buffers", "images"])
def test_the_command_line_import_refuses_it_before_blender_reads_it(tmp_path, where):
    source = _upload(tmp_path, URIS["dotdot"], where)
    out = tmp_path / "www" / "scene.blend"
    result = blender_cli("import", source, "--out", out)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{source}: error /{where}/0/uri: '../../../secret.bin' names a file outside" in result.stdout
    assert not out.exists()


def test_files_inside_the_folder_are_still_copied(tmp_path):
    job = tmp_path / "job"
    (job / "textures").mkdir(parents=True)
    (job / "textures" / "wood.png").write_bytes(b"png")
    (job / "a b.bin").write_bytes(b"\0" * 4)
    (job / "alias.png").symlink_to("textures/wood.png")  # a link that stays inside is a file of the folder
    gltf = {**GOOD, "buffers": [{"uri": "a%20b.bin", "byteLength": 4}],
            "images": [{"uri": "textures/../textures/wood.png"}, {"uri": "alias.png"}]}
    (job / "scene.gltf").write_text(json.dumps(gltf), encoding="utf-8")
    out = tmp_path / "out" / "scene.gltf"
    result = run_cli("convert", job / "scene.gltf", "--to", "KHR", "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "out" / "textures" / "wood.png").read_bytes() == b"png"
    assert (tmp_path / "out" / "a b.bin").read_bytes() == b"\0" * 4
    assert (tmp_path / "out" / "alias.png").read_bytes() == b"png"
    assert run_cli("validate", job / "scene.gltf").returncode == 0


def test_a_link_in_the_output_folder_cannot_carry_a_copy_out(tmp_path):
    job, out, elsewhere = tmp_path / "job", tmp_path / "out", tmp_path / "elsewhere"
    (job / "textures").mkdir(parents=True)
    (job / "textures" / "wood.png").write_bytes(b"png")
    elsewhere.mkdir()
    out.mkdir()
    (out / "textures").symlink_to(elsewhere)
    gltf = {**GOOD, "images": [{"uri": "textures/wood.png"}]}
    (job / "scene.gltf").write_text(json.dumps(gltf), encoding="utf-8")
    result = run_cli("convert", job / "scene.gltf", "--to", "KHR", "--out", out / "scene.gltf", "--force")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "error /images/0/uri: " in result.stdout and "outside the output's folder" in result.stdout
    assert os.listdir(elsewhere) == [] and not (out / "scene.gltf").exists()


def test_the_interactive_import_warns_once(tmp_path, omi_addon):
    source = _upload(tmp_path, URIS["dotdot"], "images")
    gltf = json.loads(source.read_text(encoding="utf-8"))
    gltf["images"] = [{"uri": URIS["dotdot"]}, {"uri": "../x.png"}, {"uri": "/etc/hostname"}, {"uri": "y.png"}]
    source.write_text(json.dumps(gltf), encoding="utf-8")
    imported = import_support.import_gltf(source)
    said = [text for text in imported.warnings if "outside the glTF's folder" in text]
    assert len(said) == 1 and "/images/0/uri" in said[0] and "3 file(s)" in said[0], imported.warnings
