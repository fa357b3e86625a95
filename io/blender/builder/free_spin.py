"""How a body spinning with nothing touching it turns over its first frame, so the start motors can hand over
the spin the body really has when they let go (they hold it for a whole frame, while a spin off a principal axis
changes with every instant).

Bullet's inertia is diagonal in the body's own axes: a box's is the box's, a cylinder's the cylinder's, a
sphere's the same about every axis, and other shapes' that of their bounding box (Bullet's approximation).
"""

from __future__ import annotations

import bpy
from mathutils import Quaternion, Vector

_STEPS = 32  # Runge-Kutta steps over one frame: far below Bullet's own error


def bullet_inertia(obj: bpy.types.Object) -> Vector | None:
    """The principal moments per unit mass Bullet gives this rigid body (None: unknown, e.g. a compound)."""
    body = obj.rigid_body
    size = obj.dimensions
    x, y, z = size.x, size.y, size.z
    if body is None or body.collision_shape == 'COMPOUND' or x * y * z == 0.0:
        return None
    if body.collision_shape == 'SPHERE':
        return Vector((1.0, 1.0, 1.0))
    if body.collision_shape == 'CYLINDER':
        radius = max(x, y) / 2.0
        across = (3.0 * radius * radius + z * z) / 12.0
        return Vector((across, across, radius * radius / 2.0))
    return Vector(((y * y + z * z) / 12.0, (x * x + z * z) / 12.0, (x * x + y * y) / 12.0))


def _rates(turned: Quaternion, spin: Vector, inertia: Vector) -> tuple[Quaternion, Vector]:
    """Euler's equations (the spin in the body's axes) and the rate of the turn."""
    change = Vector(((inertia.y - inertia.z) * spin.y * spin.z / inertia.x,
                     (inertia.z - inertia.x) * spin.z * spin.x / inertia.y,
                     (inertia.x - inertia.y) * spin.x * spin.y / inertia.z))
    rate = turned @ Quaternion((0.0, spin.x, spin.y, spin.z))
    return _plus(Quaternion((0.0, 0.0, 0.0, 0.0)), (rate, 0.5)), change


def _plus(base: Quaternion, *terms: tuple[Quaternion, float]) -> Quaternion:
    """`base` plus each quaternion times its weight, component by component."""
    return Quaternion((base.w + sum(q.w * weight for q, weight in terms),
                       base.x + sum(q.x * weight for q, weight in terms),
                       base.y + sum(q.y * weight for q, weight in terms),
                       base.z + sum(q.z * weight for q, weight in terms)))


def _moved(turned: Quaternion, rate: Quaternion, seconds: float) -> Quaternion:
    return _plus(turned, (rate, seconds))


def free_spin(inertia: Vector, spin: Vector, seconds: float) -> tuple[Quaternion, Vector]:
    """The turn (in the body's starting axes) and the spin (in the body's axes, rad/s) after `seconds` of a
    torque-free body starting with `spin` (in its own axes)."""
    turned, spin = Quaternion(), spin.copy()
    step = seconds / _STEPS
    for _ in range(_STEPS):
        k1 = _rates(turned, spin, inertia)
        k2 = _rates(_moved(turned, k1[0], step / 2), spin + k1[1] * (step / 2), inertia)
        k3 = _rates(_moved(turned, k2[0], step / 2), spin + k2[1] * (step / 2), inertia)
        k4 = _rates(_moved(turned, k3[0], step), spin + k3[1] * step, inertia)
        turned = _plus(turned, (k1[0], step / 6), (k2[0], step / 3), (k3[0], step / 3), (k4[0], step / 6)).normalized()
        spin = spin + (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]) * (step / 6)
    return turned, spin
