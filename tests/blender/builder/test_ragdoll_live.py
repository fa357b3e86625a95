"""A Make Ragdoll rig under the live link: editing one part's setting rebuilds that part alone, and the rig
still holds together when played."""

from __future__ import annotations

import addon_loader
import bpy
import import_support
import pytest
import ragdoll_files

BONES = ("Hips", "Spine", "Head")
FRAMES = 60


@pytest.fixture
def rig(clean_scene, omi_addon):
    armature, _mesh, _ground = ragdoll_files.make_lying_figure()  # a tagged ground: the live link builds it
    bpy.context.view_layer.objects.active = armature
    armature.select_set(True)
    assert bpy.ops.omi.make_ragdoll(bones='DEFORM', shape_type='CAPSULE') == {'FINISHED'}
    addon_loader.module("operators.live_link").flush(bpy.context.scene)
    return armature


def _gaps() -> list[float]:
    parts = [bpy.data.objects[bone].matrix_world.translation for bone in BONES]
    return [(parts[index + 1] - parts[index]).length for index in range(len(parts) - 1)]


@pytest.mark.parametrize("edit", ["gravity", "radius", "mass"])
def test_one_edited_part_rebuilt_alone_keeps_the_rig_together(rig, edit):
    link = addon_loader.module("operators.live_link")
    rest = _gaps()
    spine = bpy.data.objects["Spine"]
    if edit == "gravity":
        spine.omi_physics.motion.gravity_factor = 0.5
    elif edit == "radius":
        shape = bpy.data.objects["Spine.collider"].omi_physics.collider.shape
        shape.radius_top = shape.radius_bottom = shape.radius_top * 0.8
    else:
        spine.omi_physics.motion.mass = spine.omi_physics.motion.mass * 2.0
    assert link.flush(bpy.context.scene) >= 1
    import_support.step(FRAMES)
    landed = [bpy.data.objects[bone].matrix_world.translation.z for bone in BONES]
    assert all(z < 0.3 for z in landed), landed  # fell onto the ground
    assert _gaps() == pytest.approx(rest, abs=0.02)  # the joints' fixed linear limits held every part on
