"""The Godot tests use the Blender tests' support modules (scene building, export, import)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

GODOT_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(GODOT_DIR.parent / "blender"))  # import_support, export_support, reference_exports
sys.path.insert(0, str(GODOT_DIR))

import godot_runner  # noqa: E402

WITHOUT_GODOT = godot_runner.unavailable_reason()
SAYS_WHY = "test_godot_here.py"  # collected always: without Godot its one skip line stands for the folder


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Without Godot the folder's test files are not collected, so a run says why in one line (SAYS_WHY's
    skip) instead of one line per test function."""
    if WITHOUT_GODOT is not None and collection_path.name.startswith("test_") and collection_path.name != SAYS_WHY:
        return True
    return None


@pytest.fixture(scope="session")
def godot():
    """The runner; skips when no Godot 4 can run here (the reason says how to get one)."""
    reason = godot_runner.unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    return godot_runner


@pytest.fixture(scope="session")
def omi_godot_project(godot):
    """A project holding omi-godot, imported once per session; skips (one reason) without ../shared."""
    import omi_godot

    reason = omi_godot.unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    project = omi_godot.make_project()
    yield project
    shutil.rmtree(project, ignore_errors=True)
