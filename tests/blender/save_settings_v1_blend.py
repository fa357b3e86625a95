"""Saves tests/data/settings_v1.blend: a small scene with OMI settings, as the add-on stored them before
settings carried a stored version (version 1, commit 364b6cf). The migration test loads it.

    .venv-4.2/bin/python tests/blender/save_settings_v1_blend.py   # on a checkout of that version

Saved by Blender 4.2, the oldest supported: newer versions read its files, 4.2 cannot read 5.x files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent.parent
PATH = TESTS_DIR / "data" / "settings_v1.blend"


def build_and_save() -> None:
    import bpy
    import export_support as support

    bpy.ops.wm.read_homefile(use_empty=True)
    material = bpy.context.scene.omi_physics.physics_materials.add()
    material.name, material.static_friction = "Grippy", 0.9
    crate = support.mesh_object("Crate", location=(0.0, 0.0, 1.0))
    support.tag_motion(crate, 'DYNAMIC', mass=3.5)
    support.tag_shape(crate, "collider", 'BOX', size=(1.0, 0.8, 0.6))
    crate.omi_physics.collider.physics_material = "Grippy"
    post = support.empty("Post", location=(0.0, 0.0, 3.0))
    support.tag_shape(post, "collider", 'CAPSULE', height=0.8, radius_top=0.2, radius_bottom=0.2)
    hinge = support.empty("Hinge", location=(0.0, 0.0, 2.0), parent=crate)
    hinge.omi_physics.use_joint = True
    hinge.omi_physics.joint.connected_object = post
    limit = hinge.omi_physics.joint.limits.add()
    limit.kind, limit.min_linear, limit.max_linear = 'LINEAR', 0.0, 0.0
    support.mesh_object("Plain", location=(3.0, 0.0, 0.0))  # no OMI settings at all
    bpy.ops.wm.save_as_mainfile(filepath=str(PATH), compress=True)


if __name__ == "__main__":
    sys.path[:0] = [str(TESTS_DIR), str(TESTS_DIR / "blender"), str(TESTS_DIR.parent / "scripts")]
    import addon_loader
    import omi_core_loader

    addon_loader.enable()
    omi_core_loader.install()  # `omi_core`, as the tests name the add-on's core
    build_and_save()
    sys.stdout.flush()
    os._exit(0)
