"""Write fitted shapes into an object's settings, or into a new child collider object.

The fits themselves (io/blender/fit.py) work in the object's local space, where the shape settings
live too: on the object itself a fitted shape inherits the object's transform exactly as the mesh does.
A child collider is placed so that its own world scale is 1 (engines dislike scaled shape nodes): its
local matrix cancels the parent's world scale and the shape's lengths carry the scale instead.
"""

from __future__ import annotations

from typing import NamedTuple

import bmesh
import bpy
import numpy as np
from mathutils import Euler, Matrix, Vector

from ..io.blender import fit
from ..io.blender.tables import markers
from ..io.omi.conventions import capsule_full_height, capsule_mid_height
from ..properties import object_physics
from ..properties.body import OMIColliderSettings, OMITriggerSettings
from ..properties.shape import OMIShapeSettings, offset_matters
from .common import link_like

ROLE_ITEMS = [
    ('COLLIDER', "Collider", "A solid shape that bodies collide with", 0),
    ('TRIGGER', "Trigger", "A non-solid volume that detects bodies", 1),
]
TARGET_ITEMS = [
    ('SELF', "This Object", "Put the shape on the object itself", 0),
    ('CHILD', "New Child", "Add a new, unscaled child object that holds the shape", 1),
]
_EPSILON = 1e-9
HULL_SUFFIX = ".hull"
COLLIDER_SUFFIX = ".collider"


def part_settings(obj: bpy.types.Object, role: str) -> OMIColliderSettings | OMITriggerSettings:
    """Turn the role (collider or trigger) on and return its settings; a shape of its own, not compound."""
    settings = object_physics(obj)
    if role == 'TRIGGER':
        settings.use_trigger = True
        part = settings.trigger
    else:
        settings.use_collider = True
        part = settings.collider
    part.is_compound = False
    return part


def set_offset(shape: OMIShapeSettings, center: Vector, rotation: Euler | None, extent: float = 0.0) -> None:
    """Place the shape at `center` (rotated by `rotation`) in its object's frame. An offset within a fit's
    rounding of the origin (`offset_matters`, against the shape's `extent`) is none: it is cleared."""
    rotation = rotation or Euler((0.0, 0.0, 0.0))
    if offset_matters(center, rotation, extent):
        shape.offset_location = center
        shape.offset_rotation = rotation
        shape.use_offset = True
    else:
        shape.offset_location = (0.0, 0.0, 0.0)
        shape.offset_rotation = (0.0, 0.0, 0.0)
        shape.use_offset = False


def world_scale(obj: bpy.types.Object) -> Vector:
    return obj.matrix_world.to_scale()


class Fitted(NamedTuple):
    """Where a fitted primitive sits in its object, and how well it fits."""

    center: Vector
    rotation: Euler | None
    exact: bool  # False: encloses the mesh, not tightly (a round shape under a non-uniform scale)
    thickened: tuple[int, ...] = ()  # local axes along which a flat or thin box was given the minimum thickness


def fit_primitive(obj: bpy.types.Object, shape: OMIShapeSettings, shape_type: str,
                  depsgraph: bpy.types.Depsgraph | None, scale: Vector | None = None, *,
                  min_thickness: float = fit.DEFAULT_MIN_THICKNESS) -> Fitted:
    """Fit a box/sphere/capsule/cylinder to `obj` into `shape`.

    With `scale`, the shape is sized for the object's points scaled by it (a child collider that
    cancels the scale): exact for boxes and uniform scales; for round shapes under a non-uniform scale
    the radius grows by the largest cross-axis factor, so the shape still encloses the mesh (exact=False).
    A box thinner than `min_thickness` (in world metres) along an axis, a plane's box above all, is grown
    to it behind its faces: a box without thickness stops nothing, and no format holds a zero side.
    """
    shape.shape_type = shape_type
    if shape_type == 'BOX':
        return _fit_box(obj, shape, depsgraph, scale, min_thickness)
    scale = scale if scale is not None else Vector((1.0, 1.0, 1.0))
    uniform = max(scale[:]) - min(scale[:]) <= 1e-6 * max(scale[:])
    if shape_type == 'SPHERE':
        radius, center = fit.fit_sphere(obj, depsgraph)
        shape.radius = radius * max(scale[:])
        return Fitted(center, None, uniform)
    fitter = fit.fit_capsule if shape_type == 'CAPSULE' else fit.fit_cylinder
    radius, height, center, rotation = fitter(obj, depsgraph)
    axis_vector = rotation.to_matrix() @ Vector((0.0, 0.0, 1.0))
    axis = max(range(3), key=lambda i: abs(axis_vector[i]))
    across = max(scale[i] for i in range(3) if i != axis)
    radius_scaled = radius * across
    if shape_type == 'CAPSULE':
        length = capsule_full_height(height, radius) * scale[axis]
        shape.height = max(0.0, capsule_mid_height(length, radius_scaled))
    else:
        shape.height = height * scale[axis]
    shape.radius_top = shape.radius_bottom = radius_scaled
    return Fitted(center, rotation, uniform)


def _fit_box(obj: bpy.types.Object, shape: OMIShapeSettings, depsgraph: bpy.types.Depsgraph | None,
             scale: Vector | None, min_thickness: float) -> Fitted:
    """The bounding box; thin sides grown to `min_thickness` metres. Without `scale` the box lives in the
    object's scaled frame, so its local thickness is the minimum divided by the object's world scale."""
    size, center = fit.fit_box(obj, depsgraph)
    stretch = scale if scale is not None else Vector((1.0, 1.0, 1.0))
    world = world_scale(obj) if scale is None else Vector((1.0, 1.0, 1.0))
    in_metres = Vector([abs(s * k * w) for s, k, w in zip(size[:], stretch[:], world[:], strict=True)])
    axes = fit.thin_axes(in_metres, min_thickness) if min_thickness > 0.0 else []
    if axes:
        tx, ty, tz = (min_thickness / max(abs(k * w), _EPSILON) for k, w in zip(stretch[:], world[:], strict=True))
        thickness = (tx, ty, tz)
        x, y, z = (fit.facing(obj, axis, depsgraph) if axis in axes else 0.0 for axis in range(3))
        sides = (x, y, z)
        size, center = fit.thicken(size, center, axes, thickness, sides)
    shape.size = Vector([s * k for s, k in zip(size[:], stretch[:], strict=True)])
    return Fitted(center, None, True, tuple(axes))


def hull_points(obj: bpy.types.Object, budget: int | None,
                depsgraph: bpy.types.Depsgraph | None) -> tuple[np.ndarray, int]:
    """(points of the hull within `budget`, vertex count of the full hull) in the object's local space."""
    points = np.array([p[:] for p in fit.convex_hull_points(obj, None, depsgraph)], dtype=np.float64)
    full = len(points)
    if budget is not None and full > budget:
        points = points[fit.simplify_hull(points, budget)]
    return points, full


def hull_mesh(name: str, points: np.ndarray) -> bpy.types.Mesh:
    """A closed mesh: the convex hull of `points` (every point a hull vertex)."""
    bm = bmesh.new()
    try:
        for point in points:
            bm.verts.new(point)
        # the stubs type bmesh.ops' element lists as an invariant list[BMVert | BMEdge | BMFace]
        result = bmesh.ops.convex_hull(bm, input=bm.verts[:], use_existing_faces=False)  # type: ignore[arg-type]  # see above
        loose = {v for v in result["geom_interior"] + result["geom_unused"] if isinstance(v, bmesh.types.BMVert)}
        bmesh.ops.delete(bm, geom=list(loose), context='VERTS')
        mesh = bpy.data.meshes.new(name)
        bm.to_mesh(mesh)
    finally:
        bm.free()
    return mesh


def baked_mesh(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, scale: Vector) -> bpy.types.Mesh:
    """A copy of the evaluated mesh with `scale` applied to its vertices."""
    mesh = bpy.data.meshes.new_from_object(obj.evaluated_get(depsgraph))
    mesh.name = obj.name + COLLIDER_SUFFIX
    mesh.transform(Matrix.Diagonal((*scale[:], 1.0)))
    return mesh


def collision_only(obj: bpy.types.Object) -> None:
    """Declare the object's mesh collision geometry: drawn as wire, not rendered, not exported as a mesh."""
    markers.mark_shape_mesh(obj)


def new_child(context: bpy.types.Context, parent: bpy.types.Object, name: str, data: bpy.types.ID | None, basis: Matrix
              ) -> bpy.types.Object:
    """A child of `parent` with local matrix `basis` (parent inverse identity), in the parent's collections."""
    child = bpy.data.objects.new(name, data)
    link_like(child, parent, context)
    child.parent = parent
    child.matrix_parent_inverse = Matrix.Identity(4)
    child.matrix_basis = basis
    return child


def compensation(scale: Vector) -> Matrix:
    """The local scale that cancels a parent's world scale (child world scale 1)."""
    return Matrix.Diagonal((*(1.0 / s if abs(s) > _EPSILON else 1.0 for s in scale[:]), 1.0))


def reuse_hull_object(obj: bpy.types.Object, shape: OMIShapeSettings) -> bpy.types.Object | None:
    """The collision-mesh child an earlier fit made for this shape, to refill instead of adding another."""
    previous = shape.mesh_object if shape.mesh_source == 'OBJECT' else None
    if previous is not None and previous.parent == obj and previous.name.startswith(obj.name + HULL_SUFFIX):
        return previous
    return None
