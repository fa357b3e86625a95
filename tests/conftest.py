"""Shared fixtures: the real bpy module with the add-on installed and enabled as Blender would.

Runs the same way under plain pytest with the bpy wheel and inside a full Blender (pytest-blender).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "scripts"))  # never the repo root itself: io/ would shadow io

import addon_loader as addon  # noqa: E402

SHARED_DIR = REPO_ROOT.parent / "shared"
SPEC_DIR = SHARED_DIR / "omi-spec"


@pytest.fixture(scope="session")
def omi_addon() -> ModuleType:
    """The enabled add-on package (bl_ext.<repo>.omi_physics)."""
    return addon.enable()


@pytest.fixture(scope="session")
def omi(omi_addon: ModuleType):
    """Accessor for the add-on's modules: omi('io.omi.model')."""
    return addon.module


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    if not SPEC_DIR.is_dir():
        pytest.skip("../shared/omi-spec is absent")
    return SPEC_DIR


@pytest.fixture
def clean_scene():
    """An empty scene (factory settings kept, add-on stays enabled)."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    return bpy.context.scene
