"""A kinematic body's constant velocity as drivers on its delta transforms.

KHR: a kinematic body has infinite mass and "its velocity will be constant during simulation"; OMI's
kinematic body likewise keeps its linear and angular velocity. Blender's kinematic ("Animated") body has no
velocity: Bullet moves it to wherever the object is each frame. So the build drives the object's delta
location and delta rotation with the frame: the delta location grows by the velocity, the delta rotation
turns about the angular velocity's axis (a quaternion whose components are a cosine and a sine of the
frame: exact at every frame, unlike keyed quaternions, which Blender interpolates component by component).

Driving the deltas leaves the object's own location and rotation free for the artist to edit, and at the
simulation's first frame the deltas are zero, so the object stands where the file put it. The drivers use
Blender's simple expressions (`frame`, `sin`, `cos`), which run without Python scripts being trusted.
A rebuild or Clear removes them (`release_drive`). Velocities are taken in the node's space at the start
(as for a dynamic body's initial velocity) and held constant in world space, turning about the node's
origin, as Rapier does; the frame's seconds follow the scene's frame rate and the rigid-body world's speed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..tables.markers import DRIVEN

_LOCATION = "delta_location"
_ROTATION = "delta_rotation_quaternion"
_EULER = "delta_rotation_euler"
_PATHS = (_LOCATION, _ROTATION, _EULER)


def drive_constant_velocity(obj: bpy.types.Object, *, first_frame: int, frame_seconds: float, world: Matrix,
                            linear: Vector, angular: Vector) -> bool:
    """Drive `obj` (world matrix `world` at `first_frame`) at these world-space velocities (m/s, rad/s); False
    when the object's rotation mode cannot turn at a constant rate by its delta rotation (an Euler or
    axis-angle mode and an axis off the object's own axes): its linear velocity is still driven."""
    release_drive(obj)
    to_parent = world @ obj.matrix_basis.inverted_safe()  # the parent's frame the object's basis lives in
    parent_linear = to_parent.to_3x3().inverted_safe()
    location_rate = parent_linear @ linear
    spin = to_parent.to_quaternion().inverted() @ angular  # the angular velocity in the parent's frame
    if not all(math.isfinite(vector[index]) for vector in (location_rate, spin) for index in range(3)):
        return True  # a velocity beyond float32 (named by the import's value checks): no NaN drivers
    made = False
    if location_rate.length:
        for index in range(3):
            _drive(obj, _LOCATION, index, f"{location_rate[index] * frame_seconds:.9g}*(frame-{first_frame})")
        made = True
    turns = True
    if spin.length:
        half_step = 0.5 * spin.length * frame_seconds  # radians of the half angle per frame
        axis = spin.normalized()
        angle = f"{half_step:.9g}*(frame-{first_frame})"
        if obj.rotation_mode == 'QUATERNION':
            _drive(obj, _ROTATION, 0, f"cos({angle})")
            for index in range(3):
                _drive(obj, _ROTATION, index + 1, f"{axis[index]:.9g}*sin({angle})")
            made = True
        else:
            on_axis = [index for index in range(3) if abs(axis[index]) > 1.0 - 1e-9]
            turns = obj.rotation_mode != 'AXIS_ANGLE' and len(on_axis) == 1
            if turns:
                index = on_axis[0]
                _drive(obj, _EULER, index, f"{math.copysign(2.0 * half_step, axis[index]):.9g}*(frame-{first_frame})")
                made = True
    if made:
        obj[DRIVEN] = True
    return turns


def release_drive(obj: bpy.types.Object) -> None:
    """Remove the drivers an earlier build set and zero the deltas they moved (the artist's deltas on an
    undriven object stay)."""
    if obj.get(DRIVEN) is None:
        return
    for path in _PATHS:
        obj.driver_remove(path)
    obj.delta_location = (0.0, 0.0, 0.0)
    obj.delta_rotation_quaternion = Quaternion()
    obj.delta_rotation_euler = (0.0, 0.0, 0.0)
    del obj[DRIVEN]


def hold_drives(objects: Iterable[bpy.types.Object]) -> list[tuple[bpy.types.Object, tuple]]:
    """Mute the velocity drivers and zero the deltas they moved, so an export at any frame writes where the
    file's bodies start (the drivers are a stand-in for the velocity the export writes); `resume_drives`
    puts them back."""
    held: list[tuple[bpy.types.Object, tuple]] = []
    for obj in objects:
        if obj.get(DRIVEN) is None or obj.animation_data is None:
            continue
        held.append((obj, (obj.delta_location.copy(), obj.delta_rotation_quaternion.copy(),
                           obj.delta_rotation_euler.copy())))
        for curve in obj.animation_data.drivers:
            if curve.data_path in _PATHS:
                curve.mute = True
        obj.delta_location = (0.0, 0.0, 0.0)
        obj.delta_rotation_quaternion = Quaternion()
        obj.delta_rotation_euler = (0.0, 0.0, 0.0)
    return held


def resume_drives(held: list[tuple[bpy.types.Object, tuple]]) -> None:
    """Undo `hold_drives`."""
    for obj, (location, rotation, euler) in held:
        if obj.animation_data is not None:
            for curve in obj.animation_data.drivers:
                if curve.data_path in _PATHS:
                    curve.mute = False
        obj.delta_location, obj.delta_rotation_quaternion, obj.delta_rotation_euler = location, rotation, euler


def _drive(obj: bpy.types.Object, path: str, index: int, expression: str) -> None:
    curve = obj.driver_add(path, index)
    assert isinstance(curve, bpy.types.FCurve), "one index: one F-curve (a list only for index -1)"
    driver = curve.driver
    assert driver is not None, "an F-curve made by driver_add has its driver"
    driver.type = 'SCRIPTED'
    driver.expression = expression
