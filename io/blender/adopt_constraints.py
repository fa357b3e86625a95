"""Blender rigid body constraints as OMI joints: the export of untagged constraints and *Sync from Blender*.

- Constraint frames are the constraint object's location and rotation. Hinges turn about its local Z,
  sliders and pistons move along its local X, motors drive its local X. Limits off mean "free".
- OMI measures the connected node (object2's side) relative to the joint node (object1's side). Bullet
  does so for translations and for the piston's rotation, but a hinge angle and a 6-DOF (generic,
  generic spring) rotation are object1 relative to object2, and a motor drives object1 relative to
  object2: those ranges and velocities change sign. One measured table, `bullet.BULLET_SIGN`,
  says so for the export and the import alike.
- A motor's "max impulse" acts as a force (N, or N*m): Bullet divides it by the step rate (measured:
  1 N on 2 kg moves 0.25 m in 1 s at any substep count). Spring stiffness is N/m; the 'Blender 2.8'
  spring's damping is N*s/m (a 1 kg body on 10 N/m, damping 0.5, overshoots by exactly the damped
  amount), while the 'Blender 2.7' spring does not damp at all, whatever its damping value.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy

from ..omi import model
from . import axes
from .adopt import warn
from .bullet import bullet_sign

# A Bullet motor reaches its target velocity within one step as long as its force limit allows; an OMI
# velocity drive pushes with damping * (target - velocity). This damping makes the drive push with its
# full force as soon as it is this far (m/s or rad/s) from the target, like Bullet's motor.
MOTOR_SPEED_TOLERANCE = 0.01

_AXES = "xyz"


@dataclass(frozen=True)
class ConstraintJoint:
    """A Blender rigid body constraint as an OMI joint: `object2` relative to `object1`, at `frame`."""

    settings: model.JointSettings
    object1: bpy.types.Object
    object2: bpy.types.Object
    enable_collision: bool



_FIXED = (0.0, 0.0)


def _dof_ranges(constraint: bpy.types.RigidBodyConstraint) -> dict[tuple[str, int], tuple[float, float] | None]:
    """Per degree of freedom (kind, Blender axis): a (lower, upper) range, or None for free."""
    kind = constraint.type
    ranges: dict[tuple[str, int], tuple[float, float] | None] = {
        (dof, axis): None for dof in ("linear", "angular") for axis in range(3)}

    def limit(dof: str, axis: int) -> tuple[float, float] | None:
        prefix = "lin" if dof == "linear" else "ang"
        if not getattr(constraint, f"use_limit_{prefix}_{_AXES[axis]}"):
            return None
        return (getattr(constraint, f"limit_{prefix}_{_AXES[axis]}_lower"),
                getattr(constraint, f"limit_{prefix}_{_AXES[axis]}_upper"))

    if kind == 'FIXED':
        ranges = dict.fromkeys(ranges, _FIXED)
    elif kind == 'POINT':
        ranges.update({("linear", axis): _FIXED for axis in range(3)})
    elif kind == 'HINGE':
        ranges.update({("linear", axis): _FIXED for axis in range(3)})
        ranges.update({("angular", 0): _FIXED, ("angular", 1): _FIXED, ("angular", 2): limit("angular", 2)})
    elif kind == 'SLIDER':
        ranges.update({("angular", axis): _FIXED for axis in range(3)})
        ranges.update({("linear", 0): limit("linear", 0), ("linear", 1): _FIXED, ("linear", 2): _FIXED})
    elif kind == 'PISTON':
        ranges.update({("linear", 0): limit("linear", 0), ("linear", 1): _FIXED, ("linear", 2): _FIXED})
        ranges.update({("angular", 0): limit("angular", 0), ("angular", 1): _FIXED, ("angular", 2): _FIXED})
    elif kind in ('GENERIC', 'GENERIC_SPRING'):
        ranges = {(dof, axis): limit(dof, axis) for dof, axis in ranges}
    return ranges


def _limits(constraint: bpy.types.RigidBodyConstraint, obj: bpy.types.Object,
            issues: list[model.Issue] | None) -> tuple[model.JointLimit, ...]:
    """Fixed degrees of freedom grouped into one limit per kind; each range on its own glTF axis."""
    fixed: dict[str, list[int]] = {"linear": [], "angular": []}
    ranged: list[model.JointLimit] = []
    for (dof, blender_axis), bounds in _dof_ranges(constraint).items():
        if bounds is None:
            continue
        lower, upper = bounds
        gltf_axis, sign = axes.axis_to_gltf(blender_axis)
        if lower > upper:
            warn(issues, obj, f"its {dof} {_AXES[blender_axis].upper()} limit has lower > upper, which Blender "
                  "treats as no limit; exported free")
            continue
        if bullet_sign(constraint.type, dof == "angular") < 0:
            lower, upper = -upper + 0.0, -lower + 0.0
        if lower == 0.0 and upper == 0.0:
            fixed[dof].append(gltf_axis)
            continue
        low, high = axes.signed_range(lower, upper, sign)
        ranged.append(model.JointLimit(
            linear_axes=(gltf_axis,) if dof == "linear" else (),
            angular_axes=(gltf_axis,) if dof == "angular" else (),
            min=low + 0.0, max=high + 0.0))  # type: ignore[operator]
    grouped = [model.JointLimit(linear_axes=tuple(sorted(fixed["linear"])), min=0.0, max=0.0)] \
        if fixed["linear"] else []
    if fixed["angular"]:
        grouped.append(model.JointLimit(angular_axes=tuple(sorted(fixed["angular"])), min=0.0, max=0.0))
    return (*grouped, *ranged)


def _drives(constraint: bpy.types.RigidBodyConstraint, obj: bpy.types.Object,
            issues: list[model.Issue] | None) -> tuple[model.JointDrive, ...]:
    drives: list[model.JointDrive] = []
    if constraint.type == 'GENERIC_SPRING':
        undamped = constraint.spring_type == 'SPRING1'
        ignored_damping = False
        for dof, prefix, suffix in (("linear", "", ""), ("angular", "ang_", "_ang")):
            for blender_axis, letter in enumerate(_AXES):
                if not getattr(constraint, f"use_spring_{prefix}{letter}"):
                    continue
                damping = getattr(constraint, f"spring_damping{suffix}_{letter}")
                ignored_damping = ignored_damping or (undamped and damping != 0.0)
                drives.append(model.JointDrive(
                    type=dof, mode="force", axis=axes.axis_to_gltf(blender_axis)[0], position_target=0.0,
                    stiffness=getattr(constraint, f"spring_stiffness{suffix}_{letter}"),
                    damping=0.0 if undamped else damping,
                ))
        if ignored_damping:
            warn(issues, obj, "its springs use the 'Blender 2.7' spring type, which does not damp in Blender's "
                  "simulation whatever the damping value; exported without damping (the 'Blender 2.8' type "
                  "damps and exports its damping)")
    elif constraint.type == 'MOTOR':
        for dof, prefix in (("linear", "lin"), ("angular", "ang")):
            if not getattr(constraint, f"use_motor_{prefix}"):
                continue
            max_force = getattr(constraint, f"motor_{prefix}_max_impulse")  # Bullet applies it as a force
            drives.append(model.JointDrive(
                type=dof, mode="force", axis=0, max_force=max_force,
                velocity_target=bullet_sign('MOTOR', dof == "angular")
                * getattr(constraint, f"motor_{prefix}_target_velocity") + 0.0,
                damping=max_force / MOTOR_SPEED_TOLERANCE,
            ))
    return tuple(drives)


def constraint_joint(obj: bpy.types.Object, issues: list[model.Issue] | None) -> ConstraintJoint | None:
    """The OMI joint of a Blender rigid body constraint object; None (with a warning) when unusable."""
    constraint = obj.rigid_body_constraint
    if constraint is None:
        return None
    if constraint.object1 is None or constraint.object2 is None:
        warn(issues, obj, "its rigid body constraint does not name two objects; joint skipped")
        return None
    if constraint.object1 == constraint.object2:
        warn(issues, obj, "its rigid body constraint joins an object to itself; joint skipped")
        return None
    if not constraint.enabled:
        warn(issues, obj, "its rigid body constraint is disabled; joint skipped")
        return None
    if constraint.use_breaking:
        warn(issues, obj, "breakable constraints are not part of OMI; exported unbreakable")
    if constraint.use_override_solver_iterations:
        warn(issues, obj, "its solver iteration override has no OMI equivalent; not exported", "info")
    settings = model.JointSettings(limits=_limits(constraint, obj, issues), drives=_drives(constraint, obj, issues))
    return ConstraintJoint(settings, constraint.object1, constraint.object2,
                           enable_collision=not constraint.disable_collisions)
