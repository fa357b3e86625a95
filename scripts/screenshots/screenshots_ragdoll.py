"""The ragdoll's screenshot (scripts/screenshots/screenshots.py runs this step after the demo's): a three-bone armature
made a ragdoll by Make Ragdoll, and its Spine joint in Properties > Physics, whose limits list reads Swing
and Twist with their ranges as Make Ragdoll names them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import bpy
from mathutils import Vector

FIGURE_AT = Vector((-12.0, 0.0, 0.0))  # away from the demo's objects
BONES = {"Hips": (0.0, 0.4), "Spine": (0.4, 0.9), "Head": (0.9, 1.2)}  # heads and tails along +Z


def build() -> None:
    """An armature Hips -> Spine -> Head standing at FIGURE_AT, made a ragdoll (capsules by bone length)."""
    bpy.ops.object.select_all(action='DESELECT')
    data = bpy.data.armatures.new("Figure")
    armature = bpy.data.objects.new("Figure", data)
    bpy.context.scene.collection.objects.link(armature)
    armature.location = FIGURE_AT
    bpy.context.view_layer.objects.active = armature
    armature.select_set(True)
    bpy.ops.object.mode_set(mode='EDIT')
    parent = None
    for name, (start, end) in BONES.items():
        bone = data.edit_bones.new(name)
        bone.head, bone.tail = (0.0, 0.0, start), (0.0, 0.0, end)
        bone.parent, bone.use_connect = parent, parent is not None
        parent = bone
    bpy.ops.object.mode_set(mode='OBJECT')
    bpy.ops.omi.make_ragdoll(bones='DEFORM', shape_type='CAPSULE')


def steps(out: Path, window: Any, view3d: Any, properties: Any, *, settle: Callable[[], Iterator[float]],
          capture: Callable[..., None], make_active: Callable[[str], None],
          area_rect: Callable[..., Any]) -> Iterator[float]:
    """Build the ragdoll and capture its joint's panel with a Swing row active (the caller's helpers)."""
    with bpy.context.temp_override(window=window, area=view3d,
                                   region=next(r for r in view3d.regions if r.type == 'WINDOW')):
        build()
    joint = bpy.data.objects["Spine.joint"].omi_physics.joint
    joint.limits_active_index = 1  # Swing X
    make_active("Spine.joint")
    yield from settle()
    capture(out / "properties_ragdoll_joint.png", area_rect(window, properties), max_height=830)
