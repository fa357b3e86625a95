"""io/omi/cli/batch.py: a pool of spawned workers (macOS and Windows start workers so) checks files too. Its
workers are fresh Pythons that cannot import the core under the name it was loaded by (`omi_core` here, a
`bl_ext...` name inside Blender); they load it by path first."""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import flaky_workers
import pytest
from omi_core.cli import batch, validate_file
from omi_core_loader import CORE_DIR, TESTS_DATA


def test_spawned_workers_check_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [str(shutil.copy(TESTS_DATA / "cli" / "current_scene.gltf", tmp_path / f"{name}.gltf"))
             for name in ("a", "b", "c")]
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    results = list(batch.run_pool(validate_file.validate_one, [(file, None) for file in files], 2))
    assert [(result["file"], result["status"]) for result in results] == [(file, "ok") for file in files]


CLI = CORE_DIR.parent.parent / "scripts" / "omi_physics_cli.py"


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_a_worker_that_dies_fails_its_file_and_the_rest_are_answered(start: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if start == "spawn":  # a spawned worker imports this module by name: the test folder must be importable
        monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
        monkeypatch.syspath_prepend(str(Path(__file__).parent))
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    names = ["a", "b", "crash", "c", "d", "e"]
    results = list(batch.run_pool(flaky_workers.flaky, [(name, None) for name in names], 2))
    assert [(result["file"], result["status"]) for result in results] == \
        [(name, "failed" if name == "crash" else "ok") for name in names]
    assert "worker process ended without an answer" in results[2]["message"]


def test_a_worker_that_hangs_is_stopped_at_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "FILE_TIME_BASE", 2.0)
    started = time.monotonic()
    results = list(batch.run_pool(flaky_workers.flaky, [(name, None) for name in ("a", "hang", "b", "c")], 2))
    assert time.monotonic() - started < 60
    assert [(result["file"], result["status"]) for result in results] == \
        [("a", "ok"), ("hang", "failed"), ("b", "ok"), ("c", "ok")]
    assert "took longer than 2 s and was stopped" in results[1]["message"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")
def test_ctrl_c_stops_a_pool_at_once_and_leaves_no_worker(tmp_path: Path) -> None:
    """A real SIGINT while two workers check files: exit 130 with one line, at once, and no worker left."""
    folder = tmp_path / "many"
    folder.mkdir()
    for number in range(1500):
        shutil.copy(TESTS_DATA / "cli" / "current_scene.gltf", folder / f"f{number}.gltf")
    child = subprocess.Popen([sys.executable, str(CLI), "validate", "--jobs", "2", "--no-progress", str(folder)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    asked = time.monotonic()
    child.send_signal(signal.SIGINT)
    _stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130 and stderr.strip().splitlines() == [
        "omi_physics_cli validate: interrupted (Ctrl-C); no output was left half-written"]
    assert time.monotonic() - asked < 3.0  # not the workers' grace time: they end when told
    left = [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()
            and str(folder).encode() in _command_line(entry)]
    assert left == []


def _command_line(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""


def test_a_forked_pool_gives_the_collector_back(tmp_path: Path) -> None:
    """The heap frozen for the forked workers is unfrozen after the batch: in Blender the process goes on (an
    export's own pause of the collector found it still frozen)."""
    files = [str(shutil.copy(TESTS_DATA / "cli" / "current_scene.gltf", tmp_path / f"{name}.gltf"))
             for name in ("a", "b", "c")]
    assert gc.get_freeze_count() == 0
    results = list(batch.run_pool(validate_file.validate_one, [(file, None) for file in files], 2))
    assert [result["status"] for result in results] == ["ok", "ok", "ok"]
    assert gc.get_freeze_count() == 0
