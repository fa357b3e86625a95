"""ZycaR's OMI add-on settings (`omi_physics_props`) as OMI physics: what its export wrote, so what engines built.

Its export writes a body per object with Is Collision on: a trigger (no motion) when Is Trigger is on, else
motion and a collider. Shape sizes are in Blender axes and swapped to glTF's on export; a capsule's height is
its full height with one radius (the pre-2025 OMI form, so the mid-height is the height less both caps); its
axis settings are written as a key no OMI reader knows, so engines stood every capsule and cylinder along
the node's up axis. Velocities, centre of mass and inertia are written unconverted: the numbers are glTF's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bpy

from ...omi import model
from ..tables import axes
from . import peer_props as peer


def _vec3(values: Mapping[str, Any], key: str) -> model.Vec3:
    x, y, z = peer.vector(values, key, model.ZERO3)
    return (x, y, z)


def _shape(values: Mapping[str, Any], obj: bpy.types.Object, notes: list[str]) -> model.Shape | None:
    kind = peer.choice(values, "shape_type", peer.ZYCAR_SHAPE_TYPES, "box")
    if kind == "none":
        return None
    if kind == "box":
        return model.Shape("box", size=axes.size_to_gltf(peer.vector(values, "box_size", (1.0, 1.0, 1.0))))
    if kind == "sphere":
        return model.Shape("sphere", radius=peer.number(values, "sphere_radius", 0.5))
    if kind in ("convex", "trimesh"):
        if obj.type != 'MESH':
            notes.append(f"its {kind} shape needs a mesh and {obj.name!r} has none: no shape")
            return None
        return model.Shape(model.shape_type(kind), mesh=obj)
    radius = peer.number(values, f"{kind}_radius", 0.5)
    height = peer.number(values, f"{kind}_height", 1.0)
    if peer.choice(values, f"{kind}_axis", peer.ZYCAR_AXES, "Y") != "Z":
        notes.append(f"its {kind} axis setting was never read by engines: the {kind} stands along the object's "
                     "Z axis (glTF's up), as engines built it")
    if kind == "capsule":  # full height with one radius: the mid-height is the rest
        mid_height = max(height - 2.0 * radius, 0.0)
        return model.Shape("capsule", height=mid_height, radius_top=radius, radius_bottom=radius)
    return model.Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)


def zycar_physics(obj: bpy.types.Object, values: Mapping[str, Any],
                  notes: list[str]) -> model.NodePhysics | None:
    """The body ZycaR's export wrote for `obj` from its stored `values`; `notes` collects what changes."""
    if not peer.flag(values, "is_collision"):
        return None
    shape = _shape(values, obj, notes)
    if peer.flag(values, "is_trigger"):
        return model.NodePhysics(trigger=model.Trigger(shape=shape)) if shape is not None else None
    body_type = peer.choice(values, "body_type", peer.ZYCAR_BODY_TYPES, "static")
    x, y, z, w = peer.vector(values, "inertia_orientation", model.IDENTITY_QUAT)
    motion = model.Motion(
        type=model.motion_type(body_type),
        mass=peer.number(values, "mass", model.DEFAULT_MASS) if body_type == "dynamic" else model.DEFAULT_MASS,
        center_of_mass=_vec3(values, "center_of_mass"),
        inertia_diagonal=_vec3(values, "inertia_diagonal"),
        inertia_orientation=(x, y, z, w),
        linear_velocity=_vec3(values, "linear_velocity"),
        angular_velocity=_vec3(values, "angular_velocity"),
    )
    return model.NodePhysics(motion=motion, collider=model.Collider(shape=shape) if shape is not None else None)
