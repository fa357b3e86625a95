"""A Godot project with omi-godot, the OMI group's Godot add-on (joints, seats, spawn points, vehicles), for
the tests that read our exports as Godot users who install it do.

The add-on is the unmodified copy in ../shared/omi-godot (beside the clone, read only in CI): it is copied
into one project folder per test session, and `godot --headless --import` runs there once so Godot knows
its `class_name`s. Outside the editor nothing registers its glTF extensions, so dump_scene.gd registers
them itself when given "omi" (the order and priorities of omi_extensions_plugin.gd).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import godot_runner

SHARED = Path(__file__).resolve().parents[3] / "shared" / "omi-godot"
ADDON = SHARED / "addons" / "omi_extensions"
# omi_extensions_plugin.gd's class names, each with the script dump_scene.gd loads for it
CLASSES = {"GLTFDocumentExtensionOMISeat": "seat/omi_seat_doc_ext.gd",
           "GLTFDocumentExtensionOMISpawnPoint": "misc/omi_spawn_point.gd",
           "GLTFDocumentExtensionOMIPhysicsJoint": "physics_joint/omi_physics_joint_doc_ext.gd",
           "GLTFDocumentExtensionOMIVehicle": "vehicle/omi_vehicle_doc_ext.gd"}


def unavailable_reason() -> str | None:
    """Why omi-godot cannot be used here, or None."""
    if not ADDON.is_dir():
        return f"omi-godot tests skipped: {SHARED} is absent (the OMI group's Godot add-on, beside the clone)"
    return None


def make_project() -> Path:
    """A project folder holding omi-godot, its class cache built (Godot's `--import`); the caller removes it."""
    project = godot_runner.scratch_dir("omi-godot-project-")
    (project / "project.godot").write_text(godot_runner.PROJECT)
    shutil.copytree(ADDON, project / "addons" / "omi_extensions", copy_function=shutil.copyfile)
    for folder, _, names in os.walk(project):  # the shared copy may be read only; Godot writes beside it
        for name in (".", *names):
            os.chmod(os.path.join(folder, name), 0o755 if name == "." else 0o644)
    done = godot_runner.godot_command(["--headless", "--path", str(godot_runner.inner_path(project)), "--import"])
    cache = project / ".godot" / "global_script_class_cache.cfg"
    if not cache.exists():
        raise RuntimeError(f"godot --import built no class cache (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    known = cache.read_text()
    missing = [name for name in CLASSES if name not in known]
    if missing:
        raise RuntimeError(f"omi-godot's classes {missing} are not in Godot's class cache:\n{known[:2000]}")
    return project
