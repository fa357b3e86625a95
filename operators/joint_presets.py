"""The spec's special-case joints as limits, in the joint object's local Blender axes.

OMI_physics_joint names four special cases ("fixed" = min and max zero, "free" = not limited):
fixed (all axes fixed), pin (linear fixed, angular free), hinge (one angular axis in a range, the rest
fixed) and slider (one linear axis in a range, optionally the rotation around it in a range too, the
rest fixed).
"""

from __future__ import annotations

from dataclasses import dataclass

AXIS_INDEX = {'X': 0, 'Y': 1, 'Z': 2}


@dataclass(frozen=True)
class LimitSpec:
    kind: str  # 'LINEAR' or 'ANGULAR'
    axes: tuple[int, ...]
    min: float | None
    max: float | None


def _others(axis: int) -> tuple[int, ...]:
    return tuple(i for i in range(3) if i != axis)


def preset_limits(preset: str, axis: str = 'Z', lower: float = 0.0, upper: float = 0.0,
                  turn: tuple[float, float] | None = None) -> list[LimitSpec]:
    """The limits of a preset; `axis`/`lower`/`upper` are the hinge's angle range or the slider's travel.

    `turn` (slider only) lets the slider also turn around its axis within (min, max) radians.
    """
    index = AXIS_INDEX[axis]
    all_axes = (0, 1, 2)
    if preset == 'FIXED':
        return [LimitSpec('LINEAR', all_axes, 0.0, 0.0), LimitSpec('ANGULAR', all_axes, 0.0, 0.0)]
    if preset == 'PIN':
        return [LimitSpec('LINEAR', all_axes, 0.0, 0.0)]
    if preset == 'HINGE':
        return [
            LimitSpec('LINEAR', all_axes, 0.0, 0.0),
            LimitSpec('ANGULAR', _others(index), 0.0, 0.0),
            LimitSpec('ANGULAR', (index,), lower, upper),
        ]
    if preset == 'SLIDER':
        limits = [LimitSpec('LINEAR', (index,), lower, upper), LimitSpec('LINEAR', _others(index), 0.0, 0.0)]
        if turn is None:
            limits.append(LimitSpec('ANGULAR', all_axes, 0.0, 0.0))
        else:
            limits += [LimitSpec('ANGULAR', _others(index), 0.0, 0.0), LimitSpec('ANGULAR', (index,), *turn)]
        return limits
    return []  # CUSTOM: the artist builds the limits


def write_limits(joint_settings, limits: list[LimitSpec]) -> None:
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


def ranged_axis(joint_settings) -> tuple[str, int] | None:
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
