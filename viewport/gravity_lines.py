"""Overlay lines of gravity volumes: arrows of the field sampled inside each volume's trigger shape, and what the
field pulls towards (the point, the disc's or torus's circle, the line's points).

The field is the pure one (io/omi/gravity_field.py) of the volume as the export writes it (glTF axes, the
node's frame), sampled at points of the trigger shape's extent in the object's Blender axes; arrows have one
length per volume (a fifth of its extent: the direction is what the eye reads), brighter where stronger.
The trigger's shape itself is drawn by the overlay already (magenta).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

import bpy
import numpy as np
from mathutils import Matrix, Vector

from ..io.blender.tables import axes
from ..io.omi import gravity_field, model
from ..properties import object_physics
from ..properties.convert import node_from_object, shape_offset_matrix
from .collect import OverlayLines
from .geometry import ROLE_COLORS, LineBuffer

GRAVITY_COLOR = ROLE_COLORS['GRAVITY']  # not the limits' cyan: the legend names each colour once
TARGET_COLOR = (1.0, 1.0, 1.0, 0.9)
_DIRECTIONS = [Vector(d).normalized() for d in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
                                                 (1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1),
                                                 (-1, 1, -1), (-1, -1, 1), (-1, -1, -1))]


def _extent(obj: bpy.types.Object) -> float:
    """Half the size of the trigger's shape, in the object's axes."""
    shape = object_physics(obj).trigger.shape
    if shape.shape_type == 'BOX':
        return max(shape.size) / 2
    if shape.shape_type == 'SPHERE':
        return shape.radius
    if shape.shape_type in {'CAPSULE', 'CYLINDER'}:
        return max(shape.height / 2, shape.radius_top, shape.radius_bottom)
    return max(obj.dimensions[:]) / 2 / max(*obj.scale[:], 1e-6) or 1.0


def _samples(obj: bpy.types.Object, extent: float) -> list[Vector]:
    """Points of the trigger's extent, in the object's axes: the centre and two shells of 14 directions."""
    offset = shape_offset_matrix(object_physics(obj).trigger.shape) or Matrix.Identity(4)
    points = [Vector((0.0, 0.0, 0.0))] + [d * extent * f for f in (0.45, 0.9) for d in _DIRECTIONS]
    return [offset @ point for point in points]


def _arrow(start: Vector, direction: Vector, length: float) -> list[Vector]:
    """A line from `start` along `direction` with a two-stroke head."""
    end = start + direction * length
    side = direction.orthogonal().normalized() * length * 0.25
    back = end - direction * length * 0.3
    return [start, end, end, back + side, end, back - side]


def _targets(volume: model.GravityVolume, extent: float) -> list[Vector]:
    """What the field pulls towards, as line pairs in the object's Blender axes."""
    if volume.type == "point":
        size = extent * 0.05
        return [Vector(p) for axis in range(3) for p in (tuple(-size if i == axis else 0.0 for i in range(3)),
                                                         tuple(size if i == axis else 0.0 for i in range(3)))]
    if volume.type in ("disc", "torus"):
        ring = [Vector(axes.vec_to_blender((volume.radius * math.cos(a), 0.0, volume.radius * math.sin(a))))
                for a in np.linspace(0.0, 2 * math.pi, 33)]
        return [p for i in range(32) for p in (ring[i], ring[i + 1])]
    if volume.type == "line":
        points = [Vector(axes.vec_to_blender(volume.points[i:i + 3])) for i in range(0, len(volume.points) - 2, 3)]
        return [p for i in range(len(points) - 1) for p in (points[i], points[i + 1])]
    return []


def volume_lines(obj: bpy.types.Object, buffer: LineBuffer) -> bool:
    """Add one object's gravity arrows and targets to `buffer` (world space); False when it has none."""
    volume = node_from_object(obj, []).gravity
    if volume is None:
        return False
    extent = _extent(obj)
    world = obj.matrix_world
    arrows: list[Vector] = []
    for point in _samples(obj, extent):
        a = Vector(axes.vec_to_blender(gravity_field.acceleration(volume, axes.vec_to_gltf(point))))
        if a.length > 0:
            arrows += _arrow(point, a.normalized(), extent * 0.2)
    buffer.add(np.array([world @ p for p in arrows], np.float32).reshape(-1, 3), GRAVITY_COLOR)
    buffer.add(np.array([world @ p for p in _targets(volume, extent)], np.float32).reshape(-1, 3), TARGET_COLOR)
    return True


def with_gravity(lines: OverlayLines, objects: Iterable[bpy.types.Object]) -> OverlayLines:
    """The overlay's lines with those of every gravity volume among `objects` added."""
    buffer = LineBuffer()
    found = [obj for obj in objects if object_physics(obj).use_gravity and object_physics(obj).use_trigger]
    if not found:
        return lines
    for obj in found:
        volume_lines(obj, buffer)
    positions, colors = buffer.arrays()
    return dataclasses.replace(lines, positions=np.concatenate([lines.positions, positions]),
                               colors=np.concatenate([lines.colors, colors]))
