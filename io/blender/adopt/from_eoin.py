"""The KHR spec author's exporter's extra settings as OMI physics, on top of the object's Blender rigid body.

That add-on reads Blender's rigid bodies and constraints for what Blender holds (so `from_bodies` and
`from_constraints` read them here too) and keeps the rest in `khr_physics_extra_props`: the trigger flag,
gravity factor, starting velocities (the object's local Blender axes, as its viewport draws them), infinite
mass, inertia and centre-of-mass overrides (inertia orientation as an Euler rotation), combine modes, tapered
capsule/cylinder/cone sizes (a capsule's height between its caps' centres, a cylinder's whole height), the
non-renderable flag; and joint drives per Blender axis in `khr_physics_extra_constraint_props`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import bpy
from mathutils import Euler

from ...omi import model
from ..tables import axes
from . import peer_props as peer

_AXES = "xyz"


def _local_vector(values: Mapping[str, Any], key: str) -> model.Vec3:
    return axes.vec_to_gltf(peer.vector(values, key, model.ZERO3))


def _motion(motion: model.Motion, values: Mapping[str, Any]) -> model.Motion:
    changes: dict[str, Any] = {
        "gravity_factor": peer.number(values, "gravity_factor", model.DEFAULT_GRAVITY_FACTOR),
        "linear_velocity": _local_vector(values, "linear_velocity"),
        "angular_velocity": _local_vector(values, "angular_velocity"),
    }
    if peer.flag(values, "infinite_mass"):
        changes["mass"] = math.inf
    if peer.flag(values, "enable_com_override"):
        changes["center_of_mass"] = _local_vector(values, "center_of_mass")
    if peer.flag(values, "enable_inertia_override"):
        changes["inertia_diagonal"] = axes.size_to_gltf(peer.vector(values, "inertia_major_axis", (1.0, 1.0, 1.0)))
        euler = Euler(peer.vector(values, "inertia_orientation", model.ZERO3))
        changes["inertia_orientation"] = axes.quat_to_gltf(euler.to_quaternion())
    return replace(motion, **changes)


def _material(material: model.PhysicsMaterial | None, values: Mapping[str, Any]) -> model.PhysicsMaterial | None:
    """The combine modes the artist chose in that add-on's panel; Blender's multiply where none is stored."""
    if material is None:
        return None
    def combine(name: str, blender: model.CombineMode) -> model.CombineMode:
        return model.combine_mode(peer.choice(values, name, peer.EOIN_COMBINE_MODES, "average")) if name in values \
            else blender

    return replace(material, friction_combine=combine("friction_combine", material.friction_combine),
                   restitution_combine=combine("restitution_combine", material.restitution_combine))


def _shape(shape: model.Shape | None, rigid_body: bpy.types.RigidBodyObject,
           values: Mapping[str, Any]) -> model.Shape | None:
    if shape is None or not peer.flag(values, "cone_capsule_override"):
        return shape
    kind = rigid_body.collision_shape
    bottom = peer.number(values, "cone_capsule_radius_bottom", 1.0)
    top = peer.number(values, "cone_capsule_radius_top", 1.0)
    height = peer.number(values, "cone_capsule_height", 1.0)
    if kind == 'CAPSULE':
        return model.Shape("capsule", height=height, radius_top=top, radius_bottom=bottom)
    if kind in ('CYLINDER', 'CONE'):
        return model.Shape("cylinder", height=height, radius_top=top, radius_bottom=bottom)
    return shape


def eoin_physics(obj: bpy.types.Object, physics: model.NodePhysics, values: Mapping[str, Any],
                 notes: list[str]) -> model.NodePhysics:
    """The object's body read from its Blender rigid body (`physics`) with that add-on's extra `values`."""
    motion = physics.motion
    if motion is not None:
        motion = _motion(motion, values)
    collider = physics.collider
    if collider is not None and obj.rigid_body is not None:
        collider = replace(collider, shape=_shape(collider.shape, obj.rigid_body, values),
                           physics_material=_material(collider.physics_material, values))
    if peer.flag(values, "non_renderable"):
        notes.append("'Non-Renderable' has no setting here: the object's render mesh stays exported")
    if not peer.flag(values, "is_trigger") or collider is None:
        return replace(physics, motion=motion, collider=collider)
    # a trigger zone: the same shape, detecting rather than colliding; a static zone has no motion
    trigger = model.Trigger(shape=collider.shape, collision_filter=collider.collision_filter)
    moving = motion if motion is not None and motion.type != "static" else None
    return replace(physics, motion=moving, collider=None, trigger=trigger)


def eoin_drives(values: Mapping[str, Any]) -> tuple[model.JointDrive, ...]:
    """The drives switched on in that add-on's constraint panel, on the joint's glTF axes."""
    drives = []
    for kind, prefix in (("linear", "lin"), ("angular", "ang")):
        for blender_axis, axis_name in enumerate(_AXES):
            key = f"{prefix}_{axis_name}_drive"
            if not peer.flag(values, f"use_{prefix}_drive_{axis_name}"):
                continue
            (gltf_axis,), sign = axes.joint_axes((blender_axis,), to_blender=False)
            drives.append(model.JointDrive(
                type=kind,
                mode=peer.choice(values, f"{key}_mode", peer.EOIN_DRIVE_MODES, "force"),
                axis=gltf_axis,
                max_force=peer.number(values, f"{key}_max_force", 0.0) if peer.flag(values, f"{key}_force_limited")
                else None,
                position_target=sign * peer.number(values, f"{key}_pos_target", 0.0),
                velocity_target=sign * peer.number(values, f"{key}_vel_target", 0.0),
                stiffness=peer.number(values, f"{key}_stiffness", 0.0),
                damping=peer.number(values, f"{key}_damping", 0.0),
            ))
    return tuple(drives)
