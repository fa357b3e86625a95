"""Where Create Joint puts a joint: between the two objects' bounds, at the active object, or at the cursor."""

from __future__ import annotations

import bpy
from mathutils import Matrix, Vector

from .common import scene_of

LOCATION_ITEMS = [
    ('BETWEEN', "Between Objects", "Where the two objects' bounding boxes come nearest (a door's edge at its "
                                   "post, mid-height), aligned with the active object", 2),
    ('ACTIVE', "Active Object", "At the active object's origin, aligned with it", 0),
    ('CURSOR', "3D Cursor", "At the 3D cursor, aligned with it", 1),
]


def world_bounds(obj: bpy.types.Object) -> tuple[Vector, Vector]:
    """(low, high) corners of the object's bounding box in world space, axis-aligned."""
    corners = [obj.matrix_world @ Vector(corner) for corner in obj.bound_box]
    return (Vector([min(c[i] for c in corners) for i in range(3)]),
            Vector([max(c[i] for c in corners) for i in range(3)]))


def between(first: bpy.types.Object, second: bpy.types.Object) -> Vector:
    """The middle of where two boxes meet: per axis the middle of their overlap, or of the gap between them."""
    (low_a, high_a), (low_b, high_b) = world_bounds(first), world_bounds(second)
    point = Vector()
    for axis in range(3):
        low, high = max(low_a[axis], low_b[axis]), min(high_a[axis], high_b[axis])
        point[axis] = (low + high) / 2.0  # overlap: its middle; a gap (low > high): the gap's middle
    return point


def joint_frame(context: bpy.types.Context, where: str, active: bpy.types.Object,
                other: bpy.types.Object) -> Matrix:
    """The joint's world frame for a LOCATION_ITEMS choice: unscaled, rotated as the active object (or the
    cursor)."""
    if where == 'CURSOR':
        frame = scene_of(context).cursor.matrix.normalized()
        return Matrix.LocRotScale(frame.to_translation(), frame.to_quaternion(), None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
    rotation = active.matrix_world.normalized().to_quaternion()
    location = between(active, other) if where == 'BETWEEN' else active.matrix_world.to_translation()
    return Matrix.LocRotScale(location, rotation, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
