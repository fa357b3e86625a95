"""A gravity volume's settings <-> the model's GravityVolume, both directions in one place.

Directions and line points are in the object's local Blender axes in the settings and in glTF axes in the
model; the change goes through io/blender/tables/axes.py. A shaped volume's shape is a shape settings group,
converted by the same functions as a collider's (`convert.shape_to_model` / `convert.shape_values`, passed in
to keep this module below `convert`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bpy

from ..io.blender.tables import axes
from ..io.omi import model
from ..io.omi.checks.value_losses import INT32_LIMIT
from .convert_common import kept
from .convert_common import pg_float as _float
from .convert_common import pg_vec as _vec
from .gravity import GRAVITY_TYPE_FROM_OMI, GRAVITY_TYPE_TO_OMI, OMIGravitySettings
from .object import OMIObjectSettings
from .stored import store

ShapeToModel = Callable[..., model.Shape]
ShapeValues = Callable[..., "dict | None"]
MeshResolver = Callable[[model.MeshRef], "bpy.types.Object | None"]  # as convert.MeshResolver


def gravity_to_model(pg: OMIGravitySettings, obj: bpy.types.Object, shape_to_model: ShapeToModel,
                     issues: list[model.Issue] | None = None) -> model.GravityVolume:
    """The settings as a glTF-space GravityVolume (values other types use keep their defaults)."""
    gravity_type = GRAVITY_TYPE_TO_OMI[pg.gravity_type]
    values: dict[str, Any] = {}
    if gravity_type == "directional":
        values["direction"] = _vec(axes.vec_to_gltf(pg.direction))
    else:
        values["unit_distance"] = _float(pg.unit_distance)
    if gravity_type in ("disc", "torus"):
        values["radius"] = _float(pg.radius)
    if gravity_type == "line":
        values["points"] = tuple(number for point in pg.points for number in _vec(axes.vec_to_gltf(point.co)))
    if gravity_type == "shaped":
        values["shape"] = shape_to_model(pg.shape, obj, issues, "/gravity/shape")
    return model.GravityVolume(gravity_type, _float(pg.strength), priority=int(pg.priority), replace=bool(pg.replace),
                               stop=bool(pg.stop), unknown=kept(pg.unknown_json),
                               type_unknown=kept(pg.type_unknown_json), **values)


def gravity_values(volume: model.GravityVolume, obj: bpy.types.Object, shape_values: ShapeValues, *,
                   resolve_mesh: MeshResolver | None = None, issues: list[model.Issue] | None = None) -> dict:
    """A glTF-space GravityVolume as the settings' values (for `stored.store`; the line points are a collection,
    written by `apply_points`)."""
    values: dict = {"gravity_type": GRAVITY_TYPE_FROM_OMI.get(volume.type, 'DIRECTIONAL'), "strength": volume.gravity,
                    "direction": axes.vec_to_blender(volume.direction), "unit_distance": volume.unit_distance,
                    "radius": volume.radius, "priority": max(-INT32_LIMIT, min(INT32_LIMIT - 1, volume.priority)),
                    "replace": volume.replace,
                    "stop": volume.stop, "unknown_json": volume.unknown.text,
                    "type_unknown_json": volume.type_unknown.text}
    if volume.shape is not None:
        shape = shape_values(volume.shape, obj, lambda: "the previous shape", resolve_mesh=resolve_mesh,
                             issues=issues, pointer="/gravity/shape")
        if shape is not None:
            values["shape"] = shape
    return values


def apply_points(volume: model.GravityVolume, pg: OMIGravitySettings) -> None:
    """The line points into the settings' collection (cleared when the volume has none)."""
    if not volume.points and not len(pg.points):
        return
    pg.points.clear()
    for start in range(0, len(volume.points) - 2, 3):
        pg.points.add().co = axes.vec_to_blender(volume.points[start:start + 3])


def apply_gravity(volume: model.GravityVolume | None, settings: OMIObjectSettings, obj: bpy.types.Object,
                  shape_values: ShapeValues, *, resolve_mesh: MeshResolver | None = None,
                  issues: list[model.Issue] | None = None) -> None:
    """Write a node's gravity volume into an object's settings: enabled and written, or switched off."""
    if volume is None:
        store(settings, {"use_gravity": False})
        return
    store(settings, {"use_gravity": True, "gravity": gravity_values(volume, obj, shape_values,
                                                                    resolve_mesh=resolve_mesh, issues=issues)})
    apply_points(volume, settings.gravity)
