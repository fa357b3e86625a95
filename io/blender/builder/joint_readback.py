"""A joint's Blender constraints read back as the joint's settings, so that an edit in Blender's Rigid Body
Constraint panel can be taken back into them.

The build's mapping run backwards: `adopt/from_constraints` reads each constraint, and this undoes what the
build added for the joint's place (`Frame`, kept with the constraint's build record): a constraint turned
onto a joint axis (a hinge about its Z, a slider or motor along its X) is turned back, and limits and spring
targets, which Blender measures from the starting pose, get back the connected frame's starting offset and
turn. A joint made of several constraints (its limits, plus one motor per driven axis) is read from all of
them; what Blender does not hold (a drive's damping and mode) stays as the settings say. An edit is taken
back only where the unedited constraints read back as the settings exactly (checked right after the build,
on what it wrote): then the reading is unambiguous.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import bpy
from mathutils import Quaternion, Vector

from ...omi import model
from ..adopt import from_constraints
from ..tables import axes
from . import built_values
from .constraint_settings import UNLIMITED_FORCE

_PLACES = 5  # float32 limits within 1e-5 (metres, radians)
_ZERO = 1e-6  # a bound back at the starting pose within float32 rounding reads as 0 (a fixed axis)
Vec3 = tuple[float, float, float]
AxisMap = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]


@dataclasses.dataclass(frozen=True)
class Frame:
    """How the build placed one constraint of a joint: the connected frame's starting offset and turn (joint
    frame, Blender axes; the turn None when it is about several axes, which the build leaves out), and for
    each axis of the constraint's frame the joint axis it lies on, with its sign."""

    offset: Vec3
    angles: Vec3 | None
    axes: AxisMap

    def record(self) -> dict[str, Any]:
        return {"offset": list(self.offset), "angles": None if self.angles is None else list(self.angles),
                "axes": [list(pair) for pair in self.axes]}

    @staticmethod
    def read(value: object) -> Frame | None:
        """The frame kept in a build record, or None when there is none (or it is malformed)."""
        if not isinstance(value, dict):
            return None
        try:
            offset = tuple(float(item) for item in value["offset"])
            angles = None if value["angles"] is None else tuple(float(item) for item in value["angles"])
            pairs = tuple((int(axis), int(sign)) for axis, sign in value["axes"])
        except (KeyError, TypeError, ValueError):
            return None
        if len(offset) != 3 or (angles is not None and len(angles) != 3) or len(pairs) != 3 \
                or not all(axis in (0, 1, 2) and sign in (-1, 1) for axis, sign in pairs):
            return None
        return Frame(offset, angles, pairs)  # type: ignore[arg-type]  # lengths checked above


_AXES: dict[tuple[float, ...], AxisMap] = {}  # a turn -> where it puts each axis (the build uses a few turns)


def frame(offset: Vec3, angles: Vec3 | None, align: Quaternion) -> Frame:
    """The frame of a constraint turned by `align` from the joint's frame (each axis lands on a joint axis)."""
    key = (align.w, align.x, align.y, align.z)
    found = _AXES.get(key)
    if found is None:
        pairs = []
        for index in range(3):
            turned = align @ Vector([1.0 if axis == index else 0.0 for axis in range(3)])
            axis = max(range(3), key=lambda component: abs(turned[component]))
            pairs.append((axis, 1 if turned[axis] > 0.0 else -1))
        if len(_AXES) > 64:
            _AXES.clear()
        found = _AXES[key] = (pairs[0], pairs[1], pairs[2])
    return Frame(offset, angles, found)


_SEQUENCES = (tuple, list)


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, _PLACES) + 0.0
    if isinstance(value, _SEQUENCES):
        return tuple(map(_plain, value))
    return value


_FIELDS: dict[type, tuple[str, ...]] = {}  # a model class -> its fields but `unknown`
# A model item's row, by the item's id (the item kept: its id stays its own): the items are frozen, and joints
# read back share a few (the same settings, the same limits read: `from_constraints.limits_from_ranges`).
_ROWS: dict[int, tuple[Any, tuple[Any, ...]]] = {}


def _row(item: Any) -> tuple[Any, ...]:
    found = _ROWS.get(id(item))
    if found is not None and found[0] is item:
        return found[1]
    names = _FIELDS.get(type(item))
    if names is None:
        names = _FIELDS[type(item)] = tuple(f.name for f in dataclasses.fields(item) if f.name != "unknown")
    row = tuple(_plain(getattr(item, name)) for name in names)
    if len(_ROWS) > 1024:
        _ROWS.clear()
    _ROWS[id(item)] = (item, row)
    return row


def _items(items: Sequence[Any]) -> list[tuple[Any, ...]]:
    return sorted((_row(item) for item in items), key=repr)


def _as_before(found: Any, before: Sequence[Any]) -> Any:
    """The settings' own item where the reading equals it within float32 rounding (no rounding noise taken in)."""
    row = _row(found)
    return next((item for item in before if _row(item) == row), found)


def _rest(frame_: Frame, angular: bool) -> Vec3:
    if angular:
        return frame_.angles or (0.0, 0.0, 0.0)
    return frame_.offset


def _back(value: float, rest: float) -> float:
    moved = value + rest
    return 0.0 if abs(moved) <= _ZERO * max(1.0, abs(rest)) else moved


def _limits(made: bpy.types.Object, frame_: Frame, issues: list[model.Issue] | None) -> tuple[model.JointLimit, ...]:
    constraint = made.rigid_body_constraint
    assert constraint is not None, "read only from constraint objects"
    ranges: dict[tuple[str, int], tuple[float, float]] = {}
    for (dof, axis), bounds in from_constraints.joint_ranges(constraint, made, issues).items():
        joint_axis, sign = frame_.axes[axis]
        lower, upper = axes.signed_range(*bounds, sign)
        rest = _rest(frame_, dof == "angular")[joint_axis]
        ranges[(dof, joint_axis)] = (_back(lower, rest), _back(upper, rest))
    return from_constraints.limits_from_ranges(ranges)


def _drives(made: bpy.types.Object, frame_: Frame, issues: list[model.Issue] | None) -> list[model.JointDrive]:
    """A motor's drives on the joint axis its X lies on; springs with their target at the starting pose."""
    constraint = made.rigid_body_constraint
    assert constraint is not None, "read only from constraint objects"
    found = []
    for drive in from_constraints.joint_drives(constraint, made, issues):
        (axis,), _sign = axes.joint_axes((drive.axis,), to_blender=True)  # the constraint's axis
        joint_axis, sign = frame_.axes[axis]
        (gltf_axis,), gltf_sign = axes.joint_axes((joint_axis,), to_blender=False)
        if drive.velocity_target is not None:
            unlimited = drive.max_force is not None and drive.max_force >= UNLIMITED_FORCE * (1.0 - 1e-6)
            found.append(dataclasses.replace(drive, axis=gltf_axis, max_force=None if unlimited else drive.max_force,
                                             velocity_target=sign * gltf_sign * drive.velocity_target + 0.0))
        else:
            rest = _rest(frame_, drive.type == "angular")[joint_axis]
            found.append(dataclasses.replace(drive, axis=gltf_axis, position_target=_back(0.0, gltf_sign * rest)))
    return found


def _limits_onto(settings: tuple[model.JointLimit, ...],
                 read: tuple[model.JointLimit, ...]) -> tuple[model.JointLimit, ...]:
    """The limits read, the settings' own where they are unchanged, in the settings' order (new ones after)."""
    rows: dict[tuple[Any, ...], model.JointLimit] = {}
    for limit in settings:
        rows.setdefault(_row(limit), limit)
    found = [rows.get(_row(limit), limit) for limit in read]
    order = {id(limit): index for index, limit in enumerate(settings)}
    return tuple(sorted(found, key=lambda limit: order.get(id(limit), len(order))))


def _velocity(drive: model.JointDrive) -> bool:
    return drive.position_target is None


def _same(drive: model.JointDrive, other: model.JointDrive) -> bool:
    return drive.type == other.type and drive.axis == other.axis and _velocity(drive) == _velocity(other)


def _merged(before: model.JointDrive, found: model.JointDrive) -> model.JointDrive:
    """A drive read from Blender onto the settings' drive it stands for, which keeps what Blender does not hold."""
    if _velocity(found):
        merged = dataclasses.replace(before, velocity_target=found.velocity_target, max_force=found.max_force)
    else:
        merged = dataclasses.replace(before, position_target=found.position_target, stiffness=found.stiffness,
                                     damping=found.damping)
    return _as_before(merged, (before,))


def _drives_onto(settings: tuple[model.JointDrive, ...], read: list[model.JointDrive], springs: bool,
                 motor_axes: set[int]) -> tuple[model.JointDrive, ...]:
    """The settings' drives in their order, each held by a constraint as Blender holds it now (gone when Blender
    holds it no more), the others as they are (a spring without a spring constraint, a velocity drive on an axis
    without a motor); then drives only Blender holds (a motor switched on in its panel)."""
    left = list(read)
    drives = []
    for drive in settings:
        if not (drive.axis in motor_axes if _velocity(drive) else springs):
            drives.append(drive)
            continue
        found = next((other for other in left if _same(drive, other)), None)
        if found is not None:
            left.remove(found)
            drives.append(_merged(drive, found))
    return (*drives, *left)


def _kept_frame(made: bpy.types.Object) -> Frame | None:
    """The frame kept with the constraint's build record; a record from before frames were kept said it read
    back only for one constraint at the joint's frame with the body starting there: that frame."""
    value = built_values.constraint_frame(made)
    if value is None and built_values.constraint_exact(made):
        return Frame((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), ((0, 1), (1, 1), (2, 1)))
    return Frame.read(value)


def read_joint(made: Sequence[bpy.types.Object], settings: model.JointSettings,
               placed: Sequence[Frame] | None = None,
               issues: list[model.Issue] | None = None) -> model.JointSettings | None:
    """The joint's limits and drives as its constraint objects `made` hold them now, onto `settings` (which keep
    what Blender does not hold); None when they cannot be read back (one is off or joins no two bodies, no build
    record of their frame, or more than one constraint holding limits), with the warnings in `issues`.
    `placed`: their frames, else those kept with their build records (`_kept_frame`)."""
    found_frames = placed if placed is not None else [_kept_frame(obj) for obj in made]
    rows: list[tuple[bpy.types.Object, str, Frame]] = []
    for obj, found in zip(made, found_frames, strict=True):
        constraint = obj.rigid_body_constraint
        if constraint is None or found is None or not from_constraints.usable(obj, issues):
            return None
        rows.append((obj, constraint.type, found))
    main = [row for row in rows if row[1] != 'MOTOR']
    if len(main) > 1:
        return None
    limits: tuple[model.JointLimit, ...] = ()
    read: list[model.JointDrive] = []
    springs = False
    motor_axes: set[int] = set()
    for obj, kind, found in rows:
        if kind == 'MOTOR':
            motor_axes.add(axes.joint_axes((found.axes[0][0],), to_blender=False)[0][0])
        else:
            limits = _limits_onto(settings.limits, _limits(obj, found, issues))
            springs = kind == 'GENERIC_SPRING'
        read += _drives(obj, found, issues)
    drives = _drives_onto(settings.drives, read, springs, motor_axes)
    return dataclasses.replace(settings, limits=limits, drives=drives)


def reads_back(made: Sequence[bpy.types.Object], settings: model.JointSettings, placed: Sequence[Frame]) -> bool:
    """Whether the joint's constraint objects, as the build just wrote them where it `placed` them, read back as
    these settings."""
    found = read_joint(made, settings, placed)
    return found is not None and _unchanged(found.limits, settings.limits) \
        and _unchanged(found.drives, settings.drives)


def _unchanged(found: Sequence[Any], settings: Sequence[Any]) -> bool:
    """Whether items read back are the settings' (the reading hands the settings' own back, in their order, where
    they read back unchanged), else equal within float32 rounding."""
    if len(found) == len(settings) and all(item is own for item, own in zip(found, settings, strict=True)):
        return True
    return _items(found) == _items(settings)
