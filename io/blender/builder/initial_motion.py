"""A dynamic body's starting velocities in Blender: motors that hold them for the simulation's first step.

Blender has no starting velocity for a rigid body, and a body keyed *Animated* for the first frames and
then handed to the simulation starts at rest (measured on 4.2, 5.0 and 5.2: Blender places an animated
body without giving Bullet its speed). A MOTOR constraint does carry speed: against a generated passive
anchor (colliding with nothing) it drives the body's velocity along its X axis, linear and angular, and
its `enabled` is keyed on for the first step only (a step from frame f-1 to f runs with the values keyed
at f). The linear motor points along the velocity; its target is the speed the projectile has after that
step, so the handed-over velocity is the file's plus one step of gravity, exactly. Measured (a 5 kg box
at 2, 0, 5 m/s and 1, 2, 3 rad/s, 24 fps, 10 substeps): 8 mm from the projectile after the first frame
(half a step of gravity), 0.1 % of the travel after 2 s, and the angular velocity exact.

A motor's impulse about an axis turns the body by the inverse inertia times that axis, so a single motor along
the spin would tilt it towards the axis of least inertia. The spin therefore gets one motor per principal axis
of the body (Bullet's inertia is diagonal in the body's own axes), each impulse changing only its own component.

The keys sit at the simulation's first frame as the build leaves it (the earlier of the scene's start and the
point cache's); a scene whose start moves later needs a rebuild (Sync to Blender). Everything made here is
generated for the body (its OWNER), so a rebuild or a clear removes it and the export never sees it.
"""

from __future__ import annotations

import math
from typing import Protocol, cast

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..tables.bullet import bullet_sign
from ..tables.markers import GENERATED, OWNER, STARTER
from .free_spin import bullet_inertia, free_spin
from .shapes import ShapeMeshes

MAX_IMPULSE = 1.0e9  # the motor reaches its target within the step whatever the body's mass
_X, _Z = Vector((1.0, 0.0, 0.0)), Vector((0.0, 0.0, 1.0))
_AXES = (_X, Vector((0.0, 1.0, 0.0)), _Z)
_ONTO_AXIS = (Quaternion(), Quaternion(_Z, math.pi / 2), Quaternion(_AXES[1], -math.pi / 2))  # X onto X, Y, Z


def step_seconds(bl_scene: bpy.types.Scene) -> float:
    """One frame of the simulation, in seconds."""
    return bl_scene.render.fps_base / bl_scene.render.fps


def world_gravity(bl_scene: bpy.types.Scene) -> Vector:
    """The acceleration the rigid body world gives every body."""
    world = bl_scene.rigidbody_world
    if not bl_scene.use_gravity or world is None:
        return Vector()
    weights = cast(bpy.types.EffectorWeights, world.effector_weights)  # every rigid body world has them
    return bl_scene.gravity * weights.gravity * weights.all  # a new Vector


class Site(Protocol):
    """Where the build puts what it makes (`steps.Builder`)."""

    scene: bpy.types.Scene
    world: bpy.types.RigidBodyWorld
    generated: bpy.types.Collection
    meshes: ShapeMeshes

    def link_body(self, obj: bpy.types.Object) -> None: ...


def _motors(rigid: bpy.types.Object, world: bpy.types.RigidBodyWorld, dt: float, *, linear: Vector,
            angular: Vector, orientation: Quaternion) -> list[tuple[bool, Quaternion, float, str]]:
    """(angular?, the motor's frame, the speed it holds along the frame's X, name) of each motor: one along the
    linear velocity; one along the spin of a body that turns alike about every axis, else one per principal axis
    holding its share of the spin the body has when the motors let go (at the frame's last substep), along the
    axis Bullet's motor uses then (the body's axis, square to the motor's Z)."""
    found: list[tuple[bool, Quaternion, float, str]] = []
    if linear.length:
        found.append((False, _X.rotation_difference(linear), linear.length, "velocity"))
    if not angular.length:
        return found
    inertia = bullet_inertia(rigid)
    if inertia is not None and inertia.x == inertia.y == inertia.z:  # every axis principal: one motor is exact
        found.append((True, _X.rotation_difference(angular), angular.length, "spin"))
        return found
    spin = orientation.inverted() @ angular
    held = dt * world.time_scale * (1.0 - 1.0 / max(1, world.substeps_per_frame))
    turned, then = free_spin(inertia, spin, held) if inertia is not None else (Quaternion(), spin)
    now = orientation @ turned
    for name, local, onto_axis in zip("XYZ", _AXES, _ONTO_AXIS, strict=True):
        if abs(then.dot(local)) <= 1.0e-9 * angular.length:
            continue  # the spin has no share here, and keeps none: no motor needs to hold it
        frame = orientation @ onto_axis
        motor_z = frame @ _Z
        body_axis = now @ local
        axis = (body_axis - body_axis.dot(motor_z) * motor_z).normalized()
        found.append((True, frame, axis.dot(now @ then), f"spin {name}"))
    return found


def start_velocities(site: Site, owner: bpy.types.Object, rigid: bpy.types.Object, *, at: Vector,
                     orientation: Quaternion, linear: Vector, angular: Vector) -> list[bpy.types.Object]:
    """Motor constraints that give `rigid` (at `at`, turned by `orientation`) these world-space velocities
    (m/s, rad/s) from the first frame on."""
    bl_scene, world, generated = site.scene, site.world, site.generated
    first = min(world.point_cache.frame_start, bl_scene.frame_start)  # where the build starts the simulation
    dt = step_seconds(bl_scene)
    made: list[bpy.types.Object] = []
    anchor = None
    for angular_axis, turn, held, name in _motors(rigid, world, dt, linear=linear, angular=angular,
                                                  orientation=orientation):
        speed = held if angular_axis else held + world_gravity(bl_scene).dot(turn @ _X) * dt
        if anchor is None:
            anchor = _anchor(site, owner, at)
            made.append(anchor)
        motor = bpy.data.objects.new(f"{owner.name} start {name}", None)
        motor[GENERATED] = STARTER
        motor[OWNER] = owner
        motor.empty_display_size = 0.1
        motor.matrix_basis = Matrix.LocRotScale(at, turn, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
        generated.objects.link(motor)
        cast(bpy.types.Collection, world.constraints).objects.link(motor)  # ensure_world made it
        constraint = cast(bpy.types.RigidBodyConstraint, motor.rigid_body_constraint)  # linking the empty made it
        constraint.type = 'MOTOR'
        constraint.object1, constraint.object2 = anchor, rigid
        constraint.disable_collisions = True
        target = bullet_sign('MOTOR', angular_axis) * speed
        if angular_axis:
            constraint.use_motor_ang, constraint.motor_ang_target_velocity = True, target
            constraint.motor_ang_max_impulse = MAX_IMPULSE
        else:
            constraint.use_motor_lin, constraint.motor_lin_target_velocity = True, target
            constraint.motor_lin_max_impulse = MAX_IMPULSE
        for frame, enabled in ((first + 1, True), (first + 2, False)):
            constraint.enabled = enabled
            constraint.keyframe_insert("enabled", frame=frame)
        made.append(motor)
    return made


def _anchor(site: Site, owner: bpy.types.Object, at: Vector) -> bpy.types.Object:
    """A passive body that collides with nothing: what the motors push against."""
    anchor = bpy.data.objects.new(f"{owner.name} start anchor", site.meshes.body())
    anchor[GENERATED] = STARTER
    anchor[OWNER] = owner
    anchor.matrix_basis = Matrix.Translation(at)  # type: ignore[arg-type]  # the newest stubs' Translation takes no Vector
    site.generated.objects.link(anchor)
    site.link_body(anchor)
    body = cast(bpy.types.RigidBodyObject, anchor.rigid_body)  # linking the mesh object made it
    body.type = 'PASSIVE'
    body.collision_shape = 'SPHERE'
    body.collision_collections = (False,) * 20  # type: ignore[assignment]  # the newest stubs' bpy_prop_array takes no tuple
    return anchor
