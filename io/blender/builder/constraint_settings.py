"""OMI joint limits and drives -> Blender rigid body constraint settings.

Input and output are in the joint object's local Blender axes. Blender has one frame per constraint (the
constraint object's), so each result says how to turn that frame: HINGE turns about its local Z,
SLIDER, PISTON and MOTOR work along its local X.

Sign conventions: `bullet.BULLET_SIGN`, shared with the export (`adopt`), with object1 = the joint's body
and object2 = the connected body.

The special cases of the spec become Blender's special constraints when the limits match exactly
(weld -> FIXED, pin -> POINT, hinge -> HINGE, slider -> SLIDER, slider with turning -> PISTON); any other
rigid limits -> GENERIC; soft limits and spring drives -> GENERIC_SPRING; velocity drives -> one MOTOR
constraint per axis, on top. Blender measures every limit from the bodies' starting pose, so linear
limits are shifted by the connected frame's starting offset, and angular limits by its starting turn
when that turn is about one joint axis (a turn about several axes does not add up per axis: named).

Pure Python: no bpy, so the mapping is tested on its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...omi import conventions, model
from ..tables import axes, bullet, constraints
from ..tables.bullet import bullet_sign

EPSILON = 1e-6
ANGLE_EPSILON = 1e-4  # radians, and the axis' components: float32 settings and matrix products stay inside it
FLOAT32_STEPS = 16  # float32 steps a frame's place may drift through the matrix products of an export and an import
FAR = 1.0e6  # metres: stands for "unbounded" on one side of a linear limit
UNLIMITED_FORCE = 1.0e9  # a motor without a force limit
HALF_PI = math.pi / 2.0

# Names of what Blender cannot express, used in the one "kept in the settings" warning.
SOFT_RANGE = "soft joint limits with a range (Blender limits are rigid)"
HALF_BOUNDED_ANGLE = "angular limits bounded on one side only"
MULTI_AXIS_RANGE = "multi-axis joint limits with a range (applied per axis)"
WIDE_Y_ANGLE = "generic joint angles about Y beyond +-90 degrees"
SPRING_TARGET = "spring drive targets away from the starting pose"
DRIVE_ACCELERATION = "acceleration-mode joint drives (Blender drives apply forces)"
MOTOR_DAMPING = ("velocity drive damping other than a Blender motor's (max force / "
                 f"{bullet.MOTOR_SPEED_TOLERANCE:g}: the target is reached up to the force limit)")
SPRING_AND_MOTOR = "drives with both a position and a velocity target"
ROTATED_REST = ("joint frames turned against each other about more than one axis at the start (Blender "
                "measures angles from there)")


@dataclass(frozen=True)
class Limit:
    """One limit in Blender axes. None bounds are open; stiffness None is rigid."""

    angular: bool
    axes: tuple[int, ...]
    low: float | None
    high: float | None
    stiffness: float | None = None
    damping: float = 0.0


@dataclass(frozen=True)
class Drive:
    """One drive on one Blender axis of the joint frame."""

    angular: bool
    axis: int
    acceleration: bool = False
    max_force: float | None = None
    position_target: float | None = None
    velocity_target: float | None = None
    stiffness: float = 0.0
    damping: float = 0.0


@dataclass(frozen=True)
class ConstraintSpec:
    """One Blender rigid body constraint: its type, the frame turn, and RigidBodyConstraint values.

    `align` None keeps the joint's axes; 'Z' (hinge) or 'X' (slider, piston, motor) puts that axis of the
    constraint frame on joint axis `axis`.
    """

    type: str
    align: str | None = None
    axis: int = 0
    values: dict[str, object] = field(default_factory=dict)


@dataclass
class _Dof:
    low: float | None = None
    high: float | None = None
    limited: bool = False
    stiffness: float | None = None  # None: rigid
    damping: float = 0.0
    spring_stiffness: float = 0.0
    spring_damping: float = 0.0

    @property
    def state(self) -> str:
        """free, fixed (rigid at the start pose), range (rigid limits) or spring (soft at the start pose)."""
        if self.limited and (self.low is not None or self.high is not None):
            at_start = _zero(self.low) and _zero(self.high)
            if self.stiffness is None:
                return "fixed" if at_start else "range"
            return "spring" if at_start else "range"
        return "spring" if self.spring_stiffness > 0.0 else "free"


def _zero(value: float | None) -> bool:
    return value is not None and abs(value) <= EPSILON


def _shift(value: float | None, offset: float) -> float | None:
    return None if value is None else value - offset


def _dofs(limits: Iterable[Limit], rest_offset: tuple[float, float, float], rest_angles: tuple[float, float, float],
          notes: set[str]) -> dict[tuple[bool, int], _Dof]:
    dofs = {(angular, axis): _Dof() for angular in (False, True) for axis in range(3)}
    for limit in limits:
        if len(limit.axes) > 1 and not (_zero(limit.low) and _zero(limit.high)):
            notes.add(MULTI_AXIS_RANGE)
        for axis in limit.axes:
            dof = dofs[(limit.angular, axis)]
            offset = rest_angles[axis] if limit.angular else rest_offset[axis]
            low, high = _shift(limit.low, offset), _shift(limit.high, offset)
            dof.low = low if dof.low is None else (dof.low if low is None else max(dof.low, low))
            dof.high = high if dof.high is None else (dof.high if high is None else min(dof.high, high))
            if not dof.limited:
                dof.stiffness = limit.stiffness
            elif dof.stiffness is not None:
                dof.stiffness = None if limit.stiffness is None else max(dof.stiffness, limit.stiffness)
            dof.damping = max(dof.damping, limit.damping)
            dof.limited = True
    for dof in dofs.values():
        if dof.limited and dof.stiffness is not None:
            if _zero(dof.low) and _zero(dof.high):
                dof.spring_stiffness, dof.spring_damping = dof.stiffness, dof.damping
            elif dof.low is not None or dof.high is not None:
                notes.add(SOFT_RANGE)
    return dofs


def _add_springs(dofs: dict[tuple[bool, int], _Dof], drives: Iterable[Drive], rest_offset: tuple[float, float, float],
                 rest_angles: tuple[float, float, float], notes: set[str]) -> list[Drive]:
    """Spring drives onto their degree of freedom; the velocity drives (motors) are returned."""
    motors: list[Drive] = []
    for drive in drives:
        if drive.acceleration:
            notes.add(DRIVE_ACCELERATION)
        if drive.position_target is None:
            if drive.velocity_target is not None and drive.damping > 0.0:  # damping 0: the drive pushes nothing
                motors.append(drive)
            continue
        if drive.velocity_target not in (None, 0.0):
            notes.add(SPRING_AND_MOTOR)
        target = drive.position_target - (rest_angles if drive.angular else rest_offset)[drive.axis]
        if abs(target) > EPSILON:
            notes.add(SPRING_TARGET)
        dof = dofs[(drive.angular, drive.axis)]
        dof.spring_stiffness = max(dof.spring_stiffness, drive.stiffness)
        dof.spring_damping = max(dof.spring_damping, drive.damping)
    return motors


def _range(dof: _Dof, kind: str, angular: bool, notes: set[str], limit: float = math.pi) -> tuple[float, float]:
    """Blender's lower/upper for a limited degree of freedom of a `kind` constraint (open ends closed)."""
    low, high = dof.low, dof.high
    if angular:
        if low is None or high is None:
            notes.add(HALF_BOUNDED_ANGLE)
        low = -limit if low is None else max(low, -conventions.ANGULAR_LIMIT_BOUND)
        high = limit if high is None else min(high, conventions.ANGULAR_LIMIT_BOUND)
    else:
        low, high = (-FAR if low is None else low), (FAR if high is None else high)
    return (low, high) if bullet_sign(kind, angular) > 0 else conventions.reversed_range(low, high)


_ALL_DOFS = [(angular, axis) for angular in (False, True) for axis in range(3)]  # `_dofs`' order
# Each degree of freedom's property names: (use_limit, (lower, upper), (use_spring, stiffness, damping)).
_NAMES = {dof: (constraints.use_limit(dof), constraints.limit_bounds(dof), constraints.spring(dof))
          for dof in _ALL_DOFS}


def _generic(dofs: dict[tuple[bool, int], _Dof], states: dict[tuple[bool, int], str], notes: set[str],
             springs: bool) -> ConstraintSpec:
    constraint_type = 'GENERIC_SPRING' if springs else 'GENERIC'
    values: dict[str, object] = {}
    for (angular, axis), dof in dofs.items():
        use_limit, (low_name, high_name), (use, stiffness, damping) = _NAMES[(angular, axis)]
        limited = states[(angular, axis)] in ("fixed", "range")
        values[use_limit] = limited
        if limited:
            wide = HALF_PI if (angular and axis == 1) else math.pi
            lower, upper = _range(dof, constraint_type, angular, notes, wide)
            if angular and axis == 1 and (lower < -HALF_PI - EPSILON or upper > HALF_PI + EPSILON):
                notes.add(WIDE_Y_ANGLE)
                lower, upper = max(lower, -HALF_PI), min(upper, HALF_PI)
            values[low_name], values[high_name] = lower, upper
        if springs:
            values[use] = dof.spring_stiffness > 0.0
            values[stiffness] = dof.spring_stiffness
            values[damping] = dof.spring_damping
    if springs:
        values["spring_type"] = 'SPRING2'
    return ConstraintSpec(constraint_type, values=values)


_OPEN = frozenset({"free", "range"})
# A special kind matching the states, its joint axis, and its limited degrees of freedom each with the joint's
# it lands on.
_Special = tuple[constraints.ConstraintKind, int, list[tuple[constraints.Dof, constraints.Dof]]]
# The degrees of freedom's states, in `_ALL_DOFS`' order -> their special kind (None: none); joints share a few.
_SPECIALS: dict[tuple[str, ...], _Special | None] = {}


def _special_kind(states: dict[tuple[bool, int], str]) -> _Special | None:
    key = tuple(states[dof] for dof in _ALL_DOFS)
    if key in _SPECIALS:
        return _SPECIALS[key]
    found = None
    for name in constraints.SPECIAL_ORDER:
        kind = constraints.CONSTRAINT_KINDS[name]
        joint_axis = constraints.match(kind, states, _OPEN)
        if joint_axis is not None:
            found = (kind, joint_axis, [(dof, constraints.joint_dof(kind, dof, joint_axis))
                                        for dof in kind.dofs(constraints.LIMITED)])
            break
    _SPECIALS[key] = found
    return found


def _special(dofs: dict[tuple[bool, int], _Dof], states: dict[tuple[bool, int], str],
             notes: set[str]) -> ConstraintSpec | None:
    """FIXED, POINT, HINGE, SLIDER or PISTON when the rigid limits are exactly one of them
    (`constraints.CONSTRAINT_KINDS` says what each type fixes, leaves free and limits)."""
    if "spring" in states.values():
        return None
    found = _special_kind(states)
    if found is None:
        return None
    kind, joint_axis, limited = found
    values: dict[str, object] = {}
    for dof, joint_dof in limited:
        use_limit, (low_name, high_name), _spring = _NAMES[dof]
        ranged = states[joint_dof] == "range"
        values[use_limit] = ranged
        if ranged:
            values[low_name], values[high_name] = _range(dofs[joint_dof], kind.type, dof[0], notes)
    align = None if kind.working_axis is None else constraints.AXIS_IDS[kind.working_axis]
    return ConstraintSpec(kind.type, align, joint_axis, values)


def _motors(motors: list[Drive], notes: set[str]) -> list[ConstraintSpec]:
    by_axis: dict[int, dict[str, object]] = {}
    for drive in motors:
        if not bullet.motor_damping_matches(drive.damping, drive.max_force):
            notes.add(MOTOR_DAMPING)
        values = by_axis.setdefault(drive.axis, {})
        use, velocity, impulse = constraints.motor(drive.angular)
        values[use] = True
        velocity_target = drive.velocity_target or 0.0  # `_add_springs` returns only drives with one
        values[velocity] = bullet.bullet_sign('MOTOR', drive.angular) * velocity_target
        values[impulse] = UNLIMITED_FORCE if drive.max_force is None else drive.max_force
    return [ConstraintSpec('MOTOR', 'X', axis, values) for axis, values in sorted(by_axis.items())]


def from_model(settings: model.JointSettings) -> tuple[list[Limit], list[Drive]]:
    """A joint's glTF-axis limits and drives in the joint object's Blender axes: a single-axis range or a
    drive target changes sign where the axis does (`axes.joint_axes`); a 2- or 3-axis limit bounds a
    distance or an angle and keeps its values."""
    limits = []
    for limit in settings.limits:
        for angular, gltf_axes in ((False, limit.linear_axes), (True, limit.angular_axes)):
            if not gltf_axes:
                continue
            blender_axes, sign = axes.joint_axes(gltf_axes, to_blender=True)
            low, high = axes.signed_range(limit.min, limit.max, sign)
            limits.append(Limit(angular, blender_axes, low, high, limit.stiffness, limit.damping))
    drives = []
    for drive in settings.drives:
        (axis,), sign = axes.joint_axes((drive.axis,), to_blender=True)
        position, velocity = drive.position_target, drive.velocity_target
        drives.append(Drive(drive.type == "angular", axis, drive.mode == "acceleration", drive.max_force,
                            None if position is None else sign * position,
                            None if velocity is None else sign * velocity, drive.stiffness, drive.damping))
    return limits, drives


def rest_turn(axis: tuple[float, float, float], angle: float) -> tuple[float, float, float] | None:
    """The connected frame's starting turn against the joint frame (axis and angle, joint-frame Blender
    axes) as angles about the three axes: one is the angle when the turn is about one axis, else None
    (angles about several axes do not add up one by one)."""
    angle = math.remainder(angle, math.tau)  # in [-pi, pi]
    if abs(angle) <= ANGLE_EPSILON:
        return (0.0, 0.0, 0.0)
    for index, component in enumerate(axis):
        if abs(abs(component) - 1.0) <= ANGLE_EPSILON:
            turn = math.copysign(angle, component)
            return (turn if index == 0 else 0.0, turn if index == 1 else 0.0, turn if index == 2 else 0.0)
    return None


def settled_offset(offset: tuple[float, float, float],
                   positions: Iterable[Iterable[float]]) -> tuple[float, float, float]:
    """The connected frame's starting offset (`plan_constraints`' `rest_offset`) with each component within
    float32 noise of the world `positions` involved (the two frames' and their bodies') taken as 0.

    Files written from Blender hold the joint and the connected frame as computed from float32 matrices, so two
    frames made at one place start apart by a few float32 steps of their coordinates, which grow with the
    distance from the origin. Taken as 0, a hinge exported far out comes back a hinge (its fixed axes at 0),
    and the limits read back as written; a real offset, far above that noise, is kept.
    """
    largest = max((abs(value) for position in positions for value in position), default=0.0)
    noise = max(EPSILON, FLOAT32_STEPS * 2.0 ** (math.frexp(largest)[1] - 24))  # steps of float32's 24-bit mantissa
    return (0.0 if abs(offset[0]) <= noise else offset[0], 0.0 if abs(offset[1]) <= noise else offset[1],
            0.0 if abs(offset[2]) <= noise else offset[2])


def plan_constraints(limits: Iterable[Limit], drives: Iterable[Drive],
                     rest_offset: tuple[float, float, float] = (0.0, 0.0, 0.0),
                     rest_angles: tuple[float, float, float] | None = (0.0, 0.0, 0.0),
                     ) -> tuple[list[ConstraintSpec], set[str]]:
    """The Blender constraints of one joint, and the names of what they cannot express.

    `rest_offset` is where the connected frame starts, in joint-frame Blender axes; `rest_angles` how it
    starts turned about those axes (`rest_turn`), None when the turn is about more than one axis.
    """
    notes: set[str] = set()
    limits, drives = list(limits), list(drives)
    if rest_angles is None:
        if any(limit.angular for limit in limits) or any(drive.angular for drive in drives):
            notes.add(ROTATED_REST)
        rest_angles = (0.0, 0.0, 0.0)
    dofs = _dofs(limits, rest_offset, rest_angles, notes)
    motors = _add_springs(dofs, drives, rest_offset, rest_angles, notes)
    specs: list[ConstraintSpec] = []
    states = {key: dof.state for key, dof in dofs.items()}
    if any(state != "free" for state in states.values()):
        springs = "spring" in states.values() or any(dof.spring_stiffness > 0.0 for dof in dofs.values())
        special = None if springs else _special(dofs, states, notes)
        specs.append(special or _generic(dofs, states, notes, springs))
    specs.extend(_motors(motors, notes))
    return specs, notes
