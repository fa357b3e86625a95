"""Blender (Z-up) <-> glTF (Y-up) conversion of vectors, rotations, sizes and joint axes.

The glTF add-on maps a glTF vector (x, y, z) to Blender (x, -z, y) for every node, so a node's local
axes map the same way. Every conversion in the add-on goes through this one module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, overload

from ...omi import conventions

Vec3 = tuple[float, float, float]


class Floats(Protocol):
    """What the conversions read: components by index (a sequence, or a mathutils Vector or Quaternion)."""

    def __getitem__(self, index: int, /) -> float: ...


def vec_to_blender(v: Floats) -> Vec3:
    return (float(v[0]), -float(v[2]), float(v[1]))


def vec_to_gltf(v: Floats) -> Vec3:
    return (float(v[0]), float(v[2]), -float(v[1]))


def size_to_blender(size: Floats) -> Vec3:
    """Extents (unsigned): swap Y and Z."""
    return (float(size[0]), float(size[2]), float(size[1]))


def size_to_gltf(size: Floats) -> Vec3:
    return (float(size[0]), float(size[2]), float(size[1]))


def quat_to_blender(q_xyzw: Floats) -> tuple[float, float, float, float]:
    """glTF quaternion (x, y, z, w) -> Blender quaternion (w, x, y, z) in Z-up axes."""
    x, y, z, w = (float(q_xyzw[index]) for index in range(4))
    return (w, x, -z, y)


def quat_to_gltf(q_wxyz: Floats) -> tuple[float, float, float, float]:
    """Blender quaternion (w, x, y, z) -> glTF quaternion (x, y, z, w) in Y-up axes."""
    w, x, y, z = (float(q_wxyz[index]) for index in range(4))
    return (x, z, -y, w)


# glTF axis index -> (Blender axis index, sign); and the inverse.
_AXIS_TO_BLENDER: dict[int, tuple[int, int]] = {0: (0, 1), 1: (2, 1), 2: (1, -1)}
_AXIS_TO_GLTF: dict[int, tuple[int, int]] = {0: (0, 1), 1: (2, -1), 2: (1, 1)}


def joint_axes(indices: Sequence[int], *, to_blender: bool) -> tuple[tuple[int, ...], int]:
    """Joint axis indices across the glTF <-> Blender axis change (sorted), and the sign a value measured along
    a lone axis takes there (1 for two or three axes: such a limit bounds a distance or an angle, unsigned).

    The one home of the joint axis change. The settings hold the joint object's local Blender axes (what the
    panel shows as X, Y, Z), the model glTF's; it runs once per way a joint goes: settings <-> model
    (`properties/convert_joint`), model -> Blender constraints (`builder/constraint_settings.from_model`, fed the
    document on import) and Blender constraints -> model (`adopt/from_constraints`). A range along a flipped
    axis flips with it (`signed_range`), a drive's targets change sign.
    """
    table = _AXIS_TO_BLENDER if to_blender else _AXIS_TO_GLTF
    converted = [table[axis] for axis in indices]
    sign = converted[0][1] if len(converted) == 1 else 1
    return tuple(sorted(axis for axis, _sign in converted)), sign


@overload
def signed_range(lo: float, hi: float, sign: int) -> tuple[float, float]: ...
@overload
def signed_range(lo: float | None, hi: float | None, sign: int) -> tuple[float | None, float | None]: ...
def signed_range(lo: float | None, hi: float | None, sign: int) -> tuple[float | None, float | None]:
    """A [lo, hi] range measured along an axis, seen along the same axis with `sign` applied."""
    return (lo, hi) if sign > 0 else conventions.reversed_range(lo, hi)
