"""Install and enable the add-on in the running Blender the way Blender itself does.

When the add-on is already installed as an extension (the built zip, installed with
`blender --command extension install-file`), that copy is the one enabled and tested, so it is never
registered twice. Otherwise a temporary extension repository whose directory holds a symlink to this
checkout; `OMI_TEST_ADDON=checkout` forces the checkout. Either way the module name
`bl_ext.<repo>.<id>` is decided by Blender, never hard-coded in the add-on.
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path
from types import ModuleType

import bpy

REPO_ROOT = Path(__file__).resolve().parent.parent
CHECKOUT_REPO_MODULE = "omi_tests"
ADDON_ID = tomllib.loads((REPO_ROOT / "blender_manifest.toml").read_text())["id"]


def installed_repository() -> str | None:
    """The module name of the extension repository that holds an installed copy of the add-on, if any."""
    if os.environ.get("OMI_TEST_ADDON") == "checkout":
        return None
    for repo in bpy.context.preferences.extensions.repos:
        if repo.enabled and repo.module != CHECKOUT_REPO_MODULE and repo.directory and \
                (Path(repo.directory) / ADDON_ID / "blender_manifest.toml").is_file():
            return repo.module
    return None


REPO_MODULE = installed_repository() or CHECKOUT_REPO_MODULE
ADDON_MODULE = f"bl_ext.{REPO_MODULE}.{ADDON_ID}"
# Runs a script given after "--" as __main__ inside Blender, with the script's own arguments in sys.argv.
_RUN_AS_MAIN = ("import runpy, sys; sys.argv = sys.argv[sys.argv.index('--') + 1:]; "
                "runpy.run_path(sys.argv[0], run_name='__main__')")

_repo_dirs: list[str] = []  # temporary repository folders this process made (each holds one symlink)


def remove_repository_dirs() -> None:
    """Delete the temporary repository folders (the symlink only, never the checkout it points at)."""
    while _repo_dirs:
        shutil.rmtree(_repo_dirs.pop(), ignore_errors=True)


atexit.register(remove_repository_dirs)


def install() -> str:
    """Make the checkout an installed extension unless a copy is installed (idempotent); return its module name."""
    repos = bpy.context.preferences.extensions.repos
    if not is_checkout():
        return ADDON_MODULE
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


def is_checkout() -> bool:
    """Whether the tests run on this checkout (else on an installed copy, e.g. the zip in a real Blender)."""
    return REPO_MODULE == CHECKOUT_REPO_MODULE


def location() -> str:
    """Which copy of the add-on runs: its module name and folder (for the test report)."""
    module = sys.modules.get(ADDON_MODULE)
    folder = Path(module.__file__).parent if module is not None and module.__file__ else None
    kind = "the checkout" if is_checkout() else "an installed extension"
    return f"{ADDON_MODULE} ({kind}) from {folder.resolve() if folder else 'not loaded'}"


def script_command(script: Path, *args: object) -> list[str]:
    """The command that runs a Python script in a subprocess with a Python that can import bpy.

    With the bpy wheel that is this interpreter. Inside a Blender executable `sys.executable` is a plain
    Python without bpy, so Blender itself runs the script in the background (--quiet first: no banner on
    stdout); the factory settings keep the user's other add-ons out, and an installed copy of this one is
    still found in its repository.
    """
    if not bpy.app.binary_path:
        return [sys.executable, str(script), *map(str, args)]
    return [bpy.app.binary_path, "--quiet", "--background", "--factory-startup", "--python-exit-code", "1",
            "--python-expr", _RUN_AS_MAIN, "--", str(script), *map(str, args)]
