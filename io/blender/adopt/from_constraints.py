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

import functools
from dataclasses import dataclass

import bpy

from ...omi import conventions, model
from ..tables import axes, constraints
from ..tables.bullet import bullet_sign, motor_damping
from .from_bodies import warn


@dataclass(frozen=True)
class ConstraintJoint:
    """A Blender rigid body constraint as an OMI joint: `object2` relative to `object1`, at `frame`."""

    settings: model.JointSettings
    object1: bpy.types.Object
    object2: bpy.types.Object
    enable_collision: bool



def _dof_ranges(constraint: bpy.types.RigidBodyConstraint) -> dict[tuple[str, int], tuple[float, float] | None]:
    """Per degree of freedom (kind, Blender axis): a (lower, upper) range, or None for free, as the
    constraint's type (`constraints.CONSTRAINT_KINDS`) and its limit switches say."""
    kind = constraints.CONSTRAINT_KINDS.get(constraint.type)
    ranges: dict[tuple[str, int], tuple[float, float] | None] = {}
    for dof, role in (kind.roles.items() if kind is not None else ()):
        bounds = None
        if role == constraints.FIXED:
            bounds = (0.0, 0.0)
        elif role == constraints.LIMITED and getattr(constraint, constraints.use_limit(dof)):
            low_name, high_name = constraints.limit_bounds(dof)
            bounds = (getattr(constraint, low_name), getattr(constraint, high_name))
        ranges[("angular" if dof[0] else "linear", dof[1])] = bounds
    return ranges


def joint_ranges(constraint: bpy.types.RigidBodyConstraint, obj: bpy.types.Object,
                 issues: list[model.Issue] | None) -> dict[tuple[str, int], tuple[float, float]]:
    """The limited degrees of freedom (kind, Blender axis of the constraint's frame) and their ranges, object2
    relative to object1 (Bullet's sign undone); free ones left out, as is a lower > upper range (warned)."""
    found: dict[tuple[str, int], tuple[float, float]] = {}
    for (dof, blender_axis), bounds in _dof_ranges(constraint).items():
        if bounds is None:
            continue
        lower, upper = bounds
        if lower > upper:
            warn(issues, obj, f"its {dof} {constraints.AXIS_IDS[blender_axis]} limit has lower > upper, which Blender "
                  "treats as no limit; exported free")
            continue
        if bullet_sign(constraint.type, dof == "angular") < 0:
            lower, upper = (bound + 0.0 for bound in conventions.reversed_range(lower, upper))
        found[(dof, blender_axis)] = (lower, upper)
    return found


def limits_from_ranges(ranges: dict[tuple[str, int], tuple[float, float]]) -> tuple[model.JointLimit, ...]:
    """Per-axis ranges in Blender axes (`joint_ranges`) as OMI limits: the fixed degrees of freedom grouped
    into one limit per kind; each range on its own glTF axis. Made once per set of ranges (a level's joints
    repeat a few; the limits are immutable values)."""
    return _limits_of(tuple(ranges.items()))


@functools.lru_cache(maxsize=1024)
def _limits_of(ranges: tuple[tuple[tuple[str, int], tuple[float, float]], ...]) -> tuple[model.JointLimit, ...]:
    fixed: dict[str, list[int]] = {"linear": [], "angular": []}
    ranged: list[model.JointLimit] = []
    for (dof, blender_axis), (lower, upper) in ranges:
        (gltf_axis,), sign = axes.joint_axes((blender_axis,), to_blender=False)
        if lower == 0.0 and upper == 0.0:
            fixed[dof].append(gltf_axis)
            continue
        low, high = axes.signed_range(lower, upper, sign)
        ranged.append(model.JointLimit(
            linear_axes=(gltf_axis,) if dof == "linear" else (),
            angular_axes=(gltf_axis,) if dof == "angular" else (),
            min=low + 0.0, max=high + 0.0))
    grouped = [model.JointLimit(linear_axes=tuple(sorted(fixed["linear"])), min=0.0, max=0.0)] \
        if fixed["linear"] else []
    if fixed["angular"]:
        grouped.append(model.JointLimit(angular_axes=tuple(sorted(fixed["angular"])), min=0.0, max=0.0))
    return (*grouped, *ranged)


def joint_drives(constraint: bpy.types.RigidBodyConstraint, obj: bpy.types.Object,
                 issues: list[model.Issue] | None) -> tuple[model.JointDrive, ...]:
    """The springs of a generic spring constraint (glTF axes of its frame) and a motor's drives (on its X)."""
    drives: list[model.JointDrive] = []
    if constraint.type == 'GENERIC_SPRING':
        undamped = constraint.spring_type == 'SPRING1'
        ignored_damping = False
        for angular in (False, True):
            for blender_axis in range(3):
                use, stiffness, damping_name = constraints.spring((angular, blender_axis))
                if not getattr(constraint, use):
                    continue
                damping = getattr(constraint, damping_name)
                ignored_damping = ignored_damping or (undamped and damping != 0.0)
                (gltf_axis,), _sign = axes.joint_axes((blender_axis,), to_blender=False)  # a spring's target is 0
                drives.append(model.JointDrive(
                    type="angular" if angular else "linear", mode="force", axis=gltf_axis,
                    position_target=0.0, stiffness=getattr(constraint, stiffness),
                    damping=0.0 if undamped else damping,
                ))
        if ignored_damping:
            warn(issues, obj, "its springs use the 'Blender 2.7' spring type, which does not damp in Blender's "
                  "simulation whatever the damping value; exported without damping (the 'Blender 2.8' type "
                  "damps and exports its damping)")
    elif constraint.type == 'MOTOR':
        for angular in (False, True):
            use, velocity, impulse = constraints.motor(angular)
            if not getattr(constraint, use):
                continue
            max_force = getattr(constraint, impulse)  # Bullet applies it as a force
            drives.append(model.JointDrive(
                type="angular" if angular else "linear", mode="force", axis=0, max_force=max_force,
                velocity_target=bullet_sign('MOTOR', angular) * getattr(constraint, velocity) + 0.0,
                damping=motor_damping(max_force),
            ))
    return tuple(drives)


def usable(obj: bpy.types.Object, issues: list[model.Issue] | None) -> bool:
    """Whether the object's rigid body constraint joins two objects and is on (else warned); what OMI has no place
    for (breaking, a solver iteration override) is named."""
    constraint = obj.rigid_body_constraint
    if constraint is None:
        return False
    if constraint.object1 is None or constraint.object2 is None:
        warn(issues, obj, "its rigid body constraint does not name two objects; joint skipped")
        return False
    if constraint.object1 == constraint.object2:
        warn(issues, obj, "its rigid body constraint joins an object to itself; joint skipped")
        return False
    if not constraint.enabled:
        warn(issues, obj, "its rigid body constraint is disabled; joint skipped")
        return False
    if constraint.use_breaking:
        warn(issues, obj, "breakable constraints are not part of OMI; exported unbreakable")
    if constraint.use_override_solver_iterations:
        warn(issues, obj, "its solver iteration override has no OMI equivalent; not exported", "info")
    return True


def constraint_joint(obj: bpy.types.Object, issues: list[model.Issue] | None) -> ConstraintJoint | None:
    """The OMI joint of a Blender rigid body constraint object; None (with a warning) when unusable."""
    constraint = obj.rigid_body_constraint
    if constraint is None or not usable(obj, issues):
        return None
    assert constraint.object1 is not None and constraint.object2 is not None, "usable: it joins two objects"
    settings = model.JointSettings(limits=limits_from_ranges(joint_ranges(constraint, obj, issues)),
                                   drives=joint_drives(constraint, obj, issues))
    return ConstraintJoint(settings, constraint.object1, constraint.object2,
                           enable_collision=not constraint.disable_collisions)
