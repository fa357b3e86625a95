"""The third hostile round's command-line cases (tests/hostile/round_three.py), each ending with its exit status
and its message, never a traceback; and the runs stopped half-way (Ctrl-C, too little memory), which leave
no partial output behind and say so in one line."""

from __future__ import annotations

import importlib
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bpy
import omi_core.cli.resources
import omi_core.gltf_file
import pytest
from cli_support import CLI, REPO_ROOT, run_cli
from hostile.round_three import write_round_three

GOOD = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))


def test_every_case_ends_clearly(tmp_path, monkeypatch, omi_addon):
    cases = write_round_three(tmp_path, GOOD)
    for name, case in sorted(cases.items()):
        monkeypatch.chdir(tmp_path / name)
        argv = [*case.argv, "--in-process"] if case.argv[0] == "import" else case.argv
        result = run_cli(*argv)
        printed = result.stdout + result.stderr
        assert result.returncode == case.status, (name, printed)
        assert "Traceback" not in printed, (name, printed)
        assert all(word in printed for word in case.words), (name, case.words, printed)
        assert case.check is None or case.check(tmp_path / name), (name, printed)


def _scene_with_bin(folder: Path, size: int) -> Path:
    """scene.gltf naming scene.bin, a sparse file of `size` bytes (nothing is read from the disk)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "scene.bin", "wb") as stream:
        stream.truncate(size)
    (folder / "scene.gltf").write_text(json.dumps({**GOOD, "buffers": [{"uri": "scene.bin", "byteLength": size}]}),
                                       encoding="utf-8")
    return folder / "scene.gltf"


def _raise_interrupt(*_args: object) -> None:
    raise KeyboardInterrupt


def _half_copy(source: Any, stream: Any, *_args: object) -> None:
    stream.write(source.read(1000))  # the .bin's copy is under way: its temporary file holds a part of it
    raise KeyboardInterrupt


@pytest.mark.parametrize("moment", ["before the copy", "during the copy", "writing the .gltf"])
def test_an_interrupted_convert_leaves_nothing_half_written(tmp_path, monkeypatch, moment):

    source = _scene_with_bin(tmp_path / "in", 1 << 20)
    out = tmp_path / "out"
    if moment == "before the copy":
        monkeypatch.setattr(omi_core.cli.resources, "_copy_file", _raise_interrupt)
    elif moment == "during the copy":
        monkeypatch.setattr(shutil, "copyfileobj", _half_copy)
    else:  # the .bin is complete and in place; the .gltf is being written
        monkeypatch.setattr(omi_core.gltf_file, "_pieces", _raise_interrupt)
    result = run_cli("convert", source, "--to", "KHR", "--out", out / "scene.gltf")
    assert result.returncode == 130
    assert result.stderr.strip().splitlines() == [
        "omi_physics_cli convert: interrupted (Ctrl-C); no output was left half-written"]
    assert list(out.iterdir()) == []  # no .gltf, no .bin, no temporary file
    monkeypatch.undo()
    assert run_cli("convert", source, "--to", "KHR", "--out", out / "scene.gltf").returncode == 0  # a rerun works


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and sparse files as on Linux")
def test_ctrl_c_of_the_real_tool_leaves_nothing_half_written(tmp_path):
    """A real SIGINT at some point of a 1.5 GB copy: exit 130 and one line, or done; never a partial file."""
    source = _scene_with_bin(tmp_path / "in", 1500 << 20)
    for delay in (1.0, 2.0, 3.0):
        out = tmp_path / f"out{delay}"
        child = subprocess.Popen([sys.executable, str(CLI), "convert", str(source), "--to", "KHR", "--out",
                                  str(out / "scene.gltf")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=120)
        assert "Traceback" not in stdout + stderr, stderr
        made = sorted(path.name for path in out.iterdir()) if out.exists() else []
        if child.returncode == 130:
            assert len(stderr.strip().splitlines()) == 1 and "interrupted (Ctrl-C)" in stderr
            assert made == []
        else:
            assert child.returncode == 0 and made == ["scene.bin", "scene.gltf"], (stdout, stderr)
            assert (out / "scene.bin").stat().st_size == 1500 << 20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and sparse files as on Linux")
def test_a_glb_too_big_for_the_memory_left_is_said_in_one_line(tmp_path):
    size = 600 << 20
    payload = json.dumps({**GOOD, "buffers": [{"byteLength": size}]}).encode()
    payload += b" " * (-len(payload) % 4)
    total = 12 + 8 + len(payload) + 8 + size
    glb = tmp_path / "huge.glb"
    with open(glb, "wb") as stream:
        stream.write(struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(payload), b"JSON") + payload
                     + struct.pack("<I4s", size, b"BIN\x00"))
        stream.truncate(total)
    limit = 1000 << 20

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    for argv in (["convert", str(glb), "--to", "KHR", "--out", str(tmp_path / "out" / "huge.glb")],
                 ["validate", str(glb)]):
        child = subprocess.run([sys.executable, str(CLI), *argv], capture_output=True, text=True, timeout=300,
                               check=False,
                               preexec_fn=limited)
        assert child.returncode == 2, child.stdout + child.stderr
        assert "huge.glb: error: not enough memory to process it (0.63 GB)" in child.stdout, child.stdout
        assert "Traceback" not in child.stdout + child.stderr and "MemoryError" not in child.stdout + child.stderr
    assert not (tmp_path / "out" / "huge.glb").exists()


@pytest.mark.parametrize("command", ["convert", "upgrade"])
def test_an_output_that_is_a_symbolic_link_is_written_through(tmp_path, command):
    real, link = tmp_path / "real" / "scene.gltf", tmp_path / "links" / "alias.gltf"
    real.parent.mkdir()
    link.parent.mkdir()
    source = (REPO_ROOT / "tests" / "data" / "cli" / ("current_scene.gltf" if command == "convert"
                                                       else "legacy_collider.gltf"))
    real.write_bytes(source.read_bytes())
    link.symlink_to(real)
    extra = ("--to", "KHR") if command == "convert" else ()
    assert run_cli(command, link, *extra, "--in-place").returncode == 0
    assert link.is_symlink() and link.resolve() == real  # the link stays a link; its file is the converted one
    assert real.read_bytes() != source.read_bytes() and json.loads(real.read_text(encoding="utf-8"))["nodes"]
    alias = tmp_path / "links" / "out.gltf"
    alias.symlink_to(tmp_path / "real" / "out.gltf")  # a link to a file not there yet: written where it points
    assert run_cli(command, source, *extra, "--out", alias).returncode == 0
    assert alias.is_symlink() and (tmp_path / "real" / "out.gltf").is_file()


def test_an_out_dir_inside_the_input_folder_is_not_read_again(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "scene.gltf").write_text(json.dumps(GOOD), encoding="utf-8")
    for run in range(2):
        result = run_cli("convert", tmp_path / "assets", "--to", "KHR", "--out-dir", tmp_path / "assets" / "out")
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.strip().splitlines()[-1].startswith("1 file, 1 written")
        assert ("skipped 1 file inside the output folder" in result.stderr) == (run == 1)
    assert not (tmp_path / "assets" / "out" / "out").exists()


def _full_disk(*_args: object) -> None:
    raise OSError(28, "No space left on device")


def _half_then_full(source: Any, stream: Any, *_args: object) -> None:
    stream.write(source.read(57 * 1024))
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("moment", ["copying the .bin", "writing the .gltf"])
def test_a_full_disk_leaves_no_partial_output_and_says_so(tmp_path, monkeypatch, moment):

    source = _scene_with_bin(tmp_path / "in", 1 << 20)
    if moment == "copying the .bin":
        monkeypatch.setattr(shutil, "copyfileobj", _half_then_full)
    else:
        monkeypatch.setattr(omi_core.gltf_file, "_pieces", _full_disk)
    out = tmp_path / "out"
    result = run_cli("convert", source, "--to", "KHR", "--out", out / "scene.gltf")
    assert result.returncode == 2
    assert "No space left on device" in result.stdout and "NOT written" not in result.stdout
    assert result.stdout.strip().splitlines()[-1] == "1 file, 0 written, 0 errors, 0 warnings, 1 failed"
    assert list(out.iterdir()) == []


def test_an_export_is_moved_into_place_only_when_complete(tmp_path, monkeypatch, omi_addon):
    from cli_support import blender_cli

    blend = tmp_path / "scene.blend"
    assert blender_cli("import", REPO_ROOT / "tests" / "data" / "cli" / "legacy_body_type.glb", "--out",
                       blend).returncode == 0
    out = tmp_path / "out"
    done = blender_cli("export", blend, "--out", out / "scene.gltf")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(path.name for path in out.iterdir()) == ["scene.bin", "scene.gltf"]  # no staging folder left
    cli_blender = importlib.import_module(f"{omi_addon.__name__}.io.cli_blender")

    def full_disk(_args, _operator, **options):  # the exporter stopped by a full disk (no real disk fills here)
        written = Path(options["filepath"])
        written.write_bytes(b"")
        written.with_suffix(".bin").write_bytes(b"\0" * 100)
        return [], 1, "[Errno 28] No space left on device (OSError)"

    monkeypatch.setattr(cli_blender, "_run_operator", full_disk)
    failed = blender_cli("export", blend, "--out", tmp_path / "failed" / "scene.gltf")
    assert failed.returncode == 1
    assert "Blender could not export it: [Errno 28] No space left on device (OSError)" in failed.stdout
    assert list((tmp_path / "failed").iterdir()) == []  # neither the 0-byte file nor its .bin


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and signals as on Linux")
@pytest.mark.skipif(bool(bpy.app.binary_path), reason="the command line's own Python with the bpy wheel is what "
                    "a Ctrl-C reaches; inside a Blender executable sys.executable cannot import bpy")
@pytest.mark.parametrize("verb", ["import", "export"])
def test_ctrl_c_during_import_or_export_is_one_line(tmp_path, verb):
    """Ctrl-C reaches the whole foreground process group: the tool and the Blender child it runs. At any
    moment: exit 130 and one line (or done), no traceback, nothing half-written or staged left behind."""
    source = REPO_ROOT / "tests" / "data" / "cli" / "legacy_body_type.glb"
    blend = tmp_path / "scene.blend"
    if verb == "export":
        assert subprocess.run([sys.executable, str(CLI), "import", str(source), "--out", str(blend)],
                              capture_output=True, timeout=300, check=False).returncode == 0
    for delay in (1.0, 2.5):
        out = tmp_path / f"out{delay}" / ("scene.blend" if verb == "import" else "scene.glb")
        argv = [str(source if verb == "import" else blend), "--out", str(out)]
        child = subprocess.Popen([sys.executable, str(CLI), verb, *argv], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)
        time.sleep(delay)
        os.killpg(child.pid, signal.SIGINT)
        stdout, stderr = child.communicate(timeout=300)
        assert child.returncode in (0, 130), stdout + stderr
        assert "Traceback" not in stdout + stderr, stdout + stderr
        if child.returncode == 130:
            assert stderr.strip().splitlines()[-1].endswith("interrupted (Ctrl-C); no output was left half-written")
        left = sorted(path.name for path in out.parent.iterdir()) if out.parent.exists() else []
        assert left in ([], [out.name]), left
