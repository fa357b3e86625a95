"""The closest Blender rigid body to a file's motion: no damping, infinite mass and inertia as transform
locks, starting velocities by motors (`initial_motion`). Each approximation is named once per build.

Measured on Blender 4.2, 5.0 and 5.2 (the fidelity tests check each again):
- Damping: Blender's defaults (0.04 linear, 0.1 angular) slow every body; OMI and KHR have no damping,
  so the build writes 0. A box dropped from 10 m then lands within a frame of sqrt(2h/g).
- Infinite mass (KHR's mass 0): Blender hands an object's location locks to Bullet as a linear factor of
  0 (no translation, no gravity, and an infinite mass in contacts): a locked body pushed off-centre by a
  falling box stays where it is and still turns.
- Infinite inertia (KHR's inertiaDiagonal 0): rotation locks become Bullet's angular factor 0 about a
  *world* axis. A box hit off-centre turns 0.0000 rad locked (0.044 rad unlocked); exact when all three
  axes are infinite or the body's principal axes lie on the world axes, otherwise not simulated (named).
"""

from __future__ import annotations

import math

import bpy
from mathutils import Matrix, Quaternion, Vector

from ...omi import model
from ..tables import axes
from .initial_motion import Site, start_velocities, step_seconds
from .kinematic_drive import drive_constant_velocity, release_drive
from .locks import lock, release_locks
from .report import Report

INFINITE_MASS = ("infinite mass as locked location (Bullet's linear factor 0: not pushed, not falling; measured "
                 "0 m of travel when hit)")
INFINITE_INERTIA = ("infinite inertia as locked rotation about world axes (Bullet's angular factor 0; measured "
                    "0.0000 rad turned when hit off-centre)")
UNALIGNED_INERTIA = "infinite inertia about principal axes off the world axes (Blender locks world axes only)"
START_VELOCITY = ("starting velocities as a motor held for the first frame (measured: 8 mm off the projectile "
                  "after one frame, 0.1 % of the travel after 2 s)")
KINEMATIC_VELOCITY = ("a kinematic body's constant velocity as drivers on its delta location and rotation (exact: "
                      "measured against the velocity at every frame)")
KINEMATIC_SPIN = ("a kinematic body's angular velocity about an axis off its own axes in an Euler or axis-angle "
                  "rotation mode (Blender turns a quaternion-mode object only about any axis)")
_ALIGNED = 0.9999  # cosine above which a principal axis counts as lying on a world axis


def settle_motion(site: Site, report: Report, owner: bpy.types.Object, rigid_object: bpy.types.Object, *,
                  motion: model.Motion, world: Matrix) -> None:
    """Damping, locks and starting velocities of a body with motion (`world`: the body's world matrix at the
    start)."""
    rigid = rigid_object.rigid_body
    assert rigid is not None, "the build gave rigid_object its rigid body"
    rigid.linear_damping = 0.0
    rigid.angular_damping = 0.0
    release_locks(rigid_object)
    release_drive(rigid_object)
    moving = motion.linear_velocity != model.ZERO3 or motion.angular_velocity != model.ZERO3
    if motion.type != "dynamic":
        if motion.type == "kinematic" and moving:
            _drive_kinematic(site, report, owner, rigid_object, motion=motion, world=world)
        return
    infinite_mass = math.isinf(motion.mass)
    infinite_axes = tuple(map(math.isinf, axes.size_to_blender(motion.inertia_diagonal)))
    if not (moving or infinite_mass or any(infinite_axes)):
        return  # nothing to lock or to start moving (most bodies)
    rotation = world.to_quaternion()
    locked_rotation = _world_locks(infinite_axes, rotation)
    if any(infinite_axes) and locked_rotation is None:
        report.cannot(UNALIGNED_INERTIA, owner)
    if infinite_mass or (locked_rotation is not None and any(locked_rotation)):  # nothing locked: nothing noted
        lock(rigid_object, (infinite_mass,) * 3, locked_rotation or (False,) * 3)
        if infinite_mass:
            report.approximate(INFINITE_MASS, owner)
        if locked_rotation and any(locked_rotation):
            report.approximate(INFINITE_INERTIA, owner)
    linear = Vector(axes.vec_to_blender(motion.linear_velocity)) if not infinite_mass else Vector()
    angular = Vector(axes.vec_to_blender(motion.angular_velocity)) if not all(infinite_axes) else Vector()
    if linear.length or angular.length:
        start_velocities(site, owner, rigid_object, at=world.to_translation(), orientation=rotation,
                         linear=rotation @ linear, angular=rotation @ angular)
        report.approximate(START_VELOCITY, owner)


def _drive_kinematic(site: Site, report: Report, owner: bpy.types.Object, rigid_object: bpy.types.Object, *,
                     motion: model.Motion, world: Matrix) -> None:
    rotation = world.to_quaternion()
    rigid_world = site.world
    frame_seconds = step_seconds(site.scene) * rigid_world.time_scale
    first = min(rigid_world.point_cache.frame_start, site.scene.frame_start)  # as start_velocities
    turns = drive_constant_velocity(
        rigid_object, first_frame=first, frame_seconds=frame_seconds, world=world,
        linear=rotation @ Vector(axes.vec_to_blender(motion.linear_velocity)),
        angular=rotation @ Vector(axes.vec_to_blender(motion.angular_velocity)))
    report.approximate(KINEMATIC_VELOCITY, owner)
    if not turns:
        report.cannot(KINEMATIC_SPIN, owner)


def _world_locks(local_axes: tuple[bool, ...], rotation: Quaternion) -> tuple[bool, bool, bool] | None:
    """The world axes to lock for these infinite principal axes (None: an axis lies off every world axis)."""
    if all(local_axes):
        return (True, True, True)
    locks = [False, False, False]
    for index, infinite in enumerate(local_axes):
        if not infinite:
            continue
        axis = rotation @ Vector([1.0 if i == index else 0.0 for i in range(3)])
        world_axis = max(range(3), key=lambda i: abs(axis[i]))
        if abs(axis[world_axis]) < _ALIGNED:
            return None
        locks[world_axis] = True
    return (locks[0], locks[1], locks[2])
