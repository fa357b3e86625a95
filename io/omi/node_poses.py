"""Where glTF nodes sit in the world, from the file alone: position and orientation (no bpy here).

Plain quaternion arithmetic (glTF order x, y, z, w) on the nodes' `translation`/`rotation`/`scale` or
`matrix`, composed down the node tree. Scale moves children (it multiplies their translation) but is left
out of the orientation; a non-uniform scale under a rotation (shear) is approximated, as Blender does.
The walk up the tree is a loop, so a 100,000-deep chain costs no recursion.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .model import IDENTITY_QUAT, ZERO3, Quat, Vec3

ONE3: Vec3 = (1.0, 1.0, 1.0)


@dataclass(frozen=True)
class Pose:
    """A node's frame in the world (or in its parent): where it is, how it is turned, how it scales."""

    translation: Vec3 = ZERO3
    rotation: Quat = IDENTITY_QUAT
    scale: Vec3 = ONE3

    def then(self, local: Pose) -> Pose:
        """The pose of a child whose local pose is `local`."""
        scaled = (self.scale[0] * local.translation[0], self.scale[1] * local.translation[1],
                  self.scale[2] * local.translation[2])
        moved = rotate(self.rotation, scaled)
        return Pose((self.translation[0] + moved[0], self.translation[1] + moved[1], self.translation[2] + moved[2]),
                    multiply(self.rotation, local.rotation),
                    (self.scale[0] * local.scale[0], self.scale[1] * local.scale[1], self.scale[2] * local.scale[2]))


def multiply(a: Quat, b: Quat) -> Quat:
    """The rotation b, then a (Hamilton product a * b)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def conjugate(q: Quat) -> Quat:
    return (-q[0], -q[1], -q[2], q[3])


def rotate(q: Quat, v: Vec3) -> Vec3:
    """The vector v turned by the unit quaternion q."""
    x, y, z, w = q
    # v + 2w (u x v) + 2 u x (u x v), with u the vector part
    cx, cy, cz = y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]
    return (v[0] + 2.0 * (w * cx + y * cz - z * cy), v[1] + 2.0 * (w * cy + z * cx - x * cz),
            v[2] + 2.0 * (w * cz + x * cy - y * cx))


def normalized(q: Sequence[float]) -> Quat:
    length = math.sqrt(sum(part * part for part in q))
    if length < 1e-12 or not math.isfinite(length):
        return IDENTITY_QUAT
    return (q[0] / length, q[1] / length, q[2] / length, q[3] / length)


def _numbers(value: Any, size: int) -> list[float] | None:
    if type(value) is list and len(value) == size and all(type(item) is float for item in value):
        return value  # what a parser makes: read as it is (nothing here changes it)
    if isinstance(value, list | tuple) and len(value) == size and \
            all(isinstance(item, int | float) and not isinstance(item, bool) for item in value):
        return [float(item) for item in value]
    return None


def local_pose(node: Any) -> Pose:
    """A node's pose in its parent, from `matrix` or from translation/rotation/scale (defaults where
    missing or malformed)."""
    if not isinstance(node, dict):
        return Pose()
    matrix = _numbers(node.get("matrix"), 16)
    if matrix is not None:
        return _matrix_pose(matrix)
    translation = _numbers(node.get("translation"), 3)
    rotation = _numbers(node.get("rotation"), 4)
    scale = _numbers(node.get("scale"), 3)
    return Pose((translation[0], translation[1], translation[2]) if translation else ZERO3,
                normalized(rotation) if rotation else IDENTITY_QUAT,
                (scale[0], scale[1], scale[2]) if scale else ONE3)


def _matrix_pose(m: list[float]) -> Pose:
    """Translation, rotation and scale of a column-major 4x4 matrix (the columns' lengths are the scale)."""
    columns = [m[0:3], m[4:7], m[8:11]]
    scale = [math.sqrt(sum(c * c for c in column)) for column in columns]
    if _determinant(columns) < 0:
        scale[0] = -scale[0]
    axes = [[c / s if abs(s) > 1e-12 else 0.0 for c in column] for column, s in zip(columns, scale, strict=True)]
    return Pose((m[12], m[13], m[14]), _matrix_quaternion(axes), (scale[0], scale[1], scale[2]))


def _determinant(c: list[list[float]]) -> float:
    return (c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1])
            + c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]))


def _matrix_quaternion(axes: list[list[float]]) -> Quat:
    """The quaternion of a rotation matrix given as its three columns (Shepperd's method)."""
    r = [[axes[column][row] for column in range(3)] for row in range(3)]
    trace = r[0][0] + r[1][1] + r[2][2]
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        q = ((r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s, 0.25 * s)
    elif r[0][0] > r[1][1] and r[0][0] > r[2][2]:
        s = 2.0 * math.sqrt(max(1.0 + r[0][0] - r[1][1] - r[2][2], 1e-24))
        q = (0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s, (r[2][1] - r[1][2]) / s)
    elif r[1][1] > r[2][2]:
        s = 2.0 * math.sqrt(max(1.0 + r[1][1] - r[0][0] - r[2][2], 1e-24))
        q = ((r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s, (r[0][2] - r[2][0]) / s)
    else:
        s = 2.0 * math.sqrt(max(1.0 + r[2][2] - r[0][0] - r[1][1], 1e-24))
        q = ((r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s, (r[1][0] - r[0][1]) / s)
    return normalized(q)


def world_poses(nodes: Sequence[Any], parent: dict[int, int], wanted: Iterable[int]) -> dict[int, Pose]:
    """The world pose of each wanted node (and of its ancestors, found on the way): `parent` maps a child
    to its parent (a tree without cycles, as gltf_structure.node_tree keeps it). Each node is composed once."""
    found: dict[int, Pose] = {}
    for start in wanted:
        walk, current = [], start
        while current not in found:
            walk.append(current)
            if current not in parent:
                break
            current = parent[current]
        pose = found.get(current, Pose()) if current not in walk else Pose()
        for index in reversed(walk):
            pose = pose.then(local_pose(nodes[index]))
            found[index] = pose
    return found
