"""io/omi/cli/batch.py: a pool of spawned workers (macOS and Windows start workers so) checks files too. Its
workers are fresh Pythons that cannot import the core under the name it was loaded by (`omi_core` here, a
`bl_ext...` name inside Blender); they load it by path first."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest
from omi_core.cli import batch, validate_file
from omi_core_loader import TESTS_DATA


def test_spawned_workers_check_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [str(shutil.copy(TESTS_DATA / "cli" / "current_scene.gltf", tmp_path / f"{name}.gltf"))
             for name in ("a", "b", "c")]
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    results = list(batch.run_pool(validate_file.validate_one, [(file, None) for file in files], 2))
    assert [(result["file"], result["status"]) for result in results] == [(file, "ok") for file in files]
