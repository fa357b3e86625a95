"""The world gravity <-> Blender's scene gravity (`scene.gravity`, `scene.use_gravity`), both ways.

Blender's rigid bodies fall along `scene.gravity` while `use_gravity` is on, so that vector is the file's world
gravity, through the one glTF <-> Blender axis change (tables/axes.py). Import sets it (the most recently
imported file's gravity wins, as the spec says of instanced files) and notes a change; export writes it when it
is not Blender's default (on, 9.81 m/s^2 down), which is what an engine assumes without it. Gravity switched off
is written as 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import bpy

from ...omi import model
from ...omi.dialects import gravity
from ...omi.json_types import pointer_text
from ..tables import axes

BLENDER_DEFAULT: axes.Vec3 = (0.0, 0.0, -9.81)  # a new scene's gravity
TOLERANCE = 1e-6  # float32 storage of scene.gravity


def _close(first: Sequence[float], second: Sequence[float]) -> bool:
    return all(abs(a - b) <= TOLERANCE * max(1.0, abs(b)) for a, b in zip(first, second, strict=True))


def scene_vector(scene: bpy.types.Scene) -> axes.Vec3:
    """The acceleration Blender's rigid bodies feel, in Blender axes (zero while gravity is off)."""
    vector = scene.gravity
    return (float(vector.x), float(vector.y), float(vector.z)) if scene.use_gravity else (0.0, 0.0, 0.0)


def from_scene(scene: bpy.types.Scene) -> model.WorldGravity | None:
    """The scene's gravity as a world gravity, or None when it is Blender's default (nothing to write)."""
    if scene.use_gravity and _close(scene.gravity[:], BLENDER_DEFAULT):
        return None
    vector = axes.vec_to_gltf(scene_vector(scene))
    strength = math.sqrt(sum(value * value for value in vector))
    if strength == 0.0:
        return model.WorldGravity(0.0)
    x, y, z = (value / strength for value in vector)
    return model.WorldGravity(strength, (x, y, z))


def to_scene(world: model.WorldGravity, scene: bpy.types.Scene) -> list[model.Issue]:
    """Set the scene's gravity to the file's; an info note when that changes it."""
    before = scene_vector(scene)
    x, y, z = (value + 0.0 for value in axes.vec_to_blender(world.vector))  # no -0 shown
    wanted = (x, y, z)
    scene.use_gravity = True
    scene.gravity = wanted
    if _close(before, wanted):
        return []
    shown = ", ".join(f"{value:g}" for value in wanted)
    was = ", ".join(f"{value:g}" for value in before)
    return [model.Issue(pointer_text(gravity.WORLD_AT), f"the file's world gravity sets the scene's gravity to "
                                                          f"({shown}) m/s² (was ({was}))", "info")]
