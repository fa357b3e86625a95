"""Install and enable the add-on in the running Blender the way Blender itself does.

A temporary extension repository whose directory holds a symlink to this checkout; the module name
`bl_ext.<repo>.<id>` is then decided by Blender, never hard-coded in the add-on.
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import tempfile
import tomllib
from pathlib import Path
from types import ModuleType

import bpy

REPO_ROOT = Path(__file__).resolve().parent.parent
REPO_MODULE = "omi_tests"
ADDON_ID = tomllib.loads((REPO_ROOT / "blender_manifest.toml").read_text())["id"]
ADDON_MODULE = f"bl_ext.{REPO_MODULE}.{ADDON_ID}"

_repo_dirs: list[str] = []  # temporary repository folders this process made (each holds one symlink)


def remove_repository_dirs() -> None:
    """Delete the temporary repository folders (the symlink only, never the checkout it points at)."""
    while _repo_dirs:
        shutil.rmtree(_repo_dirs.pop(), ignore_errors=True)


atexit.register(remove_repository_dirs)


def install() -> str:
    """Make the checkout an installed extension (idempotent); return its module name."""
    repos = bpy.context.preferences.extensions.repos
    if REPO_MODULE not in {repo.module for repo in repos}:
        repo_dir = tempfile.mkdtemp(prefix="omi_ext_repo_")
        _repo_dirs.append(repo_dir)
        os.symlink(REPO_ROOT, os.path.join(repo_dir, ADDON_ID))
        repos.new(name="OMI tests", module=REPO_MODULE, custom_directory=repo_dir, source='USER')
    return ADDON_MODULE


def enable() -> ModuleType:
    install()
    if ADDON_MODULE not in bpy.context.preferences.addons:
        bpy.ops.preferences.addon_enable(module=ADDON_MODULE)
    if ADDON_MODULE not in bpy.context.preferences.addons:
        raise RuntimeError(f"Blender refused to enable {ADDON_MODULE}; see the log above")
    return importlib.import_module(ADDON_MODULE)


def disable() -> None:
    bpy.ops.preferences.addon_disable(module=ADDON_MODULE)


def module(relative: str) -> ModuleType:
    """Import one of the add-on's modules, e.g. module('io.omi.model')."""
    return importlib.import_module(f"{ADDON_MODULE}.{relative}")
