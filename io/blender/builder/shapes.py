"""Shapes (model values) -> what Blender's rigid bodies read: a collision shape type, and mesh data whose bounds
are the shape's.

Blender takes a box, sphere, capsule or cylinder from the mesh's bounding box (centred on the object,
scaled by the object, ignored for a compound's child), so a mesh with the shape's exact bounds gives the
exact shape. Tapered capsules and cylinders have no Blender primitive: their mesh's convex hull stands
in (a cylinder whose top radius is 0 is Blender's cone).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import bpy
import numpy as np
from mathutils import Matrix

from ...omi import conventions, model
from ..tables import axes
from ..tables.axes import Vec3
from . import shape_data

TOLERANCE = 1e-5
PRIMITIVE_TYPES = model.PRIMITIVE_SHAPE_TYPES
ROUND_TYPES = model.ROUND_SHAPE_TYPES
MESH_TYPES = model.MESH_SHAPE_TYPES


def is_tapered(shape: model.Shape) -> bool:
    """A capsule or cylinder whose two radii differ."""
    return shape.type in ROUND_TYPES and not math.isclose(shape.radius_top, shape.radius_bottom, abs_tol=TOLERANCE)


def collision_shape(shape: model.Shape) -> str:
    """Blender's collision shape for a shape."""
    if shape.type == "convex":
        return 'CONVEX_HULL'
    if shape.type == "trimesh":
        return 'MESH'
    if is_tapered(shape):
        return 'CONE' if shape.type == "cylinder" and shape.radius_top <= TOLERANCE else 'CONVEX_HULL'
    return shape.type.upper()


def _blender_size(shape: model.Shape) -> Vec3:
    """A box's size along its local Blender axes."""
    return axes.size_to_blender(shape.size)


def extents(shape: model.Shape) -> Vec3:
    """The full extents of a primitive shape along its local Blender axes."""
    if shape.type == "box":
        return _blender_size(shape)
    if shape.type == "sphere":
        return (2 * shape.radius,) * 3
    radius = max(shape.radius_top, shape.radius_bottom)
    mean_radius = (shape.radius_top + shape.radius_bottom) / 2.0  # a tapered capsule's end spheres, each its own
    height = shape.effective_height
    height = height if shape.type == "cylinder" else conventions.capsule_full_height(height, mean_radius)
    return (2 * radius, 2 * radius, height)


def bounds_match(mesh: bpy.types.Mesh, shape: model.Shape) -> bool:
    """Whether the shape Blender takes from this mesh's bounds is the primitive `shape`."""
    if not mesh.vertices or shape.type not in PRIMITIVE_TYPES or is_tapered(shape):
        return False
    points = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", points)
    points = points.reshape(-1, 3)
    low, high = points.min(axis=0), points.max(axis=0)
    want = extents(shape)
    tolerance = TOLERANCE * max(1.0, *want)
    if np.any(np.abs(low + high) > tolerance):
        return False  # Blender centres the shape on the object's origin
    size = high - low
    if shape.type == "box":
        return bool(np.all(np.abs(size - want) <= tolerance))
    if shape.type == "sphere":
        return bool(abs(size.max() - want[0]) <= tolerance)
    return bool(abs(max(size[0], size[1]) - want[0]) <= tolerance and abs(size[2] - want[2]) <= tolerance)


def still_primitive(shape_type: str, scale: Sequence[float]) -> bool:
    """Whether a primitive (model type) stretched by `scale` along its axes is still that primitive."""
    uniform = max(scale) - min(scale) <= TOLERANCE * max(scale)
    round_section = abs(scale[0] - scale[1]) <= TOLERANCE * max(scale)
    return shape_type == "box" or uniform or (shape_type == "cylinder" and round_section)


def _key(values: Sequence[float]) -> str:
    """Floats as a mesh cache key: equal to 6 significant digits is the same mesh."""
    return ",".join(f"{value:.6g}" for value in values)


class ShapeMeshes:
    """Generated shape meshes, shared between equal shapes, also across builds: each is tagged with the
    ID property `marker` holding its key."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self._by_key: dict[str, bpy.types.Mesh] = {}
        self._by_values: dict[tuple, bpy.types.Mesh] = {}
        for mesh in bpy.data.meshes:
            key = mesh.get(marker)
            if isinstance(key, str):
                self._by_key.setdefault(key, mesh)

    def _get(self, key: str, name: str, make: Callable[[], bpy.types.Mesh]) -> bpy.types.Mesh:
        mesh = self._by_key.get(key)
        if mesh is None:
            mesh = make()
            mesh.name = name
            mesh[self.marker] = key
            self._by_key[key] = mesh
        return mesh

    def body(self) -> bpy.types.Mesh:
        """The vertex-less mesh of a body whose shapes are all on other objects."""
        return self._get("body", "OMI body", lambda: bpy.data.meshes.new("OMI body"))

    def shape(self, shape: model.Shape, scale: Sequence[float] = (1.0, 1.0, 1.0)) -> bpy.types.Mesh:
        """A mesh of the primitive shape with exact bounds, in its local Blender axes, `scale` baked in."""
        kind = shape.type
        size = _blender_size(shape)
        height = shape.effective_height
        values = size if kind == "box" else (shape.radius,) if kind == "sphere" else \
            (height, shape.radius_top, shape.radius_bottom)
        asked = (kind, values, tuple(scale))
        found = self._by_values.get(asked)  # many equal shapes: the key text made once
        if found is not None:
            return found
        name = f"OMI {kind}"

        def make() -> bpy.types.Mesh:
            mesh = shape_data.shape_mesh(kind, size, shape.radius, height, shape.radius_top, shape.radius_bottom, name)
            if tuple(scale) != (1.0, 1.0, 1.0):
                mesh.transform(Matrix.Diagonal((*scale, 1.0)))
            return mesh

        found = self._by_values[asked] = self._get(f"{kind}:{_key(values)}:{_key(scale)}", name, make)
        return found

    def scaled_copy(self, source: bpy.types.Mesh, scale: Sequence[float]) -> bpy.types.Mesh:
        """A copy of a convex/trimesh source mesh with `scale` baked in."""

        def make() -> bpy.types.Mesh:
            mesh = source.copy()
            assert mesh is not None, "a mesh's copy is a mesh"
            mesh.transform(Matrix.Diagonal((*scale, 1.0)))
            return mesh

        return self._get(f"scaled:{source.name}:{_key(scale)}", f"{source.name} scaled", make)
