"""The command-line tool as a pipeline runs it, in subprocesses: `validate` and `upgrade` in a pool of workers
without ever importing bpy, and `import`/`export` through the crash guard (Blender in a child process). The
other CLI tests call main(argv) in this process."""

from __future__ import annotations

import shutil
import subprocess
import sys

import omi_core.cli.guard
import pytest
import schema_check
from cli_support import CLI, REPO_ROOT, lines, run_cli, run_cli_subprocess
from test_cli_validate import EXAMPLES, _broken_files

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

DATA = REPO_ROOT / "tests" / "data" / "cli"
NO_BPY_PROBE = (
    "import runpy, sys\n"
    "sys.argv = ['omi_physics_cli', *sys.argv[1:]]\n"
    "try:\n"
    f"    runpy.run_path({str(CLI)!r}, run_name='__main__')\n"
    "except SystemExit as done:\n"
    "    print('exit', done.code, 'bpy' in sys.modules, any(name.startswith('bl_ext') for name in sys.modules))\n"
)


def test_a_batch_in_a_process_pool_never_imports_bpy(spec_dir, tmp_path):
    """validate and upgrade load io/omi by path; neither they nor their pool's workers import Blender. The pool's
    progress and summary match a serial run."""
    batch = tmp_path / "batch"
    batch.mkdir()
    for position in range(20):
        source = EXAMPLES[position % len(EXAMPLES)]
        shutil.copy(source, batch / f"{position:02d}_{source.name}")
    for bin_file in {path for example in EXAMPLES for path in example.parent.glob("*.bin")}:
        shutil.copy(bin_file, batch / bin_file.name)
    (batch / "broken").mkdir()
    _broken_files(batch / "broken")
    files = sorted(batch.rglob("*.gl*"))
    pooled = subprocess.run([sys.executable, "-c", NO_BPY_PROBE, "validate", str(batch), "--jobs", "2"],
                            capture_output=True, text=True, check=False, timeout=120)
    assert lines(pooled.stdout)[-1] == "exit 1 False False", pooled.stdout + pooled.stderr
    progress = [line for line in lines(pooled.stderr) if line.startswith("[")]
    assert [line.split("]")[0] for line in progress] == [f"[{i}/{len(files)}" for i in range(1, len(files) + 1)]
    serial = run_cli("validate", batch, "--jobs", 1, "--no-progress")
    assert serial.returncode == 1
    assert lines(pooled.stdout)[:-1] == lines(serial.stdout)  # the same findings, in the same order
    assert lines(serial.stdout)[-1].startswith(f"{len(files)} files, ") and len(files) == 26
    upgraded = subprocess.run([sys.executable, "-c", NO_BPY_PROBE, "upgrade", str(spec_dir / "legacy"),
                               "--out-dir", str(tmp_path / "upgraded"), "--jobs", "2"],
                              capture_output=True, text=True, check=False, timeout=120)
    assert lines(upgraded.stdout)[-1] == "exit 0 False False", upgraded.stdout + upgraded.stderr


def test_import_and_export_through_the_crash_guard(canonical, tmp_path):
    """The default path: Blender runs in a child process; its report reaches the caller unchanged."""
    source, blend, glb = DATA / "current_scene.gltf", tmp_path / "scene.blend", tmp_path / "scene.glb"
    imported = run_cli_subprocess("import", source, "--out", blend)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert lines(imported.stdout)[-1] == f"{source} -> {blend}: 8 objects, 6 with OMI physics, 0 errors, 0 warnings"
    exported = run_cli_subprocess("export", blend, "--out", glb, "--verbose")
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert lines(exported.stdout)[-1] == f"{blend} -> {glb}: 0 errors, 0 warnings"
    assert canonical.diff_physics(schema_check.load_gltf(source), schema_check.load_gltf(glb)) == []
    assert imported.stderr == ""  # Blender's own printing held back
    assert "glTF" in exported.stderr  # and shown with --verbose (read back from the child's held log)


def test_the_crash_guard_reports_what_blender_printed(tmp_path, capsys):
    """A child that dies by a signal: the parent prints the child's held output and one sentence."""

    guard = omi_core.cli.guard
    dying = tmp_path / "dying.py"
    dying.write_text("import os, signal, sys\n"
                     "log = open(sys.argv[sys.argv.index('--blender-log') + 1], 'a')\n"
                     "log.write('Blender create Mesh node 0\\n')\n"
                     "log.close()\n"
                     "os.kill(os.getpid(), signal.SIGSEGV)\n", encoding="utf-8")
    status = guard.run_guarded([sys.executable, str(dying), "import", "x.gltf", "--out", "x.blend"], 2,
                               "importing x.gltf")
    printed = capsys.readouterr()
    assert status == 1
    assert printed.out.strip() == "error: Blender crashed (SIGSEGV) while importing x.gltf; nothing was written"
    assert "Blender create Mesh node 0" in printed.err
