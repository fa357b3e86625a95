"""The acceleration a gravity volume gives at a point of its node's frame (glTF axes), as the spec defines it.

Used by the viewport overlay to draw a volume's field; the second engine (tests/engine/gravity_volumes.mjs)
computes the same in the simulation, and its tests check the two against the spec's cases. Shaped gravity
needs the shape's nearest point: given here for boxes and spheres, None (not drawn) for the others.
No bpy here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .model import GravityVolume, Shape, Vec3


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _length(a: Sequence[float]) -> float:
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


def _on_segment(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> Vec3:
    ab = _sub(b, a)
    span = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]
    t = 0.0 if span == 0 else min(max(sum((p[i] - a[i]) * ab[i] for i in range(3)) / span, 0.0), 1.0)
    return (a[0] + ab[0] * t, a[1] + ab[1] * t, a[2] + ab[2] * t)


def _on_shape(shape: Shape | None, p: Sequence[float]) -> Vec3 | None:
    """The nearest point of a box's or sphere's surface (from outside; inside: the point itself)."""
    if shape is None:
        return None
    if shape.type == "box":
        half = [size / 2 for size in shape.size]
        return (min(max(p[0], -half[0]), half[0]), min(max(p[1], -half[1]), half[1]), min(max(p[2], -half[2]), half[2]))
    if shape.type == "sphere":
        reach = _length(p)
        if reach <= shape.radius:
            return (p[0], p[1], p[2])
        return (p[0] * shape.radius / reach, p[1] * shape.radius / reach, p[2] * shape.radius / reach)
    return None


def nearest_point(volume: GravityVolume, p: Sequence[float]) -> Vec3 | None:
    """The point gravity at `p` pulls towards (None: directional, or nothing to pull towards)."""
    if volume.type == "point":
        return (0.0, 0.0, 0.0)
    if volume.type in ("disc", "torus"):
        flat = (p[0], 0.0, p[2])
        reach = _length(flat)
        if volume.type == "disc" and reach <= volume.radius:
            return flat
        if reach == 0:
            return (volume.radius, 0.0, 0.0)
        return (flat[0] * volume.radius / reach, 0.0, flat[2] * volume.radius / reach)
    if volume.type == "line":
        points = volume.points
        candidates = [_on_segment(p, points[i:i + 3], points[i + 3:i + 6]) for i in range(0, len(points) - 5, 3)]
        return min(candidates, key=lambda q: _length(_sub(q, p)), default=None)
    if volume.type == "shaped":
        return _on_shape(volume.shape, p)
    return None


def acceleration(volume: GravityVolume, p: Sequence[float]) -> Vec3:
    """The volume's acceleration at `p` (its node's frame, the node's scale ignored)."""
    if volume.type == "directional":
        d = volume.direction
        return (volume.gravity * d[0], volume.gravity * d[1], volume.gravity * d[2])
    target = nearest_point(volume, p)
    if target is None:
        return (0.0, 0.0, 0.0)
    toward = _sub(target, p)
    distance = _length(toward)
    if distance == 0:
        return (0.0, 0.0, 0.0)
    strength = volume.gravity
    if volume.unit_distance > 0:
        strength *= (volume.unit_distance / distance) ** 2
    return (toward[0] * strength / distance, toward[1] * strength / distance, toward[2] * strength / distance)
