"""Facts about glTF physics values that several layers need, each with one home (no bpy here).

io/blender, properties and operators import these instead of restating them: the capsule height
conventions, how a joint range reads from the other side, the names of the glTF axes, the bounds a
limit of each kind may take, and the convex hull vertex limit.
"""

from __future__ import annotations

import math
from typing import overload

# Convex hulls: several engines (PhysX, Unity's cooking) accept at most this many vertices.
HULL_VERTEX_LIMIT = 255

# The glTF axes, in joint axis index order (limits' linearAxes/angularAxes, a drive's axis).
AXIS_NAMES: tuple[str, str, str] = ("X", "Y", "Z")

# The widest angular limit that still means something (beyond a full turn each way it is free);
# linear limits have no bound.
ANGULAR_LIMIT_BOUND = 2.0 * math.pi
LINEAR_LIMIT_BOUND = math.inf


def held_choice(value: str, choices: tuple[str, ...]) -> str:
    """What Blender's settings hold for an enum value of the file: itself when they know it, else the first
    choice (a drive type or mode that another extension may define; the import and its message both say so)."""
    return value if value in choices else choices[0]


def axis_name(axis: int) -> str:
    """'X', 'Y' or 'Z' for a joint axis index."""
    return AXIS_NAMES[axis]


def limit_bound(angular: bool) -> float:
    """How far a limit of this kind may reach either way."""
    return ANGULAR_LIMIT_BOUND if angular else LINEAR_LIMIT_BOUND


@overload
def reversed_range(low: float, high: float) -> tuple[float, float]: ...
@overload
def reversed_range(low: float | None, high: float | None) -> tuple[float | None, float | None]: ...
def reversed_range(low: float | None, high: float | None) -> tuple[float | None, float | None]:
    """A range [low, high] seen from the other body: negated and swapped (None: open on that side)."""
    return (None if high is None else -high, None if low is None else -low)


def capsule_mid_height(full_height: float, radius: float) -> float:
    """The spec's capsule `height` (between the hemisphere centres) from the full height (tip to tip)."""
    return full_height - 2.0 * radius


def capsule_full_height(mid_height: float, radius: float) -> float:
    """Tip-to-tip length of a capsule from the spec's mid-height and its radius."""
    return mid_height + 2.0 * radius
