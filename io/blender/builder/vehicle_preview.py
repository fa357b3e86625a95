"""A preview of a wheeled vehicle in Blender's simulation: each OMI_vehicle_wheel of a dynamic body becomes a
rolling wheel on the body, built from the unit's model (`units.vehicle_wheel.Wheel`).

Blender has no vehicle; Bullet's constraints make one. Per wheel, beside the body (all generated, owned by
the wheel's object, so the export never sees them and a clear removes them):
- a hub: a rigid body that collides with nothing, held to the vehicle by a spring constraint: free along the
  vehicle's up axis within the suspension travel, with the wheel's suspension stiffness and damping (the
  suspension), and turned about that axis by its steering angle, a limited hinge whose both limits follow
  the steering ((`target_steering_ratio` + the vehicle's yaw `angular_activation`) x `max_steering_angle`,
  kept in step by drivers);
- the wheel: a sphere of the wheel's radius on the hub, turning about the vehicle's X axis (a hinge), with
  a motor whose force limit follows the throttle ((`target_propulsion_force_ratio` + the vehicle's forward
  `linear_activation`) x `max_propulsion_force`, by drivers) towards the speed the vehicle's `max_speed`
  allows (else `FREE_SPEED`), forwards or backwards with the throttle's sign, forward being the vehicle's
  -Y in Blender (glTF +Z);
- the wheel's object (its mesh below it) follows the rolling wheel (the build's FOLLOW constraint, which
  an export mutes, so the file keeps the wheel where the artist put it), so the wheels turn.
Keying a wheel's throttle or steering, or the vehicle's activation, keys the preview. Not previewed: braking,
the change rates (steering and throttle act at once), the rebound damping (the spring damps alike both ways:
compression's), a rear wheel steering the other way, the wheel's width and physics material; a preview is
built at import and not remade when the wheel's settings change.
Thrusters, hover thrusters and seats are drawn by the overlay, not simulated: the import says so once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

import bpy
from mathutils import Euler, Matrix

from ...omi.model import Issue
from ...omi.units import vehicle_body, vehicle_hover_thruster, vehicle_thruster, vehicle_wheel
from ..tables.bullet import bullet_sign
from ..tables.markers import FOLLOW, GENERATED, OWNER
from .rigid_body_world import ensure_world, generated_collection

PREVIEW = "vehicle preview"  # GENERATED value of what this module makes
FREE_SPEED = 60.0  # rad/s the motor aims for when the vehicle sets no max speed (~75 km/h on a 0.35 m wheel)
WHEEL_SHARE = 0.02  # a wheel's (and a hub's) share of the vehicle's mass: the spec gives wheels none


def preview_vehicles(bl_scene: bpy.types.Scene, units: Mapping[bpy.types.Object, Mapping[str, Any]],
                     settings_path: Callable[[str], str]) -> list[Issue]:
    """Build the preview of every vehicle body among the objects of `units` (each object's extension unit
    values, `NodePhysics.extensions`) that has a Blender rigid body; what it cannot preview, said once.
    `settings_path`: the RNA path of a unit's settings on its object (the binding's: the drivers read them)."""
    made: list[str] = []
    drawn: list[str] = []
    for obj, values in units.items():
        if not values:  # most objects: no extension unit (a unit's lookup in an empty mapping raises inside)
            continue
        if vehicle_thruster.NAME in values or vehicle_hover_thruster.NAME in values:
            drawn.append(obj.name)
        vehicle = values.get(vehicle_body.NAME)
        if vehicle is None or obj.rigid_body is None or obj.rigid_body.type != 'ACTIVE':
            continue
        wheels = [(child, wheel) for child in obj.children_recursive
                  if (wheel := units.get(child, {}).get(vehicle_wheel.NAME)) is not None]
        for wheel_obj, wheel in wheels:
            _wheel(bl_scene, obj, vehicle, wheel_obj, wheel, settings_path=settings_path)
        if wheels:
            made.append(obj.name)
    issues = []
    if made:
        issues.append(Issue("", f"vehicles previewed in Blender's simulation (wheels on hinges with motors, "
                                f"suspension springs, steering hinges; key a wheel's throttle or steering): "
                                f"{', '.join(repr(name) for name in made)}", "info"))
    if drawn:
        issues.append(Issue("", f"{vehicle_thruster.NAME} and {vehicle_hover_thruster.NAME} are drawn, not "
                                f"simulated, in Blender: {', '.join(repr(name) for name in drawn)}", "info"))
    return issues


def _wheel(bl_scene: bpy.types.Scene, body: bpy.types.Object, vehicle: vehicle_body.VehicleBody,
           wheel_obj: bpy.types.Object, wheel: vehicle_wheel.Wheel, *, settings_path: Callable[[str], str]) -> None:
    wheel_path, body_path = settings_path(vehicle_wheel.NAME), settings_path(vehicle_body.NAME)
    frame = _world(body).normalized().to_quaternion()
    at = _world(wheel_obj).to_translation()
    mass = max(cast(bpy.types.RigidBodyObject, body.rigid_body).mass * WHEEL_SHARE, 0.1)  # a body: asked above
    hub = _body(bl_scene, wheel_obj, "hub", at=at, radius=0.05, mass=mass, collides=False)
    rolling = _body(bl_scene, wheel_obj, "wheel", at=at, radius=wheel.radius, mass=mass, collides=True)
    # The suspension and steering: the vehicle's axes, its up axis (Blender Z) sprung and turned.
    upright = Matrix.LocRotScale(at, frame, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
    spring = _constraint(bl_scene, wheel_obj, "suspension", upright, kind='GENERIC_SPRING', bodies=(body, hub))
    for axis in "xyz":  # every range closed (Blender's defaults are 1 m and 45 degrees either way)
        for kind in ("lin", "ang"):
            setattr(spring, f"use_limit_{kind}_{axis}", True)
            setattr(spring, f"limit_{kind}_{axis}_lower", 0.0)
            setattr(spring, f"limit_{kind}_{axis}_upper", 0.0)
    spring.limit_lin_z_lower, spring.limit_lin_z_upper = -wheel.suspension_travel, wheel.suspension_travel
    spring.spring_type = 'SPRING2'
    spring.use_spring_z = True
    spring.spring_stiffness_z = wheel.suspension_stiffness
    spring.spring_damping_z = wheel.suspension_damping_compression
    # The wheel's own ratios plus the vehicle's activation (the spec's common case: yaw steers, forward drives)
    steering = {"wheel": (wheel_obj, f"{wheel_path}.target_steering_ratio"),
                "vehicle": (body, f"{body_path}.angular_activation[1]")}
    steer = bullet_sign('GENERIC_SPRING', True) * wheel.max_steering_angle
    now = wheel.target_steering_ratio + vehicle.angular_activation[1]
    for end in ("lower", "upper"):
        _drive(spring, f"limit_ang_z_{end}", steering, f"(wheel + vehicle) * {steer!r}", now * steer)
    # The axle: Blender's hinge turns about its Z, the motor drives about its X; both along the vehicle's X.
    axle = frame @ Euler((0.0, math.pi / 2, 0.0)).to_quaternion()
    along_x = Matrix.LocRotScale(at, axle, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
    _constraint(bl_scene, wheel_obj, "axle", along_x, kind='HINGE', bodies=(hub, rolling))
    motor = _constraint(bl_scene, wheel_obj, "motor", upright, kind='MOTOR', bodies=(hub, rolling))
    motor.use_motor_ang = True
    speed = bullet_sign('MOTOR', True) * (vehicle.max_speed / wheel.radius if vehicle.max_speed > 0.0 else FREE_SPEED)
    throttle = {"wheel": (wheel_obj, f"{wheel_path}.target_propulsion_force_ratio"),
                "vehicle": (body, f"{body_path}.linear_activation[2]")}
    now = wheel.target_propulsion_force_ratio + vehicle.linear_activation[2]
    _drive(motor, "motor_ang_target_velocity", throttle, f"{speed!r} if wheel + vehicle >= 0 else {-speed!r}",
           speed if now >= 0 else -speed)
    torque = wheel.max_propulsion_force * wheel.radius  # Bullet multiplies the motor's "impulse" by the step
    _drive(motor, "motor_ang_max_impulse", throttle, f"abs(wheel + vehicle) * {torque!r}", abs(now) * torque)
    # No collision between the wheel and its own vehicle (a constraint with no limit only says that).
    _constraint(bl_scene, wheel_obj, "no contact", upright, kind='GENERIC', bodies=(body, rolling))
    follow = cast(bpy.types.CopyTransformsConstraint, wheel_obj.constraints.new('COPY_TRANSFORMS'))
    follow.name = FOLLOW
    follow.target = rolling


def _world(obj: bpy.types.Object) -> Matrix:
    """The object's world matrix from its parents' (the import's objects are not evaluated yet)."""
    local = obj.matrix_parent_inverse @ obj.matrix_basis
    return _world(obj.parent) @ local if obj.parent is not None else obj.matrix_basis.copy()


def _body(bl_scene: bpy.types.Scene, owner: bpy.types.Object, role: str, *, at: Any, radius: float, mass: float,
          collides: bool) -> bpy.types.Object:
    """A generated sphere body of `radius` at `at` (a cube mesh: Blender sizes the sphere from the bounds)."""
    mesh = bpy.data.meshes.new(f"{owner.name} {role}")
    corners = [(x * radius, y * radius, z * radius) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    mesh.from_pydata(corners, [], [])
    mesh[GENERATED] = PREVIEW
    obj = bpy.data.objects.new(f"{owner.name} {role}", mesh)
    obj[GENERATED], obj[OWNER] = PREVIEW, owner
    obj.matrix_basis = _world(owner).normalized() if role == "wheel" else Matrix.Translation(at)
    obj.hide_render = True
    obj.display_type = 'WIRE'
    generated_collection(bl_scene).objects.link(obj)
    cast(bpy.types.Collection, ensure_world(bl_scene).collection).objects.link(obj)
    rigid = cast(bpy.types.RigidBodyObject, obj.rigid_body)  # linking the mesh object made it
    rigid.type, rigid.collision_shape, rigid.mass = 'ACTIVE', 'SPHERE', mass
    rigid.linear_damping = rigid.angular_damping = 0.0
    if collides:
        rigid.friction = 1.0  # Bullet multiplies the two bodies' frictions: the ground's decides the grip
    else:
        rigid.collision_collections = (False,) * 20  # type: ignore[assignment]  # the newest stubs' bpy_prop_array takes no tuple
    return obj


def _constraint(bl_scene: bpy.types.Scene, owner: bpy.types.Object, role: str, place: Matrix, *,
                kind: Literal['HINGE', 'MOTOR', 'GENERIC', 'GENERIC_SPRING'],
                bodies: tuple[bpy.types.Object, bpy.types.Object]) -> Any:
    empty = bpy.data.objects.new(f"{owner.name} {role}", None)
    empty[GENERATED], empty[OWNER] = PREVIEW, owner
    empty.empty_display_size = 0.1
    empty.matrix_basis = place
    generated_collection(bl_scene).objects.link(empty)
    cast(bpy.types.Collection, ensure_world(bl_scene).constraints).objects.link(empty)
    constraint = cast(bpy.types.RigidBodyConstraint, empty.rigid_body_constraint)  # linking the empty made it
    constraint.type = kind
    constraint.object1, constraint.object2 = bodies
    constraint.disable_collisions = True
    return constraint


def _drive(constraint: Any, path: str, sources: dict[str, tuple[bpy.types.Object, str]], expression: str,
           value: float) -> None:
    """`constraint.path` kept in step with the settings `sources` (variable -> (object, data path)) by a driver
    of `expression`, a simple expression, which Blender evaluates without running Python; `value`: now."""
    setattr(constraint, path, value)
    driver = constraint.id_data.driver_add(f"rigid_body_constraint.{path}").driver
    driver.type = 'SCRIPTED'
    for name, (owner, data_path) in sources.items():
        variable = driver.variables.new()
        variable.name = name
        variable.targets[0].id = owner
        variable.targets[0].data_path = data_path
    driver.expression = expression
