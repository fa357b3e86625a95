"""How Blender's Bullet simulation counts and combines, as measured: one home for both directions.

The import (`rigid_body`, `rigid_body_joints`) and the export (`adopt`) read these tables, so the two
sides cannot disagree. Each value was measured by simulating the case in Blender 5.0.1 and 4.2; the
simulation tests of import and export check them again.

Pure Python: no bpy.
"""

from __future__ import annotations

import math

from ...omi.model import CombineMode

# How Blender's value counts against OMI's, per (constraint type, "linear"/"angular"): +1 where a Blender
# range bounds object2 seen from object1 in the constraint frame, as OMI bounds the connected node seen
# from the joint node; -1 where it counts the other way (the range is negated and its ends swapped).
# Measured with a [0, 1] range, gravity pushing each way and the dynamic body as object1 and as object2:
# translations of every type and the piston's turn stay in [0, 1]; hinge and 6-DOF turns (about X, Y and
# Z, both spring types) in [-1, 0]. A motor with target +1 moves object2 seen from object1 at -1, linear
# and angular.
BULLET_SIGN: dict[tuple[str, str], int] = {
    ('SLIDER', "linear"): 1, ('PISTON', "linear"): 1, ('GENERIC', "linear"): 1, ('GENERIC_SPRING', "linear"): 1,
    ('PISTON', "angular"): 1,
    ('HINGE', "angular"): -1, ('GENERIC', "angular"): -1, ('GENERIC_SPRING', "angular"): -1,
    ('MOTOR', "linear"): -1, ('MOTOR', "angular"): -1,
}

# How two touching bodies' friction and restitution combine: Bullet multiplies both, whatever the bodies
# say. Measured: pairs with equal products (0.8 and 0.5, 0.4 and 1, 1 and 0.4, 0.632 twice) move alike to
# 1e-6 m (a box on a 30 degree slope slides as with friction 0.4; a ball dropped 1 m rebounds 0.16 m,
# restitution 0.4), while a different product moves differently.
BULLET_COMBINE: CombineMode = "multiply"


def bullet_sign(constraint_type: str, angular: bool) -> int:
    """The `BULLET_SIGN` of a constraint's linear or angular values; +1 for types without such ranges."""
    return BULLET_SIGN.get((constraint_type, "angular" if angular else "linear"), 1)


# A Bullet motor reaches its target velocity within one step as long as its force limit allows; an OMI
# velocity drive pushes with damping * (target - velocity). A damping of max force / this tolerance makes
# the drive push with its full force as soon as it is this far (m/s or rad/s) from the target, like
# Bullet's motor: the export writes it, and the import reads it (or more) as exactly a Blender motor.
MOTOR_SPEED_TOLERANCE = 0.01


def motor_damping(max_force: float) -> float:
    """The damping of an OMI velocity drive that behaves like a Blender motor with this force limit."""
    return max_force / MOTOR_SPEED_TOLERANCE


def motor_damping_matches(damping: float, max_force: float | None) -> bool:
    """Whether a velocity drive's damping is what a Blender motor does (at least `motor_damping`, within
    float32 rounding); a drive with damping 0 pushes nothing and is no motor at all."""
    if max_force is None:
        return False
    return damping >= motor_damping(max_force) * (1.0 - 1e-6)


# Blender's rigid body mass has a floor of 0.001 kg (RigidBodyObject.mass, hard min); an infinite OMI mass
# (a body the engine must not move) is simulated with the default mass and locked axes instead.
BLENDER_MIN_MASS = 0.001


def blender_mass(mass: float, default: float = 1.0) -> float:
    """The mass a Blender rigid body simulates for an OMI mass (the rigid-body build and the settings'
    two-way link with Blender's own Mass field both read this)."""
    if math.isnan(mass) or math.isinf(mass):
        return default
    return max(mass, BLENDER_MIN_MASS)
