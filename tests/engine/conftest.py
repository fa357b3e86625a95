"""The second-engine tests use the Blender tests' support modules (scene building, export, import)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(ENGINE_DIR.parent / "blender"))  # import_support, export_support
sys.path.insert(0, str(ENGINE_DIR))

import second_engine  # noqa: E402


@pytest.fixture(scope="session")
def engine():
    """The second engine's helper module; skips only when Node.js is absent. A checkout without the npm
    package (a fresh worktree) installs it from the lock file once, as scripts/setup.sh would."""
    if second_engine.node_executable() is None:
        pytest.skip(second_engine.unavailable_reason())
    reason = second_engine.install() or second_engine.unavailable_reason()
    if reason is not None:
        pytest.fail(reason)
    return second_engine
