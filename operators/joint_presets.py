"""The spec's special-case joints as limits, in the joint object's local Blender axes.

OMI_physics_joint names four special cases ("fixed" = min and max zero, "free" = not limited):
fixed (all axes fixed), pin (linear fixed, angular free), hinge (one angular axis in a range, the rest
fixed) and slider (one linear axis in a range, optionally the rotation around it in a range too, the
rest fixed).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..io.blender.tables import constraints
from ..properties.joint import OMIJointSettings

AXIS_INDEX = {letter: index for index, letter in enumerate(constraints.AXIS_IDS)}


@dataclass(frozen=True)
class LimitSpec:
    kind: str  # 'LINEAR' or 'ANGULAR'
    axes: tuple[int, ...]
    min: float | None
    max: float | None


def preset_limits(preset: str, axis: str = 'Z', lower: float = 0.0, upper: float = 0.0,
                  turn: tuple[float, float] | None = None) -> list[LimitSpec]:
    """The limits of a preset; `axis`/`lower`/`upper` are the hinge's angle range or the slider's travel.

    `turn` (slider only) lets the slider also turn around its axis within (min, max) radians. The degrees
    of freedom come from the Blender constraint type that expresses the preset (`constraints`), so a
    preset builds exactly that constraint. CUSTOM (the artist builds the limits) gives none.
    """
    if preset not in constraints.SPECIAL_JOINTS:
        return []
    kind = constraints.special_kind(preset, turning=turn is not None)
    index = AXIS_INDEX[axis]
    fixed: dict[bool, list[int]] = {False: [], True: []}
    ranged: list[tuple[bool, int]] = []
    for dof, role in kind.roles.items():
        angular, joint_axis = constraints.joint_dof(kind, dof, index)
        if role == constraints.FIXED:
            fixed[angular].append(joint_axis)
        elif role == constraints.LIMITED:
            ranged.append((angular, joint_axis))
    # the working degree of freedom's range, then the slider's turn (a turning kind has a second one)
    ranges = [(lower, upper)] if turn is None else [(lower, upper), turn]
    specs = {dof: LimitSpec('ANGULAR' if dof[0] else 'LINEAR', (dof[1],), *ranges[position])
             for position, dof in enumerate(ranged)}
    fixed_specs = {angular: LimitSpec('ANGULAR' if angular else 'LINEAR', tuple(sorted(found)), 0.0, 0.0)
                   for angular, found in fixed.items() if found}
    # Travel before the fixed linear axes, turning after the fixed angular ones.
    travel = [spec for dof, spec in specs.items() if not dof[0]]
    turning = [spec for dof, spec in specs.items() if dof[0]]
    linear_specs = travel + ([fixed_specs[False]] if False in fixed_specs else [])
    angular_specs = ([fixed_specs[True]] if True in fixed_specs else []) + turning
    return linear_specs + angular_specs


def write_limits(joint_settings: OMIJointSettings, limits: list[LimitSpec]) -> None:
    """Replace a joint's limits with `limits` (rigid: no stiffness, no damping)."""
    joint_settings.limits.clear()
    for spec in limits:
        limit = joint_settings.limits.add()
        limit.kind = spec.kind
        limit.axis_x, limit.axis_y, limit.axis_z = (i in spec.axes for i in range(3))
        limit.use_min = spec.min is not None
        limit.use_max = spec.max is not None
        suffix = "linear" if spec.kind == 'LINEAR' else "angular"
        setattr(limit, f"min_{suffix}", spec.min or 0.0)
        setattr(limit, f"max_{suffix}", spec.max or 0.0)
    joint_settings.limits_active_index = 0


def ranged_axis(joint_settings: OMIJointSettings) -> tuple[str, int] | None:
    """(kind, axis) of the single-axis limit with a real range: what a hinge turns or a slider slides on."""
    for limit in joint_settings.limits:
        axes = limit.axes
        if len(axes) != 1:
            continue
        suffix = "linear" if limit.kind == 'LINEAR' else "angular"
        lo = getattr(limit, f"min_{suffix}") if limit.use_min else None
        hi = getattr(limit, f"max_{suffix}") if limit.use_max else None
        if lo is None or hi is None or lo != hi:
            return limit.kind, axes[0]
    return None
