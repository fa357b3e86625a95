"""Blender rigid bodies and rigid body constraints as OMI physics: one mapping, used twice.

Export reads untagged objects with `rigid_body_physics` / `constraint_joint` and never writes into their
settings; the "Blender rigid bodies -> settings" operator stores the same values in the objects' OMI
settings with `adopt_rigid_body` / `adopt_constraint`.

The mapping follows what Blender's Bullet simulation does, not only what its panels show:
- ACTIVE is dynamic; ACTIVE with "Animated" (or with "Dynamic" off) is kinematic; PASSIVE is static,
  and PASSIVE with "Animated" is a moving (kinematic) collider.
- Primitive shapes take their size from the object's bounding box but are centred on its origin (box:
  the box's size; sphere: the largest half-size; capsule, cylinder and cone: the largest X/Y half-size as
  radius and the Z size as full height). A cone is a cylinder whose top radius is 0.
- Bullet multiplies the friction and the restitution of two touching bodies (`bullet.BULLET_COMBINE`),
  so the physics material says "multiply" for both.
- Two bodies collide when they share a collision collection; a filter whose systems and collide-with
  systems are both the body's collections says exactly that.
- A COMPOUND parent is one body made of its direct rigid-body children's shapes, with the parent's
  mass, friction, restitution and collections.
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

import math
from dataclasses import dataclass

import bpy

from ...properties import convert, library, object_physics
from ..omi import model
from ..omi.json_types import shortest_float32
from . import axes
from .bullet import BULLET_COMBINE, bullet_sign

COLLISION_SYSTEM_NAME = "Collision Collection {}"
# A Bullet motor reaches its target velocity within one step as long as its force limit allows; an OMI
# velocity drive pushes with damping * (target - velocity). This damping makes the drive push with its
# full force as soon as it is this far (m/s or rad/s) from the target, like Bullet's motor.
MOTOR_SPEED_TOLERANCE = 0.01
MIN_THICKNESS = 0.01  # metres given to a flat side: OMI sizes must be > 0
BLENDER_LINEAR_DAMPING = 0.04
BLENDER_ANGULAR_DAMPING = 0.1

_AXES = "xyz"


@dataclass(frozen=True)
class RigidBodyMesh:
    """The mesh of a Blender convex hull or mesh collider: the object and whether modifiers apply."""

    object: bpy.types.Object
    evaluated: bool = True


@dataclass(frozen=True)
class ConstraintJoint:
    """A Blender rigid body constraint as an OMI joint: `object2` relative to `object1`, at `frame`."""

    settings: model.JointSettings
    object1: bpy.types.Object
    object2: bpy.types.Object
    enable_collision: bool


def _warn(issues: list[model.Issue] | None, obj: bpy.types.Object, message: str,
          severity: model.Severity = "warning") -> None:
    if issues is not None:
        issues.append(model.Issue("", f"object {obj.name!r}: {message}", severity))


# --- bodies ------------------------------------------------------------------------------------------


def compound_parent(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The COMPOUND parent whose body this object's collider belongs to, if any."""
    parent = obj.parent
    if parent is not None and parent.rigid_body is not None and parent.rigid_body.collision_shape == 'COMPOUND':
        return parent
    return None


def collision_mask(rigid_body: bpy.types.RigidBodyObject) -> tuple[bool, ...]:
    return tuple(rigid_body.collision_collections)


def filters_needed(bl_scene: bpy.types.Scene) -> bool:
    """True when the scene's rigid bodies do not all share the same collision collections.

    When they do, every body collides with every other one, which is what no filter at all means.
    """
    world = bl_scene.rigidbody_world
    if world is None or world.collection is None:
        return False
    masks = {collision_mask(obj.rigid_body) for obj in world.collection.all_objects if obj.rigid_body is not None}
    return len(masks) > 1


def _collision_filter(rigid_body: bpy.types.RigidBodyObject) -> model.CollisionFilter:
    systems = tuple(COLLISION_SYSTEM_NAME.format(index + 1)
                    for index, used in enumerate(collision_mask(rigid_body)) if used)
    return model.CollisionFilter(collision_systems=systems, collide_with_systems=systems)


def _material(rigid_body: bpy.types.RigidBodyObject) -> model.PhysicsMaterial:
    return model.PhysicsMaterial(
        static_friction=shortest_float32(rigid_body.friction),  # float32 values as the settings path reads them
        dynamic_friction=shortest_float32(rigid_body.friction),
        restitution=shortest_float32(rigid_body.restitution),
        friction_combine=BULLET_COMBINE,
        restitution_combine=BULLET_COMBINE,
    )


def _motion(obj: bpy.types.Object, issues: list[model.Issue] | None) -> model.Motion:
    rigid_body = obj.rigid_body
    if rigid_body.type == 'PASSIVE':
        return model.Motion(type="kinematic" if rigid_body.kinematic else "static")
    if rigid_body.kinematic:
        return model.Motion(type="kinematic")
    if not rigid_body.enabled:
        _warn(issues, obj, "its rigid body has 'Dynamic' off, so it only follows its animation: exported as "
              "kinematic", "info")
        return model.Motion(type="kinematic")
    if not (math.isclose(rigid_body.linear_damping, BLENDER_LINEAR_DAMPING, abs_tol=1e-6)
            and math.isclose(rigid_body.angular_damping, BLENDER_ANGULAR_DAMPING, abs_tol=1e-6)):
        _warn(issues, obj, "its rigid body damping (translation "
              f"{rigid_body.linear_damping:.3g}, rotation {rigid_body.angular_damping:.3g}) has no OMI "
              "equivalent and was not exported")
    if any(obj.lock_location) or any(obj.lock_rotation):
        _warn(issues, obj, "its transform locks keep it from moving or turning in Blender's simulation; OMI has "
              "no such locks, so they were not exported")
    if rigid_body.use_start_deactivated:
        _warn(issues, obj, "'Start Deactivated' has no OMI equivalent: the body starts awake")
    return model.Motion(type="dynamic", mass=shortest_float32(rigid_body.mass))


def _half_sizes(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> tuple[float, float, float]:
    """Half the bounding box size (modifiers applied, object scale not), as Bullet sizes its shapes."""
    corners = obj.evaluated_get(depsgraph).bound_box
    return tuple((max(corner[axis] for corner in corners) - min(corner[axis] for corner in corners)) / 2.0
                 for axis in range(3))  # type: ignore[return-value]


def _thick(value: float, obj: bpy.types.Object, what: str, issues: list[model.Issue] | None) -> float:
    if value > 0.0:
        return value
    _warn(issues, obj, f"its {what} is flat; exported {MIN_THICKNESS * 100:g} cm thick")
    return MIN_THICKNESS


def _shape(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph,
           issues: list[model.Issue] | None) -> model.Shape | None:
    rigid_body = obj.rigid_body
    kind = rigid_body.collision_shape
    if kind in ('CONVEX_HULL', 'MESH'):
        if obj.type != 'MESH':
            _warn(issues, obj, f"a {kind.lower().replace('_', ' ')} collider needs a mesh object; collider skipped")
            return None
        if kind == 'CONVEX_HULL' and rigid_body.use_margin and rigid_body.collision_margin > 0.0:
            _warn(issues, obj, f"its collision margin ({rigid_body.collision_margin:.3g} m) makes the hull "
                  "larger in Blender; exported without it")
        if kind == 'MESH' and rigid_body.type == 'ACTIVE':
            _warn(issues, obj, "a moving triangle-mesh collider is not supported by most engines; "
                  "a Convex Hull is safer", "info")
        mesh = RigidBodyMesh(obj, evaluated=rigid_body.mesh_source != 'BASE')
        return model.Shape("convex" if kind == 'CONVEX_HULL' else "trimesh", mesh=mesh)
    half_x, half_y, half_z = _half_sizes(obj, depsgraph)
    if kind == 'BOX':
        size = tuple(_thick(2.0 * half, obj, f"box collider's {_AXES[axis].upper()} size", issues)
                     for axis, half in enumerate((half_x, half_y, half_z)))
        return model.Shape("box", size=axes.size_to_gltf(size))
    if kind == 'SPHERE':
        return model.Shape("sphere", radius=max(half_x, half_y, half_z))
    radius = max(half_x, half_y)
    height = _thick(2.0 * half_z, obj, f"{kind.lower()} collider's height", issues)
    if kind == 'CAPSULE':
        middle = height - 2.0 * radius
        if middle <= 0.0:  # Bullet's capsule then has no cylinder part: a ball
            return model.Shape("sphere", radius=radius)
        return model.Shape("capsule", height=middle, radius_top=radius, radius_bottom=radius)
    if kind == 'CYLINDER':
        return model.Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)
    if kind == 'CONE':  # Bullet's cone: apex up (+Z), centred half-way up
        return model.Shape("cylinder", height=height, radius_top=0.0, radius_bottom=radius)
    return None


def rigid_body_physics(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, issues: list[model.Issue] | None,
                       *, with_filter: bool) -> model.NodePhysics | None:
    """The OMI body of an object from its Blender rigid body; None when it has none.

    A COMPOUND parent is a body without a shape of its own; its rigid-body children are colliders
    (without motion) carrying the parent's material and filter, as Bullet treats them.
    """
    rigid_body = obj.rigid_body
    if rigid_body is None:
        return None
    parent = compound_parent(obj)
    owner = parent if parent is not None else obj
    motion = None if parent is not None else _motion(obj, issues)
    if parent is not None and any(abs(component - 1.0) > 1e-6 for component in obj.scale):
        _warn(issues, obj, f"it is scaled inside compound parent {parent.name!r}; Blender's simulation ignores "
              "that scale, the export keeps the size you see", "info")
    collider = None
    if rigid_body.collision_shape == 'COMPOUND':
        if not any(child.rigid_body is not None for child in obj.children):
            _warn(issues, obj, "its compound rigid body has no rigid-body children, so it has no collider")
    else:
        shape = _shape(obj, depsgraph, issues)
        if shape is not None:
            collider = model.Collider(
                shape=shape,
                physics_material=_material(owner.rigid_body),
                collision_filter=_collision_filter(owner.rigid_body) if with_filter else None,
            )
    if motion is None and collider is None:
        return None
    return model.NodePhysics(motion=motion, collider=collider)


# --- constraints -------------------------------------------------------------------------------------

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
            _warn(issues, obj, f"its {dof} {_AXES[blender_axis].upper()} limit has lower > upper, which Blender "
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
            _warn(issues, obj, "its springs use the 'Blender 2.7' spring type, which does not damp in Blender's "
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
        _warn(issues, obj, "its rigid body constraint does not name two objects; joint skipped")
        return None
    if constraint.object1 == constraint.object2:
        _warn(issues, obj, "its rigid body constraint joins an object to itself; joint skipped")
        return None
    if not constraint.enabled:
        _warn(issues, obj, "its rigid body constraint is disabled; joint skipped")
        return None
    if constraint.use_breaking:
        _warn(issues, obj, "breakable constraints are not part of OMI; exported unbreakable")
    if constraint.use_override_solver_iterations:
        _warn(issues, obj, "its solver iteration override has no OMI equivalent; not exported", "info")
    settings = model.JointSettings(limits=_limits(constraint, obj, issues), drives=_drives(constraint, obj, issues))
    return ConstraintJoint(settings, constraint.object1, constraint.object2,
                           enable_collision=not constraint.disable_collisions)


# --- into the objects' OMI settings (the "Blender -> settings" operator) ------------------------------


def _mesh_object(ref: model.MeshRef) -> bpy.types.Object | None:
    return ref.object if isinstance(ref, RigidBodyMesh) else ref


def adopt_rigid_body(obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue] | None) -> bool:
    """Write the object's Blender rigid body into its OMI settings; False when it has none."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    physics = rigid_body_physics(obj, depsgraph, issues, with_filter=filters_needed(bl_scene))
    if physics is None:
        return False
    settings = object_physics(obj)
    settings.use_motion = physics.motion is not None
    if physics.motion is not None:
        convert.apply_motion(physics.motion, settings.motion)
    settings.use_collider = physics.collider is not None
    collider = physics.collider
    if collider is not None and collider.shape is not None:
        settings.collider.is_compound = False
        if isinstance(collider.shape.mesh, RigidBodyMesh) and not collider.shape.mesh.evaluated:
            _warn(issues, obj, "its collider uses the mesh without modifiers ('Base'); the OMI settings use the "
                  "mesh with modifiers")
        convert.apply_shape(collider.shape, settings.collider.shape, obj, resolve_mesh=_mesh_object, issues=issues,
                            pointer="/collider/shape")
        settings.collider.shape.use_offset = False
        material = collider.physics_material
        settings.collider.physics_material = "" if material is None else library.material_from_model(bl_scene,
                                                                                                      material)
        collision_filter = collider.collision_filter
        settings.collider.collision_filter = ("" if collision_filter is None
                                              else library.filter_from_model(bl_scene, collision_filter, issues))
    return True


def adopt_constraint(obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue] | None) -> bool:
    """Write the object's Blender rigid body constraint into its OMI joint settings; False when unusable.

    The joint frame is the constraint object itself, connected to `object2`; the export finds the
    joint's own body through the constraint's `object1`. `bl_scene` is unused (a joint holds no library
    entry) and kept for a signature shared with `adopt_rigid_body`.
    """
    joint = constraint_joint(obj, issues)
    if joint is None:
        return False
    settings = object_physics(obj)
    settings.use_joint = True
    convert.apply_joint(model.Joint(joint.settings, joint.object2, joint.enable_collision), settings.joint, obj,
                        resolve_node=lambda ref: ref, issues=issues)
    return True
